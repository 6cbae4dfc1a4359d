"""Benchmark: "How does X treat Y?" for drug–disease pairs that nobody curated.

Usage: python bench/bench_unjoined.py [--pairs 300] [--seed 7]

Users ask about pairs DrugMechDB has no mechanism for ("How does warfarin treat atrial fibrillation?"). This draws
``--pairs`` random (drug, disease) pairs from the question file's drugs and diseases, seeded, leaves out the pairs
the file curates, asks each through the graph as ``ask`` does (memory off, no clarification), and counts the
outcomes by what the graph holds:

- **no chain**: no chain of relations leads from the drug to the disease, followed in their direction (breadth first
  over ``triples.tsv``). The only honest answer is NOT_FOUND;
- **chain of k steps**: the shortest chain has k steps. The walk reaches six; the shortest-chain fallback two more.

It also counts answers whose path never reaches the named disease (what the reviewer now rejects), and answers
found by the shortest-chain fallback. The gold is read only to leave curated pairs out. Nothing here is a pass/fail
test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.context import Context
from core.datasets import load_paths
from core.settings import Settings
from graphs.qa import build_graph
from medpath.services import build_services
from tools.walker import SHORTEST_CHAIN, hops_between


def main() -> None:
    """Draw the pairs, ask, print the table."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=Path, default=ROOT / "data" / "drugmechdb" / "paths_dev.jsonl")
    ap.add_argument("--pairs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    records = load_paths(args.questions)
    drugs = sorted({(r.drug_id, r.drug) for r in records if r.drug_id})
    diseases = sorted({(r.disease_id, r.disease) for r in records if r.disease_id})
    curated = {(r.drug_id, r.disease_id) for r in records}
    rng = random.Random(args.seed)
    res = build_services(Settings.from_env()).resources
    graph = build_graph()
    rows: Counter[tuple[str, str]] = Counter()
    unjoined = fallback = asked = 0
    t0 = time.perf_counter()
    while asked < args.pairs:
        (d, dn), (y, yn) = rng.choice(drugs), rng.choice(diseases)
        if (d, y) in curated:
            continue
        asked += 1
        hops = hops_between(res.kg, [d], [y])
        kind = "no chain" if hops is None else f"chain of {hops} steps" if hops >= 7 else "chain of ≤ 6 steps"
        ctx = Context(interactive=False, resources=res, settings=res.settings, memory=False)
        out = graph.invoke({"question": f"How does {dn} treat {yn}?", "user_id": "bench-unjoined"}, context=ctx)
        status = str(out.get("status", ""))
        rows[(kind, status)] += 1
        ev = out.get("evidence") or []
        if status == "ANSWERED" and ev and out.get("targets") and ev[-1]["tail"] not in out["targets"] \
                and res.kg.name(ev[-1]["tail"]).casefold() not in {res.kg.name(t).casefold() for t in out["targets"]}:
            unjoined += 1
        cands = out.get("candidates") or []
        if status == "ANSWERED" and cands and cands[0].get("features", {}).get(SHORTEST_CHAIN):
            fallback += 1
    print(f"\n{asked} uncurated pairs (seed {args.seed}), {time.perf_counter() - t0:.0f} s\n")
    print("| the graph holds | questions | ANSWERED | NOT_FOUND | other |")
    print("|---|---:|---:|---:|---:|")
    def order(kind: str) -> int:
        return 99 if kind == "no chain" else 6 if "≤" in kind else int(kind.split()[2])

    for kind in sorted({k for k, _ in rows}, key=order):
        n = sum(v for (k, _), v in rows.items() if k == kind)
        ans, nf = rows[(kind, "ANSWERED")], rows[(kind, "NOT_FOUND")]
        print(f"| {kind} | {n} | {ans} | {nf} | {n - ans - nf} |")
    print(f"\nanswers whose path does not reach the named disease: {unjoined}")
    print(f"answers from the shortest-chain fallback: {fallback}")


if __name__ == "__main__":
    main()
