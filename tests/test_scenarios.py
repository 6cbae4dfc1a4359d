"""Scenarios S1–S7 on the real graph, their span trees, the audit/content rules, the summary and the HTML timeline."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.settings import Settings, child_env
from core.tracing import start_run
from medpath.cli import cli
from medpath.scenarios import run_scenarios
from medpath.trace_report import html_timeline, summarize

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def scenario_run(resources, tmp_path_factory):
    traces = tmp_path_factory.mktemp("traces")
    settings = Settings.from_env()
    with start_run("scenarios-test", traces) as run:
        results = {r.id: r for r in run_scenarios(settings, ["all"], run, res=resources)}
    return results, run, traces


def _names(spans):
    return [s["name"] for s in spans]


def _nodes(spans):
    return {s["name"][5:] for s in spans if s["name"].startswith("node.")}


@pytest.mark.parametrize("sid", ["S1", "S2", "S3", "S4", "S5", "S6", "S7"])
def test_scenario_passes(scenario_run, sid: str) -> None:
    r = scenario_run[0][sid]
    assert r.passed, r.reasons


def test_span_trees(scenario_run) -> None:
    res = scenario_run[0]
    full = {"planner", "retriever", "reviewer", "memory", "explainer"}
    # S1: every node ran and the memory write is a span of its own
    s1 = res["S1"].spans
    assert _nodes(s1) == full
    assert any(s["name"] == "store.memory.write" and s["attributes"]["medpath.memory.written"] for s in s1)
    # each question is one trace whose root is medpath.question; tool spans hang below the nodes
    assert sum(1 for s in s1 if s["parent_id"] is None) == 1 and s1[-1]["name"] == "medpath.question"
    by_id = {s["span_id"]: s for s in s1}
    walk = next(s for s in s1 if s["name"] == "tool.walker.walk")
    # the walk runs as the graph store of the hybrid retrieval service, inside the retriever node
    service = by_id[walk["parent_id"]]
    assert service["name"] == "tools.retrieval.hybrid" and by_id[service["parent_id"]]["name"] == "node.retriever"
    # S2: the first trace stops in the planner with the interrupt recorded, the resumed one completes
    s2 = res["S2"].spans
    roots = [s for s in s2 if s["name"] == "medpath.question"]
    assert [r["attributes"]["medpath.status"] for r in roots] == ["NEEDS_CLARIFICATION", "ANSWERED"]
    first = [s for s in s2 if s["trace_id"] == roots[0]["trace_id"]]
    assert _nodes(first) == {"planner"}
    planner = next(s for s in first if s["name"] == "node.planner")
    assert planner["attributes"]["medpath.interrupt"] is True and planner["status"] != "ERROR"
    assert _nodes([s for s in s2 if s["trace_id"] == roots[1]["trace_id"]]) == full
    # S3: deep path, no dense search needed
    assert "tool.dense.search" not in _names(res["S3"].spans)
    # S4: the walk starved, dense search ran without error, the walk ran again
    s4 = res["S4"].spans
    dense = [s for s in s4 if s["name"] == "tool.dense.search"]
    assert dense and all(s["status"] != "ERROR" for s in dense)
    # the rescue walks to the named disease first, then (finding none) with the intermediate seeds too
    assert _names(s4).count("tool.walker.walk") == 3
    # S5: no candidate, so no reviewer; the explainer says NOT_FOUND
    s5 = res["S5"].spans
    assert "reviewer" not in _nodes(s5)
    assert next(s for s in s5 if s["name"] == "node.explainer")["attributes"]["medpath.status"] == "NOT_FOUND"
    # S6: the memory read boosted a path by 1.15
    s6 = res["S6"].spans
    assert next(s for s in s6 if s["name"] == "store.memory.read")["attributes"]["medpath.memory.boosted"] >= 1
    assert next(s for s in s6 if s["name"] == "node.retriever")["attributes"]["medpath.memory.boost_factor"] == 1.15
    # S7: the dense search span is an error span, and the retriever records the fallback
    s7 = res["S7"].spans
    err = next(s for s in s7 if s["name"] == "tool.dense.search")
    assert err["status"] == "ERROR" and err["attributes"]["error.type"] == "DenseUnavailableError"
    assert any(e["name"] == "exception" for e in err["events"])
    retr = next(s for s in s7 if s["name"] == "node.retriever")
    # a walk of depth 1 joins no path from Etanercept to the disease: the shortest chains (3 steps) answer
    assert retr["attributes"]["medpath.fallback.components"] == ["dense", "walker"]


def test_summary_comes_from_the_trace(scenario_run) -> None:
    _, run, _ = scenario_run
    facts = summarize(run.spans)
    assert facts["questions"] == 9  # 7 scenarios, the S2 resume, the S6 warm-up
    # S5 is the one NOT_FOUND; S4 and S7 (depth 1) are answered by the shortest-chain fallback
    assert facts["statuses"]["NEEDS_CLARIFICATION"] == 1 and facts["statuses"]["NOT_FOUND"] == 1
    assert facts["fallbacks"] == {"dense": 1, "walker": 2} and "tool.dense.search" in facts["error_spans"]
    assert facts["memory_writes"] == facts["paths_accepted"] > 0
    assert set(facts["node_ms"]) == {"planner", "retriever", "reviewer", "memory", "explainer"}


def _ask(runner: CliRunner, question: str) -> None:
    res = runner.invoke(cli, ["ask", "--json", "--user", "Alice Smith", question])
    assert res.exit_code == 0, res.output


def test_audit_and_traces_hold_no_content_unless_capture_is_on(settings, tmp_path, monkeypatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    monkeypatch.setenv("MEDPATH_HOME", str(home))
    monkeypatch.setenv("MEDPATH_TRACES_DIR", str(tmp_path / "off"))
    monkeypatch.delenv("MEDPATH_CAPTURE_CONTENT", raising=False)
    runner = CliRunner()
    question = "How does imatinib treat CML (ph+)?"
    _ask(runner, question)
    names = ["imatinib", "CML", "Chronic myeloid leukemia", "Tyrosine-protein kinase ABL1", "Alice Smith"]
    audit = (tmp_path / "off" / "audit" / "audit.jsonl").read_text()
    spans = "".join(p.read_text() for p in (tmp_path / "off" / "otel").glob("*.jsonl"))
    assert audit and spans
    for text in (audit, spans):
        assert not any(n.lower() in text.lower() for n in names)
    rec = json.loads(audit.splitlines()[-1])
    assert rec["action"] == "retrieve" and rec["force_route"] is False and rec["counts"]["candidates"] > 0
    assert set(rec) <= {"ts", "trace_id", "action", "route", "rule_id", "mode", "force_route", "latency_ms", "counts",
                        "outcome", "fallbacks"}
    # with content capture on, the trace holds the question and entity names; the audit still does not
    monkeypatch.setenv("MEDPATH_TRACES_DIR", str(tmp_path / "on"))
    monkeypatch.setenv("MEDPATH_CAPTURE_CONTENT", "1")
    _ask(runner, question)
    spans_on = "".join(p.read_text() for p in (tmp_path / "on" / "otel").glob("*.jsonl"))
    assert question in spans_on and "imatinib" in spans_on
    audit_on = (tmp_path / "on" / "audit" / "audit.jsonl").read_text()
    assert not any(n.lower() in audit_on.lower() for n in names)


def test_html_timeline_renders_in_chromium(scenario_run, tmp_path) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    _, run, _ = scenario_run
    page = tmp_path / "timeline.html"
    page.write_text(html_timeline("scenarios-test", run.spans))
    out = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=90, check=False)
    dom = out.stdout
    assert 'class="row span"' in dom, out.stderr[-500:]
    for name in ("medpath.question", "node.retriever", "tool.dense.search", "store.memory.write"):
        assert f'data-name="{name}"' in dom
    assert 'class="bar ERROR"' in dom  # the S7 error span is drawn red
    assert dom.count('class="row span"') == len(run.spans)


def test_traces_cli(scenario_run, monkeypatch) -> None:
    _, run, traces = scenario_run
    monkeypatch.setenv("MEDPATH_TRACES_DIR", str(traces))
    runner = CliRunner()
    res = runner.invoke(cli, ["traces", "show", run.run_id])
    assert res.exit_code == 0 and "tool.dense.search" in res.output and "ERROR" in res.output
    res = runner.invoke(cli, ["traces", "summary", run.run_id])
    assert res.exit_code == 0 and "9 question(s)" in res.output
    res = runner.invoke(cli, ["traces", "view", run.run_id, "--html"])
    assert res.exit_code == 0 and Path(res.output.strip()).read_text().startswith("<!doctype html>")
    res = runner.invoke(cli, ["traces", "show", "nope"])
    assert res.exit_code != 0 and "NotFoundError" in res.output
    res = runner.invoke(cli, ["traces", "list"])
    assert run.run_id in res.output


@pytest.mark.slow
def test_no_collector_listening_does_not_hang(settings, tmp_path, free_port) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    env = child_env(MEDPATH_HOME=str(home), MEDPATH_TRACES_DIR=str(tmp_path / "t"),
                    MEDPATH_OTLP_ENDPOINT=f"http://127.0.0.1:{free_port}")
    out = subprocess.run([sys.executable, "-m", "medpath.cli", "ask", "--json", "What does imatinib target?"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-800:]
    assert json.loads(out.stdout)["status"] == "ANSWERED"


def test_context_propagation_joins_the_trace(tmp_path) -> None:
    from core.tracing import inject_context, joined, span

    with start_run("propagation", tmp_path) as run:
        with span("caller") as caller:
            headers = inject_context()
        with joined(headers, "tool.remote"):
            pass
    assert "traceparent" in headers
    caller_rec = next(s for s in run.spans if s["name"] == "caller")
    remote = next(s for s in run.spans if s["name"] == "tool.remote")
    assert remote["trace_id"] == caller_rec["trace_id"] and remote["parent_id"] == caller_rec["span_id"]
    assert caller.get_span_context().is_valid
    with start_run("server-like", tmp_path, keep=False) as quiet, span("served"):  # a server's run: on disk only
        pass
    assert quiet.spans == [] and '"served"' in quiet.path.read_text()


def test_a_run_writes_a_trace_once_it_ends_and_everything_at_close(tmp_path) -> None:
    """Spans wait until the span that ends their trace in this process, then go to the file in one write; a run
    that closes writes what still waits (no span is lost)."""
    from core.tracing import span

    with start_run("batched", tmp_path) as run:
        with span("question"):
            with span("step"):
                pass
            assert run.path.read_text() == ""  # the step waits for its question
        assert [json.loads(line)["name"] for line in run.path.read_text().splitlines()] == ["step", "question"]
        still_open = span("never-ended-parent")  # a trace still open when the run closes
        still_open.__enter__()
        with span("child-of-open"):
            pass
    assert "child-of-open" in run.path.read_text()
    still_open.__exit__(None, None, None)  # ends after the run: written nowhere

