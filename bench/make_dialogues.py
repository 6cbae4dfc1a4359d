"""Write the scripted conversation suite for ``medpath eval chat`` (seeded; tune half of paths_dev only).

Each dialogue is 3-5 turns built from one of ten shapes (follow-up pronouns, ellipsis, ordinals,
qualifiers, a failure mid-thread, topic switches, clarification, a reference with nothing to refer
to, and a resume from a second process), with its own phrasing drawn from several per shape. The
drugs and diseases come from the tune half's questions, and only names that link to one entity by
exact match are used, so a turn tests the conversation, not the linker. Expected entities are the
ids the questions name (never gold paths). The format is in docs/formats.md.

    python bench/make_dialogues.py --out data/dialogues/chat_dev.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

from core.datasets import load_paths, split_tune_check
from core.settings import Settings
from medpath.services import build_services

AMBIGUOUS = ("diabetes", "leukemia", "hepatitis", "tuberculosis", "herpes", "angina")
"""Partial names that several diseases contain; the first turn must ask which one."""

TARGETS = ("and which protein does it target?", "what does it target?", "what are its targets?",
           "and what does that drug target?", "which targets does it act on?")
ELLIPSIS = ("what about {x}?", "and {x}?", "how about {x}?", "what about {x} instead?")
SWITCH = ("How does {drug} treat {disease}?", "how does {drug} help with {disease}?", "Why does {drug} treat {disease}?")
WORKS = ("does it work?", "how does it work?", "why does it work?")


def ask(text: str, status: str = "ANSWERED", entities: list[str] | None = None, **more: Any) -> dict[str, Any]:
    """One turn that asks."""
    return {"ask": text, "expect": {"status": status, "entities": entities or [], **more}}


def pairs(settings: Settings) -> tuple[list[dict[str, str]], Any]:
    """Tune-half (drug, disease) pairs whose names link to exactly one entity, with the resources."""
    res = build_services(settings).resources
    tune, _ = split_tune_check(load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl"))
    out, seen = [], set()
    for r in tune:
        key = (r.drug_id, r.disease_id)
        if key in seen or not r.drug or not r.disease:
            continue
        seen.add(key)
        d, s = res.linker.exact(r.drug), res.linker.exact(r.disease)
        if [c.id for c in d] == [r.drug_id] and [c.id for c in s] == [r.disease_id] and len(r.drug) < 40 and len(r.disease) < 40:
            out.append({"drug": r.drug, "drug_id": r.drug_id, "disease": r.disease, "disease_id": r.disease_id})
    return out, res


def ellipsis(rng: random.Random, drug_id: str, other: dict[str, str] | None, fallback: dict[str, str]) -> dict[str, Any]:
    """"what about <disease>?": answered when the drug has a curated mechanism for it (``other``); for an
    arbitrary disease only the resolution is expected (the graph may hold no path for the pair)."""
    if other is not None:
        return ask(rng.choice(ELLIPSIS).format(x=other["disease"]), entities=[drug_id, other["disease_id"]],
                   intent="mechanism", rewritten=True)
    turn = ask(rng.choice(ELLIPSIS).format(x=fallback["disease"]), entities=[drug_id, fallback["disease_id"]],
               intent="mechanism", rewritten=True)
    del turn["expect"]["status"]
    return turn


def shapes(rng: random.Random, p: dict[str, str], q: dict[str, str], same_disease: dict[str, str] | None,
           same_drug: dict[str, str] | None, amb: tuple[str, str, str] | None) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every dialogue shape for pair ``p`` (``q`` another pair; ``same_disease`` another drug of p's disease;
    ``same_drug`` another disease of p's drug)."""
    first = ask(f"How does {p['drug']} treat {p['disease']}?", entities=[p["drug_id"], p["disease_id"]])
    out = [
        ("followup-targets", [first, ask(rng.choice(TARGETS), entities=[p["drug_id"]], intent="targets", rewritten=True),
                              ellipsis(rng, p["drug_id"], same_drug, q)]),
        ("failure-mid-thread", [ask(f"How does zorblaxin treat {p['disease']}?", "NOT_FOUND"), first,
                                ask(rng.choice(TARGETS), entities=[p["drug_id"]], intent="targets", rewritten=True)]),
        ("topic-switch", [first, ask(rng.choice(SWITCH).format(**q), entities=[q["drug_id"], q["disease_id"]], rewritten=False),
                          ellipsis(rng, q["drug_id"], None, p)]),
        ("qualifier", [first, ask(rng.choice(("and in children?", "what about in the elderly?", "and in pregnancy?")),
                                  entities=[p["drug_id"], p["disease_id"]], rewritten=True),
                       ask(rng.choice(WORKS), entities=[p["drug_id"], p["disease_id"]], intent="mechanism", rewritten=True)]),
        ("no-context", [ask(rng.choice(("does it work?", "what does it target?", "how does it work?")),
                            "NEEDS_CLARIFICATION", clarify="it"),
                        {"resume": p["drug"], "expect": {"entities": [p["drug_id"]]}},
                        ask(f"how does it treat {p['disease']}?", entities=[p["drug_id"], p["disease_id"]], rewritten=True)]),
        ("ordinal", [ask(f"What drug treats {p['disease']}?", entities=[p["disease_id"]], intent="treats"),
                     ask(rng.choice(("how does the second one work?", "how does the first one work?", "how does the first drug work?")),
                         entities=[p["disease_id"]], rewritten=True),
                     ask(rng.choice(TARGETS), intent="targets", rewritten=True)]),
    ]
    if same_disease:
        out.append(("drug-swap", [first, ask(rng.choice(ELLIPSIS).format(x=same_disease["drug"]),
                                             entities=[same_disease["drug_id"], p["disease_id"]], rewritten=True),
                                  ask(rng.choice(TARGETS), entities=[same_disease["drug_id"]], intent="targets", rewritten=True),
                                  ask(f"How does {p['drug']} treat {p['disease']}?", entities=[p["drug_id"], p["disease_id"]],
                                      rewritten=False)]))
    if amb:
        term, chosen_id, _chosen_name = amb
        clar = [ask(f"How does {p['drug']} treat {term}?", "NEEDS_CLARIFICATION", clarify=term),
                {"resume": chosen_id, "expect": {"entities": [p["drug_id"], chosen_id]}},
                ask(rng.choice(TARGETS), entities=[p["drug_id"]], intent="targets", rewritten=True)]
        out.append(("clarification", clar))
        cross = [dict(t) for t in clar]
        cross[1] = {**cross[1], "process": "new"}
        cross.append(ellipsis(rng, p["drug_id"], same_drug, q))
        out.append(("cross-process-resume", cross))
    return out


def build(settings: Settings, n_per_shape: int, seed: int) -> list[dict[str, Any]]:
    """The dialogues: ``n_per_shape`` of each shape, each from a different pair."""
    rng = random.Random(seed)
    ps, res = pairs(settings)
    by_disease: dict[str, list[dict[str, str]]] = defaultdict(list)
    by_drug: dict[str, list[dict[str, str]]] = defaultdict(list)
    for p in ps:
        by_disease[p["disease_id"]].append(p)
        by_drug[p["drug_id"]].append(p)
    amb: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for term in AMBIGUOUS:
        for c in res.linker.link(term, {"Disease": 1.0, "PhenotypicFeature": 0.9, "*": 0.6}).candidates:
            for p in by_disease.get(c.id, []):
                amb[p["drug_id"]].append((term, c.id, c.name))
    rng.shuffle(ps)
    counts: dict[str, int] = defaultdict(int)
    dialogues = []
    for i, p in enumerate(ps):
        q = ps[(i + 7) % len(ps)]
        if q["drug_id"] == p["drug_id"] or q["disease_id"] == p["disease_id"]:
            continue
        other = next((x for x in by_disease[p["disease_id"]] if x["drug_id"] != p["drug_id"]), None)
        also = next((x for x in by_drug[p["drug_id"]] if x["disease_id"] != p["disease_id"]), None)
        a = amb.get(p["drug_id"], [None])[0]
        for shape, turns in shapes(rng, p, q, other, also, a):
            if counts[shape] < n_per_shape and rng.random() < 0.5:
                counts[shape] += 1
                dialogues.append({"id": f"{shape}-{counts[shape]:02d}", "tags": [shape], "turns": turns})
    return sorted(dialogues, key=lambda d: d["id"])


def main() -> None:
    """Command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("data/dialogues/chat_dev.jsonl"))
    ap.add_argument("--per-shape", type=int, default=4)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    dialogues = build(Settings.from_env(), args.per_shape, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(d) + "\n" for d in dialogues))
    turns = sum(len(d["turns"]) for d in dialogues)
    print(f"wrote {len(dialogues)} dialogues, {turns} turns to {args.out}")


if __name__ == "__main__":
    main()
