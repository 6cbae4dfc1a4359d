"""A span file whose last line was torn (a `medpath serve` worker killed with SIGKILL while writing, as
``tests/test_scale_out.py`` does) failed every later forget: "cannot rewrite the span file …: Unterminated string",
after the memory was already gone. And the next span appended went onto the torn line, unreadable too."""

from __future__ import annotations

import json
from pathlib import Path

from core.tracing import span, start_run
from medpath.forgetting import _forget_spans

TORN = '{"name": "medpath.question", "trace_id": "t-torn", "attributes": {"medpath.user_hash": "'


def test_a_span_after_a_torn_line_starts_a_line_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "otel" / "torn-run.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"name": "whole", "trace_id": "t0"}) + "\n" + TORN + "abc")
    with start_run("torn-run", tmp_path, keep=False), span("after the tear"):
        pass
    lines = path.read_text().splitlines()
    assert lines[1] == TORN + "abc" and json.loads(lines[-1])["name"] == "after the tear", lines
    assert path.read_text().endswith("\n")


def test_forgetting_drops_torn_lines_that_name_the_user_and_keeps_the_others(tmp_path: Path) -> None:
    folder = tmp_path / "otel"
    folder.mkdir()
    theirs = {"name": "medpath.question", "trace_id": "t1", "attributes": {"medpath.user_hash": "h-gone"}}
    child = {"name": "medpath.planner", "trace_id": "t1", "attributes": {}}
    other = {"name": "medpath.question", "trace_id": "t2", "attributes": {"medpath.user_hash": "h-stays"}}
    torn_theirs, torn_other = TORN + "h-gone", TORN + "h-sta"
    (folder / "serve-1.jsonl").write_text("\n".join([json.dumps(theirs), torn_theirs, json.dumps(other), json.dumps(child),
                                                     torn_other]))
    assert _forget_spans(folder, "medpath.user_hash", "h-gone") == 3
    assert (folder / "serve-1.jsonl").read_text().splitlines() == [json.dumps(other), torn_other]
    # a file with a torn line and nothing of the user's is left as it was
    assert _forget_spans(folder, "medpath.user_hash", "h-nobody") == 0
    assert (folder / "serve-1.jsonl").read_text().splitlines() == [json.dumps(other), torn_other]
