"""The kind of disease or target a question asks for: "What cancers does imatinib treat?" lists only cancers, "Which
receptor does propranolol block?" the receptors first (``tools.answers.DISEASE_KINDS``, ``tools.answers.TARGET_KINDS``)."""

from __future__ import annotations

import re

__all__ = ["disease_kind", "target_kind"]

_KIND_WORDS = {"blood_cancer": r"blood cancers?|cancers? of the blood|ha?ematologic(?:al)? (?:cancers?|malignanc(?:y|ies))",
               "cancer": r"cancers?|tumou?rs?|malignanc(?:y|ies)|neoplasms?", "infection": r"infections?|infectious diseases?"}
_KINDS = re.compile("|".join(f"(?P<{k}>\\b(?:{rx})\\b)" for k, rx in _KIND_WORDS.items()), re.IGNORECASE)


_TARGET_KIND = re.compile(r"\b(?:what|which|the)\s+(?:kinds? of |types? of )?(?P<kind>receptor|enzyme|kinase|channel|"
                          r"transporter|pump)s?\b", re.IGNORECASE)


def target_kind(question: str) -> str:
    """The kind of target a question asks for ("Which receptor does propranolol block?" → "receptor"; a pump is a
    "transporter"; ``tools.answers.TARGET_KINDS``), or ""."""
    m = _TARGET_KIND.search(question)
    return "" if m is None else {"pump": "transporter"}.get(m["kind"].casefold(), m["kind"].casefold())


def disease_kind(question: str) -> str:
    """The kind of disease a question names ("What cancers does imatinib treat?" → "cancer", "which infections …" →
    "infection", "which of these is a blood cancer?" → "blood cancer"; ``tools.answers.DISEASE_KINDS``), or ""."""
    m = _KINDS.search(question)
    return (m.lastgroup or "").replace("_", " ") if m else ""

