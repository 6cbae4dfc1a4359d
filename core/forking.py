"""Work in forked processes that can never hang or lose a part: what a worker cannot give back is done here.

A process that forks while other threads run (a test runner, torch's or DuckDB's pools) can leave its child with
a lock held or an object half-built; CI once saw a forked walker die of a segmentation fault while collecting
garbage, and ``multiprocessing.Pool.map`` then waited forever for the part it had lost. :func:`map_in_forks`:

- freezes the parent's objects before forking (``gc.freeze``), so a child's collector never walks what it
  inherited (and no copy-on-write pages are touched by it);
- learns at once that a worker died (``concurrent.futures`` marks the pool broken) and, when no part has come
  back for ``stall_s`` seconds, ends the workers;
- runs every part that did not come back in this process, in order, so the result is the one a single process
  gives (``run`` must depend on its part alone).
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

__all__ = ["STALL_S", "can_fork", "map_in_forks"]

P = TypeVar("P")
R = TypeVar("R")

STALL_S = 600.0
"""Seconds without any part coming back after which the workers are ended and the rest is done here."""

log = logging.getLogger("medpath.forking")

_JOB: list[Callable[[int], Any]] = []
"""The work a forked worker does (set before forking, so it is inherited, never pickled; empty otherwise)."""


def _call(i: int) -> Any:
    return _JOB[0](i)


def can_fork() -> bool:
    """Whether this system starts processes by forking."""
    return "fork" in multiprocessing.get_all_start_methods()


def map_in_forks(run: Callable[[P], R], parts: Sequence[P], workers: int, *, stall_s: float = STALL_S) -> list[R]:
    """``[run(p) for p in parts]``, with the parts spread over ``workers`` forked processes when there are two or
    more of each; a part a worker did not give back (it died, raised, or the pool stalled) is run here."""
    got: dict[int, R] = {}
    if workers >= 2 and len(parts) >= 2 and can_fork():
        got = _in_forks(run, parts, workers, stall_s)
    return [got[i] if i in got else run(p) for i, p in enumerate(parts)]


def _in_forks(run: Callable[[P], R], parts: Sequence[P], workers: int, stall_s: float) -> dict[int, R]:
    """The parts that came back from the workers, by index."""
    _JOB[:] = [lambda i: run(parts[i])]
    gc.freeze()
    got: dict[int, R] = {}
    stalled = False
    pool = ProcessPoolExecutor(min(workers, len(parts)), mp_context=multiprocessing.get_context("fork"))
    try:
        pending: set[Future[Any]] = set()
        index: dict[Future[Any], int] = {}
        for i in range(len(parts)):
            f = pool.submit(_call, i)
            index[f] = i
            pending.add(f)
        while pending:
            done, pending = wait(pending, timeout=stall_s, return_when=FIRST_COMPLETED)
            if not done:
                log.warning("no part came back from the workers for %.0f s; the %d left are run here", stall_s,
                            len(pending))
                stalled = True
                break
            for f in done:
                if f.exception() is None:
                    got[index[f]] = f.result()
                else:
                    log.warning("a worker could not give part %d back (%s); it is run here", index[f], f.exception())
    finally:
        if stalled:
            _kill(pool)
        else:
            pool.shutdown(wait=True)
        _JOB.clear()
        gc.unfreeze()
    return got


def _kill(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down without waiting on a worker that hangs: its processes are killed first."""
    procs = list((getattr(pool, "_processes", None) or {}).values())  # the executor drops them on shutdown
    for p in procs:
        if p.is_alive():
            p.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        p.join(timeout=5)
