"""Open every store from settings, choosing the backend by the URL scheme of ``MEDPATH_DATABASE_URL``.

Nothing set (or a ``file:`` URL) means the embedded backends under the medpath home: DuckDB for the public graph
and the vault, FAISS for vectors, bm25s for text, SQLite for the episodic tier, JSON for the synthetic patients.
A ``postgresql://`` URL puts the graph, the vectors (pgvector), the texts, the vault, mem_index and the gate log
in that database (``memory.pg_*``); ``MEDPATH_REDIS_URL`` puts the episodic tier in Redis
(``memory.redis_episodic``) on either backend. The synthetic patients stay a file in the home.
Code outside ``memory/`` opens stores only through these functions and holds them by their Protocols
(``memory/protocols.py``), so a new backend is one module here plus a branch in :func:`backend`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any
from urllib.parse import urlparse, urlunparse

import numpy as np
from langgraph.checkpoint.base import BaseCheckpointSaver

from core.datasets import Node, Triple
from core.errors import ConfigError, StoreError
from core.pseudonyms import Pseudonyms, load_key
from core.settings import Settings
from memory.bm25_index import BM25Index
from memory.checkpoints import open_pg_checkpoints, open_sqlite_checkpoints
from memory.faiss_index import FaissIndex
from memory.mirix import Memory
from memory.patients import Patient, PatientStore
from memory.patients import write_patients as save_patients
from memory.pg_db import PgDatabase
from memory.pg_graph import PgGraph, write_pg_graph
from memory.pg_memory import PgGateLog, PgMemIndex
from memory.pg_text import PgTextIndex, write_pg_text
from memory.pg_vault import PgVault
from memory.pg_vectors import PgVectorIndex, register_vector, write_pg_vectors
from memory.protocols import GraphStore, PatientGraphStore, TextIndex, VectorIndex
from memory.public_kg import PublicKG, write_public_db
from memory.public_kg import entity_names as public_entity_names
from memory.redis_episodic import RedisEpisodic

__all__ = [
    "BACKENDS",
    "backend",
    "built_keys",
    "entity_names",
    "keyword_index",
    "open_graph",
    "open_memory",
    "open_patients",
    "open_text",
    "open_vectors",
    "record_built",
    "write_graph",
    "write_patients",
    "write_text",
    "write_vectors",
]

BACKENDS = {"": "embedded", "file": "embedded", "postgresql": "postgres", "postgres": "postgres"}
"""URL scheme → backend."""


def backend(settings: Settings) -> str:
    """The backend that ``settings.database_url`` names; a clear ``ConfigError`` for one this build lacks."""
    scheme = urlparse(settings.database_url).scheme.lower() if settings.database_url else ""
    if scheme not in BACKENDS:
        raise ConfigError(f"MEDPATH_DATABASE_URL: no {scheme or settings.database_url!r} backend in this build "
                          f"(known: {', '.join(repr(k or 'unset') for k in BACKENDS)}); unset it for the embedded stores")
    return BACKENDS[scheme]


def _db(settings: Settings, what: str, max_size: int = 4, *, load: bool = False,
        configure: Callable[[Any], None] | None = None) -> PgDatabase:
    """A pool on ``settings.database_url`` for one store (``load``: no statement time limit, for index builds)."""
    return PgDatabase(settings.database_url, what=what, max_size=max_size, timeout_s=max(settings.memory.wait_s, 1.0),
                      statement_timeout_s=0 if load else 30.0, configure=configure)


def built_keys(settings: Settings) -> dict[str, str]:
    """The content key of each component the scale-out database holds, by name (empty on the embedded backend,
    whose files the index manifest checks)."""
    if backend(settings) != "postgres":
        return {}
    with _db(settings, "index build", max_size=1) as db:
        db.execute("CREATE TABLE IF NOT EXISTS public.medpath_build (name TEXT PRIMARY KEY, key TEXT NOT NULL, "
                   "built_at TIMESTAMPTZ NOT NULL DEFAULT now())")
        return {str(n): str(k) for n, k in db.query("SELECT name, key FROM public.medpath_build")}


def record_built(settings: Settings, name: str, key: str) -> None:
    """Record in the scale-out database that component ``name`` holds the data of ``key`` (after its swap)."""
    if backend(settings) != "postgres":
        return
    with _db(settings, "index build", max_size=1) as db:
        db.execute("INSERT INTO public.medpath_build (name, key) VALUES (%s, %s) ON CONFLICT (name) DO UPDATE SET "
                   "key = EXCLUDED.key, built_at = now()", [name, key])


def open_graph(settings: Settings) -> GraphStore:
    """The public knowledge graph."""
    if backend(settings) == "postgres":
        return PgGraph(_db(settings, "graph"))
    return PublicKG.open(settings.index_dir / "public.duckdb")


def write_graph(settings: Settings, nodes: Iterable[Node], triples: Iterable[Triple],
                progress: Callable[[int], None] | None = None) -> int:
    """Replace the public graph with these nodes and triples; returns the number of triples."""
    if backend(settings) == "postgres":
        with _db(settings, "graph", load=True) as db:
            return write_pg_graph(db, nodes, triples, progress)
    return write_public_db(settings.index_dir / "public.duckdb", nodes, triples)


def entity_names(settings: Settings, ids: Iterable[str]) -> dict[str, str]:
    """Names of these entity ids, without loading the graph (ids that are not entities, or no graph, left out)."""
    if backend(settings) != "postgres":
        return public_entity_names(settings.index_dir / "public.duckdb", ids)
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    with _db(settings, "graph", max_size=1) as db:
        try:
            rows = db.query("SELECT id, name FROM kg.entities WHERE id = ANY(%s)", [wanted])
        except StoreError:
            return {}  # no graph loaded there yet
    return {str(i): str(n) for i, n in rows if n and n != i}


def open_vectors(settings: Settings, model_id: str, dim: int) -> VectorIndex:
    """The dense index of entity, triple and sentence texts (refused when built with another embedder)."""
    if backend(settings) == "postgres":
        return PgVectorIndex(_db(settings, "dense index", configure=register_vector), model_id, dim)
    return FaissIndex.load(settings.index_dir, model_id, dim)


def write_vectors(settings: Settings, ids: Sequence[str], vectors: np.ndarray, model_id: str, dim: int) -> None:
    """Replace the dense index."""
    if backend(settings) == "postgres":
        with _db(settings, "dense index", load=True) as db:
            write_pg_vectors(db, ids, vectors, model_id, dim)
        return
    index = FaissIndex(dim, model_id)
    index.add(ids, vectors)
    index.save(settings.index_dir)


def keyword_index(ids: Sequence[str], texts: Sequence[str]) -> TextIndex:
    """A BM25 index built in memory over a few texts and never saved, on every backend (the 500 bundled abstracts
    of ``tools.literature`` index in about 70 ms)."""
    return BM25Index(ids, texts)


def open_text(settings: Settings) -> TextIndex:
    """The BM25 index over triple and sentence texts."""
    if backend(settings) == "postgres":
        return PgTextIndex(_db(settings, "text index", max_size=1))
    return BM25Index.load(settings.index_dir)


def write_text(settings: Settings, ids: Sequence[str], texts: Sequence[str]) -> None:
    """Replace the BM25 index."""
    if backend(settings) == "postgres":
        with _db(settings, "text index", max_size=1, load=True) as db:
            write_pg_text(db, ids, texts)
        return
    BM25Index(ids, texts).save(settings.index_dir)


def open_memory(settings: Settings, pseudonym: Callable[[str], str] | None = None) -> Memory:
    """MIRIX-Slim memory: episodic tier, vault, memory index and gate log (owners pseudonymised with the home's key
    unless ``pseudonym`` is given)."""
    kind = backend(settings)
    pseudonym = pseudonym or Pseudonyms(load_key(settings.home))
    episodic = RedisEpisodic(settings.redis_url, settings.memory.ttl_s) if settings.redis_url else None
    if kind != "postgres":
        return Memory(settings.memory_dir, settings.memory, pseudonym, episodic=episodic)
    db = _db(settings, "memory", max_size=8)
    return Memory(settings.memory_dir, settings.memory, pseudonym, episodic=episodic,
                  vault=PgVault(db, settings.memory.vault_max_rows, pseudonym), index=PgMemIndex(db), gate_log=PgGateLog(db))


def open_checkpoints(settings: Settings, serde: Any) -> BaseCheckpointSaver[Any]:
    """LangGraph's checkpointer: PostgreSQL on the scale-out backend, else ``settings.checkpoint_db``."""
    if backend(settings) == "postgres":
        return open_pg_checkpoints(settings.database_url, serde, max(settings.memory.wait_s, 1.0))
    return open_sqlite_checkpoints(settings.checkpoint_db, serde)


def fresh_database(server_url: str, name: str) -> str:
    """Create (or empty) database ``name`` on the PostgreSQL server of ``server_url``; returns its URL."""
    drop_database(server_url, name)
    with PgDatabase(server_url, what="database setup", max_size=1, statement_timeout_s=0) as db:
        db.execute(f"CREATE DATABASE {name}")
    parts = urlparse(server_url)
    return urlunparse((parts.scheme, parts.netloc, f"/{name}", parts.params, parts.query, parts.fragment))


def drop_database(server_url: str, name: str) -> None:
    """Drop database ``name`` on the PostgreSQL server of ``server_url`` (no error when it is not there)."""
    if not name.isidentifier():
        raise ConfigError(f"not a database name: {name!r}")
    with PgDatabase(server_url, what="database setup", max_size=1, statement_timeout_s=0) as db:
        db.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def write_patients(settings: Settings, patients: list[Patient], seed: int) -> None:
    """Replace the synthetic patients."""
    backend(settings)
    save_patients(patients, settings.patients_path, seed)


def open_patients(settings: Settings) -> PatientGraphStore:
    """The synthetic patients (``NotFoundError`` or ``DataError`` when the file is missing or broken)."""
    backend(settings)
    return PatientStore.load(settings.patients_path)
