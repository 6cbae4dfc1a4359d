"""mem_index (design §5.4): a hash → row-pointer table, so a subject is found by its id, any alias, or its embedding.

Keys are hashes of the folded text (``id``/``alias``) or a 16-bit SimHash bucket of the
subject's name embedding (``emb``); the pointer is the (owner, subject) slot of the vault and
the episodic store.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import numpy as np

from core.text import fold
from memory.sqlite_db import open_sqlite, scrub

__all__ = ["MemIndex", "index_key", "index_rows", "simhash"]

_BITS = 16


def index_key(text: str) -> str:
    """The mem_index key of an id or alias: a hash of its folded text."""
    return hashlib.sha1(fold(text).encode()).hexdigest()[:16]


@lru_cache(maxsize=8)
def _planes(bits: int, dim: int) -> np.ndarray:
    return np.random.default_rng(20260105).standard_normal((bits, dim)).astype(np.float32)


def simhash(vector: np.ndarray, bits: int = _BITS) -> str:
    """Sign pattern of the vector against fixed random hyperplanes (seeded), as hex."""
    planes = _planes(bits, vector.shape[-1])
    code = 0
    for i, s in enumerate(planes @ vector.astype(np.float32)):
        if s > 0:
            code |= 1 << i
    return f"emb:{code:0{bits // 4}x}"


_SCHEMA = """
CREATE TABLE IF NOT EXISTS mem_index (key TEXT NOT NULL, kind TEXT NOT NULL, owner TEXT NOT NULL,
                                      subj TEXT NOT NULL, PRIMARY KEY (key, owner, subj));
"""


def index_rows(items: Iterable[tuple[str, str, Iterable[str], np.ndarray | None]]) -> list[tuple[str, str, str, str]]:
    """The (key, kind, owner, subj) rows that register (owner, subj, aliases, vector) items."""
    rows = []
    for owner, subj, aliases, vector in items:
        rows.append((index_key(subj), "id", owner, subj))
        rows += [(index_key(a), "alias", owner, subj) for a in aliases if a and fold(a)]
        if vector is not None:
            rows.append((simhash(vector), "emb", owner, subj))
    return rows


class MemIndex:
    """SQLite table ``mem_index(key, kind, owner, subj)``."""

    def __init__(self, path: Path | str, wait_s: float = 10.0) -> None:
        """Open or create the table (``":memory:"`` works for tests; a write waits at most ``wait_s``)."""
        self._lock = threading.Lock()
        self._db = open_sqlite(path, _SCHEMA, "mem_index", wait_s)

    def register(self, owner: str, subj: str, aliases: Iterable[str] = (), vector: np.ndarray | None = None) -> int:
        """Point the subject's id, its aliases and (optionally) its embedding bucket at (owner, subj)."""
        return self.register_many([(owner, subj, aliases, vector)])

    def register_many(self, items: Iterable[tuple[str, str, Iterable[str], np.ndarray | None]]) -> int:
        """``register`` for several (owner, subj, aliases, vector) in one transaction; returns keys offered."""
        rows = index_rows(items)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT OR IGNORE INTO mem_index VALUES (?,?,?,?)", rows)
            self._db.execute("COMMIT")
        return len(rows)

    def lookup(self, owners: Iterable[str], text: str) -> list[str]:
        """Subjects whose id or alias folds to ``text``, for these owners."""
        owners = list(owners)
        if not owners or not fold(text):
            return []
        ph = ",".join("?" * len(owners))
        cur = self._db.execute(f"SELECT DISTINCT subj FROM mem_index WHERE key = ? AND owner IN ({ph}) ORDER BY subj",
                               [index_key(text), *owners])
        return [r[0] for r in cur.fetchall()]

    def lookup_vector(self, owners: Iterable[str], vector: np.ndarray) -> list[str]:
        """Subjects in the same embedding bucket (candidates; the caller verifies similarity)."""
        owners = list(owners)
        if not owners:
            return []
        ph = ",".join("?" * len(owners))
        cur = self._db.execute(f"SELECT DISTINCT subj FROM mem_index WHERE key = ? AND owner IN ({ph}) ORDER BY subj",
                               [simhash(vector), *owners])
        return [r[0] for r in cur.fetchall()]

    def forget(self, owner: str) -> int:
        """Delete one owner's keys."""
        with self._lock:
            n = self._db.execute("DELETE FROM mem_index WHERE owner = ?", (owner,)).rowcount
            scrub(self._db, "memory index")
            return n

    def count(self, owner: str | None = None) -> int:
        """Keys (of one owner, or all)."""
        if owner is None:
            return int(self._db.execute("SELECT count(*) FROM mem_index").fetchone()[0])
        return int(self._db.execute("SELECT count(*) FROM mem_index WHERE owner = ?", (owner,)).fetchone()[0])

    def close(self) -> None:
        """Close the connection."""
        self._db.close()
