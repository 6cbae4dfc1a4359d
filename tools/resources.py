"""Loads what a run needs (KG view, embedder, dense index, learned models) once per index folder."""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import IndexMismatchError, IndexMissingError, MedpathError, StoreError
from core.settings import Settings
from memory.factory import open_graph, open_text, open_vectors
from memory.protocols import GraphStore, VectorIndex
from tools.curation import CurationStats
from tools.dense import DenseSearch
from tools.edge_predictor import EmbeddingEdgePredictor, RelationPriors
from tools.embedder import CachedEmbedder, Embedder, make_embedder
from tools.judge import EmbeddedJudge
from tools.linker import EntityLinker
from tools.literature import Literature
from tools.name_tables import (
    read_brands,
    read_drug_classes,
    with_brand_names,
    with_drug_names,
    with_gene_symbols,
    with_lay_terms,
)
from tools.path_ranker import ALL_FEATURES, PathRanker, TransitionTables
from tools.ranker_models import load_model
from tools.triple_scorer import TripleScorer

__all__ = ["Resources", "load_resources", "with_models"]

EMBED_CACHE = 10_000
"""Texts whose vectors the loaded embedder remembers."""


@dataclass
class Resources:
    """Everything loaded from the index folder, shared by the graph's nodes."""

    settings: Settings
    kg: GraphStore
    embedder: Embedder
    linker: EntityLinker
    predictor: EmbeddingEdgePredictor
    ranker: PathRanker
    judge: EmbeddedJudge
    priors: RelationPriors
    dense: DenseSearch | None
    dense_error: str | None
    entity_vectors: dict[str, np.ndarray] = field(default_factory=dict)
    models: dict[str, object] = field(default_factory=dict)
    triples: TripleScorer | None = None
    """Orders the retrieved triples; None for an index built before it (path mass orders them then)."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    _bm25: tuple[Any, dict[str, dict[str, Any]]] | None = field(default=None, repr=False, compare=False)
    _gate: Any = field(default=None, repr=False, compare=False)
    _literature: Literature | MedpathError | None = field(default=None, repr=False, compare=False)

    def gate(self) -> Any:
        """The Reviewer's assertion gate (``tools.gate.ClaimGate``), loaded once (about 1 s: spaCy and the rules)."""
        with self._lock:
            if self._gate is None:
                from tools.gate import ClaimGate

                self._gate = ClaimGate.load()
            return self._gate

    def literature(self) -> Literature:
        """The bundled PubMedQA abstracts, indexed once (about 0.3 s); the same DataError on every call when the
        file cannot be read, so that a broken file is reported, not re-read, on each question."""
        with self._lock:
            if self._literature is None:
                try:
                    self._literature = Literature.load(self.settings.data_dir / "pubmedqa" / "pqal_dev.json")
                except MedpathError as exc:
                    self._literature = exc
            if isinstance(self._literature, MedpathError):
                raise self._literature
            return self._literature

    def embed_many(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of texts, one row each (remembered: ``tools.embedder.CachedEmbedder``)."""
        return self.embedder.embed(texts)

    def embed_one(self, text: str) -> np.ndarray:
        """Unit vector of one text (remembered)."""
        return self.embedder.embed([text])[0]

    def documents(self) -> dict[str, dict[str, Any]]:
        """The texts behind the dense and BM25 indexes (``dense_docs.json``), by doc id."""
        return self.text_index()[1]

    def text_index(self) -> tuple[Any, dict[str, dict[str, Any]]]:
        """The BM25 index and its documents, loaded once."""
        with self._lock:
            if self._bm25 is None:
                folder = self.settings.index_dir
                docs = self.dense.docs if self.dense is not None else json.loads((folder / "dense_docs.json").read_text())
                self._bm25 = (open_text(self.settings), docs)
            return self._bm25

    def node_vector(self, entity_id: str) -> np.ndarray | None:
        """Vector of an entity's canonical name."""
        return self.entity_vectors.get(entity_id)

    def name_similarity(self, mentions: list[str], entity_ids: list[str]) -> np.ndarray:
        """Cosine between each mention and its entity's canonical name."""
        vecs = self.embedder.embed(mentions)
        out = np.zeros(len(mentions))
        for i, eid in enumerate(entity_ids):
            v = self.entity_vectors.get(eid)
            out[i] = float(vecs[i] @ v) if v is not None else 0.0
        return out


def load_resources(settings: Settings) -> Resources:
    """Load the stores and models of ``settings.index_dir`` (the app's services container does it once)."""
    folder = settings.index_dir
    kg = open_graph(settings)
    embedder = CachedEmbedder(make_embedder(settings.embedder, settings.home / "onnx"), EMBED_CACHE)
    models = _read_models(folder / "models.json", embedder.model_id)
    dense: DenseSearch | None = None
    dense_error: str | None = None
    entity_vectors: dict[str, np.ndarray] = {}
    linker_vectors: tuple[list[str], np.ndarray] | None = None
    try:
        index = open_vectors(settings, embedder.model_id, embedder.dim)
        docs = json.loads((folder / "dense_docs.json").read_text())
        dense = DenseSearch(index, docs, embedder.embed)
        linker_vectors, entity_vectors = entity_vectors_of(index, docs, kg.name)
    except (MedpathError, OSError, ValueError) as exc:
        dense_error = str(exc)
    aliases = with_gene_symbols(kg.entities, with_lay_terms(kg.entities, with_drug_names(kg.entities, with_brand_names(kg.entities, kg.aliases))))
    linker = EntityLinker(kg.entities, aliases, linker_vectors, embedder, degree=kg.degree, classes=read_drug_classes(),
                          brands=read_brands())
    base = Resources(settings=settings, kg=kg, embedder=embedder, linker=linker, predictor=None,  # type: ignore[arg-type]
                     ranker=None, judge=None, priors=None, dense=dense, dense_error=dense_error,  # type: ignore[arg-type]
                     entity_vectors=entity_vectors)
    return with_models(base, kg, models)


def with_models(res: Resources, kg: GraphStore, models: dict[str, Any]) -> Resources:
    """``res`` with the learned parts that ``models`` (a ``models.json`` document) describes, over ``kg``: the edge
    predictor, the path ranker, the triple scorer and the judge (``eval scale`` binds models trained on a grown
    graph this way)."""
    priors = RelationPriors.from_json(models["priors"])
    embedder = res.embedder
    predictor = EmbeddingEdgePredictor(
        list(models["relations"]),
        np.asarray(models["relation_vectors"], dtype=np.float32),
        priors,
        lambda text: embedder.embed([text])[0],
        beta=float(models.get("beta", 4.0)),
        temperature=float(models["temperature"]["embedding"]),
    )
    out = dataclasses.replace(res, kg=kg, predictor=predictor, judge=EmbeddedJudge.from_json(models["judge"]),
                              priors=priors, models=models, triples=None)
    out.ranker = ranker_from_models(kg, models, priors, out.node_vector)
    if "triples" in models:
        out.triples = TripleScorer.from_json(models["triples"], kg, out.ranker.curation)
    return out


def _read_models(path: Path, model_id: str) -> dict[str, Any]:
    """``models.json``, refused when missing, unreadable or trained with another embedder."""
    if not path.exists():
        raise IndexMissingError(f"{path} is missing; run `medpath index build`")
    try:
        models: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise StoreError(f"cannot read {path}: {exc}") from exc
    if models.get("model_id") != model_id:
        raise IndexMismatchError(f"models were trained with {models.get('model_id')}, embedder is {model_id}; rebuild")
    return models


def entity_vectors_of(index: VectorIndex, docs: dict[str, Any], name: Callable[[str], str]
                      ) -> tuple[tuple[list[str], np.ndarray], dict[str, np.ndarray]]:
    """The entity documents' vectors: every one (id, vector) for the linker, and one per entity (its name's
    document first) for the walk and the ranker."""
    allv = index.vectors()
    ent_rows = [i for i, doc_id in enumerate(index.ids) if docs[doc_id]["kind"] == "entity"]
    ent_ids = [docs[index.ids[i]]["entity_id"] for i in ent_rows]
    per_entity: dict[str, np.ndarray] = {}
    for i, eid in zip(ent_rows, ent_ids, strict=True):
        if docs[index.ids[i]]["text"] == name(eid) or eid not in per_entity:
            per_entity[eid] = allv[i]
    return (ent_ids, allv[ent_rows]), per_entity


def ranker_from_models(kg: Any, models: dict[str, Any], priors: RelationPriors,
                       node_vector: Callable[[str], np.ndarray | None]) -> PathRanker:
    """The path ranker that ``models.json`` describes, over ``kg``."""
    return PathRanker(kg, TransitionTables.from_json(models["tables"]), priors.get, node_vector,
                      load_model(models["ranker"], ALL_FEATURES), curation=CurationStats.from_json(models.get("curation", [])))


def index_ready(folder: Path) -> bool:
    """True when the files a run needs exist."""
    return all((folder / f).exists() for f in ("public.duckdb", "models.json"))
