"""A patient's condition asked by its adjective: "Is PAT_002 diabetic?" is "Does PAT_002 have diabetes?" (it listed the
whole record, and "is she diabetic?" after a patient's record was NOT_FOUND, '"is she diabetic" is not in the knowledge
graph'). Of a drug, the adjective asks whether the drug causes the condition: "Is imatinib hypertensive?" is "Does
imatinib cause hypertension?" (it was answered "Yes: imatinib acts on Hypertensive disorder …", as if it treated it).

A person named by the condition is a patient with it ("what drugs should asthmatics avoid?": "asthmatics" is no name
the graph holds), and which drugs such a patient should avoid asks which drugs can make the condition worse (it was
`NOT_FOUND`, or told only what asthma is connected to)."""

from __future__ import annotations

import re
from typing import Any

from agents.intent import SLOT_TYPES
from agents.state import DISEASE_TYPES, DRUG_TYPES
from tools.link_outcome import LinkStatus

__all__ = ["CONDITION_ADJECTIVES", "avoided_in", "causes_condition", "has_condition", "sufferers_taking"]

CONDITION_ADJECTIVES = {
    "diabetic": "diabetes", "hypertensive": "hypertension", "hypotensive": "hypotension", "asthmatic": "asthma",
    "anemic": "anemia", "anaemic": "anaemia", "obese": "obesity", "epileptic": "epilepsy", "arthritic": "arthritis",
    "depressed": "depression", "schizophrenic": "schizophrenia", "psychotic": "psychosis", "bipolar": "bipolar disorder",
    "hypothyroid": "hypothyroidism", "hyperthyroid": "hyperthyroidism", "septic": "sepsis", "dehydrated": "dehydration",
    "osteoporotic": "osteoporosis", "gouty": "gout", "hyperlipidemic": "hyperlipidemia", "autistic": "autism",
    "hypercholesterolemic": "hypercholesterolemia", "insomniac": "insomnia", "alcoholic": "alcoholism",
    "cirrhotic": "cirrhosis", "hypoglycemic": "hypoglycemia", "hyperglycemic": "hyperglycemia",
    "neutropenic": "neutropenia", "thrombocytopenic": "thrombocytopenia", "anorexic": "anorexia",
    "diabetogenic": "diabetes",
}
"""An adjective for having a condition, and the condition's name as a question would write it."""

_VERB = {"is": "Does", "are": "Do", "was": "Did", "were": "Did"}

_IS_ADJECTIVE = re.compile(
    r"^(?P<v>is|are|was|were) (?P<who>[a-z]+_\d+|she|he|they|the patient|(?:this|that) patient) "
    rf"(?P<adv>(?:still|currently|now|also|already) )?(?:an? )?(?P<adj>{'|'.join(CONDITION_ADJECTIVES)})(?P<end>[?.!]*)$",
    re.IGNORECASE)


_HOW_OLD = re.compile(r"^how old is (?P<who>[a-z]+_\d+|she|he|the patient)[?.!]*$", re.IGNORECASE)
_HIS_HER = {"she": "her", "he": "his", "the patient": "the patient's"}


def has_condition(question: str) -> str:
    """"Is PAT_002 diabetic?" → "Does PAT_002 have diabetes?", "is she still depressed?" → "Does she still have
    depression?"; "how old is she?" → "What is her age?" (it was NOT_FOUND, "no known entity in the question"), which
    the record does not hold; any other question unchanged."""
    if (old := _HOW_OLD.match(question.strip())) is not None:
        who = old["who"]
        return f"What is {_HIS_HER.get(who.casefold(), who + chr(39) + 's')} age?"
    m = _IS_ADJECTIVE.match(question.strip())
    if m is None:
        return question
    who = m["who"] if "_" in m["who"] else m["who"].casefold()  # "Is she …": "Does she …"
    return f"{_VERB[m['v'].casefold()]} {who} {m['adv'] or ''}have {CONDITION_ADJECTIVES[m['adj'].casefold()]}{m['end'] or '?'}"


_DRUG_IS = re.compile(rf"^(?P<v>is|are) (?P<x>[\w'-]+(?: [\w'-]+){{0,2}}) (?:an? )?(?P<adj>{'|'.join(CONDITION_ADJECTIVES)})"
                      r"(?P<end>[?.!]*)$", re.IGNORECASE)


def causes_condition(question: str, linker: Any) -> str:
    """"Is imatinib hypertensive?" → "Does imatinib cause hypertension?" when the subject names one drug; any other
    question unchanged (a patient or a pronoun is :func:`has_condition`'s)."""
    m = _DRUG_IS.match(" ".join(question.split()))
    if m is None or re.fullmatch(r"[a-z]+_\d+|she|he|they|it|that|this|the patient", m["x"], re.IGNORECASE):
        return question
    out = linker.link(m["x"])
    if out.status.value != "linked" or out.best is None or out.best.type not in DRUG_TYPES:
        return question
    verb = "Do" if m["v"].casefold() == "are" else "Does"
    return f"{verb} {m['x']} cause {CONDITION_ADJECTIVES[m['adj'].casefold()]}{m['end'] or '?'}"


_SUFFERERS = re.compile(rf"\b(?P<adj>{'|'.join(a for a in CONDITION_ADJECTIVES if not a.endswith(('ed', 'se')))})s\b", re.IGNORECASE)
"""A plural person named by the condition ("asthmatics", "diabetics", "epileptics")."""
_MEDS = r"(?:drugs?|medications?|medicines?|meds|pills)"
_AVOIDED = re.compile(
    rf"^(?:(?:what|which) {_MEDS} (?:should|must|do|does|can|could|would) (?:i|you|we|they|people|patients|someone|one) "
    rf"(?:with|who have|who has|that have) (?P<y>[\w' -]+?) (?:avoid|not take|stay away from|be careful with)|(?:what|which) {_MEDS} "
    rf"(?:should|must|do|can) (?:i|you|we|they|he|she|people|patients) (?:avoid|not take|stay away from) (?:if|when|with) "
    rf"(?:i|you|we|they|he|she|people|patients)? ?(?:have |has |with )?(?P<z>[\w' -]+?)|(?:what|which) {_MEDS} (?:are|is) "
    rf"(?:contraindicated|unsafe|not safe|dangerous|bad|harmful|risky) (?:in|for|with) (?:patients with |people with |someone with )?"
    r"(?P<w>[\w' -]+?))[?.!]*$", re.IGNORECASE)


def avoided_in(question: str, linker: Any) -> str:
    """"What drugs should asthmatics avoid?" → "Which drugs can make asthma worse?" (the person as a patient with the
    condition, and which drugs to avoid with it as which drugs can make it worse: the graph's chains into a disease
    say which raise it); "what drugs are contraindicated in asthma?" the same; any other question unchanged, one about
    what is not a disease among them ("which drugs should I avoid with warfarin?")."""
    text = _SUFFERERS.sub(lambda m: f"patients with {CONDITION_ADJECTIVES[m['adj'].casefold()]}", " ".join(question.split()))
    m = _AVOIDED.match(text)
    y = (m["y"] or m["z"] or m["w"]) if m else ""
    out = linker.link(y, SLOT_TYPES["disease"]) if y else None
    if out is None or out.best is None or out.status is LinkStatus.UNKNOWN or out.best.type not in DISEASE_TYPES:
        return question  # "which drugs should I avoid with warfarin?": what it is taken with
    return f"Which drugs can make {y} worse?"


_SUFFERERS_TAKE = re.compile(rf"^(?P<m>can|could|may|should|do|are) (?P<who>(?:{_SUFFERERS.pattern[2:-2]})) (?P<v>take|use|be given|"
                             r"have|allowed to take|able to take) (?P<x>[^?.!]+?)(?P<end>[?.!]*)$", re.IGNORECASE)
"""Whether people with a condition may take a drug, the person named by it ("can diabetics take prednisone?")."""


def sufferers_taking(question: str) -> str:
    """"Can diabetics take prednisone?" → "Can people take prednisone if they have diabetes?", the safety question
    ``agents.safe_with`` reads (it told what prednisone is connected to, with no word on safety); any other question
    unchanged."""
    m = _SUFFERERS_TAKE.match(" ".join(question.split()))
    if m is None:
        return question
    condition = CONDITION_ADJECTIVES[m["adj"].casefold()]
    modal = m["m"].casefold() if m["m"].casefold() in ("can", "could", "may", "should") else "can"  # "are … allowed to"
    verb = "take" if m["v"].casefold() in ("have", "allowed to take", "able to take") else m["v"]
    return f"{modal.capitalize()} people {verb} {m['x']} if they have {condition}{m['end'] or '?'}"

