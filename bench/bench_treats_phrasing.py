"""Benchmark: "which drug treats Y?" asked in many wordings, scored like ``eval kg``'s treats columns.

Usage: python bench/bench_treats_phrasing.py [--questions data/drugmechdb/paths_dev.jsonl] [--limit 500] [--answers 200]

The diseases and their gold are ``eval kg``'s "What drug treats Y?" questions for the first ``--limit`` check-half
questions (gold: every drug the question file lists for the disease). Each is asked in every wording of ``WORDINGS``
through the graph, as ``ask`` asks it: the intent comes from the text alone. A wording that names the disease by
one of its aliases in ``nodes.tsv`` runs only for the diseases that have one. Prints Hit@1, Hit@5 and MRR per
wording, and how many answers had no ranked drug at all. Nothing here is a pass/fail test.

The wordings are a fixed list written before the rules that read them were widened (2026-11-25): the wordings a
user might type, not ones chosen to pass.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.datasets import load_paths, split_tune_check
from core.settings import Settings
from medpath.evaluation.kg import answer_scores, derive_answer_questions
from medpath.evaluation.systems import make_system
from medpath.services import build_services

WORDINGS: dict[str, str] = {
    "plain (eval kg's)": "What drug treats {d}?",
    "lower case": "what drug treats {d}",
    "which ... used for": "Which drugs are used for {d}?",
    "given for": "What medication is given for {d}?",
    "prescribed for": "What is prescribed for {d}?",
    "indicated for": "Which therapies are indicated for {d}?",
    "can be used to treat": "What drugs can be used to treat {d}?",
    "help with": "Which medicines help with {d}?",
    "treatment of": "What is the treatment of {d}?",
    "treatment options": "Treatment options for {d}?",
    "drugs for": "Drugs for {d}",
    "best drug for": "Best drug for {d}?",
    "list": "List drugs that treat {d}.",
    "is there a drug": "Is there a drug for {d}?",
    "take for": "What can I take for {d}?",
    "patient take": "What should a patient with {d} take?",
    "how do you treat": "How do you treat {d}?",
    "topic first": "{d}: which drugs treat it?",
    "alias": "What drug treats {alias}?",
}
"""Wording name → template; ``{d}`` is the disease's name, ``{alias}`` one of its aliases (seeded choice)."""


def load_aliases(nodes: Path) -> dict[str, list[str]]:
    """Aliases per node id from ``nodes.tsv`` (the node's own name left out)."""
    out: dict[str, list[str]] = {}
    with nodes.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            names = [a.strip() for a in (row.get("aliases") or "").split("|") if a.strip()]
            out[row["id"]] = [a for a in names if a.lower() != row["name"].lower()]
    return out


def main() -> None:
    """Ask every wording of every disease and print the table."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=Path, default=ROOT / "data" / "drugmechdb" / "paths_dev.jsonl")
    ap.add_argument("--limit", type=int, default=500)
    ap.add_argument("--answers", type=int, default=200)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    settings = Settings.from_env()
    res = build_services(settings).resources
    every = load_paths(args.questions)
    _, check = split_tune_check(every)
    asked = [q for q in derive_answer_questions(check[: args.limit], res.kg, args.answers, every) if q.intent == "treats"]
    aliases = load_aliases(settings.data_dir / "drugmechdb" / "nodes.tsv")
    rng = random.Random(args.seed)
    system = make_system("medpath", res)
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0])
    t0 = time.perf_counter()
    for q in asked:
        disease = q.id.split(":", 1)[1]
        name = res.kg.name(disease)
        alias = rng.choice(aliases[disease]) if aliases.get(disease) else ""
        for wording, template in WORDINGS.items():
            if "{alias}" in template and not alias:
                continue
            out = system.run(template.format(d=name, alias=alias), None)
            scores = answer_scores(out.answers[:5], q.gold)
            row = totals[wording]
            row[0] += 1
            row[1] += scores["hit@1"]
            row[2] += scores["hit@5"]
            row[3] += scores["mrr"]
            row[4] += 0 if out.answers else 1
    print(f"{len(asked)} diseases, {time.perf_counter() - t0:.0f} s\n")
    print("| wording | example | questions | Hit@1 | Hit@5 | MRR | no drug |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for wording, (n, h1, h5, mrr, none) in totals.items():
        example = WORDINGS[wording].format(d="Y", alias="Y's alias")
        print(f"| {wording} | {example} | {n} | {h1 / n:.3f} | {h5 / n:.3f} | {mrr / n:.3f} | {none} |")


if __name__ == "__main__":
    main()
