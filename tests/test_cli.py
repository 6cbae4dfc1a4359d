"""The CLI through CliRunner: JSON answers, clarification round-trip, one-line errors, help everywhere."""

from __future__ import annotations

import json
import re

import click
import pytest
from click.testing import CliRunner

from core.settings import Settings, child_env
from medpath.cli import cli


@pytest.fixture()
def runner(settings, tmp_path, monkeypatch) -> CliRunner:
    # the index stays where it is; checkpoints go to a temporary home
    monkeypatch.setenv("MEDPATH_HOME", str(tmp_path))
    (tmp_path / "index").symlink_to(settings.index_dir)
    return CliRunner()


def test_ask_json(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["ask", "--json", "How does imatinib treat CML (ph+)?"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["status"] == "ANSWERED" and out["evidence"]


def test_ask_streams_steps(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["ask", "How does imatinib treat CML (ph+)?"])
    assert res.exit_code == 0
    lines = res.output.splitlines()
    assert [ln.split()[0] for ln in lines[:5]] == ["planner", "retriever", "reviewer", "memory", "explainer"]
    assert any(ln.startswith("path:") for ln in lines)


def test_clarification_round_trip(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["ask", "--json", "--thread", "c1", "How does metformin treat diabetes?"])
    out = json.loads(res.output)
    assert out["status"] == "NEEDS_CLARIFICATION"
    names = [c["name"] for c in out["interrupt"]["candidates"]]
    res = runner.invoke(cli, ["ask", "--json", "--thread", "c1", "--resume", "Diabetes mellitus type 1"])
    out = json.loads(res.output)
    assert out["status"] == "ANSWERED", names
    assert out["targets"][0] == "MESH:D003922"  # the chosen entity is what the walk ends at


def test_chat_keeps_the_thread_asks_at_the_prompt_and_quits_on_a_word(runner: CliRunner) -> None:
    """``medpath chat`` had no test. A follow-up that fits two drugs is asked at the ``choice>`` prompt, and "quit"
    ends the session (it was asked as a question: "no known entity in the question")."""
    typed = "compare imatinib and dasatinib\nwhat does it target?\n2\nquit\nHow does imatinib treat CML?\n"
    res = runner.invoke(cli, ["chat", "--user", "tester"], input=typed)
    assert res.exit_code == 0, res.output
    assert 'Which drug does "it" mean: imatinib or Dasatinib?' in res.output and "  2. Dasatinib (" in res.output
    assert "understood as: What does Dasatinib target?" in res.output
    assert "no known entity" not in res.output and res.output.count("status: ") == 2  # nothing asked after "quit"
    assert res.output.rstrip().endswith("bye")


def test_chat_leaves_a_clarification_on_an_empty_choice(runner: CliRunner) -> None:
    """At ``choice>`` every line was sent as the answer, so the only way out of a clarification was to answer it or to
    quit; an empty line now leaves it, and a question after it is about the pending one ("what about gout?")."""
    typed = "How does metformin treat diabetes?\n\nwhat about gout?\nquit\n"
    res = runner.invoke(cli, ["chat", "--user", "tester"], input=typed)
    assert res.exit_code == 0, res.output
    assert "(left unanswered" in res.output and res.output.count("choice> ") == 1, res.output
    assert "understood as: How does metformin treat Gout?" in res.output.replace("Metformin", "metformin"), res.output


def test_threads_can_be_listed_shown_and_deleted(runner: CliRunner) -> None:
    """``medpath threads`` had only ``prune``: the conversations ``ask --thread`` and ``chat`` keep could not be seen
    or removed from the CLI."""
    assert runner.invoke(cli, ["threads", "list"]).output.strip() == "no threads"
    runner.invoke(cli, ["ask", "--thread", "tl", "How does imatinib treat CML?"])
    runner.invoke(cli, ["ask", "--thread", "tl", "what does it target?"])
    runner.invoke(cli, ["ask", "--thread", "tp", "How does metformin treat diabetes?"])
    listed = runner.invoke(cli, ["threads", "list"])
    assert listed.exit_code == 0 and listed.output.splitlines()[0].startswith("tp  1 question(s)  "), listed.output
    assert listed.output.splitlines()[1].startswith("tl  2 question(s)  ")
    assert listed.output.splitlines()[1].endswith("  How does imatinib treat CML?")
    shown = runner.invoke(cli, ["threads", "show", "tl"])
    assert shown.exit_code == 0 and shown.output.startswith("you> How does imatinib treat CML?\nmedpath [ANSWERED]> imatinib")
    assert 'you> what does it target?\nmedpath [ANSWERED]> Understood as: "What does imatinib target?"' in shown.output
    pending = runner.invoke(cli, ["threads", "show", "tp"])
    assert 'pending: Which "diabetes" do you mean?' in pending.output
    assert _thread_spans("tl") and _thread_spans("tp")  # the test can fail: both threads' questions left traces
    assert runner.invoke(cli, ["threads", "delete", "tl"]).output.strip() == "deleted thread tl"
    assert not _thread_spans("tl") and _thread_spans("tp")  # deleting a conversation drops its traces, no other
    again = runner.invoke(cli, ["threads", "delete", "tl"])
    assert again.exit_code == 3 and again.output.strip() == "Error: NotFoundError: no thread 'tl'"
    gone = runner.invoke(cli, ["threads", "show", "tl"])
    assert gone.exit_code == 3 and "no thread 'tl'" in gone.output
    assert runner.invoke(cli, ["threads", "list", "--limit", "1"]).output.startswith("tp  1 question(s)")


def _thread_spans(thread: str) -> list[dict]:
    """The spans, in every span file, of the traces of ``thread``'s questions."""
    folder = Settings.from_env().traces_dir / "otel"
    spans = [json.loads(line) for f in folder.glob("*.jsonl") for line in f.read_text().splitlines() if line.strip()]
    ids = {s["trace_id"] for s in spans if s["attributes"].get("medpath.thread_id") == thread}
    return [s for s in spans if s["trace_id"] in ids]


def test_errors_are_one_line(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["ask", "--json", "--thread", "nope", "--resume", "1"])
    assert res.exit_code != 0
    assert "Traceback" not in res.output and "NotFoundError" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_index_status(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["index", "status", "--json"])
    assert res.exit_code == 0
    assert all(v["status"] == "ready" for v in json.loads(res.output).values())


def _commands(group: click.Group, prefix: tuple[str, ...] = ()):
    ctx = click.Context(group)
    for name in group.list_commands(ctx):  # lazy commands too
        cmd = group.get_command(ctx, name)
        yield (*prefix, name)
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*prefix, name))


@pytest.mark.parametrize("path", list(_commands(cli)))
def test_every_command_has_help(path) -> None:
    res = CliRunner().invoke(cli, [*path, "--help"])
    assert res.exit_code == 0 and len(res.output) > 40


@pytest.mark.parametrize(("args", "code"), [
    (["ask", "How does imatinib treat CML (ph+)?"], 0),
    (["ask", "How does zorblaxin treat fever?"], 3),
    (["ask", "How does metformin treat diabetes?"], 4),
    (["ask", "--json", "How does metformin treat diabetes?"], 4),
    (["ask", "   "], 2),
    (["ask"], 2),
    (["ask", "--resume", "1"], 2),
])
def test_ask_exit_codes(runner: CliRunner, args: list[str], code: int) -> None:
    res = runner.invoke(cli, args)
    assert res.exit_code == code, res.output
    assert "Traceback" not in res.output


def test_not_found_names_the_term_and_suggests(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["ask", "How does zorblaxin treat cancer?"])
    assert res.exit_code == 3
    assert '"zorblaxin" is not in the knowledge graph' in res.output and "did you mean:" not in res.output
    res = runner.invoke(cli, ["ask", "How does prednisone treat lupus nephritis?"])
    assert res.exit_code == 3 and "did you mean: Lupus Erythematosus, Systemic (" in res.output, res.output


@pytest.mark.slow
def test_resume_from_another_process(settings, tmp_path) -> None:
    import subprocess
    import sys

    (tmp_path / "index").symlink_to(settings.index_dir)
    env = child_env(MEDPATH_HOME=str(tmp_path))
    cmd = [sys.executable, "-m", "medpath.cli", "ask", "--json", "--thread", "xp"]
    first = subprocess.run([*cmd, "How does metformin treat diabetes?"], capture_output=True, text=True, env=env, timeout=120, check=False)
    assert first.returncode == 4, first.stderr
    pick = next(i for i, c in enumerate(json.loads(first.stdout)["interrupt"]["candidates"], 1) if c["id"] == "MESH:D003922")
    second = subprocess.run([*cmd, "--resume", str(pick)], capture_output=True, text=True, env=env, timeout=120, check=False)
    out = json.loads(second.stdout)
    assert out["targets"] == ["MESH:D003922"] and out["status"] in ("ANSWERED", "NOT_FOUND")
    third = subprocess.run([*cmd, "and what does it target?"], capture_output=True, text=True, env=env, timeout=120, check=False)
    assert json.loads(third.stdout)["intent"] == "targets"
    # a one-shot process freezes what it loaded (core.gc_policy): nothing it holds may be left to leak at exit
    assert not [p.stderr for p in (first, second, third) if "leaked" in p.stderr]


def test_traces_list_shows_time_status_and_redacted_question(runner: CliRunner, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MEDPATH_TRACES_DIR", str(tmp_path / "off"))
    monkeypatch.delenv("MEDPATH_CAPTURE_CONTENT", raising=False)
    runner.invoke(cli, ["ask", "How does imatinib treat CML (ph+)? Alice Smith MRN 5551234"])
    line = runner.invoke(cli, ["traces", "list"]).output.strip().splitlines()[0]
    assert "1 question" in line and "ANSWERED" in line and " ms" in line and re.search(r"\d{4}-\d\d-\d\d \d\d:", line)
    assert '"How does <Drug> treat <Disease>' in line  # no content unless capture is on
    assert not [w for w in ("imatinib", "CML", "Alice", "5551234") if w in line]
    monkeypatch.setenv("MEDPATH_TRACES_DIR", str(tmp_path / "on"))
    monkeypatch.setenv("MEDPATH_CAPTURE_CONTENT", "1")
    runner.invoke(cli, ["ask", "How does imatinib treat CML (ph+)? call 555-123-4567"])
    line = runner.invoke(cli, ["traces", "list"]).output.strip().splitlines()[0]
    assert '"How does imatinib treat CML (ph+)? call [redacted]"' in line


def test_memory_show_names_beside_ids(runner: CliRunner) -> None:
    runner.invoke(cli, ["ask", "--user", "ann", "How does imatinib treat CML (ph+)?"])
    res = runner.invoke(cli, ["memory", "show", "ann"])
    assert "imatinib (MESH:D000068877)" in res.output


@pytest.mark.parametrize("path", list(_commands(cli)))
def test_help_examples_keep_their_lines(path) -> None:
    """An example paragraph (lines that start with `medpath`) starts with click's \\b marker, so help does not
    run the examples together into one line."""
    cmd = cli
    for name in path:
        cmd = cmd.get_command(click.Context(cmd), name)
    paragraphs = [p.split("\n") for p in (cmd.help or "").split("\n\n")]
    examples = [p for p in paragraphs if any(line.strip().startswith("medpath ") for line in p[1:] + p[:1])
                and all(line.strip().startswith(("medpath ", "\b", "#")) or not line.strip() for line in p)]
    assert all(p[0].strip() == "\b" for p in examples), path
