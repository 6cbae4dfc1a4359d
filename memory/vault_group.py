"""Group commit: the writers of one process share vault sessions and statements instead of queueing for one each.

A vault session (the file lock, ATTACH, and the checkpoint at DETACH) costs about 7 ms, and under load the file
lock was held nine tenths of the time, by one writer after another. Here a writer hands its request to the current
leader, which takes every request waiting and applies them together (``apply``: one statement set for the group,
each request still getting its own result, or its own error) in one session, then hands the results back; when it
is done, the first writer that arrived meanwhile leads the next group. Every writer returns only after its own
write is committed, so an acknowledged write is a durable one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from memory.vault_file import FileBusy, VaultFile

__all__ = ["GroupCommit"]

R = TypeVar("R")
T = TypeVar("T")


class _Slot(Generic[R]):
    """One writer's request and, once done, its result or error."""

    def __init__(self, request: R) -> None:
        self.request = request
        self.result: Any = None
        self.error: BaseException | None = None
        self.lead = False
        self.done = threading.Event()


class GroupCommit(Generic[R, T]):
    """Applies writers' requests in shared sessions of one ``VaultFile``."""

    def __init__(self, file: VaultFile) -> None:
        """Bind the file."""
        self.file = file
        self._lock = threading.Lock()
        self._queue: list[_Slot[R]] = []
        self._leading = False

    def run(self, request: R, apply: Callable[[Sequence[R]], Sequence[T | BaseException]]) -> T:
        """Apply ``request`` with the file held (together with concurrent writers' requests); returns its result.

        ``apply`` runs with the file held and returns one result, or one exception, per request, in order; every
        caller passes the same one (it is not kept: a stored bound method would tie the owner into a reference
        cycle, and a frozen cycle keeps its DuckDB engine open until exit)."""
        slot: _Slot[R] = _Slot(request)
        with self._lock:
            self._queue.append(slot)
            lead = not self._leading
            self._leading = True
        if not lead:
            limit = (self.file.wait_s if self.file.wait_s is not None else 3600.0) + 120.0
            if not slot.done.wait(limit):
                raise FileBusy(f"{self.file.path.name}: no group commit in {limit:g} s")
            if slot.lead:  # the last leader handed over: this writer leads the next group
                slot.done.clear()
                self._lead(apply)
        else:
            self._lead(apply)
        if slot.error is not None:
            raise slot.error
        return slot.result  # type: ignore[no-any-return]

    def _take(self) -> list[_Slot[R]]:
        with self._lock:
            group, self._queue = self._queue, []
        return group

    def _lead(self, apply: Callable[[Sequence[R]], Sequence[T | BaseException]]) -> None:
        group: list[_Slot[R]] = []
        try:
            with self.file.session():
                # the group is taken once the file is held: writers that came while another process held it join
                group = self._take()
                results = list(apply([s.request for s in group]))
            for s, r in zip(group, results, strict=True):
                if isinstance(r, BaseException):
                    s.error = r
                else:
                    s.result = r
        except Exception as exc:  # noqa: BLE001 - the session or the statements failed: every writer sees it
            group = group or self._take()
            for s in group:
                s.error = s.error or exc
        with self._lock:
            if self._queue:
                self._queue[0].lead = True
                self._queue[0].done.set()
            else:
                self._leading = False
        for s in group:
            s.done.set()
