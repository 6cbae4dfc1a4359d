"""Benchmark: the walker and the ranker alone, on the real graph or grown as ``eval scale`` grows it, by edge cap.

For each cap on the edges taken per expanded node (``WalkBudget.max_edges_per_node``; 0 takes all) it walks the
first check-half questions from their gold drug to their gold disease, ranks the candidates with the shipped models
(trained without a cap) and reports medians of the nodes expanded, the edges seen, the candidates, the walk's and the
ranking's milliseconds, and the mean Path-F1 of the top candidate. The graph is built as ``eval scale`` builds it
(the same seeded synthetic triples, ``--growth entities`` or ``attach``) in a temporary home, and what was loaded is frozen from the collector as ``serve`` does.
Each question is walked and ranked once untimed first. (nanobind's "leaked instances" report at exit is DuckDB's
objects, frozen from the collector: harmless.)

Usage: python bench/bench_walk_scale.py [--size 1000000] [--growth entities|attach] [--caps 0,64,32,16,8] [--questions 50]
Not a pass/fail test.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.datasets import Triple, load_nodes, load_paths, split_tune_check
from core.gc_policy import loading
from core.settings import Settings
from medpath.evaluation.growth import GROWTHS, grow
from medpath.metrics import path_f1_best_chain
from medpath.services import build_services
from memory.factory import open_graph, write_graph
from tools.resources import ranker_from_models
from tools.walker import GraphWalker


def main() -> None:
    """Build the graph, walk and rank at each cap, print one table row per cap."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=1_000_000, help="triples (the real graph plus synthetic ones)")
    ap.add_argument("--growth", choices=GROWTHS, default="entities", help="eval scale's --growth")
    ap.add_argument("--caps", default="0,64,32,16,8")
    ap.add_argument("--questions", type=int, default=50)
    ap.add_argument("--seed", type=int, default=13, help="the synthetic triples' seed (eval scale's default)")
    args = ap.parse_args()
    settings = Settings.from_env()
    res = build_services(settings).resources
    nodes = load_nodes(settings.data_dir / "drugmechdb" / "nodes.tsv")
    base = [Triple(e.head, e.relation, e.tail) for e in res.kg.edges()]
    _, check = split_tune_check(load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl"))
    records = check[: args.questions]
    vecs = res.embed_many([r.question for r in records])
    syn, noise = grow(args.growth, nodes, base, max(0, args.size - len(base)), args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        scratch = dataclasses.replace(settings, home=Path(tmp))
        scratch.index_dir.mkdir(parents=True)
        with loading():
            write_graph(scratch, [*nodes, *syn], [*base, *noise])
            kg = open_graph(scratch)
            ranker = ranker_from_models(kg, res.models, res.priors, res.node_vector)
        print(f"{len(kg):,} triples ({args.growth}), {len(records)} check-half questions, medians (Path-F1: mean)")
        print("| cap | nodes expanded | edges seen | candidates | walk ms | ranking ms | Path-F1 |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        for cap in [int(c) for c in args.caps.split(",")]:
            walker = GraphWalker(kg, dataclasses.replace(settings.budget, max_edges_per_node=cap))
            rows = []
            for r, qv in zip(records, vecs, strict=True):
                conf = res.predictor.conf_fn(qv)
                ranker.rank(walker.walk([r.drug_id], [r.disease_id], conf).paths, qv)  # untimed: first reads
                t0 = time.perf_counter()
                walk = walker.walk([r.drug_id], [r.disease_id], conf)
                t1 = time.perf_counter()
                ranked = ranker.rank(walk.paths, qv) if walk.paths else []
                t2 = time.perf_counter()
                gold = [(t.head, t.relation, t.tail) for t in r.gold_triples]
                f1 = path_f1_best_chain([tuple(e) for e in ranked[0].edges], gold, r.gold_chains) if ranked else 0.0
                rows.append((walk.expanded, walk.edges_seen, len(walk.paths), (t1 - t0) * 1000, (t2 - t1) * 1000, f1))
            med = [statistics.median(col) for col in list(zip(*rows, strict=True))[:5]]
            f1_mean = statistics.fmean(r[5] for r in rows)
            print(f"| {cap or 'none'} | {med[0]:.1f} | {med[1]:,.0f} | {med[2]:.1f} | {med[3]:.1f} | {med[4]:.1f} | {f1_mean:.3f} |",
                  flush=True)


if __name__ == "__main__":
    main()
