"""Temperature calibration: ``conf = σ(logit(p)/T)`` with T fitted by binary cross-entropy."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["bce", "calibrate", "fit_temperature", "logit"]

_EPS = 1e-6


def logit(p: float | np.ndarray) -> float | np.ndarray:
    """log(p / (1 - p)) with p clipped away from 0 and 1."""
    q = np.clip(p, _EPS, 1 - _EPS)
    return np.log(q / (1 - q))  # type: ignore[no-any-return]


def calibrate(p: float | np.ndarray, temperature: float) -> float | np.ndarray:
    """σ(logit(p) / T)."""
    z = logit(p) / temperature
    return 1.0 / (1.0 + np.exp(-z))  # type: ignore[no-any-return]


def bce(probs: Sequence[float] | np.ndarray, labels: Sequence[int] | np.ndarray) -> float:
    """Mean binary cross-entropy."""
    p = np.clip(np.asarray(probs, dtype=float), _EPS, 1 - _EPS)
    y = np.asarray(labels, dtype=float)
    if p.size == 0:
        return 0.0
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_temperature(
    probs: Sequence[float] | np.ndarray, labels: Sequence[int] | np.ndarray, lo: float = 0.05, hi: float = 20.0
) -> float:
    """T in [lo, hi] that minimises BCE of the calibrated probabilities (golden-section on log T)."""
    p = np.asarray(probs, dtype=float)
    y = np.asarray(labels, dtype=float)
    if p.size == 0 or y.min() == y.max():
        return 1.0

    def loss(log_t: float) -> float:
        return bce(calibrate(p, math.exp(log_t)), y)

    a, b = math.log(lo), math.log(hi)
    g = (math.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    for _ in range(80):
        if loss(c) < loss(d):
            b = d
        else:
            a = c
        c, d = b - g * (b - a), a + g * (b - a)
    return float(math.exp((a + b) / 2))
