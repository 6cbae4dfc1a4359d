"""A patient's condition asked by its adjective: "Is PAT_002 diabetic?" is "Does PAT_002 have diabetes?" (it listed the
whole record, and "is she diabetic?" after a patient's record was NOT_FOUND, '"is she diabetic" is not in the knowledge
graph'). Only a patient or a pronoun is the subject: "is imatinib hypertensive?" is left as written."""

from __future__ import annotations

import re

__all__ = ["CONDITION_ADJECTIVES", "has_condition"]

CONDITION_ADJECTIVES = {
    "diabetic": "diabetes", "hypertensive": "hypertension", "hypotensive": "hypotension", "asthmatic": "asthma",
    "anemic": "anemia", "anaemic": "anaemia", "obese": "obesity", "epileptic": "epilepsy", "arthritic": "arthritis",
    "depressed": "depression", "schizophrenic": "schizophrenia", "psychotic": "psychosis", "bipolar": "bipolar disorder",
    "hypothyroid": "hypothyroidism", "hyperthyroid": "hyperthyroidism", "septic": "sepsis", "dehydrated": "dehydration",
    "osteoporotic": "osteoporosis", "gouty": "gout", "hyperlipidemic": "hyperlipidemia", "autistic": "autism",
    "hypercholesterolemic": "hypercholesterolemia", "insomniac": "insomnia", "alcoholic": "alcoholism",
    "cirrhotic": "cirrhosis", "hypoglycemic": "hypoglycemia", "hyperglycemic": "hyperglycemia",
    "neutropenic": "neutropenia", "thrombocytopenic": "thrombocytopenia", "anorexic": "anorexia",
}
"""An adjective for having a condition, and the condition's name as a question would write it."""

_VERB = {"is": "Does", "are": "Do", "was": "Did", "were": "Did"}

_IS_ADJECTIVE = re.compile(
    r"^(?P<v>is|are|was|were) (?P<who>[a-z]+_\d+|she|he|they|the patient|(?:this|that) patient) "
    rf"(?P<adv>(?:still|currently|now|also|already) )?(?:an? )?(?P<adj>{'|'.join(CONDITION_ADJECTIVES)})(?P<end>[?.!]*)$",
    re.IGNORECASE)


def has_condition(question: str) -> str:
    """"Is PAT_002 diabetic?" → "Does PAT_002 have diabetes?", "is she still depressed?" → "Does she still have
    depression?"; any other question unchanged."""
    m = _IS_ADJECTIVE.match(question.strip())
    if m is None:
        return question
    who = m["who"] if "_" in m["who"] else m["who"].casefold()  # "Is she …": "Does she …"
    return f"{_VERB[m['v'].casefold()]} {who} {m['adv'] or ''}have {CONDITION_ADJECTIVES[m['adj'].casefold()]}{m['end'] or '?'}"
