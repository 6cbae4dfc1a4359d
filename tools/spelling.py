"""Words of a mention that no name holds, read as misspellings of words that names do hold.

The linker matched a misspelt name as a whole (rapidfuzz ``ratio`` against every name), so a typo in a word that
only a longer name holds was lost: "diabtes" and "sorisis" named nothing, "reumatoid arthritis" was read as Arthritis
(the one word it knew), and "parkinsons", with its apostrophe left out, as Parkinsonism. :class:`Respeller` puts the
nearest word of the names in place of each unknown word, and the apostrophe back, so that the mention links as its
right spelling would (``tools.linker.EntityLinker.link``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rapidfuzz import fuzz, process

from core.text import fold

__all__ = ["WORD_SPELLING", "Respeller"]

WORD_SPELLING = 83
"""The least rapidfuzz ``ratio`` (0–100) at which an unknown word is read as a misspelling of a known one: one edit
in six letters ("athsma" → "asthma" is 83, "diabtes" → "diabetes" 93)."""
SHORTEST = 5
"""Shorter words are left as written: at four letters one edit is a ratio of 75, and short words are mostly English."""
_POSSESSIVE = re.compile(r"\b(\w+) s\b")


class Respeller:
    """The words of every name (``keys``: folded names and aliases), and the words that names carry as possessives
    ("parkinson" of "parkinson s disease")."""

    def __init__(self, keys: Iterable[str], stopwords: frozenset[str] = frozenset()) -> None:
        keys = list(keys)
        self._words = sorted({w for k in keys for w in k.split() if w not in stopwords})
        self._known = set(self._words) | stopwords
        self._possessive = {m.group(1) for k in keys for m in _POSSESSIVE.finditer(k)}

    def respell(self, mention: str) -> str:
        """The folded mention with each unknown word of :data:`SHORTEST` letters or more replaced: by its possessive
        ("parkinsons" → "parkinson s") or by the nearest known word (:data:`WORD_SPELLING`); "" when no word
        changed."""
        words = fold(mention).split()
        out = [self._word(w) for w in words]
        return " ".join(out) if out != words else ""

    def _word(self, word: str) -> str:
        if word in self._known or len(word) < SHORTEST or any(ch.isdigit() for ch in word):
            return word
        if word.endswith("s") and word[:-1] in self._possessive:
            return f"{word[:-1]} s"
        best = process.extractOne(word, self._words, scorer=fuzz.ratio, score_cutoff=WORD_SPELLING)
        return best[0] if best else word
