""""both" in a follow-up, standing for the thread's last two diseases.

After "What treats gout?" and then "and hypertension?", "what treats both?" was NOT_FOUND ("both" is not in the
knowledge graph), as was "does losartan help both?". A question that ends by treating, helping or being for "both"
(or "them both", "both of them", "both conditions") names no disease of its own; it is asked for the two latest
diseases the thread's turns were about, older first: "what treats both Gout and Hypertension?", which asks for the
drugs with a mechanism for each, and "does losartan help both Gout and Hypertension?", which answers for the first and
offers the second. The disease of a question the last answer offered to ask next counts as the newest ("I have high
blood pressure and gout. What can I take?" answers for Hypertensive disorder and offers "What drug treats gout?"), and
so do the two diseases the last answer listed, when it listed two ("what's the difference between type 1 and type 2
diabetes?" then "which drugs treat both?" was NOT_FOUND). With fewer than two diseases, the question is left to the
other rules.
"""

from __future__ import annotations

import re
from typing import Any

from agents.focus import Focus
from agents.intent import SLOT_TYPES, parse_question
from agents.resolution import Linker, Resolution
from agents.state import DISEASE_TYPES
from tools.linker import LinkStatus, fold

__all__ = ["both_diseases"]

_BOTH = re.compile(r"^(?P<q>.*\b(?:treats?|cures?|helps?(?: with)?|works? (?:for|on|against)|good for|for|against|manages?|"
                   r"lowers?|relieves?)) (?:them both|both(?: of them| conditions| diseases| problems| illnesses)?)$",
                   re.IGNORECASE)
"""A question that ends by treating or being for "both" ("what treats both", "does losartan help both")."""


def both_diseases(res: Resolution, body: str, focus: Focus, linker: Linker) -> str | None:
    """The question ``body`` asked for the thread's two latest diseases (module docstring), or None. ``res`` records
    the reference and pins the two diseases, so that they link as the thread named them."""
    if (m := _BOTH.match(body.rstrip("?.! "))) is None:
        return None
    two = focus.lists[0][::-1] if focus.lists and len(focus.lists[0]) == 2 and all(i.get("type") in DISEASE_TYPES for i in focus.lists[0]) \
        else []  # "what's the difference between type 1 and type 2 diabetes?" listed the two it compared
    diseases = list({d["id"] or fold(d["name"]): d for d in [*two, *_offered(focus, linker), *focus.diseases]}.values())  # newest first, once each
    if len(diseases) < 2:
        return None
    newer, older = diseases[:2]
    res.references.append({"text": body, "how": "both", "entities": [older, newer]})
    res.pinned.update({fold(d["name"]): d for d in (older, newer) if d["id"]})
    question = f"{m['q']} both {older['name']} and {newer['name']}?"
    return question[0].upper() + question[1:]


def _offered(focus: Focus, linker: Linker) -> list[dict[str, Any]]:
    """The diseases of the questions the latest answer offered to ask next, linked; a name that fits several
    ("diabetes") as written, without an id, for the planner to ask which ("I have high blood pressure and diabetes."
    then "what drug treats both?" was NOT_FOUND, '"both" is not in the knowledge graph')."""
    out = []
    for q in focus.also_asked:
        parsed = parse_question(q)
        link = linker.link(parsed.disease, SLOT_TYPES["disease"]) if parsed and parsed.disease else None
        if link is not None and link.status is LinkStatus.LINKED and link.best.type in DISEASE_TYPES:
            out.append({"id": link.best.id, "name": link.best.name, "type": link.best.type})
        elif link is not None and link.status is LinkStatus.AMBIGUOUS and any(c.type in DISEASE_TYPES for c in link.candidates):
            out.append({"id": "", "name": parsed.disease, "type": ""})
    return out
