"""Entropy GraphWalker (design §5.2): a bidirectional best-first walk under depth, node and time budgets."""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from operator import itemgetter
from typing import TYPE_CHECKING

from core.settings import WalkBudget
from memory.protocols import Edge, GraphStore

if TYPE_CHECKING:
    import numpy as np

__all__ = ["SHORTEST_CHAIN", "CandidatePath", "GraphWalker", "StopReason", "WalkResult", "hops_between", "hops_to_each", "search_chains",
           "shortest_chains"]

ConfFn = Callable[[str, str], dict[str, float]]
SHORTEST_CHAIN = "shortest_chain"
"""The feature that marks a candidate :func:`shortest_chains` found, not the walk (set once it is ranked)."""
"""``(node_type, direction) -> {relation: calibrated confidence}``."""


class StopReason(StrEnum):
    """Why the walk stopped."""

    FRONTIER_EMPTY = "frontier_empty"
    NODE_BUDGET = "node_budget"
    TIME_BUDGET = "time_budget"
    NO_SEEDS = "no_seeds"


@dataclass
class CandidatePath:
    """A path found by the walk, as triples in order, with per-edge confidences."""

    edges: tuple[Edge, ...]
    confs: tuple[float, ...]
    score: float = 0.0
    features: dict[str, float] = field(default_factory=dict)
    row: np.ndarray | None = field(default=None, repr=False, compare=False)
    """The path ranker's whole feature row (``tools.path_ranker.ALL_FEATURES``), kept so that the triple scorer can
    score the path again with the rankers that each left one training fold out."""

    @property
    def hops(self) -> int:
        """Number of edges."""
        return len(self.edges)

    _nodes: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def nodes(self) -> list[str]:
        """Node ids from start to end (worked out once: the ranker's columns read them about ten times a path)."""
        if self._nodes is None:
            self._nodes = (self.edges[0].head, *(e.tail for e in self.edges)) if self.edges else ()
        return list(self._nodes)


@dataclass
class WalkResult:
    """Candidate paths and what the walk spent."""

    paths: list[CandidatePath]
    expanded: int
    depth_reached: int
    elapsed_ms: float
    stop: StopReason
    meetings: int = 0
    edges_seen: int = 0
    chain_hops: int | None = None
    """The fewest steps of any chain between a question's two ends, when ``chain_searched`` (None: there is none;
    -1: not known within the search's entity cap)."""
    chain_searched: bool = False
    """True when the shortest-chain search ran for this walk (the walk joined nothing), so its count is known."""

    @property
    def starved(self) -> bool:
        """True when the walk ran out of frontier, or found nothing."""
        return not self.paths


PREFETCH = 64
"""Queue entries whose edges are read together with the node being expanded (one round trip on a remote store)."""


class GraphWalker:
    """Best-first walk from drug-side seeds (out-edges) and disease-side seeds (in-edges).

    The queue pops the smallest ``priority = depth + (1 - conf)``: level by level, the likeliest edge first within a
    level. (Design §5.2 had ``(1 - conf) / (depth + 1)``, which goes deep first; when the node budget binds, as on a
    grown graph, that spent it on the second level of the first few nodes and lost short paths.) Each side may
    expand up to half of ``max_nodes`` while the other still has nodes queued, so a side whose neighbourhood
    explodes cannot spend the other's half. Frontiers that meet join into full paths; with one side only, paths end
    at nodes of the goal types. The expansions are logged and their edges recorded after the walk (``_replay``),
    which drops the last level's edges that can be on no path.
    """

    def __init__(self, kg: GraphStore, budget: WalkBudget, max_paths: int = 400) -> None:
        """Bind the graph and the budgets."""
        self.kg = kg
        self.budget = budget
        self.max_paths = max_paths

    def walk(
        self,
        sources: Collection[str],
        targets: Collection[str],
        conf: ConfFn,
        goal_types: Collection[str] = (),
    ) -> WalkResult:
        """Walk from ``sources`` forward and ``targets`` backward, then enumerate candidate paths."""
        t0 = time.perf_counter()
        deadline = t0 + self.budget.wall_ms / 1000.0
        sources = [s for s in dict.fromkeys(sources) if self.kg.node(s)]
        targets = [t for t in dict.fromkeys(targets) if self.kg.node(t)]
        if not sources and not targets:
            return WalkResult([], 0, 0, 0.0, StopReason.NO_SEEDS)
        depth = {"out": {s: 0 for s in sources}, "in": {t: 0 for t in targets}}
        log: list[_Expansion] = []  # every expansion in order: what ``_replay`` records once the walk is over
        heap = [(0.0, i, side, s, 0) for i, (side, s) in enumerate([*(("out", s) for s in sources), *(("in", t) for t in targets)])]
        tick = len(heap)
        queued = {"out": len(sources), "in": len(targets)}  # entries in the queue, per side
        done = {"out": 0, "in": 0}  # nodes expanded per side
        waiting: list[tuple[float, int, str, str, int]] = []  # set aside: their side has had half the budget (one
        # side at most: both past half is past the budget)
        depth_reached, stop = 0, StopReason.FRONTIER_EMPTY
        fetched: dict[tuple[str, str], Sequence[Edge]] = {}
        by_type: dict[tuple[str, str], dict[str, float]] = {}  # the predictor's scores depend on the type only
        while heap or waiting:
            if waiting and not queued["in" if waiting[0][2] == "out" else "out"]:
                for x in waiting:  # the other side has nothing left: the rest of the budget is this side's
                    heapq.heappush(heap, x)
                queued[waiting[0][2]] += len(waiting)
                waiting = []
            if time.perf_counter() > deadline:
                stop = StopReason.TIME_BUDGET
                break
            if done["out"] + done["in"] >= self.budget.max_nodes:
                stop = StopReason.NODE_BUDGET
                break
            entry = heapq.heappop(heap)  # queued once per side: ``mine`` guards the pushes
            _, _, side, node, d = entry
            queued[side] -= 1
            if 2 * done[side] >= self.budget.max_nodes and queued["in" if side == "out" else "out"]:
                waiting.append(entry)  # a side whose neighbourhood explodes does not spend the other's half
                continue
            done[side] += 1
            depth_reached = max(depth_reached, d + 1)
            ent = self.kg.node(node)
            kind = (ent.type if ent else "Unknown", side)
            if kind not in by_type:
                by_type[kind] = conf(*kind)
            confs = by_type[kind]
            last = d + 1 >= self.budget.max_depth  # what this node reaches is never expanded: not queued
            log.append((side, self._edges(side, node, heap, fetched, confs), confs, last))
            pushed = 0 if last else _queue(log[-1][1], confs, depth[side], side, d, heap, tick)
            tick, queued[side] = tick + pushed, queued[side] + pushed
        edge_conf, adjacency, meetings = _replay(log, depth, bool(sources and targets))
        paths = self._enumerate(sources, targets, edge_conf, adjacency, goal_types, deadline + 0.2)
        elapsed = (time.perf_counter() - t0) * 1000.0
        return WalkResult(paths, done["out"] + done["in"], depth_reached, elapsed, stop, meetings,
                          sum(len(x[1]) for x in log))

    def _edges(self, side: str, node: str, heap: list[tuple[float, int, str, str, int]],
               fetched: dict[tuple[str, str], Sequence[Edge]], confs: dict[str, float]) -> Sequence[Edge]:
        """The edges the walk follows from ``node``: read together with those of the queue's next nodes of the same
        side (the heap's top levels, near enough: one round trip on PostgreSQL), and for a hub only its likeliest
        ``max_edges_per_node`` by relation (stable: the stored order breaks ties)."""
        if (side, node) not in fetched:
            batch = [node, *[x for _, _, s2, x, d2 in heap[:PREFETCH]
                             if s2 == side and d2 < self.budget.max_depth and (side, x) not in fetched]]
            for x, es in self.kg.neighbours(batch, side).items():
                fetched[(side, x)] = es
        edges = fetched[(side, node)]
        cap = self.budget.max_edges_per_node
        if cap and len(edges) > cap:
            edges = sorted(edges, key=lambda e: -confs.get(e.relation, 1e-4))[:cap]
        return edges

    def _enumerate(
        self,
        sources: list[str],
        targets: list[str],
        edge_conf: dict[Edge, float],
        adjacency: tuple[dict[str, list[Edge]], dict[str, list[Edge]]],
        goal_types: Collection[str],
        deadline: float,
    ) -> list[CandidatePath]:
        """Simple paths over the explored edges (``adjacency``: by head and by tail), shortest first, capped at
        ``max_paths``."""
        out_adj, in_adj = adjacency
        max_hops = 2 * self.budget.max_depth
        if sources and targets:
            ends = set(targets)
            starts, adj, forward = sources, out_adj, True
        elif sources:
            ends = {n for e in edge_conf for n in (e.tail,) if self._type(n) in goal_types} - set(sources)
            starts, adj, forward = sources, out_adj, True
            max_hops = self.budget.max_depth
        else:
            ends = {n for e in edge_conf for n in (e.head,) if self._type(n) in goal_types} - set(targets)
            starts, adj, forward = targets, in_adj, False
            max_hops = self.budget.max_depth
        if not ends:
            return []
        # distance to the nearest end over explored edges, for pruning
        dist: dict[str, int] = {n: 0 for n in ends}
        layer = list(ends)
        back = in_adj if forward else out_adj
        while layer:
            nxt_layer = []
            for n in layer:
                for e in back.get(n, ()):
                    m = e.head if forward else e.tail
                    if m not in dist:
                        dist[m] = dist[n] + 1
                        nxt_layer.append(m)
            layer = nxt_layer
        found: list[CandidatePath] = []
        for limit in range(1, max_hops + 1):  # iterative deepening: shortest paths first
            for s in starts:
                stack: list[tuple[str, list[Edge], set[str]]] = [(s, [], {s})]
                while stack:
                    node, path, seen = stack.pop()
                    if len(found) >= self.max_paths or time.perf_counter() > deadline:
                        return found
                    for e in adj.get(node, ()):
                        m = e.tail if forward else e.head
                        if m in seen or dist.get(m, max_hops + 1) + len(path) + 1 > limit:
                            continue
                        new = [*path, e]
                        if m in ends and len(new) == limit:
                            edges = tuple(new) if forward else tuple(reversed(new))
                            found.append(CandidatePath(edges, tuple(edge_conf[x] for x in edges)))
                        elif len(new) < limit and m not in ends:
                            stack.append((m, new, seen | {m}))
        return found

    def _type(self, node: str) -> str:
        ent = self.kg.node(node)
        return ent.type if ent else "Unknown"


_Expansion = tuple[str, Sequence[Edge], dict[str, float], bool]
"""One expanded node: its side, the edges the walk followed from it, the relation scores, whether at the last level."""

_FAR = {"out": itemgetter(2), "in": itemgetter(0)}
"""The end of an edge away from the expanded node, by side."""


def _queue(edges: Sequence[Edge], confs: dict[str, float], mine: dict[str, int], side: str, d: int,
           heap: list[tuple[float, int, str, str, int]], tick: int) -> int:
    """Give the new far ends of one expanded node (not at the last level) their depth and queue them, likeliest
    edge first. Returns how many entries it queued."""
    far = 2 if side == "out" else 0
    pushed = 0
    for e in edges:
        nxt = e[far]
        if nxt not in mine:
            mine[nxt] = d + 1
            pushed += 1
            heapq.heappush(heap, (d + 2 - confs.get(e[1], 1e-4), tick + pushed, side, nxt, d + 1))
    return pushed


def _replay(log: list[_Expansion], depth: dict[str, dict[str, int]], two_sided: bool
            ) -> tuple[dict[Edge, float], tuple[dict[str, list[Edge]], dict[str, list[Edge]]], int]:
    """The explored edges' confidences and adjacency (by head, by tail, each in the order first seen), and the
    number of nodes both sides reached.

    Most edges of a walk on a big graph are read at the last level, and most of those end at a node that nothing
    else reaches: such an edge can be on no path (its far end is expanded by neither side and is no seed), so it is
    left out here, after the walk, when both sides' reach is known; the paths, their order and their confidences are
    those of recording every edge. The filter is a set lookup per edge; recording is kept for the few that remain.
    With one side only, every edge is kept (its ends are the nodes of the goal types it reaches)."""
    keep, meetings = _reach(log, depth) if two_sided else (None, 0)
    edge_conf: dict[Edge, float] = {}
    by_head: dict[str, list[Edge]] = {}
    by_tail: dict[str, list[Edge]] = {}
    for side, edges, confs, last in log:
        if last and keep is not None:
            k, f = keep[side], _FAR[side]
            edges = [e for e in edges if f(e) in k]
        for e in edges:
            c = confs.get(e[1], 1e-4)
            seen = edge_conf.get(e)
            if seen is None:
                by_head.setdefault(e[0], []).append(e)
                by_tail.setdefault(e[2], []).append(e)
                edge_conf[e] = c
            elif c > seen:
                edge_conf[e] = c
    return edge_conf, (by_head, by_tail), meetings


def _reach(log: list[_Expansion], depth: dict[str, dict[str, int]]) -> tuple[dict[str, set[str]], int]:
    """Per side, the far ends a last-level edge of that side must reach to be kept (what the other side reached,
    last level included, or what this side queued); and how many nodes both sides reached."""
    far_last: dict[str, set[str]] = {"out": set(), "in": set()}
    for side, edges, _, last in log:
        if last:
            far_last[side].update(map(_FAR[side], edges))
    reach = {s: far_last[s].union(depth[s]) for s in ("out", "in")}
    keep = {s: reach["in" if s == "out" else "out"].union(depth[s]) for s in ("out", "in")}
    return keep, len(reach["out"] & reach["in"])


def hops_between(kg: GraphStore, sources: Sequence[str], targets: Sequence[str], max_nodes: int = 200_000) -> int | None:
    """The fewest steps of a chain of relations, followed in their direction, from any source to any target; None
    when there is none, and -1 when more than ``max_nodes`` entities were reached first (not known). Breadth first,
    one batch of out-edges per level, so a store answers it in as many queries as the chain has steps."""
    goal = set(targets)
    levels = _levels(kg, sources, goal.__contains__, max_nodes)
    return levels if levels is None or isinstance(levels, int) else len(levels)


def hops_to_each(kg: GraphStore, sources: Sequence[str], targets: Sequence[str], max_nodes: int = 200_000) -> dict[str, int]:
    """The fewest steps of a chain from any source to each target that one reaches, in one breadth-first search that
    stops when every target is reached or more than ``max_nodes`` entities are; a target a source is counts 0."""
    left, found = set(targets), {t: 0 for t in targets if t in sources}
    seen, frontier, depth = set(sources), list(dict.fromkeys(sources)), 0
    left -= set(found)
    while frontier and left and len(seen) <= max_nodes:
        depth += 1
        level = {e.tail for edges in kg.neighbours(frontier, "out").values() for e in edges if e.tail not in seen}
        found.update({t: depth for t in level & left})
        left -= level
        seen |= level
        frontier = sorted(level)
    return found


def shortest_chains(kg: GraphStore, sources: Sequence[str], is_goal: Callable[[str], bool], conf: ConfFn, *,
                    max_hops: int, limit: int = 50, max_nodes: int = 200_000) -> list[CandidatePath]:
    """Up to ``limit`` of the shortest chains from a source to a node that ``is_goal`` accepts (the disease a
    question names, or any disease for "what does X treat?"), when the shortest has at most ``max_hops`` steps:
    what a question gets when the walk's budget found none (a curated mechanism may have seven steps through hubs;
    the walk stops at six, and at three from one side). Each edge carries the predictor's confidence."""
    return search_chains(kg, sources, is_goal, conf, max_hops=max_hops, limit=limit, max_nodes=max_nodes)[0]


def search_chains(kg: GraphStore, sources: Sequence[str], is_goal: Callable[[str], bool], conf: ConfFn, *,
                  max_hops: int, limit: int = 50, max_nodes: int = 200_000) -> tuple[list[CandidatePath], int | None]:
    """:func:`shortest_chains` and, from the same breadth-first search, the fewest steps of any chain (what
    :func:`hops_between` says), so a caller that needs both searches once."""
    levels = _levels(kg, sources, is_goal, max_nodes)
    hops = levels if levels is None or isinstance(levels, int) else len(levels)
    if not levels or isinstance(levels, int) or len(levels) > max_hops:
        return [], hops
    types: dict[tuple[str, str], dict[str, float]] = {}

    def edge_conf(e: Edge) -> float:
        ent = kg.node(e.head)
        kind = (ent.type if ent else "Unknown", "out")
        if kind not in types:
            types[kind] = conf(*kind)
        return types[kind].get(e.relation, 1e-4)

    found: list[CandidatePath] = []
    stack: list[tuple[str, tuple[Edge, ...]]] = [(t, ()) for t in reversed(levels[-1]) if is_goal(t)]
    while stack and len(found) < limit:  # back from the goals, one level at a time
        node, tail = stack.pop()
        if len(tail) == len(levels):
            found.append(CandidatePath(tail, tuple(edge_conf(e) for e in tail)))
            continue
        for e in reversed(levels[len(levels) - 1 - len(tail)].get(node, ())):
            stack.append((e.head, (e, *tail)))
    return found, hops


def _levels(kg: GraphStore, sources: Sequence[str], is_goal: Callable[[str], bool], max_nodes: int
            ) -> list[dict[str, list[Edge]]] | int | None:
    """Breadth first from ``sources`` along out-edges until a level holds a goal: for each level, the edges that
    first reach each of its nodes, by node. [] when a source is a goal; None when no chain reaches one; -1 when more
    than ``max_nodes`` entities were reached first."""
    seen = set(sources)
    if any(is_goal(x) for x in seen):
        return []
    frontier: list[str] = list(seen)
    levels: list[dict[str, list[Edge]]] = []
    while frontier:
        if len(seen) > max_nodes:
            return -1
        level: dict[str, list[Edge]] = {}
        for edges in kg.neighbours(frontier, "out").values():
            for e in edges:
                if e.tail not in seen:
                    level.setdefault(e.tail, []).append(e)
        levels.append(level)
        if any(is_goal(x) for x in level):
            return levels
        frontier = list(level)
        seen.update(frontier)
    return None
