"""Acronyms: the initials a multi-word name is abbreviated by ("EGFR", "COPD"), and the tokens of a text written as
one."""

from __future__ import annotations

import re

__all__ = ["CAPS", "acronyms_in", "initials", "lower_acronym"]

_ACRONYM_SKIP = frozenset(["a", "an", "the", "of", "in", "on", "for", "to", "and", "or", "with", "by"])
_ACRONYM_TAIL = frozenset(["infection", "disease", "disorder", "syndrome"])
"""A last word an acronym may leave out: "HIV" abbreviates "Human immunodeficiency virus infection" too."""
CAPS = re.compile(r"\b(?![IVX]+\b)[A-Z][A-Z0-9]{1,5}\b")
"""A token written in capitals, 2–6 characters ("EGFR", "COPD"): read as an acronym wherever it stands; a Roman
numeral is none ("topoisomerase II" was linked to Intraabdominal Infections by the initials of "II")."""
_LOWER = re.compile(r"[a-z][a-z0-9]{2,5}")
_NOT_ACRONYMS = frozenset(["she", "her", "hers", "him", "his", "they", "them", "their", "its", "this", "that", "these",
                           "those", "you", "your", "our", "ours", "mine", "one", "ones", "same", "other", "else", "both",
                           "all", "any", "some", "more", "most", "less", "meds", "pill", "pills", "dose", "else"])
"""Words of a question that a mention may be and no acronym is."""


def _initials(words: list[str]) -> str:
    words = [w for w in words if w and w.casefold() not in _ACRONYM_SKIP]
    if not 2 <= len(words) <= 6:
        return ""
    return "".join(w if w.isdigit() else w[0] for w in words).casefold()


def initials(name: str) -> set[str]:
    """The acronyms a multi-word name is abbreviated by: the first letter of each word (a number kept whole),
    connecting words skipped. "Epidermal growth factor receptor" → ``egfr``, "Angiotensin-converting enzyme" →
    ``ace``, "Prostaglandin G/H synthase 1" → ``pghs1``. An inverted name ("Pulmonary Disease, Chronic
    Obstructive") is read in its parts' reverse order (``copd``) and by its part before the first comma; a last
    word such as "infection" may be left out ("Human immunodeficiency virus infection" → ``hivi`` and ``hiv``); a
    one-word name, or one of more than six words, has none."""
    parts = name.split(", ")
    readings = [" ".join(reversed(parts)), parts[0]] if len(parts) > 1 else [name]
    words = [re.split(r"[^0-9A-Za-z]+", text) for text in readings]
    words += [w[:-1] for w in words if w and w[-1].casefold() in _ACRONYM_TAIL]
    return {key for w in words if (key := _initials(w))}


def acronyms_in(text: str) -> set[str]:
    """The folded tokens of ``text`` written in capitals, unless the whole text is in capitals (then capitals say
    nothing about acronyms)."""
    if not any(ch.islower() for ch in text):
        return set()
    return {m.group(0).casefold() for m in CAPS.finditer(text)}


def lower_acronym(mention: str) -> str:
    """``mention`` as an acronym when it is one token in lower case of 3–6 characters and no common word ("copd",
    "egfr"), else "". The linker reads it so only when no name is spelt like it: users type acronyms in lower case,
    and "what drugs treat copd?" was NOT_FOUND."""
    text = mention.strip()
    return text if _LOWER.fullmatch(text) and text not in _NOT_ACRONYMS else ""
