""""What treats migraines in children?" links the disease without the population, and says the graph does not
distinguish it; it was NOT_FOUND ("migraines in children" is not in the knowledge graph), and "How does imatinib
treat CML in children?" dropped "in children" without a word."""

from __future__ import annotations

import pytest

from agents.followup import resolve_followup
from agents.state import Status
from tests.conftest import in_thread


def test_a_population_at_the_end_is_a_qualifier(resources) -> None:
    res = resolve_followup("what treats migraines in children?", [], resources.linker)
    assert res.question == "what treats migraines?" and res.qualifier == "children"
    assert res.understood == "what treats migraines in children?"
    # a population that is the whole follow-up, with nothing to repeat, is not stripped into an empty question
    assert resolve_followup("and in children?", [], resources.linker).question == "and in children?"


def test_the_answer_says_the_graph_does_not_distinguish_it(run_graph) -> None:
    for q, pop, lead in (("what treats migraines in children?", "children", "Drugs with a verified mechanism for Migraine"),
                         ("How does imatinib treat CML in pregnancy?", "pregnancy", "imatinib acts on Chronic myeloid leukemia")):
        out, _ = run_graph({"question": q}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED, out["answer"]
        assert out["answer"].startswith(f'Understood as: "{q}" DrugMechDB does not distinguish {pop}; this is the general '
                                        f"mechanism. {lead}"), out["answer"]


def test_an_organ_after_a_question_about_a_drug_is_a_qualifier(run_graph, resources) -> None:
    """"what does metformin target in the liver?" and "how does metformin work in the liver?" were NOT_FOUND ("no chain
    of relations from Metformin to liver"). An organ after a question that names no drug is what it asks about."""
    res = resolve_followup("what does metformin target in the liver?", [], resources.linker)
    assert res.question == "what does metformin target?" and res.qualifier == "the liver"
    assert resolve_followup("which genes are expressed in the liver?", [], resources.linker).qualifier == ""
    for q, lead in (("what does metformin target in the liver?", "Metformin acts on: "),
                    ("how does metformin work in the liver?", "")):
        out, _ = run_graph({"question": q}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED, out["answer"]
        assert out["answer"].startswith(f'Understood as: "{q}" DrugMechDB does not distinguish the liver; this is the general '
                                        f"mechanism. {lead}"), out["answer"]


def test_what_a_drug_does_to_an_organ_is_a_qualifier(run_graph, resources) -> None:
    """"what does acetaminophen do to the liver?" asked which liver disease was meant (Hepatic encephalopathy first),
    as if the liver were the disease asked about."""
    q = "what does acetaminophen do to the liver?"
    assert resolve_followup(q, [], resources.linker).qualifier == "the liver"
    out, _ = run_graph({"question": q}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targets", out["answer"]
    assert "DrugMechDB does not distinguish the liver; this is the general mechanism. Acetaminophen acts on: " in out["answer"]


def test_how_a_drug_affects_an_organ_is_how_it_works_there(run_graph, resources) -> None:
    """"how does metformin affect the liver?" asked which liver disease was meant and answered for Hepatic Veno-Occlusive
    Disease."""
    res = resolve_followup("How does metformin affect the liver?", [], resources.linker)
    assert (res.question, res.qualifier) == ("How does metformin work?", "the liver"), res
    out, _ = run_graph({"question": "How does metformin affect the liver?"}, interactive=False, memory=False)
    assert out["answer"].startswith('Understood as: "How does metformin work in the liver?" DrugMechDB does not distinguish '
                                    "the liver; this is the general mechanism. Metformin acts on: "), out["answer"]


@pytest.mark.parametrize(("turns", "understood"), [
    (("are statins safe?", "what about in pregnancy?"), "Are statins safe in pregnancy?"),
    (("how do statins work?", "and in children?"), "How do statins work in children?"),
])
def test_a_population_after_a_drug_class_asks_the_class_s_question_again(run_graph, turns, understood: str) -> None:
    """They were NOT_FOUND: '"in pregnancy" is not in the knowledge graph' (a class's turn names no drug)."""
    out = in_thread(run_graph, f"class-qualifier-{turns[1]}", *turns)[-1]
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    assert "DrugMechDB does not distinguish" in out["answer"] and "Statins in the knowledge graph act on" in out["answer"]


@pytest.mark.parametrize(("question", "asked", "condition"), [
    ("what can I take for a headache if I have high blood pressure?", "what can I take for a headache?",
     "high blood pressure"),  # answered for hypertension: the disease slot read the whole clause
    ("what is good for a cold when I have diabetes?", "what is good for a cold?", "diabetes"),
])
def test_a_condition_beside_the_disease_is_a_qualifier(resources, question: str, asked: str, condition: str) -> None:
    res = resolve_followup(question, [], resources.linker)
    assert res.question == asked and res.qualifier == condition, res


def test_the_condition_alone_is_the_disease_asked(resources) -> None:
    assert resolve_followup("what can I take if I have gout?", [], resources.linker).qualifier == ""


def test_a_condition_beside_is_answered_for_the_disease_asked(run_graph) -> None:
    out, _ = run_graph({"question": "what can I take for a headache if I have high blood pressure?"}, interactive=False,
                       memory=False)
    assert out["status"] is Status.ANSWERED and "DrugMechDB does not distinguish high blood pressure" in out["answer"]
    assert "Drugs with a verified mechanism for Headache disorder: " in out["answer"], out["answer"]


def test_one_person_is_a_population_too(run_graph) -> None:
    """"and for a child?" after how amoxicillin treats pneumonia was "How does Amoxicillin treat a child?", NOT_FOUND."""
    _first, out = in_thread(run_graph, "a-child", "how does amoxicillin treat pneumonia?", "and for a child?")
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert "DrugMechDB does not distinguish children; this is the general mechanism." in out["answer"], out["answer"]
    assert "Pneumonia" in out["answer"], out["answer"]
