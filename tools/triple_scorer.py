"""Which triples of the candidate paths belong to the curated mechanism: a learned scorer over the ranked pool.

The retriever hands out triples as well as one path (``State.retrieved``: the Explainer's evidence, the context of a
hybrid search, ``eval kg``'s Recall@5). They used to be ordered by path mass, the summed softmax weight of the
ranked paths that hold them (``tools.triples``). The triple scorer keeps that mass as evidence and adds what the
path ranker cannot see one triple at a time: where the triple sits between the drug and the disease, its relation
and types, its ends' degrees, and how often other drugs' curated chains use it (for any disease, for this disease,
after the same first target). A LightGBM binary model (``tools.ranker_fit.fit_triple_model``) turns those columns
into the probability that the triple is one of the question's gold triples.

A question's own gold never reaches its own columns: at training time the path scores come from a ranker that did
not see its fold and the counts leave its fold out; at answer time the counts leave out every chain of the
question's drug (``CurationStats.edge_counts(..., exclude_drug=…)``), as the path ranker's transfer features do,
and each training fold in turn (``TripleScorer.folds``), with the paths scored by the ranker that did not see that
fold (``TripleScorer.rankers``), as its training questions were.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from core.errors import StoreError
from tools.booster import Booster
from tools.curation import CurationStats, Triple
from tools.ranker_models import LambdaRanker
from tools.walker import CandidatePath

__all__ = ["MASS_TEMPERATURES", "TRIPLE_FEATURES", "TripleScorer", "bagged_rows", "triple_rows"]

MASS_TEMPERATURES = (0.25, 0.5, 1.0, 2.0)
"""Softmax temperatures over the path scores whose masses are columns (0.5 is the old order's)."""
TRIPLE_FEATURES = (
    "relation",
    "head_type",
    "tail_type",
    "is_first",
    "is_last",
    "hops_from_drug",
    "hops_to_disease",
    "head_log_degree",
    "tail_log_degree",
    "path_share",
    *(f"mass_t{t}" for t in MASS_TEMPERATURES),
    "best_path_gap",
    "best_path_rank",
    "curated_log",
    "curated_disease_log",
    "curated_after_target_log",
    "head_node_mass",
    "tail_node_mass",
    "in_top_path",
)
"""Columns of :func:`triple_rows`, in order; the first three are categorical (codes in a saved vocabulary)."""
CATEGORICAL = (0, 1, 2)
"""Indices of the categorical columns."""
_COUNTS = TRIPLE_FEATURES.index("curated_log")
"""Where the three count columns start."""
RANK_CAP = 50
"""``best_path_rank`` is capped here."""
TRIPLE_PATHS = 100
"""Best-scored paths whose triples get a row (the rest carry almost no mass); the counts read every path."""


@dataclass
class Vocabulary:
    """Codes of the categorical columns: relations and entity types, in a fixed order saved with the model."""

    relations: list[str]
    types: list[str]

    def __post_init__(self) -> None:
        """Index both lists."""
        self._rel = {r: i for i, r in enumerate(self.relations)}
        self._type = {t: i for i, t in enumerate(self.types)}

    def relation(self, r: str) -> float:
        """The relation's code; -1 (missing to LightGBM) when it is not in the vocabulary."""
        return float(self._rel.get(r, -1))

    def type(self, t: str) -> float:
        """The type's code; -1 when unknown."""
        return float(self._type.get(t, -1))


@dataclass
class _Pool:
    """What the ranked pool says about each of its distinct triples (index ``k`` in ``keys``)."""

    keys: list[Triple]
    """Triples that get a row: those of the ``TRIPLE_PATHS`` best paths, first seen first."""
    share: np.ndarray
    mass: list[np.ndarray]
    first: np.ndarray
    last: np.ndarray
    best: np.ndarray
    node_mass: dict[str, float]
    targets: dict[int, set[str]]


def _pool(paths: Sequence[Sequence[Triple]], s: np.ndarray) -> _Pool:
    """Counts over every path (already in score order, best first), by triple."""
    weights = {t: np.exp((s - s[0]) / t) for t in MASS_TEMPERATURES}
    flat = [e for p in paths for e in p]
    index: dict[Triple, int] = {}
    inc_edge = [index.setdefault(e, len(index)) for e in flat]
    lens = np.fromiter((len(p) for p in paths), dtype=int, count=len(paths))
    ip = np.repeat(np.arange(len(paths)), lens)
    ie = np.asarray(inc_edge)
    pos = np.arange(len(flat)) - np.repeat(np.cumsum(lens) - lens, lens)
    rem = np.repeat(lens, lens) - 1 - pos
    m = len(index)
    first, last, best = np.full(m, 99), np.full(m, 99), np.full(m, len(paths))
    np.minimum.at(first, ie, pos)
    np.minimum.at(last, ie, rem)
    np.minimum.at(best, ie, ip)  # paths are in score order: the smallest index is the best path holding it
    inner = np.flatnonzero(rem > 0)
    node_mass: dict[str, float] = {}
    for i, w in zip(inner.tolist(), weights[0.5][ip[inner]].tolist(), strict=True):
        node_mass[flat[i][2]] = node_mass.get(flat[i][2], 0.0) + w
    total = float(weights[0.5].sum())
    scored = int(ie[: int(lens[:TRIPLE_PATHS].sum())].max()) + 1  # rows for the best paths' triples; counts over all
    targets: dict[int, set[str]] = defaultdict(set)
    for i, k in set(zip(ip.tolist(), inc_edge, strict=True)):
        if k < scored:
            targets[k].add(paths[i][0][2])
    return _Pool(list(index)[:scored], np.bincount(ie, minlength=m),
                 [np.bincount(ie, weights=weights[t][ip], minlength=m) / weights[t].sum() for t in MASS_TEMPERATURES],
                 first, last, best, {n: v / total for n, v in node_mass.items()}, targets)


def triple_rows(paths: Sequence[Sequence[Triple]], scores: np.ndarray, vocab: Vocabulary,
                type_of: Callable[[str], str], degree: Callable[[str], int], curation: CurationStats, *,
                exclude_drug: Callable[[str], str | None] = lambda _drug: None) -> tuple[list[Triple], np.ndarray]:
    """The distinct triples of the ``TRIPLE_PATHS`` best-scored ``paths`` (in the order the best first holds
    them) and one row of ``TRIPLE_FEATURES`` each.

    Args:
        paths: candidate paths as triples, each from a drug to a disease.
        scores: the path ranker's score of each path.
        vocab: codes of relations and types.
        type_of: an entity's type.
        degree: an entity's degree in the graph.
        curation: the curated chains counted.
        exclude_drug: the drug whose chains the counts leave out, given a path's first entity (answer time: that
            drug; training: none, because the counts come from the other folds).
    """
    keys, xs = bagged_rows(paths, scores, vocab, type_of, degree, curation, exclude_drug=exclude_drug)
    return keys, xs[0]


def bagged_rows(paths: Sequence[Sequence[Triple]], scores: np.ndarray, vocab: Vocabulary,
                type_of: Callable[[str], str], degree: Callable[[str], int], curation: CurationStats, *,
                exclude_drug: Callable[[str], str | None] = lambda _drug: None,
                groups: Sequence[frozenset[str]] = (frozenset(),)) -> tuple[list[Triple], list[np.ndarray]]:
    """:func:`triple_rows` once per group of drugs whose chains the counts also leave out (the folds, at answer
    time); only the three count columns differ, so the pool is read once."""
    if not paths:
        return [], [np.zeros((0, len(TRIPLE_FEATURES))) for _ in groups]
    order = np.argsort(-np.asarray(scores, dtype=float), kind="stable")
    s = np.asarray(scores, dtype=float)[order]
    paths = [paths[i] for i in order]
    pool = _pool(paths, s)
    top_path = set(paths[0])
    base, counts = [], [[] for _ in groups]
    for k, e in enumerate(pool.keys):
        h, r, t = e
        holder = paths[pool.best[k]]
        base.append([
            vocab.relation(r), vocab.type(type_of(h)), vocab.type(type_of(t)),
            float(pool.first[k] == 0), float(pool.last[k] == 0), float(pool.first[k]), float(pool.last[k]),
            math.log1p(degree(h)), math.log1p(degree(t)), pool.share[k] / len(paths), *(mt[k] for mt in pool.mass),
            float(s[pool.best[k]] - s[0]), float(min(pool.best[k], RANK_CAP)),
            pool.node_mass.get(h, 0.0), pool.node_mass.get(t, 0.0), float(e in top_path),
        ])
        drug = exclude_drug(holder[0][0])
        for g, out in zip(groups, counts, strict=True):
            out.append([math.log1p(c) for c in curation.edge_counts(e, holder[-1][2], pool.targets[k], exclude_drug=drug,
                                                                    exclude_drugs=g)])
    b = np.asarray(base, dtype=float)
    return pool.keys, [np.hstack([b[:, :_COUNTS], np.asarray(c, dtype=float), b[:, _COUNTS:]]) for c in counts]


@dataclass
class TripleScorer:
    """The saved triple model over a graph and the curated counts; :meth:`rank` orders a question's triples."""

    model: str
    """The LightGBM booster as text."""
    vocab: Vocabulary
    kg: Any = field(repr=False)
    curation: CurationStats = field(repr=False)
    folds: list[frozenset[str]] = field(default_factory=list)
    """The drugs of each training fold. Training counted other drugs' chains over every fold but the question's
    own, so answering averages the probabilities over the same counts: every chain but one fold's, once per fold
    (with the whole half at once, every count would run about a quarter higher than any the model saw)."""
    rankers: list[LambdaRanker] = field(default_factory=list)
    """Per fold, the path ranker trained without it: it gave that fold's training questions the path scores the
    model learned from, so answering pairs it with the counts that leave the same fold out. Empty (an index built
    before them): every fold reads the path ranker's own scores."""

    def __post_init__(self) -> None:
        """Load the booster (LightGBM's C library, ``tools.booster``); a model it refuses is a StoreError."""
        try:
            self._booster = Booster(self.model)
        except ValueError as exc:
            raise StoreError(f"the saved triple scorer is unreadable ({exc}); run `medpath index build --force`") from exc
        if self.rankers and len(self.rankers) != len(self.folds):
            raise StoreError(f"the saved triple scorer has {len(self.rankers)} fold rankers for {len(self.folds)} folds; "
                             "run `medpath index build --force`")

    def _type(self, n: str) -> str:
        e = self.kg.node(n)
        return e.type if e else "Unknown"

    def rank(self, paths: Sequence[CandidatePath]) -> list[tuple[Triple, float]]:
        """``(triple, probability)`` of every triple of the scored ``paths``, most probable first (ties: first
        seen): the mean over the training folds of the probability with that fold's chains left out of the counts
        (``folds``) and the paths scored by the ranker that did not see it (``rankers``; a triple outside that
        ranker's ``TRIPLE_PATHS`` best paths counts as 0 there). Every chain of a path's drug is left out too."""
        triples = [[(e.head, e.relation, e.tail) for e in p.edges] for p in paths]
        rows = [p.row for p in paths if p.row is not None]
        if self.rankers and paths and len(rows) == len(paths):
            x = np.vstack(rows)
            scored = [(ranker.score(x), [fold]) for ranker, fold in zip(self.rankers, self.folds, strict=True)]
        else:  # one reading of the pool by the scores the paths carry, every fold's counts from it
            scored = [(np.asarray([p.score for p in paths]), self.folds or [frozenset()])]
        index: dict[Triple, int] = {}
        at: list[int] = []
        xs: list[np.ndarray] = []
        for scores, groups in scored:
            keys, fold_rows = bagged_rows(triples, scores, self.vocab, self._type, self.kg.degree, self.curation,
                                          exclude_drug=lambda drug: drug, groups=groups)
            at += [index.setdefault(k, len(index)) for k in keys] * len(fold_rows)
            xs += fold_rows
        if not index:
            return []
        prob = np.zeros(len(index))
        np.add.at(prob, at, self.probabilities(np.vstack(xs)))  # one call of the C library
        prob /= len(xs)
        keys = list(index)
        return [(keys[i], float(prob[i])) for i in np.argsort(-prob, kind="stable")]

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """The probability that each row's triple is a gold step."""
        return 1.0 / (1.0 + np.exp(-self._booster.predict(x)))  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, object]:
        """Serialisable form (the graph and the counts are saved elsewhere)."""
        return {"kind": "triple-binary", "model": self.model, "relations": self.vocab.relations,
                "types": self.vocab.types, "names": list(TRIPLE_FEATURES), "folds": [sorted(f) for f in self.folds],
                "rankers": [r.to_json() for r in self.rankers]}

    @classmethod
    def from_json(cls, obj: dict[str, Any], kg: Any, curation: CurationStats) -> TripleScorer:
        """Inverse of :meth:`to_json`, bound to ``kg`` and ``curation``; columns other than ours are a StoreError."""
        if list(obj.get("names", ())) != list(TRIPLE_FEATURES):
            raise StoreError("the saved triple scorer has other columns than this version; run `medpath index build --force`")
        rankers = []
        for r in obj.get("rankers", []):
            try:
                rankers.append(LambdaRanker(str(r["model"]), list(r["names"])))
            except (ValueError, KeyError, TypeError) as exc:
                raise StoreError(f"a saved fold ranker of the triple scorer is unreadable ({exc}); "
                                 "run `medpath index build --force`") from exc
        return cls(str(obj["model"]), Vocabulary(list(obj["relations"]), list(obj["types"])), kg, curation,
                   [frozenset(f) for f in obj.get("folds", [])], rankers)
