"""Benchmark: "What do X and Y treat?", the diseases the answer says both drugs have, against the question file.

Usage: python bench/bench_shared_indications.py [--split tune] [--pairs 70] [--seed 7]

Draws ``--pairs`` pairs of the half's drugs that the question file lists for one disease at least, and as many
pairs drawn at random (seeded), asks "What do {X} and {Y} treat?" for each through the graph as ``ask`` asks it,
and counts the diseases the answer marks as both drugs' (``features["class_drugs"] == 2``):

- **claimed**: how many such diseases the answers name;
- **right**: how many of them the question file lists for both drugs (by name, case-folded);
- **shared among listed**: the diseases named anywhere in the answers that the file lists for both drugs, the most
  "right" can be.

A pair whose two names do not link to the two drugs is skipped. Nothing here is a pass/fail test. The file's
indications are not every use of a drug, so "right" is a floor on how often a claim is true.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import random
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.datasets import load_paths, split_tune_check
from core.settings import Settings
from core.text import fold
from medpath.evaluation.chat import scratch_home
from medpath.session import Session


def pairs_of(split: str, n: int, seed: int) -> tuple[list[tuple[str, str]], dict[str, str], dict[str, set[str]]]:
    """``n`` pairs sharing a listed disease and ``n`` at random; the drugs' names; each drug's listed diseases' ids."""
    tune, check = split_tune_check(load_paths(ROOT / "data/drugmechdb/paths_dev.jsonl"))
    gold: dict[str, set[str]] = defaultdict(set)
    name: dict[str, str] = {}
    for r in tune if split == "tune" else check:
        gold[r.drug_id].add(r.disease_id)
        name[r.drug_id] = r.drug
    drugs = sorted(gold)
    by_disease: dict[str, list[str]] = defaultdict(list)
    for d in drugs:
        for y in gold[d]:
            by_disease[y].append(d)
    sharing = sorted({p for ds in by_disease.values() for p in itertools.combinations(sorted(ds), 2)})
    rng = random.Random(seed)
    return rng.sample(sharing, n) + [tuple(rng.sample(drugs, 2)) for _ in range(n)], name, gold  # type: ignore[misc]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", default="tune", choices=("tune", "check"))
    ap.add_argument("--pairs", type=int, default=70)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    pairs, name, gold = pairs_of(args.split, args.pairs, args.seed)
    with open(ROOT / "data/drugmechdb/nodes.tsv", encoding="utf-8") as f:
        folded = {r["id"]: fold(r["name"]) for r in csv.DictReader(f, delimiter="\t")}
    listed = {d: {folded.get(y, y) for y in ys} for d, ys in gold.items()}
    claimed = right = reachable = asked = 0
    start = time.perf_counter()
    with scratch_home(Settings.from_env()) as settings:
        session = Session(settings, interactive=False)
        for a, b in pairs:
            out = session.ask(f"What do {name[a]} and {name[b]} treat?", thread_id=str(uuid.uuid4()))
            if sorted(out.get("among") or []) != sorted([a, b]):
                continue
            asked += 1
            for ans in out.get("ranked_answers", []):
                both = fold(ans["name"]) in listed[a] and fold(ans["name"]) in listed[b]
                reachable += both
                if ans["path"]["features"].get("class_drugs") == 2:
                    claimed += 1
                    right += both
    print(f"{args.split} half, {asked} pairs asked of {len(pairs)} drawn, {time.perf_counter() - start:.0f} s")
    print(f"claimed {claimed}, right {right} (precision {right / max(claimed, 1):.2f}), "
          f"shared among listed {reachable}")


if __name__ == "__main__":
    main()
