"""Path reranker: a linear model over path features, trained listwise on the tune half."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from memory.protocols import Edge, GraphStore
from tools.walker import CandidatePath

__all__ = ["FEATURES", "PathRanker", "RankerModel", "TransitionTables", "fit_listwise"]

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
)


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

    @classmethod
    def fit(cls, chains: Sequence[Sequence[tuple[str, str, str, str, str]]]) -> TransitionTables:
        """Fit from chains of ``(head_type, rel, tail_type, head, tail)`` steps."""
        tn: dict[str, Counter[str]] = {}
        rn: dict[str, Counter[str]] = {}
        rt: Counter[str] = Counter()
        pair: Counter[str] = Counter()
        for chain in chains:
            prev_rel = "<s>"
            for ht, rel, tt, _, _ in chain:
                tn.setdefault(ht, Counter())[tt] += 1
                rn.setdefault(prev_rel, Counter())[rel] += 1
                rt[f"{ht}|{rel}|{tt}"] += 1
                pair[f"{ht}|{tt}"] += 1
                prev_rel = rel
        def norm(c: Counter[str]) -> dict[str, float]:
            tot = sum(c.values()) + 1.0
            return {k: math.log((v + 0.1) / tot) for k, v in c.items()}
        rgt = {k: math.log((v + 0.1) / (pair[f"{k.split('|')[0]}|{k.split('|')[2]}"] + 1.0)) for k, v in rt.items()}
        return cls({k: norm(v) for k, v in tn.items()}, {k: norm(v) for k, v in rn.items()}, rgt)

    def to_json(self) -> dict[str, object]:
        """Serialisable form."""
        return {"type_next": self.type_next, "rel_next": self.rel_next, "rel_given_types": self.rel_given_types, "floor": self.floor}

    @classmethod
    def from_json(cls, obj: dict[str, object]) -> TransitionTables:
        """Inverse of :meth:`to_json`."""
        return cls(obj["type_next"], obj["rel_next"], obj["rel_given_types"], float(obj["floor"]))  # type: ignore[arg-type]


@dataclass
class RankerModel:
    """Standardisation and weights of the linear scorer."""

    weights: list[float]
    mean: list[float]
    std: list[float]

    def score(self, x: np.ndarray) -> np.ndarray:
        """Linear scores of feature rows."""
        z = (x - np.asarray(self.mean)) / np.asarray(self.std)
        return z @ np.asarray(self.weights)  # type: ignore[no-any-return]

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
    ) -> None:
        """Bind the graph, the learned tables, relation priors and entity-name vectors."""
        self.kg = kg
        self.tables = tables
        self.prior = prior
        self.node_vector = node_vector
        self.model = model or RankerModel.identity()

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
                ]
            )
        return np.asarray(rows, dtype=float)

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
