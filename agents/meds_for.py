"""A patient's medications for a condition named before the word for medications ("Is PAT_002 on any schizophrenia
medication?", "What diabetes medications is PAT_005 on?", "What are PAT_005's blood pressure meds?").

The first was read as whether the record lists the condition ("Yes: PAT_002's record lists Schizophrenia among the
conditions"), the second listed every medication, and the third gave the patient's systolic blood pressure. Each is
asked as what the record lists for the condition: "Is PAT_002 taking anything for schizophrenia?".
"""

from __future__ import annotations

import re
from typing import Any

from agents.state import DRUG_TYPES

__all__ = ["meds_for"]

_MEDS = r"(?:medications?|medicines?|meds|drugs?|pills|tablets|prescriptions?)"
_WHO = r"(?P<who>PAT_\d+|he|she|they|the patient)"
_X = r"(?P<x>[a-z][\w' -]*?)"
_YES_NO = re.compile(rf"^(?P<aux>is|are|does|do|has|have)\s+{_WHO}\s+(?:(?:been\s+)?(?:on|taking|take|using|use|getting|get|"
                     rf"prescribed|given))\s+(?:any|a|an|some)\s+{_X}\s+{_MEDS}[?.!]*$", re.IGNORECASE)
_WHAT = re.compile(rf"^(?:what|which)\s+{_X}\s+{_MEDS}\s+(?:is|are|does|do|has|have)\s+{_WHO}\s+(?:been\s+)?(?:on|taking|"
                   rf"take|using|use|prescribed|given|getting|get)[?.!]*$", re.IGNORECASE)
_THEIRS = re.compile(rf"^(?:what\s+are|what's|list|show(?:\s+me)?)\s+(?P<who>PAT_\d+'s|his|her|their|the patient's)\s+{_X}\s+"
                     rf"{_MEDS}[?.!]*$", re.IGNORECASE)
_SUBJECT = {"his": "he", "her": "she", "their": "they", "the patient's": "the patient"}
_NOT_A_CONDITION = frozenset({"other", "new", "current", "all", "regular", "daily", "prescribed", "recent", "usual", "otc",
                              "over the counter", "generic", "brand", "brand name", "old"})


def meds_for(question: str, linker: Any) -> str:
    """``question`` asked as what the record lists for the condition its words name before "medications", or
    ``question`` itself (no such words, or they name a drug or a drug class: "is she on any statin medications?")."""
    text = " ".join(question.split())
    m = _YES_NO.match(text) or _WHAT.match(text) or _THEIRS.match(text)
    if m is None or m["x"].casefold() in _NOT_A_CONDITION or linker.drug_class(m["x"]):
        return question
    best = linker.link(m["x"]).best
    if best is not None and best.type in DRUG_TYPES:
        return question
    who = m["who"]
    who = who[:-2] if who.endswith("'s") else _SUBJECT.get(who.casefold(), who)
    plural = who.casefold() == "they"
    if m.re is _YES_NO:
        return f"{'Are' if plural else 'Is'} {who} taking anything for {m['x']}?"
    return f"What {'are' if plural else 'is'} {who} taking for {m['x']}?"
