"""Alternatives to a drug: "What are alternatives to ibuprofen?", "What can I use instead of aspirin?", "which drugs share a target with imatinib?",
"which drugs act on the same target as imatinib?", "are there other drugs with the same target as imatinib?" (it told
what imatinib is connected to), "what else works like omeprazole?", "anything similar to omeprazole?".

The graph holds mechanisms, so an alternative is another drug that acts on what this one acts on, the same way: the
question is read as "Which other drugs inhibit Prostaglandin G/H synthase 2?", leaving the drug out (shown as
understood). Of the drug's direct targets (or those of what it becomes, ``tools.answers.direct_chains``), the one the
most of its class act on is taken, then the one the most drugs act on. They were answered with what the drug is
connected to.

A drug with a disease ("alternatives to lisinopril for high blood pressure", "other than metformin, what treats type
2 diabetes?", "what can replace allopurinol in gout?") is read as "Which other drugs treat high blood pressure?", the
drug left out: the other drugs for that disease, whatever they act on. A drug none of whose targets another drug acts
on (metformin's ETF-QO) takes the direct effect that the most other drugs share ("Which other drugs inhibit
Intestinal D-glucose absorption?": buformin); it had asked about a target only the drug itself reaches.
"""

from __future__ import annotations

import re
from typing import Any

from agents.focus import DRUG_LISTS, Focus
from agents.intent import CAUSING, SLOT_TYPES
from agents.resolution import Resolution
from agents.scope import NO_RESPONSE, out_of_scope
from agents.state import DISEASE_TYPES, DRUG_TYPES
from tools.answers import TARGET_TYPES, class_share, direct_chains, sign_verb
from tools.linker import LinkStatus, fold
from tools.path_ranker import effect

__all__ = ["BETTER_ONES", "QUALITY", "QUALITY_WORDS", "SIMILAR", "SUBSTITUTE", "alternatives_to", "asks_another", "best_of_the_thread", "instead_of_the_thread_drug"]

_PEOPLE = r"(?:i|we|you|one|a patient|someone|people|my \w+|he|she|they)"
_DRUGS = r"(?:drugs?|medications?|medicines?|meds|treatments?|options?|pills?)"
QUALITY_WORDS = (r"(?:safer|less risky|cheaper|less expensive|more affordable|better|more effective|stronger|gentler|milder|"
                 r"kinder)")
QUALITY = rf"(?:{QUALITY_WORDS} )?"
"""What an alternative is asked to be better in ("a safer alternative to aspirin"): the alternatives are told after the
note that the graph does not hold it (safety, prices, side effects, comparisons of how well drugs work)."""
_INSTEAD = re.compile(
    r"^(?:(?:(?:what|which)(?:'s|’s| is| are)|are there|is there|(?:list|name|give me|show me|suggest|recommend))?\s*"
    rf"(?:the |some |any |good |other |an? |another )?{QUALITY}"
    rf"(?:alternatives?|substitutes?|replacements?|other options?|another option) (?:to|for|besides|other than|instead of) "
    r"(?P<x>.+?)|"
    rf"(?:what|which)(?: else| other)?(?: {_DRUGS})? (?:can|could|should|might|do|would) {_PEOPLE} (?:use|take|try|give|get|"
    r"switch to|be on) (?:instead of|in place of|rather than) (?P<y>.+?)|"
    rf"(?:(?:which|what)(?: else| other)?(?: {_DRUGS})? (?:is|are|works?|acts?)|(?:is|are) there (?:any(?:thing)?|something|"
    rf"others?|other {_DRUGS}|{_DRUGS})(?: else)?|any(?:thing)?(?: else)?|something(?: else)?|others?|{_DRUGS}) (?:like|similar to|"
    r"the same (?:way )?as|comparable to) (?P<z>.+?)|"
    r"(?:what|which(?: drugs?)?) (?:can|could|would) (?:replace|substitute for|be used instead of) (?P<w>.+?)|"
    rf"(?:what|which)(?: other)? {_DRUGS} (?:also )?share (?:a |the |any )?(?:targets?|mechanisms?) (?:with|of) (?P<v>.+?)|"
    rf"(?:(?:what|which)(?: other)? {_DRUGS} (?:also )?(?:act on|target|hit|bind(?: to)?|inhibit|block|work on|have|share)|"
    rf"(?:(?:are|is) there )?(?:any )?(?:other )?{_DRUGS} (?:with|that (?:have|share|act on|target|hit))) (?:the )?same (?:targets?|proteins?|receptors?|enzymes?|mechanisms?) "
    r"as (?P<u>.+?))"
    r"[?.!]*$",
    re.IGNORECASE)
SUBSTITUTE = re.compile(
    r"^(?:(?:is there|are there|do you have|(?:what|which)(?:'s| is| are| would be)|any)\s+)?(?:a |an |any |some |the )?"
    r"(?:substitutes?|replacements?)(?: for (?:it|this|that|(?:this|that|the) (?:drug|medication|medicine|one)))?|"
    r"(?:what|which|anything|something)(?: else| other)?(?: drugs?| medications?| medicines?)? (?:can|could|should|might|would) "
    r"(?:i|we|you|he|she|they|one) (?:take|use|try|get|switch to)(?: instead(?: of (?:it|this|that))?| in its place| rather)|"
    r"(?:what|which|anything|something) else(?: drugs?| medications?| medicines?)? (?:can|could|should|might|would) "
    r"(?:i|we|you|he|she|they|one) (?:take|use|try|get)|"
    # "what else is used?" after how donepezil treats Alzheimer's disease was NOT_FOUND, "no known entity in the question"
    r"(?:what|which|anything|something) else(?: drugs?| medications?| medicines?)? (?:is|are) (?:(?:commonly |usually )?"
    r"(?:used|given|prescribed|available)|there|out there)(?: for (?:it|this|that))?|"
    r"(?:what|anything|something) else(?: that)? (?:works|helps|(?:can|could|might|would|will|may) (?:help|work))(?: (?:with|for) "
    r"(?:it|this|that))?$", re.IGNORECASE)
"""A request for another drug with nothing named ("is there a substitute?", "what could I take instead?", "what else
can I take?", "what else could help?"): more of the last list (``agents.followup``), or after a turn about one drug its alternatives
(:func:`instead_of_the_thread_drug`)."""
_BARE = re.compile(
    r"^(?:(?:are there|is there|do you have|(?:what|which)(?:'s| is| are| would be)(?: the| my)?|any|give me|suggest|name)\s+)?"
    rf"(?:any |some |an? |other |another |good )*{QUALITY}(?:alternatives?|substitutes?|replacements?|other (?:options?|drugs?|medications?|"
    r"medicines?|treatments?)|another (?:option|drug|medication|medicine|treatment))(?: to (?:it|this|that)(?: drug| one)?)?$",
    re.IGNORECASE)
"""A request for another drug with nothing named, as a noun ("is there an alternative?", "what are the other options?")."""
BETTER_ONES = re.compile(
    r"^(?:(?:are there|is there|do you have|give me|show me|suggest|name|list|(?:what|which)(?:'s| is| are| would be)(?: the| my)?|"
    rf"any)\s+)?(?:any |some |an? |other |more )?{QUALITY_WORDS} (?:alternatives?|options?|drugs?|medications?|medicines?|"
    r"treatments?|ones?|choices?|substitutes?)(?: (?:for|to) (?:it|this|that|me|him|her|them))?$", re.IGNORECASE)
"""A request for more of a list, or for another drug than the thread's, that is better in a way the graph does not
hold ("what's a safer alternative?", "any cheaper options?"): the same as without the word, after the note that says
so (it was told what the drug is connected to, or `NOT_FOUND`: '"any cheaper options" is not in the knowledge
graph')."""


def asks_another(text: str) -> bool:
    """Whether ``text`` asks only for another drug, nothing named ("what else could help?", "are there alternatives?")."""
    q = text.strip().rstrip("?.! ")
    return bool(SUBSTITUTE.match(q) or _BARE.match(q))


_SIMILAR_NOUN = r"(?:drugs?|medications?|medicines?|ones?|treatments?|options?)"
SIMILAR = re.compile(
    r"^(?:(?:is there|are there|do you have|do you know|(?:what|which)(?:'s| is| are| would be)|any|give me|suggest|name|list)\s+)?"
    r"(?:any |some |an? |other |another |good )*"
    rf"(?:(?:similar|comparable|equivalent) {_SIMILAR_NOUN}(?: to (?:it|this|that)(?: drug| one)?)?|"
    rf"{_SIMILAR_NOUN} (?:that (?:is|are|works?|acts?) )?(?:similar|like (?:it|this|that))|"
    r"(?:anything|something) (?:similar|like (?:it|this|that))|what(?:'s| is) similar)[?.!]*$", re.IGNORECASE)
"""A request for a drug like the thread's ("is there a similar drug?", "anything similar?"): the drugs that act on what
it acts on, the same way, even after a turn with a disease; after a list, more of it (both were NOT_FOUND, "no known
entity in the question")."""


_BEST_IT = re.compile(
    r"^(?:so |and |but |ok,? )?(?:is|are|was|would) (?:it|that|this|they|these|those)(?: drugs?| ones?| medications?| medicines?)? "
    r"(?:(?:the|an?) )?(?:best|ideal|optimal|top|first[- ]line|most appropriate|right|better|good) (?:option|choice|drug|"
    r"treatment|medication|medicine|therapy|pick|one)s?(?: for (?:it|this|that|him|her|them|me|the (?:disease|condition)))?"
    r"[?.!]*$", re.IGNORECASE)
"""Whether the thread's drug is the best one ("is that the best option?", "is it the best drug for it?"): asked of it,
for the thread's disease (it was NOT_FOUND, "no known entity in the question", or asked of the disease)."""


def best_of_the_thread(res: Resolution, body: str, focus: Focus) -> str | None:
    """"Is that the best option?" after a turn about one drug, or a patient's record that lists one: "Is Omeprazole the
    best option for Peptic ulcer?" (its answer says that the graph ranks no drugs, then what it holds); None for any
    other question."""
    drug, disease = focus.drug, focus.disease
    taken = [i for i in (focus.lists[0] if focus.lists else []) if i.get("type") in DRUG_TYPES]
    if drug is None and focus.intent == "patient" and len(taken) == 1:  # "What is PAT_002 taking for peptic ulcer?"
        drug, disease = {k: v for k, v in taken[0].items() if k != "for"}, taken[0].get("for") or disease
    if drug is None or drug.get("type") not in DRUG_TYPES or focus.intent in DRUG_LISTS or not _BEST_IT.match(body):
        return None
    res.references.append({"text": res.question, "how": "thread drug", "entity": drug})
    res.pinned[fold(drug["name"])] = drug
    if disease is None or disease.get("type") not in DISEASE_TYPES:
        return f"Is {drug['name']} the best option?"
    res.pinned[fold(disease["name"])] = disease
    return f"Is {drug['name']} the best option for {disease['name']}?"


def instead_of_the_thread_drug(res: Resolution, body: str, focus: Focus) -> str | None:
    """"What are the alternatives?", "is there an alternative?", "what else could I take instead?" after a turn about one
    drug and no disease (what metoprolol is used for, how omeprazole works, what clopidogrel is): "What are alternatives
    to Metoprolol?", read by :func:`alternatives_to`. They asked the last question again, leaving out what it had listed
    (metoprolol's other diseases), or were NOT_FOUND. "What if it doesn't work?" asks the same (it was told what the
    drug is connected to), and after a turn with a disease, "Which other drugs treat Depressive disorder?", the drug
    left out. None after a list of drugs (more of them), for a request for alternatives after a turn with a disease (the
    other drugs for it, read elsewhere) and for any other question."""
    drug, disease = focus.drug, focus.turn.get("disease")
    caused = disease if focus.intent == "relation" and re.search(rf"\b{CAUSING}\b", str(focus.turn.get("question") or ""),
                                                                  re.IGNORECASE) else None
    disease = None if caused else disease  # "why does lisinopril cause cough?": not what it is taken for (it was "Which
    # other drugs treat Cough?"), and alternatives that act the same way may cause it too
    if drug is not None and focus.turn.get("drug") == drug and focus.intent not in DRUG_LISTS and SIMILAR.match(body) \
            and drug.get("type") in DRUG_TYPES:  # "is there a similar drug?": like it, by mechanism, whatever the disease
        res.references.append({"text": res.question, "how": "thread drug", "entity": drug})
        res.pinned[fold(drug["name"])] = drug
        return f"What drugs are similar to {drug['name']}?"
    failing = out_of_scope(body) == NO_RESPONSE  # "what if it doesn't work?": the note, then the alternatives
    if drug is None or focus.turn.get("drug") != drug or focus.intent in DRUG_LISTS or drug.get("type") not in DRUG_TYPES \
            or not (failing or _BARE.match(body) or SUBSTITUTE.fullmatch(body)) or (disease and not failing):
        return None
    res.references.append({"text": res.question, "how": "thread drug", "entity": drug})
    if disease:  # after how sertraline treats depression: the disease's other drugs, the drug left out
        res.pinned[fold(disease["name"])] = disease
        res.excluded.append(drug["id"])
        return f"Which other drugs treat {disease['name']}?"
    res.pinned[fold(drug["name"])] = drug
    if caused:
        res.references.append({"how": "after", "note": f"They act as {drug['name']} does; the knowledge graph does not hold "
                                                       f"whether they cause {caused['name']} too."})
    return f"What are alternatives to {drug['name']}?"


_BEFORE = re.compile(  # "other than metformin, what treats type 2 diabetes?"
    r"^(?:other than|besides|apart from|aside from|instead of) (?P<x>[^,]+?),? (?:what|which)(?: else| other)?"
    rf"(?: {_DRUGS})? (?:treats?|helps?(?: with)?|works? for|(?:is|are|can be) used (?:for|to treat)|"
    rf"(?:can|could|should) {_PEOPLE} (?:take|use) for) (?P<d>.+?)[?.!]*$", re.IGNORECASE)
_FOR = re.compile(r"\s+(?:for|in|to treat|when treating|in treating|in the treatment of|against)\s+", re.IGNORECASE)


def alternatives_to(res: Any, resolution: Resolution) -> Resolution:
    """The resolution of a question for a drug's alternatives (module docstring); any other one unchanged. A drug
    whose direct effects no other drug shares keeps the question as asked."""
    text = " ".join(resolution.question.split())
    m, before = _INSTEAD.match(text), _BEFORE.match(text)
    if before:  # "other than metformin, what treats type 2 diabetes?"
        x, disease = before["x"], before["d"]
    elif m:
        x, disease = _drug_and_disease(res, m["x"] or m["y"] or m["z"] or m["w"] or m["v"] or m["u"])
    else:
        return resolution
    drug = _drug(res, x)
    if drug is None:
        return resolution
    if disease:
        return Resolution(question=f"Which other drugs treat {disease}?", references=[*resolution.references, {
            "text": resolution.question, "how": "alternatives", "drug": drug.id, "drug_name": drug.name, "for": disease}],
            pinned=resolution.pinned, excluded=[*resolution.excluded, drug.id])
    best = _shared_effect(res, drug)
    if best is None:
        return resolution
    target = res.kg.node(best[-1].tail)
    question = f"Which other drugs {sign_verb(effect([e.relation for e in best]))} {target.name}?"
    entity = {"id": target.id, "name": target.name, "type": target.type}
    return Resolution(question=question, references=[*resolution.references, {
        "text": resolution.question, "how": "alternatives", "drug": drug.id, "drug_name": drug.name, "entity": entity}],
        pinned={**resolution.pinned, fold(target.name): entity}, excluded=[*resolution.excluded, drug.id])


def _drug(res: Any, text: str) -> Any:
    """The drug the words name, or None."""
    out = res.linker.link(text, SLOT_TYPES["drug"])
    ok = out.status is LinkStatus.LINKED and out.best is not None and out.best.type in DRUG_TYPES
    return out.best if ok else None


def _drug_and_disease(res: Any, text: str) -> tuple[str, str]:
    """"lisinopril for high blood pressure" → ("lisinopril", "high blood pressure") when the words after "for" (or
    "in", "to treat", …) name a disease or a symptom and those before it a drug; the words whole otherwise."""
    for m in _FOR.finditer(text):
        head, tail = text[: m.start()], text[m.end():]
        out = res.linker.link(tail, SLOT_TYPES["disease"])
        if out.best is not None and out.best.type in DISEASE_TYPES and _drug(res, head) is not None:
            return head, tail
    return text, ""


def _shared_effect(res: Any, drug: Any) -> list | None:
    """The drug's direct effect an alternative should share: of its targets another drug also acts on, the one the
    most of its class act on, then the one the most drugs act on; failing those, the direct effect the most other
    drugs share (a process, a chemical); None when no other drug shares any."""
    def others(chain: list) -> int:
        own = {e.head for e in chain}  # the drug, and what it becomes (enalapril → enalaprilat)
        return sum(1 for e in res.kg.in_edges(chain[-1].tail) if e.head not in own and _is_drug(res, e.head))

    chains = [c for c in direct_chains(res.kg, drug.id) if res.kg.node(c[-1].tail) is not None and others(c)]
    targets = [c for c in chains if res.kg.node(c[-1].tail).type in TARGET_TYPES]
    if targets:
        share = class_share(res.kg, res.linker.classmates(drug.id))
        return max(targets, key=lambda c: (share[c[-1].tail], len(res.kg.in_edges(c[-1].tail)), -len(c), c[-1].tail))
    return max(chains, key=lambda c: (others(c), -len(c), c[-1].tail)) if chains else None


def _is_drug(res: Any, eid: str) -> bool:
    """Whether the graph types ``eid`` as a drug or a chemical."""
    node = res.kg.node(eid)
    return node is not None and node.type in DRUG_TYPES
