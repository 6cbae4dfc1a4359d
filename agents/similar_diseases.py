"""Diseases like a disease: "which diseases are similar to gout?", "what conditions are like asthma?" (each listed the
disease's drugs, read as a question about the disease alone).

The graph holds drug mechanisms, not how alike diseases are, and the answer says so first. What it can compare is what
it links into each disease (the processes, chemicals and findings the curated chains pass through just before it), as
``agents.disease_compare`` compares two: the diseases that share the most of what is linked into this one, an entity
weighing the more the fewer diseases it is linked into ("inflammatory response" is linked into hundreds), each with
what it shares. No walk.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from typing import Any

from agents.answer_notes import listing
from agents.ellipsis import entity_of
from agents.intent import SLOT_TYPES
from agents.state import DISEASE_TYPES, Intent, Status, linked_mention
from tools.linker import LinkStatus, fold

__all__ = ["similar_answer", "similar_question"]

_ASKED = re.compile(
    r"^(?:and |so )?(?:(?:which|what)(?: other)? (?:diseases?|conditions?|disorders?|illnesses?) (?:are|is) (?:most )?"
    r"(?:similar to|like|comparable to|close to|akin to)|(?:name|list)(?: some| a few)?(?: other)? (?:diseases?|conditions?) "
    r"(?:similar to|like)|what (?:else )?is (?:similar to|like)) (?P<y>.+?)[?.!]*$", re.IGNORECASE)
"""A question for the diseases like one disease."""
NOTE = ("The knowledge graph holds curated drug mechanisms, not how alike diseases are; it compares them by what it "
        "links into each. ")
SHOWN = 5
"""How many diseases the answer names."""
SHARED_SHOWN = 3
KEPT = 0.5
"""A disease is named only if it is at least this share as alike as the most alike one: below it are the many that share
only an entity linked into hundreds of diseases ("inflammatory response" alone, after Hyperuricemia for gout)."""
"""How many shared entities each named disease shows."""


def _disease(question: str, linker: Any) -> dict[str, Any] | None:
    m = _ASKED.match(" ".join(question.split()))
    if m is None:
        return None
    out = linker.link(m["y"], SLOT_TYPES["disease"])
    best = out.best if out.status is not LinkStatus.UNKNOWN else None
    return entity_of(best) if best is not None and best.type in DISEASE_TYPES else None


def similar_question(question: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for a question for the diseases like one (the disease in the disease slot, so that "what
    treats it?" next is about it); None for any other question."""
    disease = _disease(question, linker)
    if disease is None:
        return None
    return {"intent": Intent.SIMILAR.value,
            "mentions": [linked_mention("disease", disease)]}


def _linked_into(kg: Any, disease: str) -> set[str]:
    """What the graph links into a disease, drugs and other diseases left out (chemicals kept: uric acid into gout)."""
    return {e.head for e in kg.in_edges(disease)
            if (n := kg.node(e.head)) is not None and n.type != "Drug" and n.type not in DISEASE_TYPES}


def alike(kg: Any, disease: str) -> list[tuple[str, float, list[str]]]:
    """The other diseases that share what is linked into ``disease``, most alike first: (id, cosine, the shared
    entities, the weightiest first). Each entity weighs log(1 + the diseases any entity reaches at most, over the
    diseases it is linked into), so that what is linked into hundreds ("inflammatory response") says little, and the
    cosine of the two weighted sets keeps a disease that shares only such an entity from the top."""
    reach: dict[str, set[str]] = {}

    def diseases_of(h: str) -> set[str]:
        if h not in reach:
            reach[h] = {e.tail for e in kg.out_edges(h) if (n := kg.node(e.tail)) is not None and n.type in DISEASE_TYPES}
        return reach[h]

    into = _linked_into(kg, disease)
    shared: dict[str, list[str]] = defaultdict(list)
    for h in into:
        for t in diseases_of(h) - {disease}:
            shared[t].append(h)
    theirs = {other: _linked_into(kg, other) for other in shared}
    most = max((len(diseases_of(h)) for hs in (into, *theirs.values()) for h in hs), default=1)

    def weight(h: str) -> float:
        return math.log(1 + most / max(len(diseases_of(h)), 1))

    def norm(hs: set[str]) -> float:
        return math.sqrt(sum(weight(h) ** 2 for h in hs)) or 1.0

    ours = norm(into)
    scored = [(other, sum(weight(h) ** 2 for h in hs) / (ours * norm(theirs[other])),
               sorted(hs, key=lambda h: (-weight(h), kg.name(h)))) for other, hs in shared.items()]
    return sorted(scored, key=lambda x: (-x[1], kg.name(x[0])))


def similar_answer(question: str, kg: Any, linker: Any) -> dict[str, Any]:
    """The diseases most alike by what the graph links into them, each with what they share, as ``items`` ("what treats
    the first one?" next)."""
    disease = _disease(question, linker)
    if disease is None:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no disease named in the question."}
    named: dict[str, tuple[str, float, list[str]]] = {}
    for r in alike(kg, disease["id"]):  # one per name, the most alike (Hyperuricemia is a disease and a phenotype)
        named.setdefault(fold(kg.name(r[0])), r)
    ranked = list(named.values())
    found = [r for r in ranked if r[1] >= KEPT * ranked[0][1]][:SHOWN] if ranked else []
    if not found:
        return {"status": Status.ANSWERED, "items": [],
                "answer": NOTE + f"It links nothing into {disease['name']} that it links into another disease."}
    told = "; ".join(f"{kg.name(d)} ({listing([kg.name(h) for h in hs[:SHARED_SHOWN]])})" for d, _, hs in found)
    items = [entity_of(n) for d, _, _ in found if (n := kg.node(d)) is not None]
    return {"status": Status.ANSWERED, "items": items,
            "answer": NOTE + f"Diseases it links the same entities into as {disease['name']}, most alike first: {told}."}
