"""Text folding shared by every layer that matches names."""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["drop_article", "fold", "longest_run", "word_overlap"]

_NON_WORD = re.compile(r"[^\w]+")


def fold(text: str) -> str:
    """Case- and punctuation-folded form used for matching."""
    return " ".join(_NON_WORD.sub(" ", text.casefold()).split())


def word_overlap(asked: set[str], name: set[str], rarity: Callable[[str], float]) -> float:
    """How well a name holds a mention by whole words, each weighing its ``rarity`` (an inverse document frequency):
    0.5 plus up to 0.45 for the share of the mention's weight the shared words carry, half of that scaled by their
    share of the name's own ("sickle cell" holds all of Anemia, Sickle Cell, and little of T cell)."""
    shared = sum(map(rarity, asked & name))
    return 0.5 + 0.45 * shared / (sum(map(rarity, asked)) or 1.0) * (0.5 + 0.5 * shared / (sum(map(rarity, name)) or 1.0))


_ARTICLE = re.compile(r"^(?:the|a|an) ", re.IGNORECASE)


def drop_article(text: str) -> str:
    """``text`` without a leading "the", "a" or "an"."""
    return _ARTICLE.sub("", text)


def longest_run(toks: list[str], i: int, most: int, accept: Callable[[str, int], bool]) -> int:
    """How many tokens from ``toks[i]`` make the longest run (at most ``most``) that ``accept`` takes, given the run
    joined by spaces and its length; 0 for none. The linker's ``scan`` and ``classes_in`` read a text left to right
    with it."""
    return next((n for n in range(min(most, len(toks) - i), 0, -1) if accept(" ".join(toks[i : i + n]), n)), 0)
