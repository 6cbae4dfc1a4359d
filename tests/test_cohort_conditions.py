"""The condition a count names is the one counted, or it is said that no record holds it.

- "How many patients have type 1 diabetes?" counted the records' type 2 patients (the word "diabetes" matched).
- "How many patients with tuberculosis take isoniazid?" dropped the condition no record holds and counted every
  patient ("Isoniazid: 0 of 43 patients").
- "What is the average HbA1c of patients with type 2 diabetes?" after a count of hypertension was asked of patients
  with type 2 diabetes "of patients with hypertension".
- "How many patients take vitamin E?" was counted among the patients with Vitamin E deficiency, and "… take vitamin
  D?" counted the takers of vitamin E.
- "How many patients have high cholesterol?" (the linker's Hypercholesterolemia, under another id than the records')
  and "… high blood pressure?" (Hypertension) named no condition of the records.
- A patient who does not allow their conditions to be read was counted by them.

Expected figures come from the raw patients file, not from the store that answers.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from agents.state import Status
from memory.patients import PatientStore
from tools.aggregate import Aggregate, _marks
from tools.routes import RetrievalQuery


def _records(settings: Any) -> list[dict[str, Any]]:
    return json.loads(settings.patients_path.read_text())["patients"]


def _conditions(settings: Any) -> set[str]:
    return {f["object_name"] for p in _records(settings) for f in p["facts"] if f["relation"] == "has_condition"}


def _ask(run_graph: Any, question: str, thread: str = "cc") -> dict[str, Any]:
    out, _ = run_graph({"question": question}, thread=thread, interactive=False, memory=False)
    assert out["intent"] == "cohort", out["answer"]
    assert "PAT_" not in out["answer"], out["answer"]
    return out


def test_marks_tell_the_kinds_of_a_condition_apart() -> None:
    assert _marks("Diabetes mellitus type 1") == _marks("type I diabetes") == {"1"}
    assert _marks("Chronic hepatitis C") == {"c"}
    assert _marks("Essential hypertension") == set() and _marks("a history of gout") == set()


def test_a_count_of_another_kind_of_a_recorded_condition_counts_no_one(run_graph, settings) -> None:
    held = _conditions(settings)
    assert "Diabetes mellitus type 2" in held and "Diabetes mellitus type 1" not in held  # what the test relies on
    out = _ask(run_graph, "How many patients have type 1 diabetes?")
    assert out["status"] is Status.NOT_FOUND, out["answer"]
    assert ('"type 1 diabetes" names no condition, medication or lab of the patient records; they hold Diabetes '
            "mellitus type 2.") in out["answer"]
    assert "Patients with Diabetes mellitus type 2" not in out["answer"]


def test_a_condition_no_record_holds_is_not_dropped_from_a_count(run_graph, settings) -> None:
    assert not any("tubercul" in name.casefold() for name in _conditions(settings))
    out = _ask(run_graph, "How many patients with tuberculosis take isoniazid?")
    assert out["status"] is Status.NOT_FOUND, out["answer"]
    assert out["answer"] == 'No verified evidence: "tuberculosis" names no condition, medication or lab of the patient records.'


@pytest.mark.parametrize(("question", "recorded"), [("How many patients have type 2 diabetes?", "Diabetes mellitus type 2"),
                                                    ("How many patients have arthritis?", "Rheumatoid arthritis"),
                                                    ("How many patients have hypertension?", "Essential hypertension"),
                                                    ("How many patients have high blood pressure?", "Essential hypertension"),
                                                    ("How many patients have high cholesterol?", "Hypercholesterolemia")])
def test_a_broader_or_the_same_kind_still_counts_the_recorded_one(run_graph, settings, question: str, recorded: str) -> None:
    counted = [p for p in _records(settings) if p["consent"]["research"]
               and any(f["relation"] == "has_condition" and f["object_name"] == recorded for f in p["facts"])]
    out = _ask(run_graph, question)
    assert out["status"] is Status.ANSWERED, out["answer"]
    size = str(len(counted)) if len(counted) >= 5 else "too few to report (fewer than 5)"
    assert f"Patients with {recorded} (research consent): {size}" in out["answer"], out["answer"]


def test_a_statistic_that_names_its_patients_is_not_asked_of_the_last_count(run_graph) -> None:
    _ask(run_graph, "How many patients have hypertension?", thread="own")
    out = _ask(run_graph, "What is the average HbA1c of patients with type 2 diabetes?", thread="own")
    assert not out.get("understood_as"), out["understood_as"]
    assert "Essential hypertension" not in out["answer"] and "Patients with Diabetes mellitus type 2" in out["answer"]


def test_their_average_after_an_average_of_a_drug_s_takers_keeps_them(run_graph) -> None:
    _ask(run_graph, "What is the average HbA1c of patients on metformin?", thread="takers")
    out = _ask(run_graph, "what's their average eGFR?", thread="takers")
    assert out["understood_as"] == "What is the average eGFR of patients taking metformin?"


def test_a_patient_who_refuses_conditions_is_not_counted_by_them(settings, resources, tmp_path: Path) -> None:
    body = json.loads(settings.patients_path.read_text())
    gout = [p for p in body["patients"] if p["consent"]["research"]
            and any(f["relation"] == "has_condition" and f["object_name"] == "Gout" for f in p["facts"])]
    assert len(gout) >= 6  # one refusal still leaves a cohort large enough to report
    gout[0]["consent"]["conditions"] = False
    path = tmp_path / "patients.json"
    path.write_text(json.dumps(body))
    aggregate = Aggregate(PatientStore.load(path), resources.kg)
    head = aggregate(RetrievalQuery("How many patients have gout?"))[0].count
    assert head is not None and head.cohort == "Gout" and head.size == len(gout) - 1


def _takers(settings: Any, drug: str) -> int:
    return sum(1 for p in _records(settings) if p["consent"]["research"] and p["consent"]["medications"]
               and any(f["relation"] == "takes" and f["object_name"] == drug for f in p["facts"]))


def _readable(settings: Any, kind: str) -> int:
    """Patients who allow research use and their records of ``kind`` to be read: a count line's denominator."""
    return sum(1 for p in _records(settings) if p["consent"]["research"] and p["consent"][kind])


def test_what_patients_take_names_no_condition(run_graph, settings) -> None:
    """A count line is among the patients whose medications may be read, and says how many may not ("Vitamin E: 2 of
    43 patients" counted 5 whose medications are withheld)."""
    research, readable = sum(1 for p in _records(settings) if p["consent"]["research"]), _readable(settings, "medications")
    assert readable < research  # the synthetic records hold a refusal, or this test shows nothing
    out = _ask(run_graph, "How many patients take vitamin E?")
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith(f"Patients (research consent): {research}. Of them: Vitamin E: "
                                    f"{_takers(settings, 'Vitamin E')} of {readable} patients. {research - readable} of "
                                    f"the {research} patients do not allow their medications to be read; the medication "
                                    f"counts are of the other {readable}."), out["answer"]


def test_another_vitamin_is_not_counted_for_the_one_asked_about(run_graph, settings) -> None:
    assert _takers(settings, "Vitamin E") > 0  # a count that could be wrongly added
    out = _ask(run_graph, "How many patients take vitamin D?")
    assert "Vitamin E" not in out["answer"], out["answer"]


def _having(settings: Any, *conditions: str) -> list[dict[str, Any]]:
    return [p for p in _records(settings) if p["consent"]["research"] and p["consent"]["conditions"]
            and all(any(f["relation"] == "has_condition" and f["object_name"] == c for f in p["facts"]) for c in conditions)]


@pytest.mark.parametrize("question", ["How many patients with depression have migraine?",
                                      "How many patients with depression also have migraine?"])
def test_a_condition_counted_within_a_cohort_of_another(run_graph, settings, question: str) -> None:
    """It was one cohort of the patients with either ("Patients with Depressive disorder or Migraine: 12")."""
    cohort, both = _having(settings, "Depressive disorder"), _having(settings, "Depressive disorder", "Migraine")
    out = _ask(run_graph, question, thread=question)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert (f"Patients with Depressive disorder (research consent): {len(cohort)}. Of them: Migraine: {len(both)} of "
            f"{len(cohort)} patients.") in out["answer"], out["answer"]


def test_conditions_joined_by_and_are_each_had(run_graph, settings) -> None:
    both = _having(settings, "Gout", "Essential hypertension")
    out = _ask(run_graph, "How many patients have gout and hypertension?")
    size = str(len(both)) if len(both) >= 5 else "too few to report (fewer than 5)"
    assert f"Patients with Gout and Essential hypertension (research consent): {size}" in out["answer"], out["answer"]
    either = [p for p in _records(settings) if p["consent"]["research"] and any(
        f["relation"] == "has_condition" and f["object_name"] in ("Gout", "Essential hypertension") for f in p["facts"])]
    out = _ask(run_graph, "How many patients have gout or hypertension?", thread="or")
    assert f"Patients with Essential hypertension or Gout (research consent): {len(either)}." in out["answer"], out["answer"]


def test_which_of_them_also_have_a_condition_after_a_count_of_one(run_graph) -> None:
    """It was "Which of Depressive disorder also have migraine?", NOT_FOUND (no chain from one disease to the other)."""
    _ask(run_graph, "How many patients have depression?", thread="also")
    out = _ask(run_graph, "which of them also have migraine?", thread="also")
    assert out["understood_as"] == "How many patients with depression also have migraine?", out["answer"]
    assert out["status"] is Status.ANSWERED and "Of them: Migraine: " in out["answer"], out["answer"]


def test_a_proportion_gives_the_share_beside_the_count(run_graph, settings) -> None:
    """"What proportion of patients have asthma?" gave the count alone ("Patients with Asthma (research consent): 6.")."""
    research = [p for p in _records(settings) if p["consent"]["research"]]
    asthma = _having(settings, "Asthma")
    assert len(asthma) >= 5  # a cohort large enough to report
    out = _ask(run_graph, "What proportion of patients have asthma?")
    assert (f"Patients with Asthma (research consent): {len(asthma)} of {len(research)} "
            f"({100 * len(asthma) / len(research):.0f} %).") in out["answer"], out["answer"]
    takers = _takers(settings, "Probenecid")
    out = _ask(run_graph, "What percentage of patients take probenecid?", thread="pct")
    readable = _readable(settings, "medications")
    assert f"Probenecid: {takers} of {readable} patients ({100 * takers / readable:.0f} %)." in out["answer"]
    plain = _ask(run_graph, "How many patients have asthma?", thread="plain")
    assert f"(research consent): {len(asthma)}. Of them:" in plain["answer"] and " %" not in plain["answer"]


@pytest.mark.parametrize(("question", "kind", "relation"), [
    ("What is the most common medication among patients?", "medications", "takes"),
    ("Which medications are most prescribed among our patients?", "medications", "takes"),
    ("What are the most common conditions among our patients?", "conditions", "has_condition"),
])
def test_the_most_common_of_a_kind_counts_that_kind_alone(run_graph, settings, question: str, kind: str, relation: str) -> None:
    """The first listed conditions (the most common first, as for a question that names neither); the second was
    NOT_FOUND ("among our patients" names no condition, medication or lab)."""
    counted: dict[str, int] = {}
    for p in _records(settings):
        if p["consent"]["research"] and p["consent"][kind]:
            for name in {f["object_name"] for f in p["facts"] if f["relation"] == relation}:
                counted[name] = counted.get(name, 0) + 1
    out, _ = run_graph({"question": question}, thread=question, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "cohort", out["answer"]
    lines = re.findall(r"(?:Of them: |; )([^;:]+): (\d+) of \d+ patients", out["answer"])
    assert lines and all(name in counted for name, _ in lines), out["answer"]  # that kind alone
    assert int(lines[0][1]) == max(counted.values()), out["answer"]  # the most common first


@pytest.mark.parametrize(("question", "kind"), [
    ("What are the most common medications?", "medications"),
    ("which drugs are most prescribed?", "medications"),
    ("what are the top 5 drugs?", "medications"),
    ("What are the most common diagnoses?", "conditions"),
])
def test_the_most_common_medications_or_conditions_are_counted_from_the_records(run_graph, settings, question: str,
                                                                                kind: str) -> None:
    """Only the patient records count how often a drug is taken: "What are the most common medications?" got the
    knowledge graph's scope note, and "the top 5 drugs" counted the patients who take five medications."""
    research = [p for p in _records(settings) if p["consent"]["research"]]
    relation = "takes" if kind == "medications" else "has_condition"
    counts = Counter(f["object_name"] for p in research if p["consent"][kind]
                     for f in {x["object_name"]: x for x in p["facts"] if x["relation"] == relation}.values())
    n, top = min((-c, name) for name, c in counts.items())
    n = -n  # the answer's order: the most patients first, then by name
    out = _ask(run_graph, question, thread=question)
    assert out["status"] is Status.ANSWERED and out["intent"] == "cohort", out["answer"]
    assert f"Of them: {top}: {n} of {_readable(settings, kind)} patients" in out["answer"], out["answer"]
    assert "Taking 5" not in out["answer"] and "curated drug mechanisms" not in out["answer"], out["answer"]


def test_how_many_of_them_after_their_medications_counts_within_the_cohort(run_graph) -> None:
    """"and how many of them are on albuterol?" after "how many patients have asthma?" and "what do they take?" was
    "How many patients are on albuterol?": the second turn is asked as the cohort's medications, whose words the
    count within it did not read."""
    for question in ("how many patients have asthma?", "what do they take?"):
        _ask(run_graph, question, thread="of-them")
    out = _ask(run_graph, "and how many of them are on albuterol?", thread="of-them")
    assert out["understood_as"] == "How many patients with asthma take albuterol?", out["answer"]
    assert out["answer"].split("\" ", 1)[1].startswith("Patients with Asthma (research consent): "), out["answer"]


@pytest.mark.parametrize("then", ["what percentage is that?", "as a percentage?", "and what proportion is that?"])
def test_the_share_asked_after_a_count_is_the_count_again_with_its_share(run_graph, then: str) -> None:
    """"what percentage is that?" after a count was `NOT_FOUND`, "no known entity in the question"."""
    _ask(run_graph, "How many patients with gout are on allopurinol?", thread=then)
    out = _ask(run_graph, then, thread=then)
    assert out["understood_as"] == "What proportion of patients with gout are on allopurinol?", out["answer"]
    assert re.search(r"Patients with Gout \(research consent\): \d+ of \d+ \(\d+ %\)", out["answer"]), out["answer"]


def test_how_many_of_those_patients_after_a_count_of_every_patient_counts_again(run_graph) -> None:
    """"how many of those patients take allopurinol?" after "what's the most common condition?" (a count of every
    patient) was answered with what allopurinol is connected to."""
    _ask(run_graph, "what's the most common condition?", thread="those")
    out = _ask(run_graph, "how many of those patients take allopurinol?", thread="those")
    assert out["understood_as"] == "How many patients take allopurinol?", out["answer"]


@pytest.mark.parametrize(("first", "then", "asked"), [
    ("How many patients with gout take probenecid?", "how many of them started it this year?",
     "How many patients with gout started probenecid this year?"),  # it was "How many patients started it this year?"
    ("how many patients have gout?", "how many of them are over 60?", "How many patients with gout are over 60?"),
    # it was "How many of Gout are over 60?", answered with the drugs for gout
])
def test_how_many_of_them_keeps_the_cohort_counted_last(run_graph, first: str, then: str, asked: str) -> None:
    _ask(run_graph, first, thread=then)
    out = _ask(run_graph, then, thread=then)
    assert out["understood_as"] == asked, out["answer"]
    assert "Patients with Gout (research consent): " in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["how many patients have high blood pressure?", "how many patients have high cholesterol?"])
def test_a_lab_s_words_after_high_name_a_condition_not_the_lab(run_graph, question: str) -> None:
    """"How many patients have high blood pressure?" counted who had a blood pressure result ("Systolic blood pressure
    measured: 4 of 4 patients"), and "… high cholesterol?" who had an LDL result, instead of the cohort's medications."""
    out = _ask(run_graph, question, thread=question)
    assert " measured" not in out["answer"] and "lab counts" not in out["answer"], out["answer"]
    assert re.search(r"Of them: [^:;]+: \d+ of \d+ patients", out["answer"]), out["answer"]
    measured = _ask(run_graph, "How many patients had a blood pressure above 140?", thread=f"{question} lab")
    assert "Systolic blood pressure > 140 (latest): " in measured["answer"], measured["answer"]  # the lab, still
