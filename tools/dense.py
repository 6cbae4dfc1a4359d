"""Dense search over the FAISS index, and seed injection when the walk starves (design §5.2.1)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from core.errors import DenseUnavailableError
from memory.protocols import VectorIndex
from tools.linker import EntityLinker

__all__ = ["DenseHit", "DenseSearch", "Seed", "inject_seeds"]


@dataclass(frozen=True)
class DenseHit:
    """One dense search result."""

    id: str
    score: float
    kind: str
    text: str
    meta: dict[str, str]


@dataclass(frozen=True)
class Seed:
    """An entity injected into the walk from a dense hit."""

    entity_id: str
    similarity: float
    source: str


class DenseSearch:
    """Top-k search over textualized triples, entity names and PubMedQA sentences."""

    def __init__(self, index: VectorIndex, docs: dict[str, dict[str, str]], embed: Callable[[Sequence[str]], np.ndarray]) -> None:
        """Bind the index, its documents and the embedder."""
        self.index = index
        self.docs = docs
        self.embed = embed
        self.fault: Exception | None = None
        """When set, every search raises it (fault injection for outage drills)."""

    def search(self, query: str | np.ndarray, k: int = 10, kinds: Sequence[str] | None = None) -> list[DenseHit]:
        """Top-k hits, optionally of some kinds only; raises DenseUnavailableError when down."""
        if self.fault is not None:
            raise DenseUnavailableError(f"dense search failed: {self.fault}") from self.fault
        try:
            vec = self.embed([query])[0] if isinstance(query, str) else query
            fetch = k if not kinds else k * 8
            rows = self.index.search(np.asarray(vec, dtype=np.float32)[None, :], fetch)[0]
        except DenseUnavailableError:
            raise
        except Exception as exc:
            raise DenseUnavailableError(f"dense search failed: {exc}") from exc
        hits = []
        for doc_id, score in rows:
            d = self.docs.get(doc_id)
            if d is None or (kinds and d["kind"] not in kinds):
                continue
            hits.append(DenseHit(doc_id, score, d["kind"], d["text"], d))
            if len(hits) >= k:
                break
        return hits


def inject_seeds(
    hits: Sequence[DenseHit],
    linker: EntityLinker,
    name_similarity: Callable[[Sequence[str], Sequence[str]], np.ndarray],
    *,
    exclude: set[str],
    threshold: float = 0.7,
    max_seeds: int = 5,
) -> list[Seed]:
    """Map mentions in dense hits to entities (similarity ≥ threshold) and keep at most ``max_seeds``.

    Args:
        hits: dense hits, best first.
        linker: finds alias mentions inside sentences.
        name_similarity: cosine between each mention and the canonical name of its entity.
        exclude: entities already seeded.
        threshold: minimum mention-to-entity similarity.
        max_seeds: cap on injected seeds.
    """
    proposals: list[tuple[str, str, str]] = []  # (mention, entity id, hit id) in hit order
    for h in hits:
        if h.kind == "entity":
            proposals.append((h.text, h.meta["entity_id"], h.id))
        elif h.kind == "triple":
            for eid in (h.meta["head"], h.meta["tail"]):
                ent = linker.entities.get(eid)
                if ent:
                    proposals.append((ent.name, eid, h.id))
        else:
            for mention, cands in linker.scan(h.text):
                for c in cands[:1]:
                    proposals.append((mention, c.id, h.id))
    proposals = [p for p in proposals if p[1] not in exclude]
    if not proposals:
        return []
    sims = name_similarity([p[0] for p in proposals], [p[1] for p in proposals])
    seeds: dict[str, Seed] = {}
    for (_, eid, hid), sim in zip(proposals, sims, strict=True):
        if sim >= threshold and eid not in seeds:
            seeds[eid] = Seed(eid, float(sim), hid)
        if len(seeds) >= max_seeds:
            break
    return list(seeds.values())
