"""``medpath index build|status``: idempotent builds of the KG, dense, BM25 and model files."""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

import numpy as np
from tqdm import tqdm

from core.datasets import Node, Triple, file_hash, load_nodes, load_passages, load_triples, sentences
from core.errors import DataError
from core.settings import Settings
from medpath.training import train_models
from memory.factory import backend, built_keys, record_built, write_graph, write_text, write_vectors
from tools.embedder import Embedder, make_embedder

__all__ = ["BuildReport", "ComponentStatus", "build_index", "dense_documents", "index_status", "triple_text"]

# Bump when the way a component is derived changes, so old outputs are rebuilt.
FORMAT_VERSION = {"public": 3, "dense": 1, "bm25": 1, "models": 14}


class ComponentStatus(StrEnum):
    """What a build did with one component."""

    BUILT = "built"
    SKIPPED = "skipped"
    MISSING = "missing"
    STALE = "stale"
    READY = "ready"


@dataclass
class BuildReport:
    """Outcome of one ``index build``."""

    components: dict[str, ComponentStatus] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def triple_text(head_name: str, relation: str, tail_name: str) -> str:
    """Textualize a triple the way the dense and BM25 indexes see it."""
    return f"{head_name} {relation} {tail_name}"


def dense_documents(
    nodes: list[Node], triples: list[Triple], passages_path: Path | None
) -> dict[str, dict[str, str]]:
    """All dense items: textualized triples, entity names and aliases, PubMedQA sentences."""
    names = {n.id: n.name for n in nodes}
    docs: dict[str, dict[str, str]] = {}
    for t in triples:
        text = triple_text(names.get(t.head, t.head), t.relation, names.get(t.tail, t.tail))
        docs[t.id] = {"kind": "triple", "text": text, "head": t.head, "rel": t.relation, "tail": t.tail}
    for n in nodes:
        for alias in (n.name, *n.aliases):
            key = "entity-" + hashlib.sha1(f"{n.id}\x1f{alias}".encode()).hexdigest()[:16]
            docs[key] = {"kind": "entity", "text": alias, "entity_id": n.id}
    if passages_path is not None and passages_path.exists():
        for p in load_passages(passages_path):
            for s in sentences(p.text):
                if len(s) < 20:
                    continue
                key = "chunk-" + hashlib.sha1(s.encode()).hexdigest()[:16]
                docs[key] = {"kind": "sentence", "text": s, "pmid": p.pmid, "passage": p.id, "title": p.title}
    return docs


class _Manifest:
    def __init__(self, folder: Path) -> None:
        self.path = folder / "manifest.json"
        try:
            self.data: dict[str, dict[str, object]] = json.loads(self.path.read_text()) if self.path.exists() else {}
        except (OSError, ValueError):
            self.data = {}

    def fresh(self, name: str, key: str, *files: Path) -> bool:
        entry = self.data.get(name, {})
        return entry.get("key") == key and all(f.exists() for f in files)

    def record(self, name: str, key: str, **info: object) -> None:
        self.data[name] = {"key": key, "built_at": time.strftime("%Y-%m-%dT%H:%M:%S"), **info}
        self.path.write_text(json.dumps(self.data, indent=1, sort_keys=True))


_FILES = {
    "public": (("public.duckdb",), ()),
    "dense": (("dense.faiss", "dense_config.json"), ("dense_docs.json",)),
    "bm25": (("bm25_ids.json",), ()),
    "models": ((), ("models.json",)),
}
"""Per component: the files its embedded store writes in the index folder, and those it writes there on every
backend. On PostgreSQL the first kind is rows in the database, which records each component's key."""


def _files(settings: Settings, name: str) -> list[str]:
    store, home = _FILES[name]
    return list(home) if backend(settings) == "postgres" else [*store, *home]


def _built(settings: Settings, manifest: _Manifest, db_keys: dict[str, str], name: str, key: str) -> bool:
    """Whether component ``name`` is built from ``key``: the manifest's key and its files; on PostgreSQL, for what
    the database holds, the key the database records (so a new or emptied database is built)."""
    files = [settings.index_dir / f for f in _files(settings, name)]
    if backend(settings) == "postgres" and _FILES[name][0]:
        return db_keys.get(name) == key and all(f.exists() for f in files)
    return manifest.fresh(name, key, *files)


def _fresh(b: _Build, name: str, key: str) -> bool:
    """``_built`` for the component of a running build."""
    return _built(b.settings, b.manifest, b.db_keys, name, key)


def _key(name: str, *parts: str) -> str:
    return hashlib.sha256("|".join((name, str(FORMAT_VERSION[name]), *parts)).encode()).hexdigest()[:24]


def _embed_with_cache(
    folder: Path, embedder: object, texts: list[str], progress: Callable[[int], None]
) -> np.ndarray:
    """Embed texts, reusing vectors of unchanged texts from ``embeddings.npy``."""
    model_id = embedder.model_id  # type: ignore[attr-defined]
    keys = [hashlib.sha1(f"{model_id}\x1f{t}".encode()).hexdigest() for t in texts]
    cache: dict[str, np.ndarray] = {}
    kpath, vpath = folder / "embedding_keys.json", folder / "embeddings.npy"
    if kpath.exists() and vpath.exists():
        try:
            old_keys = json.loads(kpath.read_text())
            old = np.load(vpath)
            if len(old_keys) == len(old):
                cache = dict(zip(old_keys, old, strict=True))
        except (OSError, ValueError):
            cache = {}
    todo = sorted({i for i, k in enumerate(keys) if k not in cache}, key=lambda i: len(texts[i]))
    progress(len(texts) - len(todo))
    step = 256
    for s in range(0, len(todo), step):
        idx = todo[s : s + step]
        vecs = embedder.embed([texts[i] for i in idx])  # type: ignore[attr-defined]
        for i, v in zip(idx, vecs, strict=True):
            cache[keys[i]] = v
        progress(len(idx))
    out = np.stack([cache[k] for k in keys]).astype(np.float32)
    np.save(vpath, out)
    kpath.write_text(json.dumps(keys))
    return out


def build_index(settings: Settings, *, force: bool = False, show_progress: bool = True) -> BuildReport:
    """Build what is missing or stale under ``settings.index_dir``; skip the rest."""
    folder = settings.index_dir
    folder.mkdir(parents=True, exist_ok=True)
    dm = settings.data_dir / "drugmechdb"
    b = _Build(settings=settings, folder=folder, manifest=_Manifest(folder), report=BuildReport(),
               nodes_p=dm / "nodes.tsv", triples_p=dm / "triples.tsv", paths_p=dm / "paths_dev.jsonl",
               pqa_p=settings.data_dir / "pubmedqa" / "pqal_dev.json", show_progress=show_progress)
    b.db_keys = built_keys(settings)
    for p in (b.nodes_p, b.triples_p):
        if not p.exists():
            raise DataError(f"{p} is missing")
    if force:
        b.manifest.data = {}
    b.kg_hash = file_hash(b.nodes_p, b.triples_p)
    b.pqa_hash = file_hash(b.pqa_p) if b.pqa_p.exists() else "none"
    nodes, triples = _build_public(b)
    embedder = make_embedder(settings.embedder)
    _build_dense(b, embedder, nodes, triples)
    _build_bm25(b)
    _build_models(b, embedder.model_id)
    return b.report


@dataclass
class _Build:
    """One ``build_index`` run: where it writes, what it has done, and the data's hashes."""

    settings: Settings
    folder: Path
    manifest: _Manifest
    report: BuildReport
    nodes_p: Path
    triples_p: Path
    paths_p: Path
    pqa_p: Path
    show_progress: bool
    kg_hash: str = ""
    pqa_hash: str = ""
    db_keys: dict[str, str] = field(default_factory=dict)
    """The keys the scale-out database records (``memory.factory.built_keys``), read once per build."""

    @contextlib.contextmanager
    def step(self, name: str) -> Iterator[None]:
        """Time one component into the report."""
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.report.seconds[name] = time.perf_counter() - t0


def _build_public(b: _Build) -> tuple[list[Node], list[Triple]]:
    with b.step("public"):
        key = _key("public", b.kg_hash)
        nodes = load_nodes(b.nodes_p)
        triples = load_triples(b.triples_p)
        if _fresh(b, "public", key):
            b.report.components["public"] = ComponentStatus.SKIPPED
        else:
            bar = tqdm(total=len(triples), desc="loading the graph", unit="triple",  # COPY into PostgreSQL reports
                       disable=not b.show_progress or backend(b.settings) != "postgres")
            n = write_graph(b.settings, nodes, triples, lambda done: bar.update(done - bar.n))
            bar.close()
            record_built(b.settings, "public", key)
            b.manifest.record("public", key, triples=n, entities=len(nodes))
            b.report.components["public"] = ComponentStatus.BUILT
    return nodes, triples


def _build_dense(b: _Build, embedder: Embedder, nodes: list[Node], triples: list[Triple]) -> None:
    with b.step("dense"):
        key = _key("dense", b.kg_hash, b.pqa_hash, embedder.model_id, str(embedder.dim))
        if _fresh(b, "dense", key):
            b.report.components["dense"] = ComponentStatus.SKIPPED
            return
        docs = dense_documents(nodes, triples, b.pqa_p)
        ids = list(docs)
        bar = tqdm(total=len(ids), desc="embedding", unit="text", disable=not b.show_progress)
        vecs = _embed_with_cache(b.folder, embedder, [docs[i]["text"] for i in ids], bar.update)
        bar.close()
        write_vectors(b.settings, ids, vecs, embedder.model_id, embedder.dim)
        record_built(b.settings, "dense", key)
        (b.folder / "dense_docs.json").write_text(json.dumps(docs))
        b.manifest.record("dense", key, count=len(ids), model_id=embedder.model_id, dim=embedder.dim)
        b.report.components["dense"] = ComponentStatus.BUILT


def _build_bm25(b: _Build) -> None:
    with b.step("bm25"):
        key = _key("bm25", b.kg_hash, b.pqa_hash)
        if _fresh(b, "bm25", key):
            b.report.components["bm25"] = ComponentStatus.SKIPPED
            return
        docs = json.loads((b.folder / "dense_docs.json").read_text())
        bm_ids = [i for i, d in docs.items() if d["kind"] in ("triple", "sentence")]
        write_text(b.settings, bm_ids, [docs[i]["text"] for i in bm_ids])
        record_built(b.settings, "bm25", key)
        b.manifest.record("bm25", key, count=len(bm_ids))
        b.report.components["bm25"] = ComponentStatus.BUILT


def _build_models(b: _Build, model_id: str) -> None:
    with b.step("models"):
        paths_hash = file_hash(b.paths_p) if b.paths_p.exists() else "none"
        key = _key("models", b.kg_hash, paths_hash, model_id, f"cap={b.settings.budget.max_edges_per_node}")
        if _fresh(b, "models", key):
            b.report.components["models"] = ComponentStatus.SKIPPED
        elif not b.paths_p.exists():
            b.report.components["models"] = ComponentStatus.MISSING
        else:
            info = train_models(b.settings, b.paths_p, show_progress=b.show_progress)
            b.manifest.record("models", key, **info)
            b.report.components["models"] = ComponentStatus.BUILT


def index_status(settings: Settings) -> dict[str, dict[str, object]]:
    """What is built, per component: under the index folder, or in the scale-out database (its recorded keys)."""
    manifest = _Manifest(settings.index_dir)
    db_keys = built_keys(settings)
    out: dict[str, dict[str, object]] = {}
    for name in _FILES:
        entry = dict(manifest.data.get(name, {}))
        key = entry.get("key")
        present = isinstance(key, str) and bool(key) and _built(settings, manifest, db_keys, name, key)
        entry["status"] = (ComponentStatus.READY if present else ComponentStatus.MISSING).value
        entry.pop("key", None)
        out[name] = entry
    return out
