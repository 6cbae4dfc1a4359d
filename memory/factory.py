"""Open every store from settings, choosing the backend by the URL scheme of ``MEDPATH_DATABASE_URL``.

Nothing set (or a ``file:`` URL) means the embedded backends under the medpath home: DuckDB for the public graph
and the vault, FAISS for vectors, bm25s for text, SQLite for the episodic tier, JSON for the synthetic patients.
Code outside ``memory/`` opens stores only through these functions and holds them by their Protocols
(``memory/protocols.py``), so a new backend is one module here plus a branch in :func:`backend`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from urllib.parse import urlparse

import numpy as np

from core.datasets import Node, Triple
from core.errors import ConfigError
from core.pseudonyms import Pseudonyms, load_key
from core.settings import Settings
from memory.bm25_index import BM25Index
from memory.faiss_index import FaissIndex
from memory.mirix import Memory
from memory.patients import Patient, PatientStore
from memory.patients import write_patients as save_patients
from memory.protocols import GraphStore, PatientGraphStore, TextIndex, VectorIndex
from memory.public_kg import PublicKG, write_public_db

__all__ = ["BACKENDS", "backend", "open_graph", "open_memory", "open_patients", "open_text", "open_vectors",
           "write_graph", "write_patients", "write_text", "write_vectors"]

BACKENDS = {"": "embedded", "file": "embedded"}
"""URL scheme → backend. PostgreSQL with pgvector and Redis are the scale-out backends still to come."""


def backend(settings: Settings) -> str:
    """The backend that ``settings.database_url`` names; a clear ``ConfigError`` for one this build lacks."""
    scheme = urlparse(settings.database_url).scheme.lower() if settings.database_url else ""
    if scheme not in BACKENDS:
        raise ConfigError(f"MEDPATH_DATABASE_URL: no {scheme or settings.database_url!r} backend in this build "
                          f"(known: {', '.join(repr(k or 'unset') for k in BACKENDS)}); unset it for the embedded stores")
    return BACKENDS[scheme]


def open_graph(settings: Settings) -> GraphStore:
    """The public knowledge graph."""
    backend(settings)
    return PublicKG.open(settings.index_dir / "public.duckdb")


def write_graph(settings: Settings, nodes: Iterable[Node], triples: Iterable[Triple]) -> int:
    """Replace the public graph with these nodes and triples; returns the number of triples."""
    backend(settings)
    return write_public_db(settings.index_dir / "public.duckdb", nodes, triples)


def open_vectors(settings: Settings, model_id: str, dim: int) -> VectorIndex:
    """The dense index of entity, triple and sentence texts (refused when built with another embedder)."""
    backend(settings)
    return FaissIndex.load(settings.index_dir, model_id, dim)


def write_vectors(settings: Settings, ids: Sequence[str], vectors: np.ndarray, model_id: str, dim: int) -> None:
    """Replace the dense index."""
    backend(settings)
    index = FaissIndex(dim, model_id)
    index.add(ids, vectors)
    index.save(settings.index_dir)


def open_text(settings: Settings) -> TextIndex:
    """The BM25 index over triple and sentence texts."""
    backend(settings)
    return BM25Index.load(settings.index_dir)


def write_text(settings: Settings, ids: Sequence[str], texts: Sequence[str]) -> None:
    """Replace the BM25 index."""
    backend(settings)
    BM25Index(ids, texts).save(settings.index_dir)


def open_memory(settings: Settings, pseudonym: Callable[[str], str] | None = None) -> Memory:
    """MIRIX-Slim memory: episodic tier, vault, memory index and gate log (owners pseudonymised with the home's key
    unless ``pseudonym`` is given)."""
    backend(settings)
    return Memory(settings.memory_dir, settings.memory, pseudonym or Pseudonyms(load_key(settings.home)))


def write_patients(settings: Settings, patients: list[Patient], seed: int) -> None:
    """Replace the synthetic patients."""
    backend(settings)
    save_patients(patients, settings.patients_path, seed)


def open_patients(settings: Settings) -> PatientGraphStore:
    """The synthetic patients (``NotFoundError`` or ``DataError`` when the file is missing or broken)."""
    backend(settings)
    return PatientStore.load(settings.patients_path)
