"""The one retrieval vocabulary: the names of the stores a question can consult.

The IMM router's rules (``router.yaml``), the hybrid retrieval service's routes (``tools/routes.py``), the
Retriever node and the traces all use these names.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ALIASES", "ROUTABLE", "StoreName"]


class StoreName(StrEnum):
    """A store of the retrieval stack."""

    GRAPH = "graph"
    """The public knowledge graph (the walker's store)."""
    PATIENT = "patient"
    """The synthetic patients' graph (consent applied)."""
    EPISODIC = "episodic"
    """The per-user, per-thread scratch-pad with a TTL."""
    VAULT = "vault"
    """The Reviewer-vetted, time-aware long-term memory."""
    BM25 = "bm25"
    """Keyword search over triple and sentence texts."""
    DENSE = "dense"
    """FAISS search over the same texts and entity names."""
    NOTES = "notes"
    """The patient's clinical notes."""
    ENRICH = "enrich"
    """One hop of the graph around the question's entities, for text questions."""
    AGGREGATE = "aggregate"
    """Cohort counts over consenting patients."""


ROUTABLE = (StoreName.EPISODIC, StoreName.VAULT, StoreName.GRAPH, StoreName.DENSE)
"""The stores the IMM router's rules choose among."""

ALIASES = {"public": StoreName.GRAPH}
"""Older names a rules file may still use."""
