"""BM25 keyword index (``bm25s``) over short texts with string ids."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from core.errors import IndexMissingError, StoreError

__all__ = ["BM25Index", "tokenize"]

_TOKEN = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "does", "do", "for", "from", "how", "in", "is", "it", "of", "on", "or", "that", "the", "this", "to", "what", "which", "with", "why"]
)


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens without stop words."""
    return [t for t in _TOKEN.findall(text.casefold()) if t not in _STOP]


class BM25Index:
    """Okapi BM25 over a fixed corpus."""

    def __init__(self, ids: Sequence[str], texts: Sequence[str]) -> None:
        """Index the texts."""
        import bm25s

        if len(ids) != len(texts):
            raise StoreError("ids and texts differ in length")
        self.ids = list(ids)
        self._bm25 = bm25s.BM25()
        self._bm25.index([tokenize(t) for t in texts], show_progress=False)

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        """Top-k ``(id, score)``; empty for a query with no indexed words."""
        toks = tokenize(query)
        if not toks or not self.ids or k <= 0:
            return []
        vocab = self._bm25.vocab_dict
        toks = [t for t in toks if t in vocab]
        if not toks:
            return []
        # get_scores, not retrieve(): retrieve() builds a tqdm bar even when hidden, and tqdm's lock
        # creation deadlocks in a worker thread of `langgraph dev`'s spawned server (the Studio resume hang).
        scores = self._bm25.get_scores(toks)
        k = min(k, len(self.ids))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.lexsort((top, -scores[top]))]
        return [(self.ids[int(d)], float(scores[d])) for d in top if scores[d] > 0]

    def save(self, folder: Path) -> None:
        """Write the index under ``folder/bm25``."""
        folder.mkdir(parents=True, exist_ok=True)
        self._bm25.save(str(folder / "bm25"))
        (folder / "bm25_ids.json").write_text(json.dumps(self.ids))

    @classmethod
    def load(cls, folder: Path) -> BM25Index:
        """Load a saved index."""
        import bm25s

        if not (folder / "bm25_ids.json").exists():
            raise IndexMissingError(f"{folder} has no BM25 index; run `medpath index build`")
        inst = cls.__new__(cls)
        try:
            inst._bm25 = bm25s.BM25.load(str(folder / "bm25"))
            inst.ids = json.loads((folder / "bm25_ids.json").read_text())
        except (OSError, ValueError) as exc:
            raise StoreError(f"cannot load BM25 index from {folder}: {exc}") from exc
        return inst
