"""Opening the SQLite files of the memory tiers the same way: WAL, a busy timeout, autocommit, the schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core.errors import StoreError

__all__ = ["open_sqlite", "scrub"]


def open_sqlite(path: Path | str, schema: str, what: str) -> sqlite3.Connection:
    """Open (or create) a SQLite file shared by threads and processes, and apply ``schema``.

    WAL with ``synchronous=NORMAL`` is durable at checkpoints and never corrupt; writers in other
    processes wait up to 30 s. ``":memory:"`` works for tests. A failure raises StoreError naming ``what``.
    """
    try:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(str(path), check_same_thread=False, timeout=30.0, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=30000")
        db.execute("PRAGMA secure_delete=ON")  # deleted rows are overwritten, not left in free pages
        db.executescript(schema)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {what} {Path(str(path)).name}: {exc}") from exc
    return db


def scrub(db: sqlite3.Connection, what: str) -> None:
    """After a delete that must leave no trace: move the WAL into the file (secure_delete zeroed the freed
    content there) and truncate the WAL, which still held the old page images."""
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot scrub {what}: {exc}") from exc
