"""``medpath eval chat``: scripted multi-turn dialogues through the real graph, thread by thread.

A dialogue file is JSONL, one dialogue per line (docs/formats.md)::

    {"id": "d1", "tags": ["followup"], "turns": [
      {"ask": "How does imatinib treat CML (ph+)?", "expect": {"status": "ANSWERED", "entities": ["MESH:D000068877"]}},
      {"ask": "and what does it target?", "expect": {"status": "ANSWERED", "intent": "targets", "rewritten": true}},
      {"resume": "2", "process": "new", "expect": {"status": "ANSWERED"}}]}

A turn is right when every expectation it states holds: ``status``; ``entities`` (each id among
the turn's resolved entities: its seeds, linked mentions and patient); ``intent``; ``rewritten``
(whether the planner resolved a follow-up); ``clarify`` (the mention a clarification asks about).
A turn with ``"process": "new"`` runs in a second process (``medpath ask --json``) on the same
home, so a thread started here is continued there. Each run uses a throw-away memory.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from core.datasets import json_lines
from core.errors import DataError, MedpathError
from core.settings import Settings, child_env
from medpath.metrics import percentile
from medpath.session import Session

__all__ = ["check_turn", "load_dialogues", "run_chat_eval", "turn_outcome"]

EXPECT_KEYS = frozenset({"status", "entities", "intent", "rewritten", "clarify"})
TURN_KEYS = frozenset({"ask", "resume", "expect", "process"})


def load_dialogues(path: Path) -> list[dict[str, Any]]:
    """Read and check a dialogue file; DataError names the line of the first problem."""
    out = []
    for n, d in json_lines(path):
        if not isinstance(d.get("turns"), list) or not d["turns"]:
            raise DataError(f"{path.name} line {n}: a dialogue needs a non-empty list of turns")
        for i, t in enumerate(d["turns"], 1):
            bad = set(t) - TURN_KEYS if isinstance(t, dict) else {"(not an object)"}
            if bad or ("ask" in t) == ("resume" in t) or not isinstance(t.get("expect", {}), dict):
                raise DataError(f"{path.name} line {n} turn {i}: a turn has exactly one of ask/resume, and expect")
            unknown = set(t.get("expect", {})) - EXPECT_KEYS
            if unknown:
                raise DataError(f"{path.name} line {n} turn {i}: unknown expectation {min(unknown)!r}")
        out.append({"id": str(d.get("id", f"line-{n}")), "tags": list(d.get("tags", [])), "turns": d["turns"]})
    if not out:
        raise DataError(f"{path.name}: no dialogues")
    return out


def turn_outcome(values: dict[str, Any]) -> dict[str, Any]:
    """What a turn is judged on, from the final state (or the pending clarification)."""
    ents = [*values.get("sources", []), *values.get("targets", [])]
    ents += [m["entity"]["id"] for m in values.get("mentions", []) if m.get("entity")]
    if values.get("patient_id"):
        ents.append(values["patient_id"])
    clar = values.get("interrupt") if values.get("status") == "NEEDS_CLARIFICATION" else None
    return {"status": str(values.get("status", "")), "intent": values.get("intent", ""),
            "entities": sorted(set(ents)), "rewritten": bool(values.get("understood_as")),
            "understood_as": values.get("understood_as", ""), "clarify": (clar or {}).get("mention"),
            "answer": str(values.get("answer", ""))[:200]}


def check_turn(expect: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """Why a turn missed its expectations (empty: it is right)."""
    why = []
    if "status" in expect and got["status"] != expect["status"]:
        why.append(f"status {got['status']} ≠ {expect['status']}")
    missing = [e for e in expect.get("entities", []) if e not in got["entities"]]
    if missing:
        why.append(f"entities missing {missing}")
    if "intent" in expect and got["intent"] != expect["intent"]:
        why.append(f"intent {got['intent']!r} ≠ {expect['intent']!r}")
    if "rewritten" in expect and got["rewritten"] != bool(expect["rewritten"]):
        why.append(f"rewritten {got['rewritten']} ≠ {expect['rewritten']}")
    if "clarify" in expect and (got["clarify"] or "").casefold() != str(expect["clarify"]).casefold():
        why.append(f"clarify {got['clarify']!r} ≠ {expect['clarify']!r}")
    return why


def _second_process(home: Path, thread: str, user: str, turn: dict[str, Any], timeout_s: float) -> dict[str, Any]:
    """Run one turn in a new ``medpath ask --json`` process on the same home."""
    cmd = [sys.executable, "-m", "medpath.cli", "ask", "--json", "--thread", thread, "--user", user]
    cmd += ["--resume", str(turn["resume"])] if "resume" in turn else [str(turn["ask"])]
    env = child_env(MEDPATH_HOME=str(home))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s, env=env, check=False)
    except subprocess.TimeoutExpired:
        return {"status": "ERROR", "error": f"second process ran past {timeout_s:.0f} s"}
    line = next((x for x in reversed(proc.stdout.splitlines()) if x.startswith("{")), "")
    try:
        return json.loads(line)
    except ValueError:
        return {"status": "ERROR", "error": (proc.stderr.strip().splitlines() or ["no output"])[-1][:200]}


@contextmanager
def scratch_home(settings: Settings) -> Iterator[Settings]:
    """Settings on a temporary home that shares the real index and patients (memory starts empty)."""
    with tempfile.TemporaryDirectory(prefix="medpath-chat-") as tmp:
        home = Path(tmp)
        (home / "index").symlink_to(settings.index_dir.resolve())
        if settings.patients_path.exists():
            (home / "patients").mkdir()
            (home / "patients" / settings.patients_path.name).symlink_to(settings.patients_path.resolve())
        yield dataclasses.replace(settings, home=home)


def run_dialogue(session: Any, home: Path, dialogue: dict[str, Any], *, user: str = "eval-chat",
                 timeout_s: float = 120.0) -> list[dict[str, Any]]:
    """Every turn of one dialogue on its own thread; one record per turn."""
    thread = f"chat-eval-{dialogue['id']}"
    rows = []
    for i, turn in enumerate(dialogue["turns"], 1):
        t0 = time.perf_counter()
        try:
            if turn.get("process") == "new":
                values = _second_process(home, thread, user, turn, timeout_s)
            elif "resume" in turn:
                values = session.resume(thread, turn["resume"])
            else:
                values = session.ask(str(turn["ask"]), thread_id=thread, user_id=user)
        except MedpathError as exc:
            values = {"status": "ERROR", "error": f"{type(exc).__name__}: {exc}"}
        ms = (time.perf_counter() - t0) * 1000
        got = turn_outcome(values)
        why = check_turn(turn.get("expect", {}), got)
        rows.append({"dialogue": dialogue["id"], "tags": dialogue["tags"], "turn": i,
                     "input": turn.get("ask", f"(resume {turn.get('resume')})"), "process": turn.get("process", "same"),
                     "ok": not why, "why": why, "ms": round(ms, 2), **got})
    return rows


def summarize(rows: Sequence[dict[str, Any]], n_dialogues: int) -> dict[str, Any]:
    """Turn accuracy overall and per tag, dialogue accuracy, and per-turn latency (same process and second)."""
    same = [r["ms"] for r in rows if r["process"] == "same"]
    other = [r["ms"] for r in rows if r["process"] != "same"]
    by_tag: dict[str, list[bool]] = {}
    for r in rows:
        for t in r["tags"] or ["untagged"]:
            by_tag.setdefault(t, []).append(r["ok"])
    dialogues_ok = len({r["dialogue"] for r in rows}) - len({r["dialogue"] for r in rows if not r["ok"]})
    return {
        "dialogues": n_dialogues, "turns": len(rows), "turn_accuracy": round(sum(r["ok"] for r in rows) / max(1, len(rows)), 4),
        "dialogue_accuracy": round(dialogues_ok / max(1, n_dialogues), 4),
        "turn_ms_median": round(percentile(same, 50), 1) if same else None,
        "turn_ms_p95": round(percentile(same, 95), 1) if same else None,
        "second_process_turns": len(other), "second_process_ms_median": round(percentile(other, 50), 1) if other else None,
        "by_tag": {t: round(sum(v) / len(v), 4) for t, v in sorted(by_tag.items())},
    }


def run_chat_eval(settings: Settings, dialogues: Sequence[dict[str, Any]], run: Any,
                  progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Run every dialogue on a scratch home; rows go to the run folder, the summary is returned."""

    rows: list[dict[str, Any]] = []
    with scratch_home(settings) as scratch:
        session = Session(scratch, interactive=True)
        for d in dialogues:
            for row in run_dialogue(session, scratch.home, d):
                run.add_row(row)
                rows.append(row)
            if progress:
                progress(1)
    summary = summarize(rows, len(dialogues))
    summary["misses"] = [{k: r[k] for k in ("dialogue", "turn", "input", "why", "understood_as")} for r in rows if not r["ok"]]
    return summary
