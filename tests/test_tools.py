"""Calibration, the edge predictor, the walker and seed injection on the real graph."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from core.datasets import Node, Triple
from core.errors import LLMError
from core.settings import WalkBudget
from memory.public_kg import PublicKG
from tools.calibration import bce, calibrate, fit_temperature
from tools.edge_predictor import LLMEdgePredictor, parse_edge_json
from tools.walker import GraphWalker, StopReason

IMATINIB, CML = "MESH:D000068877", "MESH:D015464"


def test_fit_temperature_recovers_overconfidence() -> None:
    rng = np.random.default_rng(0)
    true_p = rng.uniform(0.05, 0.95, 4000)
    labels = (rng.uniform(size=true_p.size) < true_p).astype(int)
    overconfident = np.asarray(calibrate(true_p, 1 / 3))  # logits tripled
    t = fit_temperature(overconfident, labels)
    assert 2.5 < t < 3.5
    assert bce(calibrate(overconfident, t), labels) < bce(overconfident, labels)


def test_temperature_fitted_and_saved(settings) -> None:
    models = json.loads((settings.index_dir / "models.json").read_text())
    temp = models["temperature"]
    assert temp["pairs"] == 200
    assert temp["embedding"] != 1.0
    assert temp["bce_T"] <= temp["bce_T1"]


def test_embedding_predictor_scores_vocabulary(resources) -> None:
    out = resources.predictor.predict("How does imatinib treat CML?", resources.kg.node(IMATINIB), "out")
    assert len(out) == len(resources.kg.relations)
    assert abs(sum(r["prob"] for r in out) - 1.0) < 1e-6
    # drugs mostly act by changing the activity of a target; the learned prior knows it
    assert out[0]["relation"] in {"decreases activity of", "increases activity of", "negatively regulates"}


def test_llm_predictor_caches_by_prompt(resources, tmp_path) -> None:
    class Fake:
        calls = 0

        def complete(self, prompt: str) -> str:
            Fake.calls += 1
            return '[{"relation": "causes", "prob": 0.7}, {"relation": "bogus", "prob": 0.9}]'

    cache = tmp_path / "edge_cache.jsonl"
    pred = LLMEdgePredictor(Fake(), resources.kg.relations, cache)
    node = resources.kg.node(IMATINIB)
    assert pred.predict("q", node, "out") == [{"relation": "causes", "prob": 0.7}]
    assert LLMEdgePredictor(Fake(), resources.kg.relations, cache).predict("q", node, "out")
    assert Fake.calls == 1 and len(cache.read_text().splitlines()) == 1
    with pytest.raises(LLMError):
        parse_edge_json("no json here", ["causes"])


def _conf(resources, question: str):
    return resources.predictor.conf_fn(resources.embed_one(question))


def test_walker_joins_frontiers(resources) -> None:
    walker = GraphWalker(resources.kg, WalkBudget())
    res = walker.walk([IMATINIB], [CML], _conf(resources, "How does imatinib treat CML (ph+)?"))
    assert res.paths and res.meetings > 0
    assert all(p.edges[0].head == IMATINIB and p.edges[-1].tail == CML for p in res.paths)
    keys = {tuple((e.head, e.relation, e.tail) for e in p.edges) for p in res.paths}
    assert ((IMATINIB, "decreases activity of", "UniProt:P00519"), ("UniProt:P00519", "causes", CML)) in keys


@pytest.mark.parametrize(
    ("budget", "stop"),
    [(WalkBudget(max_nodes=5), StopReason.NODE_BUDGET), (WalkBudget(wall_ms=0.001), StopReason.TIME_BUDGET)],
)
def test_walker_budgets_honoured(resources, budget, stop) -> None:
    walker = GraphWalker(resources.kg, budget)
    res = walker.walk(["MESH:D000082"], ["MESH:D005334"], _conf(resources, "How does acetaminophen treat fever?"))
    assert res.stop is stop
    assert res.expanded <= budget.max_nodes


def test_walker_depth_bounds_path_length(resources) -> None:
    walker = GraphWalker(resources.kg, WalkBudget(max_depth=1))
    res = walker.walk([IMATINIB], [CML], _conf(resources, "q"))
    assert res.depth_reached <= 1
    assert all(p.hops <= 2 for p in res.paths)


def _exploding_graph():
    """drug -> target -> process -> disease, and 40 synthetic in-neighbours of the disease, each with 40 of its
    own, so that the disease side alone would spend any small node budget."""
    from core.datasets import Node, Triple
    from memory.public_kg import PublicKG

    nodes = [Node("D", "drug", "Drug"), Node("T", "target", "Protein"), Node("P", "process", "BiologicalProcess"),
             Node("Y", "disease", "Disease")]
    triples = [Triple("D", "decreases activity of", "T"), Triple("T", "positively regulates", "P"),
               Triple("P", "causes", "Y")]
    for i in range(40):
        nodes.append(Node(f"S{i}", f"s{i}", "BiologicalProcess"))
        triples.append(Triple(f"S{i}", "causes", "Y"))
        for j in range(40):
            nodes.append(Node(f"S{i}.{j}", f"s{i}.{j}", "Protein"))
            triples.append(Triple(f"S{i}.{j}", "positively regulates", f"S{i}"))
    return PublicKG.from_data(nodes, triples)


def test_walker_keeps_half_the_budget_for_each_side_and_goes_level_by_level() -> None:
    """The disease side can fill any budget; the drug side still expands its nodes, every first-level node is
    expanded before a second-level one, and the curated path is found."""
    kg = _exploding_graph()
    expanded: list[tuple[str, str]] = []

    class Spy(GraphWalker):
        def _edges(self, side, node, heap, fetched, confs):  # type: ignore[no-untyped-def]
            expanded.append((side, node))
            return super()._edges(side, node, heap, fetched, confs)

    # no wall-clock cut: on a busy machine the 800 ms default stopped the path search before the curated path
    res = Spy(kg, WalkBudget(max_nodes=30, wall_ms=60_000.0)).walk(["D"], ["Y"], lambda _t, _s: {})
    assert res.stop is StopReason.NODE_BUDGET and res.expanded == 30
    assert {("out", "D"), ("out", "T"), ("out", "P")} <= set(expanded)
    in_side = [n for s, n in expanded if s == "in"]
    first = {"P", *(f"S{i}" for i in range(40))}
    assert len(in_side) <= 27 and all(n in first for n in in_side[1:])  # level 1 before level 2
    assert [(e.head, e.tail) for e in res.paths[0].edges] == [("D", "T"), ("T", "P"), ("P", "Y")]
    # with room for everything, nothing is held back
    full = GraphWalker(kg, WalkBudget(max_nodes=2000, wall_ms=60_000.0)).walk(["D"], ["Y"], lambda _t, _s: {})
    assert full.stop is StopReason.FRONTIER_EMPTY and full.expanded == 3 + (1 + 41 + 1600 + 1)  # in: Y, P+S*, S*.*+T


def test_seed_injection_when_frontier_starves(resources, settings) -> None:
    from agents.context import Context
    from agents.retriever import walk_question
    from agents.state import State

    state = State(question="How does imatinib treat chronic myeloid leukemia?", sources=[IMATINIB], targets=[])
    ranked, _, dense, fallbacks = walk_question(state, Context(resources=resources, settings=settings), resources)
    assert dense["triggered"] and dense["seeds"] and len(dense["seeds"]) <= 5
    assert all(s["similarity"] >= 0.7 for s in dense["seeds"])
    assert ranked and not fallbacks


def test_dense_outage_falls_back_to_graph_only(resources, settings) -> None:
    from agents.context import Context
    from agents.retriever import walk_question
    from agents.state import State

    resources.dense.fault = RuntimeError("HTTP 500")
    try:
        state = State(question="How does imatinib work?", sources=[IMATINIB], targets=[])
        _, _, dense, fallbacks = walk_question(state, Context(resources=resources, settings=settings), resources)
    finally:
        resources.dense.fault = None
    assert dense["triggered"] and "HTTP 500" in dense["error"]
    assert fallbacks and fallbacks[0]["component"] == "dense" and fallbacks[0]["fallback"] == "graph-only"


def test_bm25_search_builds_no_progress_bar(resources, monkeypatch) -> None:
    """bm25s.retrieve() builds a (hidden) tqdm bar, and tqdm's lock deadlocked a `langgraph dev` worker on a
    Studio resume; searches must not construct tqdm at all."""
    import tqdm.std

    def boom(*_a, **_k):
        raise AssertionError("tqdm constructed on the query path")

    monkeypatch.setattr(tqdm.std.tqdm, "get_lock", classmethod(boom))
    index = resources.text_index()[0]
    hits = index.search("imatinib chronic myeloid leukemia", 5)
    assert hits and all(s > 0 for _, s in hits)


def test_onnx_embedder_cache_gives_the_same_vectors_and_survives_a_broken_file(tmp_path) -> None:
    """The optimised graph saved in the home is the same computation (bitwise), and a corrupt one is rebuilt."""
    from tools.embedder import OnnxMiniLM

    texts = ["How does imatinib treat CML?", "BCR-ABL tyrosine kinase", "x"]
    plain = OnnxMiniLM().embed(texts)
    first = OnnxMiniLM(cache_dir=tmp_path).embed(texts)  # optimises and saves
    (saved,) = tmp_path.glob("*.optimized.onnx")
    again = OnnxMiniLM(cache_dir=tmp_path).embed(texts)  # loads the saved graph
    assert np.array_equal(plain, first) and np.array_equal(plain, again)
    saved.write_bytes(b"not an onnx model")
    assert np.array_equal(plain, OnnxMiniLM(cache_dir=tmp_path).embed(texts))


def test_onnx_embedder_runs_many_batches_side_by_side_with_the_same_vectors(tmp_path) -> None:
    """Several batches go to a one-thread session, one per thread; each vector is the one the two-thread session
    gives for the same batch, bit for bit, in the caller's order."""
    from tools.embedder import OnnxMiniLM

    texts = ["How does imatinib treat CML?", "x", "BCR-ABL tyrosine kinase", "metformin", "an unusually long text " * 9,
             "Which drugs lower blood pressure through the angiotensin receptor?", "gout"]
    embedder = OnnxMiniLM(threads=2, cache_dir=tmp_path)
    bulk = embedder.embed(texts, batch_size=2)
    assert embedder._bulk is not None  # the side-by-side path ran
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    one_by_one = np.zeros_like(bulk)
    for start in range(0, len(order), 2):  # the same batches, each alone: the two-thread session
        idx = order[start : start + 2]
        one_by_one[idx] = embedder.embed([texts[i] for i in idx], batch_size=2)
    assert np.array_equal(bulk, one_by_one)
    assert np.array_equal(bulk, OnnxMiniLM(threads=1).embed(texts, batch_size=2))


def _six_hops_with_leaves():
    """D -> A1 -> A2 -> M <- B2 <- B1 <- Y read as a chain D..Y of six hops that meets only at M, which each side
    reaches at its last level; A2 and B2 also have 30 dead-end leaves each, and A1 a back edge to D."""
    chain = ["D", "A1", "A2", "M", "B2", "B1", "Y"]
    nodes = [Node(x, x.lower(), "Drug" if x == "D" else "Disease" if x == "Y" else "Protein") for x in chain]
    triples = [Triple(a, "interacts with", b) for a, b in itertools.pairwise(chain)]
    triples.append(Triple("A1", "interacts with", "D"))
    for i in range(30):
        nodes += [Node(f"LA{i}", f"la{i}", "PhenotypicFeature"), Node(f"LB{i}", f"lb{i}", "Protein")]
        triples += [Triple("A2", "interacts with", f"LA{i}"), Triple(f"LB{i}", "interacts with", "B2")]
    return PublicKG.from_data(nodes, triples)


def test_walker_finds_paths_that_meet_at_both_last_levels_and_drops_only_dead_ends() -> None:
    """The edges read at the last level are filtered after the walk; the six-hop path needs one such edge from
    each side (A2 -> M and M -> B2), so it is found only if each side keeps the far ends the other reached."""
    kg = _six_hops_with_leaves()
    res = GraphWalker(kg, WalkBudget()).walk(["D"], ["Y"], lambda _t, _s: {})
    assert [[(e.head, e.tail) for e in p.edges] for p in res.paths] == [
        [("D", "A1"), ("A1", "A2"), ("A2", "M"), ("M", "B2"), ("B2", "B1"), ("B1", "Y")]]
    # every edge read counts, leaves included: D 1, A1 2, A2 31 out; Y 1, B1 1, B2 31 in
    assert res.meetings == 1 and res.edges_seen == 67
    one_sided = GraphWalker(kg, WalkBudget()).walk(["D"], [], lambda _t, _s: {}, goal_types=["PhenotypicFeature"])
    assert {p.edges[-1].tail for p in one_sided.paths} == {f"LA{i}" for i in range(30)}  # no filter with one side


def test_shortest_chains_follow_relations_in_their_direction() -> None:
    """Two chains of three steps and a longer one; a chain against an edge's direction is no chain."""
    from core.datasets import Node, Triple
    from tools.walker import hops_between, hops_to_each, shortest_chains

    nodes = [Node(x, x.lower(), t) for x, t in (("D", "Drug"), ("A", "Protein"), ("B", "Protein"), ("C", "BiologicalProcess"),
                                                  ("E", "BiologicalProcess"), ("F", "BiologicalProcess"), ("Y", "Disease"),
                                                  ("Z", "Disease"))]
    triples = [Triple("D", "inhibits", "A"), Triple("D", "binds", "B"), Triple("A", "regulates", "C"),
               Triple("B", "regulates", "C"), Triple("C", "causes", "Y"), Triple("A", "regulates", "E"),
               Triple("E", "regulates", "F"), Triple("F", "causes", "Y"), Triple("Z", "causes", "D")]
    kg = PublicKG.from_data(nodes, triples)
    conf = lambda _type, _side: {"inhibits": 0.9}
    chains = shortest_chains(kg, ["D"], {"Y"}.__contains__, conf, max_hops=3)
    assert sorted([e.tail for e in c.edges] for c in chains) == [["A", "C", "Y"], ["B", "C", "Y"]]
    assert {c.confs for c in chains} == {(0.9, 1e-4, 1e-4), (1e-4, 1e-4, 1e-4)}
    assert hops_between(kg, ["D"], ["Y"]) == 3 and hops_between(kg, ["D"], ["D"]) == 0
    assert shortest_chains(kg, ["D"], {"Y"}.__contains__, conf, max_hops=2) == []  # the shortest is longer than allowed
    assert hops_between(kg, ["D"], ["Z"]) is None and shortest_chains(kg, ["D"], {"Z"}.__contains__, conf, max_hops=9) == []
    assert len(shortest_chains(kg, ["D"], {"Y"}.__contains__, conf, max_hops=3, limit=1)) == 1
    # one search for several targets gives each the steps a search for it alone gives; an unreached one is absent
    assert hops_to_each(kg, ["D"], ["Y", "E", "Z", "D", "F"]) == {"Y": 3, "E": 2, "D": 0, "F": 3}
    assert all(hops_to_each(kg, ["D"], [t]).get(t) == hops_between(kg, ["D"], [t]) for t in "ABCEFY")
