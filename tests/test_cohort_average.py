"""A lab's average over many patients ("What is the average HbA1c of patients on metformin?"): the mean or median of
each counted patient's latest result, over those who allow research use and their labs to be read, kept to those who
take a drug the question names, and withheld below five measured. It was answered with what metformin is connected
to, and "what's their average HbA1c?" after a count was NOT_FOUND."""

from __future__ import annotations

import json
import re
import statistics
from typing import Any

import pytest

from agents.cohort import cohort_question
from agents.state import Status


def _records(settings: Any) -> list[dict[str, Any]]:
    return [p for p in json.loads(settings.patients_path.read_text())["patients"] if p["consent"]["research"]]


def _latest(patient: dict[str, Any], lab: str) -> float | None:
    if not patient["consent"]["labs"]:
        return None
    results = sorted((f for f in patient["facts"] if f["relation"] == "has_lab" and f["object_name"] == lab
                      and f["value"] is not None), key=lambda f: f["on"] or "")
    return results[-1]["value"] if results else None


def _ask(run_graph: Any, question: str, thread: str = "avg") -> dict[str, Any]:
    out, _ = run_graph({"question": question}, thread=thread, interactive=False, memory=False)
    assert out["intent"] == "cohort" and out["status"] is Status.ANSWERED, out["answer"]
    assert "PAT_" not in out["answer"], out["answer"]
    return out


@pytest.mark.parametrize("question", ["What is the average HbA1c of patients on metformin?",
                                      "what's the mean LDL cholesterol among patients with hypercholesterolemia?",
                                      "median eGFR in patients taking lisinopril"])
def test_an_average_over_patients_is_a_question_about_many_patients(question: str) -> None:
    assert cohort_question(question)["intent"] == "cohort"
    assert cohort_question("What does hyperuricemia mean for patients with gout?") == {}  # a word's sense, no average


@pytest.mark.parametrize(("word", "summed"), [("average", statistics.fmean), ("median", statistics.median)])
def test_the_average_is_over_each_counted_patient_s_latest_result(run_graph, settings, word: str, summed: Any) -> None:
    records = _records(settings)
    latest = [v for p in records if (v := _latest(p, "ALT")) is not None]
    assert len(latest) >= 5  # the synthetic records measure ALT often enough to report it
    out = _ask(run_graph, f"What is the {word} ALT of all patients?")
    m = re.search(r"ALT, (mean|median) of the latest results: ([\d.]+) U/L \((\d+) of (\d+) patients measured\)", out["answer"])
    assert m is not None, out["answer"]
    assert m[1] == ("median" if word == "median" else "mean") and int(m[4]) == len(records) and int(m[3]) == len(latest)
    assert float(m[2]) == pytest.approx(summed(latest), abs=0.006)


def test_an_average_of_patients_on_a_drug_is_over_those_who_take_it(run_graph, settings) -> None:
    takers = [p for p in _records(settings) if p["consent"]["medications"]
              and any(f["relation"] == "takes" and f["object_name"] == "Citric acid" for f in p["facts"])]
    out = _ask(run_graph, "What is the average eGFR of patients taking citric acid?")
    head = re.search(r"^Patients taking Citric acid \(research consent\): (\d+|too few to report)", out["answer"])
    assert head is not None, out["answer"]
    if len(takers) < 5:
        assert head[1] == "too few to report", out["answer"]
        return
    assert int(head[1]) == len(takers)
    measured = [v for p in takers if (v := _latest(p, "eGFR")) is not None]
    if len(measured) < 5:  # a few patients' results would point at them
        assert f"eGFR, mean of the latest results: not reported, {len(measured)} of {len(takers)}" in out["answer"]
        assert not re.search(r"eGFR, mean of the latest results: \d", out["answer"]), out["answer"]
    else:
        assert f"({len(measured)} of {len(takers)} patients measured)" in out["answer"], out["answer"]


def test_their_average_after_a_count_is_over_the_patients_counted(run_graph) -> None:
    _ask(run_graph, "How many patients have hypertension?", thread="their")
    out = _ask(run_graph, "What's their average systolic blood pressure?", thread="their")
    assert out["understood_as"] == "What is the average systolic blood pressure of patients with hypertension?"
    assert re.search(r"^Understood as: .*Patients with Essential hypertension \(research consent\): \d+\. Of them: "
                     r"Systolic blood pressure, mean of the latest results: ", out["answer"]), out["answer"]
