"""Keyword search on PostgreSQL: the texts are rows (``text.docs``), ranked by the same bm25s index as embedded.

A reader builds the BM25 index from the rows when it opens, so both backends rank alike (PostgreSQL's
``ts_rank`` is not BM25 and would change the answers); building it over the DrugMechDB texts takes well under a
second. The rows are swapped in with one transaction, as the graph's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from core.errors import IndexMissingError, StoreError
from memory.bm25_index import BM25Index
from memory.pg_db import PgDatabase

__all__ = ["PgTextIndex", "write_pg_text"]


def write_pg_text(db: PgDatabase, ids: Sequence[str], texts: Sequence[str]) -> None:
    """Replace the texts."""
    if len(ids) != len(texts):
        raise StoreError("ids and texts differ in length")
    with db.connection() as con:
        con.execute("DROP SCHEMA IF EXISTS text_load CASCADE")
        con.execute("CREATE SCHEMA text_load")
        con.execute("CREATE TABLE text_load.docs (pos INTEGER PRIMARY KEY, id TEXT NOT NULL, body TEXT NOT NULL)")
        with con.cursor() as cur, cur.copy("COPY text_load.docs (pos, id, body) FROM STDIN") as copy:
            for i, (key, body) in enumerate(zip(ids, texts, strict=True)):
                copy.write_row((i, key, body))
        with con.transaction():
            con.execute("DROP SCHEMA IF EXISTS text CASCADE")
            con.execute("ALTER SCHEMA text_load RENAME TO text")


class PgTextIndex:
    """``TextIndex`` over ``text.docs``."""

    def __init__(self, db: PgDatabase) -> None:
        """Read the rows and index them; the pool is closed afterwards (searches run in this process)."""
        try:
            if not db.query("SELECT 1 FROM information_schema.tables WHERE table_schema = 'text' AND table_name = 'docs'"):
                raise IndexMissingError("no texts in this database; run `medpath index build --database URL`")
            rows = db.query("SELECT id, body FROM text.docs ORDER BY pos")
        finally:
            db.close()
        self._index = BM25Index([r[0] for r in rows], [r[1] for r in rows])

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        """Top-k ``(id, score)``; empty for a query with no indexed words."""
        return self._index.search(query, k)

    def save(self, folder: Path) -> None:
        """Nothing to do: the rows are the index (the folder is not used)."""
