"""Follow-ups about the patient whose medications the last answer listed: "why?", "is any of it for diabetes?", "is any
of it a statin?"; and, after the conditions, "what is she taking for them?" (``agents.followup`` asks them first)."""

from __future__ import annotations

import re

from agents.focus import Focus
from agents.patient_answer import lab_named
from agents.resolution import Linker, Resolution
from agents.safe_with import WHOM
from agents.state import DRUG_TYPES, Intent
from core.text import fold

__all__ = ["conditions_ranked", "of_the_record", "what_helps"]

_ANY_OF_IT = re.compile(r"^(?:is|are) (?P<n>any|some|one|none) of (?:it|(?P<own>(?:his|her|their) (?:drugs|medications|medicines|meds))) "
                        r"(?P<a>an? )?(?P<c>.+)$", re.IGNORECASE)
"""Whether some of a patient's listed medications are of a class, "it" standing for the list."""
_WHY_ALONE = re.compile(r"^(?:and |but |so )?(?:why|how come|why is that|what for|for what)$", re.IGNORECASE)
_ANY_FOR = re.compile(r"^(?:is|are) (?:any|some|one|none) of (?:it|them|those|these|that|(?:the|these|those|his|her|their) "
                      r"(?:drugs|medications|medicines|meds)) (?:\w+ )?for (?P<y>.+)$", re.IGNORECASE)

_ONE_OF_THEM = re.compile(r"(?:it|that|this|them|those|these)(?: conditions?| diseases?)?[?.!]*", re.IGNORECASE)
"""The thread's record's conditions as a pronoun ("are any of her meds for that?" after her conditions, then her
medications, was answered "No: PAT_001's record lists no medication for that", though it listed one)."""

_WHO = r"(?P<who>she|he|they|the patient|(?:this|that) patient|\w+_\d+)"
_ON_ANY_LISTED = re.compile(
    rf"^(?:is|does|are) {_WHO} (?:taking|on|using|prescribed|take|use|have) "
    r"(?:any|one|some|either) of (?:them|those|these|the (?:listed |above )?(?:drugs|medications|medicines|ones))$|"
    rf"^which (?:one )?of (?:them|those|these)(?: drugs| medications| medicines| ones)? (?:is|does|are) {_WHO.replace('who', 'who2')} "
    r"(?:taking|on|using|prescribed|take|use)$|"
    r"^(?:is|are) (?:any|one|some|either) of (?:them|those|these)(?: drugs| medications| medicines| ones)? (?:already |also )?"
    r"(?:on|in) (?:her|his|their|the patient's|(?P<who3>\w+_\d+)'s) (?:record|list|medications|meds|drugs)$", re.IGNORECASE)
"""Whether the thread's patient, or one the question names, takes any of the drugs the last answer listed ("is she on
any of them?" after "What treats peptic ulcer?"; "is PAT_001 taking any of them?" and "which of these is PAT_003 on?"
after a list of drugs, which were "Is PAT_001 taking any of Gout?" and "What is PAT_003 taking for of the listed?"
until stop 100; "are any of them already on her record?", which was `NOT_FOUND`)."""
_FOR_ALL = re.compile(r"^what(?: (?:drugs|medications|medicines|meds))? (?:is|does|do|are) (?:she|he|they|the patient|\w+_\d+) "
                      r"(?:taking|take|on|using|use|prescribed|given)(?: for)? (?:them|those|these|both|all of them|each of them)$",
                      re.IGNORECASE)
"""What the patient takes for all the conditions the last answer listed ("what is she taking for them?")."""
_RISKY = re.compile(r"^(?:is |are )?(?:any(?:thing)?|something|any of (?:it|that|this|them|those|these)|(?:all of )?(?:these|they|"
                    r"those|them)(?: drugs| medications| medicines| meds)?)(?: in (?:it|that|this|(?:her|his|the|their) record))? "
                    r"(?:risky|dangerous|unsafe|safe|ok|okay|harmful|worrying|concerning|contraindicated|a (?:risk|concern|problem|worry))"
                    rf"(?: for {WHOM}| with (?:her|his|their|the patient's) (?:conditions?|diseases?|"
                    r"problems?|diagnos[ie]s))?$", re.IGNORECASE)
"""Whether anything in the record the last answer showed is risky ("is any of it risky?", "are they safe?", "is any of
them risky with her conditions?": they asked which condition, or compared the medications as interactions; "is any of it
contraindicated?" asked which condition until stop 99)."""


_WHOM = r"(?:her|him|them|the patient|(?:this|that) patient|\w+_\d+)"
_WHAT_HELPS = re.compile(rf"^(?:so |and |ok,? )?(?:(?:what|which) (?:drugs?|medications?|medicines?|meds|treatments?|options?|"
                         rf"therap(?:y|ies))(?: (?:would|could|might|can|will|should))? (?:help|work for|treat|be good for|be best for|"
                         rf"suit) {_WHOM}|what (?:would|do) you (?:recommend|suggest)(?: for {_WHOM})?|what (?:should|could|can) "
                         rf"(?:she|he|they|the patient) (?:take|be given|try))$", re.IGNORECASE)
"""What would treat the patient whose conditions the last answer listed ("what medications would help her?": it was
"What medications would help PAT_001's?", answered with her medications; "what drugs would help him?" was
`NOT_FOUND`, '"him" is not in the knowledge graph')."""
_LAB_OF = re.compile(r"\b(?:trend|results?|values?|levels?|history|readings?|measurements?)\b", re.IGNORECASE)
"""Words of a lab's results ("what was the ALT trend?"), which after a record are the patient's."""


def of_the_record(res: Resolution, q: str, focus: Focus, linker: Linker) -> str:
    """Right after a patient's medications: "why?" is why the patient is on them ("why is PAT_001 on it", resolved as
    such, one medication or a choice among several), and "is any of it for diabetes?" asks the record what the
    patient takes for it. They were NOT_FOUND ("no known entity"), and the second was read as "Is any of Schizophrenia
    for diabetes?". "is any of it a statin?" asks which of the listed medications are (it asked which of the patient's
    conditions "it" meant, then whether Peptic ulcer is a statin). "are any of her drugs statins?" turns after the record
asks the record (it told what statins act on). "Is she on any of them?" after a list of drugs asks the record about each
listed drug. Any other question comes back unchanged."""
    listed = focus.drug_list
    on_any = _ON_ANY_LISTED.match(q)
    who = (on_any["who"] or on_any["who2"] or on_any["who3"] or "") if on_any else ""
    named = who.upper() if re.fullmatch(r"\w+_\d+", who) else focus.patient_id
    if named and len(listed) >= 2 and on_any:  # it was "Is PAT_002 on any of those?", "No: PAT_002's record lists no of
        res.patient_id = named  # those", or "them" read as the listed drugs' disease
        res.references.append({"text": q, "how": "patient", "patient_id": named})
        res.pinned.update({fold(d["name"]): d for d in listed})
        names = [d["name"] for d in listed]
        return f"Is {named} taking {', '.join(names[:-1])} or {names[-1]}"
    if focus.patient_id and focus.intent != "patient" and (m := _ANY_OF_IT.match(q)) and m["own"] and linker.class_name(m["c"]):
        res.patient_id = focus.patient_id  # "are any of her drugs statins?" turns after the record: the record
        res.references.append({"text": q, "how": "patient", "patient_id": focus.patient_id})
        return f"Is {focus.patient_id} on any {linker.class_name(m['c'])}"
    pid = focus.patient_id if focus.intent == "patient" else None
    if pid and focus.record_conditions and _FOR_ALL.match(q):  # "what is she taking for them?" after the conditions:
        res.patient_id = pid  # the whole list, each medication with what it is for (it asked which condition "them" was)
        res.references.append({"text": q, "how": "patient", "patient_id": pid})
        return f"what is {pid} taking"
    if pid and _RISKY.match(q):  # "is anything in it risky?" after a record: its medications, said to hold no safety
        res.patient_id = pid  # ("… risky with her conditions?" is no question of interactions)
        res.references.append({"text": q, "how": "patient", "patient_id": pid, "safety": True})
        return f"Are {pid}'s medications safe"
    if pid and lab_named(q) and _LAB_OF.search(q) and (the := re.search(r"\bthe\b", q, re.IGNORECASE)):  # "what was the ALT
        res.patient_id = pid  # trend?" after a record: that patient's (it was NOT_FOUND, "no known entity in the question")
        res.references.append({"text": q, "how": "patient", "patient_id": pid})
        return f"{q[: the.start()]}{pid}'s{q[the.end():]}"
    if pid and _WHY_ALONE.match(q) and any(i.get("for") for i in (focus.lists[0] if focus.lists else [])):
        return f"why is {pid} on it"
    if pid and (m := _ANY_FOR.match(q)):
        res.patient_id = pid
        res.references.append({"text": q, "how": "patient", "patient_id": pid})
        conditions = focus.record_conditions if _ONE_OF_THEM.fullmatch(m["y"]) else []
        if len(conditions) > 1:  # "are any of her meds for them?": each medication with what it is for
            return f"what is {pid} taking"
        return f"Is {pid} taking anything for {conditions[0]['name'] if conditions else m['y']}"
    if pid and (m := _ANY_OF_IT.match(q)) and linker.class_name(m["c"]):  # "is any of it a statin?": of the list
        listed = {i.get("id") for i in (focus.lists[0] if focus.lists else []) if i.get("type") in DRUG_TYPES}
        if not {c.id for c in linker.drug_class(m["c"])} & listed:  # none listed (withheld), or none of them: the record
            res.patient_id = pid  # says so, or what it cannot (it asked what "them" referred to, or refused: NOT_FOUND)
            res.references.append({"text": q, "how": "patient", "patient_id": pid})
            return f"Is {pid} on any {linker.class_name(m['c'])}"
        return f"is {m['n']} of them {m['a'] or ''}{m['c']}"
    return q


def what_helps(res: Resolution, q: str, focus: Focus) -> bool:
    """"What medications would help her?" after a patient's conditions: ``res.question`` "What drugs treat <her first
    condition>?", the others offered after the answer (:data:`_WHAT_HELPS`); False for any other question. Asked
    before "her" is read as the patient ("What medications would help PAT_001's?")."""
    pid = focus.patient_id if focus.intent == "patient" else None
    if not (pid and focus.record_conditions and _WHAT_HELPS.match(q.strip().rstrip("?.! "))):
        return False
    first, *rest = [c["name"] for c in focus.record_conditions]
    res.references.append({"text": q, "how": "patient", "patient_id": pid})
    if rest:
        res.references.append({"text": q, "how": "after", "note": " ".join(
            f"Ask \"What drugs treat {c}?\" for {pid}'s {c}." for c in rest)})
    res.question = f"What drugs treat {first}?"
    return True


_SEVERE = re.compile(r"\b(?:(?:the )?(?:most|more|least|less) (?:serious|severe|life[- ]threatening|worrying|concerning)|"
                     r"worst)\b", re.IGNORECASE)
"""How serious a patient's conditions are, asked of a record's list ("which of those is most serious?")."""


def conditions_ranked(res: Resolution, q: str, focus: Focus) -> str | None:
    """"Which of PAT_003's conditions is most serious?" for "which of those is most serious?" after a record (it compared
    the record's medications), or None."""
    if not ((severe := _SEVERE.search(q)) and focus.intent == Intent.PATIENT.value and focus.patient_id and focus.record_conditions):
        return None
    res.patient_id = focus.patient_id
    res.references.append({"text": q, "how": "conditions ranked", "patient_id": focus.patient_id})
    return f"Which of {focus.patient_id}'s conditions is {severe[0].casefold()}?"
