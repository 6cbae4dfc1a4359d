"""Personalized PageRank over the KG (undirected): whole-graph power iteration, and two local forms.

``PersonalizedPageRank`` holds the whole graph as edge arrays: ``rank`` iterates over all of it (the ``ppr``
baseline, and training). ``LocalPageRank`` reads only the nodes it needs, in batches, from any ``GraphStore`` (one
round trip per step on PostgreSQL), so that an answer's cost follows its walk and not the graph:
``rank_within`` iterates over the path ranker's candidate nodes (the same numbers as the array form, to the bit),
and ``top`` is push-based approximate PageRank from the seeds (Andersen, Chung and Lang 2006): a node is pushed only
while its residual exceeds ``eps`` times its degree, so hubs are rarely expanded ("which drug treats Y"). ``top``
can also walk one way only: upstream, from a node to the heads of its in-edges ("which drug treats Y"), or
downstream, to the tails of its out-edges ("what does X treat").
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

import numpy as np

from memory.protocols import GraphStore

__all__ = ["NEIGHBOUR_CACHE", "LocalPageRank", "PersonalizedPageRank"]

NEIGHBOUR_CACHE = 50_000
"""Nodes whose neighbour lists a ``LocalPageRank`` keeps (hubs recur across questions)."""


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
        order = np.argsort(self.src, kind="stable")  # neighbours by node (CSR), for rank_within
        self._nbr = self.dst[order]
        self._nbr_w = self.w[order]
        self._ptr = np.concatenate([[0], np.cumsum(np.bincount(self.src, minlength=len(self.nodes)))])

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

    def rank_within(self, seeds: Iterable[str], nodes: Iterable[str]) -> dict[str, float]:
        """PageRank from ``seeds`` counting only walks that stay among ``nodes`` (seeds included): the same update
        as :meth:`rank` with each node's whole-graph degree, on the edges between those nodes. Its cost follows how
        many nodes and edges they have, not the graph's size. Returns mass by node id (unknown ids left out)."""
        keep = sorted({self.pos[x] for x in [*seeds, *nodes] if x in self.pos})
        idx = sorted({self.pos[s] for s in seeds if s in self.pos})
        if not idx:
            return {}
        sub = np.asarray(keep, dtype=np.int64)
        counts = self._ptr[sub + 1] - self._ptr[sub]
        starts = np.repeat(self._ptr[sub] - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
        at = starts + np.arange(int(counts.sum()))
        src_local = np.repeat(np.arange(len(sub)), counts)
        inside = np.isin(self._nbr[at], sub)
        lut = np.full(len(self.nodes), -1, dtype=np.int64)
        lut[sub] = np.arange(len(sub))
        src, dst, w = src_local[inside], lut[self._nbr[at][inside]], self._nbr_w[at][inside]
        p = np.zeros(len(sub))
        p[lut[idx]] = 1.0 / len(idx)
        r = p.copy()
        for _ in range(self.iters):
            r = (1 - self.alpha) * p + self.alpha * np.bincount(dst, weights=r[src] * w, minlength=len(sub))
        return {self.nodes[g]: float(v) for g, v in zip(keep, r, strict=True)}


class LocalPageRank:
    """PageRank read from a graph store's batched neighbours (nothing of the graph held but what a query reads)."""

    def __init__(self, graph: GraphStore, alpha: float = 0.5, iters: int = 30, eps: float = 1e-5) -> None:
        """Bind the store; ``eps`` is the push threshold of :meth:`top` (residual per unit of degree)."""
        self.graph, self.alpha, self.iters, self.eps = graph, alpha, iters, eps
        self._pos: dict[str, int] | None = None
        self._nbrs: OrderedDict[str, tuple[list[str], list[str]]] = OrderedDict()  # recent nodes' (tails, heads)

    def _order(self) -> dict[str, int]:
        if self._pos is None:  # entity order: the array form's node order, so that sums run in the same order
            self._pos = {n: i for i, n in enumerate(self.graph.entity_ids())}
        return self._pos

    def _neighbours(self, nodes: list[str], direction: str = "both") -> dict[str, list[str]]:
        """Each node's neighbours both ways (out-edges' tails, then in-edges' heads, in the store's order), or one
        way: ``direction`` "in" (the in-edges' heads) or "out" (the out-edges' tails)."""
        cache = self._nbrs
        missing = [n for n in nodes if n not in cache]
        if missing:
            outs, ins = self.graph.neighbours(missing, "out"), self.graph.neighbours(missing, "in")
            for n in missing:
                cache[n] = ([e.tail for e in outs[n]], [e.head for e in ins[n]])
            while len(cache) > NEIGHBOUR_CACHE:
                cache.popitem(last=False)
        if direction in ("in", "out"):
            side = 1 if direction == "in" else 0
            return {n: cache[n][side] for n in nodes}
        return {n: cache[n][0] + cache[n][1] for n in nodes}

    def rank_within(self, seeds: Iterable[str], nodes: Iterable[str]) -> dict[str, float]:
        """As :meth:`PersonalizedPageRank.rank_within` (same update, same order of sums), from two batched reads."""
        pos = self._order()
        keep = sorted({x for x in [*seeds, *nodes] if x in pos}, key=pos.__getitem__)
        starts = sorted({s for s in seeds if s in pos}, key=pos.__getitem__)
        if not starts:
            return {}
        local = {x: i for i, x in enumerate(keep)}
        nbrs = self._neighbours(keep)
        src, dst, w = [], [], []
        for i, x in enumerate(keep):
            inv = 1.0 / max(float(self.graph.degree(x)), 1.0)
            for y in nbrs[x]:
                j = local.get(y)
                if j is not None:
                    src.append(i)
                    dst.append(j)
                    w.append(inv)
        s, d, wt = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64), np.asarray(w, dtype=float)
        p = np.zeros(len(keep))
        p[[local[x] for x in starts]] = 1.0 / len(starts)
        r = p.copy()
        for _ in range(self.iters):
            r = (1 - self.alpha) * p + self.alpha * np.bincount(d, weights=r[s] * wt, minlength=len(keep))
        return {x: float(v) for x, v in zip(keep, r, strict=True)}

    def top(self, seeds: Iterable[str], max_rounds: int = 50, *, alpha: float | None = None,
            eps: float | None = None, direction: str = "both") -> dict[str, float]:
        """Approximate PageRank mass from ``seeds`` by pushes, in rounds (every node above the threshold is pushed
        in a round, its neighbours read in one batch). Returns the nodes reached, by estimated mass. ``alpha`` and
        ``eps`` override this instance's for one query (the neighbour lists read stay shared).

        ``direction`` "in": a walk steps from a node to the head of one of its in-edges, chosen uniformly (upstream);
        "out": to the tail of one of its out-edges (downstream). A node without such an edge ends the walk there,
        and its mass is not passed on (the ranking is that of sending it back to the seeds, scaled). The push
        threshold still reads the whole degree."""
        if direction not in ("both", "in", "out"):
            raise ValueError(f"direction must be 'both', 'in' or 'out', not {direction!r}")
        one_way = direction != "both"
        alpha = self.alpha if alpha is None else alpha
        eps = self.eps if eps is None else eps
        starts = [s for s in dict.fromkeys(seeds) if self.graph.node(s) is not None]
        if not starts:
            return {}
        residual = {s: 1.0 / len(starts) for s in starts}
        estimate: dict[str, float] = {}
        degree: dict[str, int] = {}  # each reached node's degree, read once (the scan below runs every round)
        for _ in range(max_rounds):
            for u in residual.keys() - degree.keys():
                degree[u] = max(self.graph.degree(u), 1)
            ready = [u for u, r in residual.items() if r > eps * degree[u]]
            if not ready:
                break
            nbrs = self._neighbours(ready, direction)
            for u in ready:
                r = residual.pop(u)
                estimate[u] = estimate.get(u, 0.0) + (1 - alpha) * r
                share = alpha * r / (max(len(nbrs[u]), 1) if one_way else degree[u])
                for v in nbrs[u]:
                    residual[v] = residual.get(v, 0.0) + share
        return estimate
