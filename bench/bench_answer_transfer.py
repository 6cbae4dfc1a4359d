"""How much the drugs that act on a target alike add to "which drug treats Y?" and "what does X treat?", by weight.

Usage: python bench/bench_answer_transfer.py [--weights 0,1,2,3,5] [--ind-weights 0,1,3,4,5,10] [--drugs 400]

The tune half's drugs are split in two by hash (``sha1(drug id) % 4 < 2``). The answers learn from the first half
only: ``tools.answers.target_mates`` and ``disease_mates`` count the chains of its drugs alone (the rest of the index
is the shipped one). Every question goes through the graph as ``eval kg`` asks it:

- ``treats``: "What drug treats Y?" for every disease of the second half's drugs, scored on the second half's drugs
  listed for Y, the first half's left out of the gold and the answers (``eval kg``'s new-drug columns);
- ``indications``: "What does X treat?" for the second half's first ``--drugs`` drugs, scored against every disease
  the question file lists for X.

Each weight replaces ``TRANSFER_WEIGHT`` or ``INDICATION_TRANSFER_WEIGHT`` (0: the list is left out). This is how the
shipped weights were chosen (docs/ranking.md); the check half is never read. Prints a table; nothing here is a
pass/fail test. About 40 s per treats weight and 100 s per indications weight on a 2-core machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents import answer_paths
from core.datasets import PathRecord, load_paths, split_tune_check
from core.settings import Settings
from medpath.evaluation.kg import answer_scores
from medpath.evaluation.systems import make_system
from medpath.services import build_services
from tools.answers import disease_mates, target_mates


def halves(tune: list[PathRecord]) -> tuple[list[PathRecord], list[PathRecord]]:
    """The tune half's records split by drug: the first half is learned from, the second asked about."""
    first = [r for r in tune if int(hashlib.sha1(r.drug_id.encode()).hexdigest(), 16) % 4 < 2]
    return first, [r for r in tune if r not in first]


def learn_from(learned: set[str], diseases: dict[str, set[str]]) -> None:
    """Make the answers' third lists count the ``learned`` drugs' chains alone, and leave a list out while its weight
    is 0 (as before it existed)."""

    def mates(kg: Any, _learned: Collection[str], treating: Collection[str], types: Collection[str]) -> list[str]:
        if not answer_paths.TRANSFER_WEIGHT:
            return []
        return target_mates(kg, learned, set(treating) & learned, types)

    def of(kg: Any, drug: str, _learned: Collection[str], _diseases: Callable[[str], Collection[str]]) -> list[str]:
        if not answer_paths.INDICATION_TRANSFER_WEIGHT:
            return []
        return disease_mates(kg, drug, learned, lambda d: diseases.get(d, set()))

    answer_paths.target_mates = mates  # type: ignore[assignment]
    answer_paths.disease_mates = of  # type: ignore[assignment]


def scores(system: Any, asked: list[tuple[str, set[str], set[str]]], intent: str | None) -> dict[str, float]:
    """Mean Hit@1, Hit@5 and MRR over (question, gold, left out) triples."""
    total: Counter[str] = Counter()
    for question, gold, left_out in asked:
        answers = [a for a in system.run(question, intent).answers if a not in left_out]
        total.update(answer_scores(answers, gold))
    return {k: v / max(len(asked), 1) for k, v in total.items()}


def main() -> None:
    """Print one row per weight for each of the two questions."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", default="0,1,2,3,5", help="TRANSFER_WEIGHT values for 'which drug treats Y'")
    ap.add_argument("--ind-weights", default="0,1,3,4,5,10", help="INDICATION_TRANSFER_WEIGHT values")
    ap.add_argument("--drugs", type=int, default=400, help="'what does X treat' for the first N asked drugs")
    args = ap.parse_args()
    settings = dataclasses.replace(Settings.from_env(), database_url="")
    res = build_services(settings).resources
    every = load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl")
    first, second = halves(split_tune_check(every)[0])
    learned = {r.drug_id for r in first}
    listed: dict[str, set[str]] = defaultdict(set)
    diseases: dict[str, set[str]] = defaultdict(set)
    for r in every:
        listed[r.disease_id].add(r.drug_id)
        diseases[r.drug_id].add(r.disease_id)
    learn_from(learned, {d: diseases[d] for d in learned})
    system = make_system("medpath", res)
    treats = [(f"What drug treats {res.kg.name(y)}?", listed[y] - learned, listed[y] & learned)
              for y in sorted({r.disease_id for r in second if res.kg.node(r.disease_id)})]
    treats = [q for q in treats if q[1]]
    drugs = sorted({r.drug_id for r in second if res.kg.node(r.drug_id)})[: args.drugs]
    indications: list[tuple[str, set[str], set[str]]] = [(f"What does {res.kg.name(d)} treat?", diseases[d], set()) for d in drugs]
    print(f"learned from {len(learned)} tune drugs; {len(treats)} diseases and {len(drugs)} drugs asked", flush=True)
    print("| question | weight | Hit@1 | Hit@5 | MRR |\n|---|---:|---:|---:|---:|", flush=True)
    runs = (("which drug treats Y (new drugs)", "TRANSFER_WEIGHT", args.weights, treats, "treats"),
            ("what does X treat", "INDICATION_TRANSFER_WEIGHT", args.ind_weights, indications, None))
    for name, attr, weights, asked, intent in runs:
        for w in (float(x) for x in weights.split(",") if x):
            setattr(answer_paths, attr, w)
            s = scores(system, asked, intent)
            print(f"| {name} | {w:g} | {s['hit@1']:.3f} | {s['hit@5']:.3f} | {s['mrr']:.3f} |", flush=True)


if __name__ == "__main__":
    main()
