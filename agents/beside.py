"""Another drug named beside the thread's, with nothing that says "it": after a turn about warfarin, "can I also take
aspirin?", "can I take aspirin too?", "is it ok to take aspirin as well?", "is aspirin ok too?" ask whether the two go
together ("Can I take aspirin with warfarin?"), and "any interactions with aspirin?", "any problem combining it with
aspirin?" whether they interact ("Does warfarin interact with aspirin?"). They were answered for aspirin alone, or
reworded "Interactions with aspirin of warfarin?"."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agents.focus import Focus
from agents.resolution import Linker, Resolution
from agents.scope import ALSO_TAKING
from agents.slot_swaps import drug_named
from agents.state import DRUG_TYPES
from tools.linker import fold

__all__ = ["ANY_MEDS", "NOT_ONE", "beside_the_thread_drug", "interaction_with", "several_taken"]

_LEAD = r"^(?:(?:and|so|ok|okay|but|also|then|well),? )?"
_X = r"(?P<x>[\w' -]+?)"
_TOO = r"(?: too| as well| also| at the same time| alongside(?: it)?| in addition| on top of (?:it|that))"
_FINE = r"(?:ok|okay|safe|fine|alright|all right)"

_TAKE = tuple(re.compile(rf"{_LEAD}{w}[?.!]*$", re.IGNORECASE) for w in (
    rf"{ALSO_TAKING} {_X}{_TOO}?",
    rf"(?:can|could|may|should) (?P<who>i|we|he|she|they) (?:take|use|have|add) {_X}{_TOO}",
    rf"(?:is it|would it be|will it be) {_FINE} (?:for (?P<obj>me|him|her|us|them) )?to (?:also )?(?:take|use|have|add) {_X}{_TOO}?",
    rf"is {_X} (?:also )?{_FINE}(?: for (?P<obj>me|him|her|us|them))?(?: to take)?{_TOO}"))
"""Another drug taken beside the thread's: "can I also take ibuprofen?", "can she take aspirin too?", "is it safe for
him to take aspirin?", "is aspirin ok too?"."""

_IF_STATED = (re.compile(rf"{_LEAD}is {_X} {_FINE} (?:for (?P<obj>me|him|her|us|them)|to take)[?.!]*$", re.IGNORECASE),
              re.compile(rf"{_LEAD}(?:can|could|may|should) (?P<who>i|we|he|she|they) (?:take|use|have|add) {_X}[?.!]*$", re.IGNORECASE))
""""Is aspirin safe for me?", "can I take ibuprofen?": beside the thread's drugs only when the latest question said
someone takes them ("I'm on lisinopril and metformin")."""
_STARTED = re.compile(rf"{_LEAD}(?P<who>i|we|he|she|they)(?:'ve| have| has)? (?:just |also |recently |now )*(?:started(?: on| taking)?|"
                      rf"began(?: taking)?|been (?:put on|prescribed)|got prescribed|was prescribed|am starting) {_X}[,;.]?(?: and| so)? "
                      rf"(?:is|will|would|could) (?:that|this|it) (?:be )?(?:a problem|an issue|{_FINE}|dangerous|bad|risky)[?.!]*$",
                      re.IGNORECASE)
""""and I just started amiodarone, is that a problem?" after a turn about warfarin."""
_SEVERAL = re.compile(r"^(?:(?:i|we|he|she|they)(?:'m|'re| am| are| is)?|my \w+(?: \w+)?(?:'s| is)?) (?:also |currently |now )?"
                      r"(?:on|taking|take|takes) (?P<x>[\w' -]+?)((?:,| and|, and) [\w' -]+?)+[.!]*$", re.IGNORECASE)
"""A statement that someone takes several drugs, and nothing asked ("I'm on lisinopril and metformin")."""

_STATED = re.compile(r"^(?:(?:and|so|well|ok|also|but),? )?(?:i|we|he|she|they|my \w+|his \w+|her \w+)(?:'m|'re|'s| am| are| is)? (?:also |still |currently |now )?"
                     r"(?:on|taking|takes?|been (?:on|taking)|prescribed)\b", re.IGNORECASE)
"""A sentence that says someone takes a drug ("I'm on warfarin", "my mom takes warfarin"; not "can I take aspirin with
a stomach ulcer?")."""

_ASKING = r"(?:(?:what|how) about |are there |is there |any )*"
_INTERACTIONS = tuple(re.compile(rf"{_LEAD}{_ASKING}{w} {_X}[?.!]*$", re.IGNORECASE) for w in (
    (r"(?:any |an? |the )?(?:(?:drug|possible|known|dangerous|bad|serious|major) )?(?:interactions?|drug[- ]drug interactions?) "
    r"(?:with|between (?:it|them|this|that) and)"),
    (r"(?:any |an? )?(?:problems?|issues?|risks?|dangers?|concerns?|conflicts?) (?:with |in |from )?(?:combining|mixing|taking) "
    r"(?:it |them |that |this )?(?:with|and)")))
"""Interactions with another named thing: "any interactions with aspirin?", "any problem combining with aspirin?"."""

NOT_ONE = re.compile(r"^(?:it|them|this|that|those|these|each other|one another|both)$|\b(?:drugs?|medications?|medicines?|meds|"
                      r"pills?|supplements|anything|something|others?)$", re.IGNORECASE)
"""What names no one other drug ("any interactions with other drugs?", "… with it?")."""

ANY_MEDS = re.compile(r"^(?:(?:any|other|my|his|her|their|your|common|certain|some|any other) )*(?:(?:prescription|common|"
                       r"other) )?(?:drugs?|medications?|medicines?|meds|pills?)$", re.IGNORECASE)
"""Drugs named as such ("other drugs", "my other meds"): the thread drug's interactions in general."""

_PERSON = {"me": "I", "us": "we", "him": "he", "her": "she", "them": "they"}


def interaction_with(question: str, drug: dict[str, Any] | None) -> str | None:
    """"Does warfarin interact with aspirin?" for "any interactions with aspirin?" or "what about interactions with
    alcohol?" after a turn about ``drug``; None for any other question, with no drug, or when what follows "with" names
    no one thing or is the drug itself. What it names is left for the planner to link."""
    m = next((t for w in _INTERACTIONS if (t := w.match(" ".join(question.split())))), None)
    x = m["x"] if m else ""
    if drug is None or drug.get("type") not in DRUG_TYPES or not x or fold(x) == fold(drug["name"]):
        return None
    if ANY_MEDS.match(x):  # "any interactions with other drugs?"
        return f"Any drug interactions of {drug['name']}?"
    if NOT_ONE.search(x):
        return None
    return f"Does {drug['name']} interact with {x}?"


def _who(m: re.Match[str]) -> str:
    said = (m.groupdict().get("who") or "").casefold() or _PERSON.get((m.groupdict().get("obj") or "").casefold(), "")
    lead = re.search(r"\b(?:i|we|he|she|they)\b(?= (?:also|still) )", m.group(0), re.IGNORECASE)  # ALSO_TAKING's person
    said = said or (lead.group(0).casefold() if lead else "i")
    return "I" if said in ("i", "you") else said


def _stated(messages: Sequence[dict[str, Any]]) -> bool:
    latest = next((m for m in reversed(messages) if m.get("role") == "user"), {})
    return bool(_STATED.search(str(latest.get("content") or "")))


def beside_the_thread_drug(resolution: Resolution, focus: Focus, linker: Linker,
                           messages: Sequence[dict[str, Any]] = ()) -> Resolution:
    """:func:`interaction_with`, or "Can I take aspirin with warfarin?" for "can I also take aspirin?" (and the wordings of
    :data:`_TAKE`; "is aspirin safe for me?" when the latest question said who takes the thread's drug), the person
    kept ("can she take aspirin too?": "Can she take …"); ``resolution`` unchanged for any other question."""
    question, drug, stated = " ".join(resolution.question.split()), focus.drug, _stated(messages)
    several = [d for d in focus.compared if d.get("type") in DRUG_TYPES] if stated else []
    drug = several[0] if len(several) >= 2 else drug  # "I'm on lisinopril and metformin": both
    if drug is None or drug.get("type") not in DRUG_TYPES:
        return resolution
    ref = {"text": resolution.question, "how": "thread drug", "entity": drug}
    if (asked := interaction_with(question, drug)) is not None and len(several) < 2:
        return Resolution(question=asked, pinned={fold(drug["name"]): drug}, references=[ref], excluded=resolution.excluded)
    m = next((t for w in (*_TAKE, _STARTED, *(_IF_STATED if stated else ())) if (t := w.match(question))), None)
    other = drug_named(m["x"], linker) if m and not re.search(r"\b(?:with|and|plus|together)\b", m["x"], re.IGNORECASE) else None
    if m is None or other is None or other["id"] == drug["id"]:  # "can I take ibuprofen with aspirin?" names both itself
        return resolution
    taken = several if len(several) >= 2 else [drug]
    names = ", ".join(d["name"] for d in taken[:-1]) + (f" and {taken[-1]['name']}" if len(taken) > 1 else taken[0]["name"])
    return Resolution(question=f"Can {_who(m)} take {m['x']} with {names}?", pinned={fold(d["name"]): d for d in taken},
                      references=[ref], excluded=resolution.excluded)


def several_taken(question: str, linker: Linker) -> str:
    """"What do lisinopril and metformin target?" for "I'm on lisinopril and metformin" (it was NOT_FOUND, "no chain of
    relations from lisinopril to Metformin"), when every name links to a drug; ``question`` unchanged otherwise."""
    q = " ".join(question.split())
    m = _SEVERAL.match(q)
    names = [n.strip() for n in re.split(r",\s*(?:and\s+)?|\s+and\s+", q[m.start("x"):].rstrip(".! "))] if m else []
    if len(names) < 2 or any(drug_named(n, linker) is None for n in names):
        return question
    return f"What do {', '.join(names[:-1])} and {names[-1]} target?"

