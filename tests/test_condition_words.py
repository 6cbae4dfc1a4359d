""""Is PAT_002 diabetic?" listed the whole record, and "is she diabetic?" in a patient's thread was NOT_FOUND ('"is she
diabetic" is not in the knowledge graph'): a condition asked by its adjective is asked as "does … have …?"."""

from __future__ import annotations

from typing import Any

import pytest

from agents.condition_words import CONDITION_ADJECTIVES, avoided_in, causes_condition, has_condition
from memory.factory import open_patients


def _turn(run_graph: Any, thread: str, question: str) -> dict[str, Any]:
    _out, snap = run_graph({"question": question}, thread=thread, interactive=False, memory=False)
    return dict(snap.values)


@pytest.mark.parametrize(("asked", "read"), [
    ("Is PAT_002 diabetic?", "Does PAT_002 have diabetes?"),
    ("is she still depressed?", "Does she still have depression?"),
    ("Are they asthmatic", "Do they have asthma?"),
    ("was the patient a diabetic?", "Did the patient have diabetes?"),
    ("Is PAT_010 hypertensive?", "Does PAT_010 have hypertension?"),
    # an age, which the records do not hold: "how old is she?" was NOT_FOUND, "no known entity in the question"
    ("how old is she?", "What is her age?"), ("How old is PAT_002?", "What is PAT_002's age?"),
])
def test_the_adjective_is_read_as_the_condition(asked: str, read: str) -> None:
    assert has_condition(asked) == read


@pytest.mark.parametrize("asked", ["is imatinib hypertensive?", "Is PAT_002 taking metformin?", "what is diabetic neuropathy?",
                                   "is PAT_002 diabetic or not, and why?"])
def test_other_questions_are_left_as_written(asked: str) -> None:
    assert has_condition(asked) == asked


def test_a_patient_asked_by_the_adjective_gets_yes_or_no_from_the_record(run_graph, settings) -> None:
    patients = open_patients(settings)
    nouns = {v: k for k, v in CONDITION_ADJECTIVES.items()}
    conditions = {pid: [f.object_name for f in patients.get(pid).facts if f.relation == "has_condition"]
                  for pid in (f"PAT_{i:03d}" for i in range(1, 13))}
    pid, held = next((p, c) for p, cs in conditions.items() for c in cs if c.casefold() in nouns)
    yes = _turn(run_graph, "c1", f"Is {pid} {nouns[held.casefold()]}?")
    assert yes["intent"] == "patient" and yes["understood_as"] == f"Does {pid} have {held.casefold()}?"
    assert yes["answer"].endswith(f"Yes: {pid}'s record lists {held} among the conditions."), yes["answer"]
    other = next(p for p, cs in conditions.items() if not any("diabet" in c.casefold() for c in cs))
    no = _turn(run_graph, "c2", f"Is {other} diabetic?")
    assert no["understood_as"] == f"Does {other} have diabetes?"
    assert f"No: {other}'s record lists no diabetes among the conditions (it lists: " in no["answer"], no["answer"]
    assert "medications:" not in no["answer"]


def test_the_thread_s_patient_asked_by_the_adjective(run_graph, settings) -> None:
    conditions = [f.object_name for f in open_patients(settings).get("PAT_002").facts if f.relation == "has_condition"]
    _turn(run_graph, "c3", "What is PAT_002 taking?")
    out = _turn(run_graph, "c3", "is she diabetic?")
    assert out["status"] == "ANSWERED" and out["understood_as"] == "Does PAT_002 have diabetes?"
    said = "Yes: PAT_002's record lists" if any("diabet" in c.casefold() for c in conditions) else "No: PAT_002's record lists no diabetes"
    assert said in out["answer"], out["answer"]


@pytest.mark.parametrize(("asked", "read"), [
    ("Is imatinib hypertensive?", "Does imatinib cause hypertension?"),
    ("is prednisone diabetogenic", "Does prednisone cause diabetes?"),
    # a patient, a pronoun, or no drug: left as written
    ("Is PAT_002 diabetic?", "Is PAT_002 diabetic?"), ("is she diabetic?", "is she diabetic?"),
    ("is gout hypertensive?", "is gout hypertensive?"),
])
def test_a_drug_asked_by_the_adjective_is_asked_whether_it_causes_it(resources, asked: str, read: str) -> None:
    assert causes_condition(asked, resources.linker) == read


def test_a_drug_asked_by_the_adjective_gets_no_yes(run_graph) -> None:
    """"Is imatinib hypertensive?" was answered "Yes: imatinib acts on Hypertensive disorder …", as if it treated it."""
    out = _turn(run_graph, "c4", "Is imatinib hypertensive?")
    assert out["understood_as"] == "Does imatinib cause hypertension?", out["answer"]
    assert "Yes" not in out["answer"] and "not side effects" in out["answer"], out["answer"]


def test_how_old_a_patient_is_is_said_to_be_outside_the_records(run_graph) -> None:
    _turn(run_graph, "c5", "What does PAT_001 take?")
    out = _turn(run_graph, "c5", "how old is she?")
    assert out["understood_as"] == "What is PAT_001's age?", out["answer"]
    assert "The patient records hold conditions, medications and labs, not age. What they hold: PAT_001" in out["answer"]


@pytest.mark.parametrize(("asked", "read"), [
    ("what drugs should asthmatics avoid?", "Which drugs can make asthma worse?"),
    ("what drugs should patients with asthma avoid?", "Which drugs can make asthma worse?"),
    ("which drugs are contraindicated in asthma?", "Which drugs can make asthma worse?"),
    ("what medications should I avoid if I have gout?", "Which drugs can make gout worse?"),
    ("what drugs should diabetics avoid?", "Which drugs can make diabetes worse?"),
    # not a disease: what it is taken with, or a population
    ("which drugs should I avoid with warfarin?", "which drugs should I avoid with warfarin?"),
    ("which drugs are dangerous in pregnancy?", "which drugs are dangerous in pregnancy?"),
])
def test_which_drugs_to_avoid_with_a_disease_asks_which_make_it_worse(resources, asked: str, read: str) -> None:
    assert avoided_in(asked, resources.linker) == read


def test_the_drugs_to_avoid_with_a_disease_say_contraindications_are_not_held(run_graph) -> None:
    """"What drugs should asthmatics avoid?" was NOT_FOUND ("no known entity in the question", after the note that
    drug interactions are not held), and "… patients with asthma avoid?" was told what asthma is connected to."""
    for question in ("what drugs should asthmatics avoid?", "what drugs should patients with asthma avoid?"):
        out = _turn(run_graph, f"avoid-{question}", question)
        assert out["understood_as"] == "Which drugs can make asthma worse?" and out["intent"] == "causes", out["answer"]
        assert "not contraindications. What it holds: " in out["answer"] and "as raising it" in out["answer"], out["answer"]
