"""What a request for a description is about: "What is gout?", "Tell me about gout", the bare name "gout", and
whether a disease is inherited or catching ("is tuberculosis contagious?"). The graph holds mechanisms, not
descriptions, so ``agents.planner`` asks these as "What drugs treat Gout?"."""

from __future__ import annotations

import re

from agents.intent import parse_question

__all__ = ["BARE_WORDS", "about"]

_ABOUT = re.compile(  # "so what is metformin, then?" too: it was told only what metformin is connected to
    r"^(?:(?:so|and|ok|okay|well),? )?(?:what(?:'s|’s| is| are)|tell me(?: more)? about|explain|describe|define|(?:the )?(?:definition|meaning) of|"
    r"(?:info|information) (?:on|about)|what do you know about|"
    r"what (?:kind|type|sort) of (?:disease|condition|illness|disorder|cancer|infection) (?:is|are))\s+(?:an? |the )?(?P<y>[^?.!]+?)(?:,? (?:then|exactly|anyway|again))?\s*[?.!]*$",
    re.IGNORECASE)


_BARE = re.compile(r"^(?!(?:what|how|why|which|who|whom|when|where|does|do|did|is|are|was|can|could|should|would|will|"
                   r"tell|list|name|show|give|compare|and|or|but)\b)(?P<y>[^?.!]+?)\s*[?.!]*$", re.IGNORECASE)
"""A bare name, asked as a description ("gout", "Gout?"), of at most :data:`BARE_WORDS` words."""
BARE_WORDS = 4


_INHERITED = re.compile(r"^(?:is|are) (?P<y>[^?.!]+?) (?:genetic|hereditary|inherited|contagious|infectious|catching)"
                        r"\s*[?.!]*$|^(?:does|do) (?P<z>[^?.!]+?) run in (?:the )?famil(?:y|ies)\s*[?.!]*$", re.IGNORECASE)
"""Whether a disease is inherited or catching ("is tuberculosis contagious?"), which the graph does not hold: asked
as a description, so that a name that fits several diseases is linked as in "What is tuberculosis?"."""


def about(question: str) -> str:
    """What a request for a description is about ("What is gout?", "Tell me about gout", or the bare name "gout" →
    "gout"; "is gout genetic?"); "" for any other question, and for one a rule reads ("What is the mechanism of X in
    Y?")."""
    text = " ".join(question.split())
    if (m := _INHERITED.match(text)) and parse_question(question) is None:
        return m["y"] or m["z"]
    m = _ABOUT.match(text) or (_BARE.match(text) if len(text.split()) <= BARE_WORDS else None)
    return m["y"] if m and parse_question(question) is None else ""
