"""The last answer in plain words, for "can you explain that more simply?", or step by step, for "what are the
steps?" (both were NOT_FOUND: "no known entity in the question").

A mechanism is told as what the drug does to its first target, in an everyday verb and with what kind of thing the
target is, and then what the path's signed relations say it does to the disease, the steps between named but not
spelt out. A list keeps its first sentence, without the ranking, and tells its best evidence in plain words ("what does
lisinopril target?", retold, was "lisinopril acts on: Angiotensin-converting enzyme." alone). Deterministic: the words come
from the relations and the entity types, not from a model.
"""

from __future__ import annotations

import re
from typing import Any

from agents.state import Intent, State
from tools.answers import types_of
from tools.path_ranker import effect

__all__ = ["KIND", "plain_words", "simpler", "step_by_step"]

KIND = {"Protein": "a protein", "GeneFamily": "a family of proteins", "MacromolecularComplex": "a protein complex",
         "ChemicalSubstance": "a chemical", "BiologicalProcess": "a process in the body", "Pathway": "a pathway in the body",
         "MolecularActivity": "a molecular activity", "PhenotypicFeature": "a sign or symptom", "Disease": "a disease",
         "OrganismTaxon": "a microorganism", "Cell": "a kind of cell", "CellularComponent": "a part of a cell",
         "GrossAnatomicalStructure": "a part of the body", "Drug": "a drug"}
"""What kind of thing an entity type is, in everyday words."""
_VERB = {"decreases activity of": "blocks", "negatively regulates": "holds back", "disrupts": "disrupts",
         "increases activity of": "switches on", "positively regulates": "boosts",
         "decreases abundance of": "lowers the amount of", "increases abundance of": "raises the amount of",
         "has metabolite": "is turned in the body into", "produces": "produces", "molecularly interacts with": "binds to",
         "interacts with": "binds to", "physically interacts with": "binds to", "increases degradation of": "breaks down",
         "prevents": "prevents", "treats": "treats", "ameliorates": "eases"}
"""An everyday verb for a drug's first step; any other relation is "acts on"."""
_SHORTER = re.compile(r"\b(?:short|shorter|brief|briefly|quick|tl;?dr|too long|sum (?:it|that) up)\b", re.IGNORECASE)
"""A request for the last answer shorter, not plainer ("tl;dr"): a list is not retold with its evidence."""
_NUMBER = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def plain_words(triples: list[dict[str, str]], kind: Any, lead: str = "In plain words") -> str:
    """A path in plain words: "In plain words: lisinopril blocks Angiotensin-converting enzyme (a protein). From there,
    three more steps, through Aldosterone secretion and Positive regulation of blood pressure, lead to Hypertensive
    disorder; taken together, the relations say lisinopril works against it." ``kind``: an entity id's type."""
    first, last = triples[0], triples[-1]
    drug, target = first["head_name"], first["tail_name"]
    what = f" ({KIND[k]})" if (k := kind(first["tail"])) in KIND else ""
    lead = f"{lead}: {drug} {_VERB.get(first['relation'], 'acts on')} {target}{what}"
    if len(triples) == 1:
        return f"{lead}, directly."
    rest = len(triples) - 1
    inner = [t["tail_name"] for t in triples[1:-1]]
    through = (f", through {inner[0]}" if len(inner) == 1 else f", through {', '.join(inner[:-1])} and {inner[-1]}"
               if inner and len(inner) <= 3 else f", through {len(inner)} other entities" if inner else "")
    steps = f"{_NUMBER.get(rest, str(rest))} more step{'s' if rest > 1 else ''}"
    sign = effect([t["relation"] for t in triples])
    said = ("works against it" if sign < 0 else "raises it" if sign > 0 else
            "is linked to it, without saying which way")
    lead_to = f"{steps}{through}, lead" if through else f"{steps} lead{'' if rest > 1 else 's'}"
    return f"{lead}. From there, {lead_to} to {last['tail_name']}; taken together, the relations say {drug} {said}."


def step_by_step(triples: list[dict[str, str]], lead: str = "The path") -> str:
    """A path's steps, numbered: "The path has two steps: 1. imatinib decreases activity of ABL1. 2. ABL1 causes CML.
    Ask "explain the second step" about one of them." """
    steps = " ".join(f"{i}. {t['head_name']} {t['relation']} {t['tail_name']}." for i, t in enumerate(triples, 1))
    ask = ' Ask "explain the second step" about one of them.' if len(triples) > 1 else ""
    n = len(triples)
    return f"{lead} has {_NUMBER.get(n, str(n))} step{'s' if n != 1 else ''}: {steps}{ask}"


def simpler(state: State, answer: str, best: dict[str, Any], kg: Any) -> str:
    """The answer to "explain that more simply" (a reference of kind ``simpler``): a mechanism in plain words
    (:func:`plain_words`), a list by its first sentence and its best evidence in plain words (the list alone when
    asked shorter); to "what are the steps?" (``steps``), the path's steps numbered (:func:`step_by_step`; after a
    list, its best evidence's). ``answer`` itself for any other question."""
    hows = {r.get("how") for r in state.references}
    path = state.intent in (Intent.MECHANISM.value, Intent.RELATION.value) and bool(best.get("triples"))
    if "steps" in hows and best.get("triples"):  # after a list, its best evidence
        return step_by_step(best["triples"], "The path" if path else "The best evidence")
    if "simpler" not in hows:
        return answer
    if path:
        return plain_words(best["triples"], types_of(kg))
    listed = answer.split(" Best evidence:", 1)[0].rstrip(".") + "."
    shorter = any(r.get("how") == "simpler" and _SHORTER.search(str(r.get("text", ""))) for r in state.references)
    if shorter or not best.get("triples"):  # "tl;dr" after a list: the list alone
        return listed
    return f"{listed} {plain_words(best['triples'], types_of(kg), 'Its best evidence in plain words')}"  # it was the list alone
