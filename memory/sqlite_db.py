"""Opening the SQLite files of the memory tiers the same way: WAL, a busy timeout, autocommit, the schema."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core.errors import StoreBusyError, StoreError

__all__ = ["open_sqlite", "scrub", "store_error"]


def store_error(exc: sqlite3.Error, message: str) -> StoreError:
    """A SQLite failure as medpath's error: a lock held past the busy timeout is ``StoreBusyError`` (503 with
    Retry-After in the API), anything else a ``StoreError``."""
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        return StoreBusyError(f"{message}: another process holds the file (database is locked)")
    return StoreError(f"{message}: {exc}")


def open_sqlite(path: Path | str, schema: str, what: str, wait_s: float = 10.0) -> sqlite3.Connection:
    """Open (or create) a SQLite file shared by threads and processes, and apply ``schema``.

    WAL with ``synchronous=NORMAL`` is durable at checkpoints and never corrupt; a writer waits at most ``wait_s``
    for one in another process (``MEDPATH_STORE_WAIT_S``). ``":memory:"`` works for tests. A failure raises
    StoreError naming ``what``.
    """
    try:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(str(path), check_same_thread=False, timeout=wait_s, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(f"PRAGMA busy_timeout={int(wait_s * 1000)}")
        db.execute("PRAGMA secure_delete=ON")  # deleted rows are overwritten, not left in free pages
        db.executescript(schema)
    except sqlite3.Error as exc:
        raise store_error(exc, f"cannot open {what} {Path(str(path)).name}") from exc
    return db


def scrub(db: sqlite3.Connection, what: str) -> None:
    """After a delete that must leave no trace: move the WAL into the file (secure_delete zeroed the freed
    content there) and truncate the WAL, which still held the old page images."""
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot scrub {what}: {exc}") from exc
