"""Words that qualify a question with what the graph does not tell apart: a population ("in children", "for a
child"), a place in the body ("in the liver"), and the words of a patient's record ("medications", "labs"). Split from
``agents.ellipsis``, which reads them."""

from __future__ import annotations

import re

__all__ = ["PATIENT_WORDS", "QUALIFIERS", "TRAILING_PLACE", "TRAILING_QUALIFIER", "as_population"]

_POPULATIONS = (r"(children|kids|infants|babies|toddlers|newborns|neonates|adolescents|teenagers|pediatric patients|paediatric patients|"
                r"adults|the elderly|elderly patients|older adults|older people|pregnancy|pregnant women|women|men|"
                r"an? (?:child|kid|infant|baby|toddler|newborn|teenager|adolescent|pregnant woman|elderly (?:patient|person)))")
QUALIFIERS = re.compile(rf"^(?:in\s+)?{_POPULATIONS}$", re.IGNORECASE)
"""A population alone ("in pregnancy", "children"): what "what about in children?" asks again."""
_PLURAL = {"child": "children", "person": "people", "woman": "women"}


def as_population(qualifier: str) -> str:
    """A population as the answer's note names it: "a child" is "children", "an elderly patient" "elderly patients"."""
    m = re.match(r"^an? (?P<w>.+)$", qualifier.strip(), re.IGNORECASE)
    if m is None:
        return qualifier
    *head, last = m["w"].split()
    return " ".join([*head, _PLURAL.get(last.lower(), f"{last[:-1]}ies" if last.endswith("y") and last[-2:] != "ey" else f"{last}s")])


TRAILING_QUALIFIER = re.compile(rf"(?<=\S\s)(?:in|for)\s+{_POPULATIONS}(?=\s*[?.!]*$)", re.IGNORECASE)
"""A population at the end of a question ("What treats migraines in children?"): the graph does not distinguish it."""
TRAILING_PLACE = re.compile(r"(?<=\S\s)(?:(?:in|on|(?<=do )to) |(?<=affect )|(?<=affects ))((?:the |your )?(?:liver|kidneys?|brain|heart|lungs?|gut|intestines?|bowels?|stomach|"
                            r"skin|muscles?|bones?|pancreas|bladder|eyes?|thyroid|joints?|airways?|colon|spinal cord|"
                            r"central nervous system|CNS))(?=\s*[?.!]*$)", re.IGNORECASE)
"""An organ at the end of a question about a drug ("how does metformin work in the liver?", "what does acetaminophen do
to the liver?", which asked which liver disease was meant; "how does metformin affect the liver?", answered for Hepatic
Veno-Occlusive Disease): the curated mechanisms are not told apart by where in the body they act."""
PATIENT_WORDS = re.compile(r"\b(medications?|medicines?|meds|pills?|tablets?|drugs?|taking|prescri\w*|conditions?|diagnos\w*|labs?|"
                            r"results?|tests?|problems?|allerg(?:y|ies)|vaccinations?|immuni[sz]ations?|surger(?:y|ies)|operations|age|sex|gender)\b",
                           re.IGNORECASE)
