"""Path reranker: a small listwise-trained scorer (linear part plus a tanh layer, ensembled) over path features.

Features describe a path's shape against what the tune half's gold chains look like (type and
relation transitions, whole metapaths, length, the net sign of the mechanism), the walk's edge
confidences, hubs, personalized PageRank mass from the question's ends, and how much the
candidates agree. No feature looks at a particular gold path.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from memory.protocols import Edge, GraphStore
from tools.ppr import PersonalizedPageRank
from tools.walker import CandidatePath

__all__ = ["FEATURES", "NEGATIVE", "POSITIVE", "PathRanker", "RankerModel", "TransitionTables", "fit_listwise", "fit_listwise_mlp", "net_sign"]

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


@dataclass
class RankerModel:
    """Standardisation, a linear part, and optional tanh-layer members (an ensemble whose scores add up)."""

    weights: list[float]
    """Linear weights on standardised features (used when there are no members)."""
    mean: list[float]
    std: list[float]
    members: list[dict[str, list]] = field(default_factory=list)
    """Each ``{"W1": d×h, "b1": h, "w2": h, "wl": d}``: score = tanh(z·W1 + b1)·w2 + z·wl."""

    def __post_init__(self) -> None:
        """Convert the stored lists to arrays once (``score`` runs for every question)."""
        self._mean = np.asarray(self.mean)
        self._std = np.asarray(self.std)
        self._weights = np.asarray(self.weights)
        self._members = [tuple(np.asarray(m[k]) for k in ("W1", "b1", "w2", "wl")) for m in self.members]

    def score(self, x: np.ndarray) -> np.ndarray:
        """Scores of feature rows."""
        z = (x - self._mean) / self._std
        if not self._members:
            return z @ self._weights  # type: ignore[no-any-return]
        out = np.zeros(len(z))
        for w1, b1, w2, wl in self._members:
            out += np.tanh(z @ w1 + b1) @ w2 + z @ wl
        return out

    def to_json(self) -> dict[str, object]:
        """Serialisable form."""
        return {"weights": self.weights, "mean": self.mean, "std": self.std, "members": self.members}

    @classmethod
    def identity(cls) -> RankerModel:
        """An untrained model: prefer short, confident paths."""
        w = [0.0] * len(FEATURES)
        w[FEATURES.index("hops")] = -1.0
        w[FEATURES.index("mean_log_conf")] = 0.5
        return cls(w, [0.0] * len(FEATURES), [1.0] * len(FEATURES))


class PathRanker:
    """Computes path features and ranks candidates."""

    def __init__(
        self,
        kg: GraphStore,
        tables: TransitionTables,
        prior: Callable[[str, str, str], float],
        node_vector: Callable[[str], np.ndarray | None],
        model: RankerModel | None = None,
        ppr: PersonalizedPageRank | None = None,
    ) -> None:
        """Bind the graph, the learned tables, relation priors, entity-name vectors and PageRank."""
        self.kg = kg
        self.tables = tables
        self.prior = prior
        self.node_vector = node_vector
        self.model = model or RankerModel.identity()
        self._ppr = ppr

    @property
    def ppr(self) -> PersonalizedPageRank | None:
        """Personalized PageRank over the graph (built on first use when the store exposes ``graph``)."""
        if self._ppr is None and hasattr(self.kg, "graph"):
            self._ppr = PersonalizedPageRank(self.kg.graph)  # type: ignore[attr-defined]
        return self._ppr

    def _type(self, n: str) -> str:
        e = self.kg.node(n)
        return e.type if e else "Unknown"

    def features(self, paths: Sequence[CandidatePath], question_vec: np.ndarray | None) -> np.ndarray:
        """Feature matrix, one row per path (columns as in ``FEATURES``)."""
        if not paths:
            return np.zeros((0, len(FEATURES)))
        min_hops = min(p.hops for p in paths)
        node_count: Counter[str] = Counter()
        edge_count: Counter[Edge] = Counter()
        for p in paths:
            node_count.update(set(p.nodes[1:-1]))
            edge_count.update(set(p.edges))
        n = float(len(paths))
        t = self.tables
        rows = []
        sim_cache: dict[str, float] = {}
        starts = {p.nodes[0] for p in paths}
        ends = {p.nodes[-1] for p in paths}
        seeds = (starts if len(starts) <= 5 else set()) | (ends if len(ends) <= 5 else set())
        ppr = self.ppr
        r = ppr.rank(seeds) if ppr is not None and seeds else None
        n_chains = float(t.chains)
        for p in paths:
            inner = p.nodes[1:-1]
            types = [self._type(x) for x in p.nodes]
            logc = [math.log(max(c, 1e-6)) for c in p.confs]
            degs = [math.log1p(self.kg.degree(x)) for x in inner]
            type_ll = [t.type_next.get(types[i], {}).get(types[i + 1], t.floor) for i in range(len(types) - 1)]
            rels = ["<s>", *(e.relation for e in p.edges)]
            rel_ll = [t.rel_next.get(rels[i], {}).get(rels[i + 1], t.floor) for i in range(len(rels) - 1)]
            prior = [self.prior(types[i], "out", e.relation) for i, e in enumerate(p.edges)]
            sims = []
            if question_vec is not None:
                for x in inner:
                    if x not in sim_cache:
                        v = self.node_vector(x)
                        sim_cache[x] = float(v @ question_vec) if v is not None else 0.0
                    sims.append(sim_cache[x])
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
                    math.log1p(self.kg.degree(inner[-1])) if inner else 0.0,
                    sum(sims) / len(sims) if sims else 0.0,
                    sum(node_count[x] for x in inner) / (n * len(inner)) if inner else 1.0,
                    sum(edge_count[e] for e in p.edges) / (n * p.hops),
                    *self._shape(p, types, rels[1:], type_ll, rel_ll, n_chains, r),
                ]
            )
        return np.asarray(rows, dtype=float)

    def _shape(self, p: CandidatePath, types: list[str], rels: list[str], type_ll: list[float], rel_ll: list[float],
               n_chains: float, r: np.ndarray | None) -> list[float]:
        """The metapath, sign, trigram and PageRank features of one path."""
        t = self.tables
        tp = t.type_patterns.get(">".join(types), 0)
        rp = t.rel_patterns.get(">".join(rels), 0)
        inner = p.nodes[1:-1]
        if r is not None and inner and self.ppr is not None:
            lpr = [math.log(self.ppr.mass(r, x) + 1e-9) for x in inner]
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
        """Score and sort paths (best first); fills ``score`` and ``features``."""
        if not paths:
            return []
        x = self.features(paths, question_vec)
        scores = self.model.score(x)
        for p, s, row in zip(paths, scores, x, strict=True):
            p.score = float(s)
            p.features = dict(zip(FEATURES, (float(v) for v in row), strict=True))
        return sorted(paths, key=lambda p: (-p.score, p.hops, [e.tail for e in p.edges]))


def fit_listwise(
    groups: Sequence[tuple[np.ndarray, np.ndarray]], epochs: int = 400, lr: float = 0.1, l2: float = 1e-3
) -> RankerModel:
    """ListNet: softmax cross-entropy between scores and a target distribution per question.

    Args:
        groups: per question, (feature rows, relevance in [0, 1]).
        epochs: full-batch gradient steps.
        lr: learning rate.
        l2: weight decay.

    Returns:
        The fitted model.
    """
    groups = [(x, y) for x, y in groups if len(x) > 1 and y.max() > y.min()]
    if not groups:
        return RankerModel.identity()
    allx = np.vstack([x for x, _ in groups])
    mean = allx.mean(0)
    std = allx.std(0)
    std[std < 1e-9] = 1.0
    zs = [((x - mean) / std, y) for x, y in groups]
    w = np.zeros(allx.shape[1])
    for _ in range(epochs):
        grad = l2 * w
        for z, y in zs:
            s = z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            target = np.exp(4.0 * y)
            target /= target.sum()
            grad = grad + z.T @ (p - target) / len(zs)
        w -= lr * grad
    return RankerModel(w.tolist(), mean.tolist(), std.tolist())


def fit_listwise_mlp(
    groups: Sequence[tuple[np.ndarray, np.ndarray]], *, hidden: int = 24, epochs: int = 300, lr: float = 0.05,
    l2: float = 1e-3, seeds: Sequence[int] = (0, 1, 2), max_rows: int = 120,
) -> RankerModel:
    """ListNet with a tanh layer plus a linear skip, trained by Adam on all questions at once; one member per seed.

    Args:
        groups: per question, (feature rows, relevance in [0, 1]).
        hidden: units of the tanh layer.
        epochs: full-batch steps.
        lr: Adam learning rate.
        l2: weight decay.
        seeds: one ensemble member per seed (their scores add up).
        max_rows: candidates kept per question (every one with relevance ≥ 0.5, then a seeded sample).

    Returns:
        The fitted model.
    """
    groups = [(x, y) for x, y in groups if len(x) > 1 and y.max() > y.min()]
    if not groups:
        return RankerModel.identity()
    pick = np.random.default_rng(0)
    capped = []
    for x, y in groups:
        if len(x) > max_rows:
            good = np.flatnonzero(y >= 0.5)
            rest = np.setdiff1d(np.arange(len(y)), good)
            keep = np.concatenate([good, pick.choice(rest, size=max(0, max_rows - len(good)), replace=False)])
            x, y = x[keep], y[keep]
        capped.append((x, y))
    groups = capped
    allx = np.vstack([x for x, _ in groups])
    mean = allx.mean(0)
    std = allx.std(0)
    std[std < 1e-9] = 1.0
    z = ((allx - mean) / std).astype(np.float32)
    y = np.concatenate([g[1] for g in groups])
    sizes = np.array([len(g[0]) for g in groups])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    gid = np.repeat(np.arange(len(groups)), sizes)
    target = np.exp(4.0 * (y - np.maximum.reduceat(y, starts)[gid]))
    target /= np.add.reduceat(target, starts)[gid]
    members = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        params = [rng.normal(0, 0.3, (z.shape[1], hidden)).astype(np.float32), np.zeros(hidden, np.float32),
                  rng.normal(0, 0.3, hidden).astype(np.float32), np.zeros(z.shape[1], np.float32)]
        m1 = [np.zeros_like(p) for p in params]
        m2 = [np.zeros_like(p) for p in params]
        for it in range(1, epochs + 1):
            w1, b1, w2, wl = params
            h = np.tanh(z @ w1 + b1)
            s = h @ w2 + z @ wl
            e = np.exp(s - np.maximum.reduceat(s, starts)[gid])
            prob = e / np.add.reduceat(e, starts)[gid]
            ds = ((prob - target) / len(groups)).astype(np.float32)
            dh = np.outer(ds, w2) * (1 - h * h)
            grads = [z.T @ dh, dh.sum(0), h.T @ ds, z.T @ ds]
            for i, p in enumerate(params):
                g = grads[i] + l2 * p
                m1[i] = 0.9 * m1[i] + 0.1 * g
                m2[i] = 0.999 * m2[i] + 0.001 * g * g
                p -= lr * (m1[i] / (1 - 0.9**it)) / (np.sqrt(m2[i] / (1 - 0.999**it)) + 1e-8)
        members.append({"W1": params[0].round(6).tolist(), "b1": params[1].round(6).tolist(),
                        "w2": params[2].round(6).tolist(), "wl": params[3].round(6).tolist()})
    return RankerModel([0.0] * z.shape[1], mean.tolist(), std.tolist(), members)
