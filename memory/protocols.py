"""Small typed Protocols every store backend implements (graph, vector, text, memory tiers, patients)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

__all__ = ["Edge", "Entity", "EpisodicTier", "GraphStore", "PatientGraphStore", "TextIndex", "VaultTier", "VectorIndex"]

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class Entity:
    """A KG node."""

    id: str
    name: str
    type: str


class Edge(NamedTuple):
    """A directed, typed KG edge (a named tuple: hashed and compared in C, and small, for walks over big graphs)."""

    head: str
    relation: str
    tail: str


@runtime_checkable
class GraphStore(Protocol):
    """Read access to the public knowledge graph (shaped by the walker, the ranker, the linker and PageRank)."""

    @property
    def entities(self) -> Mapping[str, Entity]:
        """Every entity by id."""
        ...

    @property
    def aliases(self) -> Mapping[str, tuple[str, ...]]:
        """Other names of an entity, by id."""
        ...

    @property
    def relations(self) -> Sequence[str]:
        """The relation names that occur, sorted."""
        ...

    def node(self, entity_id: str) -> Entity | None:
        """Return the entity, or None when the id is unknown."""
        ...

    def out_edges(self, entity_id: str) -> Sequence[Edge]:
        """Edges leaving the entity."""
        ...

    def in_edges(self, entity_id: str) -> Sequence[Edge]:
        """Edges entering the entity."""
        ...

    def degree(self, entity_id: str) -> int:
        """In plus out degree."""
        ...

    def has_edge(self, head: str, relation: str, tail: str) -> bool:
        """True when the triple is in the graph."""
        ...

    def neighbours(self, entity_ids: Iterable[str], direction: str = "out") -> dict[str, Sequence[Edge]]:
        """One hop for a batch of entities (one round trip on a remote store); ``direction`` is out or in."""
        ...

    def subgraph(self, seeds: Iterable[str], hops: int, max_edges: int = 10_000) -> list[Edge]:
        """Edges within ``hops`` of the seeds, both directions, breadth first, at most ``max_edges``."""
        ...

    def name(self, entity_id: str) -> str:
        """Display name (the id when unknown)."""
        ...

    def lookup(self, text: str) -> list[Entity]:
        """Entities whose id, name or alias is ``text``."""
        ...

    def entity_ids(self) -> list[str]:
        """Every entity id, in the store's order."""
        ...

    def edges(self) -> Iterator[Edge]:
        """Every triple once, in the store's fixed order."""
        ...

    def __len__(self) -> int:
        """Number of triples."""
        ...


@runtime_checkable
class VectorIndex(Protocol):
    """Nearest-neighbour search over unit vectors (inner product)."""

    @property
    def ids(self) -> Sequence[str]:
        """The id of each stored vector, in row order."""
        ...

    @property
    def dim(self) -> int:
        """Vector dimension."""
        ...

    def vectors(self) -> np.ndarray:
        """Every stored vector, in row order."""
        ...

    def add(self, ids: Sequence[str], vectors: np.ndarray) -> None:
        """Add vectors with their ids."""
        ...

    def search(self, vectors: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        """Top-k ``(id, score)`` per query row."""
        ...

    def save(self, folder: Path) -> None:
        """Write the index to a folder."""
        ...


@runtime_checkable
class TextIndex(Protocol):
    """Keyword (BM25) search over short texts."""

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        """Top-k ``(id, score)`` for a query; empty for an empty query."""
        ...

    def save(self, folder: Path) -> None:
        """Write the index to a folder."""
        ...


@runtime_checkable
class EpisodicTier(Protocol):
    """Short-lived per-user, per-thread facts with a TTL."""

    def add(self, facts: Sequence[Any], now: float | None = None) -> int:
        """Insert facts; returns rows written."""
        ...

    def by_subject(self, owner: str, subj: str, now: float | None = None) -> list[Any]:
        """Live facts of one owner about a subject."""
        ...

    def add_many(self, pairs: Iterable[tuple[Any, float]]) -> int:
        """Insert (fact, creation time) pairs in one go; returns rows written."""
        ...

    def recent(self, owner: str, thread: str | None = None, limit: int = 50, now: float | None = None) -> list[Any]:
        """Live facts of one owner (optionally one thread), newest first."""
        ...

    def count(self, owner: str | None = None, now: float | None = None) -> int:
        """Live rows (of one owner, or all)."""
        ...

    def sweep(self, now: float | None = None) -> int:
        """Drop expired rows; returns how many."""
        ...

    def owners(self) -> list[str]:
        """Owners with at least one row."""
        ...

    def forget(self, owner: str) -> int:
        """Delete one owner's rows."""
        ...


@runtime_checkable
class VaultTier(Protocol):
    """Long-term, quality-gated, time-aware facts."""

    def add(self, facts: Sequence[Any], *, supersede: bool = False, now: float | None = None) -> Any:
        """Insert accepted facts; ``supersede`` closes the slot's other open values."""
        ...

    def current(self, owners: Sequence[str], subj: str, rel: str | None = None, *, as_of: float | None = None) -> list[Any]:
        """Facts valid and recorded at ``as_of``."""
        ...

    def prune(self, max_rows: int | None = None, now: float | None = None) -> int:
        """LRU-prune above the cap."""
        ...

    def forget(self, owner: str) -> int:
        """Delete one owner's rows."""
        ...


@runtime_checkable
class PatientGraphStore(Protocol):
    """Patients and their facts, read-only, with consent applied by the reader (``memory.patients.PatientStore``)."""

    patients: dict[str, Any]
    """Patients by id."""

    def get(self, patient_id: str) -> Any:
        """One patient; ``NotFoundError`` when unknown."""
        ...

    def visible(self, patient_id: str, categories: tuple[str, ...] = ...) -> tuple[list[Any], int]:
        """Facts of these categories that consent allows, and how many were withheld."""
        ...

    def note_hits(self, patient_id: str, query: str, k: int = 5) -> tuple[list[tuple[Any, float]], int]:
        """The patient's notes ranked for a query (consent applied), and how many were withheld."""
        ...
