"""Memory inside the graph (S1, S6, the gate, modes, isolation) and the stream, ingest and eval commands."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from agents.state import Status
from medpath.cli import cli
from tools.judge import EmbeddedJudge

T0 = 1_767_600_000.0
DAY = 86400.0
Q = "What does imatinib target?"


def test_s1_accepted_edge_lands_in_the_vault(run_graph, memory_store) -> None:
    out, _ = run_graph({"question": Q, "user_id": "alice"}, now=T0)
    assert out["status"] is Status.ANSWERED and out["review"]["decision"] == "accept"
    assert out["route"]["rule_id"] == "default" and out["route"]["stores"] == ["vault", "graph"]
    w = out["memory"]["write"]
    assert w["written"] and w["vault"]["inserted"] == len(out["evidence"])
    t = out["evidence"][0]
    rows = memory_store.vault.current(["alice"], t["head"], t["relation"], as_of=T0 + 1)
    assert (t["head"], t["relation"], t["tail"]) in {f.key for f in rows}
    assert rows[0].confidence == pytest.approx(out["review"]["score"], abs=1e-3)
    assert memory_store.resolve(["alice"], "IMATINIB") == [t["head"]]  # found by its (folded) name


def test_s6_same_user_three_days_later_gets_the_boost(run_graph, memory_store) -> None:
    first, _ = run_graph({"question": Q, "user_id": "alice"}, thread="d0", now=T0)
    edge = tuple(first["evidence"][0][k] for k in ("head", "relation", "tail"))
    later, _ = run_graph({"question": Q, "user_id": "alice"}, thread="d3", now=T0 + 3 * DAY)
    m = later["memory"]
    assert m["boost_factor"] == 1.15 and m["boosted"]
    b = m["boosted"][0]
    assert b["weight_ratio"] == pytest.approx(1.15) and b["score_after"] - b["score_before"] == pytest.approx(math.log(1.15), abs=1e-3)
    assert list(edge) in b["edges"]
    boosted = [c for c in later["candidates"] if c.get("boost")]
    assert boosted and boosted[0]["boost"] == 1.15
    assert any(h["store"] == "vault" for h in m["hits"])
    assert later["memory"]["write"]["touched"] >= 1
    # another user on the same day gets nothing from alice's memory
    other, _ = run_graph({"question": Q, "user_id": "bob"}, thread="b3", now=T0 + 3 * DAY)
    assert other["memory"]["boosted"] == [] and other["memory"]["hits"] == []


def test_reviewer_reject_never_reaches_the_vault(run_graph, resources, memory_store) -> None:
    strict = dataclasses.replace(resources, judge=EmbeddedJudge.from_json({**resources.judge.to_json(), "threshold": 1.01}))
    out, _ = run_graph({"question": Q, "user_id": "carol"}, resources=strict, now=T0)
    assert out["review"]["decision"] == "reject" and out["status"] is Status.NOT_FOUND
    assert out["memory"]["write"]["written"] is False
    assert memory_store.vault.count("carol") == 0 and memory_store.episodic.count("carol", now=T0) == 0


def test_modes_pass_through_the_pipeline(run_graph) -> None:
    out, _ = run_graph({"question": "What did we find last time about imatinib?", "user_id": "a", "mode": "knowledge_lookup"})
    assert out["route"]["rule_id"] == "past-context" and "episodic" not in out["route"]["stores"]
    out, _ = run_graph({"question": Q, "user_id": "a", "mode": "session_recovery"})
    assert out["route"]["stores"][0] == "episodic"
    out, _ = run_graph({"question": Q, "mode": "nonsense"})
    assert out["status"] is Status.ERROR and "mode" in out["error"]


def test_memory_and_router_switches(run_graph, memory_store) -> None:
    out, _ = run_graph({"question": Q, "user_id": "dave"}, memory=False)
    assert out["memory"]["write"] == {"written": False, "reason": "memory off"}
    assert memory_store.vault.count("dave") == 0
    out, _ = run_graph({"question": Q, "user_id": "dave"}, router=False)
    assert out["route"]["rule_id"] == "router-off" and "dense" in out["route"]["stores"]


@pytest.fixture(scope="module")
def stream(tmp_path_factory) -> tuple[Path, Path]:
    from core.settings import Settings
    from memory.synth import StreamSpec, synth_stream, write_stream

    events, probes = synth_stream(StreamSpec(seed=3, users=4, patients=24), Settings.from_env().data_dir)
    return write_stream(events, probes, tmp_path_factory.mktemp("stream"))


def test_synth_is_seeded_and_complete(stream) -> None:
    from core.settings import Settings
    from memory.synth import StreamSpec, synth_stream

    events = [json.loads(x) for x in stream[0].read_text().splitlines()]
    probes = [json.loads(x) for x in stream[1].read_text().splitlines()]
    again, _ = synth_stream(StreamSpec(seed=3, users=4, patients=24), Settings.from_env().data_dir)
    assert again == events
    labels = {e["label"] for e in events}
    assert {"valid", "switch", "lab_update", "repeat", "hedged", "negated", "irrelevant", "kg_fact"} <= labels
    assert {p["kind"] for p in probes} >= {"current", "leak", "kg"}
    assert all(p["expected"] is None for p in probes if p["kind"] == "leak")
    assert [e["ts"] for e in events] == sorted(e["ts"] for e in events)


def test_eval_memory_beats_no_memory(stream, settings, resources) -> None:
    from medpath.evaluation.memory import run_memory_eval

    out = run_memory_eval(stream[0], stream[1], settings, kg=resources.kg)
    mem, off = out["systems"]["memory"], out["systems"]["no-memory"]
    assert mem["recall@1_day7"] >= 0.9 and mem["recall@1_day7"] > off["recall@1_day7"]
    assert mem["leaks"] == 0
    gate = out["ingest"]["by_label"]
    assert gate["negated"]["accepted"] == 0 and gate["irrelevant"]["accepted"] == 0
    assert gate["valid"]["rejected"] == 0


@pytest.fixture()
def runner(settings, tmp_path, monkeypatch) -> CliRunner:
    monkeypatch.setenv("MEDPATH_HOME", str(tmp_path))
    (tmp_path / "index").symlink_to(settings.index_dir)
    return CliRunner()


def test_memory_cli_round_trip(runner: CliRunner, stream) -> None:
    res = runner.invoke(cli, ["memory", "ingest", "--quiet", str(stream[0])])
    assert res.exit_code == 0, res.output
    assert "accepted" in res.output and "rejected by the reviewer" in res.output
    res = runner.invoke(cli, ["memory", "list"])
    assert "u01" in res.output
    res = runner.invoke(cli, ["memory", "show", "u01", "--json"])
    rows = [json.loads(x) for x in res.output.splitlines()]
    assert rows and all(r["owner"] == "u01" and r["quality"] == 1 for r in rows)
    res = runner.invoke(cli, ["memory", "stats", "--json"])
    assert json.loads(res.output)["vault"]["superseded"] > 0
    res = runner.invoke(cli, ["memory", "forget", "u01", "--yes"])
    assert res.exit_code == 0 and res.output.startswith("forgot u01:")
    assert int(res.output.split(":")[1].split()[0]) > 0
    res = runner.invoke(cli, ["memory", "show", "u01"])
    assert "no facts" in res.output
    res = runner.invoke(cli, ["memory", "prune", "--max-rows", "10"])
    assert res.exit_code == 0 and "pruned" in res.output
    assert json.loads(runner.invoke(cli, ["memory", "stats", "--json"]).output)["vault"]["rows"] == 10


def test_memory_cli_errors(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"ts": "2026-01-05T08:00:00Z", "owner": "u"}\nnot json\n')
    res = runner.invoke(cli, ["memory", "ingest", str(bad)])
    assert res.exit_code != 0 and "bad.jsonl line 1" in res.output and "Traceback" not in res.output
    res = runner.invoke(cli, ["memory", "route", "Any new study on metformin?"])
    assert "recent-literature" in res.output
    res = runner.invoke(cli, ["memory", "forget", " ", "--yes"])
    assert res.exit_code == 2 and "give the owner" in res.output and "forgot" not in res.output


def test_eval_memory_cli(runner: CliRunner, stream, tmp_path: Path) -> None:
    out = tmp_path / "runs"
    res = runner.invoke(cli, ["eval", "memory", "--quiet", "--events", str(stream[0]), "--probes", str(stream[1]),
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "Recall@1 day 7" in res.output and "no-memory" in res.output
    (run,) = list(out.iterdir())
    assert {"config.json", "questions.jsonl", "metrics.json", "memory.png", "report.md"} <= {p.name for p in run.iterdir()}
    probes = stream[1].read_text().splitlines()
    assert len((run / "questions.jsonl").read_text().splitlines()) == len(probes)
