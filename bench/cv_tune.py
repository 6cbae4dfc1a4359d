"""Shared set-up of the cross-validated ranker benches: the tune half walked once, folds by drug, per-fold tables."""

from __future__ import annotations

import hashlib
from typing import Any

from medpath.datasets import PathRecord, load_paths, split_tune_check
from medpath.ranker_training import typed_chains
from medpath.resources import load_resources
from medpath.settings import Settings
from tools.edge_predictor import RelationPriors
from tools.path_ranker import PathRanker, TransitionTables
from tools.walker import GraphWalker

__all__ = ["fold_of", "ranker_for", "walk_tune"]


def walk_tune(settings: Settings) -> tuple[Any, list[PathRecord], dict[str, tuple[list[Any], Any]]]:
    """Resources, the tune records, and each one's walk from its gold drug and disease ids (the linking is not
    what is measured): ``{id: (candidate paths, question vector)}``."""
    res = load_resources(settings)
    tune, _ = split_tune_check(load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl"))
    walker = GraphWalker(res.kg, settings.budget)
    walks = {}
    for r in tune:
        qv = res.embed_one(r.question)
        walks[r.id] = (walker.walk([r.drug_id], [r.disease_id], res.predictor.conf_fn(qv)).paths, qv)
    return res, tune, walks


def fold_of(r: PathRecord, k: int = 5) -> int:
    """The record's fold: by drug, so a drug's questions are all in one fold."""
    return int(hashlib.sha1(("kf:" + r.drug_id).encode()).hexdigest(), 16) % k


def ranker_for(res: Any, fit: list[PathRecord]) -> PathRanker:
    """A ranker whose transition tables and relation priors come from the fitting folds only."""
    kg = res.kg

    def ty(x: str) -> str:
        e = kg.node(x)
        return e.type if e else "Unknown"

    tables = TransitionTables.fit(typed_chains(ty, fit))
    pri = RelationPriors.fit([(ty(t.head), t.relation, ty(t.tail)) for r in fit for t in r.gold_triples], kg.relations)
    return PathRanker(kg, tables, pri.get, res.node_vector)
