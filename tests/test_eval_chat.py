"""``medpath eval chat``: the dialogue format, the turn checks, and a run through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.errors import DataError
from medpath.cli import cli
from medpath.evaluation.chat import check_turn, load_dialogues

ROOT = Path(__file__).resolve().parent.parent


def _write(path: Path, dialogues: list[dict]) -> Path:
    path.write_text("".join(json.dumps(d) + "\n" for d in dialogues))
    return path


def test_the_shipped_dialogues_are_valid() -> None:
    dialogues = load_dialogues(ROOT / "data" / "dialogues" / "chat_dev.jsonl")
    assert len(dialogues) >= 30 and all(3 <= len(d["turns"]) <= 5 for d in dialogues)
    tags = {t for d in dialogues for t in d["tags"]}
    assert {"followup-targets", "failure-mid-thread", "clarification", "topic-switch", "cross-process-resume"} <= tags


@pytest.mark.parametrize(("line", "why"), [
    ("not json", "line 1: not JSON"),
    ('{"turns": []}', "non-empty list of turns"),
    ('{"turns": [{"ask": "x", "resume": "1"}]}', "exactly one of ask/resume"),
    ('{"turns": [{"ask": "x", "expect": {"colour": "red"}}]}', "unknown expectation 'colour'"),
])
def test_broken_dialogue_files_name_the_line(tmp_path: Path, line: str, why: str) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(DataError, match=why):
        load_dialogues(path)


def test_check_turn() -> None:
    got = {"status": "ANSWERED", "entities": ["A", "B"], "intent": "targets", "rewritten": True, "clarify": None}
    assert check_turn({"status": "ANSWERED", "entities": ["A"], "intent": "targets", "rewritten": True}, got) == []
    assert check_turn({"status": "NOT_FOUND"}, got) == ["status ANSWERED ≠ NOT_FOUND"]
    assert check_turn({"entities": ["C"]}, got) == ["entities missing ['C']"]
    assert check_turn({"rewritten": False, "clarify": "it"}, got) == ["rewritten True ≠ False", "clarify None ≠ 'it'"]


def test_eval_chat_runs_and_counts_misses(settings, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MEDPATH_TRACES_DIR", str(tmp_path / "traces"))
    path = _write(tmp_path / "d.jsonl", [
        {"id": "a", "tags": ["followup"], "turns": [
            {"ask": "How does imatinib treat CML (ph+)?", "expect": {"status": "ANSWERED", "entities": ["MESH:D000068877"]}},
            {"ask": "and what does it target?", "expect": {"status": "ANSWERED", "intent": "targets", "rewritten": True}}]},
        {"id": "b", "tags": ["wrong-on-purpose"], "turns": [
            {"ask": "How does zorblaxin treat fever?", "expect": {"status": "NOT_FOUND"}},
            {"ask": "How does imatinib treat CML (ph+)?", "expect": {"status": "NOT_FOUND"}}]},
    ])
    res = CliRunner().invoke(cli, ["eval", "chat", "--dialogues", str(path), "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["turns"] == 4 and summary["turn_accuracy"] == 0.75 and summary["dialogue_accuracy"] == 0.5
    assert summary["by_tag"] == {"followup": 1.0, "wrong-on-purpose": 0.5}
    assert summary["misses"][0]["dialogue"] == "b" and summary["turn_ms_median"] > 0
    run = next((tmp_path / "traces" / "eval").glob("chat-*"))
    assert (run / "report.md").exists() and len((run / "questions.jsonl").read_text().splitlines()) == 4
