"""Parallel fan-out over stores with per-store timeouts and an overall deadline (design 002).

Every store a route needs runs at once: coroutine functions on the event loop, plain functions on a
thread pool (with the caller's context, so their spans nest under the retrieval span). A store whose
``inline`` attribute is true (an in-memory lookup well under a millisecond) runs on the loop while the
others are out: a thread hop would cost more than the lookup, and under load the queue for the pool
would make it late. An inline store cannot be interrupted; if it ran past its timeout, its outcome says so
(and its result, already computed, is kept). Each store has
its own timeout, and the whole fan-out has a deadline (40 ms by default). A store that fails or is late
is recorded with its name and reason, and never blocks the others: what came back in time is used.
Results are merged and deduplicated by id. Scores from different stores are not on one scale (BM25 is
unbounded, a walk gives 1/hop, memory a composite in [0, 1]), so each store's scores are divided by its own
best score and multiplied by the route's weight for that store; an item that several stores return gets
the sum (CombSUM), so agreement between stores lifts it.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from memory.records import CohortCount, PatientFactView

__all__ = ["DEFAULT_DEADLINE_S", "FanoutResult", "Item", "StoreOutcome", "StoreStatus", "fan_out", "merge", "store_pool"]

DEFAULT_DEADLINE_S = 0.040
"""Overall deadline of one fan-out."""


@dataclass
class Item:
    """One piece of evidence from a store: a graph edge (or chain) or a text chunk."""

    id: str
    """Content-hash id; the merge deduplicates on it."""
    tier: str
    """``graph`` or ``text``: where the serializer puts it."""
    text: str
    """The rendered line (graph) or chunk text (text). May hold PII until the serializer strips it."""
    score: float
    """Store-local relevance (higher is better)."""
    source: str
    """Store that returned it (after a merge: the first one)."""
    entities: tuple[str, ...] = ()
    """KG or patient ids the item refers to."""
    pii: dict[str, str] = field(default_factory=dict)
    """Values of the claim's ``pii_fields``: stripped before rendering, never shown."""
    cite: str | None = None
    """Citation (``PMID 123``, ``note 2026-01-02``)."""
    sources: list[str] = field(default_factory=list)
    """Every store that returned it (filled by the merge)."""
    fact: PatientFactView | None = None
    """The typed patient fact behind a patient line (the answer reads it, never the rendered text)."""
    count: CohortCount | None = None
    """The typed count behind an aggregation line (the same)."""


Store = Callable[[Any], list[Item]] | Callable[[Any], Awaitable[list[Item]]]


class StoreStatus(StrEnum):
    """How a store's part of the fan-out ended."""

    OK = "ok"
    TIMEOUT = "timeout"
    ERROR = "error"


@dataclass
class StoreOutcome:
    """One store's part of the fan-out."""

    name: str
    """Store name."""
    status: StoreStatus
    """ok, timeout or error."""
    ms: float
    """Time until it answered or was given up on."""
    count: int = 0
    """Items it returned."""
    reason: str | None = None
    """Why it failed or was late."""

    def to_json(self) -> dict[str, Any]:
        """Plain dictionary."""
        return {"name": self.name, "status": self.status.value, "ms": round(self.ms, 2), "count": self.count,
                "reason": self.reason}


@dataclass
class FanoutResult:
    """What came back in time, merged, and how each store did."""

    items: list[Item]
    """Deduplicated items, best score first."""
    outcomes: list[StoreOutcome]
    """One per store, in the order they were asked."""

    @property
    def partial(self) -> bool:
        """True when some store failed or was late."""
        return any(o.status is not StoreStatus.OK for o in self.outcomes)

    @property
    def failed(self) -> list[StoreOutcome]:
        """The stores that failed or were late."""
        return [o for o in self.outcomes if o.status is not StoreStatus.OK]


def merge(groups: list[tuple[str, list[Item]]], weights: Mapping[str, float] | None = None) -> list[Item]:
    """Fuse ``(store, items)`` groups: per-store max-normalised scores × the store's weight, summed per id.

    An id seen in several groups appears once, listing every store in ``sources``; the result is
    sorted best first (ties by id, so the order is deterministic).
    """
    weights = weights or {}
    best: dict[str, Item] = {}
    for store, items in groups:
        top = max((it.score for it in items), default=0.0)
        scale = weights.get(store, 1.0) / top if top > 0 else 0.0
        for it in items:
            part = it.score * scale
            have = best.get(it.id)
            if have is None:
                it.sources = [it.source]
                it.score = part
                best[it.id] = it
            else:
                if it.source not in have.sources:
                    have.sources.append(it.source)
                have.score += part
    return sorted(best.values(), key=lambda i: (-i.score, i.id))


def store_pool() -> ThreadPoolExecutor:
    """A pool for the threaded stores of fan-outs; its owner (the retrieval service) keeps it."""
    return ThreadPoolExecutor(max_workers=8, thread_name_prefix="medpath-store")


async def _run_one(name: str, store: Store, query: Any, timeout: float | None, executor: Executor) -> list[Item]:
    loop = asyncio.get_running_loop()
    if getattr(store, "inline", False):
        return store(query)  # type: ignore[return-value]
    if inspect.iscoroutinefunction(store) or inspect.iscoroutinefunction(type(store).__call__):
        coro = store(query)
    else:
        ctx = contextvars.copy_context()
        coro = loop.run_in_executor(executor, ctx.run, store, query)
    return await asyncio.wait_for(coro, timeout) if timeout is not None else await coro


async def fan_out(
    stores: Mapping[str, Store],
    query: Any,
    *,
    timeouts: Mapping[str, float] | None = None,
    deadline_s: float | None = DEFAULT_DEADLINE_S,
    executor: Executor | None = None,
    empty: bool = False,
    weights: Mapping[str, float] | None = None,
) -> FanoutResult:
    """Run ``stores`` concurrently on ``query``; never raises for a store's failure.

    ``timeouts`` are per store (seconds; a missing one means only the deadline applies).
    ``deadline_s`` bounds the whole fan-out (None: no bound). ``empty`` short-cuts to an empty result.
    ``weights`` are per store, for :func:`merge`.
    """
    if empty or not stores:
        return FanoutResult([], [])
    timeouts = timeouts or {}
    if executor is None:  # a caller without its own pool: one for this call, not waited for
        own = store_pool()
        try:
            return await fan_out(stores, query, timeouts=timeouts, deadline_s=deadline_s, executor=own, weights=weights)
        finally:
            own.shutdown(wait=False)
    t0 = time.perf_counter()
    names = list(stores)
    # threaded and async stores start first; inline ones (in-memory, sub-millisecond) then run on the loop meanwhile
    order = sorted(names, key=lambda n: bool(getattr(stores[n], "inline", False)))
    tasks = {n: asyncio.ensure_future(_run_one(n, stores[n], query, timeouts.get(n), executor)) for n in order}
    ended: dict[str, float] = {}
    for n, t in tasks.items():
        t.add_done_callback(lambda _t, n=n: ended.setdefault(n, (time.perf_counter() - t0) * 1000))
    await asyncio.wait(tasks.values(), timeout=deadline_s)
    outcomes, groups = [], []
    for n in names:
        task = tasks[n]
        ms = ended.get(n, (time.perf_counter() - t0) * 1000)
        if not task.done():
            task.cancel()
            outcomes.append(StoreOutcome(n, StoreStatus.TIMEOUT, ms, reason=f"overall deadline {deadline_s * 1000:.0f} ms passed"))
            continue
        exc = task.exception()
        if isinstance(exc, TimeoutError | asyncio.TimeoutError):
            outcomes.append(StoreOutcome(n, StoreStatus.TIMEOUT, ms, reason=f"store timeout {timeouts.get(n, 0) * 1000:.0f} ms passed"))
        elif exc is not None:
            outcomes.append(StoreOutcome(n, StoreStatus.ERROR, ms, reason=f"{type(exc).__name__}: {exc}"))
        else:
            items = list(task.result() or [])
            groups.append((n, items))
            limit = timeouts.get(n)
            over = getattr(stores[n], "inline", False) and limit is not None and ms > limit * 1000
            outcomes.append(StoreOutcome(n, StoreStatus.OK, ms, count=len(items),
                                         reason=f"ran over its {limit * 1000:.0f} ms timeout (inline, result kept)" if over else None))
    return FanoutResult(merge(groups, weights), outcomes)
