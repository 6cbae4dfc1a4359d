"""Episodic scratch-pad (design §5.3): SQLite, per user and thread, 30-minute TTL."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from core.errors import StoreError
from memory.records import MemoryFact, fact_id
from memory.sqlite_db import open_sqlite, scrub, store_error

__all__ = ["EpisodicStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS episodic (
    id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    thread TEXT NOT NULL,
    subj TEXT NOT NULL,
    rel TEXT NOT NULL,
    obj TEXT NOT NULL,
    evidence TEXT NOT NULL,
    confidence REAL NOT NULL,
    ts_created REAL NOT NULL,
    reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS episodic_subj ON episodic(subj, owner, ts_created);
CREATE INDEX IF NOT EXISTS episodic_owner_ts ON episodic(owner, ts_created);
"""


class EpisodicStore:
    """Short-lived facts; rows older than ``ttl_s`` are never returned and are swept on write."""

    def __init__(self, path: Path | str, ttl_s: float = 1800.0, wait_s: float = 10.0) -> None:
        """Open (or create) the SQLite file; ``":memory:"`` works for tests; a write waits at most ``wait_s`` for
        another process."""
        self.path = str(path)
        self.ttl_s = float(ttl_s)
        self._lock = threading.Lock()
        self._db = open_sqlite(self.path, _SCHEMA, "episodic store", wait_s)
        try:
            cols = {r[1] for r in self._db.execute("PRAGMA table_info(episodic)")}
            if "reason" not in cols:  # a file written before the gate kept its reasons
                self._db.execute("ALTER TABLE episodic ADD COLUMN reason TEXT NOT NULL DEFAULT ''")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot upgrade episodic store {Path(self.path).name}: {exc}") from exc

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def _cutoff(self, now: float | None) -> float:
        return (time.time() if now is None else now) - self.ttl_s

    def add(self, facts: Iterable[MemoryFact], now: float | None = None) -> int:
        """Insert facts (id = content hash of owner, thread, triple); returns rows written. Sweeps expired rows."""
        ts = time.time() if now is None else now
        return self.add_many([(f, ts) for f in facts])

    def add_many(self, pairs: Iterable[tuple[MemoryFact, float]]) -> int:
        """Insert (fact, creation time) pairs in one transaction, each with the gate's reason; sweeps expired rows."""
        rows = [
            (fact_id(f.owner, f.subj, f.rel, f.obj, f.thread), f.owner, f.thread, f.subj, f.rel, f.obj, f.evidence, f.confidence,
             ts, json.dumps(f.extra["reason"], sort_keys=True) if f.extra.get("reason") else "")
            for f, ts in pairs
        ]
        if not rows:
            return 0
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany("INSERT OR REPLACE INTO episodic VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
                self._db.execute("DELETE FROM episodic WHERE ts_created < ?", (max(r[8] for r in rows) - self.ttl_s,))
                self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise store_error(exc, "episodic write failed") from exc
        return len(rows)

    def by_subject(self, owner: str, subj: str, now: float | None = None) -> list[MemoryFact]:
        """Live facts of one owner about a subject, newest first."""
        cur = self._db.execute(
            "SELECT owner, thread, subj, rel, obj, evidence, confidence, ts_created FROM episodic "
            "WHERE subj = ? AND owner = ? AND ts_created >= ? ORDER BY ts_created DESC",
            (subj, owner, self._cutoff(now)),
        )
        return [self._fact(r) for r in cur.fetchall()]

    def recent(self, owner: str, thread: str | None = None, limit: int = 50, now: float | None = None) -> list[MemoryFact]:
        """Live facts of one owner (optionally one thread), newest first."""
        sql = "SELECT owner, thread, subj, rel, obj, evidence, confidence, ts_created FROM episodic WHERE owner = ? AND ts_created >= ?"
        args: list[object] = [owner, self._cutoff(now)]
        if thread is not None:
            sql += " AND thread = ?"
            args.append(thread)
        sql += " ORDER BY ts_created DESC LIMIT ?"
        args.append(int(limit))
        return [self._fact(r) for r in self._db.execute(sql, args).fetchall()]

    def sweep(self, now: float | None = None) -> int:
        """Delete expired rows; returns how many."""
        with self._lock:
            cur = self._db.execute("DELETE FROM episodic WHERE ts_created < ?", (self._cutoff(now),))
        return cur.rowcount

    def forget(self, owner: str) -> int:
        """Delete every row of one owner; returns how many."""
        with self._lock:
            cur = self._db.execute("DELETE FROM episodic WHERE owner = ?", (owner,))
            scrub(self._db, "episodic store")
        return cur.rowcount

    def count(self, owner: str | None = None, now: float | None = None) -> int:
        """Live rows (of one owner, or all)."""
        if owner is None:
            return int(self._db.execute("SELECT count(*) FROM episodic WHERE ts_created >= ?", (self._cutoff(now),)).fetchone()[0])
        return int(self._db.execute("SELECT count(*) FROM episodic WHERE owner = ? AND ts_created >= ?", (owner, self._cutoff(now))).fetchone()[0])

    def owners(self) -> list[str]:
        """Owners with at least one row (live or not yet swept)."""
        return [r[0] for r in self._db.execute("SELECT DISTINCT owner FROM episodic ORDER BY owner")]

    @staticmethod
    def _fact(r: tuple[Any, ...]) -> MemoryFact:
        owner, thread, subj, rel, obj, evidence, conf, ts = r
        return MemoryFact(owner=owner, subj=subj, rel=rel, obj=obj, confidence=conf, evidence=evidence, store="episodic",
                          first_seen=ts, last_used=ts, t_start=ts, recorded_at=ts, thread=thread)
