"""A question's walk: the edge-predictor-steered walk, the dense back-off with seed injection, the shortest chains
when the walk joins nothing, and the ranking (:func:`walk_question`). Shared by the retriever node, the eval harness
and the answers that walk again for one drug of several ("What do imatinib and dasatinib treat?",
``agents.answer_paths``), so that each drug's list is the one "What does X treat?" gives."""

from __future__ import annotations

import dataclasses
from typing import Any

from agents.context import Context
from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent, State, forward_one_sided, two_ended
from agents.steering import steering_text
from core.errors import DenseUnavailableError
from core.tracing import error, span
from memory.stores import StoreName
from tools.answers import MANIFESTING, RAISING, joins, same_named, types_of, upstream_links
from tools.dense import inject_seeds
from tools.linker import fold
from tools.walker import SHORTEST_CHAIN, CandidatePath, GraphWalker, StopReason, WalkResult, search_chains

__all__ = ["CHAIN_NODES", "walk_question"]

CHAIN_NODES = 20
"""The breadth-first searches for a chain between a question's two ends (the shortest-chain fallback, and the
answer's "is there any chain") may reach this many times the walk's ``max_nodes`` entities."""


def _dense_seeds(res: Any, qv: Any, sources: list[str], targets: list[str], dense: dict[str, Any],
                 fallbacks: list[dict[str, str]]) -> bool:
    """Search FAISS and add ≤ 5 linked seeds (similarity ≥ 0.7) to the walk's ends; True when any was added."""
    with span("tool.dense.search", **{"medpath.dense.k": 10}) as sp:
        try:
            if res.dense is None:
                raise DenseUnavailableError(res.dense_error or "dense index not loaded")
            hits = res.dense.search(qv, k=10)
        except DenseUnavailableError as exc:
            error(sp, exc, "dense search failed; graph-only fallback")
            sp.set_attribute("medpath.fallback", "graph-only")
            fallbacks.append({"component": "dense", "reason": str(exc), "fallback": "graph-only"})
            dense["error"] = str(exc)
            return False
        sp.set_attribute("medpath.dense.hits", len(hits))
    added = False
    named_sources = [fold(res.kg.name(x)) for x in sources]
    named_targets = {fold(res.kg.name(x)) for x in targets}
    for s in inject_seeds(hits, res.linker, res.name_similarity, exclude=set(sources) | set(targets)):
        ent = res.kg.node(s.entity_id)
        if ent is None:
            continue
        if ent.type in DRUG_TYPES:
            # a drug seed may stand in for the named drug only when it shares a word with it ("insulin human")
            if named_sources and not any(set(fold(ent.name).split()) & set(n.split()) for n in named_sources):
                continue
            sources.append(s.entity_id)
        elif named_targets and ent.type in DISEASE_TYPES and fold(ent.name) not in named_targets:
            continue  # the question (or the user's clarification) named the disease: never answer about another one
        else:
            targets.append(s.entity_id)
        dense.setdefault("seeds", []).append({"id": s.entity_id, "name": ent.name, "type": ent.type, "similarity": round(s.similarity, 3)})
        added = True
    return added


def walk_question(
    state: State, ctx: Context, res: Any, stores: tuple[str, ...] = (StoreName.GRAPH,)
) -> tuple[list[CandidatePath], WalkResult, dict[str, Any], list[dict[str, str]]]:
    """Walk, back off to dense seeds when starved, and rank; shared by the node and the eval harness.

    ``stores`` is the router's choice: without ``public`` there is no walk; with ``dense`` the
    FAISS seeds are added before the first walk instead of only when it starves.
    """
    qv = res.embed_one(steering_text(state, res.kg))
    if state.intent in (Intent.CAUSES.value, Intent.SIGNS.value):  # "what causes Y?": the links into Y that raise it
        links = upstream_links(res.kg, state.targets, lambda e: res.ranker.curation.edge_counts(e, "", ())[0],
                               relations=MANIFESTING if state.intent == Intent.SIGNS.value else RAISING)
        order = {id(p): i for i, p in enumerate(links)}  # the ranker fills in the columns the judge reads
        ranked = sorted(res.ranker.rank(links, qv), key=lambda p: order[id(p)])
        return ranked, WalkResult(links, 0, 0, 0.0, StopReason.FRONTIER_EMPTY), {"triggered": False}, []
    temperature = None if ctx.calibrated else 1.0
    with span("tool.edge_predictor.predict", **{"medpath.calibrated": ctx.calibrated,
                                                 "medpath.temperature": 1.0 if not ctx.calibrated else res.predictor.temperature}):
        type_conf = res.predictor.conf_fn(qv, temperature)
    walker = GraphWalker(res.kg, ctx.budget())
    sources, targets = list(state.sources), list(state.targets)
    dense: dict[str, Any] = {"triggered": False}
    fallbacks: list[dict[str, str]] = []
    if StoreName.GRAPH not in stores:
        return [], WalkResult([], 0, 0, 0.0, StopReason.NO_SEEDS), dense, fallbacks
    if StoreName.DENSE in stores:
        dense = {"triggered": True, "reason": "routed to dense", "seeds": []}
        _dense_seeds(res, qv, sources, targets, dense, fallbacks)
    result = _walk(walker, sources, targets, type_conf, state.goal_types)
    if result.starved and ctx.dense_backoff and "error" not in dense:
        dense = {"triggered": True, "reason": f"walk starved ({result.stop.value}, {result.expanded} nodes)",
                 "seeds": list(dense.get("seeds", []))}
        if _dense_seeds(res, qv, sources, targets, dense, fallbacks):
            goals = state.goal_types or ([] if sources and targets else sorted(DISEASE_TYPES))
            result = WalkResult([], 0, 0, 0.0, StopReason.NO_SEEDS)
            if state.targets and len(targets) > len(state.targets):
                # first to the disease the question named (new drug seeds may help); intermediates only if that fails
                result = _walk(walker, sources, list(state.targets), type_conf, goals)
            if not result.paths:
                result = _walk(walker, sources, targets, type_conf, goals)
    with span("tool.path_ranker.rank", **{"medpath.candidates.in": len(result.paths)}):
        ranked = res.ranker.rank(result.paths, qv)
    depth, type_of = ctx.budget().max_depth, types_of(res.kg)
    if two_ended(state) and not any(joins(set(p.nodes), sources, state.targets, res.kg.name) for p in ranked):
        ends = same_named(res.kg, state.targets)  # the disease the question named, under any of its ids
        chains, hops = _shortest_chains(ctx, res, qv, type_conf, sources, ends.__contains__, 2 * depth + 2,
                                        "no walked path joins the question's drug and disease", fallbacks)
        ranked, result = chains + ranked, dataclasses.replace(result, chain_hops=hops, chain_searched=True)
    elif forward_one_sided(state) and not any(p.edges and type_of(p.nodes[-1]) in state.goal_types for p in ranked):
        # what a drug treats may lie as far as a curated mechanism runs; what it targets is near it or not at all
        reach = 2 * depth + 2 if state.intent == Intent.INDICATIONS.value else depth + 2
        chains, hops = _shortest_chains(ctx, res, qv, type_conf, sources,  # the drug itself is never the answer
                                        lambda x: x not in sources and type_of(x) in state.goal_types,
                                        reach, f"no walked path reaches a {' or '.join(state.goal_types)}", fallbacks)
        ranked, result = chains + ranked, dataclasses.replace(result, chain_hops=hops, chain_searched=not chains)
    return ranked, result, dense, fallbacks


def _shortest_chains(ctx: Context, res: Any, qv: Any, conf: Any, sources: list[str], is_goal: Any, max_hops: int,
                     reason: str, fallbacks: list[dict[str, str]]) -> tuple[list[CandidatePath], int | None]:
    """The shortest chains from the drug to what the question asks for, ranked, when the walk found none: it stops
    at ``2 × max_depth`` steps between two named ends (``max_depth`` from one), and at its node budget, and a
    curated mechanism may be longer (dapsone → … → Leprosy has seven steps through hubs). Two steps beyond the
    walk's reach at most; the reviewer still judges them. Recorded as a fallback. Also returns the fewest steps of
    any chain, from the same search (for the answer's "no chain" reason)."""
    with span("tool.walker.shortest_chains", **{"medpath.max_hops": max_hops}) as sp:
        chains, hops = search_chains(res.kg, sources, is_goal, conf, max_hops=max_hops,
                                     max_nodes=CHAIN_NODES * ctx.budget().max_nodes)
        sp.set_attribute("medpath.chains", len(chains))
        sp.set_attribute("medpath.chain_hops", "none" if hops is None else hops)
    if not chains:
        return [], hops
    fallbacks.append({"component": "walker", "reason": reason,
                      "fallback": f"{len(chains)} shortest chains of {chains[0].hops} steps"})
    with span("tool.path_ranker.rank", **{"medpath.candidates.in": len(chains)}):
        ranked = res.ranker.rank(chains, qv)
    for p in ranked:
        p.features[SHORTEST_CHAIN] = 1.0  # the explainer says so
    return ranked, hops


def _walk(walker: GraphWalker, sources: list[str], targets: list[str], conf: Any, goals: list[str]) -> WalkResult:
    with span("tool.walker.walk", **{"medpath.seeds.sources": len(sources), "medpath.seeds.targets": len(targets)}) as sp:
        result = walker.walk(sources, targets, conf, goals)
        sp.set_attribute("medpath.walk.expanded", result.expanded)
        sp.set_attribute("medpath.walk.paths", len(result.paths))
        sp.set_attribute("medpath.walk.stop", result.stop.value)
        sp.set_attribute("medpath.walk.elapsed_ms", round(result.elapsed_ms, 2))
        return result
