"""Questions that ask where something is: "where is ABL1 located?", "where does asthma occur?", "which organ does gout
affect?".

They were answered with what the entity is connected to, as if the question asked nothing more. The curated chains
place some entities: a process or a protein "located in" an organ or a cell part, a disease whose "location of" is an
organ ("bronchus location of Asthma"). The answer now opens with those places, or says that the graph records none,
before what it holds.
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import listing
from agents.state import Intent, State, Status
from tools.answers import types_of
from tools.places import PLACE_TYPES, PLACED_IN, PLACING

__all__ = ["PLACES", "where_lead"]

_WHERE = re.compile(
    r"^(?:so |and |but )?where (?:is|are|does|do|can|in the body)\b|^(?:so |and )?where\b.*\b(?:located|found|expressed|"
    r"occur|occurs|act|acts|work|works)\b|\b(?:which|what) (?:organs?|tissues?|cell(?: type)?s?|body parts?|parts? of the "
    r"body|compartments?)\b|\bin which (?:organs?|tissues?|cells?|parts?)\b", re.IGNORECASE)
"""A question that asks where an entity is."""
_RECORDS = (Intent.PATIENT.value, Intent.COHORT.value)
"""Answers from the patient records, which place nothing."""
PLACES = PLACE_TYPES
"""The entity types that are places."""


def where_lead(state: State, status: Any, kg: Any) -> str:
    """"Where the knowledge graph places Asthma: bronchus. What else it holds: " or "The knowledge graph records no place
    for …. What it holds: " before the answer to a question that asks where the entity it names is; "" for any other
    question, or one that found no answer."""
    entity = next((m["entity"] for m in state.mentions if m.get("entity")), None)
    if entity is None or status != Status.ANSWERED or state.intent in _RECORDS or not _WHERE.search(state.asked):
        return ""
    type_of = types_of(kg)
    places = [e.tail for e in kg.out_edges(entity["id"]) if e.relation in PLACED_IN and type_of(e.tail) in PLACES]
    places += [e.head for e in kg.in_edges(entity["id"]) if e.relation in PLACING and type_of(e.head) in PLACES]
    names = list(dict.fromkeys(kg.name(x) for x in places))
    if not names:
        return f"The knowledge graph records no place for {entity['name']}. What it holds: "
    return f"Where the knowledge graph places {entity['name']}: {listing(names)}. What else it holds: "
