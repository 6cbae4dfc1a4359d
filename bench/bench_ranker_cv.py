"""The path ranker under 5-fold cross-validation by drug over the whole tune half (never the check half).

Usage: python bench/bench_ranker_cv.py [--seeds 1]

Every tune question is walked and featurised exactly as ``medpath index build`` does it
(``medpath.ranker_training.oof_rows``): the walk's relation priors, the transition tables and the curated-chain
transfer counts come from the other folds, so a question's own gold never reaches its features. Then, per fold,
each ranker is trained on the other four folds' questions and scores the held-out drugs:

- the previous ranker (listwise MLP ensemble over the 33 shape features);
- LambdaMART over all feature groups (shipped), and LambdaMART without each group in turn (the ablation rows).

Prints mean ± sd over the folds of the top path's Path-F1 and of Recall@5 of the triples ordered by path mass; for
the shipped ranker also Recall@5 of the triples ordered by the triple scorer (``tools.triple_scorer``), trained per
fold on the other folds' questions, whose path scores are themselves out of fold by an inner split (``--no-triples``
skips it: it costs four more ranker fits per fold).
Note: a training question's transfer counts include the held-out fold's chains (other drugs); the held-out
questions' own features never see their own chains.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.datasets import PathRecord, load_paths, split_tune_check
from core.settings import Settings
from medpath.metrics import recall_at_k
from medpath.ranker_training import FOLDS, Walked, fold_of, oof_rows, oof_scores, triple_groups, vocabulary
from medpath.services import build_services
from tools.curation import CurationStats
from tools.path_ranker import ALL_FEATURES, FEATURE_GROUPS, FEATURES
from tools.ranker_fit import fit_lambdarank, fit_triple_model
from tools.ranker_models import fit_listwise_mlp
from tools.triple_scorer import CATEGORICAL, TRIPLE_FEATURES, TripleScorer
from tools.triples import TRIPLE_TEMPERATURE, rank_by_mass

SHIPPED = "LambdaMART, all groups (shipped)"


def columns(drop: str | None) -> list[int]:
    """Indices of every column outside the group ``drop``."""
    gone = set(FEATURE_GROUPS[drop]) if drop else set()
    return [i for i, n in enumerate(ALL_FEATURES) if n not in gone]


def main() -> None:
    """Run the folds and print the table."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=int, default=0, help="use only the first N tune questions (0: all)")
    ap.add_argument("--no-triples", action="store_true", help="skip the triple scorer's Recall@5 column")
    args = ap.parse_args()
    settings = Settings.from_env()
    res = build_services(settings).resources
    tune, _ = split_tune_check(load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl"))
    if args.questions:
        tune = tune[: args.questions]
    walked = oof_rows(res.kg, tune, res.embed_many([r.question for r in tune]), res.predictor, res.node_vector, settings.budget)
    shape = [ALL_FEATURES.index(n) for n in FEATURES]
    systems: dict[str, tuple[str, list[int]]] = {
        "MLP ensemble, 33 shape features (previous ranker)": ("mlp", shape),
        SHIPPED: ("ltr", columns(None)),
    }
    for g in FEATURE_GROUPS:
        systems[f"LambdaMART without {g} ({len(FEATURE_GROUPS[g])} columns)"] = ("ltr", columns(g))
    f1s: dict[str, list[float]] = {k: [] for k in systems}
    r5s: dict[str, list[float]] = {k: [] for k in systems}
    r5t: list[float] = []
    vocab = vocabulary(res.kg)
    for k in range(FOLDS):
        train = [w for w in walked if fold_of(w.record) != k]
        held = [w for w in walked if fold_of(w.record) == k]
        n_held = sum(1 for r in tune if fold_of(r) == k)
        for name, (kind, cols) in systems.items():
            groups = [(w.x[:, cols], w.y) for w in train]
            model = fit_listwise_mlp(groups) if kind == "mlp" else fit_lambdarank(groups, [ALL_FEATURES[i] for i in cols])
            f1, r5 = [], []
            for w in held:
                sc = model.score(w.x[:, cols])
                f1.append(float(w.y[int(np.argmax(sc))]))
                keys = [[(e.head, e.relation, e.tail) for e in p.edges] for p in w.paths]
                gold = [(t.head, t.relation, t.tail) for t in w.record.gold_triples]
                r5.append(recall_at_k(rank_by_mass(keys, sc, TRIPLE_TEMPERATURE), gold, 5))
            if name == SHIPPED and not args.no_triples:
                r5t.append(triple_recall(res.kg, tune, vocab, train, held, [model.score(w.x) for w in held]) / n_held)
            # questions whose walk found nothing score 0
            f1s[name].append(sum(f1) / n_held)
            r5s[name].append(sum(r5) / n_held)
        triples = f"; Recall@5 triple scorer {r5t[-1]:.3f}, path mass {r5s[SHIPPED][-1]:.3f}" if r5t else ""
        print(f"fold {k + 1}/{FOLDS}: " + ", ".join(f"{n.split(',')[0]} {f1s[n][-1]:.3f}" for n in list(systems)[:2])
              + triples, flush=True)
    print(f"{len(tune)} tune questions, {FOLDS} folds by drug; mean ± sd over folds")
    print("| ranker | Path-F1 (top path) | Recall@5 (path mass) | Recall@5 (triple scorer) |")
    print("|---|---:|---:|---:|")
    for name in systems:
        f, r = np.array(f1s[name]), np.array(r5s[name])
        t = f"{np.mean(r5t):.3f} ± {np.std(r5t):.3f}" if name == SHIPPED and r5t else "—"
        print(f"| {name} | {f.mean():.3f} ± {f.std():.3f} | {r.mean():.3f} ± {r.std():.3f} | {t} |")


def triple_recall(kg: Any, tune: list[PathRecord], vocab: Any, train: list[Walked], held: list[Walked],
                  held_scores: list[np.ndarray]) -> float:
    """Summed Recall@5 over ``held`` of the triples as a triple scorer trained on ``train`` orders them; the training
    questions' path scores come from rankers that did not see their inner fold, the held ones' from ``held_scores``."""
    groups = triple_groups(kg, train, tune, vocab, oof_scores(train))
    scorer = TripleScorer(fit_triple_model([(g.x, g.y) for g in groups], TRIPLE_FEATURES, CATEGORICAL), vocab, kg,
                          CurationStats())
    total = 0.0
    held_rows = triple_groups(kg, held, tune, vocab, {w.record.id: s for w, s in zip(held, held_scores, strict=True)})
    for w, rows in zip(held, held_rows, strict=True):
        gold = [(t.head, t.relation, t.tail) for t in w.record.gold_triples]
        order = np.argsort(-scorer.probabilities(rows.x), kind="stable")
        total += recall_at_k([rows.keys[i] for i in order], gold, 5)
    return total


if __name__ == "__main__":
    main()
