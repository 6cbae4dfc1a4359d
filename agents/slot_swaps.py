"""A follow-up that swaps one part of the thread's disease or drug: a modifier ("and type 2?" after type 1
diabetes, "and acute?" after chronic myeloid leukemia) or a place in the body ("and in the ovary?" after lung cancer)."""

from __future__ import annotations

from typing import Any

from agents.focus import Focus
from agents.intent import SLOT_TYPES
from agents.resolution import Linker
from agents.state import DISEASE_TYPES, DRUG_TYPES
from tools.linker import LinkStatus, fold, guessed
from tools.places import PLACE_TYPES

__all__ = ["drug_named", "entity_of", "modifier_swap", "place_swap"]


def entity_of(cand: Any) -> dict[str, Any]:
    """A linker candidate as a thread's entity: its id, name and type."""
    return {"id": cand.id, "name": cand.name, "type": cand.type}


_OPPOSITES = {"acute": "chronic", "chronic": "acute", "primary": "secondary", "secondary": "primary"}
"""Words whose opposite a follow-up can name alone: "and acute?" after chronic myeloid leukemia."""


def modifier_swap(z: str, focus: Focus, linker: Linker) -> dict[str, Any] | None:
    """The thread's disease (or drug) with one of its modifiers changed or added, when ``z`` is that modifier: "and type
    2?" after type 1 diabetes (or after Diabetes mellitus) is Diabetes mellitus type 2, "and acute?" after chronic
    myeloid leukemia is acute myeloid leukemia. Only a name the graph holds exactly counts; otherwise None."""
    words = z.split()
    size = len(words)  # "type 2" for "type 1"; one word for its opposite ("acute" for "chronic")
    if not 1 <= size <= 3:
        return None
    for ent in (focus.disease, focus.drug):
        name = (ent or {}).get("name", "").split()
        for i, word in enumerate([*name, ""]):  # "": appended ("and type 1?" after Diabetes mellitus, none named)
            same_head = size > 1 and fold(word) == fold(words[0]) and fold(" ".join(name[i:i + size])) != fold(z)
            added = not word and size > 1 and any(c.isdigit() for c in z)  # "type 1", a numbered modifier
            if not (same_head or added or size == 1 and _OPPOSITES.get(fold(word)) == fold(words[0])):
                continue
            text = " ".join(name[:i] + words + name[i + size:])
            out = linker.link(text)
            top = out.candidates[0] if out.candidates and out.status.value == "linked" else None
            if top and top.id != ent["id"] and top.type == ent["type"] and not guessed(text, top.name, top.method) \
                    and set(fold(z).split()) <= set(fold(top.name).replace(",", " ").split()):  # type: ignore[index]
                return entity_of(top)  # "and type 3?" is no misspelling of type 2
    return None


def place_swap(z: str, focus: Focus, linker: Linker) -> dict[str, Any] | None:
    """The thread's disease in another place in the body, when ``z`` names the place: "and in the ovary?" after how
    carboplatin treats Malignant tumor of lung is Malignant tumor of ovary (it asked how carboplatin acts on the ovary);
    None when the disease names no place, or the graph holds no such disease of the other place."""
    place = linker.link(z).best
    name = str((focus.disease or {}).get("name", ""))
    if not name or place is None or place.type not in PLACE_TYPES:
        return None
    words = name.split()
    at = [i for i, w in enumerate(words) if any(c.type in PLACE_TYPES and c.id != place.id for c in linker.exact(w))]
    if len(at) != 1:
        return None
    text = " ".join([*words[: at[0]], place.name, *words[at[0] + 1:]])
    out = linker.link(text, SLOT_TYPES["disease"])
    top = out.best if out.status is LinkStatus.LINKED else None
    return entity_of(top) if top is not None and top.type in DISEASE_TYPES and top.id != focus.disease["id"] else None  # type: ignore[index]


def drug_named(mention: str, linker: Any, read: bool = False) -> dict[str, Any] | None:
    """The drug a mention links to; with ``read``, only one it names by its letters ("is ezetimibe better combined
    with a statin?" linked "ezetimibe better combined with" by a word of it, and answered whether it is a statin)."""
    out = linker.link(mention, SLOT_TYPES["drug"])
    drug = out.best if out.status is LinkStatus.LINKED else None
    if drug is not None and read and guessed(mention, drug.name, drug.method):
        return None
    return None if drug is None or drug.type not in DRUG_TYPES else entity_of(drug)
