"""What a reference in a follow-up stands for: the slot a pronoun fills in its question (:func:`wanted`) and the
thread's entity for that slot (:func:`pick`).

"What cells express it?" right after "What is rituximab's target?" asked where rituximab is expressed: the pronoun
filled no slot of a parsed question, and the thread's drug took it. A gene or a protein is what is expressed, so such a
question's "it" is now the protein the thread was about, or its target (CD20).
"""

from __future__ import annotations

import re
from typing import Any

from agents.focus import Focus
from agents.intent import REFERENCE, parse_with_reference
from agents.scope import COMBINED, INTERACTIONS, PROGNOSES, REVERSING, SAFETY, out_of_scope
from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent

__all__ = ["one_for_they", "only_listed_drug", "pick", "spelled_out", "thread_target", "verb_on", "wanted"]

_ACTS_ON = re.compile(r"\b(?:block|inhibit|activate|bind(?: to)?|target|act on|antagoni[sz]e|stimulate|hit)s?\b", re.IGNORECASE)
"""A verb of acting on a protein ("does valsartan block it too?")."""
_HAPPENS_IF = re.compile(rf"\bwhat happens (?:if|when) (?:you |we |i |one |a drug |drugs )?{_ACTS_ON.pattern}\s*$", re.IGNORECASE)
"""What becomes of blocking the pronoun's entity: a target."""
_TAKEN = re.compile(r"\b(?:(?:take|takes|taking|took|given|prescribed|prescribe)|"
                    r"(?:is|are|was|were|been|being|put|started|kept|stays?|stayed)(?:\s+\S+){0,2}\s+on)\s+$", re.IGNORECASE)
"""Words before a pronoun that stands for a drug ("why does she take it?", "why is she on it?")."""
_ACTED_ON = re.compile(r"^\W*(?:['’](?:s|re)|\s+(?:is|are|gets?|being))?\s+(?:blocked|inhibited|activated|stimulated|turned (?:off|on)|"
                       r"switched (?:off|on)|knocked out|bound)\b", re.IGNORECASE)
"""A pronoun acted on ("what happens when it's blocked?" after imatinib's targets): the target, not the drug (it was
"What happens when imatinib's blocked?")."""
_EXPRESSED = re.compile(r"\bexpress(?:es|ed|ing)?\b", re.IGNORECASE)
"""Where a gene or protein is expressed: what such a question's "it" stands for is a protein."""


_BETTER_FOR = re.compile(r"\b(?:better|best|worse|safer|stronger|more effective|most effective|preferred|first[- ]line) "
                         r"(?:for|in|against)\s*$", re.IGNORECASE)
"""Words before a pronoun that stands for a disease drugs are compared for ("which is better for that, …?")."""


def wanted(q: str, span: tuple[int, int], after_targets: bool = False) -> str:
    """Which slot a pronoun at ``span`` fills: drug before the verb of a treat/target question, disease after (a
    target after a verb of acting on a protein: "which drugs inhibit it?", and "does valsartan block it too?" right
    after a drug's targets, ``after_targets``: it was read as the thread's disease); a protein in a question of where
    it is expressed."""
    if _TAKEN.search(q[: span[0]]):  # "why does she take it?" (a rule reads "she" as the drug)
        return "drug"
    if _EXPRESSED.search(q):  # "what cells express it?" after rituximab's target: CD20, not rituximab
        return "protein"
    if _BETTER_FOR.search(q[: span[0]]) and re.match(r"\s*(?:[?.!]*$|,)", q[span[1]:]):  # "is tylenol or advil better for
        return "disease"  # it?" after the drugs for headache: the disease (the drugs were compared for nothing)
    if after_targets and _ACTED_ON.match(q[span[1]:]):  # "what happens when they are blocked?" after a drug's targets
        return "target"
    if _HAPPENS_IF.search(q[: span[0]]) and re.match(r"\W*$", q[span[1]:]):  # "what happens if you block it?" after
        return "target"  # "what does ACE do?": ACE (it was the first thing the answer named, Angiotensin II)
    topic = out_of_scope(q)
    if topic == PROGNOSES:  # "is it serious?" after how imatinib treats CML: CML (it was "Is imatinib serious?")
        return "disease"
    if topic in (INTERACTIONS, COMBINED, SAFETY):  # "is it safe with her other meds?" after a patient's medications (it
        return "drug"  # was a condition); "why is carbidopa given with it?" after levodopa (it was Parkinson's disease);
        # "is it safe long term?" after the drugs for arthritis (it was "Is Arthritis safe long term?")
    parsed = parse_with_reference(q, span)
    if parsed is not None:
        if REFERENCE in parsed.disease.upper():  # "which drugs inhibit it?": a target when the thread just listed them
            return "target" if parsed.intent is Intent.TARGETED_BY or (after_targets and _ACTS_ON.search(q)) else "disease"
        if REFERENCE in parsed.drug.upper():
            return "drug"
    elif re.search(rf"{_ACTS_ON.pattern}\s*$", q[: span[0]], re.IGNORECASE) and re.match(r"\W*$", q[span[1]:]):
        return "target"  # "how does imatinib block it?" after "what is ABL1?" (no rule reads "how does X block Y?")
    return ""


def thread_target(focus: Focus, sign: int) -> dict[str, Any] | None:
    """The target the thread was about; after "What does atorvastatin target?", the first listed target that the
    drug acts on in the direction a question's verb asks for ("which drugs also inhibit that?" is HMG-CoA reductase,
    not lipoprotein lipase, which atorvastatin activates)."""
    if sign and focus.intent == "targets" and focus.lists:
        return next((i for i in focus.lists[0] if i.get("sign") == sign), focus.target)
    return focus.target


_REMEDY = re.compile(r"\b(?:used|prescribed|indicated|given|taken|approved)\s+(?:for|to treat|against|in)\b|\btreats?\b|"
                     r"\bgood for\b", re.IGNORECASE)
"""A question that asks what a drug is for ("what diseases is it used for?"): its "it" is a drug, not the protein the
thread turned to ("Which cells express CD20?" after rituximab's target made it "What diseases is CD20 used for?")."""


def pick(focus: Focus, slot: str, sign: int = 0, q: str = "") -> dict[str, Any] | None:
    """The entity a reference fills ``slot`` with: the thread's latest of that slot; for the disease slot, the target
    the thread was about ("what other drugs target it?" after "What does atorvastatin target?") or else the first
    disease of the last list ("how does it work for that?" after "What is sildenafil used for?"); for the drug slot, the
    first drug of the last list when the thread named none ("how does it work?" after "What is the drug of choice for Y?").
    The target slot is the disease slot, but right after a drug's targets it is their first ("any other drugs that
    target it?" after "What does lesinurad target?" in a thread about gout), or the protein the thread was about ("which
    drugs inhibit it?" after "what does ABL1 do?") or the substance ("which drugs raise it?" after "What is the role of
    dopamine in Parkinson's?": it was the disease). The protein slot is the protein the thread was about, else its
    target, else its disease (of which the answer says that the graph places it nowhere)."""
    first = next((i for i in (focus.lists[0] if focus.lists else []) if i.get("type") in DISEASE_TYPES), None)
    about = focus.drug if focus.drug and focus.drug.get("type") not in DRUG_TYPES | DISEASE_TYPES else None
    if slot == "protein":
        return about or thread_target(focus, sign) or focus.disease
    if slot == "disease" and REVERSING.search(q) and focus.drug and focus.drug.get("type") in DRUG_TYPES:
        return focus.drug  # "why does vitamin K reverse it?": what vitamin K undoes is warfarin
    if slot in ("disease", "target"):
        substance = focus.drug if focus.drug and focus.drug.get("type") == "ChemicalSubstance" else None
        if slot == "target" and focus.intent == "targets":  # after "What does lesinurad target?" in a thread on gout, and
            # after a chemical's targets ("what drugs block it?" after morphine's: it was "What drugs block morphine?")
            return thread_target(focus, sign) or focus.disease or first
        if slot == "target" and (about or substance):  # "which drugs raise it?" after the role of dopamine in a disease
            return about or substance  # "which drugs inhibit it?" after "what does ABL1 do?" (it was the first item, CML)
        if focus.intent == "amounts" and focus.lists and focus.lists[0]:  # "what else lowers it?" after "what does
            return focus.lists[0][0]  # allopurinol lower?": the first chemical it listed
        if focus.intent == "indications" and first:  # "how does it work for that?" after "what is it used for?"
            return first
        return focus.disease or thread_target(focus, sign) or first or focus.record_condition  # or the record's conditions
    if slot == "drug" and _REMEDY.search(q) and (drug := next((d for d in [focus.drug or {}, *focus.drugs]
                                                               if d.get("type") in DRUG_TYPES), None)):
        return drug  # what the thread's drug is for, not the protein the thread turned to
    asked = focus.turn.get("disease") if focus.intent == "entity" and not focus.turn.get("drug") else None
    if slot in ("drug", "") and asked and asked.get("type") not in DRUG_TYPES | DISEASE_TYPES:
        return asked  # "where is it found?" after "what is the proton pump?", asked after omeprazole: the protein
    if slot == "drug":  # else a protein or a chemical the thread was about ("what does it do?" after "What is EGFR?")
        return focus.drug or next((i for i in (focus.lists[0] if focus.lists else []) if i.get("type") in DRUG_TYPES), None) \
            or (focus.disease if focus.disease and focus.disease.get("type") not in DISEASE_TYPES and not focus.by_class else None)
    return focus.drug or focus.disease or focus.record_condition  # "how many patients have it?" after the conditions


def only_listed_drug(focus: Focus) -> dict[str, Any] | None:
    """The one drug the latest answer listed, when it listed one ("how does that drug work?" after "PAT_002's record
    lists thalidomide for Peptic ulcer" asked what "that drug" meant)."""
    drugs = [i for i in (focus.lists[0] if focus.lists else []) if i.get("type") in DRUG_TYPES]
    return drugs[0] if len(drugs) == 1 else None


_CONTRACTED = re.compile(r"\b(it|they)['’](s|re)(?= (?:\w+ )?\w+(?:ed|en)\b)", re.IGNORECASE)


def spelled_out(q: str) -> str:
    """A pronoun contracted with its verb before a participle spelled out ("what happens when it's blocked?": "it is"),
    so that the name put in its place does not keep the "'s" ("What happens when imatinib's blocked?")."""
    return _CONTRACTED.sub(lambda c: f"{c[1]} {'is' if c[2].casefold() == 's' else 'are'}", q)


def one_for_they(q: str, end: int, plural: bool) -> str:
    """One name put for "they": its verb in the singular ("… when they are blocked?" → "… when ABL1 is blocked?")."""
    return q[:end] + re.sub(r"^ are\b", " is", q[end:]) if plural else q


def verb_on(entity: dict[str, Any], asked: str) -> str:
    """The verb of "which drugs do that?" about ``entity``: "treat" a disease; of a protein the thread asked about
    blocking or activating, that ("what happens if you block it?" after what ACE does: it was "Which drugs treat
    Angiotensin-converting enzyme?"), else "act on"."""
    if entity.get("type") in DISEASE_TYPES:
        return "treat"
    verb = re.search(r"\b(block|inhibit|antagoni[sz]e|activate|stimulate)", asked, re.IGNORECASE)
    return "act on" if verb is None else "activate" if verb[1].casefold() in ("activate", "stimulate") else "inhibit"
