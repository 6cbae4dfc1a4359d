"""A disease's other type, named by its type alone: "does it work in type 1 too?" after how metformin treats
Diabetes mellitus type 2.

The bare "type 1" was linked on its own, and the planner asked which "type 1" was meant, among Diabetes mellitus type 1,
Human alphaherpesvirus 1 and others. In a thread about a disease whose name carries a type, it is that disease with
the other type, when the graph holds that name.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["of_the_thread_type"]

_NUMBER = {"1": "1", "2": "2", "3": "3", "i": "1", "ii": "2", "iii": "3", "one": "1", "two": "2", "three": "3"}
_BARE_TYPE = re.compile(r"(?:^|\b(?:in|for|with|of|on|to|about|and|or|vs|versus|the|treat|treats|help|helps|what|how) )"
                        r"(?P<t>type (?P<n>1|2|3|i|ii|iii|one|two|three))\b(?!\s*(?:diabetes|diabetic))", re.IGNORECASE)
_TYPED = re.compile(r"\btype \d\b", re.IGNORECASE)


def of_the_thread_type(question: str, disease: dict[str, Any] | None, linker: Any) -> tuple[str, str]:
    """``question`` with a bare "type N" written as the thread's ``disease`` of type N, and the words replaced ("" when
    nothing was: no bare type, a disease with no type in its name, or no such disease in the graph)."""
    m = _BARE_TYPE.search(question)
    name = str((disease or {}).get("name", ""))
    if m is None or not _TYPED.search(name):
        return question, ""
    other = _TYPED.sub(f"type {_NUMBER[m['n'].casefold()]}", name, count=1)
    best = linker.link(other).best
    if best is None or best.name.casefold() != other.casefold():
        return question, ""
    return question[: m.start("t")] + best.name + question[m.end("t"):], m["t"]
