""""Which cancers involve EGFR?", "what diseases is TNF involved in?": the diseases the curated chains lead to from an
entity that is no drug, kept to the kind asked for (they were answered with what it is connected to, Gastritis first,
whatever kind the question named)."""

from __future__ import annotations

import re

import pytest

from agents.diseases_of import diseases_of_question
from agents.state import DISEASE_TYPES, Status
from tests.conftest import in_thread
from tools.answers import of_kind
from tools.walker import hops_between


def _listed(answer: str) -> list[str]:
    got = re.search(r"\(personalized PageRank downstream\): (.+?)\. Ask ", answer)
    assert got, answer
    text = got.group(1)
    return text.split("; ") if ";" in text else text.split(", ")


@pytest.mark.parametrize("question, name", [
    ("which cancers involve EGFR?", "Epidermal growth factor receptor"),
    ("what diseases is TNF involved in?", "Tumor necrosis factor"),
    ("what conditions are associated with the beta-2 receptor?", "Beta-2 adrenergic receptor"),
    ("what diseases does EGFR play a role in?", "Epidermal growth factor receptor"),
])
def test_the_question_names_an_entity_that_is_no_drug(resources, question: str, name: str) -> None:
    update = diseases_of_question(question, resources.linker)
    assert update is not None and update["intent"] == "diseases_of" and update["mentions"][0]["entity"]["name"] == name


@pytest.mark.parametrize("question", ["which diseases involve imatinib?", "which diseases involve asthma?",
                                      "What drugs treat gout?"])
def test_a_drug_or_a_disease_is_read_as_before(resources, question: str) -> None:
    assert diseases_of_question(question, resources.linker) is None


def test_the_diseases_are_reached_from_it_and_of_the_kind_asked(run_graph, resources) -> None:
    out, _ = run_graph({"question": "which cancers involve EGFR?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "diseases_of" and out["walk"] == {}, out["answer"]
    kg, egfr = resources.kg, resources.linker.link("EGFR").best.id
    names = _listed(out["answer"])
    ids = {kg.name(x): x for x in kg.entities if kg.node(x).type in DISEASE_TYPES}
    assert 1 <= len(names) <= 5 and "Gastritis" not in names, names
    for name in names:
        assert of_kind(kg, ids[name], "cancer") and hops_between(kg, [egfr], [ids[name]]) is not None, name
    every, _ = run_graph({"question": "which diseases involve EGFR?"}, thread="t2", interactive=False, memory=False)
    assert any(not of_kind(kg, ids[n], "cancer") for n in _listed(every["answer"])), every["answer"]


def test_a_listed_disease_is_the_thread_s(run_graph) -> None:
    listed, treats = in_thread(run_graph, "do", "which cancers involve EGFR?", "what drugs treat the first one?")
    first = _listed(listed["answer"])[0]
    assert treats["understood_as"] == f"What drugs treat {first}?" and treats["status"] is Status.ANSWERED, treats["answer"]


@pytest.mark.parametrize("question, name", [("What disease is associated with BRCA1?", "BRCA1"),
                                            ("which cancers involve foobarase?", "foobarase"),
                                            ("which diseases involve qwzx?", "qwzx")])
def test_a_name_the_graph_lacks_is_named(run_graph, question: str, name: str) -> None:
    """"What disease is associated with BRCA1?" and "which diseases involve qwzx?" were NOT_FOUND with "no known entity
    in the question" (the graph holds no BRCA1), and "is associated with" was no wording of this question."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and f'"{name}" is not in the knowledge graph' in out["answer"], out["answer"]
    egfr, _ = run_graph({"question": "what disease is associated with EGFR?"}, interactive=False, memory=False)
    assert egfr["intent"] == "diseases_of" and egfr["status"] is Status.ANSWERED, egfr["answer"]


@pytest.mark.parametrize("follow", ["what diseases is that target involved in?", "which cancers is that protein involved in?"])
def test_that_target_after_a_drug_s_targets_is_the_target(run_graph, follow: str) -> None:
    """It was NOT_FOUND: '"that target" is not in the knowledge graph', read before the thread was."""
    first, out = in_thread(run_graph, f"that-target-{follow}", "what targets does gefitinib hit?", follow)
    assert first["status"] is Status.ANSWERED and first["intent"] == "targets", first["answer"]  # "hit" was read as a name
    assert out["status"] is Status.ANSWERED and out["intent"] == "diseases_of", out["answer"]
    assert "Epidermal growth factor receptor" in out["understood_as"], out["answer"]


def test_the_first_one_after_a_drug_s_targets_is_its_first_target(run_graph) -> None:
    """It was NOT_FOUND: '"first one" is not in the knowledge graph'."""
    first, out = in_thread(run_graph, "first-target", "What does imatinib target?",
                           "which diseases is the first one involved in?")
    listed = first["ranked_answers"][0]["name"]
    assert out["status"] is Status.ANSWERED and out["intent"] == "diseases_of", out["answer"]
    assert out["understood_as"] == f"Which diseases is {listed} involved in?", out["answer"]


@pytest.mark.parametrize("question, kind", [("which cancers is imatinib involved in?", "cancer"),
                                            ("what diseases is aspirin linked to?", "")])
def test_the_diseases_a_drug_is_involved_in_are_what_it_treats(run_graph, question: str, kind: str) -> None:
    """They listed what the drug is connected to, its targets ("imatinib is connected to: Fusion Proteins, bcr-abl; …")."""
    (out,) = in_thread(run_graph, f"drug-involved-{question}", question)
    assert out["status"] is Status.ANSWERED and out["intent"] == "indications" and out["disease_kind"] == kind, out["answer"]
    assert out["ranked_answers"] and all(a["type"] in DISEASE_TYPES for a in out["ranked_answers"]), out["answer"]


@pytest.mark.parametrize(("follow", "understood"), [("what diseases is it used for?", "What diseases is rituximab used for?"),
                                                   ("what conditions is it prescribed for?",
                                                    "What conditions is rituximab prescribed for?")])
def test_what_diseases_it_is_used_for_after_a_drug_is_what_the_drug_treats(run_graph, follow: str, understood: str) -> None:
    """It was NOT_FOUND: '"it used for" is not in the knowledge graph' (read as an entity's diseases before the thread
    was read)."""
    _first, out = in_thread(run_graph, f"used-for-{follow}", "How does rituximab work?", follow)
    assert out["status"] is Status.ANSWERED and out["intent"] == "indications", out["answer"]
    assert out["understood_as"] == understood, out["answer"]
