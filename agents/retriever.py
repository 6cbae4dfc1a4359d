"""Retriever node: edge-predictor-steered walk, dense back-off with seed injection, path ranking."""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime

from graphs.context import Context
from graphs.state import State
from medpath.errors import DenseUnavailableError
from tools.dense import inject_seeds
from tools.judge import verbalize_path
from tools.walker import CandidatePath, GraphWalker, WalkResult

__all__ = ["path_record", "retrieve", "walk_question"]

DRUG_TYPES = ("Drug", "ChemicalSubstance")
DISEASE_TYPES = ("Disease", "PhenotypicFeature")


def path_record(p: CandidatePath, kg: Any) -> dict[str, Any]:
    """JSON form of a candidate path."""
    names = [kg.name(n) for n in p.nodes]
    return {
        "triples": [
            {"head": e.head, "head_name": kg.name(e.head), "relation": e.relation, "tail": e.tail, "tail_name": kg.name(e.tail)}
            for e in p.edges
        ],
        "text": verbalize_path(names, [e.relation for e in p.edges]),
        "confs": [round(c, 4) for c in p.confs],
        "score": round(p.score, 4),
        "hops": p.hops,
        "features": {k: round(v, 4) for k, v in p.features.items()},
    }


def walk_question(state: State, ctx: Context, res: Any) -> tuple[list[CandidatePath], WalkResult, dict[str, Any], list[dict[str, str]]]:
    """Walk, back off to dense seeds when starved, and rank; shared by the node and the eval harness."""
    qv = res.embed_one(state.question)
    temperature = None if ctx.calibrated else 1.0
    type_conf = res.predictor.conf_fn(qv, temperature)
    walker = GraphWalker(res.kg, ctx.budget())
    sources, targets = list(state.sources), list(state.targets)
    result = walker.walk(sources, targets, type_conf, state.goal_types)
    dense: dict[str, Any] = {"triggered": False}
    fallbacks: list[dict[str, str]] = []
    if result.starved and ctx.dense_backoff:
        dense = {"triggered": True, "reason": f"walk starved ({result.stop.value}, {result.expanded} nodes)", "seeds": []}
        try:
            if res.dense is None:
                raise DenseUnavailableError(res.dense_error or "dense index not loaded")
            hits = res.dense.search(qv, k=10)
        except DenseUnavailableError as exc:
            fallbacks.append({"component": "dense", "reason": str(exc), "fallback": "graph-only"})
            dense["error"] = str(exc)
        else:
            seeds = inject_seeds(hits, res.linker, res.name_similarity, exclude=set(sources) | set(targets))
            for s in seeds:
                ent = res.kg.node(s.entity_id)
                if ent is None:
                    continue
                if ent.type in DRUG_TYPES and not sources:
                    sources.append(s.entity_id)
                else:
                    targets.append(s.entity_id)
                dense["seeds"].append({"id": s.entity_id, "name": ent.name, "type": ent.type, "similarity": round(s.similarity, 3)})
            if seeds:
                result = walker.walk(sources, targets, type_conf, state.goal_types or ([] if sources and targets else list(DISEASE_TYPES)))
    ranked = res.ranker.rank(result.paths, qv)
    return ranked, result, dense, fallbacks


def retrieve(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Find and rank candidate evidence paths for the linked seeds."""
    t0 = time.perf_counter()
    ctx = runtime.context or Context()
    res = ctx.get_resources()
    ranked, result, dense, fallbacks = walk_question(state, ctx, res)
    top = ranked[: ctx.top_k]
    seen: dict[tuple[str, str, str], dict[str, str]] = {}
    for p in top:
        for t in path_record(p, res.kg)["triples"]:
            seen.setdefault((t["head"], t["relation"], t["tail"]), t)
    budget = ctx.budget()
    return {
        "candidates": [path_record(p, res.kg) for p in top],
        "retrieved": list(seen.values()),
        "walk": {
            "expanded": result.expanded,
            "depth_reached": result.depth_reached,
            "elapsed_ms": round(result.elapsed_ms, 2),
            "stop": result.stop.value,
            "paths_found": len(result.paths),
            "meetings": result.meetings,
            "budget": {"max_depth": budget.max_depth, "max_nodes": budget.max_nodes, "wall_ms": budget.wall_ms},
            "temperature": 1.0 if not ctx.calibrated else res.predictor.temperature,
        },
        "dense": dense,
        "fallbacks": fallbacks,
        "timings": {"retriever": (time.perf_counter() - t0) * 1000},
    }
