"""Which of the targets a drug's answer listed bear on a disease: "which of these cause CML?" after "What does imatinib
target?".

The question asks how the drug reaches the disease through what it acts on, so it is asked as "How does imatinib treat
CML?": the chain names the target it passes through ("imatinib decreases activity of Tyrosine-protein kinase ABL1;
Tyrosine-protein kinase ABL1 causes Chronic myeloid leukemia"). It listed the drugs for CML, and "which of them are
involved in breast cancer?" after tamoxifen's targets was "Which of Tamoxifen are involved in breast cancer?".

"What does that do?" right after an answer that listed one entity (metformin's one target, what allopurinol lowers)
asks about it (it asked about the drug again: "What does Metformin do?", the same answer).

"What disease is that linked to?" right after a drug's targets asks about the target just named (it was `NOT_FOUND`,
"no known entity in the question": "that" after "is" is no pronoun the follow-up reader looks for).

"Which drugs act on them?" right after a list of proteins (what imatinib targets, the genes involved in gout) asks
which drugs act on any of them: "them" was the first protein alone, or the disease of the genes' question ("Which
drugs act on Gout?"), and "which drugs target these?" was `NOT_FOUND` ("these" is no entity), as were "which other
drugs hit the same targets?" and "which drugs share these targets?" (asked as "… act on the listed proteins?").
"""

from __future__ import annotations

import re
from typing import Any

from agents.diseases_of import that_referred
from agents.focus import Focus
from agents.qualifiers import TRAILING_PLACE
from agents.referents import thread_target
from agents.resolution import Resolution
from agents.state import DRUG_TYPES
from agents.turn_record import TARGET_TYPES
from tools.linker import fold

__all__ = ["about_the_targets", "diseases_of_that", "drugs_on_them", "of_the_targets", "what_that_does"]

_OF_THE_TARGETS = re.compile(
    r"^(?:which|what)(?: one| ones)? of (?:them|these|those|the above)(?: targets| proteins| ones)? (?:(?:is|are) (?:involved in|"
    r"linked to|related to|associated with|connected to|implicated in|important (?:in|for)|relevant (?:to|for)|in)|causes?|drives?|"
    r"underlies|underlie|matters? (?:in|for)) (?P<y>[^?.!]+?)[?.!]*$", re.IGNORECASE)
"""Which of the listed targets bear on a disease ("which of these cause CML?", "which of them is linked to GIST?")."""


def about_the_targets(res: Resolution, q: str, focus: Focus) -> str | None:
    """:func:`of_the_targets`, else :func:`diseases_of_that`, :func:`what_that_does` or :func:`drugs_on_them`."""
    return (of_the_targets(res, q, focus) or diseases_of_that(res, q, focus) or what_that_does(res, q, focus)
            or drugs_on_them(res, q, focus))


def of_the_targets(res: Resolution, q: str, focus: Focus) -> str | None:
    """"How does imatinib treat CML?" for "which of these cause CML?" right after what imatinib targets; None for any
    other question, and after any other list."""
    m = _OF_THE_TARGETS.match(q.strip())
    listed: list[dict[str, Any]] = focus.lists[0] if focus.lists else []
    if m is None or focus.intent != "targets" or not focus.drug or not listed or any(i.get("type") in DRUG_TYPES for i in listed):
        return None
    if TRAILING_PLACE.search(q):  # "which of these are in the liver?": a place, not a disease
        return None
    res.references.append({"text": q, "how": "list", "targets": [i["id"] for i in listed if i.get("id")]})
    res.pinned[fold(focus.drug["name"])] = focus.drug
    return f"How does {focus.drug['name']} treat {m['y']}?"


def diseases_of_that(res: Resolution, q: str, focus: Focus) -> str | None:
    """"What disease is Potassium-transporting ATPase alpha chain 1 linked to?" for "what disease is that linked to?"
    right after what omeprazole targets (the first listed target); None for any other question, or after any other
    turn."""
    referred = that_referred(q)  # read as ``agents.diseases_of`` reads the question, a reference in the name's place
    target = thread_target(focus, 0) if referred is not None and focus.intent == "targets" else None
    if referred is None or target is None or target.get("type") in DRUG_TYPES:
        return None
    text, start, end = referred
    res.references.append({"text": text[start:end], "entity": target, "how": "pronoun"})
    res.pinned[fold(target["name"])] = target
    return f"{text[:1].upper()}{text[1:start]}{target['name']}{text[end:]}?"


_THAT_DOES = re.compile(r"^(?:and |so |ok,? |okay,? )?what (?:does|do) (?:that|this)(?: one)? do[?.!]*$", re.IGNORECASE)
_ONE_LISTED = ("targets", "amounts", "products", "metabolites")
"""Turns whose answer lists what the named entity acts on, changes, makes or becomes."""


def what_that_does(res: Resolution, q: str, focus: Focus) -> str | None:
    """"What does Electron transfer flavoprotein-ubiquinone oxidoreductase, mitochondrial do?" for "what does that do?"
    right after an answer that listed that one entity (what metformin targets); None for any other question, after a
    list of several (which one "that" is, the question does not say), or after any other turn."""
    listed: list[dict[str, Any]] = focus.lists[0] if focus.lists else []
    if not _THAT_DOES.match(q.strip()) or focus.intent not in _ONE_LISTED or len(listed) != 1 or not listed[0].get("id"):
        return None
    one = listed[0]
    res.references.append({"text": "that", "entity": one, "how": "pronoun"})
    res.pinned[fold(one["name"])] = one
    return f"What does {one['name']} do?"


_ON_THEM = re.compile(
    r"^(?:and |so )?(?:which|what|(?:are|is) there(?: any)?|any) (?P<other>other )?(?:drugs?|medications?|medicines?) "
    r"(?:that |which )?(?:also )?(?P<verb>act on|target|inhibit|block|"
    r"activate|bind(?: to)?|hit|work on|share)(?: any of)? (?:them|these|those|(?:these|those|the(?: listed| above| same)?) "
    r"(?:targets|proteins|genes)|the same ones)(?: as (?:it|that one|this one))?[?.!]*$", re.IGNORECASE)
LISTED_PROTEINS = "the listed proteins"
"""What such a question names in their place (``Resolution.targets`` holds them)."""


def drugs_on_them(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Which drugs act on the listed proteins?" for "which drugs act on them?" (since stop 101 also "are there drugs
    that target them?", which asked of the disease) right after an answer that listed two
    or more proteins, gene families or complexes and nothing else, with every one of them in ``res.targets``; None
    for any other question, or after any other list."""
    m = _ON_THEM.match(q.strip())
    listed: list[dict[str, Any]] = focus.lists[0] if focus.lists else []
    if m is None or len(listed) < 2 or any(i.get("type") not in TARGET_TYPES or not i.get("id") for i in listed):
        return None
    res.targets = [i["id"] for i in listed]
    res.references.append({"text": q, "how": "list", "targets": res.targets})
    res.pinned[fold(LISTED_PROTEINS)] = res.pinned[fold(LISTED_PROTEINS.removeprefix("the "))] = listed[0]
    verb = m["verb"].casefold()
    return f"Which {m['other'] or ''}drugs {'act on' if verb == 'share' else verb} {LISTED_PROTEINS}?"
