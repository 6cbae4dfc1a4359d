""""My doctor prescribed metformin. How does it work?": the question's "it" is the one name the sentence before it
holds. The message was answered with what metformin is connected to (the whole message scanned for names)."""

from __future__ import annotations

import pytest

from agents.preamble import evidence_asked, instead_compared, why_compared, with_preamble
from agents.state import Status


@pytest.mark.parametrize(("message", "question"), [
    ("my doctor prescribed metformin. how does it work?", "how does metformin work?"),
    ("I was told to take warfarin. What does it target?", "What does warfarin target?"),
    ("I take lisinopril. What are its side effects?", "What are lisinopril's side effects?"),
    ("My father is on imatinib! Is this drug a kinase inhibitor?", "Is imatinib a kinase inhibitor?"),
    # the drug, and what it is taken for: a question only of how it works asks about that
    ("I take lisinopril for my blood pressure. How does it work?", "How does lisinopril work for my blood pressure?"),
    ("I take metformin for my diabetes. How does it help?", "How does metformin help with my diabetes?"),
    ("My doctor gave me ibuprofen for my back pain. What does it do?", "What does ibuprofen do for my back pain?"),
    ("I'm on imatinib for CML. What does it target?", "What does imatinib target?"),  # a question of its own
    ("I take lisinopril for my blood pressure. What are its side effects?", "What are lisinopril's side effects?"),
    # after a comma, a dash or a semicolon, when the statement is of someone taking a drug
    ("i was prescribed atorvastatin, what does it do?", "what does atorvastatin do?"),
    ("my mom is on warfarin - what is it used for?", "what is warfarin used for?"),
    ("I take metformin; can it cause lactic acidosis?", "can metformin cause lactic acidosis?"),
])
def test_it_is_the_name_the_sentence_before_holds(resources, message: str, question: str) -> None:
    assert with_preamble(message, resources.linker) == question


@pytest.mark.parametrize("message", [
    "My mom takes aspirin and metformin. Is it safe?",  # two names: "it" could be either
    "I feel awful. How does it work?",  # no name
    "I have gout. What can I take?",  # no "it"
    "How does imatinib treat CML? What does it target?",  # two questions (agents.two_questions)
    "My mom takes aspirin and metformin for her heart. How does it work?",  # two drugs for one purpose
    "For gout, is it safe to take ibuprofen?",  # a comma after no statement of someone taking a drug
])
def test_other_messages_are_left_as_they_are(resources, message: str) -> None:
    assert with_preamble(message, resources.linker) == message


def test_the_question_is_answered_about_the_drug_named_before_it(run_graph) -> None:
    out, _ = run_graph({"question": "My doctor prescribed metformin. How does it work?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targets", out["answer"]
    assert out["answer"].startswith("Metformin acts on: "), out["answer"]


def test_a_drug_taken_for_a_measure_is_answered_for_what_it_treats(run_graph) -> None:
    """"I take lisinopril for my blood pressure. How does it work?" was NOT_FOUND: the sentence named two entities, so
    the message was asked whole, as a mechanism from lisinopril to the measure Blood pressure, which no chain reaches."""
    out, _ = run_graph({"question": "I take lisinopril for my blood pressure. How does it work?"}, interactive=False,
                       memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism", out["answer"]
    assert out["answer"].startswith("lisinopril acts on Hypertensive disorder through"), out["answer"]


@pytest.mark.parametrize(("message", "question"), [
    ("Is there evidence that vitamin D prevents fractures?", "Does vitamin D prevent fractures?"),
    ("is there any evidence that imatinib treats CML", "Does imatinib treat CML?"),
    ("What is the evidence that aspirin reduces heart attacks?", "Does aspirin reduce heart attacks?"),
    ("is there evidence that it works?", "is there evidence that it works?"),  # a pronoun: left to the thread
    ("What is the evidence for imatinib?", "What is the evidence for imatinib?"),  # no claim in it
])
def test_a_question_for_evidence_is_asked_as_the_claim_inside_it(message: str, question: str) -> None:
    assert evidence_asked(message) == question


def test_a_question_for_evidence_is_answered_as_its_claim(run_graph) -> None:
    """"is there evidence that imatinib treats CML?" was answered with what imatinib and CML are connected by, as a
    relation; "Is there evidence that vitamin D prevents fractures?" with what vitamin D is connected to, the fractures
    dropped without a word."""
    out, _ = run_graph({"question": "is there any evidence that imatinib treats CML?"}, interactive=False, memory=False)
    assert out["intent"] == "mechanism" and out["answer"].startswith("Yes: imatinib acts on Chronic myeloid leukemia"), out["answer"]
    lacking, _ = run_graph({"question": "Is there evidence that vitamin D prevents fractures?"}, interactive=False, memory=False)
    assert lacking["status"] is Status.NOT_FOUND and '"fractures" is not in the knowledge graph' in lacking["answer"]


@pytest.mark.parametrize(("message", "question"), [
    ("Why is rizatriptan better than zolmitriptan for migraine?", "Is rizatriptan better than zolmitriptan for migraine?"),
    ("why does ibuprofen work better than acetaminophen", "Does ibuprofen work better than acetaminophen?"),
    ("why is it better than colchicine?", "Is it better than colchicine?"),  # the thread's drug, as before
    ("Why is imatinib used for CML?", "Why is imatinib used for CML?"),  # no comparison
])
def test_a_why_question_around_a_comparison_is_asked_as_the_comparison(message: str, question: str) -> None:
    assert why_compared(message) == question


@pytest.mark.parametrize(("message", "question"), [
    ("Can I take ibuprofen instead of aspirin for a heart attack?", "Is ibuprofen better than aspirin for a heart attack?"),
    ("should I use naproxen rather than ibuprofen", "Is naproxen better than ibuprofen?"),
    ("What can I take instead of ibuprofen?", "What can I take instead of ibuprofen?"),  # one drug: its alternatives
])
def test_one_drug_instead_of_another_is_asked_as_the_comparison(message: str, question: str) -> None:
    assert instead_compared(message) == question


@pytest.mark.parametrize("message", ["Can I take ibuprofen instead of aspirin for a heart attack?",
                                     "Is acetaminophen a good substitute for ibuprofen?", "Can I switch from lisinopril to losartan?"])
def test_whether_one_drug_can_replace_another_compares_them_and_says_the_graph_does_not_hold_it(run_graph, message: str) -> None:
    """The first was answered "Yes: Ibuprofen acts on Myocardial infarction …" ("instead of aspirin" read into the drug's
    name); the others were NOT_FOUND, a chain looked for from one drug to the other."""
    out, _ = run_graph({"question": message}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not whether one drug can replace "
                                    "another. What it holds: "), out["answer"]
    assert out["compared"] is True, out["answer"]  # the two drugs side by side


def test_a_drug_allergy_said_before_the_question_gets_the_note(run_graph) -> None:
    """"I'm allergic to penicillin. What antibiotics can I take for pneumonia?" listed drugs with no word that the graph
    knows nothing of allergies (a cephalosporin among them). A disease named "allergic …" gets no such note."""
    out, _ = run_graph({"question": "I'm allergic to penicillin. what antibiotics can I take for pneumonia?"},
                       interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not allergies to drugs."), out["answer"]
    rhinitis, _ = run_graph({"question": "what treats allergic rhinitis?"}, interactive=False, memory=False)
    assert "allergies" not in rhinitis["answer"], rhinitis["answer"]


@pytest.mark.parametrize(("message", "understood", "left_out"), [
    ("My dad has gout and takes allopurinol. What else could help?", "Which other drugs treat gout?", "allopurinol"),
    ("I take metformin for diabetes. Are there alternatives?", "Which other drugs treat diabetes?", "Metformin"),
    ("my mom is on warfarin for atrial fibrillation - what else can she take?", "Which other drugs treat atrial fibrillation?",
     "warfarin"),
])
def test_a_request_for_another_drug_after_a_statement_asks_for_the_alternatives(run_graph, message: str, understood: str,
                                                                                left_out: str) -> None:
    """It was answered with how the drug treats the disease, or by what acts on the drug's target, the question dropped
    (since stop 101)."""
    out, _ = run_graph({"question": message}, interactive=False, memory=False)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    assert f"{left_out} left out" in out["answer"] and left_out not in [a["name"] for a in out["ranked_answers"]], out["answer"]


@pytest.mark.parametrize("question", ["what drugs besides allopurinol treat gout?",
                                      "which medications other than allopurinol are used for gout?"])
def test_a_drug_left_out_before_the_verb_is_left_out(run_graph, question: str) -> None:
    """"What drugs besides allopurinol treat gout?" listed allopurinol third, the words dropped (since stop 101)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["answer"].startswith("Leaving out allopurinol, as asked."), out["answer"]
    assert [a["name"] for a in out["ranked_answers"]][:2] == ["Febuxostat", "pegloticase"], out["answer"]
