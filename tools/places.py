"""A disease named by the organ it is in: "cancer of the lung", "liver disease", "a tumour in the breast".

The only name inside such a mention is the organ's (lung, a GrossAnatomicalStructure), so the linker read the whole
mention as the organ, and "how does cisplatin treat cancer of the lung?" answered how cisplatin acts on the lung.
:func:`diseases_at` finds the diseases whose names say both the organ, or its adjective (pulmonary, hepatic), and the
kind of disease the mention says (cancer: carcinoma, tumour, neoplasm, malignant …).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from core.datasets import DISEASE_TYPES
from core.text import fold
from memory.protocols import Entity

__all__ = ["KIND_BEFORE", "PLACED_IN", "PLACE_TYPES", "PLACING", "diseases_at", "diseases_of_place", "says_only_the_place"]

PLACE_TYPES = frozenset({"GrossAnatomicalStructure", "CellularComponent", "Cell"})
"""The entity types that are places in the body."""
PLACED_IN = frozenset({"located in", "part of", "expressed in", "occurs in"})
"""Relations from an entity to its place ("Abnormal cell proliferation —located in→ Kidney")."""
PLACING = frozenset({"location of", "affected by"})
"""Relations from a place to the entity (a disease's organ: "bronchus —location of→ Asthma")."""
_KINDS = (
    frozenset({"cancer", "cancers", "carcinoma", "carcinomas", "tumor", "tumors", "tumour", "tumours", "neoplasm",
               "neoplasms", "malignancy", "malignancies", "malignant"}),
    frozenset({"disease", "diseases", "disorder", "disorders"}),
    frozenset({"infection", "infections"}),
)
"""Words that say what kind of disease, each with the words that say the same in the graph's names."""
KIND_BEFORE = re.compile(r"\b(?:cancers?|carcinomas?|tumou?rs?|neoplasms?|malignanc(?:y|ies)|diseases?|disorders?|"
                         r"infections?)\s*$", re.IGNORECASE)
"""A kind of disease just before a place ("… treat cancer | in the lung?"): the place is part of the disease's name."""
_ADJECTIVES = {"lung": ("pulmonary",), "lungs": ("pulmonary",), "liver": ("hepatic",), "kidney": ("renal",),
               "kidneys": ("renal",), "brain": ("cerebral",), "skin": ("cutaneous", "skin"),
               "stomach": ("gastric",), "colon": ("colonic", "colorectal"), "breast": ("mammary",),
               "prostate": ("prostatic",), "ovary": ("ovarian",), "pancreas": ("pancreatic",), "bone": ("bones",),
               "bladder": ("vesical",), "thyroid": ("thyroid",), "intestine": ("intestinal",),
               "heart": ("cardiac", "myocardial", "coronary")}
"""An organ's adjective in the graph's disease names ("Pulmonary Fibrosis")."""
_FILLER = frozenset({"of", "the", "in", "a", "an"})
_ANY_ILLNESS = frozenset({"my", "your", "his", "her", "problem", "condition", "issue", "trouble", "health", "disease",
                          "disorder", "illness", "damage", "injury", "injuries"})
"""Words beside a place that name no disease of it in particular ("heart problems", "my kidneys", "kidney damage")."""


def diseases_at(mention: str, places: Iterable[Entity], entities: Iterable[Entity],
                aliases: dict[str, tuple[str, ...]]) -> list[tuple[Entity, bool]]:
    """The diseases a mention that names a kind of disease and a place means, each with whether its name says only
    the place and the kind ("Malignant tumor of lung" for "cancer of the lung", True; "Non-small cell lung cancer",
    False), those first; [] when the mention names no kind of disease ("the lung") or no name fits."""
    words = set(fold(mention).split())
    kind = next((k for k in _KINDS if words & k), None)
    if kind is None:
        return []
    organ = _forms(places)
    found: dict[str, tuple[Entity, bool]] = {}
    for e, toks in _disease_texts(organ, entities, aliases):
        if toks & kind:
            faithful = toks <= organ | kind | _FILLER
            if e.id not in found or faithful and not found[e.id][1]:
                found[e.id] = (e, faithful)
    return sorted(found.values(), key=lambda x: (not x[1], x[0].name, x[0].id))


def says_only_the_place(mention: str, place: Entity) -> bool:
    """Whether a mention says the place and nothing more particular ("the heart", "kidney problems"), so that the
    place's diseases may be what it means; "polycystic ovary syndrome" is a disease the graph lacks, and it was asked
    which of the ovary's diseases it was (an ovarian tumour first)."""
    allowed = _forms([place]) | _FILLER | _ANY_ILLNESS
    return all(w in allowed or w.removesuffix("s") in allowed for w in fold(mention).split())


def diseases_of_place(place: Entity, entities: Iterable[Entity], aliases: dict[str, tuple[str, ...]]) -> list[Entity]:
    """The diseases whose names or aliases say the place or its adjective ("heart": Congestive heart failure, Cardiac
    Arrhythmia, …), by name; [] for none. "Which drugs are good for the heart?" listed drugs for the heart itself."""
    found = {e.id: e for e, _ in _disease_texts(_forms([place]), entities, aliases)}
    return sorted(found.values(), key=lambda e: (e.name, e.id))


def _disease_texts(organ: set[str], entities: Iterable[Entity],
                   aliases: dict[str, tuple[str, ...]]) -> Iterator[tuple[Entity, set[str]]]:
    """Each disease's name or alias that holds a word of ``organ``, with its folded words."""
    for e in entities:
        if e.type in DISEASE_TYPES:
            for text in (e.name, *aliases.get(e.id, ())):
                if (toks := set(fold(text).split())) & organ:
                    yield e, toks


def _forms(places: Iterable[Entity]) -> set[str]:
    """The words of the places' names and their adjectives (lung: pulmonary)."""
    organ = {w for p in places for w in fold(p.name).split()}
    return organ | {a for w in list(organ) for a in _ADJECTIVES.get(w, ())}
