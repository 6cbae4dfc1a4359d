"""Questions that ask which diseases an entity that is no drug takes part in: "which diseases involve EGFR?", "what
cancers is EGFR linked to?", "what diseases is TNF involved in?".

They were answered with what the entity is connected to, whatever its type ("Epidermal growth factor receptor is
connected to: Gastritis, Peptic ulcer, …"), and a kind of disease the question named was not kept to. The curated
chains run from a drug through its targets to a disease, so the diseases a protein, a process or a chemical takes part
in are those its chains lead to: personalized PageRank downstream from it (as "What does X treat?" fuses with its walk),
the nearest first, kept to the kind asked for ("cancers"), without a walk.
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import listing
from agents.answer_paths import pagerank_answers
from agents.disease_compare import as_written
from agents.ellipsis import entity_of
from agents.free_text import lexical
from agents.intent import SLOT_TYPES
from agents.kinds import disease_kind, kind_noun
from agents.state import DISEASE_TYPES, Intent, Status
from core.text import drop_article
from tools.answers import of_kind, types_of
from tools.linker import LinkStatus
from tools.places import PLACE_TYPES, PLACED_IN, PLACING, diseases_of_place

__all__ = ["DISEASES_SHOWN", "diseases_of_answer", "diseases_of_question", "place_diseases", "that_referred"]

DISEASES_SHOWN = 5
"""How many diseases the answer names."""

_KIND = (r"(?:diseases?|conditions?|disorders?|illnesses|cancers?|tumou?rs|malignancies|infections?|"
         r"infectious diseases)")
_OF = re.compile(
    rf"^(?:and |so )?(?:which|what)(?: other)? {_KIND} (?:involve|involves|implicate|affect|affects|damage|damages|"
    rf"harm|harms|attack|attacks|(?:occur|occurs|start|starts|develop|develops|arise|arises) in|(?:are|is) (?:linked|tied|related|"
    rf"connected) to|(?:are|is) associated with|is|are) (?P<x>.+?)(?: (?:involved|implicated) in| (?:linked|tied|related|connected) to|"
    rf" associated with| (?:a )?part of)?$|"
    rf"^(?:and |so )?(?:which|what)(?: other)? {_KIND} (?:does|do|can) (?P<x2>.+?) (?:play a (?:role|part) in|contribute "
    rf"to|take part in|affect|drive|cause|underlie)$", re.IGNORECASE)
"""Which diseases an entity takes part in (the entity's name in ``x`` or ``x2``)."""
_USES = re.compile(r"\s(?:(?:used|indicated|prescribed|given|taken|good) )?(?:for|to treat|against)$", re.IGNORECASE)
"""The end of a question about a drug's uses that :data:`_OF` also matches ("which illnesses are statins used for?" was
NOT_FOUND, '"statins used for" is not in the knowledge graph'; "what conditions are beta blockers for?")."""
_OF_PLACE = re.compile(
    rf"^(?:(?:what|which) (?:are|is) |list |name |tell me )?(?:the |some |any )?(?:(?:common|main|known) )?{_KIND} "
    rf"(?:of|in|affecting) (?P<x>.+?)$|"
    rf"^(?:(?:what|which) (?:are|is) |list |name )?(?:the |some |any )?(?:(?:common|main|known) )?(?P<x2>[\w-]+) {_KIND}$",
    re.IGNORECASE)
"""The diseases of a place in the body ("diseases of the liver", "kidney diseases"): routed only when the words name a
place as written (``x`` or ``x2``)."""
_PLACE_LINKS = PLACING | {"disrupted by", "occurs in"}
"""Relations by which the graph puts a disease in a place, from the place (``tools.places.PLACING``, and two the
curators wrote that way: "Kidney —occurs in→ …"); ``PLACED_IN`` runs the other way."""
_TRIM = re.compile(r"[?.!\s]+$")
_REFERENCE = re.compile(r"^(?:it|they|them|(?:that|this|these|those|first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|"
                        r"5th)(?: (?:one|target|protein|enzyme|receptor|gene|process|pathway|entity|thing)s?)?)$", re.IGNORECASE)
"""A reference in place of the entity's name ("which cancers is that target involved in?", "… the first one …": it
was NOT_FOUND, '"first one" is not in the knowledge graph')."""


def that_referred(question: str) -> tuple[str, int, int] | None:
    """For a question of which diseases "that" (or "this", "that target", …) takes part in, the question with its
    spaces collapsed and its end punctuation off, and where the reference stands in it ("what disease is that linked
    to?" right after a drug's targets: ``agents.target_refs``); None for any other question."""
    q = _TRIM.sub("", " ".join(question.split()))
    m = _OF.match(q)
    group = ("x" if m["x"] else "x2") if m else ""
    if m is None or not _REFERENCE.match(m[group].strip()) or m[group].split()[0].casefold() not in ("that", "this"):
        return None
    return q, m.start(group), m.end(group)


def diseases_of_question(question: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for a question that asks which diseases an entity that is no drug and no disease takes part
    in (its mention in the free slot), NOT_FOUND naming a name the graph lacks ("What disease is associated with
    BRCA1?" was NOT_FOUND with "no known entity in the question"), or None for any other question."""
    q = _TRIM.sub("", " ".join(question.split()))
    if (place := _place_asked(q, linker)) is not None:
        return place
    m = _OF.match(q)
    if m is None:
        return None
    text = drop_article((m["x"] or m["x2"]).strip())
    # "that target", "it": resolved against the thread first (it was NOT_FOUND, '"that target" is not in the knowledge
    # graph'), then asked again; so is "what diseases is it used for?" ('"it used for" is not in the knowledge graph')
    if _REFERENCE.match(text) or _REFERENCE.match(text.split()[0]) or _USES.search(text):
        return None
    best = as_written(text, "target", linker)
    if best is None and len(text.split()) <= 3 and lexical(linker.link(text, SLOT_TYPES["target"])).status is LinkStatus.UNKNOWN:
        return {"status": Status.NOT_FOUND, "error": f'"{text}" is not in the knowledge graph'}  # "… with BRCA1?"
    if best is None or best.type in DISEASE_TYPES or best.type == "Drug":
        return None  # a drug: "what does X treat?"; a disease, or a name not read as written: as before
    return _routed(text, best)


def _routed(text: str, best: Any) -> dict[str, Any]:
    return {"intent": Intent.DISEASES_OF.value, "mentions": [
        {"slot": "free", "mention": text, "status": "linked", "entity": entity_of(best)}]}


def _place_asked(q: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for the diseases of a place as :data:`_OF_PLACE` asks ("kidney diseases"), when the words
    name a place as written and the whole question no disease ("Skin Diseases" is one); else None. "Kidney diseases"
    was "Kidney is connected to: Nephroblastoma, Pain, Bronchiectasis"."""
    m = _OF_PLACE.match(q)
    if m is None:
        return None
    text = drop_article((m["x"] or m["x2"]).strip())
    best = as_written(text, "target", linker)
    if best is None or best.type not in PLACE_TYPES or as_written(drop_article(q), "disease", linker) is not None:
        return None
    return _routed(text, best)


def diseases_of_answer(state: Any, res: Any) -> dict[str, Any]:
    """The diseases the entity's chains lead to, the nearest first, kept to the kind the question names, with them as
    ``items`` ("what drugs treat the first one?" next)."""
    ent = next((m["entity"] for m in state.mentions if m.get("entity")), None)
    if ent is None:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no known name in the question."}
    kg, kind = res.kg, disease_kind(state.asked)
    if ent["type"] in PLACE_TYPES:
        return _place_answer(res, ent, kind)
    found = pagerank_answers(res, [ent["id"]], sorted(DISEASE_TYPES), {ent["id"]}, "out", 0.0,
                             lambda x: of_kind(kg, x, kind))
    noun = kind_noun(kind) if kind else "diseases"
    if not found:
        return {"status": Status.NOT_FOUND, "answer": f"No verified evidence: the knowledge graph's chains from "
                f"{ent['name']} lead to no {noun}."}
    items = [entity_of(n) for x in found[:DISEASES_SHOWN] if (n := kg.node(x)) is not None]
    answer = (f"The {noun} the knowledge graph's curated chains lead to from {ent['name']}, the nearest first "
              f"(personalized PageRank downstream): {listing([i['name'] for i in items])}. Ask \"How does "
              f"{ent['name']} affect {items[0]['name']}?\" for the chain.")
    return {"status": Status.ANSWERED, "answer": answer, "items": items}


def place_diseases(res: Any, place: str) -> list[str]:
    """The diseases of a place in the body: those the graph puts in it (:data:`_PLACE_LINKS`, ``PLACED_IN``) and those
    named for it or its adjective ("Carcinoma, Renal Cell" for the kidney, ``tools.places.diseases_of_place``), the
    most specific first: those the graph puts in fewer places, then the most connected ("Abnormal cell proliferation",
    in the kidney, the lung and the ovary, opened each list)."""
    kg, type_of = res.kg, types_of(res.kg)
    linked = {e.tail for e in kg.out_edges(place) if e.relation in _PLACE_LINKS and type_of(e.tail) in DISEASE_TYPES}
    linked |= {e.head for e in kg.in_edges(place) if e.relation in PLACED_IN and type_of(e.head) in DISEASE_TYPES}
    named = {e.id for e in diseases_of_place(res.linker.entities[place], res.linker.entities.values(), res.linker.aliases)}

    def places(x: str) -> int:
        return len({e.head for e in kg.in_edges(x) if e.relation in _PLACE_LINKS and type_of(e.head) in PLACE_TYPES}
                   | {e.tail for e in kg.out_edges(x) if e.relation in PLACED_IN and type_of(e.tail) in PLACE_TYPES})
    return sorted(linked | named, key=lambda x: (places(x), -len(kg.in_edges(x)), kg.name(x), x))


def _place_answer(res: Any, ent: dict[str, Any], kind: str) -> dict[str, Any]:
    """The diseases of a place (:func:`place_diseases`), kept to the kind asked for ("which cancers affect the liver?").
    "Which diseases affect the kidneys?" was NOT_FOUND ("no known entity in the question"), and "which diseases affect
    the liver?" was "liver is connected to: Testosterone"."""
    kg = res.kg
    found = [x for x in place_diseases(res, ent["id"]) if of_kind(kg, x, kind)]
    noun = kind_noun(kind) if kind else "diseases"
    if not found:
        return {"status": Status.NOT_FOUND, "answer": f"No verified evidence: the knowledge graph puts no {noun} in "
                f"the {ent['name']} and names none for it."}
    items = [entity_of(n) for x in found if (n := kg.node(x)) is not None]
    shown = listing([i["name"] for i in items[:DISEASES_SHOWN]])
    more = f" ({len(items) - DISEASES_SHOWN} more)" if len(items) > DISEASES_SHOWN else ""
    answer = (f"The {noun} the knowledge graph puts in the {ent['name']} or names for it, the most specific first: "
              f"{shown}{more}. Ask \"What drugs treat {items[0]['name']}?\" for the drugs.")
    return {"status": Status.ANSWERED, "answer": answer, "items": items}
