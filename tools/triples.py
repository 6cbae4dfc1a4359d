"""Triples ordered by the evidence of the ranked paths that contain them (the order of an index without a triple
scorer, ``tools.triple_scorer``, and the baseline that scorer is measured against)."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["TRIPLES_OUT", "TRIPLE_POOL", "TRIPLE_TEMPERATURE", "masses", "rank_by_mass"]

TRIPLES_OUT = 50
"""Triples a question hands out (``State.retrieved``)."""
TRIPLE_POOL = 50
"""Best-ranked paths whose triples are pooled."""
TRIPLE_TEMPERATURE = 0.5
"""Softmax temperature over the ranker's path scores (chosen among 0.25, 0.5, 1 and 2 in 5-fold CV on tune)."""

Key = tuple[str, str, str]


def rank_by_mass(paths: Sequence[Sequence[Key]], scores: Sequence[float], temperature: float = TRIPLE_TEMPERATURE,
                 pool: int = TRIPLE_POOL) -> list[Key]:
    """Triples by the summed softmax weight of the ``pool`` best paths that contain them (ties: first seen)."""
    return [k for k, _ in masses(paths, scores, temperature, pool)]


def masses(paths: Sequence[Sequence[Key]], scores: Sequence[float], temperature: float = TRIPLE_TEMPERATURE,
           pool: int = TRIPLE_POOL) -> list[tuple[Key, float]]:
    """``(triple, mass)`` best first; see :func:`rank_by_mass`."""
    if not paths:
        return []
    order = sorted(range(len(paths)), key=lambda i: -scores[i])[:pool]
    top = scores[order[0]]
    mass: dict[Key, float] = {}
    for i in order:
        w = math.exp((scores[i] - top) / temperature)
        for key in paths[i]:
            mass[key] = mass.get(key, 0.0) + w
    return sorted(mass.items(), key=lambda kv: -kv[1])
