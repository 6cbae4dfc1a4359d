"""Evaluation metrics as pure functions of predictions and gold data."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

__all__ = ["TripleKey", "f1", "hit_at_k", "mean", "path_f1_best_chain", "percentile", "recall_at_1", "recall_at_k"]

TripleKey = tuple[str, str, str]


def f1(pred: Iterable[TripleKey], gold: Iterable[TripleKey]) -> float:
    """Set F1 between predicted and gold triples (0 when either is empty)."""
    p, g = set(pred), set(gold)
    if not p or not g:
        return 0.0
    tp = len(p & g)
    if tp == 0:
        return 0.0
    prec, rec = tp / len(p), tp / len(g)
    return 2 * prec * rec / (prec + rec)


def path_f1_best_chain(pred: Sequence[TripleKey], gold_triples: Sequence[TripleKey], chains: Sequence[Sequence[int]]) -> float:
    """F1 against the best-matching gold chain (max over chains)."""
    if not chains:
        chains = [list(range(len(gold_triples)))]
    return max((f1(pred, [gold_triples[i] for i in c]) for c in chains), default=0.0)


def recall_at_k(ranked: Sequence[TripleKey], gold: Iterable[TripleKey], k: int = 5) -> float:
    """|top-k ∩ gold| / min(k, |gold|); 0 when gold is empty."""
    g = set(gold)
    if not g:
        return 0.0
    top = list(dict.fromkeys(ranked))[:k]
    return len(set(top) & g) / min(k, len(g))


def hit_at_k(ranked: Sequence[TripleKey], gold: Iterable[TripleKey], k: int = 5) -> float:
    """1.0 when any of the top-k is gold."""
    g = set(gold)
    return 1.0 if set(list(dict.fromkeys(ranked))[:k]) & g else 0.0


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0–100), 0.0 for no values."""
    return float(np.percentile(np.asarray(values, dtype=float), q)) if len(values) else 0.0


def recall_at_1(predicted: Sequence[str | None], expected: Sequence[str | None]) -> float:
    """Share of probes whose top-1 answer equals the expected object (0.0 when there are none)."""
    if len(predicted) != len(expected):
        raise ValueError("predicted and expected must have the same length")
    if not expected:
        return 0.0
    return sum(1 for p, e in zip(predicted, expected, strict=True) if p is not None and p == e) / len(expected)


def label_accuracy(gold: Sequence[str], predicted: Sequence[str]) -> tuple[float, dict[str, float]]:
    """Overall accuracy and accuracy per gold label (e.g. the classifier's route per fixture query)."""
    if len(gold) != len(predicted):
        raise ValueError("gold and predicted must have the same length")
    per: dict[str, list[int]] = {}
    for g, p in zip(gold, predicted, strict=True):
        hits = per.setdefault(g, [0, 0])
        hits[0] += g == p
        hits[1] += 1
    overall = sum(h for h, _ in per.values()) / len(gold) if gold else 0.0
    return overall, {label: h / n for label, (h, n) in per.items()}


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean, 0.0 for no values."""
    return float(sum(values) / len(values)) if len(values) else 0.0
