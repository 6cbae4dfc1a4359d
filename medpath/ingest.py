"""Reads a memory event stream and writes it through the Reviewer's gate (``medpath memory ingest``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.datasets import json_lines
from core.errors import DataError
from core.settings import Settings
from core.tracing import span
from memory.audit import audit
from memory.mirix import Memory
from memory.records import GateDecision, MemoryFact
from memory.synth import parse_ts

__all__ = ["EVENT_FIELDS", "IngestReport", "ingest_events", "read_jsonl", "review_events"]

EVENT_FIELDS = ("ts", "owner", "subj", "rel", "obj", "evidence")
"""Fields every event must have (see docs/formats.md)."""


def read_jsonl(path: Path, required: tuple[str, ...]) -> list[dict[str, Any]]:
    """Rows of a JSONL file; a broken line or a missing field raises DataError naming the line."""
    rows = []
    for n, row in json_lines(path):
        missing = [f for f in required if f not in row]
        if missing:
            raise DataError(f"{path.name} line {n}: missing field(s) {', '.join(missing)}")
        try:
            row["_ts"] = parse_ts(row["ts"])
        except (TypeError, ValueError) as exc:
            raise DataError(f"{path.name} line {n}: bad ts {row['ts']!r}") from exc
        row["_line"] = n
        rows.append(row)
    return rows


@dataclass
class IngestReport:
    """Counts of an ingest."""

    events: int = 0
    accepted: int = 0
    rejected: int = 0
    inserted: int = 0
    refreshed: int = 0
    superseded: int = 0
    pruned: int = 0
    by_label: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per generator label (when events carry one): accepted and rejected counts."""

    def to_json(self) -> dict[str, Any]:
        """Plain dictionary."""
        return vars(self).copy()


def review_events(events: list[dict[str, Any]], gate: Any, llm_settings: Any = None, kg: Any = None) -> list[GateDecision]:
    """The Reviewer's decision for each event; a KG object is also recognised by its name and aliases."""
    from agents.reviewer import review_claims

    def names(e: dict[str, Any]) -> list[str]:
        out = [str(x) for x in (e.get("obj_name"), e["obj"]) if x]
        if kg is not None and kg.node(str(e["obj"])) is not None:
            out += [kg.name(str(e["obj"])), *kg.aliases.get(str(e["obj"]), ())]
        return out

    claims = [
        {"claim": f"{e['subj']} {e['rel'].replace(':', ' ')} {e.get('obj_name') or e['obj']}", "evidence": str(e["evidence"]),
         "object_names": names(e), "relation": str(e["rel"]),
         "subject_names": [str(e["subj"]), *(str(a) for a in e.get("subj_aliases", []))]}
        for e in events
    ]
    return review_claims(claims, gate, llm_settings)


def _reason(d: GateDecision) -> dict[str, str]:
    r = d.reason
    return {"decision": d.decision, "status": str(r.get("status", "")), "cue": str(r.get("cue", "")),
            "rule": str(r.get("rule", "")), "fits": str(r.get("fits", ""))}


BATCH = 2000
"""Events per write batch (one transaction per tier); a probe due in between flushes the batch first."""
YIELD_S = 0.05
"""Pause after each batch with the vault file released, so that a server's write waiting for it gets its turn
(waiting writers try the lock every 20 ms): an ingest runs beside serving instead of holding the file throughout."""


def _commit(memory: Memory, items: list[tuple[GateDecision, MemoryFact, bool, list[str]]], rep: IngestReport,
            settings: Settings | None) -> int:
    """Write one batch (a span with one event per decision, and an audit record); add its counts to ``rep``."""
    accepted = sum(d.accepted for d, *_ in items)
    with span("tool.reviewer.gate", **{"medpath.gate.events": len(items), "medpath.gate.accepted": accepted}) as sp:
        reasons = [_reason(d) for d, *_ in items]
        for r in reasons:
            sp.add_event("gate.decision", {k: v for k, v in r.items() if v})
        out = memory.commit_batch(items)
    if settings is not None:  # status, cue and rule of every decision; no content (no ids, no text)
        audit(settings, {"action": "memory.gate", "source": "ingest", "decisions": reasons,
                         "counts": {"events": len(items), "accepted": accepted}})
    rep.inserted += out.inserted
    rep.refreshed += out.refreshed
    rep.superseded += out.superseded
    rep.pruned += out.pruned
    return len(items)


def ingest_events(
    memory: Memory,
    events: list[dict[str, Any]],
    decisions: list[GateDecision],
    on_event: Callable[[int], None] | None = None,
    interleave: Iterator[tuple[float, Callable[[], None]]] | None = None,
    batch: int = BATCH,
    settings: Settings | None = None,
    on_commit: Callable[[int], None] | None = None,
    pause_s: float = 0.0,
) -> IngestReport:
    """Commit events in time order through the gate, in batches; ``interleave`` yields (ts, callback) to run between
    them (probes), each after everything stated before its time is written. Each batch is a span with one event per
    decision, and (given ``settings``) one audit record of the decisions' status, cue and rule. Each batch holds the
    vault file only while it writes and then pauses ``pause_s`` (``YIELD_S`` beside a server); ``on_commit`` gets the
    number of events committed (durably) so far."""
    rep = IngestReport(events=len(events))
    pending = sorted(interleave or [], key=lambda x: x[0])
    k = 0
    items: list[tuple[GateDecision, MemoryFact, bool, list[str]]] = []

    def flush() -> None:
        if items:
            done[0] += _commit(memory, items, rep, settings)
            items.clear()
            if on_commit:
                on_commit(done[0])
            if pause_s:
                time.sleep(pause_s)

    done = [0]
    for n, i in enumerate(sorted(range(len(events)), key=lambda i: events[i]["_ts"])):
        e, d = events[i], decisions[i]
        if k < len(pending) and pending[k][0] < e["_ts"]:
            flush()
            while k < len(pending) and pending[k][0] < e["_ts"]:
                pending[k][1]()
                k += 1
        label = str(e.get("label", ""))
        if label:
            slot = rep.by_label.setdefault(label, {"accepted": 0, "rejected": 0})
            slot["accepted" if d.accepted else "rejected"] += 1
        rep.accepted += d.accepted
        rep.rejected += not d.accepted
        fact = MemoryFact(owner=str(e["owner"]), subj=str(e["subj"]), rel=str(e["rel"]), obj=str(e["obj"]),
                          evidence=str(e["evidence"]), thread=str(e.get("thread", "")), t_start=e["_ts"])
        items.append((d, fact, bool(e.get("supersedes", False)), [str(a) for a in e.get("subj_aliases", [])]))
        if len(items) >= batch:
            flush()
        if on_event:
            on_event(n)
    flush()
    for _, cb in pending[k:]:
        cb()
    return rep
