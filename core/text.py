"""Text folding shared by every layer that matches names."""

from __future__ import annotations

import re

__all__ = ["fold"]

_NON_WORD = re.compile(r"[^\w]+")


def fold(text: str) -> str:
    """Case- and punctuation-folded form used for matching."""
    return " ".join(_NON_WORD.sub(" ", text.casefold()).split())
