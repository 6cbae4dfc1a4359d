"""The intent that the linked entities' types ask for, once the question's names are linked.

"What drugs target gout?" asks what treats gout; "what does cholesterol do?" what cholesterol is connected to; "what
does gout do?" what shows gout, its signs (it was NOT_FOUND: gout has no edge out of it to walk).
"""

from __future__ import annotations

import re
from typing import Any

from agents.disease_compare import two_diseases
from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent
from agents.via import asks_amount, asks_if_acts, verb_sign
from tools.answers import MANIFESTING, TARGET_TYPES

__all__ = ["NEAREST_NODES", "by_types"]

NEAREST_NODES = 20_000
"""Entities a search for the fewest steps from a drug to one of the diseases an ambiguous name fits may reach."""


def _reaches(kg: Any, start: str, types: set[str]) -> bool:
    """Whether a chain of relations leads from ``start`` to an entity of ``types`` (the first :data:`NEAREST_NODES`
    entities reached, nearest first)."""
    seen, front = {start}, [start]
    while front and len(seen) < NEAREST_NODES:
        nxt = [e.tail for x in front for e in kg.out_edges(x) if e.tail not in seen]
        if any((n := kg.node(t)) is not None and n.type in types for t in nxt):
            return True
        seen.update(nxt)
        front = list(dict.fromkeys(nxt))
    return False


_DOES = re.compile(r"\bdo(?: in the body)?\W*$|^what happens (?:when|if)\b", re.IGNORECASE)
""""What does ACE do?": of a protein, what it is connected to, not the other proteins it reaches (it was "Angiotensin-
converting enzyme acts on: Interleukin-1 family, Interleukin-6")."""


def by_types(res: Any, question: str, intent: Intent, mentions: list[dict[str, Any]], klass: bool
              ) -> tuple[Intent, list[dict[str, Any]]]:
    """The intent the linked types ask for: "what drugs target gout?" asks what treats it, and "which drugs lower
    histamine?" which drugs act on it that way (it was "Histamine is connected to: Osteoarthritis"); a treatment
    question whose only names are drugs ("imatinib therapy", "what drugs treat imatinib?") asks what the graph holds
    about them; so does "what does cholesterol do?" about an entity that is no drug and reaches no target (it was
    NOT_FOUND, "no chain of relations from Cholesterol to any protein …"), and "what does ACE do?" about a protein.
    A disease's signs that the graph does not hold are answered with what it does hold, the drugs for it; and what a
    disease does (:func:`_disease_doing`)."""
    if asks_amount(question, intent, mentions, klass):
        return Intent.TARGETED_BY, mentions
    if intent is Intent.RELATION and two_diseases(question, mentions):  # "the link between obesity and diabetes"
        return Intent.DISEASES, [{**m, "slot": "disease"} for m in mentions]
    if asks_if_acts(question, intent, mentions):  # "does ibuprofen lower prostaglandin E2?": yes or no
        return Intent.RELATION, [{**m, "slot": "target"} if m["slot"] == "disease" else m for m in mentions]
    if (disease := _disease_doing(res, intent, mentions, klass)) is not None:
        return disease
    if intent is Intent.TARGETS and not klass and len(mentions) == 1 and (ent := mentions[0].get("entity")) and ent["type"] != "Drug" \
            and (not _reaches(res.kg, ent["id"], set(TARGET_TYPES)) or (ent["type"] not in DRUG_TYPES and _DOES.search(question))):
        return Intent.ENTITY, mentions
    if intent is Intent.TARGETED_BY and any((m.get("entity") or {}).get("type") in DISEASE_TYPES for m in mentions) \
            and verb_sign(question, mentions) <= 0:  # "what increases blood sugar?" asks for no treatment
        return Intent.TREATS, mentions
    ents = [m["entity"] for m in mentions if m.get("entity")]
    if intent is Intent.ENTITY and len(ents) == len(mentions) == 1 and ents[0]["type"] in DISEASE_TYPES \
            and not res.kg.out_edges(ents[0]["id"]):  # "gout info please": what the graph holds of it is what treats it
        return Intent.TREATS, [{**mentions[0], "slot": "disease"}]
    if intent is Intent.SIGNS and ents and all(x["type"] in DISEASE_TYPES for x in ents) \
            and not any(e.relation in MANIFESTING for x in ents for e in res.kg.in_edges(x["id"])):
        return Intent.TREATS, mentions  # "what are the signs of a heart attack?": the graph holds none; what treats it
    if intent is Intent.TREATS and not klass and ents and len(ents) == len(mentions) and all(e["type"] in DRUG_TYPES for e in ents):
        return Intent.ENTITY, [{**m, "slot": "drug"} for m in mentions]
    if intent is Intent.INVOLVED and len(ents) == len(mentions) == 1 and ents[0]["type"] in DRUG_TYPES:  # "… does metformin affect?"
        return Intent.TARGETS, [{**mentions[0], "slot": "drug"}]
    return intent, mentions


def _disease_doing(res: Any, intent: Intent, mentions: list[dict[str, Any]], klass: bool
                   ) -> tuple[Intent, list[dict[str, Any]]] | None:
    """What a disease does ("what does gout do?", "how does gout affect the body?", read as what a drug targets): its
    signs when the graph links any into it ("what does asthma do?" was "Asthma is connected to: Cough", its one edge
    out), else what the graph holds of it, the drugs for it ("what does gout do?" was NOT_FOUND, "no candidate path":
    a disease with no edge out of it has nothing to walk to). None for any other question."""
    ents = [m["entity"] for m in mentions if m.get("entity")]
    if intent is not Intent.TARGETS or klass or len(ents) != len(mentions) or len(ents) != 1 \
            or ents[0]["type"] not in DISEASE_TYPES:
        return None
    disease = [{**mentions[0], "slot": "disease"}]
    if any(e.relation in MANIFESTING for e in res.kg.in_edges(ents[0]["id"])):
        return Intent.SIGNS, disease
    return (Intent.TREATS, disease) if not res.kg.out_edges(ents[0]["id"]) else None
