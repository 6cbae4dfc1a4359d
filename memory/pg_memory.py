"""mem_index and the gate log on PostgreSQL (the same tables and methods as ``memory.index`` and
``memory.gate_log``, in the ``mem`` schema beside the vault)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import numpy as np

from core.text import fold
from memory.gate_log import decision_row, recent_query
from memory.index import index_key, index_rows, simhash
from memory.pg_db import PgDatabase

__all__ = ["PgGateLog", "PgMemIndex"]

_SCHEMA = """
CREATE SCHEMA IF NOT EXISTS mem;
CREATE TABLE IF NOT EXISTS mem.mem_index (key TEXT NOT NULL, kind TEXT NOT NULL, owner TEXT NOT NULL, subj TEXT NOT NULL,
                                          PRIMARY KEY (key, owner, subj)) WITH (autovacuum_enabled = false);
CREATE TABLE IF NOT EXISTS mem.gate_log (ts DOUBLE PRECISION NOT NULL, owner TEXT NOT NULL, subj TEXT NOT NULL,
    rel TEXT NOT NULL, obj TEXT NOT NULL, decision TEXT NOT NULL, score DOUBLE PRECISION NOT NULL, backend TEXT NOT NULL,
    reason TEXT NOT NULL) WITH (autovacuum_enabled = false);
CREATE INDEX IF NOT EXISTS gate_log_owner ON mem.gate_log (owner, ts);
"""


class PgMemIndex:
    """``mem_index(key, kind, owner, subj)`` on PostgreSQL."""

    def __init__(self, db: PgDatabase) -> None:
        """Create the table if needed."""
        self.db = db
        db.ensure_schema(_SCHEMA)

    def register(self, owner: str, subj: str, aliases: Iterable[str] = (), vector: np.ndarray | None = None) -> int:
        """Point the subject's id, aliases and (optionally) its embedding bucket at (owner, subj)."""
        return self.register_many([(owner, subj, aliases, vector)])

    def register_many(self, items: Iterable[tuple[str, str, Iterable[str], np.ndarray | None]]) -> int:
        """``register`` for several subjects in one transaction; returns keys offered."""
        rows = index_rows(items)
        if rows:
            with self.db.transaction() as con, con.cursor() as cur:
                cur.executemany("INSERT INTO mem.mem_index VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING", rows)
        return len(rows)

    def lookup(self, owners: Iterable[str], text: str) -> list[str]:
        """Subjects whose id or alias folds to ``text``, for these owners."""
        owners = list(owners)
        if not owners or not fold(text):
            return []
        return [r[0] for r in self.db.query("SELECT DISTINCT subj FROM mem.mem_index WHERE key = %s AND owner = ANY(%s) "
                                            "ORDER BY subj", [index_key(text), owners])]

    def lookup_vector(self, owners: Iterable[str], vector: np.ndarray) -> list[str]:
        """Subjects in the same embedding bucket."""
        owners = list(owners)
        if not owners:
            return []
        return [r[0] for r in self.db.query("SELECT DISTINCT subj FROM mem.mem_index WHERE key = %s AND owner = ANY(%s) "
                                            "ORDER BY subj", [simhash(vector), owners])]

    def forget(self, owner: str) -> int:
        """Delete one owner's keys."""
        n = self.db.execute("DELETE FROM mem.mem_index WHERE owner = %s", [owner])
        self.db.scrub(["mem.mem_index"])
        return n

    def count(self, owner: str | None = None) -> int:
        """Keys (of one owner, or all)."""
        if owner is None:
            return int(self.db.query("SELECT count(*) FROM mem.mem_index")[0][0])
        return int(self.db.query("SELECT count(*) FROM mem.mem_index WHERE owner = %s", [owner])[0][0])


class PgGateLog:
    """The Reviewer gate's decisions on PostgreSQL, kept for ``retention_s``."""

    def __init__(self, db: PgDatabase, retention_s: float = 7 * 86400.0) -> None:
        """Create the table if needed."""
        self.db, self.retention_s = db, float(retention_s)
        db.ensure_schema(_SCHEMA)

    def add(self, rows: Iterable[tuple[float, str, str, str, str, str, float, str, dict[str, Any]]]) -> int:
        """Append (ts, owner, subj, rel, obj, decision, score, backend, reason) rows in one transaction."""
        data = [(*r[:8], json.dumps(r[8], sort_keys=True)) for r in rows]
        if not data:
            return 0
        with self.db.transaction() as con:
            with con.cursor() as cur:
                cur.executemany("INSERT INTO mem.gate_log VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)", data)
            con.execute("DELETE FROM mem.gate_log WHERE ts < %s", [max(r[0] for r in data) - self.retention_s])
        return len(data)

    def recent(self, owner: str, *, subject: str | None = None, rejected_only: bool = False, limit: int = 50) -> list[dict[str, Any]]:
        """The owner's latest decisions, newest first."""
        sql, args = recent_query("mem.gate_log", "%s", owner, subject, rejected_only, limit)
        return [decision_row(r) for r in self.db.query(sql, args)]

    def forget(self, owner: str) -> int:
        """Delete every row of one owner."""
        n = self.db.execute("DELETE FROM mem.gate_log WHERE owner = %s", [owner])
        self.db.scrub(["mem.gate_log"])
        return n
