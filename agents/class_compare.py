"""Questions that compare two drug classes: "compare ARBs and ACE inhibitors", "SSRIs vs SNRIs", "how do statins and
fibrates differ?"; and a class with one drug: "compare statins and aspirin".

They were answered for one entity a class's name also links to ("compare ARBs and ACE inhibitors" told what the enzyme
Angiotensin-converting enzyme is connected to). A class is no entity of the graph: the class table lists its drugs by
the stems of their names, so two classes are compared by the targets their drugs act on, directly or through what they
become (``tools.answers.shared_targets``, as "What do statins target?" counts them), without a walk. A drug set
against a class is a side of one ("compare statins and aspirin" told what aspirin is connected to, the statins dropped).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from agents.answer_notes import listing
from agents.class_member import class_drugs
from agents.disease_compare import as_written, set_against
from agents.state import DRUG_TYPES, Status
from tools.answers import TARGET_TYPES, shared_targets, types_of

__all__ = ["TARGETS_SHOWN", "Side", "classes_answer", "compared_classes", "compared_sides"]

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


class Side(NamedTuple):
    """One side of a comparison: a class of the table and its drugs, or one drug."""

    name: str
    """The class's name in the plural ("statins"), or the drug's name ("Aspirin")."""
    drugs: tuple[str, ...]
    """The class's drugs, the most connected first, or the drug alone (ids)."""
    is_class: bool
    """Whether this side is a class."""


def compared_sides(question: str, linker: Any) -> tuple[Side, Side] | None:
    """The two sides a question sets against each other when one is a class and the other a class
    (:func:`compared_classes`) or a drug named as written ("compare statins and aspirin"); None otherwise."""
    classes = compared_classes(question, linker)
    if classes is not None:
        return (_class_side(classes[0], linker), _class_side(classes[1], linker))
    pair = set_against(question)
    names = [linker.class_name(x) for x in pair] if pair is not None else []
    if pair is None or sum(map(bool, names)) != 1:
        return None
    drug = as_written(pair[names.index("")], "drug", linker)
    if drug is None or drug.type not in DRUG_TYPES:
        return None
    one = Side(drug.name, (drug.id,), False)
    return (_class_side(names[0], linker), one) if names[0] else (one, _class_side(names[1], linker))


def _class_side(cls: str, linker: Any) -> Side:
    return Side(cls, tuple(c.id for c in class_drugs(linker, cls)), True)


def classes_answer(pair: tuple[Side, Side], res: Any) -> dict[str, Any]:
    """What each side of ``pair`` (:func:`compared_sides`) acts on: a class, its drugs' targets, the most shared first
    with how many of its drugs act on each; a drug, its own. Then the targets both act on, or that they share none.
    ``items``: the targets named, for "the first one" next."""
    kg, type_of = res.kg, types_of(res.kg)
    counted: list[dict[str, int]] = []
    parts: list[str] = []
    for side in pair:
        found = shared_targets(kg, list(side.drugs), TARGET_TYPES, type_of, k=50) if side.drugs else []
        counted.append({t: int(p.features["class_drugs"]) for t, p in found})
        parts.append(_acts_on(side, counted[-1], kg, said=any(s.is_class for s in pair[:len(parts)])))
    both = [t for t in counted[0] if t in counted[1]]
    shared = (f"Both act on: {listing([kg.name(t) for t in both[:TARGETS_SHOWN]])}." if both else
              "They share no target in the knowledge graph.")
    drug, cls = (pair if not pair[0].is_class else pair[::-1])
    member = f"{drug.name} is one of the {cls.name}. " if not drug.is_class and drug.drugs[0] in cls.drugs else ""
    text = f"{member}{parts[0]}; {parts[1]}. {shared}"
    items = [{"id": t, "name": kg.name(t), "type": type_of(t)} for c in counted for t in list(c)[:TARGETS_SHOWN]]
    return {"status": Status.ANSWERED if any(counted) else Status.NOT_FOUND, "answer": text[:1].upper() + text[1:],
            "items": list({i["id"]: i for i in items}.values())}


def _acts_on(side: Side, counted: dict[str, int], kg: Any, said: bool) -> str:
    """"the 8 statins in the knowledge graph act on: … (8 of 8), …" (where the graph is named once, by the first
    class), or "Aspirin acts on: …"."""
    if not side.is_class:
        shown = [kg.name(t) for t in list(counted)[:TARGETS_SHOWN]]
        if not shown:
            return f"{side.name} acts on no protein in the knowledge graph"
        return f"{side.name} acts on: {listing(shown)}"
    shown = [f"{kg.name(t)} ({n} of {len(side.drugs)})" for t, n in list(counted.items())[:TARGETS_SHOWN]]
    where = "" if said else " in the knowledge graph"
    return (f"the {len(side.drugs)} {side.name}{where} act on: {listing(shown)}" if shown else
            f"the {side.name} act on no protein in the knowledge graph" if side.drugs else
            f"the class table lists no {side.name} in the knowledge graph")
