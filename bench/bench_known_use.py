"""Benchmark: the yes that opens "Does X treat Y?", on pairs the question file lists and on pairs it does not.

Usage: python bench/bench_known_use.py [--split check] [--pairs 150] [--seed 11]

Draws ``--pairs`` (drug, disease) pairs of the half's questions (the file lists the disease for the drug), and for
each drug one disease drawn at random among the file's diseases that the file lists for that drug in neither half.
Asks "Does {X} treat {Y}?" for each through the graph, as ``ask`` asks it, and counts:

- **chain**: answers whose chain lowers the disease (by its relations' signs): those the answer opened with "Yes: "
  before ``agents.known_use``;
- **yes**: answers that open with "Yes: " now (the disease one of the drug's uses, and a chain that lowers it or has
  no sign);
- **not a use**: answers that open with ``agents.verdict``'s "Not among X's uses as medpath finds them: …" (since
  stop 101 also for a chain that has no sign or raises the disease, which opened with nothing before);
- the median ``ask`` time of the row's questions (warm, in process).

The file's indications are not every use of a drug, so a "yes" on a drawn pair is not always wrong. Nothing here is a
pass/fail test; the gold pairs are only read to draw and to count, never by the answer.

``--depths 10,20,30,50`` asks every pair once per depth, ``agents.known_use.DRUGS_LISTED`` set to it: how far down
the disease's own list of drugs a yes may come from (the shipped 20 was chosen on the tune half this way).

``--thresholds 1,0.5,0`` also counts, for each threshold, the yes a rule would give that said yes as well when the
ranker scores the chain above it (the answers' first candidate's ``score``): the alternative the README weighs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents import known_use
from core.datasets import load_paths, split_tune_check
from core.settings import Settings
from medpath.evaluation.chat import scratch_home
from medpath.session import Session
from tools.path_ranker import effect


def pairs_of(split: str, n: int, seed: int) -> tuple[list[tuple[str, str]], list[tuple[str, str]], dict[str, str]]:
    """``n`` listed pairs of the half, ``n`` unlisted ones (one per listed pair's drug), and every id's name."""
    tune, check = split_tune_check(load_paths(ROOT / "data/drugmechdb/paths_dev.jsonl"))
    listed: dict[str, set[str]] = defaultdict(set)
    name: dict[str, str] = {}
    for r in (*tune, *check):
        listed[r.drug_id].add(r.disease_id)
        name[r.drug_id], name[r.disease_id] = r.drug, r.disease
    rng = random.Random(seed)
    pos = rng.sample(sorted({(r.drug_id, r.disease_id) for r in (check if split == "check" else tune)}), n)
    diseases = sorted({y for ys in listed.values() for y in ys})
    neg = []
    for drug, _ in pos:
        y = rng.choice(diseases)
        while y in listed[drug]:
            y = rng.choice(diseases)
        neg.append((drug, y))
    return pos, neg, name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", default="check", choices=("tune", "check"))
    ap.add_argument("--pairs", type=int, default=150)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--thresholds", default="", help="comma-separated ranker scores, e.g. 1,0.5,0")
    ap.add_argument("--depths", default="", help="comma-separated depths of the disease's list, e.g. 10,20,30,50")
    args = ap.parse_args()
    thresholds = [float(t) for t in args.thresholds.split(",") if t.strip()]
    pos, neg, name = pairs_of(args.split, args.pairs, args.seed)
    start = time.perf_counter()
    print(f"{args.split} half, seed {args.seed}")
    print("| pairs | asked | chain that lowers Y (the old yes) | yes | not a use |" + "".join(f" yes above {t} |" for t in thresholds))
    print("|---|---:|---:|---:|---:|" + "---:|" * len(thresholds))
    depths = [int(d) for d in args.depths.split(",") if d.strip()] or [known_use.DRUGS_LISTED]
    with scratch_home(Settings.from_env()) as settings:
        session = Session(settings, interactive=False)
        for depth, (label, pairs) in ((d, row) for d in depths for row in (("listed", pos), ("not listed", neg))):
            known_use.DRUGS_LISTED = depth  # read at each ask
            label = f"{label}, first {depth} drugs" if args.depths else label
            chain = yes = not_use = 0
            above = [0] * len(thresholds)
            took: list[float] = []
            for drug, disease in pairs:
                t0 = time.perf_counter()
                out = session.ask(f"Does {name[drug]} treat {name[disease]}?", thread_id=str(uuid.uuid4()))
                took.append((time.perf_counter() - t0) * 1000)
                answer = str(out.get("answer", ""))
                chain += effect([t["relation"] for t in out.get("evidence") or []]) < 0
                yes += answer.startswith("Yes: ")
                not_use += answer.startswith("Not among ")
                score = out["candidates"][0]["score"] if out.get("candidates") else None
                for i, t in enumerate(thresholds):
                    above[i] += answer.startswith("Yes: ") or (answer.startswith("Not among ") and score is not None and score > t)
            print(f"| {label} | {len(pairs)} | {chain} | {yes} | {not_use} |" + "".join(f" {n} |" for n in above)
                  + f" median ask {statistics.median(took):.1f} ms")
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
