"""Personalized PageRank over the KG (undirected), by power iteration on edge arrays."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from memory.protocols import GraphStore

__all__ = ["PersonalizedPageRank"]


class PersonalizedPageRank:
    """``r = (1 − α)·p + α·Pᵀr`` with ``p`` uniform on the seeds; a few ms per query on DrugMechDB."""

    def __init__(self, graph: GraphStore, alpha: float = 0.5, iters: int = 30) -> None:
        """Index a graph store's edges, both directions."""
        self.alpha, self.iters = alpha, iters
        self.nodes = graph.entity_ids()
        self.pos = {n: i for i, n in enumerate(self.nodes)}
        pairs = [(self.pos[e.head], self.pos[e.tail]) for e in graph.edges()]
        self.src = np.array([u for u, _ in pairs] + [v for _, v in pairs], dtype=np.int64)
        self.dst = np.array([v for _, v in pairs] + [u for u, _ in pairs], dtype=np.int64)
        deg = np.bincount(self.src, minlength=len(self.nodes)).astype(float)
        self.w = 1.0 / np.maximum(deg[self.src], 1.0)

    def rank(self, seeds: Iterable[str]) -> np.ndarray:
        """The PageRank vector (sums to 1; all zeros when no seed is in the graph)."""
        n = len(self.nodes)
        idx = sorted({self.pos[s] for s in seeds if s in self.pos})
        p = np.zeros(n)
        if not idx:
            return p
        p[idx] = 1.0 / len(idx)
        r = p.copy()
        for _ in range(self.iters):
            r = (1 - self.alpha) * p + self.alpha * np.bincount(self.dst, weights=r[self.src] * self.w, minlength=n)
        return r

    def mass(self, r: np.ndarray, node: str) -> float:
        """The vector's value at a node (0 for unknown nodes)."""
        i = self.pos.get(node)
        return float(r[i]) if i is not None else 0.0
