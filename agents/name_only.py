"""Whether a short follow-up is a name and nothing more ("and strokes?", "and cancer?", "Gout: which drugs treat it?"),
read by its letters: what the follow-up resolver repeats the last question with, or takes as the topic."""

from __future__ import annotations

from agents.intent import parse_question
from agents.resolution import Linker
from tools.linker import fold, guessed

__all__ = ["READ_METHODS", "bare_mention", "could_be_a_name", "names_an_entity"]

READ_METHODS = frozenset({"exact", "singular", "fuzzy"})
"""Link methods that read a name by its letters: as written, as the singular of a plural, or misspelt."""


def could_be_a_name(text: str) -> bool:
    """A few words with no question of their own."""
    return len(text.split()) <= 6 and parse_question(text) is None


def bare_mention(text: str, linker: Linker) -> bool:
    """True when the text is nothing but a name (no question of its own): matched exactly, the plural of one ("and
    strokes?" was NOT_FOUND, "no known entity"), an acronym of one ("and ACE?" told what ACE is connected to, the last
    question dropped), a name read by its letters though not whole ("and prasugrel?", Prasugrel Hydrochloride: it was
    NOT_FOUND, "no known entity"), or one word that fits several by its letters ("and cancer?" asks which)."""
    if not could_be_a_name(text):
        return False
    found = linker.scan(text)
    if len(found) == 1 and fold(found[0][0]) == fold(text):
        return True
    out = linker.link(text)  # "and strokes?": a plural whose singular is a name
    if out.candidates and (out.status.value == "linked" and not guessed(text, out.candidates[0].name, out.candidates[0].method) or
                           out.status.value == "ambiguous" and " " not in text and all(c.method in READ_METHODS for c in out.candidates)):
        return True
    return bool(linker.drug_class(text))  # "and beta blockers?" after a class: it was asked what they target


def names_an_entity(text: str, linker: Linker) -> bool:
    """True when the text is a name and nothing more: no question of its own, a few words, and the linker finds the
    whole text by its letters (a name or an alias, exactly or fuzzily). A name inside a longer text ("imatinib for
    CML") or a likeness by embedding alone does not count. "Diabetes" counts, though it is ambiguous: the question
    then asks which one is meant."""
    return could_be_a_name(text) and any(c.method in READ_METHODS for c in linker.link(text).candidates)
