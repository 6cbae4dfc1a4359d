""""What are the symptoms of asthma?": the signs and symptoms the graph links into a disease, not what treats it."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.types import Command

from agents.intent import parse_question
from agents.scope import PROGNOSES, out_of_scope
from agents.signs import asks_signs
from agents.state import Intent, Status
from core.datasets import Node, Triple
from memory.public_kg import PublicKG
from tools.answers import MANIFESTING, upstream_links

ASTHMA, GOUT = "MESH:D001249", "MESH:D006073"


@pytest.mark.parametrize("question, disease", [
    ("What are the symptoms of asthma?", "asthma"),
    ("symptoms of gout?", "gout"),
    ("list the common symptoms of COPD", "COPD"),
    ("what are the signs and symptoms of migraine?", "migraine"),
    ("what are the signs of a heart attack?", "heart attack"),
    ("what symptoms does schizophrenia cause?", "schizophrenia"),
    ("asthma symptoms", "asthma"),
    ("what are gout's symptoms?", "gout"),
    ("how does parkinson's disease present?", "parkinson's disease"),
    ("tell me about the symptoms of schizophrenia", "schizophrenia"),
    ("what are the symptoms of common cold?", "common cold"),  # a disease whose name opens with a word of praise
    ("what are the common symptoms of a cold?", "cold"),
])
def test_sign_wordings_ask_for_the_disease_s_signs(question: str, disease: str) -> None:
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.SIGNS and parsed.disease == disease, parsed
    assert asks_signs(question)


@pytest.mark.parametrize("question", ["what are the symptoms?", "what are its symptoms?", "what are the symptoms of it?",
                                      "what are the common symptoms?", "what are the main signs?",
                                      "what drugs relieve the symptoms of the flu?", "What causes gout?"])
def test_other_wordings_are_no_sign_question(question: str) -> None:
    """A question naming no disease ("the symptoms", "its") is resolved against the thread first; a question about
    what treats symptoms keeps its intent."""
    parsed = parse_question(question)
    assert parsed is None or parsed.intent is not Intent.SIGNS, parsed


def test_upstream_links_of_manifestations_list_only_signs() -> None:
    kg = PublicKG.from_data(
        [Node("Y", "disease", "Disease"), Node("S", "wheeze", "PhenotypicFeature"), Node("P", "spasm", "BiologicalProcess"),
         Node("U", "urate", "ChemicalSubstance"), Node("D", "drug", "Drug")],
        [Triple("S", "manifestation of", "Y"), Triple("P", "phenotype of", "Y"), Triple("U", "causes", "Y"),
         Triple("D", "negatively regulates", "P")])
    assert [(p.edges[0].head, p.edges[0].relation) for p in upstream_links(kg, ["Y"], relations=MANIFESTING)] == [
        ("S", "manifestation of"), ("P", "phenotype of")]
    assert [p.edges[0].head for p in upstream_links(kg, ["Y"])] == ["U"]  # the causes are another question


def _turn(run_graph: Any, thread: str, payload: Any, **ctx: Any) -> dict[str, Any]:
    _out, snap = run_graph(payload, thread=thread, memory=False, **ctx)
    values = dict(snap.values)
    pending = [i for t in snap.tasks for i in t.interrupts]
    values["interrupt"] = pending[0].value if pending else None
    return values


def test_the_symptoms_of_a_disease_are_its_linked_signs(run_graph, resources) -> None:
    """"What are the symptoms of asthma?" was answered as out of scope, with the drugs for asthma; "symptoms of
    gout?" with the drugs alone. The graph links signs into 219 diseases ("Wheezing —manifestation of→ Asthma")."""
    kg = resources.kg
    out = _turn(run_graph, "signs-1", {"question": "What are the symptoms of asthma?"}, interactive=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "signs" and out["targets"] == [ASTHMA], out["answer"]
    assert out["answer"].startswith("The signs and symptoms of Asthma that the knowledge graph records: ")
    assert "not a full clinical description" in out["answer"] and "theophylline" not in out["answer"]
    types = []
    for a in out["ranked_answers"]:
        (t,) = a["path"]["triples"]
        assert t["tail"] == ASTHMA and t["relation"] in MANIFESTING and kg.has_edge(t["head"], t["relation"], t["tail"])
        types.append(a["type"])
    assert types[0] == "PhenotypicFeature" and types == sorted(types, key=lambda x: x != "PhenotypicFeature")
    assert out["citations"] and out["evidence"]
    more = _turn(run_graph, "signs-1", {"question": "and gout?"}, interactive=False)
    assert more["understood_as"] == "What are the symptoms of Gout?" and more["targets"] == [GOUT], more["answer"]
    assert "Hyperuricemia" in more["answer"]


def test_signs_the_graph_lacks_are_said_before_what_it_holds(run_graph) -> None:
    """A disease with no sign in the graph is answered with the drugs for it, after a word on what the graph holds;
    a drug has no signs at all."""
    out = _turn(run_graph, "signs-2", {"question": "what are the signs of a heart attack?"}, interactive=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats", out["answer"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not symptoms or prognoses of "
                                    "diseases. What it holds: Drugs with a verified mechanism for Myocardial infarction")
    drug = _turn(run_graph, "signs-3", {"question": "what are the symptoms of imatinib?"}, interactive=False)
    assert drug["status"] is Status.NOT_FOUND and "as a sign or symptom" in drug["answer"], drug["answer"]


def test_symptoms_with_no_disease_named_ask_which(run_graph) -> None:
    """"what are the symptoms?" as a thread's first question was read as Pharyngitis (its alias "Sore throat
    symptom") and answered with the drugs for it."""
    asked = _turn(run_graph, "signs-4", {"question": "what are the symptoms?"}, interactive=True)
    assert asked["interrupt"] is not None and asked["interrupt"]["slot"] == "disease", asked.get("answer")
    done = _turn(run_graph, "signs-4", Command(resume="asthma"), interactive=True)
    assert done["understood_as"] == "What are the symptoms of asthma?" and done["intent"] == "signs", done["answer"]
    assert "Pharyngitis" not in done["answer"]
    alone = _turn(run_graph, "signs-5", {"question": "what are the symptoms?"}, interactive=False)
    assert alone["status"] is Status.NOT_FOUND and "names no disease" in alone["answer"], alone["answer"]
    its = [_turn(run_graph, "signs-6", {"question": q}, interactive=False)
           for q in ("what drugs treat asthma?", "what are its symptoms?")][-1]
    assert its["understood_as"] == "What are the symptoms of Asthma?" and its["intent"] == "signs", its["answer"]


@pytest.mark.parametrize("question, disease", [("what is the prognosis for diabetes?", "diabetes"),
                                               ("is diabetes serious?", "diabetes"), ("how serious is CML?", "CML"),
                                               ("what is the life expectancy with diabetes?", "diabetes"),
                                               ("is gout a serious disease?", "gout"),
                                               # NOT_FOUND, and "what are the risks of gout?" had no word on what
                                               # the graph lacks
                                               ("what are the complications of diabetes?", "diabetes"),
                                               ("what are the risks of gout?", "gout")])
def test_a_disease_s_course_names_the_disease(question: str, disease: str) -> None:
    """"diabetes" is in no entry's whole name, so the free-text scan found nothing: "what is the prognosis for
    diabetes?" was NOT_FOUND, "no known entity in the question"."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.TREATS and parsed.disease == disease, parsed
    assert out_of_scope(question) == PROGNOSES


def test_the_risks_of_taking_a_drug_are_its_safety() -> None:
    assert parse_question("what are the risks of taking ibuprofen?") is None
    assert out_of_scope("what are the risks of taking ibuprofen?") == "safety"


def test_a_disease_s_course_asks_which_disease_and_says_what_the_graph_lacks(run_graph) -> None:
    asked = _turn(run_graph, "course-1", {"question": "what is the prognosis for diabetes?"}, interactive=True)
    assert asked["interrupt"] is not None and asked["interrupt"]["mention"] == "diabetes", asked.get("answer")
    done = _turn(run_graph, "course-1", Command(resume="Diabetes mellitus type 2"), interactive=True)
    assert done["status"] is Status.ANSWERED and done["intent"] == "treats", done["answer"]
    assert done["answer"].startswith("The knowledge graph holds curated drug mechanisms, not symptoms or prognoses of "
                                     "diseases. What it holds: Drugs with a verified mechanism for Diabetes mellitus type 2")


@pytest.mark.parametrize(("question", "onward"), [
    ("what does hyperuricemia lead to?", "The knowledge graph links Hyperuricemia onward to: Gout (Hyperuricemia manifestation of it). "),
    ("is hypertension serious?", ("The knowledge graph links Hypertensive disorder onward to: Cerebrovascular accident "
                                  "(Hypertensive disorder affects risk for it). ")),
])
def test_a_disease_s_course_names_what_the_graph_links_it_onward_to(run_graph, question: str, onward: str) -> None:
    """They listed the drugs for the disease alone, after the note that the graph holds no prognoses: the graph's own
    links from it to other diseases were left out (since stop 100)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    lead = f"The knowledge graph holds curated drug mechanisms, not {PROGNOSES}. What it holds: "
    assert out["answer"].startswith(lead + onward + "Drugs with a verified mechanism for "), out["answer"]


def test_a_disease_linked_onward_to_nothing_gets_the_drugs_alone(run_graph) -> None:
    out, _ = run_graph({"question": "what are the complications of diabetes mellitus type 2?"}, interactive=False, memory=False)
    assert "onward to" not in out["answer"] and "Drugs with a verified mechanism for Diabetes mellitus type 2" in out["answer"], out["answer"]
