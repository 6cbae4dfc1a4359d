""""What does diabetes cause?" was NOT_FOUND ("no known entity in the question": "diabetes" is no whole name), "what does
gout cause?" listed the drugs for gout with no word that the graph holds nothing a disease leads to (its curated chains
end at diseases), and "what does aspirin cause?" was told what aspirin is connected to, with no word on side effects."""

from __future__ import annotations

import pytest

from agents.intent import out_of_scope
from agents.state import Status

_PROGNOSES = "The knowledge graph holds curated drug mechanisms, not symptoms or prognoses of diseases. What it holds: "


@pytest.mark.parametrize("question", ["what does gout cause?", "what does gout lead to?", "what does diabetes cause?",
                                      "what does hypertension lead to?"])
def test_what_a_disease_leads_to_is_said_to_be_outside_the_graph(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and _PROGNOSES in out["answer"], out["answer"]
    assert out["answer"].startswith(('"diabetes" fits several entries', _PROGNOSES)), out["answer"]


def test_what_a_drug_causes_is_a_side_effect(run_graph) -> None:
    out, _ = run_graph({"question": "what does aspirin cause?"}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not side effects. What it holds: "), out["answer"]


def test_what_a_disease_does_is_still_its_signs(run_graph) -> None:
    out, _ = run_graph({"question": "what does gout do?"}, interactive=False, memory=False)
    assert out["intent"] == "signs" and _PROGNOSES not in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["is gout an autoimmune disease?", "is CML a type of leukemia?", "is asthma a chronic condition?"])
def test_how_a_disease_is_classified_is_said_to_be_outside_the_graph(run_graph, question: str) -> None:
    """These listed the disease's drugs, or what it is connected to, with no word on it."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not how diseases are classified. "
                                    "What it holds: "), out["answer"]


@pytest.mark.parametrize("question", ["Why is prednisolone used for Autoimmune Diseases?", "why are statins commonly used in heart disease?"])
def test_a_disease_named_after_a_drug_is_no_classification(question: str) -> None:
    assert out_of_scope(question) != "how diseases are classified"


def test_a_type_of_a_class_asks_whether_the_drug_is_one(run_graph) -> None:
    """"is atorvastatin a type of statin?" read "type of statin" as the class and was told what atorvastatin is connected to."""
    out, _ = run_graph({"question": "is atorvastatin a type of statin?"}, interactive=False, memory=False)
    assert out["answer"].startswith("Yes: atorvastatin is one of the statins"), out["answer"]
