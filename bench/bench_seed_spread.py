"""How much the LightGBM seed alone moves the check-half figures of the path ranker.

Usage: python bench/bench_seed_spread.py [--seeds 1,2,3,4,5,7,13] [--questions 500] [--size N]

The tune half is walked and featurised out of fold, as ``medpath index build`` does it
(``medpath.ranker_training.oof_rows``). Then, for each seed, one LambdaMART booster is trained on every tune
question's rows (the shipped recipe, ``tools.ranker_fit.fit_lambdarank``, with only ``seed`` changed). The first N
check-half questions are answered through ``medpath eval kg``'s medpath system (``make_system``, scored by
``score_question``) with that ranker. The last row averages the scores of all the seeds' boosters.

Everything else comes from the index's ``models.json``: the walk's edge predictor, the tables, the curated
counts, the judge and the triple scorer. The judge and the triple scorer were trained on the index's own ranker,
so no row is exactly the index's build. The seed-13 row is the closest: the index walks with unrounded relation
vectors, and this bench uses the stored ones.

``--size N`` first grows the graph to N triples as ``medpath eval scale`` does (by entities, seed 13, in a temporary
home) and trains every model on it as ``index build`` would (``fit_models``). The spread is then that of the grown
graph, the one ``eval scale``'s Path-F1 row at that size draws from. Prints a table; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.datasets import PathRecord, Triple, load_nodes, load_paths, split_tune_check
from core.settings import Settings
from medpath.evaluation.growth import grow
from medpath.evaluation.kg import score_question
from medpath.evaluation.systems import System, make_system
from medpath.ranker_training import oof_rows
from medpath.services import build_services
from medpath.training import fit_models
from memory.factory import open_graph, write_graph
from tools.path_ranker import ALL_FEATURES, PathRanker
from tools.ranker_fit import fit_lambdarank
from tools.ranker_models import LambdaRanker, ScoreModel
from tools.resources import Resources, with_models


class MeanOfBoosters:
    """Scores averaged over several boosters (the last row)."""

    def __init__(self, members: Sequence[LambdaRanker]) -> None:
        """Keep the members."""
        self.members = list(members)

    def score(self, x: np.ndarray) -> np.ndarray:
        """The members' mean score of each row."""
        return np.mean([m.score(x) for m in self.members], axis=0)  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, object]:
        """Not saved: the bench only scores with it."""
        return {"kind": "mean", "members": [m.to_json() for m in self.members]}


def answer(system: System, ranker: PathRanker, check: Sequence[PathRecord], model: ScoreModel) -> tuple[float, float]:
    """Mean Path-F1 and Recall@5 over ``check`` from ``eval kg``'s medpath ``system``, its ranker scoring with
    ``model``."""
    ranker.model = model
    rows = []
    for r in check:
        out = system.run(r.question)
        rows.append(score_question(r, out.retrieved, out.path))
    return float(np.mean([x["path_f1"] for x in rows])), float(np.mean([x["recall@5"] for x in rows]))


def main() -> None:
    """Train one booster per seed, answer the check half with each, print the table."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="1,2,3,4,5,7,13", help="comma-separated LightGBM seeds")
    ap.add_argument("--questions", type=int, default=500, help="the first N check-half questions")
    ap.add_argument("--size", type=int, default=0, help="grow the graph to N triples first, as eval scale does")
    args = ap.parse_args()
    settings = dataclasses.replace(Settings.from_env(), database_url="")
    with tempfile.TemporaryDirectory() as tmp:
        spread(settings, build_services(settings).resources, [int(s) for s in args.seeds.split(",")], args.questions,
               args.size, Path(tmp))


def grown(settings: Settings, res: Resources, size: int, tmp: Path) -> Resources:
    """``res`` over the real graph grown to ``size`` triples (in ``tmp``), with models trained on it."""
    nodes = load_nodes(settings.data_dir / "drugmechdb" / "nodes.tsv")
    base = [Triple(e.head, e.relation, e.tail) for e in res.kg.edges()]
    syn, noise = grow("entities", nodes, base, max(0, size - len(base)), 13)
    scratch = dataclasses.replace(settings, home=tmp)
    scratch.index_dir.mkdir(parents=True, exist_ok=True)
    write_graph(scratch, [*nodes, *syn], [*base, *noise])
    kg = open_graph(scratch)
    models: dict[str, Any] = fit_models(settings, settings.data_dir / "drugmechdb" / "paths_dev.jsonl", kg)
    print(f"graph grown to {len(base) + len(noise):,} triples; models trained on it", flush=True)
    return with_models(res, kg, models)


def spread(settings: Settings, res: Resources, seeds: list[int], questions: int, size: int, tmp: Path) -> None:
    """The table: one row per seed, then their mean."""
    if size:
        res = grown(settings, res, size, tmp)
    tune, check = split_tune_check(load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl"))
    check = check[:questions]
    walked = oof_rows(res.kg, tune, res.embed_many([r.question for r in tune]), res.predictor, res.node_vector,
                      settings.budget)
    groups = [(w.x, w.y) for w in walked]
    system = make_system("medpath", res)
    print(f"{len(walked)} tune questions walked; {len(check)} check-half questions", flush=True)
    print("| ranker | Path-F1 | Recall@5 |\n|---|---:|---:|", flush=True)
    members = []
    f1s = []
    for seed in seeds:
        model = fit_lambdarank(groups, ALL_FEATURES, params={"seed": seed})
        members.append(model)
        f1, r5 = answer(system, res.ranker, check, model)
        f1s.append(f1)
        print(f"| one booster, seed {seed} | {f1:.3f} | {r5:.3f} |", flush=True)
    f1, r5 = answer(system, res.ranker, check, MeanOfBoosters(members))
    print(f"| mean of the {len(seeds)} boosters' scores | {f1:.3f} | {r5:.3f} |")
    print(f"one booster: Path-F1 mean {np.mean(f1s):.3f}, sd {np.std(f1s):.3f}, range {min(f1s):.3f}–{max(f1s):.3f}")


if __name__ == "__main__":
    main()
