"""Why a drug is, or is not, on the last list: "why isn't allopurinol listed?", "why is pegloticase first?" after
"Which drugs treat gout?".

The first was answered with what allopurinol is connected to, and "why is allopurinol on the list?" was NOT_FOUND ("on
the list" is not in the knowledge graph). The question is now asked as "How does allopurinol treat Gout?", and the
answer opens with the drug's place in the list and what the list ranks by: the drug's best curated mechanism path and
how near it sits to the disease in the graph, not how well or how often it is used.
"""

from __future__ import annotations

import re
from typing import Any

from agents.ellipsis import ORDINAL_REF, entity_of
from agents.focus import ORDINALS, Focus
from agents.intent import SLOT_TYPES
from agents.resolution import Resolution
from agents.state import DRUG_TYPES, State, Status
from core.text import fold
from tools.linker import LinkStatus

__all__ = ["listed_lead", "why_listed"]

_WHY = re.compile(
    r"^(?:and |so |but |then )?(?:why|how come)(?: (?:isn't|is not|wasn't|was not|aren't|are not)| (?:is|was))"
    r" (?P<x>.+?) (?:(?:not |n't )?(?:listed|included|mentioned|named|there|in there)|(?:not )?(?:on|in) (?:the|that|this|your)"
    r" (?:list|answer|ranking)|(?:ranked |listed )?(?:first|at the top|top|number one|so high))[?.!]*$"
    r"|^(?:and |so |but )?why did(?:n't| not)? you (?:list|include|mention|name|rank)(?: not)? (?P<y>.+?)(?: first)?[?.!]*$",
    re.IGNORECASE)
"""A question why a drug is or is not on the last list."""
_IS_LISTED = re.compile(
    r"^(?:and |so |but |then |what about |how about )?(?:is|was|isn't|wasn't) (?P<x>.+?) (?:one of (?:them|those|these|the (?:drugs|ones|list))"
    r"|(?:on|in) (?:the|that|this|your) (?:list|answer|ranking)|among (?:them|those|these|the drugs)|(?:listed|included)(?: there)?)[?.!]*$",
    re.IGNORECASE)
"""A yes-or-no question whether a drug is on the last list ("is atorvastatin one of them?": it was answered with
what atorvastatin acts on, not whether it was listed)."""
_WHY_THAT = re.compile(
    r"^(?:and |so |but |ok,? )?(?:why|how come)(?: (?:that|this|the first)(?: one| drug| medication)?| (?:is|was) (?:that|this|it)"
    r"(?: one| drug)? (?:first|at the top|top|number one|(?:ranked|listed) first))[?.!]*$", re.IGNORECASE)
"""Why the list's first drug ("why that one?" right after "what's the best treatment for high blood pressure?": it was
"Why Hypertensive disorder?", answered with what the disease is connected to)."""
_WHY_NAMED = re.compile(r"^(?:and |so |but |ok,? )?(?:why|how come) (?P<not>not )?(?!(?:is|are|was|were|does|do|did|would|should|"
                        r"can|could|will|that|this|it|they|them|the first)\b)(?P<x>[^?.!,]+?)[?.!]*$", re.IGNORECASE)
"""Why a listed drug, by its name alone ("why methamphetamine?" after the drugs for depression), or why not one the list
lacks ("why not sertraline?"): they were asked how the drug treats the disease, without its place in the list or what
the list ranks by."""
_RANKS_BY = ("the list ranks drugs by their best curated mechanism path into the disease, by how near they sit to it "
             "in the knowledge graph and by whether curated drugs for it act on their targets the same way, not by how "
             "well or how often they are used")
"""What a "which drug treats Y?" list is ordered by (``agents.answer_paths``: the walk's paths fused with PageRank and
with the drugs that act on a curated drug's target alike)."""
_RANKS_BY_TARGET = "the list ranks drugs by how directly they act on it, the fewest steps first, drugs before chemicals"
"""What a "which drugs inhibit T?" list is ordered by (``tools.answers``)."""


def why_listed(res: Resolution, q: str, focus: Focus, linker: Any) -> str | None:
    """"How does allopurinol treat Gout?" for "why isn't allopurinol listed?" right after "Which drugs treat gout?",
    with a ``why listed`` reference that holds the drug's place in that list (0 when it is not there); None for any
    other question, or when the last answer listed no drugs for a disease (after a target's drugs:
    :func:`_on_target_list`)."""
    m = _WHY.match(q) or _IS_LISTED.match(q) or _listed_by_name(q, focus, linker)
    first = _WHY_THAT.match(q) and focus.intent == "treats" and focus.treats_list
    if m is not None and focus.target_list and not focus.treats_list:  # after "which drugs inhibit xanthine oxidase?"
        return _on_target_list(res, q, m, *focus.target_list, linker)
    if (m is None and not first) or focus.disease is None or not focus.treats_list:
        return None
    if first:
        drug: dict[str, Any] | None = {k: focus.treats_list[0][k] for k in ("id", "name", "type") if k in focus.treats_list[0]}
    else:
        drug = _named_drug(m["x"] or m["y"], focus.treats_list, linker)
    if drug is None:
        return None
    disease, listed = focus.disease, focus.treats_list
    res.references.append({"text": q, "how": "why listed", "entity": drug, "place": _place(drug, listed), "listed": len(listed),
                           "yes_no": m is not None and m.re is _IS_LISTED})
    res.pinned.update({fold(drug["name"]): drug, fold(disease["name"]): disease})
    return f"How does {drug['name']} treat {disease['name']}?"


def _on_target_list(res: Resolution, q: str, m: re.Match[str], target: dict[str, Any], listed: list[dict[str, Any]],
                    linker: Any) -> str | None:
    """"How does allopurinol act on Xanthine dehydrogenase/oxidase?" for "is allopurinol one of them?" or "why is
    allopurinol first?" right after "Which drugs inhibit xanthine oxidase?" (it was told what allopurinol is connected
    to, without a yes or no), with the drug's place in that list; None when no drug is named."""
    if (drug := _named_drug(m["x"] or m["y"], listed, linker)) is None:
        return None
    res.references.append({"text": q, "how": "why listed", "entity": drug, "place": _place(drug, listed),
                           "listed": len(listed), "yes_no": m.re is _IS_LISTED, "for": target["name"],
                           "ranks_by": _RANKS_BY_TARGET})
    res.pinned.update({fold(drug["name"]): drug, fold(target["name"]): target})
    return f"How does {drug['name']} act on {target['name']}?"


def _listed_by_name(q: str, focus: Focus, linker: Any) -> re.Match[str] | None:
    """:data:`_WHY_NAMED`'s match when it names a drug of the last "which drugs treat Y?" list, or with "not", one the
    list lacks; None otherwise ("why carbidopa?" after why levodopa is used is another question, ``agents.ellipsis``)."""
    m = _WHY_NAMED.match(q)
    drug = _named_drug(m["x"], focus.treats_list, linker) if m and focus.treats_list else None
    return m if drug is not None and bool(_place(drug, focus.treats_list)) != bool(m["not"]) else None


def _named_drug(text: str, listed: list[dict[str, Any]], linker: Any) -> dict[str, Any] | None:
    """The drug ``text`` names, by its place in ``listed`` ("the first one") or by name; None for anything else."""
    if (placed := _placed(text, listed)) is not None:  # "why is the first one on the list?"
        return placed
    out = linker.link(text, SLOT_TYPES["drug"])
    best = out.best if out.status is LinkStatus.LINKED else None
    return entity_of(best) if best is not None and best.type in DRUG_TYPES else None


def _place(drug: dict[str, Any], listed: list[dict[str, Any]]) -> int:
    """The drug's place in ``listed``, from 1; 0 when it is not there."""
    return next((k for k, i in enumerate(listed, 1) if i.get("id") == drug["id"] or fold(i["name"]) == fold(drug["name"])), 0)


def _placed(text: str, listed: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The item of ``listed`` that ``text`` names by its place ("why is the first one on the list?" linked "the first
    one" as a name, and was NOT_FOUND: "on the list" is not in the knowledge graph)."""
    m = ORDINAL_REF.fullmatch(text.strip())  # "the first one", "the second drug", "the last"
    k = ORDINALS.get((m.group(1) or m.group(2)).casefold()) if m else None
    if k is None or not -len(listed) <= k < len(listed):
        return None
    return {key: listed[k][key] for key in ("id", "name", "type") if key in listed[k]}


_ORDINAL = {k + 1: w for w, k in ORDINALS.items() if k >= 0 and w.isalpha() and w != "top"}
"""A place in the list in words (1 → "first"), from the words that pick a list's item."""


def listed_lead(state: State, status: Any) -> str:
    """"Allopurinol was not among the 5 drugs listed for Gout: … Its mechanism: " before the answer to a question
    :func:`why_listed` rewrote ("No: allopurinol was not …" for "is allopurinol one of them?"); "" for any other
    question, or for a why-question that found no path (its answer says why)."""
    ref = next((r for r in state.references if r.get("how") == "why listed"), None)
    if ref is None or (status != Status.ANSWERED and not ref.get("yes_no")):
        return ""
    name, place, n = ref["entity"]["name"], ref["place"], ref["listed"]
    disease = ref.get("for") or next((m["entity"]["name"] for m in state.mentions if m.get("slot") == "disease" and m.get("entity")),
                                     "the disease")
    where = (f"{name} is {_ORDINAL.get(place, f'number {place}')} of the {n} drugs listed for {disease}" if place
             else f"{name} was not among the {n} drugs listed for {disease}")
    where = f"{'Yes' if place else 'No'}: {where}" if ref.get("yes_no") else f"{where[:1].upper()}{where[1:]}"
    if status != Status.ANSWERED:  # "is allopurinol one of them?" after asthma drugs: no, and no path either
        return f"{where}. "
    return f"{where}: {ref.get('ranks_by', _RANKS_BY)}. Its mechanism: "
