""""both" in a follow-up stands for the thread's last two diseases (``agents.both_of``).

After "What treats gout?" and "and hypertension?", "what treats both?" was NOT_FOUND ("both" is not in the knowledge
graph); so was "does losartan help both?" after "I have high blood pressure and gout. What can I take?", which answered
for high blood pressure and offered "What drug treats gout?" next. "and hypertension?" itself linked the HPO sign
Hypertension, not Hypertensive disorder, which "What treats hypertension?" links.
"""

from __future__ import annotations

from conftest import in_thread

from agents.both_of import both_diseases
from agents.focus import Focus
from agents.resolution import Resolution
from agents.state import Status


def test_what_treats_both_after_two_diseases(run_graph) -> None:
    _gout, other, both = in_thread(run_graph, "both-chain", "What treats gout?", "and hypertension?", "what treats both?")
    assert other["understood_as"] == "What drug treats Hypertensive disorder?", other["understood_as"]
    assert both["understood_as"] == "What treats both Gout and Hypertensive disorder?", both["understood_as"]
    assert both["status"] is Status.ANSWERED and "for both Gout and Hypertensive disorder" in both["answer"], both["answer"]


def test_both_includes_the_disease_offered_next(run_graph) -> None:
    first, both = in_thread(run_graph, "both-offered", "I have high blood pressure and gout. What can I take?",
                            "does losartan help both?")
    assert first["also_asked"] == ["What drug treats gout?"], first["also_asked"]
    assert both["understood_as"] == "Does losartan help both Hypertensive disorder and Gout?", both["understood_as"]
    assert both["status"] is Status.ANSWERED and both["sources"] == ["MESH:D019808"], both["answer"]


def test_both_with_one_disease_is_left_alone(run_graph) -> None:
    _gout, both = in_thread(run_graph, "both-one", "What treats gout?", "what treats both?")
    assert " and " not in (both["understood_as"] or ""), both["understood_as"]  # no second disease to ask for


def test_the_disease_offered_next_is_the_newest_even_when_the_thread_named_it_before(resources) -> None:
    gout = {"id": "MESH:D006073", "name": "Gout", "type": "Disease"}
    high = {"id": "MESH:D006973", "name": "Hypertensive disorder", "type": "Disease"}
    focus = Focus(diseases=[high, gout], also_asked=["What drug treats gout?"])
    res = Resolution(question="what treats both?")
    assert both_diseases(res, "what treats both", focus, resources.linker) == "What treats both Hypertensive disorder and Gout?"


def test_what_treats_both_after_two_diseases_compared(run_graph) -> None:
    """"which drugs treat both?" after "what's the difference between type 1 and type 2 diabetes?" was NOT_FOUND: the
    comparison's answer listed the two, and only the first was the thread's disease."""
    _diff, both = in_thread(run_graph, "both-compared", "what's the difference between type 1 and type 2 diabetes?",
                            "which drugs treat both?")
    assert both["understood_as"] == "Which drugs treat both Diabetes mellitus type 1 and Diabetes mellitus type 2?", both["answer"]
    assert both["status"] is Status.ANSWERED and both["ranked_answers"], both["answer"]
