"""PageRank over the graph: the ranker's columns among the candidates, and the push form that "which drug treats
Y" reads, both ways or upstream only."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.answer_paths import pagerank_answers
from tools.answers import PAGERANK_ALPHA, PAGERANK_EPS
from tools.ppr import LocalPageRank, PersonalizedPageRank
from tools.walker import GraphWalker

ASTHMA = "MESH:D001249"


def test_the_ranker_has_pagerank_on_the_shipped_store(resources) -> None:
    """PageRank features need the graph store; a guard that asked for an attribute the store lacks once turned
    them off without a sound (check-half treats Hit@5 0.52 -> 0.42)."""
    assert resources.ranker.ppr is not None and sum(resources.ranker.ppr.top(["MESH:D000068877"]).values()) > 0.95


def test_pagerank_among_the_candidates_is_the_graph_s_pagerank_restricted(resources: Any) -> None:
    """``rank_within`` over every node is the whole-graph PageRank; over a subset it counts only the walks that stay
    in it, so no node gets more than the whole graph gives it, and nodes outside the subset get nothing."""
    ppr = PersonalizedPageRank(resources.kg)
    seeds = ["MESH:D000068877", "MESH:D015464"]  # imatinib, CML
    full = ppr.rank(seeds)
    everything = ppr.rank_within(seeds, ppr.nodes)
    assert max(abs(everything[x] - full[ppr.pos[x]]) for x in ppr.nodes) < 1e-12
    walk = GraphWalker(resources.kg, resources.settings.budget).walk(seeds[:1], seeds[1:], lambda _t, _s: {})
    inner = {x for p in walk.paths for x in p.nodes}
    assert len(walk.paths) > 10 and len(inner) > 20
    within = ppr.rank_within(seeds, inner)
    assert set(within) == inner | set(seeds) and len(inner) < len(ppr.nodes) / 10
    assert all(within[x] <= full[ppr.pos[x]] + 1e-12 for x in within)
    assert within[seeds[0]] > 0.25 and sum(within.values()) < 1.0  # mass that leaves the subset is not counted
    assert ppr.rank_within(["no-such-node"], inner) == {}


def test_local_pagerank_reads_only_what_it_needs_and_gives_the_same_numbers(resources: Any) -> None:
    """The ranker's PageRank on a store read node by node (``LocalPageRank``, the PostgreSQL path) equals the
    whole-graph arrays' to the bit among the candidates, so the models trained on the arrays apply unchanged; and
    push-based ``top`` is within its guarantee of the whole-graph PageRank (under it by at most ``eps`` × degree),
    ranks the leading nodes alike, and reads a small part of the graph."""
    seeds = ["MESH:D000068877", "MESH:D015464"]
    walk = GraphWalker(resources.kg, resources.settings.budget).walk(seeds[:1], seeds[1:], lambda _t, _s: {})
    inner = {x for p in walk.paths for x in p.nodes}
    full, local = PersonalizedPageRank(resources.kg), LocalPageRank(resources.kg)
    assert local.rank_within(seeds, inner) == full.rank_within(seeds, inner)  # exact float equality
    exact = full.rank(seeds[1:])
    pushed = local.top(seeds[1:])
    best = [full.nodes[i] for i in np.argsort(-exact, kind="stable")[:5]]
    assert sorted(pushed, key=lambda n: -pushed[n])[:5] == best
    gaps = [exact[full.pos[n]] - pushed.get(n, 0.0) for n in full.nodes]
    assert all(-1e-12 <= g <= local.eps * max(resources.kg.degree(n), 1) + 1e-12 for g, n in zip(gaps, full.nodes, strict=True))
    assert len(pushed) < len(full.nodes) / 2  # it reached only part of the graph
    assert local.top(["no-such-node"]) == {} and local.rank_within(["no-such-node"], inner) == {}


def test_which_drug_treats_reads_pagerank_further_from_the_disease(resources: Any) -> None:
    """PageRank for "which drug treats Y" continues its walks with probability ``PAGERANK_ALPHA`` (0.9; the ranker's
    columns keep 0.5) and damps hubs by degree: the per-query override is the PageRank of an instance built with
    those settings, within push's guarantee of the whole-graph one, and it ranks the triptans, whose curated chains
    to Migraine take three or four steps, above camphor (camphor → Pain → Migraine), which 0.5 put first."""
    kg, migraine = resources.kg, "MESH:D008881"
    local = LocalPageRank(kg)
    pushed = local.top([migraine], alpha=PAGERANK_ALPHA, eps=PAGERANK_EPS)
    assert pushed == LocalPageRank(kg, alpha=PAGERANK_ALPHA, eps=PAGERANK_EPS).top([migraine])
    assert pushed != local.top([migraine])
    full = PersonalizedPageRank(kg, alpha=PAGERANK_ALPHA, iters=200)
    exact = full.rank([migraine])
    gaps = [exact[full.pos[n]] - pushed.get(n, 0.0) for n in full.nodes]
    assert all(-1e-12 <= g <= PAGERANK_EPS * max(kg.degree(n), 1) + 1e-12 for g, n in zip(gaps, full.nodes, strict=True))
    drugs = pagerank_answers(resources, [migraine], ["Drug"], {migraine})
    names = [kg.name(x) for x in drugs]
    assert names.index("zolmitriptan") < names.index("camphor")


def _ancestors(kg: Any, node: str) -> set[str]:
    """Every entity with a chain of edges, in their direction, to ``node`` (``node`` included)."""
    seen, frontier = {node}, [node]
    while frontier:
        frontier = [e.head for u in frontier for e in kg.in_edges(u) if e.head not in seen and not seen.add(e.head)]
    return seen


def _upstream_pagerank(kg: Any, seed: str, alpha: float, iters: int = 300) -> dict[str, float]:
    """Exact PageRank from ``seed`` stepping to in-edges' heads, mass at a node without in-edges dropped."""
    nodes = kg.entity_ids()
    pos = {n: i for i, n in enumerate(nodes)}
    edges = list(kg.edges())
    head = np.array([pos[e.head] for e in edges])
    tail = np.array([pos[e.tail] for e in edges])
    w = 1.0 / np.bincount(tail, minlength=len(nodes))[tail]
    p = np.zeros(len(nodes))
    p[pos[seed]] = 1.0
    r = p.copy()
    for _ in range(iters):
        r = (1 - alpha) * p + alpha * np.bincount(head, weights=r[tail] * w, minlength=len(nodes))
    return {n: float(r[i]) for i, n in enumerate(nodes)}


def test_upstream_pagerank_walks_against_the_edges_only(resources: Any) -> None:
    """``top(..., direction="in")`` steps from a node to the heads of its in-edges: it reaches only entities with a
    chain of edges into the seed, and it stays under the exact upstream PageRank everywhere, leaves out under 2 % of
    the seed's mass, and has the same leading nodes. Both ways, it also reaches entities downstream of Y."""
    kg = resources.kg
    local = LocalPageRank(kg)
    pushed = local.top([ASTHMA], alpha=PAGERANK_ALPHA, eps=PAGERANK_EPS, direction="in")
    both = local.top([ASTHMA], alpha=PAGERANK_ALPHA, eps=PAGERANK_EPS)
    above = _ancestors(kg, ASTHMA)
    assert len(pushed) > 100 and set(pushed) <= above
    assert set(both) - above  # the undirected walk goes downstream too
    exact = _upstream_pagerank(kg, ASTHMA, PAGERANK_ALPHA)
    assert all(exact[n] - pushed.get(n, 0.0) >= -1e-12 for n in exact)
    assert sum(exact.values()) - sum(pushed.values()) < 0.02
    best = sorted(exact, key=lambda n: -exact[n])[:5]
    assert sorted(pushed, key=lambda n: -pushed[n])[:5] == best


def test_which_drug_treats_y_lists_by_pagerank_only_drugs_with_a_chain_into_y(resources: Any) -> None:
    """"What drugs treat asthma?" reads PageRank upstream from Asthma: every drug it proposes has a chain of
    relations, in their direction, into Asthma. Both ways, it proposed drugs whose only links reach Asthma's
    neighbourhood from below."""
    kg = resources.kg
    drugs = pagerank_answers(resources, [ASTHMA], ["Drug", "ChemicalSubstance"], {ASTHMA})
    assert len(drugs) == 20 and set(drugs) <= _ancestors(kg, ASTHMA)


def _descendants(kg: Any, node: str) -> set[str]:
    """Every entity that a chain of edges, in their direction, reaches from ``node`` (``node`` included)."""
    seen, frontier = {node}, [node]
    while frontier:
        frontier = [e.tail for u in frontier for e in kg.out_edges(u) if e.tail not in seen and not seen.add(e.tail)]
    return seen


def test_downstream_pagerank_walks_along_the_edges_only(resources: Any) -> None:
    """``top(..., direction="out")`` steps to the tails of out-edges: "what does ibuprofen treat?" reads it from the
    drug, and every disease it proposes lies at the end of a chain of relations from the drug. A direction that is
    none of the three is an error, not a silent walk both ways."""
    kg = resources.kg
    ibuprofen = next(e.id for e in kg.lookup("ibuprofen") if e.type == "Drug")
    pushed = LocalPageRank(kg).top([ibuprofen], alpha=PAGERANK_ALPHA, eps=PAGERANK_EPS, direction="out")
    below = _descendants(kg, ibuprofen)
    assert len(pushed) > 50 and set(pushed) <= below
    diseases = pagerank_answers(resources, [ibuprofen], ["Disease", "PhenotypicFeature"], {ibuprofen}, "out", 0.0)
    assert len(diseases) == 20 and set(diseases) <= below
    with pytest.raises(ValueError, match="direction"):
        LocalPageRank(kg).top([ibuprofen], direction="up")
