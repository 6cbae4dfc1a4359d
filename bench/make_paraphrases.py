"""Write a paraphrased copy of the check half: the same gold, the question asked another way (seeded).

Usage: python bench/make_paraphrases.py [--seed 13] [--out data/paraphrase/paths_check_paraphrased.jsonl]

Each check-half question of ``data/drugmechdb/paths_dev.jsonl`` gets one rewrite, chosen by a seeded generator:

- ``reorder``: another question template ("By what mechanism does X act on Y?", "Y: how does X help?", …);
- ``lower``: the question in lower case, with a reordered template half of the time;
- ``synonym``: the drug or disease named by one of its aliases in ``nodes.tsv`` (when it has one), or a MeSH-style
  inverted name turned round ("Hypertension, Pulmonary" → "Pulmonary Hypertension");
- ``brand``: the drug named by a brand name from ``memory/brand_names.tsv`` (when it has one).

Records keep their id, drug, disease and gold; ``paraphrase`` says what changed. The output lists only check-half
records, so ``--split check`` on it runs them all. The eval never sees how a question was made.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.datasets import (
    load_paths,
    split_tune_check,
)

TEMPLATES = (
    "By what mechanism does {drug} act on {disease}?",
    "{disease}: how does {drug} help?",
    "Explain how {drug} works in {disease}.",
    "What is the mechanism of action of {drug} in {disease}?",
    "Why is {drug} used for {disease}?",
    "{drug} for {disease} - how does it work?",
    "how does {drug} treat {disease}",
    "In {disease}, what does {drug} do?",
)


def uninvert(name: str) -> str:
    """"Hypertension, Pulmonary" → "Pulmonary Hypertension" (one comma, two short parts); else unchanged."""
    parts = [p.strip() for p in name.split(",")]
    if len(parts) == 2 and all(parts) and len(parts[1].split()) <= 3 and not any(c.isdigit() for c in parts[1]):
        return f"{parts[1]} {parts[0]}"
    return name


def load_aliases(nodes: Path) -> dict[str, list[str]]:
    """Aliases per node id from ``nodes.tsv``."""
    out: dict[str, list[str]] = {}
    with nodes.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            names = [a.strip() for a in (row.get("aliases") or "").split("|") if a.strip()]
            out[row["id"]] = [a for a in names if a.lower() != row["name"].lower()]
    return out


def load_brands(path: Path) -> dict[str, list[str]]:
    """Brand names per generic name (lower case) from the brand table."""
    out: dict[str, list[str]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                generic, brands = line.split("\t", 1)
                out[generic.strip().lower()] = [b.strip() for b in brands.split(",") if b.strip()]
    return out


def rewrite(rec: dict, rng: random.Random, aliases: dict[str, list[str]], brands: dict[str, list[str]]) -> tuple[str, str]:
    """(new question, kind of change)."""
    drug, disease = rec["drug"], rec["disease"]
    kinds = ["reorder", "lower"]
    brand = brands.get(drug.lower(), [])
    drug_alias = aliases.get(rec["drug_id"], [])
    disease_alias = aliases.get(rec["disease_id"], []) + ([uninvert(disease)] if uninvert(disease) != disease else [])
    if drug_alias or disease_alias:
        kinds.append("synonym")
    if brand:
        kinds.append("brand")
    kind = rng.choice(kinds)
    template = rng.choice(TEMPLATES)
    if kind == "synonym":
        if disease_alias and (not drug_alias or rng.random() < 0.5):
            disease = rng.choice(disease_alias)
        else:
            drug = rng.choice(drug_alias)
    elif kind == "brand":
        drug = rng.choice(brand)
    question = template.format(drug=drug, disease=disease)
    if kind == "lower":
        question = (question if rng.random() < 0.5 else rec["question"]).lower()
    return question, kind


def main() -> None:
    """Write the paraphrased check half."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "paraphrase" / "paths_check_paraphrased.jsonl")
    args = ap.parse_args()
    src = ROOT / "data" / "drugmechdb" / "paths_dev.jsonl"
    _, check = split_tune_check(load_paths(src))
    keep = {r.id for r in check}
    aliases = load_aliases(ROOT / "data" / "drugmechdb" / "nodes.tsv")
    brands = load_brands(ROOT / "memory" / "brand_names.tsv")
    rng = random.Random(args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    with src.open(encoding="utf-8") as fh, args.out.open("w", encoding="utf-8") as out:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            if rec["id"] not in keep:
                continue
            question, kind = rewrite(rec, rng, aliases, brands)
            counts[kind] = counts.get(kind, 0) + 1
            out.write(json.dumps({**rec, "question": question, "question_is_template": False,
                                  "paraphrase": {"kind": kind, "original": rec["question"]}}) + "\n")
    print(f"wrote {sum(counts.values())} questions to {args.out}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
