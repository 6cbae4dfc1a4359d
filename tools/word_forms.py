"""English word forms the linker reads names by: plurals, singulars, and the stems that name a drug class."""

from __future__ import annotations

import re

__all__ = ["plural", "singulars", "stem_pattern"]


def plural(word: str) -> str:
    """A class name in the plural: "statin" → "statins", "monoclonal antibody" → "monoclonal antibodies"."""
    return word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"


def stem_pattern(stems: tuple[str, ...]) -> re.Pattern[str]:
    """Matches the first word of a drug's folded name that carries one of a class's stems ("^cef" is a
    beginning, "=sertraline" the whole word, the others endings)."""
    def one(x: str) -> str:
        return f"^{re.escape(x[1:])}" if x.startswith("^") else f"^{re.escape(x[1:])}$" if x.startswith("=") else f"{re.escape(x)}$"

    return re.compile("|".join(one(x) for x in stems))


def singulars(word: str) -> list[str]:
    """English singulars a plural word may have: "allergies" → allergy, "rashes" → rash, "ulcers" → ulcer."""
    if len(word) < 4 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return []
    if word.endswith("ies"):
        return [word[:-3] + "y"]
    if word.endswith(("ches", "shes", "xes", "ses", "zes")):
        return [word[:-2], word[:-1]]
    return [word[:-1]]
