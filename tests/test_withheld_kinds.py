"""A question about a kind of fact that the patient's consent withholds gets neither "Yes" nor "No".

"Is PAT_004 on any blood thinners?" was answered "No: PAT_004's record lists no blood thinners among the medications
(it lists: none)", though the patient does not allow the medications to be read. And "How many patients are over 65?"
was broken down by condition without a word on age, which the records do not hold.

The patients are picked from the raw patients file by their consent, not named by the test.
"""

from __future__ import annotations

import json
from typing import Any

from agents.state import Status


def _with_consent(settings: Any, category: str, allowed: bool) -> list[dict[str, Any]]:
    ps = json.loads(settings.patients_path.read_text())["patients"]
    return [p for p in ps if p["consent"][category] is allowed
            and all(p["consent"][c] for c in ("conditions", "medications", "labs") if c != category)]


def _ask(run_graph: Any, question: str, thread: str) -> dict[str, Any]:
    out, _ = run_graph({"question": question}, thread=thread, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "patient", out["answer"]
    return out


def test_a_withheld_kind_is_neither_yes_nor_no(run_graph, settings) -> None:
    hidden = _with_consent(settings, "medications", False)[0]["id"]
    for n, question in enumerate([f"Is {hidden} on any blood thinners?", f"Is {hidden} taking metformin?",
                                  f"What is {hidden} taking for gout?", f"When did {hidden} start lisinopril?",
                                  f"Is {hidden} on warfarin, aspirin or clopidogrel?"]):
        answer = _ask(run_graph, question, f"wk{n}")["answer"]
        assert not answer.startswith("No") and "(it lists: none)" not in answer, answer
        assert f"{hidden}'s record shows no medications: " in answer and "cannot be said" in answer, answer
    labs = _with_consent(settings, "labs", False)[0]["id"]
    answer = _ask(run_graph, f"Does {labs} have an HbA1c result?", "wk-lab")["answer"]
    assert answer.startswith(f"{labs}'s record shows no labs: ") and "cannot be said" in answer, answer


def test_any_of_it_of_a_class_after_withheld_medications_asks_the_record(run_graph, settings) -> None:
    """"is any of it a blood thinner?" after a record whose medications are withheld asked what "them" referred to."""
    hidden = _with_consent(settings, "medications", False)[0]["id"]
    run_graph({"question": f"What's {hidden} on?"}, thread="wk-any", interactive=False, memory=False)
    out = _ask(run_graph, "is any of it a blood thinner?", "wk-any")
    assert out["understood_as"] == f"Is {hidden} on any blood thinners?", out["answer"]
    assert "cannot be said" in out["answer"], out["answer"]


def test_a_readable_kind_still_gets_no(run_graph, settings) -> None:
    shown = next(p for p in _with_consent(settings, "medications", True)
                 if p["consent"]["research"] and not any("warfarin" in f["object_name"].casefold() for f in p["facts"]))
    answer = _ask(run_graph, f"Is {shown['id']} taking warfarin?", "wk-shown")["answer"]
    assert answer.startswith(f"No: {shown['id']}'s record lists no warfarin among the medications (it lists: "), answer


def test_a_count_by_age_says_the_records_hold_no_age(run_graph) -> None:
    for n, question in enumerate(["How many patients are over 65?", "How many patients over the age of 60 have gout?",
                                  "How many patients aged over 70 take metformin?"]):
        out, _ = run_graph({"question": question}, thread=f"age{n}", interactive=False, memory=False)
        assert out["answer"].startswith("The patient records hold conditions, medications and labs, not age."), out["answer"]
    out, _ = run_graph({"question": "How many patients have HbA1c above 7?"}, thread="age-lab", interactive=False, memory=False)
    assert "not age" not in out["answer"] and "HbA1c > 7" in out["answer"], out["answer"]
