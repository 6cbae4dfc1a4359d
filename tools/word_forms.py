"""English word forms the linker reads names by (plurals, singulars, the stems that name a drug class), and whether a
link read a mention or guessed at it."""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from core.text import fold

__all__ = [
    "GUESSED_METHODS",
    "SPELLING",
    "condition_named",
    "eponyms",
    "guessed",
    "plural",
    "read_alike",
    "singulars",
    "stem_pattern",
    "unpossessed",
    "variants",
]

SPELLING = 88
"""The least rapidfuzz ``ratio`` (0–100) at which a name is read as a misspelling of another."""
GUESSED_METHODS = frozenset({"embedding", "ngram"})
"""Link methods that guess at a name rather than read it: by meaning, or by a word n-gram of a longer mention."""
_CONDITION = re.compile(r"(?:osis|itis|a?emia|pathy|algia|iasis|plegia|penia|uria|rrh?o?ea|\bdisease|\bdisorder|\bsyndrome|"
                        r"\bdeficiency|\bfailure|\binfection|\bcancer|\bpain|\binjury|\bdamage|\btoxicity|\bpoisoning)$")
"""The ending of a folded name that names a condition ("lactic acidosis", "kidney damage"), never a drug."""
_EPONYM = re.compile(r"^(?P<x>\w+ s) (?:disease|syndrome|disorder|chorea)$")
"""A folded eponym's name: "parkinson s disease" (Parkinson's disease)."""
_POSSESSIVE = re.compile(r"(?<=\w) s (?=\w)")
"""A possessive's "s" inside a folded name: "non hodgkin s lymphoma"."""


def eponyms(by_fold: dict[str, list[str]]) -> dict[str, list[str]]:
    """The possessive alone, for each folded name of ``by_fold`` (folded name → ids) that is an eponym's disease and
    whose possessive names nothing else: "parkinson s" ("What helps Parkinson's?") → the ids of "parkinson s disease"."""
    out: dict[str, list[str]] = {}
    for key, ids in by_fold.items():
        if (m := _EPONYM.match(key)) and m["x"] not in by_fold:
            out.setdefault(m["x"], []).extend(i for i in ids if i not in out.get(m["x"], []))
    return out


def unpossessed(by_fold: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each folded name with a possessive inside it, also without it, where that names nothing else: "non hodgkin
    lymphoma" → the ids of "non hodgkin s lymphoma" (Non-Hodgkin's lymphoma; "non-Hodgkin lymphoma" was read as the
    phenotype Lymphoma, the longest name inside it)."""
    out: dict[str, list[str]] = {}
    for key, ids in by_fold.items():
        bare = _POSSESSIVE.sub(" ", key)
        if bare != key and bare not in by_fold:
            out.setdefault(bare, []).extend(i for i in ids if i not in out.get(bare, []))
    return out


_ACID = re.compile(r"^(?P<x>\S.*?)ic acid$")
"""A folded acid's name: "alendronic acid", "valproic acid"."""


def salts(by_fold: dict[str, list[str]]) -> dict[str, list[str]]:
    """The "-ate" name of each acid of ``by_fold`` that names nothing else: "alendronate" → the ids of "alendronic
    acid" ("Is alendronate a bisphosphonate?" told what the bisphosphonates act on, "alendronate" read as no drug),
    "valproate" → "valproic acid"."""
    out: dict[str, list[str]] = {}
    for key, ids in by_fold.items():
        if (m := _ACID.match(key)) and (salt := f"{m['x']}ate") not in by_fold:
            out.setdefault(salt, []).extend(i for i in ids if i not in out.get(salt, []))
    return out


def variants(by_fold: dict[str, list[str]]) -> dict[str, list[str]]:
    """The names a linker's index adds to ``by_fold``: :func:`eponyms`, then :func:`unpossessed` and :func:`salts`
    forms."""
    out = eponyms(by_fold)
    out = {**out, **unpossessed({**by_fold, **out})}
    return {**out, **salts({**by_fold, **out})}


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


def read_alike(mention: str, name: str) -> bool:
    """Whether a fuzzy link read the mention rather than guessed at it: a near spelling of the name ("acetominophen",
    Acetaminophen) or at least half of the name's words ("type 2 diabetes", Diabetes Mellitus, Type 2). "mono",
    which one alias of Poly [ADP-ribose] polymerase 3 holds as a word, is neither."""
    a, b = fold(mention), fold(name)
    if fuzz.ratio(a, b) >= SPELLING:
        return True
    words = set(b.split())
    return bool(words) and len(words & set(a.split())) * 2 >= len(words)


def guessed(mention: str, name: str, method: str) -> bool:
    """Whether linking ``mention`` to the entity ``name`` by ``method`` was a guess: a link of
    :data:`GUESSED_METHODS` to another name, or a fuzzy one that does not :func:`read_alike` ("mono" read as Poly
    [ADP-ribose] polymerase 3, through a word of one of its aliases)."""
    if method == "fuzzy":
        return not read_alike(mention, name)
    a, b = fold(mention), fold(name)
    possessive = a.endswith(" s") and b.startswith(f"{a[:-2]} ")  # "Parkinson's", Parkinson's disease (:func:`eponyms`)
    possessive = possessive or _POSSESSIVE.sub(" ", b) == a  # "non-Hodgkin lymphoma" (:func:`unpossessed`)
    return method in GUESSED_METHODS and a != b and not possessive


def condition_named(mention: str) -> bool:
    """Whether ``mention`` is worded as a condition: "lactic acidosis", which the linker guessed to be the drug lactic
    acid by meaning, is a disease the graph lacks."""
    return bool(_CONDITION.search(fold(mention)))
