""""How does metformin treat type 2 diabetes and what are its targets?": the first answered, the second offered next
(it was NOT_FOUND: "its" had nothing earlier to refer to)."""

from __future__ import annotations

import pytest

from agents.state import Status
from agents.two_questions import accepted_offer, two_questions
from tests.conftest import in_thread


@pytest.mark.parametrize("question, first, then", [
    ("How does metformin treat type 2 diabetes and what are its targets?", "How does metformin treat type 2 diabetes?",
     ["What are its targets?"]),
    ("How does imatinib treat CML? What does it target?", "How does imatinib treat CML?", ["What does it target?"]),
    ("What drugs treat gout, and what causes it?", "What drugs treat gout?", ["What causes it?"]),
    # one question: a slot that lists two names, a link between two names, a first part that refers back
    ("How does imatinib and dasatinib treat CML?", "How does imatinib and dasatinib treat CML?", []),
    ("Is there a link between aspirin and ulcers?", "Is there a link between aspirin and ulcers?", []),
    ("what about dasatinib and what does it target?", "what about dasatinib and what does it target?", []),
    ("Which drugs treat gout and are safe in pregnancy?", "Which drugs treat gout and are safe in pregnancy?", []),
    ("How does aspirin work, and is it safe?", "How does aspirin work?", ["Is it safe?"]),
])
def test_two_questions_in_one_message(question: str, first: str, then: list[str]) -> None:
    assert two_questions(question) == (first, then)


def test_the_second_question_is_offered_and_resolves_against_the_first_answer(run_graph) -> None:
    out, _ = run_graph({"question": "what does imatinib target and which drugs also inhibit it?"}, thread="two",
                       interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targets"
    assert out["also_asked"] == ["Which drugs also inhibit it?"] and 'You also asked: "Which drugs also inhibit it?"' in out["answer"]
    first = out["ranked_answers"][0]["name"]
    out, _ = run_graph({"question": "Which drugs also inhibit it?"}, thread="two", interactive=False, memory=False)
    assert out["understood_as"] == f"Which drugs also inhibit {first}?", out["understood_as"]  # the target, not imatinib


@pytest.mark.parametrize("question", ["what do gout drugs target?", "What do drugs for gout target?",
                                      "What are the targets of drugs used for gout?", "What proteins do gout drugs target?",
                                      "What is the target of the drug used for gout?"])
def test_what_a_disease_s_drugs_act_on_is_asked_as_two_questions(run_graph, question: str) -> None:
    """They were NOT_FOUND: "gout drugs" was read as gout, and "drugs used" as a name."""
    assert two_questions(question) == ("What drugs treat gout?", ["What do they target?"])
    out, _ = run_graph({"question": question}, thread=f"their-{question}", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats" and out["also_asked"] == ["What do they target?"]
    then, _ = run_graph({"question": "What do they target?"}, thread=f"their-{question}", interactive=False, memory=False)
    assert then["understood_as"] == "What do the listed drugs target?" and then["status"] is Status.ANSWERED


def test_a_class_or_a_reference_before_drugs_is_not_a_disease(resources) -> None:
    for q in ("what do beta blocker drugs target?", "what do these drugs target?", "what do the listed drugs target?",
              "how does this drug work?", "how does the new drug work?", "what proteins do these drugs target?"):
        assert two_questions(q, resources.linker.drug_class)[1] == [], q


def test_a_second_protein_in_a_mechanism_slot_is_offered_as_what_the_drug_acts_on(run_graph) -> None:
    """"how does ibuprofen work on COX-1 and COX-2?" offered "How does ibuprofen treat COX-2?" next."""
    out, _ = run_graph({"question": "how does ibuprofen work on COX-1 and COX-2?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["also_asked"] == ["How does ibuprofen act on COX-2?"], out["also_asked"]
    gist, _ = run_graph({"question": "How does imatinib treat CML and GIST?"}, interactive=False, memory=False)
    assert gist["also_asked"] == ["How does imatinib treat GIST?"], gist["also_asked"]


@pytest.mark.parametrize("question, yes", [
    ("Does losartan help both hypertension and gout?", "Yes for Hypertensive disorder: "),
    ("Does ibuprofen help with fever? And does it help with gout?", "Yes for Fever: "),
])
def test_a_yes_names_which_of_two_questions_it_answers(run_graph, question: str, yes: str) -> None:
    """It said "Yes: " and offered the second disease next, as if the yes covered both. (Two drugs for one disease,
    "Do imatinib and dasatinib treat CML?", are now asked of each at once: ``tests/test_compared_sides.py``.)"""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["answer"].startswith(yes) and out["also_asked"], out["answer"][:120]
    alone, _ = run_graph({"question": "Does losartan help hypertension?"}, interactive=False, memory=False)
    assert alone["answer"].startswith("Yes: "), alone["answer"][:80]


@pytest.mark.parametrize("reply", ["yes", "yes please", "sure, go ahead", "ok"])
def test_a_reply_that_accepts_the_offer_asks_it(run_graph, reply: str) -> None:
    """"yes" after 'You also asked: "…" Ask it next.' was NOT_FOUND, '"yes" is not in the knowledge graph'."""
    first, then = in_thread(run_graph, f"offer {reply}", "How does metformin treat type 2 diabetes and what are its targets?",
                            reply)
    assert first["also_asked"] == ["What are its targets?"], first["answer"]
    assert then["understood_as"] == "What are the targets of Metformin?" and then["status"] is Status.ANSWERED, then["answer"]
    assert then["answer"].startswith('Understood as: "What are the targets of Metformin?" Metformin acts on: ')


def test_a_yes_with_no_offer_is_left_alone() -> None:
    assert accepted_offer("yes", []) is None
    assert accepted_offer("yes, but what about gout?", ["What does it treat?"]) is None
    assert accepted_offer("Go ahead.", ["What does it treat?", "What causes it?"]) == "What does it treat?"


@pytest.mark.parametrize("question, first, then", [
    # it answered the side effects alone and dropped "how does it work?" without a word
    ("What are the side effects of metformin and how does it work?", "What are the side effects of metformin?",
     ["How does it work?"]),
    ("is ibuprofen safe during pregnancy? what does it treat?", "is ibuprofen safe during pregnancy?", ["What does it treat?"]),
])
def test_a_first_question_the_graph_cannot_answer_still_offers_the_second(question: str, first: str, then: list[str]) -> None:
    assert two_questions(question) == (first, then)


def test_the_note_on_what_the_graph_lacks_belongs_to_the_question_it_answers(run_graph) -> None:
    """"How does metformin treat diabetes? And what about its side effects?" opened the mechanism with "The knowledge
    graph holds curated drug mechanisms, not side effects. What it holds: …", though it answered the first question."""
    out, _ = run_graph({"question": "How does metformin treat diabetes? And what about its side effects?"},
                       thread="note-two", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["also_asked"] == ["What about its side effects?"], out["answer"]
    assert "not side effects" not in out["answer"] and "Metformin acts on Diabetes mellitus" in out["answer"], out["answer"]
    out, _ = run_graph({"question": "yes"}, thread="note-two", interactive=False, memory=False)
    assert "The knowledge graph holds curated drug mechanisms, not side effects." in out["answer"], out["answer"]
