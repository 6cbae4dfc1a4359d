"""Path-ranker choices under 5-fold cross-validation by drug on the tune half (never the check half).

Usage: python bench/bench_ranker_cv.py [--train 600]
Walks every tune question from its gold drug and disease ids (the linking is not what is measured),
then, per fold, fits the transition tables and relation priors on the other folds, trains each ranker
on up to ``--train`` of their questions, and scores the held-out drugs: Path-F1 of the top-ranked path
and Recall@5 of the triples ordered by path mass. Takes a few minutes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    """Run and print a table."""
    from cv_tune import fold_of, ranker_for, walk_tune

    from medpath.metrics import mean, path_f1_best_chain, recall_at_k
    from medpath.settings import Settings
    from tools.path_ranker import fit_listwise, fit_listwise_mlp

    ap = argparse.ArgumentParser()
    ap.add_argument("--train", type=int, default=600)
    args = ap.parse_args()
    res, tune, walks = walk_tune(Settings.from_env())

    systems = {"linear, 14 path features (earlier ranker)": ("lin", list(range(14))),
               "linear, all 33 features": ("lin", None), "MLP ensemble, all 33 features (shipped)": ("mlp", None)}
    f1s: dict[str, list[float]] = {k: [] for k in systems}
    r5s: dict[str, list[float]] = {k: [] for k in systems}
    for k in range(5):
        fit = [r for r in tune if fold_of(r) != k]
        val = [r for r in tune if fold_of(r) == k]
        rk = ranker_for(res, fit)
        feats = {}
        for r in fit[: args.train] + val:
            paths, qv = walks[r.id]
            if paths:
                gold = [(t.head, t.relation, t.tail) for t in r.gold_triples]
                keys = [[(e.head, e.relation, e.tail) for e in p.edges] for p in paths]
                y = np.array([path_f1_best_chain(kk, gold, r.gold_chains) for kk in keys])
                feats[r.id] = (rk.features(paths, qv), y, keys, gold)
        for name, (kind, cols) in systems.items():
            sel = (lambda x, c=cols: x[:, c]) if cols is not None else (lambda x: x)
            groups = [(sel(feats[r.id][0]), feats[r.id][1]) for r in fit[: args.train] if r.id in feats]
            model = fit_listwise(groups) if kind == "lin" else fit_listwise_mlp(groups)
            for r in val:
                if r.id not in feats:
                    f1s[name].append(0.0)
                    r5s[name].append(0.0)
                    continue
                x, y, keys, gold = feats[r.id]
                sc = model.score(sel(x))
                order = np.argsort(-sc)
                f1s[name].append(float(y[order[0]]))
                top = order[:50]
                w = np.exp(sc[top] - sc[top].max())
                mass: dict[tuple[str, str, str], float] = {}
                for i, wi in zip(top, w, strict=True):
                    for t in keys[i]:
                        mass[t] = mass.get(t, 0.0) + float(wi)
                r5s[name].append(recall_at_k(sorted(mass, key=lambda t: -mass[t]), gold, 5))
        print(f"fold {k + 1}/5 done", flush=True)
    print(f"{len(tune)} tune questions, 5 folds by drug, {args.train} training questions per fold")
    print("| ranker | Path-F1 (top path) | Recall@5 (path mass) |")
    print("|---|---:|---:|")
    for name in systems:
        print(f"| {name} | {mean(f1s[name]):.3f} | {mean(r5s[name]):.3f} |")


if __name__ == "__main__":
    main()
