"""How ``eval scale`` grows the real graph to a size: two seeded generators of synthetic triples.

- ``entities`` (the default): the graph grows by entities, as a knowledge graph does when it takes in more of the
  literature. Synthetic nodes are added at the real graph's nodes-per-triple rate, with the real graph's node types;
  each gets a degree weight drawn from the real degrees of its type. Each synthetic triple copies the (head type,
  relation, tail type) of a real triple drawn at random, so the schema's frequencies are the real ones, and picks its
  head and its tail among all nodes of those types in proportion to their weight (a real node's weight is its real
  degree). The real nodes are a shrinking share of every type, so the triples they gain stay about as many as they
  had (their degrees about double, at any size), while hubs, real or synthetic, gain the most. This is the case the
  scale-out issue's cost target is about: a bigger graph whose neighbourhoods are not denser.
- ``attach``: every synthetic triple touches a real node, with a uniformly random relation label (a tenth join two
  real nodes). The real neighbourhoods grow with the graph (about 200 triples per real node at 1M), so this one
  measures density, not size: a stress test of the walk's hubs.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from core.datasets import Node, Triple

__all__ = ["GROWTHS", "attach", "entities", "grow"]

GROWTHS = ("entities", "attach")


def grow(kind: str, real: list[Node], base: list[Triple], n_edges: int, seed: int) -> tuple[list[Node], list[Triple]]:
    """``n_edges`` seeded synthetic triples by the generator ``kind``, and the synthetic nodes they use."""
    if kind == "entities":
        return entities(real, base, n_edges, seed)
    if kind == "attach":
        return attach(real, sorted({t.relation for t in base}), n_edges, seed)
    raise ValueError(f"unknown growth {kind!r}: expected one of {', '.join(GROWTHS)}")


def attach(real: list[Node], relations: list[str], n_edges: int, seed: int) -> tuple[list[Node], list[Triple]]:
    """``n_edges`` seeded triples on real nodes, with random relation labels, and the synthetic nodes they use."""
    rng = random.Random(seed)
    types = [n.type for n in real]
    n_syn = max(100, n_edges // 8)
    syn = [Node(f"SYN:{i:07d}", f"synthetic entity {i}", rng.choice(types)) for i in range(n_syn)]
    ids = [n.id for n in real]
    out: list[Triple] = []
    seen: set[tuple[str, str, str]] = set()
    while len(out) < n_edges:
        a = rng.choice(ids)
        b = rng.choice(ids) if rng.random() < 0.1 else syn[rng.randrange(n_syn)].id
        h, t = (a, b) if rng.random() < 0.5 else (b, a)
        key = (h, rng.choice(relations), t)
        if h != t and key not in seen:
            seen.add(key)
            out.append(Triple(*key))
    return syn, out


class _Pools:
    """Per node type: every node's global index and the cumulative weights to draw them by (every type has real
    nodes, so no pool is empty)."""

    def __init__(self, type_of: np.ndarray, weight: np.ndarray, n_types: int) -> None:
        self.members = [np.flatnonzero(type_of == k) for k in range(n_types)]
        self.cum = [np.cumsum(weight[m], dtype=np.float64) for m in self.members]

    def draw(self, rng: np.random.Generator, types: np.ndarray) -> np.ndarray:
        """One node for each entry of ``types``, drawn within its type by weight."""
        out = np.empty(len(types), dtype=np.int64)
        for k, (members, cum) in enumerate(zip(self.members, self.cum, strict=True)):
            where = np.flatnonzero(types == k)
            if len(where):
                picks = np.searchsorted(cum, rng.random(len(where)) * cum[-1], side="right")
                out[where] = members[np.minimum(picks, len(members) - 1)]
        return out


def entities(real: list[Node], base: list[Triple], n_edges: int, seed: int) -> tuple[list[Node], list[Triple]]:
    """``n_edges`` seeded triples among new entities and the real ones (see the module's docstring)."""
    if n_edges <= 0 or not base:
        return [], []
    rng = np.random.default_rng(seed)
    degree = Counter(x for t in base for x in (t.head, t.tail))
    real = [n for n in real if degree[n.id]]
    type_names = sorted({n.type for n in real})
    tix = {name: k for k, name in enumerate(type_names)}
    real_type = np.array([tix[n.type] for n in real], dtype=np.int64)
    real_deg = np.array([degree[n.id] for n in real], dtype=np.float64)
    n_syn = max(1, round(n_edges * len(real) / len(base)))
    syn_type = real_type[rng.integers(0, len(real), n_syn)]  # the real type frequencies
    syn_deg = np.empty(n_syn, dtype=np.float64)
    for k in range(len(type_names)):  # a degree from the real degrees of the same type
        where = np.flatnonzero(syn_type == k)
        pool = real_deg[real_type == k]
        syn_deg[where] = pool[rng.integers(0, len(pool), len(where))]
    pools = _Pools(np.concatenate([real_type, syn_type]), np.concatenate([real_deg, syn_deg]), len(type_names))
    index = {n.id: i for i, n in enumerate(real)}
    known = [t for t in base if t.head in index and t.tail in index]
    relations = sorted({t.relation for t in known})
    rix = {r: k for k, r in enumerate(relations)}
    schema = np.array([(real_type[index[t.head]], rix[t.relation], real_type[index[t.tail]]) for t in known], dtype=np.int64)
    n_all = len(real) + n_syn
    taken = {(index[t.head] * len(relations) + rix[t.relation]) * n_all + index[t.tail] for t in known}
    heads, rels, tails = _draw_triples(rng, pools, schema, n_edges, n_all, len(relations), taken)
    ids = [n.id for n in real] + [f"SYN:{i:08d}" for i in range(n_syn)]
    syn = [Node(ids[len(real) + i], f"synthetic entity {i}", type_names[k]) for i, k in enumerate(syn_type.tolist())]
    triples = [Triple(ids[h], relations[r], ids[t]) for h, r, t in zip(heads.tolist(), rels.tolist(), tails.tolist(), strict=True)]
    return syn, triples


def _draw_triples(rng: np.random.Generator, pools: _Pools, schema: np.ndarray, n_edges: int, n_all: int,
                  n_rel: int, taken: set[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Draw until ``n_edges`` distinct new triples: no self-loops, no repeats, none of the real ones."""
    got = 0
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    seen = np.array(sorted(taken), dtype=np.int64)
    while got < n_edges:
        want = int((n_edges - got) * 1.05) + 16
        rows = schema[rng.integers(0, len(schema), want)]
        h, t = pools.draw(rng, rows[:, 0]), pools.draw(rng, rows[:, 2])
        key = (h * n_rel + rows[:, 1]) * n_all + t
        ok = (h != t) & ~np.isin(key, seen)
        _, first = np.unique(key[ok], return_index=True)
        first.sort()  # keep the draw order
        fresh = np.flatnonzero(ok)[first]
        parts.append((h[fresh], rows[fresh, 1], t[fresh]))
        got += len(fresh)
        seen = np.union1d(seen, key[fresh])
    heads, rels, tails = (np.concatenate([p[i] for p in parts])[:n_edges] for i in range(3))
    return heads, rels, tails
