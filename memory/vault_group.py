"""Group commit: the writers of one process share vault sessions instead of queueing for one each.

A vault session (the file lock, ATTACH, and the checkpoint at DETACH) costs about 7 ms; concurrent asks each held
one in turn, and under load most of their time was spent waiting for it. Here a writer hands its work to the
current leader, which runs every waiting writer's work in one session, each in its own transaction, and hands the
results (or each one's error) back; when it is done, the first writer that arrived meanwhile leads the next group.
Every writer still returns only after its own write is committed, so an acknowledged write is a durable one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from memory.vault_file import FileBusy, VaultFile

__all__ = ["GroupCommit"]

T = TypeVar("T")


class _Slot(Generic[T]):
    """One writer's work and, once done, its result or error."""

    def __init__(self, work: Callable[[], T]) -> None:
        self.work = work
        self.result: Any = None
        self.error: BaseException | None = None
        self.lead = False
        self.done = threading.Event()


class GroupCommit:
    """Runs writers' work in shared sessions of one ``VaultFile``."""

    def __init__(self, file: VaultFile) -> None:
        self.file = file
        self._lock = threading.Lock()
        self._queue: list[_Slot[Any]] = []
        self._leading = False

    def run(self, work: Callable[[], T]) -> T:
        """Run ``work()`` with the file held (sharing the session with concurrent writers); returns its result."""
        slot: _Slot[T] = _Slot(work)
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
                self._lead()
        else:
            self._lead()
        if slot.error is not None:
            raise slot.error
        return slot.result  # type: ignore[no-any-return]

    def _lead(self) -> None:
        with self._lock:
            group, self._queue = self._queue, []
        try:
            with self.file.session():
                for s in group:
                    try:
                        s.result = s.work()
                    except Exception as exc:  # noqa: BLE001 - each writer gets its own error back
                        s.error = exc
        except Exception as exc:  # noqa: BLE001 - the session itself failed (busy, broken file): every writer sees it
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
