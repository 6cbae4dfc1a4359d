"""The vault's in-process mirror: every row, keyed by (owner, subject), for fast reads by (subj, rel).

The mirror follows the file through its change journal (``memory.vault_journal``): a read applies the rows that
other processes' writes appended since the last read, and reloads the whole table only on a new epoch (a prune, a
forget, a writer that died mid-write) or when it fell behind a journal that started over. This process's writes apply their own rows. While another process
holds the file (an ingest), a reader that must reload keeps what it has instead of waiting, and catches up later.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import Any

import duckdb

from memory.records import MemoryFact
from memory.vault_file import COLS, COLUMNS, FileBusy, VaultFile, row_fact
from memory.vault_journal import Change, Journal, Tail

__all__ = ["VaultMirror", "change_of", "fact_row"]

Slots = dict[tuple[str, str], list[MemoryFact]]


def fact_row(f: MemoryFact) -> tuple[Any, ...]:
    """A mirrored fact as its row (``COLS`` order)."""
    return tuple(getattr(f, c) for c in COLUMNS)


def change_of(rows: Sequence[dict[str, Any]], slots: Iterable[tuple[str, str, str]]) -> Change:
    """The change of a group write: the (owner, subj, rel) ``slots`` and every row they hold after it."""
    return Change(sorted(set(slots)), [tuple(r[c] for c in COLUMNS) for r in rows])


class VaultMirror:
    """Rows by (owner, subj), kept current through the journal."""

    def __init__(self, file: VaultFile) -> None:
        """Empty until the first read."""
        self.file = file
        self.journal = Journal(file.journal_path)
        self._rows: Slots | None = None
        self._tail = Tail()
        self._lock = threading.RLock()  # a reader applying the journal and a writer of this process take turns
        self._count = 0

    def rows(self) -> Slots:
        """The mirror, brought up to date with other processes' writes."""
        with self._lock:
            if self._rows is not None:
                nxt = self.journal.read(self._tail)
                if nxt is not None:
                    self._apply_all(nxt)
                    return self._rows
        try:  # a reader never waits on a writer (an ingest holds the file for seconds): it keeps what it has
            with self.file.session(wait=self._rows is None) as con, self._lock:
                self._reload(con)
        except FileBusy:
            if self._rows is None:  # only a first load waits, so this does not happen
                raise
        assert self._rows is not None
        return self._rows

    def sync(self, con: duckdb.DuckDBPyConnection) -> bool:
        """(File held, before a write.) Bring a loaded mirror up to date, from the journal or the table; True when
        the mirror is loaded and current, so that a write may read its slots' rows from it."""
        with self._lock:
            if self._rows is None:
                return False
            self.journal.repair()
            nxt = self.journal.read(self._tail)
            if nxt is None:
                self._reload(con)
            else:
                self._apply_all(nxt)
            return True

    def _reload(self, con: duckdb.DuckDBPyConnection) -> None:
        self.journal.repair()
        epoch, end = self.journal.epoch(), self.journal.end()
        mirror: Slots = {}
        rows = con.execute(f"SELECT {COLS} FROM vault").fetchall()
        for r in rows:
            f = row_fact(r)
            mirror.setdefault((f.owner, f.subj), []).append(f)
        self._rows, self._tail, self._count = mirror, Tail(epoch, end), len(rows)

    def _apply_all(self, nxt: Tail) -> None:
        for change in nxt.changes:
            self._apply(change)
        self._tail = Tail(nxt.epoch, nxt.offset)

    def _apply(self, change: Change) -> None:
        assert self._rows is not None
        rels: dict[tuple[str, str], set[str | None]] = {}
        for owner, subj, rel in change.slots:
            rels.setdefault((owner, subj), set()).add(rel)
        fresh: Slots = {}
        for r in change.rows:
            f = row_fact(r)
            fresh.setdefault((f.owner, f.subj), []).append(f)
        for key, changed in rels.items():
            old = self._rows.get(key, [])
            kept = [] if None in changed else [f for f in old if f.rel not in changed]
            kept += fresh.get(key, [])
            self._count += len(kept) - len(old)
            if kept:
                self._rows[key] = kept
            else:
                self._rows.pop(key, None)

    def slot_rows(self, slots: Iterable[tuple[str, str, str]]) -> list[tuple[Any, ...]]:
        """Rows of these (owner, subj, rel) slots (a current mirror: after ``sync``)."""
        assert self._rows is not None
        out = []
        for owner, subj, rel in sorted(set(slots)):
            out += [fact_row(f) for f in self._rows.get((owner, subj), ()) if f.rel == rel]
        return out

    def publish(self, change: Change | None) -> None:
        """(File held, after a committed write.) Append the write's rows to the journal and apply them here, after
        what other processes appended before; ``None`` (rows deleted: a prune, a forget) starts a new epoch and
        drops this mirror (the next read reloads it)."""
        with self._lock:
            if change is None:
                self.journal.rotate()
                self._rows, self._tail = None, Tail()
                return
            nxt = self.journal.read(self._tail) if self._rows is not None else None
            if nxt is None:
                self._rows, self._tail = None, Tail()
            else:
                self._apply_all(nxt)
            epoch, end = self.journal.publish(change)
            if self._rows is not None:
                self._apply(change)
                self._tail = Tail(epoch or self._tail.epoch, end)

    def publish_slots(self, con: duckdb.DuckDBPyConnection, slots: Iterable[tuple[str, str]] | None) -> None:
        """(File held, after a committed write by statements.) Publish every row of the touched (owner, subj)
        slots, read back from the table; ``None`` starts a new epoch."""
        if slots is None:
            self.publish(None)
            return
        wanted = sorted(set(slots))
        keys = [f"{o}{chr(31)}{s}" for o, s in wanted]
        sql = f"SELECT {COLS} FROM vault WHERE owner || chr(31) || subj IN (SELECT unnest(?))"
        rows = [tuple(r) for r in con.execute(sql, [keys]).fetchall()]
        self.publish(Change([(o, s, None) for o, s in wanted], rows))

    def size(self) -> int | None:
        """(File held, after ``publish``.) Rows in the file when the mirror is loaded, which it is current then (no
        query); else None."""
        with self._lock:
            return None if self._rows is None else self._count
