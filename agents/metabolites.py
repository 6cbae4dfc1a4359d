"""What a drug becomes in the body: "what does levothyroxine become?", "what are the metabolites of prednisone?", "what
is tenofovir disoproxil converted to?", "is clopidogrel a prodrug?".

Answered from the graph's edges from a drug to what it becomes ("has metabolite", "produces", "derives into"), not a
walk, with what each of those acts on. They were answered with what the drug is connected to ("Is Clopidogrel a
prodrug?": "Clopidogrel is connected to: P2Y purinoceptor 12"), which says nothing of what it becomes. The graph
records what curated mechanisms pass through, so an absent edge does not say a drug has no metabolite: the answer
says what is recorded, and that whether a drug is a prodrug is not.
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import listing
from agents.ellipsis import drug_named, entity_of
from agents.state import Intent, Status, linked_mention
from agents.what_it_is import acted_on
from tools.answers import BECOMES

__all__ = ["metabolites_answer", "metabolites_question"]

_BECOMES = BECOMES | {"derives into"}
"""The relations from a drug to what it becomes."""
ACTS_SHOWN = 3
"""How many of what a metabolite acts on the answer names."""
_ASKED = re.compile(
    r"^(?:and |so )?(?:what (?:does|do) (?P<a>.+?) (?:become|turn into|change into|get (?:converted|metaboli[sz]ed|broken "
    r"down) (?:to|into))|what (?:is|are) (?P<b>.+?) (?:metaboli[sz]ed|converted|broken down|turned) (?:to|into)|what (?:is|are) "
    r"(?:the )?(?:active )?metabolites? of (?P<c>.+?)|what (?:is|are) (?P<d>.+?)(?:'s|’s) (?:active )?metabolites?|(?:does|do) "
    r"(?P<e>.+?) have (?:an? |any )?(?:active )?metabolites?|(?:is|are) (?P<f>.+?) (?:an? )?(?P<pro>prodrugs?)|how (?:is|are) "
    r"(?P<g>.+?) (?:metaboli[sz]ed|broken down))[?.!]*$",
    re.IGNORECASE)
"""A question about what a drug becomes; the drug's name in the one group that matched, ``pro`` for a prodrug. "How is
clopidogrel metabolized?" was told what clopidogrel is connected to, its receptor."""


def _asked(question: str, linker: Any) -> tuple[dict[str, Any], bool] | None:
    """The drug the question asks about and whether it asks if the drug is a prodrug; None for any other question, or
    a name that links to no drug."""
    m = _ASKED.match(" ".join(question.split()))
    name = next((g for k, g in (m.groupdict().items() if m else ()) if g and k != "pro"), None)
    drug = drug_named(name, linker, read=True) if name else None
    return (drug, bool(m["pro"])) if drug is not None and m is not None else None


def metabolites_question(question: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for a question about what a drug becomes: the intent and the drug in the drug slot, so that
    "what does it target?" next is about it; None for any other question."""
    asked = _asked(question, linker)
    if asked is None:
        return None
    drug = asked[0]
    return {"intent": Intent.METABOLITES.value,
            "mentions": [linked_mention("drug", drug)]}


def metabolites_answer(question: str, kg: Any, linker: Any) -> dict[str, Any]:
    """What the drug becomes by the graph's edges, and what each of those acts on, as ``items`` ("what does the first
    one target?" next); when the graph records none, what the drug acts on itself."""
    asked = _asked(question, linker)
    if asked is None:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no drug named in the question."}
    drug, prodrug = asked
    becomes = [e for e in kg.out_edges(drug["id"]) if e.relation in _BECOMES]
    unsaid = (f" Whether {drug['name']} is a prodrug, inactive until it is changed, the graph does not record."
              if prodrug else "")
    if not becomes:
        acts = _acts_on(kg, drug["id"])
        itself = f" It records {drug['name']} acting on {acts} itself." if acts else ""
        return {"status": Status.ANSWERED, "items": [],
                "answer": f"The knowledge graph records no metabolite of {drug['name']}.{itself}{unsaid}"}
    told = [f"{kg.name(e.tail)} ({e.relation})" + (f", which acts on {acts}" if (acts := _acts_on(kg, e.tail)) else "")
            for e in becomes]
    items = [entity_of(n) for e in becomes if (n := kg.node(e.tail)) is not None]
    return {"status": Status.ANSWERED, "items": items,
            "answer": f"In the knowledge graph, {drug['name']} becomes {'; and '.join(told)}.{unsaid}"}


def _acts_on(kg: Any, entity: str) -> str:
    """What ``entity`` acts on by its own edges (``agents.what_it_is.acted_on``: diseases and what it becomes left out);
    "" for nothing."""
    names = list(dict.fromkeys(kg.name(e.tail) for e in kg.out_edges(entity) if e.relation not in _BECOMES and acted_on(kg, e)))
    return listing(names[:ACTS_SHOWN]) if names else ""
