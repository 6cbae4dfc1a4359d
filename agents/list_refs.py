"""References to the last answer's list of drugs: "which of them treat heart failure?"."""

from __future__ import annotations

import re

from agents.focus import Focus
from agents.resolution import Resolution
from agents.state import DRUG_TYPES

__all__ = ["of_them"]

_OF_THEM = re.compile(
    r"^(?:which|what|(?:do|does|can|could|will|would) (?:any|some|all|either|one)|(?:is|are) (?:any|some|there any))"
    r"(?: one)? of (?:them|these|those|the above)(?: drugs| medications| medicines| ones)?\s+(?:also |still |then )?"
    r"(?:(?P<rest>(?:treats?|helps?|lowers?|reduces?|prevents?|cures?|works? (?:for|in|against)|(?:is|are|can be) used "
    r"(?:for|to treat)).*)|(?P<other>.+))$",
    re.IGNORECASE)
"""A question about the drugs the last answer listed ("which of them treat heart failure?")."""


def of_them(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Which of them treat heart failure?" after a list of drugs: which of the class treat it (after "Which beta
    blockers …"), or which of the listed drugs (``Resolution.among``)."""
    m = _OF_THEM.match(q)
    drugs = [i["id"] for i in (focus.lists[0] if focus.lists else []) if i.get("type") in DRUG_TYPES]
    if not m or not (focus.drug_class or drugs):
        return None
    res.references.append({"text": q, "how": "list", "class": focus.drug_class, "drugs": drugs})
    if m["other"]:  # "which of them is the cheapest?": about the listed drugs, not something the graph answers
        return f"Which of the {focus.drug_class or 'listed drugs'} {m['other']}?"
    if not focus.drug_class:
        res.among = drugs
    verb = re.sub(r"^(?:treats|helps|lowers|reduces|prevents|cures|works)\b", lambda v: v.group(0)[:-1], m["rest"])
    return f"Which {focus.drug_class or 'of the listed drugs'} {verb}?"
