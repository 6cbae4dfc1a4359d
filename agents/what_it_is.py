"""What an entity is, before what it is connected to: "What is imatinib?", "Tell me about EGFR", the bare name
"Gleevec".

These were answered with what the entity is connected to and nothing about what it is: "What is insulin?" told that
insulin prevents Hyperglycemia, without saying that the graph's insulin is the protein, or that the drugs are named
after it. The lead names the kind of thing the graph holds (``agents.plain.KIND``), its id, the name asked by when
it differs (a brand, a symbol), the classes a drug belongs to, and for anything else the drugs named after it.
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import listing
from agents.described import about
from agents.plain import KIND
from agents.state import DRUG_TYPES, Intent, State, Status
from core.text import fold

__all__ = ["NAMED_SHOWN", "identity_lead"]

NAMED_SHOWN = 4
"""Drugs named after an entity that the lead names; the rest are counted."""


def identity_lead(state: State, status: Any, linker: Any) -> str:
    """"imatinib is a drug in the knowledge graph (MESH:D000068877), one of the kinase inhibitors. " before the answer to
    a question that asks what one entity is; "" for any other question, or one that found no answer."""
    linked = [m for m in state.mentions if m.get("entity")]
    if status != Status.ANSWERED or state.intent != Intent.ENTITY.value or len(linked) != 1:
        return ""
    ent, mention = linked[0]["entity"], _as_written(state.asked, str(linked[0].get("mention") or ""))
    if not mention or fold(about(state.asked)) != fold(mention):  # not "what are the side effects of ibuprofen?"
        return ""
    kind = KIND.get(ent["type"], f"a {ent['type']}")
    said = (f"{mention} is {ent['name']}, {kind}" if mention and fold(mention) != fold(ent["name"])
            else f"{ent['name']} is {kind}")
    lead = f"In the knowledge graph, {said} ({ent['id']})"
    if ent["type"] in DRUG_TYPES:
        classes = linker.classes_of(ent["id"])
        return f"{lead}, one of the {' and one of the '.join(classes)}. " if classes else f"{lead}. "
    named = [c.name for c in linker.drugs_named_by(mention or ent["name"], [], {"Drug": 1.0})]
    if not named:
        return f"{lead}. "
    more = f" and {len(named) - NAMED_SHOWN} more" if len(named) > NAMED_SHOWN else ""
    return (f"{lead}. Drugs named after it: {listing(named[:NAMED_SHOWN])}{more}; ask about one of them for its "
            f"mechanism. ")


def _as_written(question: str, mention: str) -> str:
    """The mention as the question spells it ("EGFR", not the linker's folded "egfr"), or the mention itself."""
    m = re.search(re.escape(mention), question, re.IGNORECASE) if mention else None
    return m.group(0) if m else mention
