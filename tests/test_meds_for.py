"""A patient's medications for a condition named before the word for medications: "Is PAT_002 on any schizophrenia
medication?" said the record lists Schizophrenia among the conditions, "What are PAT_005's blood pressure meds?" gave
the systolic blood pressure. Patients are picked by what their raw records hold."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents.meds_for import meds_for
from agents.state import Status


@pytest.mark.parametrize(("question", "asked"), [
    ("Is PAT_002 on any schizophrenia medication?", "Is PAT_002 taking anything for schizophrenia?"),
    ("is she on any diabetes meds?", "Is she taking anything for diabetes?"),
    ("Are they taking any blood pressure pills?", "Are they taking anything for blood pressure?"),
    ("What diabetes medications is PAT_005 on?", "What is PAT_005 taking for diabetes?"),
    ("What are PAT_005's blood pressure meds?", "What is PAT_005 taking for blood pressure?"),
    ("what are her gout drugs?", "What is she taking for gout?"),
    ("Is PAT_002 on any statin medications?", "Is PAT_002 on any statin medications?"),  # a class, not a condition
    ("Is PAT_002 on any other medications?", "Is PAT_002 on any other medications?"),
    ("What are PAT_002's medications?", "What are PAT_002's medications?"),
    ("What drugs treat gout?", "What drugs treat gout?"),
])
def test_a_condition_before_medications_asks_what_is_taken_for_it(resources: Any, question: str, asked: str) -> None:
    assert meds_for(question, resources.linker) == asked


def test_on_any_medication_for_a_condition_is_answered_from_the_medications(run_graph, settings) -> None:
    records = json.loads(settings.patients_path.read_text())["patients"]
    names = {f["object_id"]: f["object_name"] for p in records for f in p["facts"]}
    p = next(p for p in records if p["consent"]["medications"] and p["consent"]["conditions"]
             and any(f["relation"] == "takes" and f["via"] in names for f in p["facts"]))
    med = next(f for f in p["facts"] if f["relation"] == "takes" and f["via"] in names)
    condition = names[med["via"]]
    out, _ = run_graph({"question": f"Is {p['id']} on any {condition.lower()} medication?"}, thread=p["id"],
                       interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == f"Is {p['id']} taking anything for {condition.lower()}?"
    assert out["answer"].split("\" ", 1)[1].startswith(f"Yes: {p['id']}'s record lists "), out["answer"]
    assert med["object_name"] in out["answer"] and f"for {condition}" in out["answer"], out["answer"]


def test_what_is_taken_for_a_name_that_fits_several_diseases_is_what_the_record_lists_for_it(run_graph, settings) -> None:
    """"diabetes" names several entities and no whole one, so the scan found no mention: "What is PAT_041 taking for
    diabetes?" listed every medication, where "Is PAT_041 taking anything for diabetes?" read the words as one."""
    records = json.loads(settings.patients_path.read_text())["patients"]
    names = {f["object_id"]: f["object_name"] for p in records for f in p["facts"]}

    def taken_for_diabetes(p: dict[str, Any]) -> list[str]:
        return [f["object_name"] for f in p["facts"] if f["relation"] == "takes" and "diabetes" in names.get(f["via"], "").lower()]

    allowed = [p for p in records if p["consent"]["medications"] and p["consent"]["conditions"]]
    sick = next(p for p in allowed if taken_for_diabetes(p)
                and any(f["relation"] == "takes" and f["object_name"] not in taken_for_diabetes(p) for f in p["facts"]))
    well = next(p for p in allowed if not any("diabetes" in str(f).lower() for f in p["facts"])
                and any(f["relation"] == "takes" for f in p["facts"]))
    out, _ = run_graph({"question": f"What is {sick['id']} taking for diabetes?"}, thread=sick["id"], interactive=False,
                       memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(f"{sick['id']}'s record lists "), out["answer"]
    assert all(name in out["answer"] for name in taken_for_diabetes(sick)), out["answer"]
    others = [f["object_name"] for f in sick["facts"] if f["relation"] == "takes" and f["object_name"] not in taken_for_diabetes(sick)]
    assert not any(name in out["answer"] for name in others), out["answer"]
    out, _ = run_graph({"question": f"What is {well['id']} taking for diabetes?"}, thread=well["id"], interactive=False,
                       memory=False)
    assert out["status"] is Status.ANSWERED, out
    assert out["answer"].startswith(f"{well['id']}'s record lists no medication for diabetes"), out["answer"]
