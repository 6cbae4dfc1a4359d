"""Another drug for the last question that asked what the graph does not hold: "what about lisinopril?" after "what
are the side effects of metformin?" is "what are the side effects of lisinopril?", so the note on side effects stays
(it asked what lisinopril targets, with no note); "what about insulin?" after "is metformin safe in pregnancy?" is "is
insulin safe in pregnancy?" (it was "is metformin safe in insulin?"), and after "how much metformin should I take?"
"how much insulin should I take?" (it was "How does Metformin act on insulin?")."""

from __future__ import annotations

import re

from agents.focus import Focus
from agents.intent import SLOT_TYPES
from agents.resolution import Linker, Resolution
from agents.scope import out_of_scope
from agents.state import DISEASE_TYPES, DRUG_TYPES
from tools.linker import LinkStatus, fold, guessed

__all__ = ["same_topic_for"]


def same_topic_for(res: Resolution, q: str, z: str, focus: Focus, linker: Linker) -> str | None:
    """The thread's last question with its one drug's name replaced by ``z`` (the words after "what about"), when that
    question asked what the graph does not hold (``agents.scope.out_of_scope``) and ``z`` names a drug by its letters,
    one drug or several ("insulin": the planner reads it as a direct question does). None otherwise: a disease or a
    condition ("what about kidney disease?" after a safety question swaps the condition), a question that named two
    drugs ("can I take warfarin with ibuprofen?"), or a patient's record."""
    asked, z = focus.question, z.strip()
    if not asked or focus.intent == "patient" or not out_of_scope(asked):
        return None
    drugs = [(mention, e) for mention, e in focus.named.items() if e.get("type") in DRUG_TYPES]
    if len(drugs) != 1 or (spot := re.search(rf"\b{re.escape(drugs[0][0])}\b", asked, re.IGNORECASE)) is None:
        return None
    plain = linker.link(z)
    if plain.best is not None and plain.best.type in DISEASE_TYPES:
        return None
    out = linker.link(z, SLOT_TYPES["drug"])
    if out.status not in (LinkStatus.LINKED, LinkStatus.AMBIGUOUS) or out.best is None or out.best.type not in DRUG_TYPES \
            or guessed(z, out.best.name, out.best.method) or fold(out.best.name) == fold(drugs[0][1]["name"]):
        return None
    if out.status is LinkStatus.LINKED:  # by the graph's name, as ``agents.safe_with.safe_again`` puts it
        z = out.best.name
        res.pinned[fold(z)] = {"id": out.best.id, "name": out.best.name, "type": out.best.type}
    res.references.append({"text": q, "how": "ellipsis", "entity": drugs[0][1], "replaced_by": z})
    return f"{asked[: spot.start()]}{z}{asked[spot.end():]}"
