"""Probe for issue 13: does LightGBM lambdarank with transfer features beat the shipped MLP ranker?

5-fold cross-validation by drug over the whole tune half (never the check half). Every tune question is walked
from its gold drug and disease ids with the shipped walker and edge predictor; per fold, the transition tables,
relation priors and the *transfer* counts are fitted on the other folds only, so a question's own gold chain never
reaches its own features (the held-out drugs are not in the fitting folds at all). Transfer features, per path:

- share of its edges that occur in the gold chains of the fitting folds, and of its inner nodes;
- whether its last edge (into the disease) occurs in a fitting-fold gold chain of the same disease;
- whether its first edge's tail (the drug's target) is a first-hop target in some fitting-fold gold chain;
- the count of fitting-fold gold chains that contain its suffix of two edges.

Usage: python bench/bench_ltr_probe.py [--train 1000] (needs `pip install lightgbm`). Prints mean ± sd of Path-F1 (top path) per fold.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def transfer_features(paths, counts, disease: str) -> np.ndarray:  # noqa: ANN001
    """The transfer columns for the candidate paths of one question (counts come from other folds only)."""
    edge_n, node_n, last_by_disease, first_tails, suffix2 = counts
    rows = []
    for p in paths:
        keys = [(e.head, e.relation, e.tail) for e in p.edges]
        inner = p.nodes[1:-1]
        rows.append([
            sum(1 for k in keys if edge_n[k]) / len(keys),
            sum(math.log1p(edge_n[k]) for k in keys) / len(keys),
            sum(1 for x in inner if node_n[x]) / len(inner) if inner else 1.0,
            1.0 if (disease, keys[-1]) in last_by_disease else 0.0,
            1.0 if p.edges[0].tail in first_tails else 0.0,
            math.log1p(suffix2[tuple(keys[-2:])]) if len(keys) >= 2 else 0.0,
        ])
    return np.asarray(rows, dtype=float)


def fit_counts(records):  # noqa: ANN001, ANN201
    """Counts over the gold chains of the given (fitting-fold) records."""
    edge_n: Counter = Counter()
    node_n: Counter = Counter()
    last_by_disease: set = set()
    first_tails: set = set()
    suffix2: Counter = Counter()
    for r in records:
        for chain in r.gold_chains:
            steps = [(r.gold_triples[i].head, r.gold_triples[i].relation, r.gold_triples[i].tail) for i in chain]
            edge_n.update(set(steps))
            node_n.update({s[2] for s in steps[:-1]})
            last_by_disease.add((r.disease_id, steps[-1]))
            first_tails.add(steps[0][2])
            if len(steps) >= 2:
                suffix2[tuple(steps[-2:])] += 1
    return edge_n, node_n, last_by_disease, first_tails, suffix2


def main() -> None:
    """Run the folds and print the table."""
    import lightgbm as lgb

    from cv_tune import fold_of, ranker_for, walk_tune

    from medpath.metrics import mean, path_f1_best_chain
    from medpath.settings import Settings
    from tools.path_ranker import fit_listwise_mlp

    ap = argparse.ArgumentParser()
    ap.add_argument("--train", type=int, default=1000)
    args = ap.parse_args()
    res, tune, walks = walk_tune(Settings.from_env())

    names = ("MLP, 33 features (shipped)", "LambdaMART, 33 features", "LambdaMART, 33 + transfer", "oracle (best candidate)")
    per_fold: dict[str, list[float]] = {n: [] for n in names}
    for k in range(5):
        fit = [r for r in tune if fold_of(r) != k]
        val = [r for r in tune if fold_of(r) == k]
        rk = ranker_for(res, fit)
        train = fit[: args.train]
        # transfer counts for a training question come from the *other* training folds (out-of-fold), so its own
        # gold chain never reaches its features; for held-out questions, from all fitting folds
        sub = {r.id: int(hashlib.sha1(("in:" + r.drug_id).encode()).hexdigest(), 16) % 4 for r in train}
        inner_counts = [fit_counts([r for r in fit if sub.get(r.id, -1) != j]) for j in range(4)]
        all_counts = fit_counts(fit)
        data = {}
        for r in train + val:
            paths, qv = walks[r.id]
            if not paths:
                continue
            gold = [(t.head, t.relation, t.tail) for t in r.gold_triples]
            y = np.array([path_f1_best_chain([(e.head, e.relation, e.tail) for e in p.edges], gold, r.gold_chains)
                          for p in paths])
            counts = inner_counts[sub[r.id]] if r.id in sub else all_counts
            base = rk.features(paths, qv)
            data[r.id] = (base, np.hstack([base, transfer_features(paths, counts, r.disease_id)]), y)
        tr = [r for r in train if r.id in data]
        mlp = fit_listwise_mlp([(data[r.id][0], data[r.id][2]) for r in tr])

        def lambdamart(col: int):  # noqa: ANN202
            x = np.vstack([data[r.id][col] for r in tr])
            y = np.concatenate([np.rint(data[r.id][2] * 4).astype(int) for r in tr])
            params = {"objective": "lambdarank", "learning_rate": 0.05, "num_leaves": 31, "min_data_in_leaf": 10,
                      "seed": 13, "num_threads": 2, "verbose": -1, "deterministic": True, "force_row_wise": True,
                      "label_gain": [0, 1, 3, 7, 15]}
            ds = lgb.Dataset(x, y, group=[len(data[r.id][2]) for r in tr])
            return lgb.train(params, ds, num_boost_round=300)

        m33, mall = lambdamart(0), lambdamart(1)
        scores = {n: [] for n in names}
        for r in val:
            if r.id not in data:
                for n in names:
                    scores[n].append(0.0)
                continue
            base, full, y = data[r.id]
            scores[names[0]].append(float(y[int(np.argmax(mlp.score(base)))]))
            scores[names[1]].append(float(y[int(np.argmax(m33.predict(base)))]))
            scores[names[2]].append(float(y[int(np.argmax(mall.predict(full)))]))
            scores[names[3]].append(float(y.max()))
        for n in names:
            per_fold[n].append(mean(scores[n]))
        print(f"fold {k + 1}/5: " + ", ".join(f"{n.split(',')[0]} {per_fold[n][-1]:.3f}" for n in names), flush=True)
    print(f"{len(tune)} tune questions, 5 folds by drug, up to {args.train} training questions per fold")
    print("| ranker | Path-F1 (top path), mean ± sd over folds |")
    print("|---|---:|")
    for n in names:
        v = np.array(per_fold[n])
        print(f"| {n} | {v.mean():.3f} ± {v.std():.3f} |")


if __name__ == "__main__":
    main()
