"""A disease's other type, named by its type alone: "does it work in type 1 too?" after how metformin treats
Diabetes mellitus type 2.

The bare "type 1" was linked on its own, and the planner asked which "type 1" was meant, among Diabetes mellitus type 1,
Human alphaherpesvirus 1 and others. In a thread about a disease whose name carries a type, it is that disease with
the other type, when the graph holds that name. With no such disease in the thread, "type 1" and "type 2" are
diabetes, as in everyday speech; after a disease with no type in its name, which "type 1" is meant is asked.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["of_the_thread_type"]

_NUMBER = {"1": "1", "2": "2", "3": "3", "i": "1", "ii": "2", "iii": "3", "one": "1", "two": "2", "three": "3"}
_BARE_TYPE = re.compile(r"(?:^|\b(?:in|for|with|of|on|to|about|and|or|vs|versus|the|treat|treats|help|helps|what|how) )"
                        r"(?P<t>type (?P<n>1|2|3|i|ii|iii|one|two|three))\b(?!\s*(?:diabetes|diabetic))", re.IGNORECASE)
_TYPED = re.compile(r"\btype \d\b", re.IGNORECASE)
_UNSAID = "Diabetes mellitus type 1"
"""The disease a bare "type 1" or "type 2" names in a thread with no disease: in everyday speech, diabetes."""


def of_the_thread_type(question: str, disease: dict[str, Any] | None, linker: Any) -> tuple[str, str]:
    """``question`` with a bare "type N" written as the thread's ``disease`` of type N (diabetes when the thread has no
    disease), and the words replaced ("" when nothing was: no bare type, a disease with no type in its name, or no such
    disease in the graph)."""
    m = _BARE_TYPE.search(question)
    name = str((disease or {}).get("name", ""))
    if m is not None and disease is None:  # "which is better for type 2?" after insulin and metformin (the words
        name = _UNSAID  # were dropped, and the two compared for no disease); after gout, "type 1" is asked about
    if m is None or not _TYPED.search(name):
        return question, ""
    other = _TYPED.sub(f"type {_NUMBER[m['n'].casefold()]}", name, count=1)
    best = linker.link(other).best
    if best is None or best.name.casefold() != other.casefold():
        return question, ""
    return question[: m.start("t")] + best.name + question[m.end("t"):], m["t"]
