"""The vault's change journal: how a process's mirror learns what other processes wrote, without reading the file.

``<vault>.changes`` starts with a line naming its epoch; every write then appends one line holding the rows of the
slots it changed, as written. A reader remembers the epoch and how far it has read: a read of an unchanged journal
costs one small read; otherwise it applies the new lines to its mirror, and only a new epoch (after a prune, a
forget, a rewrite) makes it reload the whole table. A journal grown past ``ROTATE_BYTES`` starts over in a new
file that keeps the old one's last lines and says where they began, so a reader that had read that far reads on.

Lines are appended only while the vault file is held. A writer appends ``P`` just before it commits and its record
after: a ``P`` with nothing after it, found by the next writer to hold the file, means a writer died between the
two, so that writer starts a new epoch (everyone reloads). Readers stop before a trailing ``P``. The journal holds
row text, so a forget starts a new epoch, which replaces the file.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import StoreError

__all__ = ["ROTATE_BYTES", "Change", "Journal", "Tail"]

ROTATE_BYTES = 1 << 20
"""A writer starts the journal over once it is this big, keeping its last quarter (``Journal.rotate(carry=True)``)."""
_PENDING = b"P\n"


@dataclass
class Change:
    """One write: the slots it rewrote and every row they hold after it."""

    slots: list[tuple[str, str, str | None]]
    """(owner, subj, rel) slots written; rel None: every rel of (owner, subj)."""
    rows: list[tuple[Any, ...]]
    """The rows of those slots after the write (``COLS`` order)."""


@dataclass
class Tail:
    """What a reader has applied: the epoch and the byte offset read up to."""

    epoch: str = ""
    offset: int = 0
    changes: list[Change] = field(default_factory=list)
    """Set by ``Journal.read``: the new changes, in order."""


class Journal:
    """One vault's ``.changes`` file."""

    def __init__(self, path: Path) -> None:
        """Bind the file (created by the first ``rotate``)."""
        self.path = path

    def read(self, tail: Tail) -> Tail | None:
        """The reader's next position with the changes since ``tail`` (``Tail.changes``); None when the reader must
        reload the table (a new epoch, no journal, or a line it cannot read). Takes no lock: a line being written,
        or a trailing ``P`` (a write not yet committed), is read next time."""
        try:
            with open(self.path, "rb") as fh:
                head = fh.readline()
                epoch, prev, base = _header(head)
                if epoch and epoch != tail.epoch and prev == tail.epoch and base <= tail.offset:
                    # the journal started over and kept the old one's end from ``base``: read on from there
                    tail = Tail(epoch, len(head) + tail.offset - base)
                size = os.fstat(fh.fileno()).st_size
                if not epoch or epoch != tail.epoch or size < tail.offset:
                    return None
                if size == tail.offset:
                    return Tail(epoch, size)
                fh.seek(tail.offset)
                data = fh.read()
        except OSError:
            return None
        changes: list[Change] = []
        used = 0
        lines = data.splitlines(keepends=True)
        for i, line in enumerate(lines):
            if not line.endswith(b"\n") or (line == _PENDING and i == len(lines) - 1):
                break
            if line != _PENDING:
                try:
                    rec = json.loads(line)
                    changes.append(Change([(s[0], s[1], s[2]) for s in rec["slots"]], [tuple(r) for r in rec["rows"]]))
                except (ValueError, KeyError, TypeError, IndexError):
                    return None
            used += len(line)
        return Tail(epoch, tail.offset + used, changes)

    def repair(self) -> None:
        """(File held.) A ``P`` with nothing after it means its writer died between commit and record: start a new
        epoch, so that every reader reloads what that writer may have committed."""
        if self._dangling():
            self.rotate()

    def begin(self) -> None:
        """Mark a write about to commit (file held). A mark left by a writer that died first starts a new epoch."""
        self.repair()
        self._append(_PENDING)

    def publish(self, change: Change) -> tuple[str, int]:
        """Append a committed write's rows (file held, after ``begin`` and the commit). Returns where a reader that
        has read it stands: the new epoch when the journal started over (else ""), and the offset."""
        line = json.dumps({"slots": [list(s) for s in change.slots], "rows": [list(r) for r in change.rows]},
                          separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"
        end = self._append(line)
        if end < ROTATE_BYTES:
            return "", end
        epoch = self.rotate(carry=True)
        return epoch, self.end()

    def rotate(self, *, carry: bool = False) -> str:
        """Start a new epoch (file held): every reader reloads the table once. With ``carry`` (the journal is only
        too big: no row was deleted), the new file keeps the old one's last ``ROTATE_BYTES // 4`` bytes of whole
        lines and names the old epoch and the old offset they start at, so that a reader that had read that far
        reads on without a reload. Returns the epoch."""
        epoch = uuid.uuid4().hex
        head, body = f"E {epoch}", b""
        if carry:
            try:
                old = self.path.read_bytes()
            except OSError as exc:
                raise StoreError(f"cannot read the vault's change journal {self.path.name}: {exc}") from exc
            first = old.find(b"\n") + 1
            cut = max(first, len(old) - ROTATE_BYTES // 4)
            base = cut if cut == first or old[cut - 1:cut] == b"\n" else old.index(b"\n", cut) + 1
            head, body = f"{head} {_header(old[:first])[0]} {base}", old[base:]
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            tmp.write_bytes(f"{head}\n".encode("ascii") + body)
            os.replace(tmp, self.path)
        except OSError as exc:
            raise StoreError(f"cannot start the vault's change journal {self.path.name}: {exc}") from exc
        return epoch

    def epoch(self) -> str:
        """The current epoch (file held), starting one when there is no journal."""
        try:
            with open(self.path, "rb") as fh:
                head = fh.readline()
        except OSError:
            head = b""
        epoch = _header(head)[0]
        return epoch or self.rotate()

    def end(self) -> int:
        """The journal's size (file held): where a reader that is current stands."""
        try:
            return os.stat(self.path).st_size
        except OSError:
            return 0

    def _dangling(self) -> bool:
        try:
            with open(self.path, "rb") as fh:
                fh.seek(max(0, os.fstat(fh.fileno()).st_size - len(_PENDING)))
                return fh.read() == _PENDING
        except OSError:
            return False

    def _append(self, data: bytes) -> int:
        """Append ``data``; the journal's size after it."""
        if not self.path.exists():
            self.rotate()
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            try:
                os.write(fd, data)
                return os.fstat(fd).st_size
            finally:
                os.close(fd)
        except OSError as exc:  # the write it records is committed: the next writer finds its mark and starts over
            raise StoreError(f"cannot append to the vault's change journal {self.path.name}: {exc}") from exc


def _header(head: bytes) -> tuple[str, str, int]:
    """(epoch, the epoch it carries on from, the offset in that one where this one's lines begin) of a journal's
    first line; ("", "", -1) when it is not one."""
    parts = head.decode("ascii", "replace").split() if head.startswith(b"E ") and head.endswith(b"\n") else []
    if len(parts) == 2:
        return parts[1], "", -1
    if len(parts) == 4 and parts[3].isdigit():
        return parts[1], parts[2], int(parts[3])
    return "", "", -1
