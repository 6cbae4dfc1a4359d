"""Questions that compare two drug classes: "compare ARBs and ACE inhibitors", "SSRIs vs SNRIs", "how do statins and
fibrates differ?".

They were answered for one entity a class's name also links to ("compare ARBs and ACE inhibitors" told what the enzyme
Angiotensin-converting enzyme is connected to). A class is no entity of the graph: the class table lists its drugs by
the stems of their names, so two classes are compared by the targets their drugs act on, directly or through what they
become (``tools.answers.shared_targets``, as "What do statins target?" counts them), without a walk.
"""

from __future__ import annotations

from typing import Any

from agents.answer_notes import listing
from agents.class_member import class_drugs
from agents.disease_compare import set_against
from agents.state import Status
from tools.answers import TARGET_TYPES, shared_targets, types_of

__all__ = ["TARGETS_SHOWN", "classes_answer", "compared_classes"]

TARGETS_SHOWN = 3
"""Targets named per class, the most shared first."""


def compared_classes(question: str, linker: Any) -> tuple[str, str] | None:
    """The two drug classes a question sets against each other, by the class table's names ("ARBs", "ACE
    inhibitors"), or None when it does not name two different classes."""
    pair = set_against(question)
    if pair is None:
        return None
    a, b = (linker.class_name(x) for x in pair)
    return (a, b) if a and b and a != b else None


def classes_answer(pair: tuple[str, str], res: Any) -> dict[str, Any]:
    """What each class of ``pair`` (:func:`compared_classes`) has its drugs act on, the most shared first with how many
    of its drugs act on each, then the targets both classes act on, or that they share none. ``items``: the targets
    named, for "the first one" next."""
    kg, type_of = res.kg, types_of(res.kg)
    counted: list[dict[str, int]] = []
    parts: list[str] = []
    for cls in pair:
        drugs = [c.id for c in class_drugs(res.linker, cls)]
        found = shared_targets(kg, drugs, TARGET_TYPES, type_of, k=50) if drugs else []
        counted.append({t: int(p.features["class_drugs"]) for t, p in found})
        shown = [f"{kg.name(t)} ({n} of {len(drugs)})" for t, n in list(counted[-1].items())[:TARGETS_SHOWN]]
        where = "" if parts else " in the knowledge graph"
        parts.append(f"the {len(drugs)} {cls}{where} act on: {listing(shown)}" if shown else
                     f"the {cls} act on no protein in the knowledge graph" if drugs else
                     f"the class table lists no {cls} in the knowledge graph")
    both = [t for t in counted[0] if t in counted[1]]
    shared = (f"Both act on: {listing([kg.name(t) for t in both[:TARGETS_SHOWN]])}." if both else
              "They share no target in the knowledge graph.")
    text = f"{parts[0]}; {parts[1]}. {shared}"
    items = [{"id": t, "name": kg.name(t), "type": type_of(t)} for c in counted for t in list(c)[:TARGETS_SHOWN]]
    return {"status": Status.ANSWERED if any(counted) else Status.NOT_FOUND, "answer": text[:1].upper() + text[1:],
            "items": list({i["id"]: i for i in items}.values())}
