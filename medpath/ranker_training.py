"""Out-of-fold training rows for the path ranker: a question's own gold chain never reaches its own features.

The tune half is cut into folds by drug. For the questions of fold k, everything learned from gold — the relation
priors that steer the walk, the transition tables, the curated-chain transfer counts — comes from the other folds
only; the walker and its settings are the ones ``ask`` uses. Labels are each candidate's Path-F1 against the best
gold chain (graded by ``tools.ranker_models.graded_labels``). The ranker trains on every tune question's rows.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import numpy as np

from core.datasets import PathRecord
from core.forking import map_in_forks
from core.settings import WalkBudget
from medpath.metrics import path_f1_best_chain
from tools.curation import Chain, CurationStats
from tools.edge_predictor import EmbeddingEdgePredictor, RelationPriors
from tools.path_ranker import ALL_FEATURES, PathRanker, TransitionTables
from tools.ppr import PersonalizedPageRank
from tools.ranker_fit import fit_lambdarank, fit_triple_model
from tools.ranker_models import LambdaRanker
from tools.triple_scorer import CATEGORICAL, TRIPLE_FEATURES, TripleScorer, Vocabulary, bagged_rows
from tools.walker import CandidatePath, GraphWalker

__all__ = ["FOLDS", "Walked", "curated_chains", "drug_folds", "fit_triple_scorer", "fold_of", "fold_rankers", "gold_chains", "label_paths",
           "oof_rows", "oof_scores", "triple_groups", "typed_chains", "types_of", "vocabulary"]

FOLDS = 5
"""Folds of the tune half, by drug."""


@dataclass
class Walked:
    """One tune question walked out of fold: its candidates, their features and labels."""

    record: PathRecord
    question_vec: np.ndarray
    paths: list[CandidatePath]
    x: np.ndarray
    """Feature rows (``tools.path_ranker.ALL_FEATURES``)."""
    y: np.ndarray
    """Path-F1 of each candidate against the best gold chain."""


def fold_of(r: PathRecord, k: int = FOLDS) -> int:
    """The record's fold: by drug, so that all of a drug's questions fall in one fold."""
    return int(hashlib.sha1(("kf:" + (r.drug_id or r.id)).encode()).hexdigest(), 16) % k


def gold_chains(r: PathRecord) -> list[tuple[tuple[str, str, str], ...]]:
    """The record's gold chains as triples."""
    chains = r.gold_chains or [list(range(len(r.gold_triples)))]
    return [tuple((r.gold_triples[i].head, r.gold_triples[i].relation, r.gold_triples[i].tail) for i in c) for c in chains]


def curated_chains(records: Iterable[PathRecord]) -> list[Chain]:
    """``(drug, disease, steps)`` for every gold chain of the records."""
    return [(r.drug_id, r.disease_id, c) for r in records for c in gold_chains(r) if c]


def types_of(kg: Any) -> Callable[[str], str]:
    """An entity's type in ``kg`` ("Unknown" for an id it lacks)."""
    def type_of(x: str) -> str:
        e = kg.node(x)
        return e.type if e else "Unknown"

    return type_of


def typed_chains(type_of: Callable[[str], str], records: Iterable[PathRecord]) -> list[list[tuple[str, str, str, str, str]]]:
    """Gold chains as ``(head type, relation, tail type, head, tail)`` steps, for the transition tables."""
    return [[(type_of(h), rel, type_of(t), h, t) for h, rel, t in c] for r in records for c in gold_chains(r)]


def label_paths(paths: Sequence[CandidatePath], r: PathRecord) -> np.ndarray:
    """Path-F1 of each candidate against the record's best-matching gold chain."""
    gold = [(t.head, t.relation, t.tail) for t in r.gold_triples]
    return np.array([path_f1_best_chain([(e.head, e.relation, e.tail) for e in p.edges], gold, r.gold_chains) for p in paths])


def oof_rows(
    kg: Any,
    tune: Sequence[PathRecord],
    question_vecs: Sequence[np.ndarray],
    predictor: EmbeddingEdgePredictor,
    node_vector: Callable[[str], np.ndarray | None],
    budget: WalkBudget,
    *,
    folds: int = FOLDS,
    progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda it: it,
    workers: int = 1,
) -> list[Walked]:
    """Walk every tune question with gold-derived state fitted on the other folds; one :class:`Walked` each.

    ``predictor`` supplies the relation vocabulary, vectors, ``beta`` and temperature; its priors are refitted per fold.
    The walks keep ``budget``'s node and depth limits but not its wall-clock limit: a walk stopped by the clock on a
    busy machine would change what the ranker learns, and two builds must give the same trees. (On an idle machine
    no training walk of the real graph reaches the limit, so the walks are those of ``ask``.) With ``workers`` > 1
    a fold's questions are walked in that many forked processes (:func:`_walk_fold`): the same rows, sooner.
    """
    type_of = types_of(kg)
    walker = GraphWalker(kg, replace(budget, wall_ms=math.inf))
    ppr = PersonalizedPageRank(kg)
    vec = dict(zip((r.id for r in tune), question_vecs, strict=True))
    out: list[Walked] = []
    for k in progress(range(folds)):
        fit = [r for r in tune if fold_of(r, folds) != k]
        held = [r for r in tune if fold_of(r, folds) == k]
        priors = RelationPriors.fit([(type_of(t.head), t.relation, type_of(t.tail)) for r in fit for t in r.gold_triples],
                                    kg.relations)
        fold_predictor = EmbeddingEdgePredictor(predictor.relations, predictor.relation_vectors, priors, predictor.embed,
                                                beta=predictor.beta, temperature=predictor.temperature)
        ranker = PathRanker(kg, TransitionTables.fit(typed_chains(type_of, fit)), priors.get, node_vector, ppr=ppr,
                            curation=CurationStats.fit(curated_chains(fit)))
        out += _walk_fold(_FoldWalk(walker, fold_predictor, ranker, vec, held), workers)
    out.sort(key=lambda w: w.record.id)
    return out


PARALLEL_FROM = 64
"""Held-out questions of a fold from which :func:`_walk_fold` uses worker processes (fewer are walked here)."""


@dataclass
class _FoldWalk:
    """Walking one fold's held-out questions; a forked worker inherits it, so none of it is pickled."""

    walker: GraphWalker
    predictor: EmbeddingEdgePredictor
    ranker: PathRanker
    vec: dict[str, np.ndarray]
    held: list[PathRecord]

    def run(self, part: range) -> list[Walked]:
        """The rows of the held-out questions at the indices of ``part``."""
        out = []
        for r in (self.held[i] for i in part):
            qv = self.vec[r.id]
            paths = self.walker.walk([r.drug_id], [r.disease_id], self.predictor.conf_fn(qv)).paths
            if paths:
                out.append(Walked(r, qv, paths, self.ranker.features(paths, qv), label_paths(paths, r)))
        return out


def _walk_fold(job: _FoldWalk, workers: int) -> list[Walked]:
    """``job``'s rows, in ``workers`` processes forked with it when the fold is large enough and this system forks.

    Each question's walk and features depend on the question and the fold alone (no clock, no shared state that
    changes what is computed), so the rows are those of one process (a test compares them); only the rows travel
    back, and a part a worker cannot give back is walked here (``core.forking``). The walks are Python and hold one
    core each: with two workers (and the embedder's side-by-side batches) the index build's models step went from
    194–202 s to 154 s on this 2-core machine (the clean-clone `.ci/run`, README), with byte-identical models; what
    is not halved is the rows' way back (about 50 MB per 300 questions) and the parent's reading of them."""
    n = len(job.held)
    if workers < 2 or n < PARALLEL_FROM:
        return job.run(range(n))
    step = max(1, -(-n // (workers * 4)))  # a few parts per worker, so one slow part does not hold the rest back
    parts = [range(i, min(i + step, n)) for i in range(0, n, step)]
    return [w for rows in map_in_forks(job.run, parts, workers) for w in rows]


def fold_rankers(walked: Sequence[Walked], *, folds: int = FOLDS) -> list[LambdaRanker]:
    """Per fold ``k``, the path ranker trained on the walked questions of every other fold."""
    return [fit_lambdarank([(w.x, w.y) for w in walked if fold_of(w.record, folds) != k], ALL_FEATURES) for k in range(folds)]


def oof_scores(walked: Sequence[Walked], *, folds: int = FOLDS, rankers: Sequence[LambdaRanker] | None = None
               ) -> dict[str, np.ndarray]:
    """Each walked question's path scores by a ranker trained on the other folds only (by record id); ``rankers``:
    those of :func:`fold_rankers`, when they are already trained."""
    rankers = fold_rankers(walked, folds=folds) if rankers is None else rankers
    return {w.record.id: rankers[fold_of(w.record, folds)].score(w.x) for w in walked}


def vocabulary(kg: Any) -> Vocabulary:
    """The triple scorer's codes: the graph's relations and entity types, sorted."""
    return Vocabulary(sorted(kg.relations), sorted({e.type for e in kg.entities.values()}))


class TripleRows(NamedTuple):
    """One question's rows for the triple scorer."""

    x: np.ndarray
    """Rows of ``tools.triple_scorer.TRIPLE_FEATURES``."""
    y: np.ndarray
    """1 for a gold triple, else 0."""
    keys: list[tuple[str, str, str]]
    """The triple of each row."""


def drug_folds(tune: Sequence[PathRecord], folds: int = FOLDS) -> list[frozenset[str]]:
    """The drugs of each fold."""
    return [frozenset(r.drug_id for r in tune if r.drug_id and fold_of(r, folds) == k) for k in range(folds)]


def triple_groups(kg: Any, walked: Sequence[Walked], tune: Sequence[PathRecord], vocab: Vocabulary,
                  scores: dict[str, np.ndarray], *, folds: int = FOLDS, curation: CurationStats | None = None
                  ) -> list[TripleRows]:
    """Per walked question, the triple scorer's rows and labels (1 for a gold triple): the path scores are out of
    fold (``oof_scores``) and the curated counts leave the question's fold out, as answering leaves out each fold
    in turn (``TripleScorer.folds``), so no question sees its own gold. ``curation``: the chains of ``tune``, counted
    (counted here when not given)."""
    if curation is None:
        curation = CurationStats.fit(curated_chains(tune))
    groups = drug_folds(tune, folds)
    type_of = types_of(kg)
    out = []
    for w in walked:
        keys, (x,) = bagged_rows([[(e.head, e.relation, e.tail) for e in p.edges] for p in w.paths], scores[w.record.id],
                                 vocab, type_of, kg.degree, curation, groups=(groups[fold_of(w.record, folds)],))
        gold = {(t.head, t.relation, t.tail) for t in w.record.gold_triples}
        out.append(TripleRows(x, np.asarray([k in gold for k in keys], dtype=float), keys))
    return out


def fit_triple_scorer(kg: Any, walked: Sequence[Walked], tune: Sequence[PathRecord], curation: CurationStats, *,
                      folds: int = FOLDS) -> TripleScorer:
    """Train the triple scorer on every walked tune question; it answers over ``curation`` (the whole tune half),
    with the fold rankers that gave the training questions their path scores."""
    vocab = vocabulary(kg)
    rankers = fold_rankers(walked, folds=folds)
    groups = triple_groups(kg, walked, tune, vocab, oof_scores(walked, folds=folds, rankers=rankers), folds=folds,
                           curation=curation)
    return TripleScorer(fit_triple_model([(g.x, g.y) for g in groups], TRIPLE_FEATURES, CATEGORICAL), vocab, kg, curation,
                        drug_folds(tune, folds), rankers)
