"""Questions that compare two or more drugs: "compare aspirin and ibuprofen", "how do they differ?", "is allopurinol
better than colchicine?", "how are aspirin and warfarin related?".

Naming drugs and nothing else, they are asked as what the drugs target (``State.compared``), the drugs the subject:
there is no chain from one drug to another to walk (a question that ranks them was NOT_FOUND: "no chain of relations
from …"). "How are codeine and morphine related?" keeps its walk: a chain joins them (codeine has metabolite morphine).
"""

from __future__ import annotations

from typing import Any

from agents.intent import (
    COMPARING,
    RANKING_DRUGS,
    RELATING,
    SET_AGAINST,
    SLOT_TYPES,
    ParsedQuestion,
    out_of_scope,
    split_listed,
)
from agents.scope import COMBINED
from agents.state import DRUG_TYPES, Intent
from tools.linker import LinkStatus
from tools.walker import hops_between

__all__ = ["CHAIN_NODES", "compared_drugs", "drugs_named", "targets_of_several"]

CHAIN_NODES = 20_000
"""How many entities the search for a chain between two drugs may reach before it gives up (and the walk answers)."""


def compared_drugs(question: str, intent: Intent, mentions: list[dict[str, Any]], kg: Any) -> dict[str, Any]:
    """The planner's drugs to compare (``drug_class``, ``among``, ``compared``, ``subject``) for a relation question
    that names two or more drugs and nothing else with a comparing word, or "related" when no chain joins them; {} for
    any other question."""
    ents = list({m["entity"]["id"]: m["entity"] for m in mentions if m.get("entity")}.values())
    if intent is not Intent.RELATION or len(ents) < 2 or len(ents) < len(mentions) \
            or any(e["type"] not in DRUG_TYPES for e in ents):
        return {}
    if not _compares(question) and not (RELATING.search(question) and all(e["type"] == "Drug" for e in ents) and not _chained(kg, ents)):
        return {}
    names = [e["name"] for e in ents]
    return {"drug_class": f"{', '.join(names[:-1])} and {names[-1]}", "among": [e["id"] for e in ents],
            "compared": True, "subject": True}


def targets_of_several(res: Any, parsed: ParsedQuestion | None, known: Any) -> dict[str, Any]:
    """The drugs to compare for "what do losartan and valsartan target?" (as ``compared_drugs`` gives them: what both
    act on and what only one does), when the drug slot lists names ``known`` accepts and each links to a drug; {} for
    any other question. It was answered for losartan alone, valsartan offered as the next question. ``linked``: the
    drugs' mentions, which the planner takes as the question's (:func:`agents.planner._kept_to`)."""
    if parsed is None or parsed.intent is not Intent.TARGETS:
        return {}
    first, slot, rest = split_listed(parsed, known)
    if slot != "drug":
        return {}
    linked: dict[str, dict[str, Any]] = {}
    for text in (first.drug, *rest):
        out = res.linker.link(text, SLOT_TYPES["drug"])
        if out.status is not LinkStatus.LINKED or out.best is None or out.best.type not in DRUG_TYPES:
            return {}
        linked[out.best.id] = {"slot": "drug", "mention": text, "status": out.status.value, "entity": out.best.as_dict()}
    names = [m["entity"]["name"] for m in linked.values()]
    return {"drug_class": f"{', '.join(names[:-1])} and {names[-1]}", "among": list(linked), "compared": True,
            "subject": True, "linked": list(linked.values())} if len(linked) >= 2 else {}


def drugs_named(question: str, intent: Intent, mentions: list[dict[str, Any]], res: Any) -> list[dict[str, Any]]:
    """The mentions of a question that compares drugs, a name that links to no drug but heads drugs' names read as the
    plainest of those drugs, the shortest name: "compare metformin and insulin" linked the protein insulin and was
    NOT_FOUND ("no chain of relations from Metformin to insulin"); it compares Metformin and Insulin human. Any other
    question's mentions come back as they were."""
    if intent is not Intent.RELATION or not _compares(question):
        return mentions
    out = []
    for m in mentions:
        ent = m.get("entity")
        heads = res.linker.headed_by(m["mention"], DRUG_TYPES) if ent and ent["type"] not in DRUG_TYPES else []
        if heads:
            x = min(heads, key=lambda d: (len(res.kg.name(d)), d))
            m = {**m, "entity": {"id": x, "name": res.kg.name(x), "type": res.kg.node(x).type}}
        out.append(m)
    return out


def _compares(question: str) -> bool:
    """Whether a question sets the drugs it names against each other: compares them, ranks them, or asks why they are
    given together."""
    return bool(COMPARING.search(question) or out_of_scope(question) in (RANKING_DRUGS, COMBINED) or SET_AGAINST.search(question))


def _chained(kg: Any, ents: list[dict[str, Any]]) -> bool:
    """Whether a chain of relations leads from one of the drugs to another (a drug with no in-edge is reached by
    none), or the search gave up before it knew."""
    ids = [e["id"] for e in ents]
    return any(kg.in_edges(b) and hops_between(kg, [a for a in ids if a != b], [b], CHAIN_NODES) is not None for b in ids)
