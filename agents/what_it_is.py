"""What an entity is, before what it is connected to: "What is imatinib?", "Tell me about EGFR", the bare name
"Gleevec", and yes or no for "is insulin a protein?", "is gout a disease?".

These were answered with what the entity is connected to and nothing about what it is: "What is insulin?" told that
insulin prevents Hyperglycemia, without saying that the graph's insulin is the protein, or that the drugs are named
after it; "is aspirin a protein?" got no "no". The lead names the kind of thing the graph holds
(``agents.plain.KIND``), its id, the name asked by when it differs (a brand, a symbol), the classes a drug belongs to,
and for anything else the drugs named after it.
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import and_listed, listing
from agents.described import about
from agents.plain import KIND
from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent, State, Status
from core.text import fold
from memory.protocols import Edge
from tools.answers import BECOMES, direct_chains

__all__ = ["NAMED_SHOWN", "acted_on", "drug_held", "identity_lead", "kind_asked"]

NAMED_SHOWN = 4
"""Drugs named after an entity that the lead names; the rest are counted."""
HELD_SHOWN = 3
"""What a drug acts on that a NOT_FOUND answer names (:func:`drug_held`); the rest are counted."""

_KINDS = {"protein": {"Protein", "GeneFamily", "MacromolecularComplex"}, "drug": {"Drug"}, "medicine": {"Drug"},
          "medication": {"Drug"}, "disease": {"Disease"}, "illness": {"Disease"}, "disorder": {"Disease"},
          "condition": {"Disease", "PhenotypicFeature"}, "symptom": {"PhenotypicFeature"},
          "chemical": {"ChemicalSubstance", "Drug"}, "process": {"BiologicalProcess", "Pathway"},
          "pathway": {"Pathway"}, "cell": {"Cell"}, "microorganism": {"OrganismTaxon"}, "organism": {"OrganismTaxon"}}
"""The kinds "is X a …?" may ask about, and the entity types that are each."""
_IS_KIND = re.compile(rf"^(?:and |so )?(?:is|are) (?P<x>.+?) (?:an? )?(?P<k>{'|'.join(_KINDS)})s?\s*[?.!]*$", re.IGNORECASE)
_WHAT_KIND = re.compile(r"^(?:and |so )?(?:what|which) (?:type|kind|sort) of (?:entity|thing|node|concept) (?:is|are) "
                        r"(?P<x>.+?)\s*[?.!]*$", re.IGNORECASE)


def kind_asked(question: str) -> tuple[str, str] | None:
    """``(what, kind)`` for "is insulin a protein?" (("insulin", "protein")), ``(what, "")`` for "what kind of thing is
    uric acid?" or a request for a description ("What is imatinib?"); None for any other question."""
    text = " ".join(question.split())
    if m := _IS_KIND.match(text):
        return m["x"], m["k"].lower()
    if m := _WHAT_KIND.match(text):
        return m["x"], ""
    return (described, "") if (described := about(question)) else None


def identity_lead(state: State, status: Any, linker: Any) -> str:
    """"In the knowledge graph, imatinib is a drug (MESH:D000068877), one of the kinase inhibitors. " before the answer
    to a question that asks what one entity is ("No: in the knowledge graph, aspirin is a drug (…), not a protein. "
    when it asks whether it is of a kind); "" for any other question, or one that found no answer."""
    linked = [m for m in state.mentions if m.get("entity")]
    asked = kind_asked(state.asked)
    if status != Status.ANSWERED or len(linked) != 1 or asked is None:
        return ""
    ent, mention = linked[0]["entity"], _as_written(state.asked, str(linked[0].get("mention") or ""))
    if not mention or fold(asked[0]) != fold(mention) or (not asked[1] and state.intent != Intent.ENTITY.value):
        return ""  # not "what are the side effects of ibuprofen?"
    twins = [c for c in linked[0].get("candidates", []) if c["id"] != ent["id"] and c["type"] != ent["type"]
             and fold(c["name"]) == fold(ent["name"])]  # Hyperglycemia: a MeSH disease and an HPO sign
    if (of_kind := [t for t in twins if t["type"] in _KINDS.get(asked[1], ())]) and ent["type"] not in _KINDS.get(asked[1], ()):
        ent, twins = of_kind[0], [ent, *(t for t in twins if t is not of_kind[0])]  # "is atrial fibrillation a symptom?"
    kind = KIND.get(ent["type"], f"a {ent['type']}")
    said = (f"{mention} is {ent['name']}, {kind}" if fold(mention) != fold(ent["name"]) else f"{ent['name']} is {kind}")
    yes = ent["type"] in _KINDS.get(asked[1], ())
    lead = (f"{'Yes: in' if yes else 'No: in'} the knowledge graph, {said} ({ent['id']})" if asked[1]
            else f"In the knowledge graph, {said} ({ent['id']})")
    classes = linker.classes_of(ent["id"]) if ent["type"] in DRUG_TYPES else []
    of = f"one of the {and_listed(classes)}" if classes else ""
    if asked[1] and not yes:  # "No: in the knowledge graph, Aspirin is a drug (…), not a protein. It is one of the NSAIDs"
        lead = f"{lead}, not a {asked[1]}" + (f". It is {of}" if of else "")
    elif of:
        lead = f"{lead}, {of}"
    lead += "".join(f"; it is also listed as {KIND.get(t['type'], 'a ' + t['type'])} ({t['id']})" for t in twins[:2])
    if ent["type"] in DRUG_TYPES:
        return f"{lead}. "
    named = [c.name for c in linker.drugs_named_by(mention, [], {"Drug": 1.0})]
    if not named:
        return f"{lead}. "
    more = f" and {len(named) - NAMED_SHOWN} more" if len(named) > NAMED_SHOWN else ""
    return (f"{lead}. Drugs named after it: {listing(named[:NAMED_SHOWN])}{more}; ask about one of them for its "
            f"mechanism. ")


def _as_written(question: str, mention: str) -> str:
    """The mention as the question spells it ("EGFR", not the linker's folded "egfr"; "HMG-CoA reductase", not "hmg coa
    reductase"), or the mention itself."""
    m = re.search(r"\W+".join(map(re.escape, mention.split())), question, re.IGNORECASE) if mention.strip() else None
    return m.group(0) if m else mention


def drug_held(kg: Any, mentions: list[dict[str, Any]]) -> str:
    """'what the knowledge graph holds on Amoxicillin: it acts on Penicillin-binding protein 1A and Penicillin-binding
    protein, transpeptidase (ask "What does Amoxicillin treat?")' for the drug a question links beside a name
    the graph lacks ("How does amoxicillin treat an ear infection?" said only that "ear infection" is not in the
    knowledge graph, and nothing on amoxicillin): directly or through what it becomes, as "What does X target?" reads
    it; "" when no mention links a drug or it acts on nothing."""
    drug = next((m["entity"] for m in mentions if m.get("entity") and m["entity"].get("type") in DRUG_TYPES), None)
    if drug is None:
        return ""
    acted = list(dict.fromkeys(kg.name(c[-1].tail) for c in direct_chains(kg, drug["id"]) if acted_on(kg, c[-1])))
    if not acted:
        return ""
    named, more = acted[:HELD_SHOWN], len(acted) - HELD_SHOWN
    sep = "; " if any("," in n for n in named) else ", "  # "Fusion Proteins, bcr-abl" is one name
    shown = f"{sep.join(named)} and {more} more" if more > 0 else \
        f"{sep.join(named[:-1])} and {named[-1]}" if len(named) > 1 else named[0]
    return f"what the knowledge graph holds on {drug['name']}: it acts on {shown} (ask \"What does {drug['name']} treat?\")"


def acted_on(kg: Any, edge: Edge) -> bool:
    """Whether ``edge`` ends in what its drug acts on: not what the drug becomes (prednisone has metabolite
    prednisolone) and not a disease it treats."""
    node = kg.node(edge.tail)
    return node is not None and edge.relation not in BECOMES and node.type not in DISEASE_TYPES
