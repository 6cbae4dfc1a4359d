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


def _listed(answer: str, before: str = r"\(personalized PageRank downstream\)") -> list[str]:
    """The diseases an answer lists after ``before`` (a pattern) and up to its "Ask …" (a count of more left off)."""
    got = re.search(before + r": (.+?)(?: \(\d+ more\))?\. Ask ", answer)
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


def _of_place(answer: str) -> list[str]:
    return _listed(answer, "or names for it, the most specific first")


@pytest.mark.parametrize("question, place", [
    ("which diseases affect the kidneys?", "Kidney"),  # NOT_FOUND, "no known entity in the question"
    ("which diseases affect the liver?", "liver"),  # "liver is connected to: Testosterone"
    ("kidney diseases", "Kidney"),  # "Kidney is connected to: Nephroblastoma, Pain, Bronchiectasis"
    ("what are the diseases of the ovary?", "ovary"),  # "ovary is connected to: Malignant tumor of ovary"
])
def test_the_diseases_of_a_place_are_those_put_in_it_or_named_for_it(run_graph, resources, question: str, place: str) -> None:
    """The diseases of a place in the body: each listed one is put there by an edge or names the place (or its
    adjective, renal), and none of the generic ones in many places comes first."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "diseases_of", out["answer"]
    kg = resources.kg
    pid = next(x for x in kg.entities if kg.name(x) == place and kg.node(x).type == "GrossAnatomicalStructure")
    put = {kg.name(e.tail) for e in kg.out_edges(pid)} | {kg.name(e.head) for e in kg.in_edges(pid)}
    words = {"kidney": ("kidney", "renal"), "liver": ("liver", "hepatic"), "ovary": ("ovary", "ovarian")}[place.lower()]
    ids = {kg.name(x): x for x in kg.entities if kg.node(x).type in DISEASE_TYPES}
    names = _of_place(out["answer"])
    assert names and "Abnormal cell proliferation" != names[0], names
    for name in names:  # "Nephrolithiasis" by its alias "kidney stones"
        said = " ".join([name, *resources.linker.aliases.get(ids[name], ())]).lower()
        assert name in put or any(w in said for w in words), name


def test_a_kind_of_disease_of_a_place_is_kept_to(run_graph, resources) -> None:
    out, _ = run_graph({"question": "which cancers affect the liver?"}, interactive=False, memory=False)
    kg = resources.kg
    ids = {kg.name(x): x for x in kg.entities if kg.node(x).type in DISEASE_TYPES}
    assert out["status"] is Status.ANSWERED and all(of_kind(kg, ids[n], "cancer") for n in _of_place(out["answer"]))


@pytest.mark.parametrize("question", ["skin diseases",  # "Skin Diseases" is a disease of the graph
                                      "infectious diseases", "diseases in children", "which diseases involve EGFR?"])
def test_words_that_name_no_place_are_read_as_before(resources, question: str) -> None:
    update = diseases_of_question(question, resources.linker)
    assert update is None or update["mentions"][0]["entity"]["type"] != "GrossAnatomicalStructure", update
