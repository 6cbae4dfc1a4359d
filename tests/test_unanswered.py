"""A question whose clarification was left pending is still the thread's latest: follow-ups and replies read it."""

from __future__ import annotations

from typing import Any

from test_conversation import _turn

IMATINIB_CML = "How does imatinib treat CML (ph+)?"
METFORMIN_DIABETES = "How does metformin treat diabetes?"


def _pending(run_graph: Any, thread: str) -> dict[str, Any]:
    _turn(run_graph, thread, {"question": IMATINIB_CML})  # an answered turn before it, about another drug
    pending = _turn(run_graph, thread, {"question": METFORMIN_DIABETES})
    assert pending["status"] == "NEEDS_CLARIFICATION" and pending["interrupt"]["mention"] == "diabetes", pending
    return pending


def _named(resources: Any, ids: list[str]) -> list[str]:
    return [resources.kg.node(i).name.casefold() for i in ids]


def test_a_follow_up_over_a_pending_clarification_keeps_its_drug(run_graph, resources) -> None:
    """"What about gout?" was "How does imatinib treat Gout?": the pending question had no record in the thread."""
    _pending(run_graph, "gout")
    out = _turn(run_graph, "gout", {"question": "What about gout?"})
    assert _named(resources, out["sources"]) == ["metformin"] and _named(resources, out["targets"]) == ["gout"], out
    assert out["understood_as"].casefold() == "how does metformin treat gout?"


def test_a_drug_swapped_over_a_pending_clarification_asks_the_same_thing_again(run_graph) -> None:
    """"What about insulin?": the disease is still the ambiguous "diabetes", so the planner asks which one again (it was
    answered with what insulin is connected to)."""
    pending = _pending(run_graph, "insulin")
    again = _turn(run_graph, "insulin", {"question": "What about insulin?"})
    assert again["status"] == "NEEDS_CLARIFICATION" and again["interrupt"]["mention"] == "diabetes", again
    assert {c["id"] for c in again["interrupt"]["candidates"]} & {c["id"] for c in pending["interrupt"]["candidates"]}


def test_a_reply_that_picks_an_option_answers_the_pending_question(run_graph, resources) -> None:
    """Sent as a new question instead of a resume, "type 2 diabetes" was "What drugs treat Diabetes mellitus type 2?",
    and "2" was an error ("the question has no words")."""
    options = _pending(run_graph, "pick")["interrupt"]["candidates"]
    type2 = next(c for c in options if c["name"].casefold().endswith("type 2"))
    out = _turn(run_graph, "pick", {"question": "type 2 diabetes"})
    assert out["targets"] == [type2["id"]] and _named(resources, out["sources"]) == ["metformin"], out
    assert out["intent"] == "mechanism" and out["references"][0]["how"] == "clarified"
    _turn(run_graph, "pick2", {"question": METFORMIN_DIABETES})
    second = _turn(run_graph, "pick2", {"question": "2"})
    assert second["status"] != "ERROR" and second["targets"] == [options[1]["id"]], second


def test_a_reply_that_picks_nothing_is_a_question_of_its_own(run_graph, resources) -> None:
    _pending(run_graph, "own")
    out = _turn(run_graph, "own", {"question": "What does aspirin target?"})
    assert _named(resources, out["sources"]) == ["aspirin"] and out["understood_as"] == "", out
    _turn(run_graph, "own2", {"question": METFORMIN_DIABETES})
    assert _turn(run_graph, "own2", {"question": "7"})["status"] == "ERROR"  # no seventh option: no words
