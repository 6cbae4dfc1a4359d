"""Systems that ``medpath eval kg`` runs side by side: simple baselines, medpath, and its ablations.

Every system maps a question to a ``SystemOutput``: ranked retrieved triples (for Recall@5),
the returned evidence path (for Path-F1), ranked answer entity ids (for answer accuracy) and
timings. None of them sees gold data.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any, Protocol

import networkx as nx
import numpy as np

from agents.context import Context
from agents.planner import plan
from agents.state import State
from core.datasets import DRUG_TYPE_ORDER, DRUG_TYPES
from core.errors import InputError
from graphs.qa import build_graph
from medpath.metrics import TripleKey
from memory.router import DEFAULT_RULES, load_router
from tools.answers import by_type_preference, types_of
from tools.ppr import PersonalizedPageRank
from tools.retrieval import open_retriever

__all__ = [
    "BASELINES",
    "GRAPH_VARIANTS",
    "PPR",
    "SYSTEMS",
    "BM25Only",
    "DenseOnly",
    "GraphSystem",
    "System",
    "SystemOutput",
    "make_system",
]

POOL_K = 100
"""Candidate paths a graph system hands to the best-of-top-K columns."""
TARGET_TYPES = ("Protein", "GeneFamily", "MacromolecularComplex")


@dataclass
class SystemOutput:
    """What a system returned for one question."""

    retrieved: list[TripleKey] = field(default_factory=list)
    """Triples, best first."""
    path: list[TripleKey] = field(default_factory=list)
    """The evidence path it returns (empty when it returns none)."""
    answers: list[str] = field(default_factory=list)
    """Answer entity ids, best first (for "what treats Y" / "what does X target")."""
    status: str = "ANSWERED"
    """Status of the run (the graph's status for medpath)."""
    timings: dict[str, float] = field(default_factory=dict)
    """Milliseconds per node (graph systems)."""
    pool: list[list[TripleKey]] = field(default_factory=list)
    """Candidate paths, best first (graph systems; the best-of-top-K columns read them)."""


class System(Protocol):
    """One system under evaluation."""

    name: str

    def run(self, question: str, intent: str | None = None) -> SystemOutput:
        """Answer one question; ``intent`` hints derived questions (``treats``/``targets``)."""
        ...


def _answers_from_triples(kg: Any, triples: list[TripleKey], intent: str | None) -> list[str]:
    out: list[str] = []
    for h, _, t in triples:
        if intent == "treats":
            cand = h if (e := kg.node(h)) is not None and e.type in DRUG_TYPES else None
        elif intent == "targets":
            cand = t if (e := kg.node(t)) is not None and e.type in TARGET_TYPES else None
        else:
            cand = None
        if cand and cand not in out:
            out.append(cand)
    return by_type_preference(out, DRUG_TYPE_ORDER, types_of(kg)) if intent == "treats" else out


class DenseOnly:
    """FAISS top-k over textualized triples, the question as the query (design §7 baseline)."""

    name = "dense-only"

    def __init__(self, res: Any, k: int = 5) -> None:
        """Bind the loaded dense index."""
        self.res, self.k = res, k

    def run(self, question: str, intent: str | None = None) -> SystemOutput:
        """Top-k triples; the path is the top-k list itself."""
        hits = self.res.dense.search(question, k=20, kinds=["triple"])
        triples = [(h.meta["head"], h.meta["rel"], h.meta["tail"]) for h in hits]
        return SystemOutput(triples, triples[: self.k], _answers_from_triples(self.res.kg, triples, intent))


class BM25Only:
    """BM25 over textualized triples (``bm25s``)."""

    name = "bm25-only"

    def __init__(self, res: Any, k: int = 5) -> None:
        """Use the BM25 index and the document table (loaded once per process by ``Resources``)."""
        self.res, self.k = res, k
        self.index, self.docs = res.text_index()

    def run(self, question: str, intent: str | None = None) -> SystemOutput:
        """Top-k triples by BM25."""
        triples = []
        for doc_id, _ in self.index.search(question, 60):
            d = self.docs.get(doc_id)
            if d and d["kind"] == "triple":
                triples.append((d["head"], d["rel"], d["tail"]))
            if len(triples) >= 20:
                break
        return SystemOutput(triples, triples[: self.k], _answers_from_triples(self.res.kg, triples, intent))


class PPR:
    """HippoRAG-style personalized PageRank from the linked seeds, on the undirected graph.

    Triples are ranked by the PageRank mass of their two ends; the path is the directed path
    from the drug to the disease that maximises the product of node masses (Dijkstra on
    ``-log ppr``), or the top triples when one side is missing.
    """

    name = "ppr"

    def __init__(self, res: Any, alpha: float = 0.5, iters: int = 30, k: int = 5) -> None:
        """Index the graph's edges as arrays for power iteration."""

        self.res, self.k = res, k
        self.ppr = PersonalizedPageRank(res.kg, alpha, iters)
        self.nodes, self.pos = self.ppr.nodes, self.ppr.pos
        self.triples = [(e.head, e.relation, e.tail) for e in res.kg.edges()]
        # the baseline's Dijkstra runs on a NetworkX view built from the store's edges, in the store's order
        self.nx = nx.MultiDiGraph()
        self.nx.add_nodes_from(self.nodes)
        self.nx.add_edges_from((h, t, r) for h, r, t in self.triples)
        self.th = np.array([self.pos[h] for h, _, _ in self.triples])
        self.tt = np.array([self.pos[t] for _, _, t in self.triples])

    def rank(self, seeds: list[str]) -> np.ndarray:
        """Personalized PageRank vector."""
        return self.ppr.rank(seeds)

    def run(self, question: str, intent: str | None = None) -> SystemOutput:
        """Link, rank, and read off triples, a path and answers."""
        sources, targets = link_question(self.res, question)
        r = self.rank(sources + targets)
        if not r.any():
            return SystemOutput(status="NOT_FOUND")
        order = np.argsort(-(r[self.th] + r[self.tt]), kind="stable")[:50]
        triples = [self.triples[i] for i in order]
        path = triples[: self.k]
        if sources and targets:

            def weight(u: str, v: str, _d: Any) -> float:
                return -math.log(max(r[self.pos[v]], 1e-12))

            try:
                nodes = nx.dijkstra_path(self.nx, sources[0], targets[0], weight=weight)
                path = [(u, min(self.nx.get_edge_data(u, v)), v)
                        for u, v in itertools.pairwise(nodes)]
            except (nx.NetworkXNoPath, nx.NodeNotFound):
                pass
        seeds = set(sources) | set(targets)
        want = DRUG_TYPE_ORDER if intent == "treats" else TARGET_TYPES if intent == "targets" else ()
        answers = [self.nodes[i] for i in np.argsort(-r)[:200]
                   if self.nodes[i] not in seeds and (e := self.res.kg.node(self.nodes[i])) is not None and e.type in want]
        if intent == "treats":  # drugs before chemicals, as medpath lists them (tools.answers.by_type_preference)
            answers = by_type_preference(answers, DRUG_TYPE_ORDER, types_of(self.res.kg))
        answers = answers[:10]
        return SystemOutput(triples, path, answers)


def link_question(res: Any, question: str) -> tuple[list[str], list[str]]:
    """The planner's linking, non-interactive (best candidate on ambiguity)."""
    from langgraph.runtime import Runtime


    out = plan(State(question=question), Runtime(context=Context(interactive=False, resources=res, settings=res.settings)))
    return list(out.get("sources", [])), list(out.get("targets", []))


GRAPH_VARIANTS: dict[str, dict[str, Any]] = {
    "medpath": {},
    "with-memory": {"memory": True},
    "graph-only": {"dense_backoff": False},
    "imm-off": {"router": False},
    "no-calibration": {"calibrated": False},
}
"""Context overrides of each pipeline variant; all run memory off except ``with-memory``."""
BASELINES = ("dense-only", "bm25-only", "ppr")
SYSTEMS = (*BASELINES, *GRAPH_VARIANTS)
"""Every system name ``--systems`` accepts (``no-memory`` is an alias of ``medpath``)."""


class GraphSystem:
    """The compiled QA graph (what ``ask`` runs), non-interactive, with Context overrides."""

    def __init__(self, name: str, res: Any, overrides: dict[str, Any], memory_store: Any = None) -> None:
        """Compile the graph and open the retrieval service and the router once (as ``ask`` does per process);
        ``memory_store`` is the throw-away memory of ``with-memory``."""

        self.name, self.res, self.overrides, self.memory_store = name, res, dict(overrides), memory_store
        self.graph = build_graph()
        self.user = f"eval-{name}"
        self.shared = {"retrieval": open_retriever(res.settings, resources=res, memory=False),
                       "router_rules": load_router(str(res.settings.memory.router_rules or DEFAULT_RULES))}

    def run(self, question: str, intent: str | None = None) -> SystemOutput:
        """Invoke the graph and read the result off the final state."""

        ctx = Context(interactive=False, resources=self.res, settings=self.res.settings, memory_store=self.memory_store,
                      **{"memory": False, "keep_pool": POOL_K, **self.shared, **self.overrides})
        out = self.graph.invoke({"question": question, "user_id": self.user}, context=ctx)
        retrieved = [(t["head"], t["relation"], t["tail"]) for t in out.get("retrieved", [])]
        path = [(t["head"], t["relation"], t["tail"]) for t in out.get("evidence", [])]
        cands = out.get("candidates", [])
        accepted = [cands[i] for i in out.get("review", {}).get("accepted", []) if i < len(cands)]
        answers: list[str] = [a["id"] for a in out.get("ranked_answers", [])]
        if not answers:  # a question that is not one-sided: the ends of the accepted paths
            ends = (c["triples"][0]["head"] if intent == "treats" else c["triples"][-1]["tail"] for c in accepted)
            answers = list(dict.fromkeys(ends))
        pool = [[(h, r, t) for h, r, t in p] for p in out.get("pool", [])]
        return SystemOutput(retrieved, path, answers, str(out.get("status", "")), dict(out.get("timings", {})), pool)


def make_system(name: str, res: Any, memory_store: Any = None) -> System:
    """Build a system by name."""
    if name == "dense-only":
        return DenseOnly(res)
    if name == "bm25-only":
        return BM25Only(res)
    if name == "ppr":
        return PPR(res)
    if name == "no-memory":
        name = "medpath"
    if name in GRAPH_VARIANTS:
        return GraphSystem(name, res, GRAPH_VARIANTS[name], memory_store if name == "with-memory" else None)

    raise InputError(f"unknown system {name!r} (known: {', '.join(SYSTEMS)}, no-memory)")
