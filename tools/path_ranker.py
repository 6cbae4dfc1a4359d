"""Path reranker: features of each candidate path, scored by a learned model (LambdaMART, ``tools.ranker_models``).

Feature groups (``FEATURE_GROUPS``):

- ``shape``: the path against what the tune half's gold chains look like (type and relation transitions, whole
  metapaths, length, the net sign of the mechanism), the walk's edge confidences, hubs, personalized PageRank mass
  from the question's ends, and how much the candidates agree;
- ``transfer``: which pieces of the path other drugs' curated chains use (``tools.curation``; the path's own drug
  is always left out);
- ``structure``: path-constrained random-walk probability from each end, the degree-weighted path product (the
  summand of DWPC, damping 0.4) and the specificity (−log degree) of the inner nodes;
- ``relative``: the shape and transfer columns minus their best value over this question's candidates, so that
  trees can compare a path with its competitors.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from memory.protocols import Edge, GraphStore
from tools.curation import TRANSFER_FEATURES, CurationStats
from tools.memo import Memo
from tools.ppr import LocalPageRank, PersonalizedPageRank
from tools.ranker_models import RankerModel, ScoreModel
from tools.walker import CandidatePath

__all__ = ["ALL_FEATURES", "FEATURES", "FEATURE_GROUPS", "NEGATIVE", "POSITIVE", "PathRanker", "TransitionTables", "effect", "net_sign"]

FEATURES = (
    "hops",
    "hops_over_min",
    "is_shortest",
    "mean_log_conf",
    "min_log_conf",
    "mean_log_prior",
    "type_loglik",
    "rel_loglik",
    "mean_log_degree",
    "max_log_degree",
    "last_hub",
    "question_sim",
    "node_support",
    "edge_support",
    "type_pattern_logp",
    "rel_pattern_logp",
    "type_pattern_seen",
    "rel_pattern_seen",
    "ppr_mean_log",
    "ppr_min_log",
    "rel_given_types_mean",
    "rel_given_types_min",
    "type_loglik_sum",
    "rel_loglik_sum",
    "type_loglik_min",
    "rel_loglik_min",
    "length_logp",
    "second_is_protein",
    "net_negative",
    "signed_fraction",
    "trigram_sum",
    "trigram_min",
    "trigram_mean",
)

STRUCTURE_FEATURES = ("s_pcrw_forward", "s_pcrw_backward", "s_dwpc_term", "s_specificity_min", "s_specificity_mean",
                      "s_common_min", "s_common_mean")
"""Columns of :meth:`PathRanker.structure`."""
DWPC_DAMPING = 0.4
"""Degree damping of the path product (Hetionet uses 0.4)."""
RELATIVE_FEATURES = tuple(f"rel_{n}" for n in (*FEATURES, *TRANSFER_FEATURES))
"""Shape and transfer columns minus their best value among the question's candidates."""
ALL_FEATURES = (*FEATURES, *TRANSFER_FEATURES, *STRUCTURE_FEATURES, *RELATIVE_FEATURES)
"""Every column :meth:`PathRanker.features` returns, in order."""
FEATURE_GROUPS = {"shape": FEATURES, "transfer": TRANSFER_FEATURES, "structure": STRUCTURE_FEATURES,
                  "relative": RELATIVE_FEATURES}
"""Named groups of columns, for ablations."""

NEGATIVE = frozenset({
    "decreases activity of", "negatively regulates", "negatively correlated with", "decreases abundance of", "disrupts",
    "treats", "prevents", "ameliorates", "increases degradation of", "decreases expression of", "decreases synthesis of",
    "decreases uptake of", "decreases response to", "disrupted by",
})
"""Relations that invert the direction of an effect."""
POSITIVE = frozenset({
    "positively correlated with", "positively regulates", "increases activity of", "causes", "increases abundance of",
    "contributes to", "affects risk for", "produces", "increases stability of", "increases expression of", "exacerbates",
    "predisposes", "increases transport of", "increases response to", "has metabolite", "caused by",
})
"""Relations that carry an effect with its sign."""


def net_sign(relations: Sequence[str]) -> tuple[int, int]:
    """(product of relation signs, number of signed relations): a treatment path is usually net negative."""
    sign, n = 1, 0
    for r in relations:
        if r in NEGATIVE:
            sign, n = -sign, n + 1
        elif r in POSITIVE:
            n += 1
    return sign, n


def effect(relations: Sequence[str]) -> int:
    """How a path's start acts on its end: -1 lowers, +1 raises (the product of its relations' signs), 0 when no
    relation of it has a sign."""
    sign, n = net_sign(relations)
    return sign if n else 0


@dataclass
class TransitionTables:
    """Log-likelihood tables learned from gold chains of the tune half."""

    type_next: dict[str, dict[str, float]] = field(default_factory=dict)
    """log P(next node type | node type)."""
    rel_next: dict[str, dict[str, float]] = field(default_factory=dict)
    """log P(next relation | relation)."""
    rel_given_types: dict[str, float] = field(default_factory=dict)
    """log P(relation | head type, tail type), keyed ``"head|rel|tail"``."""
    floor: float = math.log(1e-3)
    """Log prob of unseen events."""
    type_patterns: dict[str, int] = field(default_factory=dict)
    """Counts of whole node-type sequences (metapaths), keyed ``"Drug>Protein>Disease"``."""
    rel_patterns: dict[str, int] = field(default_factory=dict)
    """Counts of whole relation sequences, keyed ``"rel1>rel2"``."""
    lengths: dict[str, int] = field(default_factory=dict)
    """Counts of chain lengths (hops)."""
    trigram: dict[str, dict[str, float]] = field(default_factory=dict)
    """log P(next relation | previous relation, node type between), keyed ``"rel|type"``; ``</s>`` ends a chain."""
    chains: int = 0
    """Number of chains counted."""

    @classmethod
    def fit(cls, chains: Sequence[Sequence[tuple[str, str, str, str, str]]]) -> TransitionTables:
        """Fit from chains of ``(head_type, rel, tail_type, head, tail)`` steps."""
        tn: dict[str, Counter[str]] = {}
        rn: dict[str, Counter[str]] = {}
        tri: dict[str, Counter[str]] = {}
        rt: Counter[str] = Counter()
        pair: Counter[str] = Counter()
        tpat: Counter[str] = Counter()
        rpat: Counter[str] = Counter()
        lens: Counter[str] = Counter()
        for chain in chains:
            if not chain:
                continue
            prev_rel = "<s>"
            for ht, rel, tt, _, _ in chain:
                tn.setdefault(ht, Counter())[tt] += 1
                rn.setdefault(prev_rel, Counter())[rel] += 1
                tri.setdefault(f"{prev_rel}|{ht}", Counter())[rel] += 1
                rt[f"{ht}|{rel}|{tt}"] += 1
                pair[f"{ht}|{tt}"] += 1
                prev_rel = rel
            tri.setdefault(f"{prev_rel}|{chain[-1][2]}", Counter())["</s>"] += 1
            tpat[">".join([chain[0][0], *(c[2] for c in chain)])] += 1
            rpat[">".join(c[1] for c in chain)] += 1
            lens[str(len(chain))] += 1

        def norm(c: Counter[str]) -> dict[str, float]:
            tot = sum(c.values()) + 1.0
            return {k: math.log((v + 0.1) / tot) for k, v in c.items()}
        rgt = {k: math.log((v + 0.1) / (pair[f"{k.split('|')[0]}|{k.split('|')[2]}"] + 1.0)) for k, v in rt.items()}
        return cls({k: norm(v) for k, v in tn.items()}, {k: norm(v) for k, v in rn.items()}, rgt,
                   type_patterns=dict(tpat), rel_patterns=dict(rpat), lengths=dict(lens),
                   trigram={k: norm(v) for k, v in tri.items()}, chains=sum(lens.values()))

    def to_json(self) -> dict[str, object]:
        """Serialisable form."""
        return {"type_next": self.type_next, "rel_next": self.rel_next, "rel_given_types": self.rel_given_types, "floor": self.floor,
                "type_patterns": self.type_patterns, "rel_patterns": self.rel_patterns, "lengths": self.lengths,
                "trigram": self.trigram, "chains": self.chains}

    @classmethod
    def from_json(cls, obj: dict[str, object]) -> TransitionTables:
        """Inverse of :meth:`to_json`."""
        return cls(obj["type_next"], obj["rel_next"], obj["rel_given_types"], float(obj["floor"]),  # type: ignore[arg-type]
                   obj.get("type_patterns", {}), obj.get("rel_patterns", {}), obj.get("lengths", {}),  # type: ignore[arg-type]
                   obj.get("trigram", {}), int(obj.get("chains", 0)))  # type: ignore[arg-type]


class PathRanker:
    """Computes path features and ranks candidates."""

    def __init__(
        self,
        kg: GraphStore,
        tables: TransitionTables,
        prior: Callable[[str, str, str], float],
        node_vector: Callable[[str], np.ndarray | None],
        model: ScoreModel | None = None,
        ppr: PersonalizedPageRank | LocalPageRank | None = None,
        curation: CurationStats | None = None,
    ) -> None:
        """Bind the graph, the learned tables, relation priors, entity-name vectors, PageRank and curated chains."""
        self.kg = kg
        self.tables = tables
        self.prior = prior
        self.node_vector = node_vector
        self.model: ScoreModel = model or RankerModel.identity(ALL_FEATURES)
        self._ppr = ppr
        self.curation = curation or CurationStats()

    @property
    def ppr(self) -> PersonalizedPageRank | LocalPageRank | None:
        """Personalized PageRank over the graph: local (it reads the nodes it needs from the store) unless the
        whole-graph form was given (training holds one anyway)."""
        if self._ppr is None:
            self._ppr = LocalPageRank(self.kg)
        return self._ppr

    def _type(self, n: str) -> str:
        e = self.kg.node(n)
        return e.type if e else "Unknown"

    def features(self, paths: Sequence[CandidatePath], question_vec: np.ndarray | None) -> np.ndarray:
        """Feature matrix, one row per path (columns as in ``ALL_FEATURES``)."""
        if not paths:
            return np.zeros((0, len(ALL_FEATURES)))
        shape = self.shape_features(paths, question_vec)
        transfer = np.zeros((len(paths), len(TRANSFER_FEATURES)))
        groups: dict[tuple[str, str], list[int]] = {}
        for i, p in enumerate(paths):
            groups.setdefault((p.edges[0].head, p.edges[-1].tail), []).append(i)
        for (drug, disease), idx in groups.items():
            rows = self.curation.features([[(e.head, e.relation, e.tail) for e in paths[i].edges] for i in idx], disease,
                                          exclude_drug=drug)
            transfer[idx] = rows
        degrees, common = self._neighbourhood(paths)
        structure = np.asarray([self.structure(p, degrees, common) for p in paths], dtype=float)
        both = np.hstack([shape, transfer])
        return np.hstack([shape, transfer, structure, both - both.max(0)])

    def _neighbourhood(self, paths: Sequence[CandidatePath]) -> tuple[dict[str, tuple[int, int, int]], dict[Edge, float]]:
        """Degree, out-degree and in-degree of every end of the paths' edges, and for every edge log(1 + the number of
        neighbours its two ends share): two batched reads (one round trip each on PostgreSQL, where asking node by
        node cost one each)."""
        nodes = list(dict.fromkeys(x for p in paths for e in p.edges for x in (e.head, e.tail)))
        outs, ins = self.kg.neighbours(nodes, "out"), self.kg.neighbours(nodes, "in")
        near = {x: {e.tail for e in outs[x]} | {e.head for e in ins[x]} for x in nodes}
        common = {e: math.log1p(len((near[e.head] & near[e.tail]) - {e.head, e.tail}))
                  for e in {e for p in paths for e in p.edges}}
        return {x: (self.kg.degree(x), len(outs[x]), len(ins[x])) for x in nodes}, common

    def structure(self, p: CandidatePath, degrees: dict[str, tuple[int, int, int]], common: dict[Edge, float]) -> list[float]:
        """PCRW log-probability forward and backward, the log DWPC term, inner-node specificity, and the least and the
        mean of its edges' shared-neighbour scores, of one path (``degrees``, ``common``: :meth:`_neighbourhood` of a
        pool that holds it)."""
        deg = degrees.__getitem__
        nodes = p.nodes
        spec = [-math.log(max(deg(x)[0], 1)) for x in nodes[1:-1]] or [0.0]
        return [
            sum(-math.log(max(deg(e.head)[1], 1)) for e in p.edges),
            sum(-math.log(max(deg(e.tail)[2], 1)) for e in p.edges),
            sum(-DWPC_DAMPING * math.log(max(deg(x)[0], 1)) for x in nodes),
            min(spec),
            sum(spec) / len(spec),
            min(common[e] for e in p.edges),
            sum(common[e] for e in p.edges) / len(p.edges),
        ]

    def shape_features(self, paths: Sequence[CandidatePath], question_vec: np.ndarray | None) -> np.ndarray:
        """The ``shape`` columns (``FEATURES``), one row per path."""
        if not paths:
            return np.zeros((0, len(FEATURES)))
        min_hops = min(p.hops for p in paths)
        node_count: Counter[str] = Counter()
        edge_count: Counter[Edge] = Counter()
        for p in paths:
            node_count.update(set(p.nodes[1:-1]))
            edge_count.update(set(p.edges))
        n, t, rows, n_chains = float(len(paths)), self.tables, [], float(self.tables.chains)
        starts, ends = {p.nodes[0] for p in paths}, {p.nodes[-1] for p in paths}
        seeds = (starts if len(starts) <= 5 else set()) | (ends if len(ends) <= 5 else set())
        ppr = self.ppr  # PageRank among the candidates' own nodes: its cost follows the walk, not the graph
        r = ppr.rank_within(seeds, {x for p in paths for x in p.nodes}) if ppr is not None and seeds else None
        # paths share most of their nodes and steps: each node's type and degree, and each step's prior, read once
        type_of = Memo(self._type)
        log_degree = Memo(lambda x: math.log1p(self.kg.degree(x)))
        prior_of = Memo(lambda key: self.prior(key[0], "out", key[1]))
        log_rank = Memo(lambda x: math.log(r.get(x, 0.0) + 1e-9)) if r is not None else None
        similarity = Memo(lambda x: float(v @ question_vec) if (v := self.node_vector(x)) is not None else 0.0)
        for p in paths:
            nodes = p.nodes
            inner = nodes[1:-1]
            types = [type_of[x] for x in nodes]
            logc = [math.log(max(c, 1e-6)) for c in p.confs]
            degs = [log_degree[x] for x in inner]
            type_ll = [t.type_next.get(types[i], {}).get(types[i + 1], t.floor) for i in range(len(types) - 1)]
            rels = ["<s>", *(e.relation for e in p.edges)]
            rel_ll = [t.rel_next.get(rels[i], {}).get(rels[i + 1], t.floor) for i in range(len(rels) - 1)]
            prior = [prior_of[(types[i], e.relation)] for i, e in enumerate(p.edges)]
            sims = [similarity[x] for x in inner] if question_vec is not None else []
            rows.append(
                [
                    p.hops,
                    p.hops - min_hops,
                    1.0 if p.hops == min_hops else 0.0,
                    sum(logc) / len(logc),
                    min(logc),
                    sum(prior) / len(prior),
                    sum(type_ll) / len(type_ll),
                    sum(rel_ll) / len(rel_ll),
                    sum(degs) / len(degs) if degs else 0.0,
                    max(degs) if degs else 0.0,
                    log_degree[inner[-1]] if inner else 0.0,
                    sum(sims) / len(sims) if sims else 0.0,
                    sum(node_count[x] for x in inner) / (n * len(inner)) if inner else 1.0,
                    sum(edge_count[e] for e in p.edges) / (n * p.hops),
                    *self._shape(p, types, rels[1:], type_ll, rel_ll, n_chains, log_rank),
                ]
            )
        return np.asarray(rows, dtype=float)

    def _shape(self, p: CandidatePath, types: list[str], rels: list[str], type_ll: list[float], rel_ll: list[float],
               n_chains: float, log_rank: Memo[str, float] | None) -> list[float]:
        """The metapath, sign, trigram and PageRank features of one path."""
        t = self.tables
        tp = t.type_patterns.get(">".join(types), 0)
        rp = t.rel_patterns.get(">".join(rels), 0)
        inner = p.nodes[1:-1]
        if log_rank is not None and inner:
            lpr = [log_rank[x] for x in inner]
        else:
            lpr = [0.0]
        rgt = [t.rel_given_types.get(f"{types[i]}|{rel}|{types[i + 1]}", t.floor) for i, rel in enumerate(rels)]
        ctx = ["<s>", *rels]
        tri = [t.trigram.get(f"{ctx[i]}|{types[i]}", {}).get(nxt, t.floor) for i, nxt in enumerate([*rels, "</s>"])]
        sign, signed = net_sign(rels)
        return [
            math.log((tp + 0.5) / (n_chains + 1.0)),
            math.log((rp + 0.5) / (n_chains + 1.0)),
            1.0 if tp else 0.0,
            1.0 if rp else 0.0,
            sum(lpr) / len(lpr),
            min(lpr),
            sum(rgt) / len(rgt),
            min(rgt),
            sum(type_ll),
            sum(rel_ll),
            min(type_ll),
            min(rel_ll),
            math.log((t.lengths.get(str(len(rels)), 0) + 0.5) / (n_chains + 1.0)),
            1.0 if len(types) > 1 and types[1] == "Protein" else 0.0,
            1.0 if sign < 0 else 0.0,
            signed / len(rels),
            sum(tri),
            min(tri),
            sum(tri) / len(tri),
        ]

    def rank(self, paths: list[CandidatePath], question_vec: np.ndarray | None) -> list[CandidatePath]:
        """Score and sort paths (best first); fills ``score``, ``features`` and ``row``."""
        if not paths:
            return []
        x = self.features(paths, question_vec)
        scores = self.model.score(x)
        for p, s, row in zip(paths, scores, x, strict=True):
            p.score = float(s)
            p.features = dict(zip(FEATURES, (float(v) for v in row[: len(FEATURES)]), strict=True))
            p.row = row
        return sorted(paths, key=lambda p: (-p.score, p.hops, [e.tail for e in p.edges]))
