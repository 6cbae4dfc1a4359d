"""Training the LambdaMART path ranker with the ``lightgbm`` package (answering scores it without the package:
``tools.booster``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import lightgbm as lgb
import numpy as np

from tools.ranker_models import LambdaRanker, graded_labels

__all__ = ["KEEP_PER_QUESTION", "LTR_PARAMS", "LTR_ROUNDS", "TRIPLE_PARAMS", "TRIPLE_ROUNDS", "fit_lambdarank", "fit_triple_model"]

LTR_PARAMS: dict[str, Any] = {
    "objective": "lambdarank",
    "learning_rate": 0.05,
    "num_leaves": 31,
    "min_data_in_leaf": 20,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambdarank_truncation_level": 10,
    "label_gain": [0, 1, 3, 7, 15],
    "seed": 13,
    "num_threads": 2,
    "deterministic": True,
    "force_row_wise": True,
    "verbose": -1,
}
"""LightGBM settings: seeded, fixed threads and row-wise histograms, so two builds give the same trees."""
LTR_ROUNDS = 300
"""Boosting rounds."""
TRIPLE_PARAMS: dict[str, Any] = {
    "objective": "binary",
    "learning_rate": 0.05,
    "num_leaves": 31,
    "min_data_in_leaf": 50,
    "feature_fraction": 0.9,
    "seed": 13,
    "num_threads": 2,
    "deterministic": True,
    "force_row_wise": True,
    "verbose": -1,
}
"""The triple scorer's settings (``tools.triple_scorer``): seeded and deterministic like the ranker's."""
TRIPLE_ROUNDS = 200
"""Boosting rounds of the triple scorer."""
KEEP_PER_QUESTION = 100
"""Training candidates per question: every one with Path-F1 ≥ 0.5, then a seeded sample of the rest."""


def _keep(y: np.ndarray, rng: np.random.Generator, keep: int) -> np.ndarray:
    good = np.flatnonzero(y >= 0.5)
    rest = np.setdiff1d(np.arange(len(y)), good)
    extra = rng.choice(rest, size=min(len(rest), max(0, keep - len(good))), replace=False)
    return np.sort(np.concatenate([good, extra])).astype(int)


def fit_lambdarank(groups: Sequence[tuple[np.ndarray, np.ndarray]], names: Sequence[str], *, rounds: int = LTR_ROUNDS,
                   keep: int = KEEP_PER_QUESTION, params: dict[str, Any] | None = None) -> LambdaRanker:
    """LambdaMART over per-question groups of (feature rows, Path-F1 of each row); deterministic.

    Args:
        groups: per question, (feature rows, Path-F1 in [0, 1]); groups with one row or no spread teach nothing.
        names: the column names.
        rounds: boosting rounds.
        keep: candidates kept per question (all with Path-F1 ≥ 0.5, then a seeded sample).
        params: overrides of ``LTR_PARAMS``.
    """
    rng = np.random.default_rng(0)
    xs, ys, sizes = [], [], []
    for x, y in groups:
        if len(x) < 2 or y.max() <= y.min():
            continue
        idx = _keep(y, rng, keep)
        xs.append(x[idx])
        ys.append(graded_labels(y[idx]))
        sizes.append(len(idx))
    if not xs:
        raise ValueError("no question has candidates of different quality to learn from")
    p = {**LTR_PARAMS, **(params or {})}
    data = lgb.Dataset(np.vstack(xs), np.concatenate(ys), group=sizes, feature_name=[n.replace(" ", "_") for n in names],
                       free_raw_data=True)
    booster = lgb.train(p, data, num_boost_round=rounds)
    return LambdaRanker(booster.model_to_string(), list(names))


def fit_triple_model(groups: Sequence[tuple[np.ndarray, np.ndarray]], names: Sequence[str], categorical: Sequence[int], *,
                     rounds: int = TRIPLE_ROUNDS, params: dict[str, Any] | None = None) -> str:
    """A LightGBM binary model over per-question (triple rows, 1 for a gold triple else 0); its text form.

    Args:
        groups: per question, the rows of ``tools.triple_scorer.triple_rows`` and their labels.
        names: the column names.
        categorical: indices of the categorical columns.
        rounds: boosting rounds.
        params: overrides of ``TRIPLE_PARAMS``.
    """
    kept = [(x, y) for x, y in groups if len(x)]
    if not kept or not any(y.any() for _, y in kept):
        raise ValueError("no question has a gold triple among its candidates to learn from")
    data = lgb.Dataset(np.vstack([x for x, _ in kept]), np.concatenate([y for _, y in kept]),
                       feature_name=[n.replace(" ", "_") for n in names], categorical_feature=list(categorical),
                       free_raw_data=True)
    return str(lgb.train({**TRIPLE_PARAMS, **(params or {})}, data, num_boost_round=rounds).model_to_string())
