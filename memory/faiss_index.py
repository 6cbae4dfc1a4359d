"""FAISS flat inner-product index with string ids, saved beside a config that names the model."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from core.errors import IndexMismatchError, IndexMissingError, StoreError

__all__ = ["FaissIndex"]


class FaissIndex:
    """Exact cosine search (vectors are unit length), the right choice below ~100k rows."""

    def __init__(self, dim: int, model_id: str) -> None:
        """Create an empty index for vectors of ``dim`` made by ``model_id``."""
        import faiss

        self._dim = dim
        self.model_id = model_id
        self._index = faiss.IndexFlatIP(dim)
        self.ids: list[str] = []

    @property
    def dim(self) -> int:
        """Vector dimension."""
        return self._dim

    def __len__(self) -> int:
        """Number of vectors."""
        return len(self.ids)

    def add(self, ids: Sequence[str], vectors: np.ndarray) -> None:
        """Add vectors with their ids."""
        if vectors.shape != (len(ids), self._dim):
            raise StoreError(f"expected {len(ids)} x {self._dim} vectors, got {vectors.shape}")
        self._index.add(np.ascontiguousarray(vectors, dtype=np.float32))
        self.ids.extend(ids)

    def search(self, vectors: np.ndarray, k: int) -> list[list[tuple[str, float]]]:
        """Top-k ``(id, score)`` per query row."""
        if len(self.ids) == 0 or k <= 0:
            return [[] for _ in range(len(vectors))]
        scores, idx = self._index.search(np.ascontiguousarray(vectors, dtype=np.float32), min(k, len(self.ids)))
        return [
            [(self.ids[j], float(s)) for j, s in zip(row_i, row_s, strict=True) if j >= 0]
            for row_i, row_s in zip(idx, scores, strict=True)
        ]

    def vectors(self) -> np.ndarray:
        """All stored vectors, in id order."""
        if not self.ids:
            return np.zeros((0, self._dim), dtype=np.float32)
        return np.asarray(self._index.reconstruct_n(0, len(self.ids)), dtype=np.float32)

    def save(self, folder: Path) -> None:
        """Write ``dense.faiss``, ``dense_ids.json`` and ``dense_config.json``."""
        import faiss

        folder.mkdir(parents=True, exist_ok=True)
        faiss.write_index(self._index, str(folder / "dense.faiss"))
        (folder / "dense_ids.json").write_text(json.dumps(self.ids))
        (folder / "dense_config.json").write_text(
            json.dumps({"model_id": self.model_id, "dim": self._dim, "count": len(self.ids)})
        )

    @classmethod
    def load(cls, folder: Path, model_id: str, dim: int) -> FaissIndex:
        """Load an index, refusing one built with another model or dimension."""
        import faiss

        cfg_path = folder / "dense_config.json"
        if not cfg_path.exists():
            raise IndexMissingError(f"{folder} has no dense index; run `medpath index build`")
        try:
            cfg = json.loads(cfg_path.read_text())
            if cfg.get("model_id") != model_id or int(cfg.get("dim", -1)) != dim:
                raise IndexMismatchError(
                    f"dense index was built with {cfg.get('model_id')} (dim {cfg.get('dim')}), "
                    f"but the embedder is {model_id} (dim {dim}); rebuild with `medpath index build`"
                )
            inst = cls.__new__(cls)
            inst._dim = dim
            inst.model_id = model_id
            inst._index = faiss.read_index(str(folder / "dense.faiss"))  # type: ignore[assignment]  # a flat IP index, as built
            inst.ids = json.loads((folder / "dense_ids.json").read_text())
        except (OSError, ValueError, RuntimeError) as exc:
            raise StoreError(f"cannot load dense index from {folder}: {exc}") from exc
        if inst._index.ntotal != len(inst.ids) or inst._index.d != dim:
            raise IndexMismatchError(f"dense index in {folder} is inconsistent; rebuild it")
        return inst
