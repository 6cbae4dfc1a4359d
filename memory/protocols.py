"""Small typed Protocols every store backend implements (graph, vector, text)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

__all__ = ["Edge", "Entity", "GraphStore", "TextIndex", "VectorIndex"]


@dataclass(frozen=True)
class Entity:
    """A KG node."""

    id: str
    name: str
    type: str


@dataclass(frozen=True)
class Edge:
    """A directed, typed KG edge."""

    head: str
    relation: str
    tail: str


@runtime_checkable
class GraphStore(Protocol):
    """Read access to the public knowledge graph."""

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


@runtime_checkable
class VectorIndex(Protocol):
    """Nearest-neighbour search over unit vectors (inner product)."""

    @property
    def dim(self) -> int:
        """Vector dimension."""
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
