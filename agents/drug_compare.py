"""Questions that compare two or more drugs: "compare aspirin and ibuprofen", "how do they differ?", "is allopurinol
better than colchicine?", "how are aspirin and warfarin related?".

Naming drugs and nothing else, they are asked as what the drugs target (``State.compared``), the drugs the subject:
there is no chain from one drug to another to walk (a question that ranks them was NOT_FOUND: "no chain of relations
from …"). "How are codeine and morphine related?" keeps its walk: a chain joins them (codeine has metabolite morphine).
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import EACH_ACTS, EACH_CAUSES, EACH_TREATS, and_listed
from agents.free_text import NO_NAME, lexical
from agents.intent import (
    COMPARING,
    RANKING_DRUGS,
    RELATING,
    SET_AGAINST,
    SLOT_TYPES,
    ParsedQuestion,
    out_of_scope,
    split_listed,
)
from agents.scope import COMBINED, INTERACTIONS, SUBSTITUTES
from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent
from tools.linker import GUESSED_METHODS, LinkStatus
from tools.walker import hops_between

__all__ = ["CHAIN_NODES", "compared_drugs", "compared_for", "drugs_named", "several_drugs"]

CHAIN_NODES = 20_000
"""How many entities the search for a chain between two drugs may reach before it gives up (and the walk answers)."""


def compared_drugs(question: str, intent: Intent, mentions: list[dict[str, Any]], kg: Any) -> dict[str, Any]:
    """The planner's drugs to compare (``drug_class``, ``among``, ``compared``, ``subject``) for a relation question
    that names two or more drugs and nothing else with a comparing word, or "related" when no chain joins them; {} for
    any other question."""
    ents = list({m["entity"]["id"]: m["entity"] for m in mentions if m.get("entity")}.values())
    if intent is not Intent.RELATION or len(ents) < 2 or len(ents) < len(mentions) \
            or any(e["type"] not in DRUG_TYPES for e in ents):
        return {}
    if not _compares(question) and not (RELATING.search(question) and all(e["type"] == "Drug" for e in ents) and not _chained(kg, ents)):
        return {}
    return {"drug_class": and_listed([e["name"] for e in ents]), "among": [e["id"] for e in ents],
            "compared": True, "subject": True}


def several_drugs(res: Any, parsed: ParsedQuestion | None, known: Any) -> dict[str, Any]:
    """The drugs to compare for "what do losartan and valsartan target?" (as ``compared_drugs`` gives them: what both
    act on and what only one does) or "what do imatinib and dasatinib treat?" (the diseases both have a mechanism for,
    then each one's own), when the drug slot lists names ``known`` accepts and each links to a drug; {} for any other
    question. Each was answered for the first drug alone, the second offered as the next question. ``linked``: the
    drugs' mentions, which the planner takes as the question's (:func:`agents.planner._kept_to`)."""
    if parsed is None or parsed.intent not in (Intent.TARGETS, Intent.INDICATIONS):
        return {}
    first, slot, rest = split_listed(parsed, known)
    if slot != "drug":
        return {}
    linked: dict[str, dict[str, Any]] = {}
    for text in (first.drug, *rest):
        mention = _linked(res, text)
        if mention is None or mention["entity"]["type"] not in DRUG_TYPES:
            return {}
        linked[mention["entity"]["id"]] = mention
    return {"drug_class": and_listed([m["entity"]["name"] for m in linked.values()]), "among": list(linked), "compared": True,
            "subject": True, "linked": list(linked.values())} if len(linked) >= 2 else {}


def compared_for(res: Any, question: str, parsed: ParsedQuestion | None, known: Any) -> dict[str, Any]:
    """Two or more drugs set against each other for one disease ("which is better for pain, ibuprofen or
    acetaminophen?", "compare ibuprofen and acetaminophen for pain"): asked as which of them treat it, each drug with
    its own mechanism (``State.compared``; the explainer tells each path, :func:`agents.answer_notes.for_one_disease`).
    It was answered for the first drug, the second offered as the question to ask next. ``parsed``: the question the
    planner links (the disease's slot, a clarification if its name fits several), ``linked``: the drugs' mentions;
    ``known`` accepts a listed name as :func:`several_drugs`'s does. {} for any other question."""
    names, diseases = _choice(question)
    if not names and (not (_compares(question) or _EITHER_FOR.match(question) or EACH_TREATS.match(question)
                              or EACH_ACTS.match(question) or EACH_CAUSES.match(question))
                      or (parsed is not None and parsed.intent not in (Intent.MECHANISM, Intent.RELATION))):
        return {}
    if not names and parsed is not None:
        first, slot, rest = split_listed(parsed, known)
        names, diseases = ([first.drug, *rest], [parsed.disease]) if slot == "drug" else ([], [])
    elif not names:
        found = [(m, max(c, key=lambda x: (x.type in DRUG_TYPES or x.type in DISEASE_TYPES, x.score)))
                 for m, c in res.linker.scan(question) if c]
        names = [m for m, c in found if c.type not in DISEASE_TYPES]
        diseases = [m for m, c in found if c.type in DISEASE_TYPES] or _disease_after_for(res, question)
        names += _other_sides(question, names)  # "is warfarin or apixaban better for …?": apixaban, which no scan finds
    mentions, unknown = [], []
    for text in names:
        out = res.linker.link(text, SLOT_TYPES["drug"])
        if out.status is LinkStatus.LINKED and out.best is not None:
            mentions.append(_mention(text, out))
        elif out.status is LinkStatus.AMBIGUOUS and (plain := _plainest(res, text)):  # "is metformin better than
            mentions.append({**_mention(text, out), "status": LinkStatus.LINKED.value, "entity": plain})  # insulin …?"
        elif lexical(out).status is LinkStatus.UNKNOWN:  # "apixaban": the planner says it is not in the graph
            unknown.append({"slot": "drug", "mention": text, "status": LinkStatus.UNKNOWN.value, "entity": None})
    mentions = drugs_named(question, Intent.RELATION, mentions, res)  # "insulin": Insulin human, as "compare …" reads it
    linked = {m["entity"]["id"]: m for m in mentions if m["entity"]["type"] in DRUG_TYPES}
    if len(diseases) != 1 or not linked or len(linked) + len(unknown) < max(2, len(names)):
        return {}
    return {"parsed": ParsedQuestion(Intent.TREATS, disease=diseases[0]), "among": list(linked), "compared": True,
            "drug_class": and_listed([m["entity"]["name"] for m in linked.values()]), "linked": [*linked.values(), *unknown]}


_SIDES = re.compile(r"\b(?P<a>[\w-]{3,}),? (?:or|vs\.?|versus|and) (?P<b>[\w-]{3,})\b", re.IGNORECASE)
"""Two words set side by side ("warfarin or apixaban")."""


_NO_DRUG = NO_NAME | frozenset({"the", "their", "another", "both", "any", "some", "better", "best", "less", "not", "none",
                                "nothing", "placebo", "neither", "either", "drug", "drugs", "medication", "medications"})
"""Words beside a drug's name that name no drug ("allopurinol or another one", "… or something else")."""


def _other_sides(question: str, names: list[str]) -> list[str]:
    """The words set beside a named drug that are no name the scan found ("apixaban" in "is warfarin or apixaban
    better for atrial fibrillation?"): the planner then says that they are not in the knowledge graph."""
    named = {n.casefold() for n in names}
    out = []
    for m in _SIDES.finditer(question):
        a, b = m["a"].casefold(), m["b"].casefold()
        other = b if a in named else a
        if (a in named) != (b in named) and other not in _NO_DRUG:
            out.append(m["b"] if a in named else m["a"])
    return out


def _choice(question: str) -> tuple[list[str], list[str]]:
    """The drugs and the disease of a choice that names the disease first (:data:`_CHOICE`), or ([], [])."""
    m = _CHOICE.match(" ".join(question.split()))
    if m is None:
        return [], []
    return [x for x in re.split(r"\s*,\s*(?:or\s+)?", m["x"]) if x] + [m["y"]], [m["d"]]


def _linked(res: Any, text: str) -> dict[str, Any] | None:
    """The drug slot's mention of ``text`` when the linker links it to one entity, else None."""
    out = res.linker.link(text, SLOT_TYPES["drug"])
    return _mention(text, out) if out.status is LinkStatus.LINKED and out.best is not None else None


def _mention(text: str, out: Any) -> dict[str, Any]:
    """The drug slot's mention of ``text``, linked as ``out`` (a linked outcome) says."""
    return {"slot": "drug", "mention": text, "status": out.status.value, "entity": out.best.as_dict()}


_CHOICE = re.compile(r"^(?:so |and |ok,? )?(?:(?:which|what)(?: one| drug| medication| medicine| of them)? (?:is (?:better |best )?for|"
                     r"treats?|works? (?:better |best )?(?:for|on|against)|helps? (?:with )?|is (?:better|best) for)|for) "
                     r"(?P<d>[^,:;?]+?)(?: better| best| more)?\s*[,:;]\s*(?P<x>[^?]+?),? (?:or|vs\.?|versus) (?P<y>[^?,]+?)\s*\?*$",
                     re.IGNORECASE)
"""A choice among named drugs for a disease that names the disease first ("which treats gout better, allopurinol or
colchicine?", "for gout, allopurinol or colchicine?"): the disease was read as part of the drugs' name, or the
question as which drugs treat gout."""
_WHICH_OF = re.compile(r"^(?:so |and |ok,? )?(?:which|what)(?: one| drug| medication| medicine| of the two)?(?:'s|’s| \w+)"
                       r"\b[^?,:;]*[,:;]\s*[^?]+? (?:or|vs\.?|versus) [^?]+?\s*\?*$", re.IGNORECASE)
"""A choice between named drugs on some quality ("which is safer, ibuprofen or acetaminophen?"): it was NOT_FOUND, "no
chain of relations from Ibuprofen to Acetaminophen"."""
_EITHER_FOR = re.compile(r"^(?:(?:so |and |ok,? )?(?:should i (?:take|use|try)|would you (?:take|use|give)|(?:is it|what about) ))?"
                         r"[^,?]+?,? (?:or|vs\.?|versus) [^?]+? (?:for|to treat|in treating) [^?]+\?*$", re.IGNORECASE)
"""Two drugs offered for one disease with no comparing word ("sertraline or fluoxetine for depression?"): it was
answered for sertraline, fluoxetine offered as the next question."""
_FOR = re.compile(r"\b(?:for|in treating|to treat) (?:the treatment of |treating )?(?P<disease>[^?.!,:;]+)", re.IGNORECASE)
"""The disease of a comparison, after "for": "is metformin or glipizide better for diabetes?"."""


def _disease_after_for(res: Any, question: str) -> list[str]:
    """The words after "for" when they read as a disease that several fit ("diabetes": the planner then asks which;
    the scan finds no name several entities hold). [] otherwise."""
    m = _FOR.search(question)
    words = m["disease"].strip() if m else ""
    out = res.linker.link(words, SLOT_TYPES["disease"]) if words else None
    if out is None or out.status is not LinkStatus.AMBIGUOUS:
        return []
    return [words] if all(c.type in DISEASE_TYPES and c.method not in GUESSED_METHODS for c in out.candidates) else []


def drugs_named(question: str, intent: Intent, mentions: list[dict[str, Any]], res: Any) -> list[dict[str, Any]]:
    """The mentions of a question that compares drugs, a name that links to no drug but heads drugs' names read as the
    plainest of those drugs, the shortest name: "compare metformin and insulin" linked the protein insulin and was
    NOT_FOUND ("no chain of relations from Metformin to insulin"); it compares Metformin and Insulin human. Any other
    question's mentions come back as they were."""
    if intent is not Intent.RELATION or not _compares(question):
        return mentions
    out = []
    for m in mentions:
        ent = m.get("entity")
        plain = _plainest(res, m["mention"]) if ent and ent["type"] not in DRUG_TYPES else None
        out.append({**m, "entity": plain} if plain else m)
    return out


def _plainest(res: Any, mention: str) -> dict[str, Any] | None:
    """Of the drugs whose names ``mention`` heads, the plainest, the shortest name ("insulin": Insulin human); None
    when it heads none."""
    heads = res.linker.headed_by(mention, DRUG_TYPES)
    if not heads:
        return None
    x = min(heads, key=lambda d: (len(res.kg.name(d)), d))
    return {"id": x, "name": res.kg.name(x), "type": res.kg.node(x).type}


_EITHER = re.compile(r"^(?:so |and |ok,? )?(?P<a>[\w' -]+?),? or (?P<b>[\w' -]+?)\s*[?.!]*$", re.IGNORECASE)
"""Two names offered as a bare choice ("aspirin or ibuprofen?"): it was NOT_FOUND, "no chain of relations from Aspirin
to Ibuprofen"."""


def _compares(question: str) -> bool:
    """Whether a question sets the drugs it names against each other: compares them, ranks them, asks why they are
    given together or whether they interact ("does warfarin interact with aspirin?": what each acts on, what both do;
    it was NOT_FOUND, "no chain of relations from warfarin to Aspirin")."""
    text = " ".join(question.split())
    return bool(COMPARING.search(question) or out_of_scope(question) in (RANKING_DRUGS, COMBINED, INTERACTIONS, SUBSTITUTES)
                or SET_AGAINST.search(question)
                or _WHICH_OF.match(text) or _EITHER.match(text))


def _chained(kg: Any, ents: list[dict[str, Any]]) -> bool:
    """Whether a chain of relations leads from one of the drugs to another (a drug with no in-edge is reached by
    none), or the search gave up before it knew."""
    ids = [e["id"] for e in ents]
    return any(kg.in_edges(b) and hops_between(kg, [a for a in ids if a != b], [b], CHAIN_NODES) is not None for b in ids)
