"""What a request for a description is about: "What is gout?", "Tell me about gout", the bare name "gout", and
whether a disease is inherited or catching ("is tuberculosis contagious?"). The graph holds mechanisms, not
descriptions, so ``agents.planner`` asks these as "What drugs treat Gout?"."""

from __future__ import annotations

import re
from typing import Any

from agents.intent import SLOT_TYPES, parse_question
from agents.resolution import Resolution
from agents.state import DISEASE_TYPES, DRUG_TYPES
from tools.answers import MANIFESTING, RAISING
from tools.linker import LinkStatus, fold

__all__ = ["BARE_WORDS", "about", "about_a_disease", "about_two"]

_MORE = (("What causes {}?", RAISING), ("What are the symptoms of {}?", MANIFESTING))
"""The questions that ask what else the graph links into a disease, each with the relations it lists."""

_ABOUT = re.compile(  # "so what is metformin, then?" too: it was told only what metformin is connected to
    r"^(?:(?:so|and|ok|okay|well),? )?(?:what(?:'s|’s| is| are)|tell me(?: more)? about|explain|describe|define|(?:the )?(?:definition|meaning) of|"
    r"(?:info|information) (?:on|about)|what do you know about|"
    r"what (?:kind|type|sort) of (?:disease|condition|illness|disorder|cancer|infection) (?:is|are))\s+(?:an? |the )?(?P<y>[^?.!]+?)(?:,? (?:then|exactly|anyway|again))?\s*[?.!]*$",
    re.IGNORECASE)


_BARE = re.compile(r"^(?!(?:what|how|why|which|who|whom|when|where|does|do|did|is|are|was|can|could|should|would|will|"
                   r"tell|list|name|show|give|compare|and|or|but)\b)(?P<y>[^?.!]+?)\s*[?.!]*$", re.IGNORECASE)
"""A bare name, asked as a description ("gout", "Gout?"), of at most :data:`BARE_WORDS` words."""
BARE_WORDS = 4
_FILLER = re.compile(r"(?<=\S)(?:\s+(?:info|information|details|facts|overview|basics|please|pls|plz))+$", re.IGNORECASE)
"""Words after a bare name that ask for a description ("diabetes info please": it was NOT_FOUND, '"diabetes info
please" is not in the knowledge graph', where "gout info please" was read as gout, the one name it fits)."""


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
    return _FILLER.sub("", m["y"]) if m and parse_question(question) is None else ""


_WHOLE = ("exact", "singular", "acronym", "fuzzy")
"""The linker's methods that match the words whole."""
_TWO = re.compile(r"^(?:both )?(?P<a>[^,]+?),? (?:and|&) (?P<b>[^,]+?)$", re.IGNORECASE)
"""Two names asked about at once ("lisinopril and losartan")."""


def about_two(res: Any, resolution: Resolution) -> Resolution:
    """"Tell me about lisinopril and losartan", "what are aspirin and warfarin?": two drugs are asked as "What do
    lisinopril and Losartan target?" (each one's targets, those in common first), two diseases as "Compare Asthma and
    Chronic obstructive lung disease" (what the graph links into each, and their drugs), shown as understood. They were
    read as a chain from one to the other (NOT_FOUND, "no chain of relations from lisinopril to Losartan"), or as the
    first disease alone. A drug and a disease ("what are imatinib and CML?") stay the mechanism question they are read
    as."""
    m = _TWO.match(about(resolution.question))
    picked = [_named(res, m["a"]), _named(res, m["b"])] if m else []
    if len(picked) != 2 or None in picked or picked[0].id == picked[1].id:
        return resolution
    a, b = picked
    if a.type in DRUG_TYPES and b.type in DRUG_TYPES:
        question = f"What do {a.name} and {b.name} target?"
    elif a.type in DISEASE_TYPES and b.type in DISEASE_TYPES:
        question = f"Compare {a.name} and {b.name}"
    else:
        return resolution
    resolution.references.append({"text": resolution.question, "how": "about both", "entities": [a.as_dict(), b.as_dict()]})
    resolution.pinned.update({fold(e.name): {"id": e.id, "name": e.name, "type": e.type} for e in picked})
    resolution.question = question
    return resolution


def _named(res: Any, text: str) -> Any:
    """The drug or the disease the words name, linked without doubt and whole (not a name inside longer words: "the
    difference between lisinopril"); None otherwise."""
    for slot, types in (("drug", DRUG_TYPES), ("disease", DISEASE_TYPES)):
        out = res.linker.link(text, SLOT_TYPES[slot])
        best = out.best
        if out.status is LinkStatus.LINKED and best is not None and best.type in types and best.method in _WHOLE:
            return best
    return None


def about_a_disease(res: Any, resolution: Resolution) -> Resolution:
    """"What is gout?", "Tell me about gout": the graph holds mechanisms, not descriptions, and what it holds about a
    disease is the drugs with a mechanism for it, so the question is read as "What drugs treat Gout?" (shown as
    understood). A name that fits several diseases ("diabetes") is asked about as usual. What else the graph links into
    the disease is offered as the questions that ask for it (``ask``: "What causes Gout?", "What are the symptoms of
    Gout?")."""
    text = about(resolution.question)
    if not text or any(c.type not in DISEASE_TYPES for _, cands in res.linker.scan(text) for c in cands[:1]):
        return resolution  # "What is the pathway from imatinib to GIST?" names a drug too
    out = res.linker.link(text, SLOT_TYPES["disease"])
    if out.best is None or out.best.type not in DISEASE_TYPES or out.best.method not in _WHOLE:
        return resolution
    linked = out.status is LinkStatus.LINKED
    resolution.references.append({"text": resolution.question, "how": "about", "entity": out.best.as_dict() if linked else None})
    if linked:
        relations = {e.relation for e in res.kg.in_edges(out.best.id)}
        resolution.references[-1]["ask"] = [q.format(out.best.name) for q, rels in _MORE if relations & set(rels)]
        resolution.pinned[fold(out.best.name)] = {"id": out.best.id, "name": out.best.name, "type": out.best.type}
    resolution.question = f"What drugs treat {out.best.name if linked else text}?"
    return resolution
