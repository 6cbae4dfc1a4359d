""""What are alternatives to ibuprofen?", "What can I use instead of aspirin?": other drugs that act on what the drug
acts on, the same way, the drug left out. They were answered with what the drug is connected to."""

from __future__ import annotations

import pytest

from agents.alternatives import alternatives_to
from agents.resolution import Resolution
from agents.state import Status
from tools.answers import acting_on


@pytest.mark.parametrize(("question", "asked"), [
    ("What are alternatives to ibuprofen?", "Which other drugs inhibit Prostaglandin G/H synthase 2?"),
    ("What can I use instead of aspirin?", "Which other drugs inhibit Prostaglandin G/H synthase 2?"),
    # the target the most statins act on, not the lipoprotein lipase atorvastatin also raises
    ("which drugs work like atorvastatin?", "Which other drugs inhibit 3-hydroxy-3-methylglutaryl-coenzyme A reductase?"),
    ("alternatives for warfarin", "Which other drugs inhibit Vitamin K epoxide reductase complex subunit 1?"),
])
def test_an_alternative_acts_on_the_drug_s_target_the_same_way(resources, question: str, asked: str) -> None:
    out = alternatives_to(resources, Resolution(question=question))
    assert out.question == asked
    drug = out.references[-1]["drug"]
    assert out.excluded == [drug] and out.references[-1]["how"] == "alternatives"
    assert drug in acting_on(resources.kg, out.references[-1]["entity"]["id"], ("Drug",))


@pytest.mark.parametrize("question", ["What can I take instead of gout?", "What are alternatives to zorblaxin?",
                                      "What are the alternatives?", "How does ibuprofen treat pain?"])
def test_other_questions_are_read_as_before(resources, question: str) -> None:
    assert alternatives_to(resources, Resolution(question=question)).question == question


def test_alternatives_are_answered_without_the_drug(run_graph) -> None:
    out, _ = run_graph({"question": "What are alternatives to ibuprofen?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targeted_by", out["answer"]
    assert "Alternatives by mechanism, Ibuprofen left out." in out["answer"]
    assert "Ibuprofen" not in [a["name"] for a in out["ranked_answers"]] and len(out["ranked_answers"]) == 5


def test_alternatives_to_the_thread_s_drug(run_graph) -> None:
    run_graph({"question": "How does warfarin work?"}, thread="alt", interactive=False, memory=False)
    out, _ = run_graph({"question": "what are the alternatives to it?"}, thread="alt", interactive=False, memory=False)
    assert out["understood_as"] == "Which other drugs inhibit Vitamin K epoxide reductase complex subunit 1?", out["answer"]
    assert "warfarin" not in [a["name"] for a in out["ranked_answers"]]


def test_the_alternatives_after_a_mechanism_are_other_drugs_for_its_disease(run_graph) -> None:
    """It was NOT_FOUND ("no known entity in the question")."""
    run_graph({"question": "How does colchicine treat gout?"}, thread="alt2", interactive=False, memory=False)
    out, _ = run_graph({"question": "what are the alternatives?"}, thread="alt2", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == "Which other drugs treat Gout?", out["answer"]
    assert "colchicine" not in [a["name"] for a in out["ranked_answers"]]


def test_an_ordinal_after_a_patient_s_conditions_picks_a_condition(run_graph) -> None:
    """"what drugs treat the first one?" after "What conditions does PAT_003 have?" was NOT_FOUND: the answer recorded
    no list to pick from."""
    first, _ = run_graph({"question": "What conditions does PAT_003 have?"}, thread="pc", interactive=False, memory=False)
    condition = first["answer"].split("conditions: ")[1].split(",")[0]
    out, _ = run_graph({"question": "what drugs treat the first one?"}, thread="pc", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == f"What drugs treat {condition}?", out["answer"]
