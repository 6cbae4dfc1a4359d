""""Is PAT_003 taking <drug>?" and "does PAT_003 have <condition>?" are answered yes or no from the patient's record.
A named drug made it a question about the drug ("Metformin is connected to: …"), and a named condition listed the
whole record; "what conditions does she have?" in a patient's thread had nothing for "she" to refer to."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langgraph.types import Command

from agents.record_words import RECORD_CHECK
from agents.state import Status
from memory.factory import open_patients
from tests.conftest import in_thread


def _turn(run_graph: Any, thread: str, question: str) -> dict[str, Any]:
    _out, snap = run_graph({"question": question}, thread=thread, interactive=False)
    return dict(snap.values)


def test_the_wordings_that_ask_what_a_record_lists() -> None:
    for q, y in (("does PAT_001 have diabetes?", "diabetes"), ("is PAT_001 taking metformin", "metformin"),
                 ("Is the patient on any statins?", "statins"), ("has PAT_002 been prescribed aspirin?", "aspirin"),
                 ("was PAT_003 diagnosed with gout?", "gout")):
        m = RECORD_CHECK.match(q)
        assert m is not None and m["y"] == y, q
    for q in ("What is PAT_001 taking?", "How does aspirin treat pain?", "does aspirin treat pain?"):
        assert RECORD_CHECK.match(q) is None, q


def test_yes_and_no_from_the_record(run_graph) -> None:
    listed = _turn(run_graph, "r1", "What is PAT_003 taking?")
    meds = [e["tail"] for e in listed["evidence"]]
    assert listed["status"] == "ANSWERED" and meds
    yes = _turn(run_graph, "r2", f"Is PAT_003 taking {meds[0]}?")
    assert yes["intent"] == "patient" and yes["status"] == "ANSWERED" and yes["sources"] == []
    assert yes["answer"].startswith(f"Yes: PAT_003's record lists {meds[0]}") and yes["evidence"][0]["tail"] == meds[0]
    absent = "pegloticase" if "pegloticase" not in meds else "Aspirin"
    no = _turn(run_graph, "r3", f"is PAT_003 on {absent}?")
    assert no["intent"] == "patient" and no["status"] == "ANSWERED" and no["evidence"] == []
    assert no["answer"] == (f"No: PAT_003's record lists no {no['mentions'][0]['entity']['name']} among the medications "
                            f"(it lists: {', '.join(meds)}).")
    conditions = [e["tail"] for e in _turn(run_graph, "r4", "What conditions does PAT_003 have?")["evidence"]]
    has = _turn(run_graph, "r5", f"does PAT_003 have {conditions[0].lower()}?")
    assert has["answer"].startswith(f"Yes: PAT_003's record lists {conditions[0]} among the conditions")


def test_the_thread_s_patient_as_a_subject(run_graph) -> None:
    _turn(run_graph, "s", "What is PAT_003 taking?")
    out = _turn(run_graph, "s", "what conditions does she have?")
    assert out["understood_as"] == "What conditions does PAT_003 have?" and out["status"] == Status.ANSWERED
    out = _turn(run_graph, "s", "is he on pegloticase?")
    answer = out["answer"].split("\" ", 1)[1]  # after 'Understood as: "…?"'
    assert out["understood_as"] == "Is PAT_003 on pegloticase?" and answer.startswith(("Yes: PAT_003", "No: PAT_003"))
    out = _turn(run_graph, "s", "does she have diabetes?")  # "diabetes" fits several: said as asked
    assert out["answer"].split("\" ", 1)[1].startswith(("Yes: PAT_003's record lists Diabetes", "No: PAT_003's record lists no diabetes "))


def test_why_a_patient_takes_a_medication_is_read_from_the_record(run_graph) -> None:
    """"Why is PAT_003 on <drug>?" was read as a mechanism question with the patient as the drug and "on <drug>" as
    the disease: NOT_FOUND ("PAT_003" is not in the knowledge graph), after "Read 'on <drug>' as <drug>"."""
    listed = _turn(run_graph, "w1", "What is PAT_003 taking?")
    meds = [e["tail"] for e in listed["evidence"]]
    shown = listed["answer"].split("medications: ", 1)[1].rstrip(".")
    why = _turn(run_graph, "w2", f"Why is PAT_003 on {meds[0]}?")
    assert why["intent"] == "patient" and why["status"] == "ANSWERED"
    first = re.split(r", (?![^(]*\))", shown)[0]  # "Vitamin E (for Vitamin E deficiency)"
    assert why["answer"] == f"PAT_003's record lists {first} among the medications."
    absent = "pegloticase" if "pegloticase" not in meds else "Aspirin"
    no = _turn(run_graph, "w3", f"why does PAT_003 take {absent}?")
    assert no["intent"] == "patient" and no["answer"].startswith("PAT_003's record lists no ")


def test_that_drug_after_one_medication_listed_for_a_condition_is_that_medication(run_graph) -> None:
    """"how does that drug work?" after "PAT_002's record lists thalidomide for Peptic ulcer" asked what "that drug"
    referred to: the answer had listed one drug, and no turn had a drug slot."""
    for k in range(1, 9):
        pid = f"PAT_{k:03d}"
        shown = _turn(run_graph, f"that{k}", f"What is {pid} taking?")["answer"]
        taken = re.findall(r"(?:: |, )([^,(:]+?) \(for ([^)]+)\)", shown)
        alone = [(name, why) for name, why in taken if [w for _, w in taken].count(why) == 1]
        if alone:
            break
    else:
        pytest.fail("no patient takes one medication for one of their conditions")
    med, condition = alone[0]
    listed = _turn(run_graph, f"that-{pid}", f"What is {pid} taking for {condition}?")
    assert listed["answer"] == f"{pid}'s record lists {med} for {condition}.", listed["answer"]
    out = _turn(run_graph, f"that-{pid}", "how does that drug work?")
    assert out["understood_as"] == f"How does {med} treat {condition}?", out["answer"]


def _patients_by_medications(run_graph: Any) -> dict[int, str]:
    """A synthetic patient with one medication and one with several, found from their records."""
    found: dict[int, str] = {}
    for k in range(1, 9):
        pid = f"PAT_{k:03d}"
        meds = _turn(run_graph, f"count{k}", f"What is {pid} taking?")["evidence"]
        found.setdefault(min(len(meds), 2), pid) if meds else None
    assert {1, 2} <= set(found), found
    return found


def test_it_after_one_medication_is_that_medication(run_graph) -> None:
    """"Why is she on it?" after a record of one medication said "nothing earlier in this conversation for "it" to
    refer to": the pronoun after "is she on" was taken for a disease. "Is she still on it?" answered about a condition
    ("Yes: PAT_001's record lists Vitamin E deficiency among the conditions"): "it" was left as written."""
    pid = _patients_by_medications(run_graph)[1]
    med = _turn(run_graph, "one", f"What is {pid} taking?")["evidence"][0]
    why = _turn(run_graph, "one", "why is she on it?")
    assert why["understood_as"].startswith(f"How does {med['tail']} treat "), why["answer"]
    still = _turn(run_graph, "one2", f"What is {pid} taking?") and _turn(run_graph, "one2", "is she still on it?")
    assert still["understood_as"] == f"Is {pid} still on {med['tail']}?"
    assert still["answer"].split("\" ", 1)[1].startswith(f"Yes: {pid}'s record lists {med['tail']} ")


def test_it_after_several_medications_names_them(run_graph) -> None:
    """A record's medications are in the record's order, not ranked: "why is he on it?" after several was answered for
    the first as if it were meant."""
    pid = _patients_by_medications(run_graph)[2]
    meds = [e["tail"] for e in _turn(run_graph, "many", f"What is {pid} taking?")["evidence"]]
    for q in ("why is he on it?", "why was the patient started on it?"):
        out = _turn(run_graph, "many", q)
        assert out["status"] == Status.NOT_FOUND and out["sources"] == [], out["answer"]
        assert f"\"it\" could be any of {pid}'s {len(meds)} medications ({', '.join(meds)})" in out["answer"]


def test_an_interactive_run_asks_which_medication_it_is(run_graph) -> None:
    """With several medications an interactive run only refused ("it" could be any of …), though the caller can answer
    a clarification: it now asks which one, offers the record's medications, and answers for the one picked, by its
    place or its name."""
    pid = _patients_by_medications(run_graph)[2]
    meds = [e["tail"] for e in _turn(run_graph, "ask", f"What is {pid} taking?")["evidence"]]
    for thread, answer, picked in (("ask", "2", meds[1]), ("ask-name", meds[-1].upper(), meds[-1])):
        _turn(run_graph, thread, f"What is {pid} taking?")
        _out, snap = run_graph({"question": "why is she on it?"}, thread=thread, interactive=True)
        pending = [i.value for t in snap.tasks for i in t.interrupts]
        assert pending and pending[0]["mention"] == "it" and f"{pid}'s medications" in pending[0]["question"]
        assert [c["name"] for c in pending[0]["candidates"]] == meds
        out, _ = run_graph(Command(resume=answer), thread=thread, interactive=True)
        assert out["understood_as"].startswith(f"How does {picked} treat "), out["answer"]
        assert out["references"][-1] == {"text": "why is she on it?", "how": "clarified", "answer": picked}


def test_what_a_patient_takes_for_a_condition_is_read_from_the_record(run_graph) -> None:
    """"What is PAT_002 taking for schizophrenia?" was answered about the condition as if no patient were named
    ("Schizophrenia is connected to: Psychotic Disorders"); the record says which medications it lists for it."""
    pid = _patients_by_medications(run_graph)[2]
    shown = _turn(run_graph, "for", f"What is {pid} taking?")["answer"].split("medications: ", 1)[1].rstrip(".")
    taken = re.findall(r"(?:^|, )([^,(]+?) \(for ([^)]+)\)", shown)
    condition = taken[0][1]
    meds = [name for name, why in taken if why == condition]
    listed = f"{', '.join(meds[:-1])} and {meds[-1]}" if len(meds) > 1 else meds[0]
    out = _turn(run_graph, "for", f"What is {pid} taking for {condition.lower()}?")
    assert out["intent"] == "patient" and out["answer"] == f"{pid}'s record lists {listed} for {condition}.", out["answer"]
    assert [e["tail"] for e in out["evidence"]] == meds
    first = _turn(run_graph, "for", "how does the first one work?")  # the first of those it listed
    assert first["understood_as"] == f"How does {meds[0]} treat {condition}?", first["answer"]
    absent = "Gout" if all(why != "Gout" for _, why in taken) else "Asthma"
    no = _turn(run_graph, "for2", f"is {pid} taking anything for {absent.lower()}?")
    assert no["answer"].startswith(f"No: {pid}'s record lists no medication for {absent} (it lists: "), no["answer"]


def test_why_the_thread_s_patient_is_on_a_named_medication_is_its_mechanism(run_graph) -> None:
    """"why is he on chlorprothixene?" after "What is PAT_002 taking?" was NOT_FOUND ("he" is not in the knowledge
    graph). A medication the record lists is asked about for what it is taken for, as "why is he on it?" is; one it
    does not list is checked against the record."""
    pid = _patients_by_medications(run_graph)[2]
    shown = _turn(run_graph, "why-named", f"What is {pid} taking?")["answer"].split("medications: ", 1)[1].rstrip(".")
    name, condition = re.findall(r"(?:^|, )([^,(]+?) \(for ([^)]+)\)", shown)[-1]
    for thread, q in (("why-named", f"why is he on {name.lower()}?"), ("why-named2", f"why does she take {name}?")):
        _turn(run_graph, thread, f"What is {pid} taking?")
        out = _turn(run_graph, thread, q)
        assert out["understood_as"] == f"How does {name} treat {condition}?", out["answer"]
    out = _turn(run_graph, "why-named", "why is she on pegloticase?")
    assert out["understood_as"] == f"Why is {pid} on pegloticase?" and out["intent"] == "patient"
    assert out["answer"].split("\" ", 1)[1].startswith(f"{pid}'s record lists no ")


def test_which_of_a_patient_s_drugs_treat_a_condition_is_read_from_the_record(run_graph) -> None:
    """It was answered about the condition alone ("Hypertension is connected to: …")."""
    pid = _patients_by_medications(run_graph)[2]
    shown = _turn(run_graph, "which-of", f"What is {pid} taking?")["answer"].split("medications: ", 1)[1].rstrip(".")
    taken = re.findall(r"(?:^|, )([^,(]+?) \(for ([^)]+)\)", shown)
    condition = taken[0][1]
    meds = [name for name, why in taken if why == condition]
    for q in (f"Which of {pid}'s drugs treat {condition}?", f"which of {pid}'s medications are for {condition.lower()}?"):
        out = _turn(run_graph, "which-of", q)
        assert out["intent"] == "patient" and [e["tail"] for e in out["evidence"]] == meds, out["answer"]


def test_a_listed_medication_keeps_the_record_s_ids(resources: Any) -> None:
    """"Peptic ulcer" names a disease and a phenotype. "how does the first one work?" after a record listing
    thalidomide (for Peptic ulcer) was asked about the phenotype, the first of the two by name, and the reviewer
    rejected every path; the record's own id is now kept."""
    from agents.patient_answer import patient_items
    from agents.state import State

    found = resources.linker.exact("Peptic ulcer")
    wanted = next(c.id for c in found if c.id != found[0].id)
    fact = {"kind": "medication", "name": "thalidomide", "for_condition": "Peptic ulcer", "for_condition_id": wanted,
            "object_id": "MESH:D013792", "line": "", "latest": False}
    state = State(question="What is PAT_002 taking?", hybrid={"patient_facts": [fact]})
    assert patient_items(state, resources.linker)[0]["for"]["id"] == wanted


@pytest.mark.parametrize(("question", "lab"), [
    ("What's PAT_003's latest systolic blood pressure?", "Systolic blood pressure"),  # was the graph's Blood pressure
    ("What is PAT_006's HbA1c?", "HbA1c"),  # was the other labs, not a word on HbA1c
    ("what is PAT_005's LDL?", "LDL cholesterol"),
    ("Does PAT_006 have an HbA1c result?", "HbA1c"),  # was "no HbA1c result among the conditions"
])
def test_a_lab_a_patient_question_names_is_answered_alone(run_graph, settings, question: str, lab: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    pid = question.split("PAT_")[1][:3]
    assert out["status"] is Status.ANSWERED and out["intent"] == "patient", out["answer"]
    facts = [f for f in open_patients(settings).get(f"PAT_{pid}").facts if f.relation == "has_lab" and f.object_name == lab]
    if facts:
        assert out["answer"].startswith(f"PAT_{pid}'s latest {lab}: {max(facts, key=lambda f: f.on).value:g} "), out["answer"]
    else:
        assert f"PAT_{pid}'s record has no {lab} result (its latest labs: " in out["answer"], out["answer"]
    assert out["answer"].startswith(("No: ", "Yes: ")) == question.startswith("Does"), out["answer"]


def test_high_blood_pressure_in_a_patient_question_is_still_a_condition() -> None:
    from agents.patient_answer import lab_named

    assert lab_named("Does PAT_003 have high blood pressure?") == lab_named("what is PAT_003 taking for high cholesterol?") == ""
    assert lab_named("What's PAT_003's blood pressure?") == "Systolic blood pressure"


def test_every_lab_of_the_records_has_words_that_name_it() -> None:
    from agents.patient_answer import _LAB_WORDS
    from memory.patients import LABS

    assert set(_LAB_WORDS) == set(LABS)


def test_a_lab_asked_about_by_his_or_her_is_the_thread_patient_s(run_graph) -> None:
    """"what's his blood pressure?" after "Does PAT_003 have hypertension?" was answered about the graph's Blood
    pressure node: a pronoun before a lab did not refer to the patient."""
    from tests.conftest import in_thread

    _, lab = in_thread(run_graph, "bp", "Does PAT_003 have hypertension?", "what's his blood pressure?")
    assert lab["intent"] == "patient" and lab["understood_as"] == "What's PAT_003's blood pressure?", lab["answer"]
    assert "PAT_003's latest Systolic blood pressure: " in lab["answer"] or "PAT_003's record has no Systolic" in lab["answer"]


@pytest.mark.parametrize(("question", "what"), [("What are PAT_002's allergies?", "allergies"),
                                                ("Is PAT_002 a smoker?", "smoking"),
                                                ("what vaccinations has PAT_002 had?", "vaccinations"),
                                                ("Is PAT_002 allergic to penicillin?", "allergies"),
                                                ("Does PAT_002 have a family history of diabetes?", "family history"),
                                                ("Is PAT_002 pregnant?", "pregnancy"),
                                                # these two listed the record with no word on it
                                                ("What is PAT_002's age?", "age"), ("Is PAT_002 male or female?", "sex")])
def test_what_the_records_never_hold_is_said_before_what_they_do(run_graph, question: str, what: str) -> None:
    """"any allergies?" listed the whole record without a word on allergies. "Is PAT_002 allergic to penicillin?" was
    answered about the penicillins (what they act on), and "a family history of diabetes?" with "No: … lists no family
    history of diabetes among the conditions", as if the records could have said."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "patient", out["answer"]
    assert out["answer"].startswith(f"The patient records hold conditions, medications and labs, not {what}. What they "
                                    "hold: PAT_002: "), out["answer"]
    plain, _ = run_graph({"question": "What is in PAT_002's record?"}, thread="t2", interactive=False, memory=False)
    assert "not allergies" not in plain["answer"]


def test_why_and_any_of_them_for_after_a_patient_s_medications_ask_the_record(run_graph) -> None:
    """"why?" after "What is PAT_001 taking?" was NOT_FOUND ("no known entity"); "is any of it for <condition>?" was
    read as "Is any of <the last condition> for …?", and "is PAT_002 taking anything for diabetes?" answered that the
    record lists no "anything for diabetes" among the conditions (the words linked whole)."""
    one, several = _patients_by_medications(run_graph)[1], _patients_by_medications(run_graph)[2]
    shown = _turn(run_graph, "why-one", f"What is {one} taking?")["answer"].split("medications: ", 1)[1].rstrip(".")
    name, condition = re.findall(r"(?:^|, )([^,(]+?) \(for ([^)]+)\)", shown)[0]
    why = _turn(run_graph, "why-one", "why?")
    assert why["understood_as"] == f"How does {name} treat {condition}?", why["answer"]
    shown = _turn(run_graph, "any-of", f"What is {several} taking?")["answer"].split("medications: ", 1)[1].rstrip(".")
    name, condition = re.findall(r"(?:^|, )([^,(]+?) \(for ([^)]+)\)", shown)[0]
    word = condition.split()[0].lower()  # "Diabetes mellitus type 2" asked as "diabetes"
    out = _turn(run_graph, "any-of", f"is any of it for {word}?")
    assert out["understood_as"] == f"Is {several} taking anything for {word}?" and out["intent"] == "patient"
    assert out["answer"].split("\" ", 1)[1].startswith(f"Yes: {several}'s record lists ") and name in out["answer"], out["answer"]
    no = _turn(run_graph, "any-for", f"Is {several} taking anything for diabetes?")
    assert no["answer"].startswith(f"No: {several}'s record lists no medication for ") or \
        no["answer"].startswith(f"Yes: {several}'s record lists "), no["answer"]
    assert "no anything" not in no["answer"] and "among the conditions" not in no["answer"]


def test_a_class_among_her_drugs_turns_after_the_record_asks_the_record(run_graph) -> None:
    """"Are any of her drugs statins?" two turns after a patient's medications told what statins act on."""
    one = _patients_by_medications(run_graph)[1]
    _turn(run_graph, "her-statins", f"What is {one} taking?")
    _turn(run_graph, "her-statins", "why is she on it?")
    out = _turn(run_graph, "her-statins", "Are any of her drugs statins?")
    assert out["understood_as"] == f"Is {one} on any statins?" and out["intent"] == "patient", out["answer"]
    assert re.search(rf"(?:Yes|No): {one}'s record lists ", out["answer"]), out["answer"]


def test_a_yes_or_no_question_for_a_kind_of_fact_lists_that_kind(run_graph) -> None:
    """"does she have any labs?" answered "No: … lists no labs among the conditions", whatever labs the record holds."""
    pid = _patients_by_medications(run_graph)[2]
    labs = _turn(run_graph, "kind", f"What are {pid}'s labs?")["answer"]
    out = _turn(run_graph, "kind", "does she have any labs?")
    assert out["intent"] == "patient" and "lists no labs" not in out["answer"], out["answer"]
    assert out["answer"].split("\" ", 1)[1] == labs, out["answer"]
    meds = _turn(run_graph, "kind2", f"Is {pid} on any medications?")
    assert meds["answer"].startswith(f"{pid}: medications: "), meds["answer"]


def test_how_many_medications_reads_the_patient_s_record(run_graph) -> None:
    """"how many medications is PAT_002 on?" went to the aggregation route, which reads no one record: "no medication
    visible for PAT_002 (64 recorded facts withheld …)", every patient's withheld facts counted."""
    from tests.conftest import in_thread

    listed, count, conditions = in_thread(run_graph, "howmany", "What is PAT_002 taking?", "how many medications is she on?",
                                          "how many conditions does she have?")
    meds = listed["answer"].split("medications: ", 1)[1]
    assert count["status"] is Status.ANSWERED and count["hybrid"]["route"] != "aggregation", count["answer"]
    assert count["answer"].endswith(f"PAT_002: {len(listed['messages'][-1]['items'])} medications: {meds}"), count["answer"]
    assert re.search(r"PAT_002: \d+ conditions?: ", conditions["answer"]), conditions["answer"]


def _conditions(run_graph: Any, thread: str, pid: str) -> list[str]:
    out = _turn(run_graph, thread, f"What conditions does {pid} have?")
    return [i["name"] for i in out["messages"][-1]["items"]]


def test_it_after_a_patient_s_conditions_is_the_condition(run_graph) -> None:
    """"how many patients have it?" after "What conditions does PAT_001 have?" asked what "it" meant: a pronoun after
    a record was read only as one of its medications. With one condition it is that one; with several an interactive
    run asks which, offering the record's conditions."""
    by_count: dict[int, tuple[str, list[str]]] = {}
    for k in range(1, 9):
        pid = f"PAT_{k:03d}"
        names = _conditions(run_graph, f"cond-probe{k}", pid)
        by_count.setdefault(min(len(names), 2), (pid, names)) if names else None
    assert {1, 2} <= set(by_count), by_count
    pid, (one,) = by_count[1]
    _conditions(run_graph, "cond-one", pid)
    count = _turn(run_graph, "cond-one", "how many patients have it?")
    assert count["understood_as"] == f"How many patients have {one}?", count["answer"]
    treat = _turn(run_graph, "cond-one", "what drugs treat it?")
    assert treat["understood_as"] == f"What drugs treat {one}?", treat["answer"]
    pid, names = by_count[2]
    _conditions(run_graph, "cond-many", pid)
    _out, snap = run_graph({"question": "how many patients have it?"}, thread="cond-many", interactive=True)
    pending = [i.value for t in snap.tasks for i in t.interrupts]
    assert pending and f"{pid}'s conditions" in pending[0]["question"], pending
    assert [c["name"] for c in pending[0]["candidates"]] == names
    out, _ = run_graph(Command(resume="2"), thread="cond-many", interactive=True)
    assert out["understood_as"] == f"How many patients have {names[1]}?", out["answer"]


def test_whether_a_lab_value_is_normal_says_the_records_hold_no_ranges(run_graph) -> None:
    """"is that normal?" after a patient's labs was NOT_FOUND ("no known entity in the question"), and "is PAT_002's
    uric acid high?" gave the value alone, as if the records could say. A condition with "high" in its name is still
    a condition."""
    note = "The patient records hold conditions, medications and labs, not reference ranges (whether a value is normal)."
    labs, judged = in_thread(run_graph, "normal", "what labs does PAT_002 have?", "is that normal?")
    assert judged["understood_as"] == "Are PAT_002's labs normal?" and judged["intent"] == "patient", judged["answer"]
    assert judged["answer"].split('" ', 1)[1].startswith(f"{note} What they hold: PAT_002: latest labs: "), judged["answer"]
    assert judged["answer"].endswith(labs["answer"].split("latest labs: ", 1)[1]), (labs["answer"], judged["answer"])
    high, _ = run_graph({"question": "is PAT_002's uric acid high?"}, interactive=False, memory=False)
    assert high["answer"].startswith(f"{note} What they hold: PAT_002's latest Uric acid: "), high["answer"]
    condition, _ = run_graph({"question": "does PAT_001 have high blood pressure?"}, interactive=False, memory=False)
    assert "reference ranges" not in condition["answer"], condition["answer"]


@pytest.mark.parametrize(("then", "word"), [("is that high?", "high"), ("is that controlled?", "controlled"),
                                            ("is it under control?", "under control")])
def test_whether_one_lab_asked_about_is_high_is_asked_of_that_lab(run_graph, then: str, word: str) -> None:
    """"is that high?" after "what's PAT_003's latest ALT?" was "Are PAT_003's labs normal?", every lab listed; "is that
    controlled?" was NOT_FOUND ("no known entity in the question") until stop 97."""
    note = "The patient records hold conditions, medications and labs, not reference ranges (whether a value is normal)."
    alt, judged = in_thread(run_graph, f"alt-{word}", "what's PAT_003's latest ALT?", then)
    assert judged["understood_as"] == f"Is PAT_003's ALT {word}?", judged["answer"]
    assert judged["answer"].split('" ', 1)[1] == f"{note} What they hold: {alt['answer']}", (alt["answer"], judged["answer"])


def test_which_condition_is_most_serious_says_the_records_do_not_rank_them(run_graph) -> None:
    """"which of those is most serious?" after a record compared the record's medications ("Compare Haloprogin, …"),
    and "Which of PAT_003's conditions is most serious?" listed the conditions without a word on it."""
    note = "The patient records hold conditions, medications and labs, not how serious a condition is."
    record, ranked = in_thread(run_graph, "serious", "What does PAT_003 have?", "which of those is most serious?")
    assert ranked["understood_as"] == "Which of PAT_003's conditions is most serious?", ranked["answer"]
    conditions = record["answer"].split("conditions: ", 1)[1].split(";", 1)[0]
    assert ranked["answer"].split('" ', 1)[1] == f"{note} What they hold: PAT_003: conditions: {conditions}.", ranked["answer"]
    _meds, compared = in_thread(run_graph, "dangerous", "What medications is PAT_003 on?", "which one is the most dangerous?")
    assert compared["understood_as"].startswith("Compare "), compared["answer"]  # medications, not conditions


def test_two_patients_named_are_answered_one_at_a_time(run_graph) -> None:
    """"compare PAT_001 and PAT_002" was answered with PAT_001's record alone, PAT_002 dropped without a word."""
    out, _ = run_graph({"question": "compare PAT_001 and PAT_002"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith("PAT_001: "), out["answer"]
    assert out["also_asked"] == ["What is in PAT_002's record?"], out["also_asked"]
    assert out["answer"].endswith('You also asked: "What is in PAT_002\'s record?" Ask it next.'), out["answer"]


@pytest.mark.parametrize("ask", ["what are their meds", "what pills is she on?"])
def test_meds_and_pills_after_a_record_are_its_medications(run_graph, ask: str) -> None:
    """"what are their meds" after "Tell me about PAT_003" was NOT_FOUND ("their" is not in the knowledge graph), and
    "what are PAT_003's meds?" gave the whole record."""
    record, meds = in_thread(run_graph, f"meds-{ask}", "Tell me about PAT_003", ask)
    assert meds["status"] is Status.ANSWERED and meds["intent"] == "patient", meds["answer"]
    listed = record["answer"].split("medications: ", 1)[1].split("; latest labs", 1)[0]
    assert meds["answer"].split('" ', 1)[1] == f"PAT_003: medications: {listed}.", meds["answer"]


def test_he_and_his_in_one_question_are_the_patient_once(run_graph) -> None:
    """"is he on anything for his blood pressure?" after PAT_004's record was understood as "Is he on anything for
    PAT_004's blood pressure?"."""
    _, out = in_thread(run_graph, "he-his", "tell me about PAT_004", "is he on anything for his blood pressure?")
    assert out["understood_as"] == "Is PAT_004 on anything for blood pressure?" and out["intent"] == "patient", out["answer"]


def test_it_for_a_condition_after_a_whole_record_is_one_of_its_conditions(run_graph) -> None:
    """"what is she taking for it?" after a whole record asked what "it" meant ("No answer in this conversation lists
    anything it could pick"): the record's list holds its medications. "It" where a condition is wanted is now one of
    the conditions they are taken for: the only one, or the one an interactive run's clarification picks."""
    def conditions(pid: str) -> list[str]:
        shown = _turn(run_graph, f"c-{pid}", f"What is {pid} taking?")["answer"]
        return list(dict.fromkeys(re.findall(r"\(for ([^)]+)\)", shown)))
    by_count: dict[int, str] = {}
    for k in range(1, 9):
        pid = f"PAT_{k:03d}"
        if found := conditions(pid):
            by_count.setdefault(min(len(found), 2), pid)
    one, several = by_count[1], by_count[2]
    _turn(run_graph, "rec1", f"What does {one} have?")
    out = _turn(run_graph, "rec1", "what is she taking for it?")
    assert out["understood_as"] == f"What is {one} taking for {conditions(one)[0]}?", out["answer"]
    _turn(run_graph, "rec2", f"What does {several} have?")
    _out, snap = run_graph({"question": "what is she taking for it?"}, thread="rec2", interactive=True)
    pending = [i.value for t in snap.tasks for i in t.interrupts]
    assert pending and f"{several}'s conditions" in pending[0]["question"], pending
    assert sorted(c["name"] for c in pending[0]["candidates"]) == sorted(conditions(several))
    picked = pending[0]["candidates"][1]["name"]
    out, _ = run_graph(Command(resume="2"), thread="rec2", interactive=True)
    assert out["understood_as"] == f"What is {several} taking for {picked}?" and out["intent"] == "patient", out["answer"]


def test_is_any_of_it_a_class_after_a_patient_s_medications_asks_of_the_list(run_graph) -> None:
    """"is any of it an antipsychotic?" after what PAT_002 takes asked which of the patient's conditions "it" meant,
    then whether Peptic ulcer is an antipsychotic; "are any of them antipsychotics?" was read right."""
    meds, out = in_thread(run_graph, "rec-class", "what is PAT_002 taking?", "is any of it an antipsychotic?")
    listed = meds["messages"][-1]["items"]
    assert out["status"] is Status.ANSWERED and out["understood_as"].startswith("What do the listed antipsychotics"), out["answer"]
    assert f"of the {len(listed)} listed drugs is one of the antipsychotics: chlorprothixene" in out["answer"], out["answer"]
    # none of them: the record's "No" (it was NOT_FOUND, "none of the 3 listed drugs … is among the statins …")
    _, none = in_thread(run_graph, "rec-class-none", "what is PAT_002 taking?", "is any of it a statin?")
    assert none["understood_as"] == "Is PAT_002 on any statins?" and none["status"] is Status.ANSWERED, none["answer"]
    assert none["answer"].split('" ', 1)[1].startswith("No: PAT_002's record lists no statins"), none["answer"]


@pytest.mark.parametrize(("question", "understood"), [("any labs?", "What are PAT_003's labs?"),
                                                      ("any conditions?", "What are PAT_003's conditions?")])
def test_any_part_of_the_record_after_a_record(run_graph, question: str, understood: str) -> None:
    """"any labs?" after what PAT_003 takes was NOT_FOUND, '"any labs" is not in the knowledge graph'."""
    _, out = in_thread(run_graph, f"any-{question}", "What is PAT_003 taking?", question)
    assert out["understood_as"] == understood and out["intent"] == "patient" and out["status"] is Status.ANSWERED, out["answer"]


@pytest.mark.parametrize(("question", "missing"), [("any allergies?", "allergies"), ("any surgeries?", "surgeries")])
def test_what_the_records_never_hold_asked_after_a_record(run_graph, question: str, missing: str) -> None:
    """"any allergies?" after a patient's record was NOT_FOUND ("no known entity in the question"); after a drug it
    still is: there is no record to ask."""
    _, out = in_thread(run_graph, f"never-{question}", "tell me about PAT_006", question)
    assert out["intent"] == "patient" and out["status"] is Status.ANSWERED, out["answer"]
    assert f"The patient records hold conditions, medications and labs, not {missing}." in out["answer"], out["answer"]
    _, drug = in_thread(run_graph, f"never-drug-{question}", "how does imatinib work?", question)
    assert drug["intent"] != "patient", drug["answer"]


@pytest.mark.parametrize(("first", "follow", "understood"), [
    ("does PAT_008 have diabetes?", "what about hypertension?", "Does PAT_008 have hypertension?"),
    ("is PAT_002 taking thalidomide?", "what about metformin?", "Is PAT_002 taking metformin?"),
])
def test_what_about_after_a_record_check_checks_the_record_again(run_graph, first: str, follow: str, understood: str) -> None:
    """"what about hypertension?" after "does PAT_008 have diabetes?" asked what drug treats hypertension."""
    _, out = in_thread(run_graph, f"check-again-{first}", first, follow)
    assert out["understood_as"] == understood and out["intent"] == "patient" and out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].split('" ', 1)[1].startswith(("Yes: ", "No: ")), out["answer"]


@pytest.mark.parametrize("ask", ["what is she taking for them?", "what does she take for those?"])
def test_what_a_patient_takes_for_all_the_conditions_listed_is_the_whole_list(run_graph, ask: str) -> None:
    """"what is she taking for them?" after "What conditions does PAT_003 have?" said "them" could be any of her two
    conditions and asked her to name one: "them" is all of them, so the answer is every medication with what it is
    for."""
    listed, meds = in_thread(run_graph, f"for-all-{ask}", "What conditions does PAT_003 have?", ask)
    assert "conditions: " in listed["answer"] and meds["understood_as"] == "What is PAT_003 taking?", meds["answer"]
    assert meds["status"] is Status.ANSWERED and meds["answer"].count("(for ") >= 2, meds["answer"]


def test_the_best_treatment_for_it_after_a_record_asks_which_condition(run_graph) -> None:
    """"what is the best treatment for it?" after "What does PAT_005 have?" compared the record's three medications:
    it asks what treats one of the record's conditions, and with two the answer names them."""
    _record, out = in_thread(run_graph, "best-for-it", "What does PAT_005 have?", "what is the best treatment for it?")
    assert not out.get("compared") and out["status"] is Status.NOT_FOUND, out["answer"]
    assert "\"it\" could be any of PAT_005's 2 conditions" in out["answer"], out["answer"]


@pytest.mark.parametrize("ask", ["Is any of it risky?", "is anything in it dangerous?", "Are her medications safe?"])
def test_whether_anything_in_a_record_is_risky_is_its_medications_with_a_note(run_graph, ask: str) -> None:
    """"Is any of it risky?" after "Show me PAT_005's record" asked which of her two conditions "it" meant; "Are her
    medications safe?" listed them without saying that neither the graph nor the record holds their safety."""
    _record, out = in_thread(run_graph, f"risky-{ask}", "Show me PAT_005's record", ask)
    assert out["understood_as"] == "Are PAT_005's medications safe?" and out["status"] is Status.ANSWERED, out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not safety. What it holds: PAT_005: medications: " in \
        out["answer"], out["answer"]


def test_whether_anything_in_a_record_is_contraindicated_is_its_medications_with_a_note(run_graph) -> None:
    """"is any of it contraindicated?" after a record asked which of her conditions "it" meant (since stop 99)."""
    _record, out = in_thread(run_graph, "contraindicated", "Show me PAT_005's record", "is any of it contraindicated?")
    assert out["understood_as"] == "Are PAT_005's medications safe?" and out["status"] is Status.ANSWERED, out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not contraindications. What it holds: PAT_005: medications: " in \
        out["answer"], out["answer"]


def test_a_count_by_age_says_the_records_hold_none(run_graph) -> None:
    """"How many patients are older than 60?" counted every patient after the note that the graph does not say when
    drugs were approved ("are older" read as a drug's age)."""
    out, _ = run_graph({"question": "How many patients are older than 60?"}, interactive=False, memory=False)
    assert out["intent"] == "cohort" and out["answer"].startswith(
        "The patient records hold conditions, medications and labs, not age. What they hold: Patients "), out["answer"]


def _record(settings: Any, pid: str) -> dict[str, Any]:
    import json

    return next(p for p in json.loads(settings.patients_path.read_text())["patients"] if p["id"] == pid)


def test_since_when_a_record_lists_a_medication_or_a_condition(run_graph, settings) -> None:
    """"When did PAT_003 start amineptine?" and "When was PAT_004 diagnosed with gout?" were answered with what the drug
    or the disease is connected to, the patient left out; "when did she start the second one?" too."""
    record = _record(settings, "PAT_003")
    med = next(f for f in record["facts"] if f["relation"] == "takes")  # the dates come from the raw file
    out = _turn(run_graph, "d1", f"When did PAT_003 start {med['object_name']}?")
    assert out["intent"] == "patient" and out["status"] == Status.ANSWERED, out["answer"]
    assert out["answer"].startswith(f"PAT_003's record lists {med['object_name']} ") and out["answer"].endswith(f"since {med['on']}.")
    condition = next(f for f in _record(settings, "PAT_004")["facts"] if f["relation"] == "has_condition" and f["object_name"] == "Gout")
    out = _turn(run_graph, "d2", "How long has PAT_004 had gout?")
    assert out["answer"].startswith(f"PAT_004's record lists Gout since {condition['on']}."), out["answer"]
    listed = _turn(run_graph, "d3", "What medications is PAT_003 on?")
    second = listed["evidence"][1]["tail"]
    start = next(f["on"] for f in record["facts"] if f["relation"] == "takes" and f["object_name"] == second)
    out = _turn(run_graph, "d3", "when did she start the second one?")
    assert out["understood_as"] == f"When did PAT_003 start {second}?", out["understood_as"]
    assert f"PAT_003's record lists {second} " in out["answer"] and out["answer"].endswith(f"since {start}."), out["answer"]
    assert _turn(run_graph, "d3", "when should she take it?")["intent"] != "patient"  # advice, not the record


def test_since_when_with_nothing_named_dates_every_condition_or_medication(run_graph, settings) -> None:
    """"When was PAT_003 diagnosed?" listed the conditions with no date (since stop 98: each with its date)."""
    facts = _record(settings, "PAT_003")["facts"]
    conditions = [f for f in facts if f["relation"] == "has_condition"]
    out = _turn(run_graph, "dd1", "When was PAT_003 diagnosed?")
    assert out["intent"] == "patient" and out["status"] == Status.ANSWERED and conditions, out["answer"]
    for f in conditions:
        assert f"{f['object_name']} since {f['on']}" in out["answer"], out["answer"]
    meds = [f for f in facts if f["relation"] == "takes"]
    out = _turn(run_graph, "dd2", "When did PAT_003 start her medications?")
    assert meds and all(f" since {f['on']}" in out["answer"] for f in meds), out["answer"]
    plain = _turn(run_graph, "dd3", "What conditions does PAT_003 have?")
    assert " since " not in plain["answer"], plain["answer"]  # only when asked when


def test_it_after_a_lab_question_is_that_lab_and_earlier_results_are_listed(run_graph, settings) -> None:
    """"what was it last time?" after "is her HbA1c high?" was read as one of the record's drugs (dipyridamole) and
    told what it is connected to; it is the lab, and "last time", "gone up" ask for every result, the latest first."""
    import json

    record = next(p for p in json.loads(settings.patients_path.read_text())["patients"]
                  if p["consent"]["labs"] and sum(f["object_name"] == "HbA1c" for f in p["facts"]) >= 2)
    pid = record["id"]
    results = sorted((f for f in record["facts"] if f["object_name"] == "HbA1c"), key=lambda f: f["on"], reverse=True)
    shown = ", ".join(f"{f['value']:g} {f['unit']} ({f['on']})" for f in results)
    _, last, up = in_thread(run_graph, f"lab-it-{pid}", f"What is {pid}'s latest HbA1c?", "what was it last time?",
                            "has it gone up?")
    assert last["understood_as"] == f"What was {pid}'s HbA1c last time?", last["answer"]
    assert up["understood_as"] == f"Has {pid}'s HbA1c gone up?", up["answer"]
    assert f"{pid}'s HbA1c results, the latest first: {shown}." in last["answer"], last["answer"]
    assert f"Every result, the latest first: {shown}." in up["answer"], up["answer"]  # after which way it went
    latest = in_thread(run_graph, f"lab-it3-{pid}", f"What is {pid}'s latest HbA1c?")[0]
    assert f"{pid}'s latest HbA1c: {results[0]['value']:g} {results[0]['unit']} ({results[0]['on']})." in latest["answer"]


@pytest.mark.parametrize("wording", ["What does {pid} have and what are they taking for it?",
                                     "What conditions does {pid} have and what medications treat them?",
                                     "what does {pid} have, and which drugs is she on for those?"])
def test_what_a_patient_has_and_takes_for_it_in_one_message(run_graph, settings, wording: str) -> None:
    """It asked what "it" meant and offered nothing to pick: the message had not named a condition yet."""
    store = open_patients(settings)
    pid, p = next((pid, p) for pid, p in sorted(store.patients.items()) if p.allows("conditions") and p.allows("medications")
                  and any(f.relation == "takes" for f in p.facts) and any(f.relation == "has_condition" for f in p.facts))
    out = _turn(run_graph, f"both-{wording[:12]}", wording.format(pid=pid))
    assert out["status"] is Status.ANSWERED and out["intent"] == "patient", out
    for f in p.facts:
        if f.relation in ("takes", "has_condition"):
            assert f.object_name in out["answer"], (f.object_name, out["answer"])
    assert "conditions:" in out["answer"] and "medications:" in out["answer"], out["answer"]


def test_the_conditions_of_a_record_with_no_medication_shown_can_be_referred_to(run_graph) -> None:
    """"how is the second one treated?" after "what does PAT_004 have?" (its conditions and labs; its consent
    withholds the medications) said no answer listed anything to pick: the conditions are the answer's list."""
    record, second = in_thread(run_graph, "cond-items", "what does PAT_004 have?", "how is the second one treated?")
    conditions = re.search(r"conditions: ([^;]+);", record["answer"])
    assert conditions and "medications" not in record["answer"], record["answer"]
    named = conditions[1].split(", ")
    assert len(named) >= 2 and second["understood_as"] == f"How is {named[1]} treated?", second["answer"]
    assert second["status"] is Status.ANSWERED and second["intent"] == "treats", second["answer"]


def test_any_medication_for_that_reads_that_as_the_record_s_condition(run_graph) -> None:
    """"are any of her meds for that?" after PAT_001's one condition and her medications was answered "No: PAT_001's
    record lists no medication for that", though it listed Vitamin E for it."""
    conditions, _meds, that = in_thread(run_graph, "for-that", "which conditions does PAT_001 have?", "what's she taking?",
                                        "are any of her meds for that?")
    condition = re.search(r"conditions: ([^;.]+)", conditions["answer"])
    assert condition and ", " not in condition[1], conditions["answer"]
    assert that["understood_as"] == f"Is PAT_001 taking anything for {condition[1]}?", that["answer"]
    assert that["answer"].split('" ', 1)[1].startswith("Yes: "), that["answer"]
