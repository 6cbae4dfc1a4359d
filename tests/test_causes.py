""""What causes gout?": the graph's links into a disease that raise it, not a list of what treats it."""

from __future__ import annotations

from typing import Any

import pytest

from agents.described import about
from agents.intent import parse_question
from agents.state import Intent, Status
from core.datasets import Node, Triple
from memory.public_kg import PublicKG
from tests.conftest import in_thread
from tools.answers import RAISING, upstream_links

GOUT, PNEUMONIA, ASTHMA = "MESH:D006073", "MESH:D011014", "MESH:D001249"


@pytest.mark.parametrize("question, disease", [
    ("What causes gout?", "gout"),
    ("what are the causes of asthma?", "asthma"),
    ("What are the most common causes of pneumonia?", "pneumonia"),
    ("why do people get migraines?", "migraines"),
    ("How do you get tuberculosis?", "tuberculosis"),
    ("What is gout caused by?", "gout"),
    ("what increases the risk of gout", "gout"),
    ("risk factors for hypertension", "hypertension"),
    ("What leads to pneumonia?", "pneumonia"),
    ("what else causes it?", "it"),
    ("how does inhalation anthrax develop?", "inhalation anthrax"),  # it listed the drugs for inhalation anthrax
    ("How does gout start?", "gout"),
    # told what asthma is connected to ("Asthma is connected to: Cough"), or no rule read them
    ("pathophysiology of asthma", "asthma"),
    ("what is the pathogenesis of gout?", "gout"),
    ("etiology of migraine", "migraine"),
    # read as what treats it ("Drugs with a verified mechanism for Gout: …")
    ("what could cause gout?", "gout"),
    ("what can cause migraines?", "migraines"),
    ("What might trigger asthma?", "asthma"),
])
def test_cause_wordings_ask_what_raises_the_disease(question: str, disease: str) -> None:
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.CAUSES and parsed.disease == disease and not parsed.drug
    assert about(question) == ""  # no longer read as "What is gout?"


def test_other_wordings_keep_their_intent() -> None:
    assert parse_question("What is gout?") is None and about("What is gout?") == "gout"
    assert parse_question("how does resistance to imatinib develop?") is None  # no disease: imatinib is the name
    assert parse_question("How do you treat gout?").intent is Intent.TREATS  # type: ignore[union-attr]
    assert parse_question("How does colchicine treat gout?").intent is Intent.MECHANISM  # type: ignore[union-attr]


@pytest.mark.parametrize("question", ["Why does lisinopril cause cough?", "why does lisinopril cause a cough",
                                      "how can lisinopril lead to a cough?"])
def test_why_a_drug_causes_a_disease_asks_how_the_two_are_linked(question: str, run_graph) -> None:
    """"Why does lisinopril cause cough?" was read as how lisinopril treats "cause cough" ("Read "cause cough" as
    Cough"), with nothing to say that the graph holds no side effects; it is now asked as "does lisinopril cause
    cough?" is: the two names, the sentence about side effects, and what the chain's signs say it does to cough."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.RELATION and parsed.drug == "lisinopril"
    assert parsed.disease in ("cough", "a cough")
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not side effects."), out["answer"]
    assert "Read \"cause" not in out["answer"] and out["answer"].endswith("Along this chain lisinopril raises Cough.")


def _kg() -> PublicKG:
    nodes = [Node("Y", "disease", "Disease"), Node("B", "bacterium", "OrganismTaxon"),
             Node("U", "urate", "ChemicalSubstance"), Node("I", "inflammation", "BiologicalProcess"),
             Node("H", "hub", "BiologicalProcess"), Node("S", "symptom", "PhenotypicFeature"),
             Node("C", "correlate", "ChemicalSubstance"), Node("D", "drug", "Drug")]
    triples = [Triple("B", "causes", "Y"), Triple("U", "positively correlated with", "Y"),
               Triple("I", "positively correlated with", "Y"), Triple("H", "positively correlated with", "Y"),
               Triple("I", "contributes to", "Y"),  # the same entity: listed once, by its most direct relation
               Triple("S", "manifestation of", "Y"), Triple("C", "correlated with", "Y"),  # no sign, a symptom
               Triple("D", "negatively regulates", "I"), Triple("D", "decreases activity of", "H"),
               Triple("H", "occurs in", "S"), Triple("H", "positively regulates", "C")]
    return PublicKG.from_data(nodes, triples)


def test_upstream_links_list_each_raising_entity_once_the_most_direct_first() -> None:
    kg = _kg()
    links = upstream_links(kg, ["Y"])
    assert [(p.edges[0].head, p.edges[0].relation) for p in links] == [
        ("B", "causes"), ("I", "contributes to"),
        ("H", "positively correlated with"), ("U", "positively correlated with"),  # H has more edges than U
    ]
    assert all(p.hops == 1 and p.nodes[-1] == "Y" for p in links)
    # how many curated mechanisms use an edge comes before how connected its entity is
    used = upstream_links(kg, ["Y"], uses=lambda e: 3 if e.head == "U" else 0)
    assert [p.edges[0].head for p in used] == ["B", "I", "U", "H"]
    assert [p.edges[0].head for p in upstream_links(kg, ["Y"], k=2)] == ["B", "I"]
    assert upstream_links(kg, ["D"]) == []


def _ask(run_graph: Any, question: str, thread: str) -> dict[str, Any]:
    out, _ = run_graph({"question": question}, thread=thread, interactive=False)
    return out


def test_what_causes_a_disease_lists_the_links_that_raise_it(run_graph, resources) -> None:
    """"What causes pneumonia?" was read as "What drugs treat Pneumonia?", with a note that the graph holds no
    causes. It holds the curated links into the disease: Streptococcus pneumoniae —causes→ Pneumonia."""
    kg = resources.kg
    out = _ask(run_graph, "What causes pneumonia?", "causes-1")
    assert out["status"] is Status.ANSWERED and out["intent"] == "causes" and out["targets"] == [PNEUMONIA]
    names = [a["name"] for a in out["ranked_answers"]]
    assert "Streptococcus pneumoniae" in names and not out["understood_as"]
    for a in out["ranked_answers"]:
        (t,) = a["path"]["triples"]
        assert t["tail"] == PNEUMONIA and t["relation"] in RAISING and kg.has_edge(t["head"], t["relation"], t["tail"])
    assert out["answer"].startswith("What the knowledge graph links to Pneumonia as raising it: ")
    assert "(causes)" in out["answer"] and "not a full account of its causes" in out["answer"]
    tiers = [RAISING.index(a["path"]["triples"][0]["relation"]) for a in out["ranked_answers"]]
    assert tiers == sorted(tiers)
    gout = _ask(run_graph, "What causes gout?", "causes-2")
    assert gout["intent"] == "causes" and gout["targets"] == [GOUT] and "uric acid" in gout["answer"].lower()
    assert "Lesinurad" not in gout["answer"]  # not what treats it


def test_cause_follow_ups_and_nothing_to_list(run_graph) -> None:
    first = _ask(run_graph, "What causes asthma?", "causes-3")
    assert first["status"] is Status.ANSWERED and first["targets"] == [ASTHMA]
    more = _ask(run_graph, "what else causes it?", "causes-3")
    assert more["understood_as"] == "What else causes Asthma?" and more["status"] is Status.NOT_FOUND
    assert "every link into Asthma that raises it has already been named" in more["answer"]
    other = _ask(run_graph, "what about gout?", "causes-3")
    assert other["understood_as"] == "What causes Gout?" and other["intent"] == "causes"
    drug = _ask(run_graph, "What causes aspirin?", "causes-4")
    assert drug["status"] is Status.NOT_FOUND and "links nothing to Aspirin as raising it" in drug["answer"]
    assert "What drugs treat" not in drug["answer"]  # a drug is no disease to ask about


def test_whether_a_body_s_own_chemical_causes_a_disease_is_answered_without_asking_which_entry(run_graph) -> None:
    """"Does histamine cause scalp dermatoses?" asked "Which "histamine" do you mean? 1. Histamine 2. histamine" (the
    graph lists it under MESH and under ChEBI) and then called the answer a side effect, which is a drug's."""
    out, snap = run_graph({"question": "Does histamine cause scalp dermatoses?"}, interactive=True, memory=False)
    assert not [i for t in snap.tasks for i in t.interrupts]
    assert out["status"] is Status.ANSWERED and out["evidence"][0]["head"] == "CHEBI:18295", out["evidence"]
    assert "side effects" not in out["answer"] and out["answer"].endswith("Along this chain histamine raises Scalp Dermatoses.")
    out, _ = run_graph({"question": "Does uric acid cause gout?"}, interactive=True, memory=False)
    assert out["status"] is Status.ANSWERED and out["targets"] == [GOUT] and "side effects" not in out["answer"]


@pytest.mark.parametrize("question, x, y", [
    ("Is there a link between NSAIDs and kidney damage?", "NSAIDs", "kidney damage"),
    ("what is the connection between metformin and lactic acidosis", "metformin", "lactic acidosis"),
    ("Tell me the relationship between uric acid and gout", "uric acid", "gout"),
    ("is aspirin linked to ulcers?", "aspirin", "ulcers"),
    ("how are statins related to muscle pain", "statins", "muscle pain"),
    ("What connects metformin and cancer?", "metformin", "cancer"),  # "cancer" was dropped: what metformin is connected to
    ("what links aspirin to gout", "aspirin", "gout"),
])
def test_a_link_between_two_names_asks_how_the_graph_links_them(question: str, x: str, y: str) -> None:
    parsed = parse_question(question)
    assert parsed is not None and (parsed.intent, parsed.drug, parsed.disease) == (Intent.RELATION, x, y)


def test_a_link_asked_either_way_is_walked_into_the_disease(run_graph) -> None:
    """"Is there a link between NSAIDs and kidney damage?" listed what Kidney is connected to; "is gout linked to uric
    acid?" walked out of gout and found nothing."""
    out, _ = run_graph({"question": "is gout linked to uric acid?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["evidence"][-1]["tail"] == GOUT, out["answer"]
    out, _ = run_graph({"question": "is there a link between aspirin and ulcers"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["evidence"][0]["head_name"] == "Aspirin"
    assert out["evidence"][-1]["tail_name"] == "Gastric ulcer"
    out, _ = run_graph({"question": "how are statins related to muscle pain"}, interactive=False, memory=False)
    assert out["targets"] == ["MESH:D063806"]  # Myalgia, by its everyday name


def test_a_follow_up_to_a_link_question_asks_about_a_link(run_graph) -> None:
    """"what about ibuprofen?" after "is there a link between aspirin and ulcers?" was read as "How does Ibuprofen
    treat Gastric ulcer?"; after "Does imatinib inhibit ABL1?" a protein is still acted on."""
    run_graph({"question": "is there a link between aspirin and ulcers?"}, thread="link", interactive=False, memory=False)
    out, _ = run_graph({"question": "what about ibuprofen?"}, thread="link", interactive=False, memory=False)
    assert out["understood_as"] == "Is there a link between Ibuprofen and Gastric ulcer?" and out["intent"] == "relation"
    run_graph({"question": "Does imatinib inhibit ABL1?"}, thread="abl", interactive=False, memory=False)
    out, _ = run_graph({"question": "what about dasatinib?"}, thread="abl", interactive=False, memory=False)
    assert out["understood_as"] == "How does Dasatinib act on Tyrosine-protein kinase ABL1?"


@pytest.mark.parametrize(("first", "then", "understood", "raises"), [
    ("does lisinopril cause cough?", "why?", "How does lisinopril cause Cough?", "Along this chain lisinopril raises Cough"),
    ("can ibuprofen cause stomach ulcers?", "explain", "How does Ibuprofen cause Gastric ulcer?", "raises Gastric ulcer"),
])
def test_why_after_whether_a_drug_causes_a_disease_asks_how_it_causes_it(run_graph, first: str, then: str,
                                                                          understood: str, raises: str) -> None:
    """"Why?" after "does lisinopril cause cough?" (whose chain raises it) was asked as "How does lisinopril treat
    Cough?", and its answer told the chain as a treatment, without the side-effect note or its direction."""
    _first, out = in_thread(run_graph, f"why-cause-{first}", first, then)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    assert raises in out["answer"] and "not side effects" in out["answer"], out["answer"]
