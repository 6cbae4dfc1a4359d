"""Which way a patient's lab went, for a question that asks ("Has PAT_003's ALT gone up?").

It was answered with every result, the latest first, and no word on the question: the asker had to compare the
numbers. The latest result is compared with the one before it; a yes/no question on a direction gets "Yes" or "No".
The records hold no reference ranges, so "has it improved?" is told the direction and that it cannot be judged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

__all__ = ["result", "trend"]

_UP = re.compile(r"\b(?:gone up|went up|go(?:ne|ing)? up|risen|rose|rise|rising|increas\w*|higher|climb\w*)\b", re.IGNORECASE)
_DOWN = re.compile(r"\b(?:gone down|went down|go(?:ne|ing)? down|dropped|drop|dropping|fallen|fell|fall|falling|decreas\w*|"
                   r"lower(?:ed|ing)?)\b", re.IGNORECASE)  # "is her ALT going up?" was told the latest result alone
_JUDGED = re.compile(r"\b(?:improv\w*|wors\w*|better|deteriorat\w*)\b", re.IGNORECASE)
_CHANGE = re.compile(r"\b(?:changed?|trend\w*)\b", re.IGNORECASE)


def result(f: dict[str, Any]) -> str:
    """One lab result as the answers write it: "25.7 U/L (2026-01-22)"."""
    return f"{f['value']:g} {f['unit']} ({f['on']})"


def trend(pid: str, lab: str, every: Sequence[dict[str, Any]], asked: str) -> str:
    """The sentence on which way ``lab`` went between its last two results (``every``: the results, the latest first),
    when ``asked`` asks which way it went; "" when it does not ask, or there are fewer than two results."""
    up, down, judged = _UP.search(asked), _DOWN.search(asked), _JUDGED.search(asked)
    if len(every) < 2 or not (up or down or judged or _CHANGE.search(asked)):
        return ""
    latest, before = every[0], every[1]
    went = "up" if latest["value"] > before["value"] else "down" if latest["value"] < before["value"] else ""
    said = f"went {went} from {result(before)} to {result(latest)}" if went else \
        f"was the same in its last two results, {result(before)} and {result(latest)}"
    wanted = "up" if up and not down else "down" if down and not up else ""
    yes = ("Yes: " if wanted == went else "No: ") if wanted else ""
    tail = "; the records hold no reference ranges to say whether that is better or worse" if judged else ""
    return f"{yes}{pid}'s {lab} {said}{tail}."
