"""Retriever node: edge-predictor-steered walk, dense back-off with seed injection, path ranking."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from langgraph.runtime import Runtime

from agents.answer_paths import answers_and_top, path_record
from agents.cohort import in_scope
from agents.context import Context
from agents.known_use import uses_read
from agents.state import DISEASE_TYPES, Intent, State, forward_one_sided, stand_ins, two_ended
from agents.steering import steering_text
from agents.walking import CHAIN_NODES, walk_question
from core.errors import MedpathError, NotFoundError
from core.tracing import error, span
from memory.audit import audit
from memory.stores import StoreName
from tools.answers import joins, manifested_in
from tools.triple_scorer import TripleScorer
from tools.triples import TRIPLE_POOL, TRIPLES_OUT, masses
from tools.walker import (
    CandidatePath,
    StopReason,
    WalkResult,
    hops_between,
    hops_to_each,
)

NARROWER_TRIED, NARROWER_NAMED = 12, 3
"""How many narrower diseases a chain is sought to, when none reaches the one asked, and how many the answer names."""

__all__ = ["CHAIN_NODES", "path_record", "rank_triples", "retrieve", "walk_question"]


def rank_triples(paths: list[CandidatePath], kg: Any, scorer: TripleScorer | None = None) -> list[dict[str, Any]]:
    """The best ``TRIPLES_OUT`` triples of the ranked ``paths``, each with its weight: the triple scorer's
    probability that it is a curated step (``tools.triple_scorer``), or, for an index without one, the softmax mass
    of the ``TRIPLE_POOL`` best paths that contain it (ties: first seen)."""
    if scorer is not None:
        ranked = scorer.rank(paths)[:TRIPLES_OUT]
    else:
        ranked = masses([[(e.head, e.relation, e.tail) for e in p.edges] for p in paths[:TRIPLE_POOL]],
                        [p.score for p in paths[:TRIPLE_POOL]])[:TRIPLES_OUT]
    return [{"head": h, "head_name": kg.name(h), "relation": r, "tail": t, "tail_name": kg.name(t), "weight": round(m, 4)}
            for (h, r, t), m in ranked]


def _through_service(state: State, ctx: Context, res: Any, route: Any
                     ) -> tuple[Any, Any, Any, Any, dict[str, Any], list[dict[str, Any]] | None]:
    """Run the walk as the ``graph`` store of the hybrid retrieval service, beside the route's other stores.

    The pipeline always walks (its answer is an evidence path); the classifier's route adds the
    other stores (BM25 supporting text, for example). Memory is read by this node with the IMM
    router, so the service's memory stores are left out. When the service is off or fails, the
    walk runs alone and the fallback is recorded.
    """
    from core.errors import RetrievalError
    from tools.fanout import Item
    from tools.routes import edge_item

    box: dict[str, Any] = {}

    def walker(_q: Any) -> list[Item]:
        box["walk"] = walk_question(state, ctx, res, route.stores)
        box["triples"] = rank_triples(box["walk"][0], res.kg, res.triples)
        return [edge_item(res.kg, t["head"], t["relation"], t["tail"], t["weight"], "walker") for t in box["triples"]]

    cohort = state.intent == Intent.COHORT.value  # "how many patients …": counted, within the caller's patients
    walks = bool(state.sources or state.targets) or state.intent not in (Intent.PATIENT.value, Intent.COHORT.value)
    fallback: list[dict[str, str]] = []
    try:
        out = ctx.get_retrieval().retrieve(state.asked, patient_id=state.patient_id, actor_id=state.user_id,
                                           force_route="aggregation" if cohort else None,
                                           patient_scope=in_scope(state.patient_scope),
                                           auth_source="pipeline", extra_stores={"graph": walker} if walks else None,
                                           include=("graph",) if walks else (), exclude=("episodic", "vault"),
                                           deadline_s=None, now=ctx.clock())
        hybrid = {k: v for k, v in out.model_dump().items() if k != "entities_referenced"}
    except NotFoundError as exc:
        hybrid = {"error": str(exc)}
    except (RetrievalError, OSError) as exc:
        hybrid = {"error": str(exc)}
        fallback.append({"component": "hybrid", "reason": str(exc), "fallback": "walk only"})
    if not walks:
        return [], WalkResult([], 0, 0, 0.0, StopReason.NO_SEEDS), {"triggered": False}, fallback, hybrid, None
    if "walk" not in box:
        graph = next((s for s in hybrid.get("stores", []) if s["name"] == "graph"), None)
        if graph is not None:  # the service ran the walk, and it raised
            raise RetrievalError(f"the walk failed: {graph['reason']}")
        box["walk"] = walk_question(state, ctx, res, route.stores)
    ranked, result, dense, fallbacks = box["walk"]
    return ranked, result, dense, fallbacks + fallback, hybrid, box.get("triples")


def retrieve(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Find and rank candidate evidence paths for the linked seeds."""
    t0 = time.perf_counter()
    ctx = runtime.context or Context()
    res = ctx.get_resources()
    route = ctx.get_router().route(state.asked, state.mode, enabled=ctx.router)
    ranked, result, dense, fallbacks, hybrid, triples = _through_service(state, ctx, res, route)
    walked = ranked
    memory: dict[str, Any] = {"enabled": ctx.memory_on()}
    if ctx.memory_on() and {StoreName.VAULT, StoreName.EPISODIC} & set(route.stores):
        with span("store.memory.read", **{"medpath.route.stores": list(route.stores)}) as sp:
            try:
                ranked, memory = _consult_memory(state, ctx, res, ranked, route)
                sp.set_attribute("medpath.memory.hits", len(memory.get("hits", [])))
                sp.set_attribute("medpath.memory.boosted", len(memory.get("boosted", [])))
            except MedpathError as exc:
                error(sp, exc, "memory read failed")
                fallbacks.append({"component": "memory", "reason": str(exc), "fallback": "no memory"})
                memory = {"enabled": True, "error": str(exc)}
    answers, top = answers_and_top(state, ctx, res, ranked)
    use = uses_read(state, ctx, res, answers) if top else None  # "does imatinib treat hypertension?": one of its uses?
    records = [path_record(p, res.kg) for p in top]
    for rec, p in zip(records, top, strict=True):
        if p.features.get("vault_boost"):
            rec["boost"] = p.features["vault_boost"]
    budget = ctx.budget()
    elapsed = (time.perf_counter() - t0) * 1000
    audit(ctx.get_settings(), {
        "action": "retrieve", "route": list(route.stores), "rule_id": route.rule_id, "mode": route.mode,
        "force_route": False, "latency_ms": round(elapsed, 2),
        "counts": {"seeds": len(state.sources) + len(state.targets), "paths": len(result.paths), "candidates": len(records),
                   "dense_seeds": len(dense.get("seeds", [])), "memory_hits": len(memory.get("hits", [])),
                   "boosted": len(memory.get("boosted", []))},
        "outcome": "paths" if records else "no_paths", "fallbacks": [f["component"] for f in fallbacks],
    })
    return {
        "hybrid": hybrid,
        "route": route.to_json(),
        "memory": memory,
        "candidates": records,
        "ranked_answers": answers,
        "known_use": use,
        # the service's order stands unless the memory re-ranked the paths
        "retrieved": triples if triples is not None and ranked is walked else rank_triples(ranked, res.kg, res.triples),
        "pool": [[[e.head, e.relation, e.tail] for e in p.edges] for p in ranked[: ctx.keep_pool]],
        "walk": {
            "expanded": result.expanded,
            "depth_reached": result.depth_reached,
            "elapsed_ms": round(result.elapsed_ms, 2),
            "stop": result.stop.value,
            "paths_found": len(result.paths),
            "meetings": result.meetings,
            "budget": {"max_depth": budget.max_depth, "max_nodes": budget.max_nodes, "wall_ms": budget.wall_ms},
            "temperature": 1.0 if not ctx.calibrated else res.predictor.temperature,
            **_chain(state, ctx, res, top, dense, result),
        },
        "dense": dense,
        "fallbacks": fallbacks,
        "timings": {"retriever": (time.perf_counter() - t0) * 1000},
    }


def _chain(state: State, ctx: Context, res: Any, top: list[CandidatePath], dense: dict[str, Any],
           result: WalkResult) -> dict[str, Any]:
    """For a question naming both ends that no candidate joins: ``chain_hops``, the fewest steps of any chain of
    relations from the drug to the disease in the graph (None: there is none; -1: not known within
    ``CHAIN_NODES × max_nodes`` entities), so the answer can say which. The shortest-chain search of the walk
    already counted them when it ran; otherwise (the memory put unjoined paths on top) they are counted here. For
    "What does X target?" whose shortest-chain search found nothing, the fewest steps from X to anything of the
    asked type, from that search (None: the graph has no chain to one)."""
    if forward_one_sided(state):
        return {"chain_hops": result.chain_hops} if result.chain_searched else {}
    sources = [*state.sources, *stand_ins(dense)]
    if not two_ended(state) or any(joins(set(p.nodes), sources, state.targets, res.kg.name) for p in top):
        return {}
    if result.chain_searched:
        hops = result.chain_hops
    else:
        with span("tool.walker.hops_between") as sp:
            hops = hops_between(res.kg, sources, state.targets, CHAIN_NODES * ctx.budget().max_nodes)
            sp.set_attribute("medpath.chain_hops", "none" if hops is None else hops)
    return {"chain_hops": hops, **(_narrower_reached(state, ctx, res, sources) if hops is None else {})}


def _narrower_reached(state: State, ctx: Context, res: Any, sources: list[str]) -> dict[str, Any]:
    """For one disease no chain from the drug reaches ("How does rituximab treat lymphoma?": the finding Lymphoma), the
    narrower diseases a chain does reach, fewest steps first (``narrower``): those the graph names it a manifestation
    of, and those whose names end with its name (Follicular non-Hodgkin's lymphoma). The answer was only that no chain
    reaches it."""
    node = res.kg.node(state.targets[0]) if len(state.targets) == 1 else None
    if node is None or node.type not in DISEASE_TYPES:  # "does lithium need blood tests?": Blood has no kinds
        return {}
    kinds = dict.fromkeys([*manifested_in(res.kg, node.id), *res.linker.headed_by(node.name, DISEASE_TYPES, ending=True)])
    kinds.pop(node.id, None)
    with span("tool.walker.narrower", **{"medpath.narrower.kinds": len(kinds)}):
        hops = hops_to_each(res.kg, sources, list(kinds)[:NARROWER_TRIED], CHAIN_NODES * ctx.budget().max_nodes)
    reached = [{"id": k, "name": res.kg.name(k), "hops": hops[k]} for k in kinds if hops.get(k, 0) > 0]
    return {"narrower": sorted(reached, key=lambda k: k["hops"])[:NARROWER_NAMED]} if reached else {}


def _consult_memory(state: State, ctx: Context, res: Any, ranked: list[CandidatePath], route: Any) -> tuple[list[CandidatePath], dict[str, Any]]:
    """Read the user's memory for the seeds; boost paths whose edge matches a current vault fact (design §5.3).

    Path scores are log-scores, so ``score *= boost`` is applied to ``exp(score)``:
    ``score += ln(boost)``. The state records the factor and the weights before and after.
    """
    mem = ctx.get_memory()
    now = ctx.clock()
    owners = [state.user_id]
    factor = ctx.get_settings().memory.boost
    info: dict[str, Any] = {"enabled": True, "owners_scoped": len(owners), "boost_factor": factor, "boosted": [], "hits": []}
    stores = [s for s in route.stores if s in (StoreName.EPISODIC, StoreName.VAULT)]
    seeds = list(dict.fromkeys([*state.sources, *state.targets]))

    def similarity(facts: Sequence[Any]) -> list[float]:
        qv = res.embed_one(steering_text(state, res.kg))
        vecs = res.embed_many([f"{res.kg.name(h.subj)} {h.rel} {res.kg.name(h.obj)}" for h in facts])
        return [max(0.0, float(v @ qv)) for v in vecs]

    hits = mem.recall(owners, seeds, stores=stores, as_of=now, weights=route.weights, similarity=similarity) if seeds else []
    if hits:
        order = {s: i for i, s in enumerate(route.stores)}
        hits.sort(key=lambda h: (order.get(h.store, 9), -h.score) if route.mode == "session_recovery" else (-h.score, h.store))
        info["hits"] = [{"store": h.store, "subj": h.subj, "rel": h.rel, "obj": h.obj, "score": round(h.score, 4),
                         "similarity": round(h.similarity, 4), "confidence": round(h.confidence, 4)} for h in hits[:20]]
    if "vault" in stores and ranked:
        edges = {(e.head, e.relation, e.tail) for p in ranked[: max(ctx.top_k, 20)] for e in p.edges}
        matched = mem.vault_matches(owners, edges, as_of=now)
        if matched:
            for p in ranked:
                hit = [(e.head, e.relation, e.tail) for e in p.edges if (e.head, e.relation, e.tail) in matched]
                if hit:
                    before = p.score
                    p.score = before + math.log(factor)
                    p.features["vault_boost"] = factor
                    info["boosted"].append({"edges": [list(h) for h in hit], "score_before": round(before, 4),
                                            "score_after": round(p.score, 4),
                                            "weight_ratio": round(math.exp(p.score - before), 4)})
            ranked = sorted(ranked, key=lambda p: (-p.score, p.hops, [e.tail for e in p.edges]))
            info["touched"] = sorted(list(k) for k in matched)
    return ranked, info
