"""Memory node: writes the accepted evidence to MIRIX-Slim, through the Reviewer's gate.

Nothing is written unless the Reviewer accepted a path. The best accepted path's triples go
to the episodic scratch-pad and the vault, scoped to the asking user and thread; their
subjects are indexed by name, aliases and embedding; vault facts that boosted this answer
are marked as used.
"""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from agents.context import Context
from agents.state import State
from core.errors import MedpathError
from core.tracing import span
from memory.records import GateDecision, MemoryFact

__all__ = ["remember"]


def _thread_id() -> str:
    try:
        from langgraph.config import get_config

        return str(get_config().get("configurable", {}).get("thread_id", ""))
    except RuntimeError:
        return ""


def remember(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Commit accepted evidence to memory; record what the gate let through."""
    t0 = time.perf_counter()
    ctx = runtime.context or Context()
    timing = {"timings": {"memory": 0.0}}
    if not ctx.memory_on():
        return {"memory": {"write": {"written": False, "reason": "memory off"}}, **timing}
    review = state.review or {}
    decision = GateDecision(review.get("decision", "reject"), float(review.get("score", 0.0)), review.get("backend", "embedded"))
    accepted = [i for i in review.get("accepted", []) if i < len(state.candidates)]
    best = state.candidates[accepted[0]] if accepted else None
    now = ctx.clock()
    facts = []
    if best is not None:
        thread = _thread_id()
        facts = [
            MemoryFact(owner=state.user_id, subj=t["head"], rel=t["relation"], obj=t["tail"], evidence=best["text"],
                       thread=thread, t_start=now)
            for t in best["triples"]
        ]
    fallbacks: list[dict[str, str]] = []
    try:
        mem = ctx.get_memory()
        res = ctx.get_resources()
        subjects = {f.subj for f in facts}
        aliases = {s: [res.kg.name(s), *res.kg.aliases.get(s, ())] for s in subjects}
        vectors = {s: v for s in subjects if (v := res.node_vector(s)) is not None}
        touched = [tuple(k) for k in state.memory.get("touched", [])]
        with span("store.memory.write", **{"medpath.memory.gate": decision.decision, "medpath.memory.facts": len(facts)}) as sp:
            # the write and the touch go to the vault in one group commit with this process's other asks
            report = mem.commit(decision, facts, aliases=aliases, vectors=vectors, now=now, owner=state.user_id,
                                touch=touched)
            sp.set_attribute("medpath.memory.written", report.written)
            sp.set_attribute("medpath.memory.vault_inserted", report.vault.inserted)
        write = {**report.to_json(), "gate": decision.decision}
    except MedpathError as exc:
        fallbacks.append({"component": "memory.write", "reason": str(exc), "fallback": "not remembered"})
        write = {"written": False, "reason": str(exc), "gate": decision.decision}
    timing["timings"]["memory"] = (time.perf_counter() - t0) * 1000
    return {"memory": {"write": write}, "fallbacks": fallbacks, **timing}
