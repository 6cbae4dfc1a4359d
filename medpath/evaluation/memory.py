"""``medpath eval memory``: Memory Recall@1 on an event stream and probes, with memory on and off."""

from __future__ import annotations

import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from tqdm import tqdm

from core.settings import MemorySettings, Settings
from medpath.ingest import ingest_events, read_jsonl, review_events
from medpath.metrics import recall_at_1
from memory.mirix import Memory
from memory.router import DEFAULT_RULES, load_router
from tools.gate import ClaimGate
from tools.linker import fold

__all__ = ["PROBE_FIELDS", "answer_probe", "name_index", "run_memory_eval"]

PROBE_FIELDS = ("ts", "owner", "subj", "rel", "expected")
"""Fields every probe must have (see docs/formats.md)."""


def name_index(kg: Any) -> dict[str, list[str]]:
    """Folded canonical name → entity ids (at most 3), built once per run for the KG fallback."""

    out: dict[str, list[str]] = {}
    for eid, e in kg.entities.items():
        ids = out.setdefault(fold(e.name), [])
        if len(ids) < 3:
            ids.append(eid)
    return out


def answer_probe(memory: Memory | None, kg: Any, probe: dict[str, Any], names: dict[str, list[str]] | None = None) -> str | None:
    """Top-1 object for (subj, rel) at the probe's time; ``memory=None`` answers from the public KG only.

    ``names`` is :func:`name_index` of ``kg`` (built here when not given).
    """

    owner, subj, rel, ts = str(probe["owner"]), str(probe["subj"]), str(probe["rel"]), probe["_ts"]
    weights = load_router(str(DEFAULT_RULES)).modes["knowledge_lookup"].weights  # probes ask for vetted facts
    if memory is not None:
        subjects = memory.resolve([owner], subj) or [subj]
        hits = []
        for s in subjects:
            hits.extend(memory.recall([owner], s, rel, stores=("episodic", "vault"), as_of=ts, weights=weights))
        hits.sort(key=lambda f: (-f.score, -f.t_start, f.obj))
        if hits:
            return hits[0].obj
    if kg is None:
        return None

    if names is None:
        names = name_index(kg)
    ids = [subj] if kg.node(subj) else names.get(fold(subj), [])
    for eid in ids:
        tails = sorted(e.tail for e in kg.out_edges(eid) if e.relation == rel)
        if tails:
            return tails[0]
    return None


def run_memory_eval(
    events_path: Path, probes_path: Path, settings: Settings, *, kg: Any = None, gate: Any = None,
    progress: bool = False, workdir: Path | None = None,
) -> dict[str, Any]:
    """Ingest the stream into a fresh memory (a temp folder), answer every probe in time order, with and without memory."""
    events = read_jsonl(events_path, ("ts", "owner", "subj", "rel", "obj", "evidence"))
    probes = read_jsonl(probes_path, PROBE_FIELDS)
    decisions = review_events(events, gate or ClaimGate.load(), settings.llm, kg)
    answers: dict[int, dict[str, str | None]] = defaultdict(dict)
    names = name_index(kg) if kg is not None else {}
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        mem = Memory(Path(tmp), MemorySettings(ttl_s=settings.memory.ttl_s, vault_max_rows=0,
                                               half_life_days=settings.memory.half_life_days))

        def make(i: int):
            def cb() -> None:
                answers[i]["memory"] = answer_probe(mem, kg, probes[i], names)
                answers[i]["no-memory"] = answer_probe(None, kg, probes[i], names)
            return cb

        bar = None
        if progress:

            bar = tqdm(total=len(events), desc="events", unit="ev")
        report = ingest_events(mem, events, decisions, (lambda _n: bar.update(1)) if bar else None,
                               iter([(p["_ts"], make(i)) for i, p in enumerate(probes)]))
        if bar:
            bar.close()
    systems: dict[str, Any] = {}
    for system in ("memory", "no-memory"):
        rows = [(p, answers[i].get(system)) for i, p in enumerate(probes)]
        recall = [(p, a) for p, a in rows if p["expected"] is not None]
        day7 = [(p, a) for p, a in recall if int(p.get("day", 7)) >= 7]
        by_kind: dict[str, list[tuple[Any, Any]]] = defaultdict(list)
        for p, a in recall:
            by_kind[str(p.get("kind", "probe"))].append((p, a))
        leaks = [(p, a) for p, a in rows if p["expected"] is None]
        systems[system] = {
            "recall@1_day7": recall_at_1([a for _, a in day7], [p["expected"] for p, _ in day7]),
            "recall@1_all": recall_at_1([a for _, a in recall], [p["expected"] for p, _ in recall]),
            "by_kind": {k: recall_at_1([a for _, a in v], [p["expected"] for p, _ in v]) for k, v in sorted(by_kind.items())},
            "probes_day7": len(day7),
            "leak_probes": len(leaks),
            "leaks": sum(1 for _, a in leaks if a is not None),
        }
    rows = [{"id": p.get("id", f"probe-{i}"), "ts": p["ts"], "owner": p["owner"], "subj": p["subj"], "rel": p["rel"],
             "kind": p.get("kind", ""), "day": p.get("day"), "expected": p["expected"], **answers[i]} for i, p in enumerate(probes)]
    return {"events": len(events), "probes": len(probes), "ingest": report.to_json(), "systems": systems, "rows": rows}
