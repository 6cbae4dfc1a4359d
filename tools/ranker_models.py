"""Ranking models over path feature rows: LambdaMART (LightGBM ``lambdarank``, shipped; trained by
``tools.ranker_fit``, scored through ``tools.booster``) and a listwise MLP (the previous ranker, kept for the
cross-validated comparison in ``bench/bench_ranker_cv.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from core.errors import StoreError
from tools.booster import Booster

__all__ = ["LambdaRanker", "RankerModel", "ScoreModel", "fit_listwise", "fit_listwise_mlp", "graded_labels", "load_model"]

GRADES = 4
"""Relevance grades above 0: a candidate's Path-F1 against the best gold chain, rounded to quarters."""
class ScoreModel(Protocol):
    """Anything that scores feature rows (higher is better)."""

    def score(self, x: np.ndarray) -> np.ndarray:
        """Scores of feature rows."""
        ...

    def to_json(self) -> dict[str, object]:
        """Serialisable form."""
        ...


def graded_labels(f1: np.ndarray, grades: int = GRADES) -> np.ndarray:
    """Integer relevance 0..grades from Path-F1 in [0, 1] (``round(f1 · grades)``)."""
    return np.rint(np.clip(np.asarray(f1, dtype=float), 0.0, 1.0) * grades).astype(int)


@dataclass
class LambdaRanker:
    """A LightGBM booster trained with ``lambdarank``; ``names`` are its columns, in order."""

    model: str
    """The booster as LightGBM's text format."""
    names: list[str]
    """Feature columns the booster expects."""

    def __post_init__(self) -> None:
        """Load the booster once (LightGBM's C library, without the Python package: ``tools.booster``)."""
        self._booster = Booster(self.model)

    def score(self, x: np.ndarray) -> np.ndarray:
        """Scores of feature rows."""
        if len(x) == 0:
            return np.zeros(0)
        return np.asarray(self._booster.predict(x), dtype=float)

    def to_json(self) -> dict[str, object]:
        """Serialisable form."""
        return {"kind": "lambdarank", "model": self.model, "names": self.names}


def load_model(obj: dict[str, Any], names: Sequence[str]) -> ScoreModel:
    """The saved ranker: LambdaMART, or the older listwise model; a model LightGBM refuses is a StoreError."""
    if obj.get("kind") == "lambdarank":
        try:
            return LambdaRanker(str(obj["model"]), list(obj["names"]))
        except ValueError as exc:
            raise StoreError(f"the saved path ranker is unreadable ({exc}); run `medpath index build --force`") from exc
    fields = {k: obj[k] for k in ("weights", "mean", "std", "members") if k in obj}
    return RankerModel(**fields) if fields else RankerModel.identity(names)


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
        """Scores of feature rows (a model of the 33 shape columns reads the first 33 of a wider row)."""
        z = (x[:, : len(self._mean)] - self._mean) / self._std
        if not self._members:
            return z @ self._weights  # type: ignore[no-any-return]
        out = np.zeros(len(z))
        for w1, b1, w2, wl in self._members:
            out += np.tanh(z @ w1 + b1) @ w2 + z @ wl
        return out

    def to_json(self) -> dict[str, object]:
        """Serialisable form."""
        return {"kind": "listwise", "weights": self.weights, "mean": self.mean, "std": self.std, "members": self.members}

    @classmethod
    def identity(cls, names: Sequence[str] = ("hops", "mean_log_conf")) -> RankerModel:
        """An untrained model over the columns ``names``: prefer short, confident paths."""
        w = [0.0] * len(names)
        if "hops" in names:
            w[list(names).index("hops")] = -1.0
        if "mean_log_conf" in names:
            w[list(names).index("mean_log_conf")] = 0.5
        return cls(w, [0.0] * len(names), [1.0] * len(names))




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
        return RankerModel.identity([f"x{i}" for i in range(groups[0][0].shape[1])] if groups else ())
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
        return RankerModel.identity([f"x{i}" for i in range(groups[0][0].shape[1])] if groups else ())
    groups = _cap_rows(groups, max_rows)
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
    members = [_fit_member(z, target, (starts, gid, len(groups)), seed, hidden, epochs, lr, l2) for seed in seeds]
    return RankerModel([0.0] * z.shape[1], mean.tolist(), std.tolist(), members)


def _cap_rows(groups: Sequence[tuple[np.ndarray, np.ndarray]], max_rows: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """At most ``max_rows`` candidates per question: every one with relevance ≥ 0.5, then a seeded sample."""
    pick = np.random.default_rng(0)
    capped = []
    for x, y in groups:
        if len(x) > max_rows:
            good = np.flatnonzero(y >= 0.5)
            rest = np.setdiff1d(np.arange(len(y)), good)
            keep = np.concatenate([good, pick.choice(rest, size=max(0, max_rows - len(good)), replace=False)])
            x, y = x[keep], y[keep]
        capped.append((x, y))
    return capped


def _fit_member(z: np.ndarray, target: np.ndarray, layout: tuple[np.ndarray, np.ndarray, int], seed: int, hidden: int,
                epochs: int, lr: float, l2: float) -> dict[str, Any]:
    """One ensemble member: full-batch Adam on the ListNet loss; ``layout`` is (group starts, group of each row,
    number of groups)."""
    starts, gid, n_groups = layout
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
        ds = ((prob - target) / n_groups).astype(np.float32)
        dh = np.outer(ds, w2) * (1 - h * h)
        grads = [z.T @ dh, dh.sum(0), h.T @ ds, z.T @ ds]
        for i, p in enumerate(params):
            g = grads[i] + l2 * p
            m1[i] = 0.9 * m1[i] + 0.1 * g
            m2[i] = 0.999 * m2[i] + 0.001 * g * g
            p -= lr * (m1[i] / (1 - 0.9**it)) / (np.sqrt(m2[i] / (1 - 0.999**it)) + 1e-8)
    return {"W1": params[0].round(6).tolist(), "b1": params[1].round(6).tolist(),
            "w2": params[2].round(6).tolist(), "wl": params[3].round(6).tolist()}


