"""A patient question answered from the patient graph the hybrid retrieval returned (consent already applied):
what the record lists, whether it lists what a yes/no question names ("is PAT_001 taking metformin?"), and what it lists
for a condition ("what is PAT_002 taking for schizophrenia?")."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from agents.answer_notes import NO_EVIDENCE, and_listed
from agents.lab_trend import result, trend
from agents.record_window import Kept, kept_to, none_in, outside_only
from agents.record_words import RECORD_CHECK, TAKEN_FOR
from agents.state import DRUG_TYPES, State, Status
from core.text import fold
from memory.patients import patient_ids_in

__all__ = ["HISTORY", "PATIENT_CITATION", "SINCE", "asks_the_record", "lab_it", "lab_named", "not_recorded", "patient_answer", "patient_items", "record_in_one",
           "withheld_note"]

_LAB_WORDS = {"HbA1c": ("hba1c", "a1c", "hemoglobin a1c", "haemoglobin a1c", "glycated hemoglobin"),
              "Fasting glucose": ("fasting glucose", "glucose", "blood sugar"), "LDL cholesterol": ("ldl", "cholesterol"),
              "eGFR": ("egfr", "gfr", "kidney function"), "Systolic blood pressure": ("blood pressure", "systolic", "bp"),
              "Uric acid": ("uric acid", "urate"), "TSH": ("tsh", "thyroid stimulating hormone"), "ALT": ("alt", "liver enzymes")}
"""The words that name each lab of the patient records (``memory.patients.LABS``) in a question."""
_CONDITION_WORD = re.compile(r"\b(?:high|low|elevated|raised|abnormal)\s+$", re.IGNORECASE)
"""Before a lab's words, what makes them a condition ("high blood pressure", "high cholesterol")."""
_LAB = re.compile("|".join(rf"(?P<l{i}>\b(?:{'|'.join(map(re.escape, words))})\b)" for i, words in enumerate(_LAB_WORDS.values())),
                  re.IGNORECASE)


_NOT_RECORDED_WORDS = {"allergies": r"allerg(?:y|ies|ic)", "immunisations": r"immuni[sz]ations?",
                       "vaccinations": r"vaccin(?:es?|ations?)", "family history": r"family history",
                       "surgeries": r"surger(?:y|ies)", "operations": r"operations?",
                       "smoking": r"smok(?:e|es|er|ing)", "alcohol use": r"alcohol", "pregnancy": r"pregnan(?:t|cy|cies)",
                       # "What is PAT_001's age?" listed the whole record without a word on it
                       # and "How many patients are over 65?" counted them all by condition without a word on it
                       "age": r"age|aged|how old|older than|younger than|date of birth|birth ?date|born|elderly|"
                              r"(?:(?<=are )|(?<=were ))(?:over|above|under|below) \d+|\d+ (?:years?|yrs?) (?:old|of age)|over the age of",
                       "sex": r"sex|gender|male|female|men|women",
                       # "what should she do?" after a record ended "No verified evidence: no known entity in the question"
                       "advice on what a patient should do": (r"(?:should|must|could|can) (?:she|he|they|the patient|PAT_\d+) do|"
                                                              r"advice|advise|recommend(?:ation)?s?|suggest(?:ion)?s?"),
                       # "which of PAT_003's conditions is most serious?" listed the conditions without a word on it
                       "how serious a condition is": (r"serious|seriousness|severe|severity|worst|life[- ]threatening|"
                                                      r"prognos(?:is|es)|worrying|concerning"),
                       "reference ranges (whether a value is normal)": (
                           r"normal|abnormal|(?:with)?in (?:the )?(?:normal )?range|out of range|reference ranges?|"
                           r"elevated|too (?:high|low)|(?:high|low)(?=\W*$)|(?:well |poorly )?controlled|under control")}
"""What a patient question may ask that the synthetic records never hold, by the words that ask it ("any allergies?"
listed the whole record without a word on allergies; "Is PAT_002 allergic to penicillin?" said "No" because no
medication is penicillin)."""
_NOT_RECORDED = re.compile("|".join(rf"(?P<n{i}>\b(?:{rx})\b)" for i, rx in enumerate(_NOT_RECORDED_WORDS.values())),
                           re.IGNORECASE)


_KIND_ONLY = re.compile(r"(?:any|some|other)?\s*(?:anything|something|labs?|lab results?|tests?|test results?|results?|medications?|medicines?|"
                        r"meds|drugs?|prescriptions?|conditions?|diagnos[ie]s|diseases?|problems?)(?: (?:recorded|on record|listed))?",
                        re.IGNORECASE)
"""What a yes/no record question asks when it names a kind of fact and no fact ("does she have any labs?")."""


_WITHHELD = "recorded facts are withheld by the patient's consent"
"""How every sentence on withheld facts says it (:func:`withheld_note`, :func:`cannot_say`)."""


def withheld_note(withheld: int) -> str:
    """The sentence on what the patient's consent withholds ("" for nothing withheld)."""
    return f"{withheld} {_WITHHELD}, so the record may hold more." if withheld else ""


def _noted(sentences: list[str], withheld: int) -> list[str]:
    """``sentences`` and, when facts are withheld and none of them says so already (:func:`cannot_say`), the note."""
    return [*sentences, withheld_note(withheld)] if withheld and not any(_WITHHELD in x for x in sentences) else sentences


def cannot_say(pid: str, kind: str, what: str, withheld: int) -> str:
    """The sentence for a question about a kind of fact the record shows none of while consent withholds facts:
    they may be that kind, so neither "Yes" nor "No" ("Is PAT_004 on any blood thinners?" was "No: … (it lists:
    none)", with the patient's medications withheld)."""
    return f"{pid}'s record shows no {kind}s: {withheld} {_WITHHELD}, so whether it lists {what} cannot be said."


def not_recorded(question: str) -> str:
    """What a patient question asks that the records do not hold ("allergies"), or ""."""
    m = _NOT_RECORDED.search(question)
    return list(_NOT_RECORDED_WORDS)[int(m.lastgroup[1:])] if m and m.lastgroup else ""


SINCE = re.compile(r"^(?:and |so |but |ok,? )?(?:since when|(?:on |from )?what date|when (?:did|was|were|has|have|had)|"
                   r"how long (?:has|have|had))\b", re.IGNORECASE)
"""When the record lists what a question names ("When did PAT_003 start amineptine?", "when was she diagnosed with
gout?", "how long has he had gout?"; not "when should she take it?"): it was answered with what the drug or the
disease is connected to, the patient left out."""


def asks_the_record(question: str) -> bool:
    """Whether a question that names a patient asks the record, though it names an entity too: a yes/no check ("is
    PAT_001 taking metformin?"), what is taken for a condition, a lab, since when it lists something, or what the
    records never hold ("is PAT_002 allergic to penicillin?" was answered about the penicillins)."""
    return bool(RECORD_CHECK.search(question) or TAKEN_FOR.search(question) or lab_named(question) or not_recorded(question)
                or SINCE.search(question))


_LAB_IT = re.compile(r"\b(?:(?:was|is|has|did|were|does)\s+it|it\s+(?:was|been|gone|went|changed|improved|dropped|risen|rose|"
                     r"fallen|fell|go|come))\b", re.IGNORECASE)
"""An "it" that asks after a value ("what was it last time?", "has it gone up?") right after a question on a lab."""
HISTORY = re.compile(r"\b(?:last time|before(?: that)?|previous(?:ly)?|earlier|history|trend|over time|changed?|go(?:ne|ing) (?:up|down)|"
                     r"rising|falling|dropping|climbing|increasing|decreasing|"  # "is her ALT going up?": the latest alone
                     r"went (?:up|down)|risen|rose|dropped|fallen|fell|improv\w*|wors\w*|all (?:the |of )?(?:its |the )?"
                     r"(?:results|values|readings))\b", re.IGNORECASE)
"""A lab question that asks for its earlier results too ("what was it last time?", "has her HbA1c gone up?"): every
result, the latest first (it gave the latest alone)."""


def lab_it(question: str, last_question: str, pid: str | None) -> str | None:
    """``question`` with "PAT_001's HbA1c" for its "it" when that "it" asks after the lab the last question named of
    patient ``pid`` ("what was it last time?" after "is her HbA1c high?" was read as a drug of the record,
    dipyridamole); None otherwise."""
    lab = lab_named(last_question) if pid else ""
    m = _LAB_IT.search(question)
    if not lab or m is None or lab_named(question):
        return None
    return question[: m.start()] + re.sub(r"\bit\b", f"{pid}'s {lab}", m[0], count=1, flags=re.IGNORECASE) + question[m.end():]


_HAVE_THEN_TAKE = re.compile(
    r"^(?:and\s+|so\s+)?(?:what|which)\s+(?:conditions?\s+|diseases?\s+|illness(?:es)?\s+|diagnos[ie]s\s+|problems\s+)?"
    r"(?:does|do)\s+(?P<pid>PAT[_-]?\d+)\s+have\s*,?\s*(?:and|,)\s+(?:also\s+)?(?:what|which)\b(?P<rest>[^?]*?)"
    r"\b(?:for\s+)?(?:it|them|those|these|that|each(?:\s+(?:one|of\s+them))?)\s*[?.!]*$", re.IGNORECASE)
"""What a patient has and what they take for it, in one message ("What does PAT_003 have and what are they taking for
it?" asked what "it" meant, with nothing to pick from: the message had named no condition yet)."""
_FOR_IT = re.compile(r"\b(?:tak(?:e|es|ing)|on|prescribed|given|treat(?:s|ing)?|for|medications?|drugs?|medicines?|meds)\b",
                     re.IGNORECASE)


def record_in_one(question: str) -> str:
    """"What does PAT_003 take for each condition?" for a message that asks what the patient has and what they take for
    it; ``question`` otherwise."""
    m = _HAVE_THEN_TAKE.match(" ".join(question.split()))
    if m is None or not _FOR_IT.search(m["rest"]):
        return question
    return f"What does {patient_ids_in(m['pid'])[0]} take for each condition?"


def lab_named(question: str) -> str:
    """The lab of the patient records a question names ("What's PAT_006's latest HbA1c?": "HbA1c"), or ""."""
    m = next((m for m in _LAB.finditer(question) if not _CONDITION_WORD.search(question[: m.start()])), None)
    return list(_LAB_WORDS)[int(m.lastgroup[1:])] if m and m.lastgroup else ""

_HOW_MANY = re.compile(r"\bhow many\b|\bnumber of\b", re.IGNORECASE)
"""A question that counts a patient's medications or conditions: the answer says how many."""

PATIENT_CITATION = {"source": "medpath-patients", "title": "Synthetic patient record (medpath patients synth; not a real person)",
                    "url": ""}


def patient_answer(state: State, today: date | None = None) -> dict[str, Any]:
    """Answer a patient question from the patient graph the hybrid retrieval returned (consent already applied), over
    the stretch of time it names, relative to ``today`` (:mod:`agents.record_window`; the wall clock's day by default)."""
    hybrid = state.hybrid or {}
    if hybrid.get("error"):
        return {"status": Status.NOT_FOUND, "answer": f"{NO_EVIDENCE}: {hybrid['error']}.", "error": hybrid["error"]}
    wants = _patient_wants(state)
    kept = kept_to(state.asked, [(f["line"], f) for f in hybrid.get("patient_facts", [])], today or date.today(),
                   labs=bool(lab_named(state.asked)) or "lab" in wants)
    out = _answer(state, kept, wants, int(hybrid.get("consent_filtered_count", 0)))
    window = kept.dated.window
    if out["status"] == Status.ANSWERED and (note := kept.note()) and window is not None and window.said not in out["answer"]:
        out["answer"] += note  # "… in the past 3 months?": what was read
    return out


def _answer(state: State, kept: Kept, wants: list[str], withheld: int) -> dict[str, Any]:
    pid, parsed = state.patient_id or "the patient", kept.facts
    condition = _condition_named(state)
    if "medication" in wants and condition:  # "what is PAT_002 taking for Y?"
        yes_no = RECORD_CHECK.search(state.asked) is not None  # "is PAT_002 taking anything for Y?"
        return _taken_for(pid, [f for _, f in parsed], condition, withheld, yes_no=yes_no)
    check = RECORD_CHECK.search(state.asked)
    lacking = not_recorded(state.asked)  # "any allergies?": said first, then what the record holds
    said = f"The patient records hold conditions, medications and labs, not {lacking}. What they hold: " if lacking else ""
    if lab := lab_named(state.asked):  # "What's PAT_006's latest HbA1c?", "does PAT_006 have an HbA1c result?"
        out = _lab_result(pid, [f for _, f in parsed], lab, withheld, yes_no=check is not None and not lacking,
                          history=HISTORY.search(state.asked) is not None or bool(kept.words()),
                          outside=kept if kept.words() else None, asked=state.asked)  # "… in 2026?": every result then
        return {**out, "answer": said + out["answer"]}  # "is her uric acid high?": no range to say it by
    since = [m for m in state.mentions if m.get("mention") and pid not in m["mention"]] \
        if SINCE.search(state.asked) and not lacking else []  # not "When did PAT_003 start her" ("… her medications?")
    if since:  # "When did PAT_003 start amineptine?"
        return _since(pid, [f for _, f in parsed], since, withheld)
    # "is PAT_002 allergic to penicillin?", "a family history of diabetes?": not a "No" from the medications
    named = [m for m in state.mentions if m.get("mention")] if check and not lacking and not _KIND_ONLY.fullmatch(
        check["y"].replace(kept.words(), "").strip()) else []  # "does she have any labs?" asks for the labs (it was
    # "No: … lists no labs"), and "was she diagnosed with anything in the last year?" for the conditions then
    late = [f for f in kept.outside if any(_fits(f["name"], m) for m in named)] if kept.words() else []
    if named and late and not any(_fits(f["name"], m) for _, f in parsed for m in named):  # "… for more than a year?"
        return {"status": Status.ANSWERED, "answer": outside_only(pid, late, kept), "evidence": [],
                "citations": [{**PATIENT_CITATION, "id": pid}]}
    if named:  # "is PAT_001 taking metformin?": yes or no, from what the record lists
        return _record_check(pid, [f for _, f in parsed], named, withheld, why=bool(check["why"]))
    parts, evidence, lines = [], [], []
    for kind in wants:
        picked = [(x, f) for x, f in parsed if f["kind"] == kind and (kind != "lab" or f["latest"])]
        rows = [f for _, f in picked]
        lines += [x for x, _ in picked]
        counted = f"{len(rows)} " if _HOW_MANY.search(state.asked) else ""  # "how many medications is she on?"
        if kind in ("medication", "condition") and rows:  # "when was she diagnosed?": each with its date
            parts.append(f"{counted}{kind}{'s' if len(rows) != 1 or not counted else ''}: "
                         + ", ".join(_item(f, dated=SINCE.search(state.asked) is not None) for f in rows))
        elif kind == "lab" and rows:
            parts.append("latest labs: " + ", ".join(f"{f['name']} {result(f)}" for f in rows))
        rel = {"medication": "takes", "condition": "has condition", "lab": "has lab"}[kind]
        evidence += [{"head": pid, "head_name": pid, "relation": rel, "tail": f["name"], "tail_name": f["name"] +
                      (f" {f['value']:g} {f['unit']}" if kind == "lab" else "")} for f in rows]
    note = f" ({withheld} recorded facts withheld by the patient's consent)" if withheld else ""
    if not parts and kept.words():  # "What medications did PAT_001 start this year?": none then, and what there is
        return {"status": Status.ANSWERED, "answer": none_in(pid, kept, wants) + note, "evidence": [],
                "citations": [{**PATIENT_CITATION, "id": pid}]}
    if not parts:
        reason = f"no {' or '.join(wants)} visible for {pid}{note}"
        return {"status": Status.NOT_FOUND, "answer": f"{NO_EVIDENCE}: {reason}.", "error": reason}
    return {"status": Status.ANSWERED, "answer": f"{said}{pid}: " + "; ".join(parts) + f".{note}", "evidence": evidence,
            "evidence_text": "; ".join(lines), "citations": [{**PATIENT_CITATION, "id": pid}]}


def _lab_result(pid: str, facts: list[dict[str, Any]], lab: str, withheld: int, *, yes_no: bool = False,
                history: bool = False, outside: Kept | None = None, asked: str = "") -> dict[str, Any]:
    """The latest result of the lab a question names (every result, the latest first, with ``history``), or that the
    record has none, with the labs it has. It was the record's other labs without a word on the one asked, or (for
    blood pressure) the knowledge graph's Blood pressure node. ``outside``: the facts were kept to a stretch of time
    ("What was PAT_001's ALT in March?"), and the lab's results outside it are said when none is in it. ``asked``:
    the question, for which way the lab went when it asks (``agents.lab_trend``)."""
    latest = [f for f in facts if f["kind"] == "lab" and f["latest"]]
    rows = [f for f in latest if f["name"] == lab]
    every = sorted((f for f in facts if f["kind"] == "lab" and f["name"] == lab), key=lambda f: f["on"] or "", reverse=True)
    listed = ", ".join(map(result, every))
    if rows and history and (went := trend(pid, lab, every, asked)):  # "has her ALT gone up?": which way, then all
        answer = f"{went} Every result, the latest first: {listed}."
    elif rows and history:
        answer = (f"{pid}'s {lab} results, the latest first: {listed}"
                  + ("." if len(every) > 1 or outside is not None else "; the record holds no earlier one."))
    elif rows:
        answer = f"{'Yes: ' if yes_no else ''}{pid}'s latest {lab}: " + ", ".join(map(result, rows)) + "."
    elif outside is not None and any(f["kind"] == "lab" and f["name"] == lab for f in outside.outside):
        answer = none_in(pid, Kept([], outside.dated, [f for f in outside.outside if f["name"] == lab]), ["lab"], lab)
    elif not latest and withheld:
        answer, withheld = cannot_say(pid, "lab", f"{lab} results", withheld), 0
    else:
        others = ", ".join(f"{f['name']} {result(f)}" for f in latest) or "none"
        answer = f"{'No: ' if yes_no else ''}{pid}'s record has no {lab} result (its latest labs: {others})."
    if withheld:
        answer += f" {withheld_note(withheld)}"
    evidence = [{"head": pid, "head_name": pid, "relation": "has lab", "tail": f["name"],
                 "tail_name": f"{f['name']} {f['value']:g} {f['unit']}"} for f in rows]
    return {"status": Status.ANSWERED, "answer": answer, "evidence": evidence,
            "evidence_text": "; ".join(f"{e['head']} {e['relation']} {e['tail_name']}" for e in evidence),
            "citations": [{**PATIENT_CITATION, "id": pid}]}


def _shown(fact: dict[str, Any]) -> str:
    """A record's fact as the answer names it: a medication with what it is taken for ("Vitamin E (for Vitamin E
    deficiency)")."""
    return fact["name"] + (f" (for {fact['for_condition']})" if fact.get("for_condition") else "")


def _record_check(pid: str, facts: list[dict[str, Any]], named: list[dict[str, Any]], withheld: int, *,
                  why: bool = False) -> dict[str, Any]:
    """Whether the record lists each entity a yes/no question names, among the medications for a drug and the
    conditions otherwise: by the entity's name, any name the mention could mean ("diabetes": Diabetes mellitus type 2),
    or the mention inside a listed name. It used to list the whole record, or (with a drug named) to answer about the
    drug instead of the patient. ``why`` ("why is PAT_001 on Vitamin E?"): the same sentences without "Yes"/"No", a
    medication named with what the record says it is taken for."""
    sentences: list[str] = []
    drugs = [m for m in named if (m.get("entity") or {}).get("type") in DRUG_TYPES]
    one_by_one = named
    if len(drugs) >= 3 and not why:  # "is she on any of them?" after a list of drugs: one sentence for all of them
        sentences.append(_any_of(pid, [f for f in facts if f["kind"] == "medication"], drugs, withheld))
        one_by_one = [m for m in named if m not in drugs]
    for m in one_by_one:
        ent = m.get("entity") or {}
        kind, listed, rows = _listed_as(facts, m)
        if rows:
            sentences.append(f"{'' if why else 'Yes: '}{pid}'s record lists {', '.join(_shown(f) for f in rows)} among the {kind}s.")
        else:
            others = ", ".join(f["name"] for f in listed) or "none"
            what = ent.get("name") if ent and m.get("status") == "linked" else m["mention"]  # "diabetes" fits several
            sentences.append(cannot_say(pid, kind, what, withheld) if not listed and withheld else
                             f"{'' if why else 'No: '}{pid}'s record lists no {what} among the {kind}s (it lists: {others}).")
    evidence = [{"head": pid, "head_name": pid, "relation": "takes" if m in drugs else "has condition", "tail": f["name"],
                 "tail_name": f["name"]} for m in named for f in facts
                if f["kind"] == ("medication" if m in drugs else "condition") and _fits(f["name"], m)]
    return {"status": Status.ANSWERED, "answer": " ".join(_noted(sentences, withheld)), "evidence": evidence,
            "evidence_text": "; ".join(f"{e['head']} {e['relation']} {e['tail']}" for e in evidence),
            "citations": [{**PATIENT_CITATION, "id": pid}]}


def _item(f: dict[str, Any], dated: bool = False) -> str:
    """A medication or a condition as a record's list shows it ("Amineptine (for Depressive disorder)"), and with
    ``dated`` the date the record lists it from ("… since 2024-03-02"): "When was PAT_003 diagnosed?", which names no
    condition, listed the conditions with no date."""
    shown = _shown(f) if f["kind"] == "medication" else f["name"]
    return f"{shown} since {f['on']}" if dated and f.get("on") else shown


def _since(pid: str, facts: list[dict[str, Any]], named: list[dict[str, Any]], withheld: int) -> dict[str, Any]:
    """The date from which the record lists each medication or condition a question names ("PAT_003's record lists
    Amineptine (for Depressive disorder) since 2024-03-02."), or that it lists none of that name, with what it lists."""
    sentences, evidence = [], []
    for m in named:
        kind, listed, rows = _listed_as(facts, m)
        for f in rows:
            sentences.append(f"{pid}'s record lists {_shown(f)} " + (f"since {f['on']}." if f.get("on") else "with no date."))
            evidence.append({"head": pid, "head_name": pid, "relation": "takes" if kind == "medication" else "has condition",
                             "tail": f["name"], "tail_name": f["name"]})
        if not rows:
            others = ", ".join(f["name"] for f in listed) or "none"
            sentences.append(cannot_say(pid, kind, m["mention"], withheld) if not listed and withheld else
                             f"{pid}'s record lists no {m['mention']} among the {kind}s (it lists: {others}).")
    return {"status": Status.ANSWERED, "answer": " ".join(_noted(sentences, withheld)), "evidence": evidence,
            "evidence_text": "; ".join(f"{e['head']} {e['relation']} {e['tail']}" for e in evidence),
            "citations": [{**PATIENT_CITATION, "id": pid}]}


def _any_of(pid: str, medications: list[dict[str, Any]], drugs: list[dict[str, Any]], withheld: int = 0) -> str:
    """Whether the record lists any of three or more drugs a question names, in one sentence ("Yes: PAT_002's record
    lists thalidomide (for Peptic ulcer) among the medications, and none of the others (polaprezinc, …)."; "No: … lists
    none of polaprezinc, diphenidol and Oxybutynin among the medications (it lists: …)."), where each drug had its own
    "No" sentence."""
    def name(m: dict[str, Any]) -> str:
        return str((m.get("entity") or {}).get("name") or m["mention"])
    hits = [m for m in drugs if any(_fits(f["name"], m) for f in medications)]
    if not medications and withheld:
        return cannot_say(pid, "medication", f"any of {and_listed([name(m) for m in drugs])}", withheld)
    if not hits:
        others = ", ".join(f["name"] for f in medications) or "none"
        return f"No: {pid}'s record lists none of {and_listed([name(m) for m in drugs])} among the medications (it lists: {others})."
    rows = [f for f in medications if any(_fits(f["name"], m) for m in hits)]
    rest = [name(m) for m in drugs if m not in hits]
    tail = f", and none of the others ({and_listed(rest)})" if rest else ""
    return f"Yes: {pid}'s record lists {', '.join(_shown(f) for f in rows)} among the medications{tail}."


def _taken_for(pid: str, facts: list[dict[str, Any]], named: dict[str, Any], withheld: int, *,
               yes_no: bool = False) -> dict[str, Any]:
    """The medications the record lists for the condition a question names, by its name, any name the mention could
    mean, or the mention inside the condition's name (the question was answered about the condition, as if no
    patient were named: "Schizophrenia is connected to: Psychotic Disorders"). ``yes_no``: the answer opens with
    "Yes: " or "No: "."""
    ent = named.get("entity") or {}
    meds = [f for f in facts if f["kind"] == "medication"]
    rows = _for_named(meds, named)
    what = ent.get("name") if ent and named.get("status") == "linked" else named["mention"]
    if rows:
        names = [f["name"] for f in rows]
        listed = and_listed(names)
        answer = f"{'Yes: ' if yes_no else ''}{pid}'s record lists {listed} for {rows[0]['for_condition']}."
    elif not meds and withheld:
        answer, withheld = cannot_say(pid, "medication", f"any for {what}", withheld), 0
    else:
        answer = (f"{'No: ' if yes_no else ''}{pid}'s record lists no medication for {what} "
                  f"(it lists: {', '.join(_shown(f) for f in meds) or 'none'}).")
    if withheld:
        answer += f" {withheld_note(withheld)}"
    evidence = [{"head": pid, "head_name": pid, "relation": "takes", "tail": f["name"], "tail_name": f["name"]} for f in rows]
    return {"status": Status.ANSWERED, "answer": answer, "evidence": evidence,
            "evidence_text": "; ".join(f"{e['head']} {e['relation']} {e['tail']}" for e in evidence),
            "citations": [{**PATIENT_CITATION, "id": pid}]}


def _condition_named(state: State) -> dict[str, Any] | None:
    """The mention of the condition in "what is PAT_002 taking for Y?" (``TAKEN_FOR``), or None; None too when the
    question names a drug ("is PAT_002 on thalidomide for peptic ulcer?" asks whether the record lists it)."""
    m = TAKEN_FOR.search(state.asked)
    named = [x for x in state.mentions if x.get("mention")]
    if m is None or any((x.get("entity") or {}).get("type") in DRUG_TYPES for x in named):
        return None
    y = fold(m["y"])  # the words linked whole may hold more than the condition ("anything for diabetes")
    x = next((x for x in named if fold(x["mention"]) in y or y in fold(x["mention"])), None)
    return {**x, "mention": m["y"]} if x is not None and fold(x["mention"]) not in y else x


def _listed_as(facts: list[dict[str, Any]], named: dict[str, Any]) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
    """The kind of fact a mention names (a drug is a medication, anything else a condition), the record's facts of that
    kind, and those that fit it (:func:`_fits`)."""
    kind = "medication" if (named.get("entity") or {}).get("type") in DRUG_TYPES else "condition"
    listed = [f for f in facts if f["kind"] == kind]
    return kind, listed, [f for f in listed if _fits(f["name"], named)]


def _fits(text: str, named: dict[str, Any]) -> bool:
    """Whether a name in the record fits a mention: the entity it was linked to, any name it could mean, or the
    mention inside the name ("diabetes" fits "Diabetes mellitus type 2")."""
    ent = named.get("entity") or {}
    names = {fold(named["mention"]), fold(ent.get("name", "")), *(fold(c["name"]) for c in named.get("candidates", []))} - {""}
    return fold(text) in names or fold(named["mention"]) in fold(text)


def _for_named(meds: list[dict[str, Any]], named: dict[str, Any]) -> list[dict[str, Any]]:
    """The medications taken for the condition a mention names (:func:`_fits`)."""
    return [f for f in meds if f.get("for_condition") and _fits(f["for_condition"], named)]


def _patient_wants(state: State) -> list[str]:
    """What a patient question asks for, in the answer's order: medications, conditions, labs (all when unsaid)."""
    q = state.asked.casefold().rstrip("?.! ")  # "what is PAT_001 on?"
    return [k for k, words in (("medication", ("medic", "meds", "pill", "tablet", "drug", "prescri", "take", "taking", " on ")),
                               ("condition", ("condition", "diagnos", "disease", "problem")),
                               ("lab", ("lab", "hba1c", "ldl", "egfr", "glucose", "result", "test")))
            if any(w in f" {q} " for w in words)] or ["condition", "medication", "lab"]


def patient_items(state: State, linker: Any) -> list[dict[str, Any]]:
    """The medications a patient answer listed, as the graph names them (when it does), each with the condition it is
    taken for (``for``): "how does the first one work?" asks how it treats that condition. An answer that listed
    conditions and no medications lists them ("what drugs treat the first one?" after "What conditions does PAT_003
    have?"; "what is the treatment for that?" after "what does PAT_004 have?", its conditions and labs, found none)."""
    def known(name: str, eid: str = "") -> dict[str, str] | None:
        found = linker.exact(name) if name else []  # the record's own id first: names are not unique
        found = sorted(found, key=lambda c: c.id != eid)
        return {"id": found[0].id, "name": found[0].name, "type": found[0].type} if found else None

    items: list[dict[str, Any]] = []
    wants = _patient_wants(state)
    facts = [f for f in (state.hybrid or {}).get("patient_facts", []) if f["kind"] == "condition"] if "condition" in wants else []
    conditions = [known(f["name"], f.get("object_id", "")) or {"id": "", "name": f["name"], "type": ""} for f in facts]
    if "medication" not in wants:
        return conditions
    meds = [f for f in (state.hybrid or {}).get("patient_facts", []) if f["kind"] == "medication"]
    condition = _condition_named(state)
    if condition:  # "what is PAT_002 taking for Y?": those it listed
        meds = _for_named(meds, condition)
    for f in meds:  # one item per medication shown, in order; "" when the graph lacks it
        drug = known(f["name"], f.get("object_id", "")) or {"id": "", "name": f["name"], "type": ""}
        items.append({**drug, "for": known(str(f.get("for_condition") or ""), f.get("for_condition_id", ""))})
    return items or conditions
