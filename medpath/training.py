"""Learns priors, the temperature T, the path ranker and the judge from the tune half of dev paths."""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from agents.answer_paths import path_record
from agents.reviewer import judge_features, question_sim
from core.datasets import PathRecord, load_paths, split_tune_check
from core.settings import Settings
from medpath.ranker_training import curated_chains, fit_triple_scorer, oof_rows, typed_chains, types_of
from memory.factory import backend, open_graph, open_vectors
from memory.protocols import GraphStore
from tools.calibration import bce, calibrate, fit_temperature
from tools.curation import CurationStats
from tools.edge_predictor import EmbeddingEdgePredictor, RelationPriors
from tools.embedder import Embedder, make_embedder
from tools.judge import JUDGE_FEATURES, EmbeddedJudge, fit_logistic
from tools.path_ranker import ALL_FEATURES, FEATURES, TransitionTables
from tools.ranker_fit import fit_lambdarank
from tools.resources import entity_vectors_of

__all__ = ["calibration_pairs", "fit_models", "train_models"]

CALIBRATION_PAIRS = 200
JUDGE_QUESTIONS = 600
SEED = 13
WALK_WORKERS = min(2, os.cpu_count() or 1)
"""Processes that walk the tune half's questions on the embedded backend (``medpath.ranker_training.oof_rows``;
on PostgreSQL the graph reads through a connection, which a forked process must not share)."""


def inner_split(tune: list[PathRecord]) -> tuple[list[PathRecord], list[PathRecord]]:
    """(valid, fit) inside the tune half, grouped by drug like the tune/check split (about 1 in 5 drugs is valid)."""
    def bucket(r: PathRecord) -> int:
        return int(hashlib.sha1(("valid:" + (r.drug_id or r.id)).encode()).hexdigest(), 16) % 5

    ordered = sorted(tune, key=lambda r: r.id)
    return [r for r in ordered if bucket(r) == 0], [r for r in ordered if bucket(r) != 0]


def calibration_pairs(kg: GraphStore, records: list[PathRecord], n: int = CALIBRATION_PAIRS, seed: int = SEED) -> list[tuple[str, str, str, int]]:
    """``(question, node id, relation, label)`` pairs: gold relations out of gold nodes (1) and others present there (0)."""
    rng = random.Random(seed)
    pos, neg = [], []
    for r in records:
        gold = {(t.head, t.relation) for t in r.gold_triples}
        for t in r.gold_triples:
            pos.append((r.question, t.head, t.relation, 1))
            others = sorted({e.relation for e in kg.out_edges(t.head)} - {rel for h, rel in gold if h == t.head})
            if others:
                neg.append((r.question, t.head, rng.choice(others), 0))
    rng.shuffle(pos)
    rng.shuffle(neg)
    half = n // 2
    return pos[:half] + neg[: n - half]


def train_models(settings: Settings, paths_file: Path, show_progress: bool = False) -> dict[str, object]:
    """Fit everything on the tune half and write ``models.json``; returns a summary."""
    models = fit_models(settings, paths_file, open_graph(settings), show_progress)
    (settings.index_dir / "models.json").write_text(json.dumps(models))
    return {"temperature": round(float(models["temperature"]["embedding"]), 4),
            "judge_threshold": round(float(models["judge"]["threshold"]), 3),
            "ranker_questions": models["split"]["ranker_questions"]}


def fit_models(settings: Settings, paths_file: Path, kg: GraphStore, show_progress: bool = False) -> dict[str, Any]:
    """Fit everything on the tune half over ``kg``: the ``models.json`` document. Entity vectors come from the
    dense index of ``settings`` (an entity without one has none, as at answer time)."""
    embedder = make_embedder(settings.embedder)
    tune, check = split_tune_check(load_paths(paths_file))
    valid, fit_set = inner_split(tune)
    random.Random(SEED).shuffle(fit_set)

    ty = types_of(kg)
    edge = _fit_edge_predictor(kg, embedder, fit_set, valid, ty)
    ent_vec = _entity_vectors(settings, kg, embedder)
    tables = TransitionTables.fit(typed_chains(ty, tune))
    curation = CurationStats.fit(curated_chains(tune))
    walked = oof_rows(kg, tune, embedder.embed([r.question for r in tune]), edge.predictor, ent_vec.get, settings.budget,
                      progress=lambda it: tqdm(it, desc="ranker folds", disable=not show_progress),
                      workers=WALK_WORKERS if backend(settings) == "embedded" else 1)
    model = fit_lambdarank([(w.x, w.y) for w in walked], ALL_FEATURES)
    triples = fit_triple_scorer(kg, walked, tune, curation)
    judge = _fit_judge(walked, model, kg)
    return {
        "model_id": embedder.model_id,
        "relations": kg.relations,
        "relation_vectors": edge.rel_vecs.round(6).tolist(),
        "beta": edge.predictor.beta,
        "priors": edge.priors.to_json(),
        "tables": tables.to_json(),
        "temperature": {"embedding": edge.temperature, "pairs": len(edge.labels), "bce_T1": bce(edge.probs, edge.labels),
                        "bce_T": bce(calibrate(np.asarray(edge.probs), edge.temperature), edge.labels)},
        "ranker": model.to_json(),
        "curation": curation.to_json(),
        "triples": triples.to_json(),
        "judge": judge.to_json(),
        "split": {"tune": len(tune), "check": len(check), "fit": len(fit_set), "valid": len(valid),
                  "ranker_questions": len(walked)},
    }


@dataclass
class _EdgeFit:
    """The fitted edge predictor and what its calibration saw."""

    predictor: EmbeddingEdgePredictor
    priors: RelationPriors
    rel_vecs: np.ndarray
    temperature: float
    probs: list[float]
    labels: list[float]


def _fit_edge_predictor(kg: GraphStore, embedder: Embedder, fit_set: list[PathRecord], valid: list[PathRecord],
                        ty: Callable[[str], str]) -> _EdgeFit:
    """Relation priors from the fit questions, then the temperature on the validation questions' edges."""
    relations = kg.relations
    priors = RelationPriors.fit([(ty(t.head), t.relation, ty(t.tail)) for r in fit_set for t in r.gold_triples], relations)
    rel_vecs = embedder.embed(relations)
    predictor = EmbeddingEdgePredictor(relations, rel_vecs, priors, lambda s: embedder.embed([s])[0])
    pairs = calibration_pairs(kg, valid)
    questions = sorted({p[0] for p in pairs})
    qvecs = dict(zip(questions, embedder.embed(questions), strict=True))
    probs, labels = [], []
    for q, node, rel, y in pairs:
        raw = predictor.raw(qvecs[q], ty(node), "out")
        probs.append(float(raw[relations.index(rel)]))
        labels.append(y)
    predictor.temperature = fit_temperature(probs, labels)
    return _EdgeFit(predictor, priors, rel_vecs, predictor.temperature, probs, labels)


def _entity_vectors(settings: Settings, kg: GraphStore, embedder: Embedder) -> dict[str, np.ndarray]:
    """Each entity's vector in the dense index (its name's document first)."""
    folder = settings.index_dir
    index = open_vectors(settings, embedder.model_id, embedder.dim)
    docs = json.loads((folder / "dense_docs.json").read_text())
    return entity_vectors_of(index, docs, kg.name)[1]


def _fit_judge(walked: list[Any], model: Any, kg: GraphStore) -> EmbeddedJudge:
    """The embedded judge on the top 3 candidates of each walked question, ranked by the final model over its
    out-of-fold features; the threshold maximises F2 (missing a true path costs more than a false accept)."""
    rows, ys = [], []
    for w in walked[:JUDGE_QUESTIONS]:
        scores = model.score(w.x)
        for p, s_, row in zip(w.paths, scores, w.x, strict=True):
            p.score = float(s_)
            p.features = dict(zip(FEATURES, (float(v) for v in row[: len(FEATURES)]), strict=True))
        order = np.argsort(-scores, kind="stable")[:3]
        cands = [path_record(w.paths[i], kg) for i in order]
        for j, c in enumerate(cands):
            feats = judge_features(cands, j, [w.record.drug_id], [w.record.disease_id], question_sim(c))
            rows.append([feats[f] for f in JUDGE_FEATURES])
            ys.append(1.0 if w.y[order[j]] >= 0.5 else 0.0)
    x, yv = np.asarray(rows), np.asarray(ys)
    judge = fit_logistic(x, yv)
    probs_j = np.array([judge.probability(dict(zip(JUDGE_FEATURES, row, strict=True))) for row in x])
    best_t, best_f = 0.5, -1.0
    for t in np.linspace(0.05, 0.95, 91):
        acc = probs_j >= t
        tp = float((acc & (yv == 1)).sum())
        prec = tp / max(acc.sum(), 1)
        rec = tp / max((yv == 1).sum(), 1)
        fb = 5 * prec * rec / max(4 * prec + rec, 1e-9)
        if fb > best_f:
            best_t, best_f = float(t), fb
    judge.threshold = best_t
    return judge
