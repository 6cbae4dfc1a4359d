"""How a drug works, asked of the thread: "how does it work?", "why is she on the first one?", "how does it do that?".

"How does <drug> work?" in a thread about a disease asks for the mechanism for that disease; so does "why is she on
<drug>?" after a patient's medications, for the condition the drug is listed for.
"""

from __future__ import annotations

import re
from typing import Any

from agents.ellipsis import entity_of, is_drug, standalone
from agents.focus import Focus
from agents.resolution import Linker, Resolution
from tools.linker import fold

__all__ = ["WHY_ON", "does_it_work", "listed_medication", "on_record", "works"]

_WORKS = re.compile(
    r"^(?:(?:how|why)?\s*(?:does|do|would|will|can|could)\s+(?P<x>.+?)\s+(?:work|help)"
    r"(?:\s+(?:for|in|against|on|with)\s+(?P<z>.+))?|why (?:is|are|was|were) (?P<u>\S.*?) (?:used|given|prescribed|recommended|taken)|"
    r"why (?:would|do|does|did|should) (?:you|we|they|doctors|one|people) (?:use|give|prescribe|choose|recommend) (?P<s>\S.*?)|why\s+(?P<y>\S.*?)|"
    r"(?:(?:can you )?tell me (?:more )?about|more (?:on|about)|explain|describe|details (?:on|about|of))\s+(?P<v>\S.*?))$",
    re.IGNORECASE)  # "why the first one?", "tell me more about the first one"; "how does it help?" after a drug and a disease
WHY_ON = re.compile(
    r"^(?:why (?:is|was|are|were) \S+(?: \S+)? (?:(?:started |put |kept )?on|taking|given|prescribed) (?P<x>.+?)|"
    r"why (?:does|did|do) \S+(?: \S+)? (?:take|get|use|need) (?P<y>.+?)|"
    r"what (?:is|are|was|were) \S+(?: \S+)? (?:taking|on|given|prescribed) (?P<w>.+?) for)[?.!]*$", re.IGNORECASE)
"""Why a patient takes a medication ("why is she on the first one?", "what is PAT_001 taking it for?")."""
_DO_IT = re.compile(r"^(?P<how>how (?:does|do|did|would|will|can|could) (?:it|they|that|this|these|those|(?:that|this|the \w+) "
                    r"ones?)) (?:do|achieve|accomplish|manage) (?:that|this|it|so)$", re.IGNORECASE)
"""How the drug referred to does what the thread said ("how does it do that?" after a list of drugs for gout was "How
does Gout do that?", its answer the list again). A named drug is :func:`agents.ellipsis.does_that`'s."""
_WHAT_FOR = re.compile(r"^what (?:is|was) (?P<x>it|(?:that|this)(?: one)?|the (?:first|second|third|fourth|fifth|last|1st|2nd|3rd|"
                       r"4th|5th|top)(?: one| drug| medication| medicine| med)?) (?:for|used for|prescribed for|given for|taken for)$",
                       re.IGNORECASE)
"""What a medication is for ("what is the first one for?")."""


def on_record(body: str, focus: Focus) -> str:
    """"what is the first one for?" right after a patient's medications, each listed with what it is for, as "why is
    the patient on the first one?": the condition the record lists it for (it was answered with every disease the
    graph has a mechanism for, "Multiple myeloma, …" for thalidomide listed for a peptic ulcer). Any other question as
    it is."""
    m = _WHAT_FOR.match(body)
    if m is None or focus.intent != "patient" or not focus.patient_id or not focus.lists or \
            not any(i.get("for") for i in focus.lists[0]):
        return body
    return f"why is the patient on {m['x']}"


_THAT_WHY = re.compile(r"^(?:is that|so (?:is )?that(?:'s| is)|that(?:'s| is)) why (?P<x>it|they|\S+)(?:'s|'re| is| are) "
                       r"(?P<rest>(?:used|given|prescribed|taken|recommended) .+)$", re.IGNORECASE)
"""Whether what the thread said explains a use ("is that why it's used for RA?" after what methotrexate targets)."""


def does_it_work(body: str) -> str:
    """"how does it do that?" as "how does it work", and "is that why it's used for RA?" as "why is it used for RA"
    (it listed the drugs for rheumatoid arthritis) (``body`` without its question mark); any other question as it
    is."""
    if m := _THAT_WHY.match(body):
        return f"why {'are' if m['x'].casefold() == 'they' else 'is'} {m['x']} {m['rest']}"
    m = _DO_IT.match(body)
    return f"{m['how']} work" if m else body


def listed_medication(q: str, focus: Focus) -> dict[str, Any] | None:
    """The medication of the patient's last list that "why is she on <name>?" names, when the record says its use."""
    m = WHY_ON.match(q)
    name = fold(next((x for x in m.groups() if x), "")) if m else ""
    return next((i for i in (focus.lists[0] if focus.lists else []) if i.get("for") and fold(i["name"]) == name), None)


def works(res: Resolution, text: str, focus: Focus, linker: Linker) -> str:
    """"How does <drug> work?" in a thread about a disease: the mechanism for that disease; so is "why is she on
    <drug>?" after a patient's medications, for the condition the drug is listed for."""
    m = WHY_ON.match(text) or _WORKS.match(text)
    if not m:
        return text
    drug = res.pinned.get(fold(next(x for x in m.groups() if x)))
    routes = focus.intent == "involved" or focus.by_class
    if drug is None or not (is_drug(drug) or routes):  # or a protein listed as taking part, or as a class's route
        return text
    disease = focus.disease
    if m.re is _WORKS and m.group("z"):
        out = linker.link(m.group("z"))
        disease = entity_of(out.candidates[0]) if out.candidates else {"id": "", "name": m.group("z"), "type": ""}
        if out.candidates and out.status.value == "linked":
            res.pinned[fold(disease["name"])] = disease
    elif disease is not None:
        res.pinned[fold(disease["name"])] = disease
    return standalone("mechanism", drug, disease) if disease else text
