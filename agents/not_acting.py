"""Drugs for a disease that do not act some way: "Which gout drugs don't act on xanthine oxidase?", "which drugs treat
gout without inhibiting xanthine oxidase?".

No rule parsed the negated question, and the names in it were answered as "What drugs treat gout?": the answer led
with febuxostat, which inhibits xanthine oxidase. Now the question is read without the negation (``agents.via`` gives
what the drugs act through), then asked as "Which drugs treat Gout?" with the drugs that act on it that way left out
(``Resolution.excluded``; the answer says what it left out).
"""

from __future__ import annotations

import re
from typing import Any

from agents.intent import SLOT_TYPES, Intent, parse_question
from agents.resolution import Resolution
from agents.state import DRUG_TYPES, LISTED_DRUGS
from agents.via import ACTING_VERB, for_a_disease
from core.text import fold
from tools.answers import acting_on, sign_verb
from tools.linker import LinkStatus

__all__ = ["NEGATED", "negated_alone", "not_acting_on"]

NEGATED = re.compile(rf"\b(?:do|does|did|would|will|can|could)(?: not|n['’]t)\s+(?={ACTING_VERB})", re.IGNORECASE)
""""don't inhibit", "does not act on": the negation before a verb of acting, dropped (here and in
``agents.list_refs``, for "which of those don't inhibit …?")."""
_WITHOUT = re.compile(rf"\b(?:without|(?:but |and )?not by|other than by|except by)\s+(?={ACTING_VERB})", re.IGNORECASE)
""""without inhibiting", "but not by inhibiting": read as "by inhibiting", which ``agents.via`` splits off the disease
("which drugs treat gout but not by inhibiting xanthine oxidase?" listed the xanthine oxidase inhibitors)."""


def not_acting_on(res: Any, resolution: Resolution) -> Resolution:
    """The question as "Which drugs treat Y?" leaving out the drugs that act on what it says they must not act on
    (module docstring); any other question unchanged, and so is one whose parts name no disease or no entity."""
    text = resolution.question
    positive = _WITHOUT.sub("by ", NEGATED.sub("", text))
    if positive == text:
        return resolution
    parsed = for_a_disease(parse_question(positive), positive, res.linker)
    if parsed is None or parsed.intent is not Intent.TREATS or parsed.drug or not parsed.via or not parsed.disease:
        return resolution
    out = res.linker.link(parsed.via, SLOT_TYPES["via"])
    if out.status is not LinkStatus.LINKED or out.best is None:
        return resolution
    ids = [out.best.id, *(c.id for c in out.candidates if c.id != out.best.id and fold(c.name) == fold(out.best.name))]
    drugs = list(dict.fromkeys(d for x in ids for d in acting_on(res.kg, x, DRUG_TYPES, parsed.via_sign)))
    said = f"the drugs that {sign_verb(parsed.via_sign, amount=out.best.type == 'ChemicalSubstance')} {out.best.name}"
    which = f"Which of the {LISTED_DRUGS}" if resolution.among else "Which drugs"  # "which of those don't …?"
    return Resolution(question=f"{which} treat {parsed.disease}?", references=[
        *resolution.references, {"text": said, "how": "besides", "drugs": drugs}],
        pinned=resolution.pinned, excluded=[*resolution.excluded, *drugs], among=resolution.among)


_OF_A_LIST = re.compile(r"\b(?:of|among) (?:those|these|them|the (?:listed|ones|drugs above))\b|\blisted\b", re.IGNORECASE)


def negated_alone(question: str, linker: Any) -> str:
    """Why "which drugs do not act on COX?" is not answered, or "": with no disease to choose from, it asks for most of
    the graph's drugs. The negation was dropped, and the answer listed the drugs that do act on it."""
    if _OF_A_LIST.search(question):  # "which of those don't inhibit EGFR?": the list is what is chosen from
        return ""
    positive = _WITHOUT.sub("by ", NEGATED.sub("", question))
    parsed = for_a_disease(parse_question(positive), positive, linker) if positive != question else None
    if parsed is None or parsed.intent is not Intent.TARGETED_BY or not parsed.disease:
        return ""
    target = parsed.disease
    return (f"the knowledge graph records what drugs act on, and most of its drugs do not act on {target}; name a disease "
            f"to choose among (\"Which gout drugs don't act on {target}?\"), or ask \"Which drugs act on {target}?\"")
