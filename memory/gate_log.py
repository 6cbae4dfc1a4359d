"""The Reviewer gate's log: every decision on a remembered claim, accepted or not, with its reason.

``memory show OWNER --why`` reads it, so a user can see why a candidate was rejected ("negated, cue
'denies', rule current_medication"). Rows are kept for ``retention_s`` (7 days by default), are
deleted with the owner by ``forget``, and live in ``gate_log.sqlite`` beside the episodic store.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from memory.sqlite_db import open_sqlite, scrub, store_error

__all__ = ["GateLog", "decision_row", "recent_query"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS gate_log (
    ts REAL NOT NULL,
    owner TEXT NOT NULL,
    subj TEXT NOT NULL,
    rel TEXT NOT NULL,
    obj TEXT NOT NULL,
    decision TEXT NOT NULL,
    score REAL NOT NULL,
    backend TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS gate_log_owner ON gate_log(owner, ts);
"""


def recent_query(table: str, mark: str, owner: str, subject: str | None, rejected_only: bool,
                 limit: int) -> tuple[str, list[Any]]:
    """The SQL and arguments of ``recent`` for a table and a placeholder (``?`` or ``%s``)."""
    sql = f"SELECT ts, subj, rel, obj, decision, score, backend, reason FROM {table} WHERE owner = {mark}"
    args: list[Any] = [owner]
    if subject:
        sql += f" AND subj = {mark}"
        args.append(subject)
    if rejected_only:
        sql += " AND decision = 'reject'"
    sql += f" ORDER BY ts DESC LIMIT {mark}"
    args.append(int(limit))
    return sql, args


def decision_row(r: Sequence[Any]) -> dict[str, Any]:
    """One row of ``recent_query`` as a decision."""
    keys = ("ts", "subj", "rel", "obj", "decision", "score", "backend")
    return {**dict(zip(keys, r[:7], strict=True)), "reason": json.loads(r[7])}


class GateLog:
    """Decisions with reasons, per owner, for a retention period."""

    def __init__(self, path: Path | str, retention_s: float = 7 * 86400.0, wait_s: float = 10.0) -> None:
        """Open (or create) the SQLite file (a write waits at most ``wait_s`` for another process)."""
        self.path, self.retention_s = str(path), float(retention_s)
        self._lock = threading.Lock()
        self._db = open_sqlite(self.path, _SCHEMA, "the gate log", wait_s)

    def add(self, rows: Iterable[tuple[float, str, str, str, str, str, float, str, dict[str, Any]]]) -> int:
        """Append (ts, owner, subj, rel, obj, decision, score, backend, reason) rows in one transaction."""
        data = [(*r[:8], json.dumps(r[8], sort_keys=True)) for r in rows]
        if not data:
            return 0
        newest = max(r[0] for r in data)
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany("INSERT INTO gate_log VALUES (?,?,?,?,?,?,?,?,?)", data)
                self._db.execute("DELETE FROM gate_log WHERE ts < ?", (newest - self.retention_s,))  # the stream's clock
                self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise store_error(exc, "gate log write failed") from exc
        return len(data)

    def recent(self, owner: str, *, subject: str | None = None, rejected_only: bool = False, limit: int = 50) -> list[dict[str, Any]]:
        """The owner's latest decisions, newest first."""
        sql, args = recent_query("gate_log", "?", owner, subject, rejected_only, limit)
        return [decision_row(r) for r in self._db.execute(sql, args)]

    def forget(self, owner: str) -> int:
        """Delete every row of one owner."""
        with self._lock:
            n = self._db.execute("DELETE FROM gate_log WHERE owner = ?", (owner,)).rowcount
            scrub(self._db, "gate log")
            return n
