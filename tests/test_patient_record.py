""""Is PAT_003 taking <drug>?" and "does PAT_003 have <condition>?" are answered yes or no from the patient's record.
A named drug made it a question about the drug ("Metformin is connected to: …"), and a named condition listed the
whole record; "what conditions does she have?" in a patient's thread had nothing for "she" to refer to."""

from __future__ import annotations

import re
from typing import Any

from agents.intent import RECORD_CHECK
from agents.state import Status


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
