"""Which of the listed drugs treat a disease, as their uses: "which of them treat hypertension?" after a patient's
medications, "do they all treat type 2 diabetes?" after the drugs that inhibit DPP-4.

The answer listed every listed drug with a lowering chain into the disease as having "a verified mechanism" for it:
PAT_003's Haloprogin, Amineptine and Pirlindole for Hypertensive disorder, through calcium ion import and serotonin.
Each answer now carries ``known_use`` (``agents.known_use.listed_uses``), and the answer says which drugs reach the
disease only by chains that are none of their uses. A question whether all of them do opens with the count ("Yes, all
5: ", "Not all: 3 of the 5; …"), as "do all statins target …?" does for a class (``agents.class_acts``); it had no yes
or no."""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import listing
from agents.state import LISTED_DRUGS, Intent, State, Status
from core.text import fold
from tools.answers import ANSWERS_K

__all__ = ["all_listed_lead"]

_ALL_OF_THEM = re.compile(r"^(?:and |so |but )?(?:(?:do|are|can|will|would) (?:they|these|those|them)(?: drugs)? (?:all|both)|"
                          r"(?:do|does|are|can) (?:all|both|each|every one) of (?:them|these|those))\b", re.IGNORECASE)
"""A yes/no question about every one of the listed drugs ("do they all treat …?", "are both of them used for …?")."""


def all_listed_lead(state: State, status: Any, kg: Any) -> str:
    """The sentences before the answer to "which of them treat Y?" after a list of drugs: whether all of them do
    (for a question that asks it, :data:`_ALL_OF_THEM`), and which listed drugs reach Y only by chains that are none
    of their uses; "" for any other question."""
    if status != Status.ANSWERED or state.intent != Intent.TREATS.value or state.drug_class != LISTED_DRUGS \
            or len(state.among) < 2 or not any("known_use" in a for a in state.ranked_answers):
        return ""
    disease = next((m["entity"]["name"] for m in state.mentions if m.get("slot") == "disease" and m.get("entity")), "it")
    uses = [a["name"] for a in state.ranked_answers if a.get("known_use")]
    chains = [a["name"] for a in state.ranked_answers if not a.get("known_use")]
    lead = _all_of_them(state, kg, uses, disease) if _ALL_OF_THEM.match(state.question.strip()) else ""
    if chains and not uses:
        return lead + (f"None of the listed drugs has {disease} among its uses as medpath finds them; the chains below "
                       f"reach it from {listing(chains)}. ")
    if chains:
        one = len(chains) == 1
        return lead + (f"{listing(chains)} reach{'es' if one else ''} {disease} only by chains that are none of "
                       f"{'its' if one else 'their'} uses as medpath finds them. ")
    return lead


def _all_of_them(state: State, kg: Any, uses: list[str], disease: str) -> str:
    """"Yes, all 5: " when every listed drug has the disease among its uses; "Not all: 2 of the 5; …" otherwise, or ""
    when the answer lists as many drugs as it may and some are missing (a drug left off it may still have one)."""
    names = list(dict.fromkeys(kg.name(x) for x in state.among))
    answered = {fold(a["name"]) for a in state.ranked_answers}
    if len(state.ranked_answers) >= (state.answers_wanted or ANSWERS_K) and any(fold(n) not in answered for n in names):
        return ""
    used = {fold(u) for u in uses}
    missing = [n for n in names if fold(n) not in used]
    if not missing:
        return f"Yes, {'both' if len(names) == 2 else f'all {len(names)}'}: "
    return (f"Not all: {len(names) - len(missing)} of the {len(names)} ha{'s' if len(names) - len(missing) == 1 else 've'} "
            f"{disease} among {'its' if len(names) - len(missing) == 1 else 'their'} uses as medpath finds them "
            f"(not {listing(missing)}). ")
