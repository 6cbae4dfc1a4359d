"""Benchmark: the same questions asked in many wordings, scored as ``eval kg`` scores them.

Usage: python bench/bench_wordings.py [--intent treats,mechanism,targets,indications] [--limit 500] [--answers 200] [--paths 200]

Every question goes through the graph as ``ask`` asks it: the intent comes from the text alone.

- ``treats``: ``eval kg``'s "What drug treats Y?" questions for the first ``--limit`` check-half questions (gold:
  every drug the question file lists for the disease), at most ``--answers`` diseases. Hit@1, Hit@5, MRR.
- ``targets``: ``eval kg``'s "What does X target?" questions (gold: the proteins the questions' gold chains say X
  acts on directly), at most ``--answers`` drugs. Hit@1, Hit@5, MRR.
- ``indications``: the drugs of the first ``--limit`` check-half questions, at most ``--answers`` (gold: every
  disease the question file lists for the drug). Hit@1, Hit@5, MRR.
- ``mechanism``: the first ``--paths`` check-half questions, with their drug's and disease's names put in each
  wording. Recall@5 and Path-F1 against their gold, as ``eval kg`` scores them.

A wording that names the disease by an alias in ``nodes.tsv`` runs only for the diseases that have one. "no
answer" counts questions with no ranked drug or target, or no path. Nothing here is a pass/fail test.

The wordings are fixed lists written before the rules that read them were widened (treats on 2026-11-25 before
3da57f6; mechanism and targets the same day, before 2b318e1; indications before bc0b995): wordings a user might type, not ones chosen to pass.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.datasets import load_paths, split_tune_check
from core.settings import Settings
from medpath.evaluation.kg import AnswerQuestion, answer_scores, derive_answer_questions, score_question
from medpath.evaluation.systems import make_system
from medpath.services import build_services

WORDINGS: dict[str, dict[str, str]] = {
    "treats": {
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
    },
    "mechanism": {
        "plain (eval kg's template)": "How does {x} treat {d}?",
        "lower case": "how does {x} treat {d}",
        "what's the mechanism": "What's the mechanism of {x} in {d}?",
        "mechanism of": "Mechanism of {x} for {d}",
        "what does X do in": "What does {x} do in {d}?",
        "how X works in": "How {x} works in {d}",
        "topic: mechanism?": "{x} in {d}: mechanism?",
        "X's mechanism": "Explain {x}'s mechanism in {d}.",
        "MOA": "MOA of {x} in {d}",
        "role of": "What is the role of {x} in {d}?",
        "by what pathway": "By what pathway does {x} treat {d}?",
        "what makes X effective": "What makes {x} effective against {d}?",
        "why does X help": "Why does {x} help {d}?",
        "X for Y - how does it work": "{x} for {d} - how does it work?",
        "Y: how does X help": "{d}: how does {x} help?",
        "walk me through": "Walk me through how {x} treats {d}.",
        "can you explain": "Can you explain how {x} helps with {d}?",
        "act on": "How does {x} act on {d}?",
        "pathway from": "What is the pathway from {x} to {d}?",
        "how are they linked": "{x} and {d}: how are they linked?",
    },
    "indications": {
        "plain (what does X treat)": "What does {x} treat?",
        "prescribed for": "What is {x} prescribed for?",
        "indications of": "What are the indications of {x}?",
        "uses of": "Uses of {x}",
        "bare": "{x} indications",
        "good for": "What is {x} good for?",
        "can be used for": "What can {x} be used for?",
        "help with": "Which diseases does {x} help with?",
        "indicated for": "What is {x} indicated for?",
        "X's uses": "What are {x}'s uses?",
        "treated with": "Which conditions can be treated with {x}?",
        "used to treat": "What is {x} used to treat?",
    },
    "targets": {
        "plain (eval kg's)": "What does {x} target?",
        "X's targets": "What are {x}'s targets?",
        "bare": "{x} targets",
        "which proteins bind": "Which proteins does {x} bind?",
        "the target of": "What is the target of {x}?",
        "inhibit": "What does {x} inhibit?",
        "act on": "what does {x} act on",
        "targets of": "Targets of {x}?",
        "which receptors": "Which receptors does {x} act on?",
        "tell me": "Tell me the molecular targets of {x}.",
        "mechanism target": "What is the molecular target of {x}?",
        "what does X bind to": "What does {x} bind to?",
    },
}
"""Intent → wording name → template; ``{d}`` is the disease's name, ``{x}`` the drug's, ``{alias}`` one of the
disease's aliases (a seeded choice)."""


def _indications(records: list[Any], every: list[Any], limit: int) -> list[AnswerQuestion]:
    """"What does X treat?" for the drugs of ``records`` (gold: every disease of X in the whole question file)."""
    diseases: dict[str, set[str]] = defaultdict(set)
    for r in every:
        if r.drug_id and r.disease_id:
            diseases[r.drug_id].add(r.disease_id)
    drugs = sorted({r.drug_id for r in records if r.drug_id})[:limit]
    return [AnswerQuestion(f"indications:{d}", "", "indications", frozenset(diseases[d])) for d in drugs]


def _answers(system: Any, kg: Any, questions: list[Any], wordings: dict[str, str], aliases: dict[str, list[str]],
             rng: random.Random) -> dict[str, list[float]]:
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0])
    for q in questions:
        ent = q.id.split(":", 1)[1]
        alias = rng.choice(aliases[ent]) if aliases.get(ent) else ""
        for wording, template in wordings.items():
            if "{alias}" in template and not alias:
                continue
            out = system.run(template.format(d=kg.name(ent), x=kg.name(ent), alias=alias), None)
            scores = answer_scores(out.answers[:5], q.gold)
            row = totals[wording]
            row[0] += 1
            for i, metric in enumerate(("hit@1", "hit@5", "mrr"), 1):
                row[i] += scores[metric]
            row[4] += 0 if out.answers else 1
    return totals


def _paths(system: Any, kg: Any, records: list[Any], wordings: dict[str, str]) -> dict[str, list[float]]:
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0])
    for rec in records:
        for wording, template in wordings.items():
            out = system.run(template.format(x=kg.name(rec.drug_id), d=kg.name(rec.disease_id)), None)
            scores = score_question(rec, out.retrieved, out.path)
            row = totals[wording]
            row[0] += 1
            row[1] += scores["recall@5"]
            row[2] += scores["path_f1"]
            row[3] += 0 if out.path else 1
    return totals


def main() -> None:
    """Ask every wording and print one table per intent."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=Path, default=ROOT / "data" / "drugmechdb" / "paths_dev.jsonl")
    ap.add_argument("--intent", default="treats,mechanism,targets,indications")
    ap.add_argument("--limit", type=int, default=500)
    ap.add_argument("--answers", type=int, default=200)
    ap.add_argument("--paths", type=int, default=200)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    settings = Settings.from_env()
    res = build_services(settings).resources
    every = load_paths(args.questions)
    _, check = split_tune_check(every)
    derived = derive_answer_questions(check[: args.limit], res.kg, args.answers, every)
    aliases = {eid: [a for a in names if a.casefold() != res.kg.name(eid).casefold()] for eid, names in res.kg.aliases.items()}
    system = make_system("medpath", res)
    for intent in [i.strip() for i in args.intent.split(",") if i.strip()]:
        t0 = time.perf_counter()
        wordings = WORDINGS[intent]
        if intent == "mechanism":
            records = [r for r in check[: args.paths] if r.drug_id and r.disease_id]
            totals = _paths(system, res.kg, records, wordings)
            print(f"\n{intent}: {len(records)} questions, {time.perf_counter() - t0:.0f} s\n")
            print("| wording | example | questions | Recall@5 | Path-F1 | no path |\n|---|---|---:|---:|---:|---:|")
            for wording, (n, r5, f1, none) in totals.items():
                example = wordings[wording].format(x="X", d="Y")
                print(f"| {wording} | {example} | {n} | {r5 / n:.3f} | {f1 / n:.3f} | {none} |")
            continue
        asked = _indications(check[: args.limit], every, args.answers) if intent == "indications" else [
            q for q in derived if q.intent == intent]
        totals = _answers(system, res.kg, asked, wordings, aliases, random.Random(args.seed))
        print(f"\n{intent}: {len(asked)} questions, {time.perf_counter() - t0:.0f} s\n")
        print("| wording | example | questions | Hit@1 | Hit@5 | MRR | no answer |\n|---|---|---:|---:|---:|---:|---:|")
        for wording, (n, h1, h5, mrr, none) in totals.items():
            example = wordings[wording].format(x="X", d="Y", alias="Y's alias")
            print(f"| {wording} | {example} | {n} | {h1 / n:.3f} | {h5 / n:.3f} | {mrr / n:.3f} | {none} |")


if __name__ == "__main__":
    main()
