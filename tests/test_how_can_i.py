"""What a person can do about a disease ("how can I lower gout?", "how do I get rid of gout?"), and which of two
compared drugs is cheaper or older."""

from __future__ import annotations

import pytest

from agents.intent import parse_question
from agents.state import Intent, Status
from tests.conftest import in_thread


@pytest.mark.parametrize(("question", "disease"), [
    ("how can I lower gout?", "gout"),
    ("how do I get rid of gout?", "gout"),
    ("how can I prevent migraines?", "migraines"),
    ("how can I reduce my uric acid?", "high uric acid"),
    ("how should you manage asthma?", "asthma"),
])
def test_how_a_person_acts_on_a_disease_asks_what_treats_it(question: str, disease: str) -> None:
    """"I" was read as a drug ("I" is not in the knowledge graph; did you mean Angiotensin I …?), and "get rid of"
    as getting the disease (what causes gout)."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.TREATS and parsed.disease == disease, parsed


def test_how_a_person_gets_a_disease_still_asks_what_causes_it() -> None:
    parsed = parse_question("how do I get gout?")
    assert parsed is not None and parsed.intent is Intent.CAUSES


def test_how_can_i_lower_it_after_what_causes_gout_lists_the_drugs_for_gout(run_graph) -> None:
    _, out = in_thread(run_graph, "lower-it", "What causes gout?", "how can I lower it?")
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats" and out["ranked_answers"], out["answer"]


@pytest.mark.parametrize(("question", "note"), [
    ("which one is cheaper?", "prices"),
    ("which one is older?", "who discovered drugs or when they were approved"),
    ("which is newer?", "who discovered drugs or when they were approved"),
])
def test_which_of_two_compared_drugs_is_cheaper_or_older_compares_them(run_graph, question: str, note: str) -> None:
    """"which one is cheaper?" was "Which one is cheaper of allopurinol?", febuxostat dropped; "which one is older?"
    was NOT_FOUND, "no known entity in the question"."""
    _, out = in_thread(run_graph, f"quality-{question}", "compare allopurinol and febuxostat", question)
    assert out["understood_as"] == "Compare allopurinol and Febuxostat", out["answer"]
    assert f"The knowledge graph holds curated drug mechanisms, not {note}. What it holds: " in out["answer"], out["answer"]


def test_older_as_a_qualifier_of_patients_is_not_about_approval(run_graph) -> None:
    out, _ = run_graph({"question": "What drugs treat gout in older adults?"}, interactive=False, memory=False)
    assert "when they were approved" not in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["can children take montelukast?", "can my son take ibuprofen?",
                                      "should older adults take aspirin?"])
def test_who_may_take_a_drug_by_age_says_the_graph_does_not_hold_it(run_graph, question: str) -> None:
    """Each was answered with what the drug is connected to, as if the question had been what it targets."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not who may take a drug by age. "
                                    "What it holds: "), out["answer"]


def test_a_disease_in_children_is_still_a_population_and_no_refusal(run_graph) -> None:
    out, _ = run_graph({"question": "What drugs treat asthma in children?"}, interactive=False, memory=False)
    assert "who may take a drug by age" not in out["answer"] and out["ranked_answers"], out["answer"]


@pytest.mark.parametrize(("question", "disease"), [
    ("what are the newest drugs for hepatitis C?", "Chronic hepatitis C"),  # was NOT_FOUND: "no known entity"
    ("what are the latest treatments for gout?", "Gout"),  # the two below had no note
    ("which drugs for gout were approved most recently?", "Gout"),
])
def test_the_newest_drugs_for_a_disease_are_its_drugs_with_the_note(run_graph, question: str, disease: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats" and out["ranked_answers"], out["answer"]
    assert ("The knowledge graph holds curated drug mechanisms, not who discovered drugs or when they were approved. What "
            f"it holds: Drugs with a verified mechanism for {disease}: ") in out["answer"], out["answer"]


def test_a_patient_s_latest_result_is_not_about_approval(run_graph) -> None:
    out, _ = run_graph({"question": "what is PAT_006's latest HbA1c?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and "when they were approved" not in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["my son has asthma, what are his options?", "my son has asthma. What are his options?"])
def test_someone_s_options_for_a_disease_they_have_are_its_drugs(question: str) -> None:
    """They were answered with what asthma is connected to."""
    p = parse_question(question)
    assert p is not None and (p.intent, p.disease) == (Intent.TREATS, "asthma")
