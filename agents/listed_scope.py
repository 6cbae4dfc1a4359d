"""What about another disease or target, after a question about the drugs a list holds: "what about angina?" after
"What drugs treat hypertension?" and "which of them treat heart failure?" asks which of the listed drugs treat angina.

It was read as "Which listed drugs treat angina?", a class medpath does not know, and every drug for angina was
listed; "what about beta receptors?" after "which of those block calcium channels?" listed every drug that inhibits a
beta receptor, and "and ACE?" told what ACE is connected to."""

from __future__ import annotations

import re

from agents.focus import Focus
from agents.resolution import Linker, Resolution
from agents.state import DRUG_TYPES, LISTED_DRUGS
from core.text import fold

__all__ = ["of_the_listed"]

_ASKED = re.compile(rf"^Which of the {LISTED_DRUGS} (?P<verb>(?:treat|help(?: with)?|lower|reduce|prevent|cure|affect|"
                    r"work (?:for|in|against|on)|(?:are|can be) used (?:for|to treat)|target|inhibit|block|activate|"
                    r"act on|bind(?: to)?)) \S.*\?$", re.IGNORECASE)
"""A question about the listed drugs, as :func:`agents.list_refs.of_them` writes it, and its verb."""


def of_the_listed(res: Resolution, q: str, z: str, focus: Focus, linker: Linker) -> str | None:
    """"Which of the listed drugs treat angina?" for "what about angina?" (``z``: "angina") after a turn that asked
    which of the listed drugs treat heart failure, kept to the same drugs (``Focus.listed``); None when the latest
    turn asked no such question, or ``z`` names a drug (the ordinary ellipsis asks how it treats the disease)."""
    m = _ASKED.match(focus.question) if focus.drug_class == LISTED_DRUGS and focus.listed else None
    best = linker.link(z).best if m else None
    if m is None or (best is not None and best.type in DRUG_TYPES and fold(best.name) == fold(z)):
        return None
    res.among = [str(i["id"]) for i in focus.listed]
    res.references.append({"text": q, "how": "list", "class": "", "drugs": res.among})
    return f"Which of the {LISTED_DRUGS} {m['verb']} {z}?"
