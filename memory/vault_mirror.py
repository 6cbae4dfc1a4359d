"""The vault's in-process mirror: every row, keyed by (owner, subject), for fast reads by (subj, rel).

A reader whose generation token differs from the file's reloads the mirror, so a write by another process is seen
on the next read; this process's own writes refresh just the slots they touched. While another process holds the
file (an ingest), a reader that has a mirror keeps using it instead of waiting, and catches up afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import duckdb

from memory.records import MemoryFact
from memory.vault_file import COLS, FileBusy, VaultFile, row_fact

__all__ = ["VaultMirror"]

Slots = dict[tuple[str, str], list[MemoryFact]]


class VaultMirror:
    """Rows by (owner, subj), valid for one generation of the file."""

    def __init__(self, file: VaultFile) -> None:
        """Empty until the first read."""
        self.file = file
        self._rows: Slots | None = None
        self._gen = ""

    def rows(self) -> Slots:
        """The mirror, reloaded when another process has written since it was read."""
        gen = self.file.generation()
        if self._rows is not None and gen == self._gen:
            return self._rows
        try:  # a reader never waits on a writer (an ingest holds the file for seconds): it keeps what it has
            with self.file.session(wait=self._rows is None) as con:
                gen = self.file.generation()
                rows = con.execute(f"SELECT {COLS} FROM vault").fetchall()
        except FileBusy:
            if self._rows is None:  # only a first load waits, so this does not happen
                raise
            return self._rows
        mirror: Slots = {}
        for r in rows:
            f = row_fact(r)
            mirror.setdefault((f.owner, f.subj), []).append(f)
        self._rows, self._gen = mirror, gen
        return mirror

    def after_write(self, con: duckdb.DuckDBPyConnection, slots: Iterable[tuple[str, str]] | None) -> None:
        """After a write (file held): a new generation; refresh the touched slots, or drop the mirror (``None``)."""
        stale = self.file.generation() != self._gen
        token = self.file.new_generation()
        if self._rows is None or slots is None or stale:
            self._rows = None
            return
        wanted = sorted(set(slots))
        keys = [f"{o}{chr(31)}{s}" for o, s in wanted]
        fresh: Slots = {}
        sql = f"SELECT {COLS} FROM vault WHERE owner || chr(31) || subj IN (SELECT unnest(?))"
        for r in con.execute(sql, [keys]).fetchall():
            f = row_fact(r)
            fresh.setdefault((f.owner, f.subj), []).append(f)
        for slot in wanted:  # one query for every touched slot, not one per slot
            if slot in fresh:
                self._rows[slot] = fresh[slot]
            else:
                self._rows.pop(slot, None)
        self._gen = token

    def after_write_rows(self, rows: Sequence[dict[str, Any]] | None, slots: Iterable[tuple[str, str, str]]) -> None:
        """After a group write (file held): a new generation; the (owner, subj, rel) ``slots`` take their rows from
        ``rows`` (every row of those slots, as written), with no query; ``None`` drops the mirror."""
        stale = self.file.generation() != self._gen
        token = self.file.new_generation()
        if self._rows is None or rows is None or stale:
            self._rows = None
            return
        rels: dict[tuple[str, str], set[str]] = {}
        for owner, subj, rel in slots:
            rels.setdefault((owner, subj), set()).add(rel)
        cols = [c.strip() for c in COLS.split(",")]
        fresh: Slots = {}
        for r in rows:
            f = row_fact(tuple(r[c] for c in cols))
            fresh.setdefault((f.owner, f.subj), []).append(f)
        for key, changed in rels.items():
            kept = [f for f in self._rows.get(key, ()) if f.rel not in changed] + fresh.get(key, [])
            if kept:
                self._rows[key] = kept
            else:
                self._rows.pop(key, None)
        self._gen = token

    def size(self) -> int | None:
        """Rows in the file, when the mirror is loaded and current (no query); else None."""
        if self._rows is None or self.file.generation() != self._gen:
            return None
        return sum(len(facts) for facts in self._rows.values())
