"""A count over patients keeps to the stretch of time its question names, and to every part of what it asks.

- "How many patients had an HbA1c above 9 last year?" counted the latest results, whatever their date, and said
  nothing of the year. So did "… were diagnosed with gout since 2020?" of diagnoses.
- "How many patients are on metformin and not on insulin?" gave two counts over every patient (those not on insulin;
  those on metformin), not the patients who are both; "… take metformin but not insulin?" counted those on insulin.
- "How many patients with gout take allopurinol but not pegloticase?" also offered "How does pegloticase treat gout?".

Expected figures come from the raw patients file, not from the store that answers.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from agents.state import Status
from memory.patients import PatientStore
from tools.aggregate import Aggregate
from tools.cohort_negation import negation, positions
from tools.cohort_window import window
from tools.routes import RetrievalQuery

TODAY = date(2026, 12, 2)
NOW = datetime(2026, 12, 2, 12, tzinfo=UTC).timestamp()


def _records(settings: Any) -> list[dict[str, Any]]:
    return [p for p in json.loads(settings.patients_path.read_text())["patients"] if p["consent"]["research"]]


def _ask(run_graph: Any, question: str) -> dict[str, Any]:
    out, _ = run_graph({"question": question}, thread=question, interactive=False, memory=False, now=NOW)
    assert out["intent"] == "cohort" and out["status"] is Status.ANSWERED, out["answer"]
    return out


@pytest.mark.parametrize(("text", "start", "end"), [
    ("How many patients had an HbA1c above 9 last year?", date(2025, 1, 1), date(2025, 12, 31)),
    ("… in the past 6 months?", date(2026, 6, 3), TODAY),
    ("… over the last year?", date(2025, 12, 3), TODAY),
    ("… in the last 30 days?", date(2026, 11, 3), TODAY),
    ("… this year?", date(2026, 1, 1), TODAY),
    ("… last month?", date(2026, 11, 1), date(2026, 11, 30)),
    ("… in March 2026?", date(2026, 3, 1), date(2026, 3, 31)),
    ("… since 2026-03-01?", date(2026, 3, 1), TODAY),
    ("… since 2020?", date(2020, 1, 1), TODAY),
    ("… since June?", date(2026, 6, 1), TODAY),
    ("… before 2020?", date(1900, 1, 1), date(2019, 12, 31)),
    ("… in the past 9999999 days?", date(1900, 1, 1), TODAY),
    ("… been on probenecid for more than a year?", date(1900, 1, 1), date(2025, 12, 2)),
    ("… in the past 99999999 years?", date(1900, 1, 1), TODAY),
    ("… in December?", date(2026, 12, 1), date(2026, 12, 31)),
    ("… in January?", date(2026, 1, 1), date(2026, 1, 31)),
])
def test_the_stretch_of_time_a_question_names(text: str, start: date, end: date) -> None:
    found = window(text, TODAY)
    assert found is not None and (found.start, found.end) == (start, end), found


@pytest.mark.parametrize("text", ["How many patients have gout?", "How many patients take more than 3 medications?",
                                  "What was the last HbA1c?", "How many patients are over 65 years old?",
                                  "Which patients may have gout?", "… in the past 0 days?", "… since 2026-13-45?"])
def test_no_stretch_of_time_where_none_is_named(text: str) -> None:
    assert window(text, TODAY) is None


def _lab_counts(settings: Any, lab: str, start: date, limit: float, end: date = TODAY) -> tuple[int, int, int]:
    """Patients counted (those whose labs may be read), those with a result of ``lab`` from ``start`` to ``end``, and
    those whose latest such result is above ``limit``."""
    ps = _records(settings)
    measured = above = 0
    for p in ps:
        results = sorted((f for f in p["facts"] if f["object_id"] == lab and start <= date.fromisoformat(f["on"]) <= end),
                         key=lambda f: f["on"])
        if results and p["consent"]["labs"]:
            measured += 1
            above += results[-1]["value"] > limit
    return sum(1 for p in ps if p["consent"]["labs"]), measured, above


def test_a_lab_count_keeps_to_the_results_of_the_stretch_asked_about(run_graph, settings) -> None:
    n, measured, above = _lab_counts(settings, "HbA1c", date(2026, 6, 3), 6.5)
    _, ever, _ = _lab_counts(settings, "HbA1c", date(2000, 1, 1), 6.5)
    assert ever > measured  # some patients were measured only before the stretch: a count over all would differ
    out = _ask(run_graph, "How many patients had an HbA1c above 6.5 in the past 6 months?")
    span = "between 2026-06-03 and 2026-12-02"
    assert f"HbA1c > 6.5 (latest {span}): {above} of {n} patients" in out["answer"], out["answer"]
    assert f"HbA1c measured {span}: {measured} of {n} patients" in out["answer"], out["answer"]
    assert f"Only lab results dated {span} were counted." in out["answer"]


def test_a_year_with_no_result_says_so_rather_than_a_bare_zero(run_graph, settings) -> None:
    n, measured, above = _lab_counts(settings, "HbA1c", date(2025, 1, 1), 9, end=date(2025, 12, 31))
    out = _ask(run_graph, "How many patients had an HbA1c above 9 last year?")
    assert f"HbA1c > 9 (latest in 2025): {above} of {n} patients" in out["answer"], out["answer"]
    assert f"HbA1c measured in 2025: {measured} of {n} patients" in out["answer"], out["answer"]
    assert "Only lab results dated in 2025 were counted." in out["answer"]


@pytest.mark.parametrize(("when", "after"), [("since 2020", True), ("before 2020", False)])
def test_diagnoses_are_kept_to_the_stretch_when_the_question_says_diagnosed(run_graph, settings, when, after) -> None:
    kept = [p for p in _records(settings) if p["consent"]["conditions"] and any(
        f["relation"] == "has_condition" and f["object_name"] == "Gout" and (f["on"] >= "2020-01-01") == after
        for f in p["facts"])]
    every = [p for p in _records(settings) if p["consent"]["conditions"] and any(
        f["relation"] == "has_condition" and f["object_name"] == "Gout" for f in p["facts"])]
    assert len(kept) < len(every)  # the stretch leaves some out
    out = _ask(run_graph, f"How many patients were diagnosed with gout {when}?")
    size = str(len(kept)) if len(kept) >= 5 else "too few to report (fewer than 5)"
    assert out["answer"].startswith(f"Patients with Gout (research consent): {size}."), out["answer"]
    assert f"Only diagnoses dated {when} were counted." in out["answer"]


def test_patients_counted_by_how_many_results_of_a_lab_they_have(run_graph, settings) -> None:
    """"How many patients had more than 2 ALT results this year?" was counted as an ALT above 2."""
    ps = _records(settings)
    kept = [p for p in ps if p["consent"]["labs"]]
    many = sum(1 for p in kept if sum(1 for f in p["facts"] if f["object_id"] == "ALT" and f["on"] >= "2026-01-01") > 2)
    out = _ask(run_graph, "How many patients had more than 2 ALT results this year?")
    left = len(ps) - len(kept)
    assert f"With more than 2 ALT results: {many} of {len(kept)} patients whose labs may be read ({left} others' may not)" \
        in out["answer"], out["answer"]
    assert "ALT > 2" not in out["answer"]


def test_a_stretch_that_no_count_can_keep_to_is_said_not_applied(run_graph, settings) -> None:
    every = [p for p in _records(settings) if p["consent"]["conditions"] and any(
        f["relation"] == "has_condition" and f["object_name"] == "Gout" for f in p["facts"])]
    out = _ask(run_graph, "How many patients had gout last year?")
    assert out["answer"].startswith(f"Patients with Gout (research consent): {len(every)}."), out["answer"]
    assert '"in 2025" was not applied to who has a condition or takes a drug' in out["answer"], out["answer"]


def test_patients_who_started_a_medication_in_a_stretch(run_graph, settings) -> None:
    ps = _records(settings)
    kept = [p for p in ps if p["consent"]["medications"]]
    started = sum(1 for p in kept if any(f["relation"] == "takes" and f["on"] >= "2026-01-01" for f in p["facts"]))
    out = _ask(run_graph, "How many patients started a new medication this year?")
    assert (f"Taking a medication started between 2026-01-01 and 2026-12-02: {started} of {len(kept)} patients"
            in out["answer"]), out["answer"]


def test_but_not_and_and_not_negate_the_name_after_them() -> None:
    names = [("MET", "takes", {"metfor"}), ("INS", "takes", {"insuli"}), ("GOUT", "has_condition", {"gout"}),
             ("HTN", "has_condition", {"hypert"})]
    for text, absent in [("How many patients take metformin but not insulin?", {"INS"}),
                         ("How many patients are on metformin and not on insulin?", {"INS"}),
                         ("How many patients have gout but not hypertension?", {"HTN"}),
                         ("How many patients have gout and hypertension?", set())]:
        present = [n for n in names if any(stem in text.casefold() for stem in n[2])]
        assert negation(text, positions(text, present)).absent == absent, text


def _with_two_drugs(settings: Any, tmp_path: Path) -> tuple[Path, str, str, int, int]:
    """A patients file where six patients who allow their medications to be read take one drug and two of them a
    second; the store's counts of the first drug's takers, and of those among them not on the second."""
    body = json.loads(settings.patients_path.read_text())
    drugs: dict[str, tuple[str, str]] = {}
    for p in body["patients"]:
        for f in p["facts"]:
            if f["relation"] == "takes":
                drugs.setdefault(f["object_name"], (f["object_id"], f["via"]))
    first, second = "Probenecid", "benzbromarone"
    chosen = [p for p in body["patients"] if p["consent"]["research"] and p["consent"]["medications"]][:6]
    for i, p in enumerate(chosen):
        for name in (first, second) if i < 2 else (first,):
            oid, via = drugs[name]
            p["facts"].append({"id": f"t{i}{name}", "patient_id": p["id"], "category": "medications", "relation": "takes",
                               "object_id": oid, "object_name": name, "via": via, "value": None, "unit": None,
                               "on": "2026-02-01", "text": None, "pii_fields": []})
    path = tmp_path / "patients.json"
    path.write_text(json.dumps(body))
    def takes(p: dict[str, Any], name: str) -> bool:
        return any(f["relation"] == "takes" and f["object_name"] == name for f in p["facts"])
    takers = [p for p in body["patients"] if p["consent"]["research"] and p["consent"]["medications"] and takes(p, first)]
    return path, first, second, len(takers), sum(1 for p in takers if not takes(p, second))


@pytest.mark.parametrize("question", ["How many patients take probenecid but not benzbromarone?",
                                      "How many patients are on probenecid and not on benzbromarone?"])
def test_on_one_drug_and_not_another_counts_the_patients_who_are_both(settings, resources, tmp_path, question) -> None:
    path, first, second, takers, without = _with_two_drugs(settings, tmp_path)
    assert 0 < without < takers
    items = Aggregate(PatientStore.load(path), resources.kg)(RetrievalQuery(question))
    head = items[0].count
    assert head is not None and head.taking.casefold() == first.casefold() and head.size == takers, items[0].text
    lines = [i.count for i in items[1:] if i.count is not None]
    assert [(c.name.casefold(), c.count, c.absent) for c in lines] == [(second.casefold(), without, True)], [i.text for i in items]


def test_a_lab_asked_of_a_drug_s_takers_is_counted_among_them(settings, resources, tmp_path) -> None:
    """"How many patients on probenecid have an ALT above 20?" counted the ALT of every patient, and the takers apart."""
    path, first, _, takers, _ = _with_two_drugs(settings, tmp_path)
    body = json.loads(path.read_text())
    def high(p: dict[str, Any]) -> bool:
        alt = sorted((f for f in p["facts"] if f["object_id"] == "ALT"), key=lambda f: f["on"])
        return bool(alt) and p["consent"]["labs"] and alt[-1]["value"] > 20
    on = [p for p in body["patients"] if p["consent"]["research"] and p["consent"]["medications"]
          and any(f["relation"] == "takes" and f["object_name"] == first for f in p["facts"])]
    items = Aggregate(PatientStore.load(path), resources.kg)(RetrievalQuery("How many patients on probenecid have an ALT above 20?"))
    head = items[0].count
    assert head is not None and head.taking.casefold() == first.casefold() and head.size == takers == len(on), items[0].text
    lines = [(i.count.name, i.count.count) for i in items[1:] if i.count is not None]
    assert lines == [("ALT > 20 (latest)", sum(1 for p in on if high(p)))], lines


def test_a_count_offers_no_mechanism_question_for_the_drug_it_names(run_graph) -> None:
    out = _ask(run_graph, "How many patients with gout take allopurinol but not pegloticase?")
    assert out["also_asked"] == [], out["answer"]
    assert "You also asked" not in out["answer"]


def test_and_how_many_started_it_after_a_count_of_a_drug_s_takers(run_graph, settings) -> None:
    """It was read as a question about the drug ("Probenecid is connected to: …")."""
    ps = _records(settings)
    def started(p: dict[str, Any], since: str) -> bool:
        return p["consent"]["medications"] and any(f["relation"] == "takes" and f["object_name"] == "Probenecid"
                                                   and f["on"] >= since for f in p["facts"])
    assert sum(1 for p in ps if started(p, "2026-01-01")) < sum(1 for p in ps if started(p, "1900-01-01"))
    run_graph({"question": "How many patients take probenecid?"}, thread="start", interactive=False, memory=False, now=NOW)
    out, _ = run_graph({"question": "and how many started it this year?"}, thread="start", interactive=False, memory=False,
                       now=NOW)
    assert out["understood_as"] == "How many patients started probenecid this year?", out["answer"]
    readable = sum(1 for p in ps if p["consent"]["medications"])
    assert f"Probenecid: {sum(1 for p in ps if started(p, '2026-01-01'))} of {readable} patients" in out["answer"], out["answer"]


@pytest.mark.parametrize(("question", "since"), [("Which patients have not had an HbA1c test this year?", "2026-01-01"),
                                                 ("How many patients have no HbA1c result?", "")])
def test_patients_without_a_result_of_a_lab(run_graph, settings, question: str, since: str) -> None:
    """"… have not had an HbA1c test this year?" counted those who had one, as if asked."""
    ps = _records(settings)
    kept = [p for p in ps if p["consent"]["labs"]]
    without = sum(1 for p in kept if not any(f["object_id"] == "HbA1c" and f["on"] >= since for f in p["facts"]))
    out = _ask(run_graph, question)
    left = len(ps) - len(kept)
    assert (f"No HbA1c result: {without} of {len(kept)} patients whose labs may be read ({left} others' may not)"
            in out["answer"]), out["answer"]
    assert "HbA1c measured" not in out["answer"]


def test_a_lab_is_negated_as_a_condition_is() -> None:
    names = [("HBA", "has_lab", {"hba1c"}), ("GOUT", "has_condition", {"gout"})]
    for text, absent in [("How many patients have not had an HbA1c test?", {"HBA"}),
                         ("How many patients with gout have no HbA1c result?", {"HBA"}),
                         ("How many patients have had an HbA1c test?", set())]:
        present = [n for n in names if any(stem in text.casefold() for stem in n[2])]
        assert negation(text, positions(text, present)).absent == absent, text


def test_another_condition_after_a_count_of_diagnoses_keeps_the_frame(run_graph) -> None:
    """"and with gout?" after a count of diagnoses in the last 5 years was "How many patients have Gout?": every patient
    with gout, whenever diagnosed."""
    run_graph({"question": "How many patients were diagnosed with hypertension in the last 5 years?"}, thread="frame",
              interactive=False, memory=False, now=NOW)
    out, _ = run_graph({"question": "and with gout?"}, thread="frame", interactive=False, memory=False, now=NOW)
    assert out["understood_as"] == "How many patients were diagnosed with gout in the last 5 years?", out["answer"]
    assert "Only diagnoses dated between 2021-12-03 and 2026-12-02 were counted." in out["answer"], out["answer"]


def _has(p: dict[str, Any], name: str) -> bool:
    return p["consent"]["conditions"] and any(f["relation"] == "has_condition" and f["object_name"] == name for f in p["facts"])


def test_other_patients_after_a_lab_count_keep_the_lab_and_the_stretch(run_graph, settings) -> None:
    """"and with gout?" after a count of HbA1c results in the past 6 months was "How many patients have gout?" (the lab
    and the stretch dropped); "and among those taking probenecid?" was "How many patients take among those taking
    probenecid?"."""
    gout = [p for p in _records(settings) if _has(p, "Gout")]
    measured = sum(1 for p in gout if p["consent"]["labs"] and any(
        f["object_id"] == "HbA1c" and f["on"] >= "2026-06-03" for f in p["facts"]))
    ask = "How many patients had an HbA1c above 6.5 in the past 6 months?"
    run_graph({"question": ask}, thread="lab", interactive=False, memory=False, now=NOW)
    out, _ = run_graph({"question": "and with gout?"}, thread="lab", interactive=False, memory=False, now=NOW)
    assert out["understood_as"] == "How many patients with gout had an HbA1c above 6.5 in the past 6 months?", out["answer"]
    span = "between 2026-06-03 and 2026-12-02"
    readable = sum(1 for p in gout if p["consent"]["labs"])
    assert f"HbA1c measured {span}: {measured} of {readable} patients" in out["answer"], out["answer"]
    out, _ = run_graph({"question": "and among those taking probenecid?"}, thread="lab", interactive=False, memory=False,
                       now=NOW)
    assert out["understood_as"] == "How many patients with gout taking probenecid had an HbA1c above 6.5 in the past 6 months?"
    assert "Patients with Gout taking Probenecid" in out["answer"] and f"Only lab results dated {span} were counted." in out["answer"]


@pytest.mark.parametrize(("first", "then", "asked"), [
    ("How many patients have gout?", "and among those taking probenecid?", "How many patients with gout take probenecid?"),
    ("How many patients take probenecid?", "and among those with gout?", "How many patients with gout take probenecid?"),
])
def test_among_those_after_a_count_counts_within_it(run_graph, first: str, then: str, asked: str) -> None:
    """The first was read as a question about probenecid ("Probenecid is connected to: …"), the second as "How many
    patients have among those with gout?"."""
    run_graph({"question": first}, thread=first, interactive=False, memory=False, now=NOW)
    out, _ = run_graph({"question": then}, thread=first, interactive=False, memory=False, now=NOW)
    assert out["understood_as"] == asked and out["intent"] == "cohort", out["answer"]


def test_another_lab_after_a_lab_count_counts_its_results_over_the_same_stretch(run_graph, settings) -> None:
    """"and LDL?" after a count of HbA1c results was "How many patients take LDL?" (or, later in a thread, "… with
    Asthma take LDL?"): the words link a substance."""
    n, measured, _ = _lab_counts(settings, "LDL cholesterol", date(2026, 6, 3), 0)
    run_graph({"question": "How many patients had an HbA1c above 6.5 in the past 6 months?"}, thread="ldl",
              interactive=False, memory=False, now=NOW)
    out, _ = run_graph({"question": "and LDL?"}, thread="ldl", interactive=False, memory=False, now=NOW)
    assert out["understood_as"] == "How many patients had LDL results in the past 6 months?", out["answer"]
    assert f"LDL cholesterol measured between 2026-06-03 and 2026-12-02: {measured} of {n} patients" in out["answer"]
