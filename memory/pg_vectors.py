"""Dense vectors in PostgreSQL with pgvector: an HNSW index on inner product, the model named beside the rows.

``dense.vectors`` holds (pos, id, embedding); ``dense.config`` the model id and dimension, checked at open the way
``FaissIndex.load`` checks its config file. Vectors are unit length, so inner product is cosine. HNSW is
approximate: ``bench/bench_pgvector_recall.py`` measures its recall against FAISS Flat on the real embeddings.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import ConfigError, IndexMismatchError, IndexMissingError, StoreError
from memory.pg_db import PgDatabase


def register_vector(con: Any) -> None:
    """pgvector's types on this connection (imported on first use, as psycopg); none in a database without the
    extension, where no dense index was built, so that opening one there says so at once. (A pool hook that failed
    on every new connection kept the pool retrying until its timeout: "did not answer in 10 s".)"""
    try:
        from pgvector.psycopg import register_vector as register
        from psycopg.types import TypeInfo
    except ImportError as exc:
        raise ConfigError("the PostgreSQL backend needs pgvector: pip install 'medpath[postgres]'") from exc
    if TypeInfo.fetch(con, "vector") is not None:
        register(con)

__all__ = ["PgVectorIndex", "write_pg_vectors"]

EF_SEARCH = 200
"""HNSW candidate list per query (pgvector's default is 40): Recall@10 0.993 against FAISS Flat at 1.4 ms a query
(``bench/bench_pgvector_recall.py``; 0.916 at 40, 0.982 at 100). A search for k rows uses at least 4·k (at most
1,000): the dense back-off fetches 8 × k rows to keep one kind of text, and at 200 those deep rows were missed
(the dense-only baseline's "what does X target" accuracy was 0.87 against FAISS's 0.96; 0.94 at 4·k)."""


def _ensure(db: PgDatabase) -> None:
    db.execute("CREATE EXTENSION IF NOT EXISTS vector")


def write_pg_vectors(db: PgDatabase, ids: Sequence[str], vectors: np.ndarray, model_id: str, dim: int) -> None:
    """Replace the dense rows by COPY into a new schema, build HNSW, and swap it in with one transaction."""
    if vectors.shape != (len(ids), dim):
        raise StoreError(f"expected {len(ids)} x {dim} vectors, got {vectors.shape}")
    _ensure(db)
    with db.connection() as con:
        register_vector(con)
        con.execute("DROP SCHEMA IF EXISTS dense_load CASCADE")
        con.execute("CREATE SCHEMA dense_load")
        con.execute(f"CREATE TABLE dense_load.vectors (pos INTEGER PRIMARY KEY, id TEXT NOT NULL, embedding vector({dim}) NOT NULL)")
        con.execute("CREATE TABLE dense_load.config (model_id TEXT NOT NULL, dim INTEGER NOT NULL)")
        con.execute("INSERT INTO dense_load.config VALUES (%s, %s)", [model_id, dim])
        with con.cursor() as cur, cur.copy("COPY dense_load.vectors (pos, id, embedding) FROM STDIN WITH (FORMAT BINARY)") as copy:
            copy.set_types(["int4", "text", "vector"])
            for i, (key, vec) in enumerate(zip(ids, np.asarray(vectors, dtype=np.float32), strict=True)):
                copy.write_row((i, key, vec))
        con.execute("SET maintenance_work_mem = '512MB'")
        con.execute("CREATE INDEX ON dense_load.vectors USING hnsw (embedding vector_ip_ops) WITH (m = 16, ef_construction = 64)")
        with con.transaction():
            con.execute("DROP SCHEMA IF EXISTS dense CASCADE")
            con.execute("ALTER SCHEMA dense_load RENAME TO dense")


class PgVectorIndex:
    """``VectorIndex`` over ``dense.vectors``."""

    def __init__(self, db: PgDatabase, model_id: str, dim: int) -> None:
        """Open the rows, refusing ones made by another model or dimension. ``db``'s connections must know the
        vector type (``PgDatabase(..., configure=register_vector)``: once per connection, not once per search)."""
        self.db, self.model_id, self._dim = db, model_id, dim
        if not db.query("SELECT 1 FROM information_schema.tables WHERE table_schema = 'dense' AND table_name = 'config'"):
            raise IndexMissingError("no dense index in this database; run `medpath index build --database URL`")
        cfg = db.query("SELECT model_id, dim FROM dense.config")
        if not cfg or cfg[0][0] != model_id or int(cfg[0][1]) != dim:
            built = cfg[0] if cfg else ("nothing", "?")
            raise IndexMismatchError(f"dense index was built with {built[0]} (dim {built[1]}), but the embedder is "
                                     f"{model_id} (dim {dim}); rebuild with `medpath index build --database URL`")
        self.ids: list[str] = [i for (i,) in db.query("SELECT id FROM dense.vectors ORDER BY pos")]

    @property
    def dim(self) -> int:
        """Vector dimension."""
        return self._dim

    def __len__(self) -> int:
        """Number of vectors."""
        return len(self.ids)

    def add(self, ids: Sequence[str], vectors: np.ndarray) -> None:
        """Append vectors with their ids (written at once; the HNSW index takes them in)."""
        if vectors.shape != (len(ids), self._dim):
            raise StoreError(f"expected {len(ids)} x {self._dim} vectors, got {vectors.shape}")
        start = len(self.ids)
        with self.db.transaction() as con, con.cursor() as cur:
            cur.executemany("INSERT INTO dense.vectors (pos, id, embedding) VALUES (%s, %s, %s)",
                            [(start + i, k, v) for i, (k, v) in enumerate(zip(ids, np.asarray(vectors, dtype=np.float32), strict=True))])
        self.ids.extend(ids)

    def search(self, vectors: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        """Top-k ``(id, score)`` per query row (HNSW, inner product)."""
        if not self.ids or k <= 0:
            return [[] for _ in range(len(vectors))]
        out = []
        with self.db.connection() as con:
            con.execute(f"SET hnsw.ef_search = {min(max(EF_SEARCH, 4 * int(k)), 1000)}")  # deep fetches need a wider list
            for q in np.asarray(vectors, dtype=np.float32):
                rows = con.execute("SELECT id, -(embedding <#> %s) FROM dense.vectors ORDER BY embedding <#> %s LIMIT %s",
                                   [q, q, int(k)]).fetchall()
                out.append([(i, float(s)) for i, s in rows])
        return out

    def vectors(self) -> np.ndarray:
        """Every stored vector, in row order."""
        # in pgvector's binary form: the text form took 2 s here, the binary one 0.3 s
        with self.db.connection() as con, con.cursor(binary=True) as cur:
            rows = cur.execute("SELECT embedding FROM dense.vectors ORDER BY pos").fetchall()
        if not rows:
            return np.zeros((0, self._dim), dtype=np.float32)
        return np.stack([r[0].to_numpy() for r in rows]).astype(np.float32)

    def save(self, folder: Path) -> None:
        """Nothing to do: every ``add`` is already committed (the folder is not used)."""
