"""The other drug of a question whether two go together, when no name the question's scan found is it: "does warfarin
interact with apixaban?" (a drug the graph does not hold), "can I take warfarin with asprin?" (a misspelling). Both
were answered for warfarin alone, the other dropped without a word."""

from __future__ import annotations

import re
from typing import Any

from agents.beside import ANY_MEDS, NOT_ONE
from agents.drug_topic import FOOD_OR_DRINK
from agents.free_text import lexical
from agents.scope import INTERACTIONS, out_of_scope
from agents.state import DRUG_TYPES
from tools.link_outcome import LinkStatus
from tools.linker import fold

__all__ = ["unnamed_other"]


_OTHER_SIDE = re.compile(r"\b(?:interacts?|interfere|take|taking|use|using|combine|combining|mix|mixing|safe|ok|okay)\b[^?]*?\b"
                         r"(?:with|and|plus) (?P<b>[\w'-]+(?: [\w'-]+)?)(?: together| at the same time| safely)?[?.!]*$", re.IGNORECASE)
"""The second thing of a question whether two go together ("does warfarin interact with apixaban?")."""


_MEAL = re.compile(r"\b(?:breakfast|lunch|dinner|supper|meals?|snacks?|water|juice|soda|drinks?|food|eating)$", re.IGNORECASE)
"""What is eaten or drunk beside a drug ("can I take aspirin with breakfast?"): no drug the graph lacks."""


def unnamed_other(res: Any, question: str, mentions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The second thing of a question whether two drugs go together, when the question's one linked drug is the
    first and the linker knows no entry by the second's letters ("does warfarin interact with apixaban?") or only a
    drug it resembles ("can I take warfarin with asprin?"): its unknown mention, so that the planner says it is not in
    the knowledge graph and what it may be (both were answered for warfarin alone, the other dropped without a word).
    [] for any other question, for food or drink ("with alcohol?"), or for drugs named as such ("with other drugs")."""
    m = _OTHER_SIDE.search(" ".join(question.split())) if out_of_scope(question) == INTERACTIONS else None
    other = m["b"] if m else ""
    if len(mentions) != 1 or not other or FOOD_OR_DRINK.match(f"with {other}") or _MEAL.search(other) or NOT_ONE.search(other) \
            or ANY_MEDS.match(other):
        return []
    said = {fold(str(mentions[0].get("mention") or "")), fold(str((mentions[0].get("entity") or {}).get("name") or ""))}
    out = lexical(res.linker.link(other))
    typo = out.status is LinkStatus.LINKED and out.best is not None and out.best.method == "fuzzy" and out.best.type in DRUG_TYPES
    if fold(other) in said or not (out.status is LinkStatus.UNKNOWN or typo):
        return []
    return [{"slot": "drug", "mention": other, "status": LinkStatus.UNKNOWN.value, "entity": None}]
