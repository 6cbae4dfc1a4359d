""""Compare asthma and COPD", "what is the difference between type 1 and type 2 diabetes?": two diseases compared by
what the knowledge graph links into each and by the drugs whose chains reach each (the first was NOT_FOUND, "no chain
of relations from Asthma to Chronic obstructive lung disease"; the second was answered for type 2 diabetes alone)."""

from __future__ import annotations

import re

import pytest

from agents.disease_compare import compared_diseases
from agents.state import Status
from core.text import fold
from tests.conftest import in_thread


def _names(out: dict, lead: str) -> list[str]:
    """The names an answer lists after ``lead`` (up to the sentence's end, "and N more" dropped)."""
    listed = re.search(re.escape(lead) + r" (.+?)\.(?: [A-Z]|$)", out["answer"])
    assert listed, out["answer"]
    return [n for n in re.split(r", |; ", re.sub(r" and \d+ more$", "", listed.group(1)))]


def _linked(kg, disease: str) -> set[str]:
    return {fold(kg.name(e.head)) for e in kg.in_edges(disease)} | {fold(kg.name(e.tail)) for e in kg.out_edges(disease)}


@pytest.mark.parametrize("question, first, second", [
    ("compare asthma and COPD", "Asthma", "Chronic obstructive lung disease"),
    ("What is the difference between type 1 and type 2 diabetes?", "Diabetes mellitus type 1", "Diabetes mellitus type 2"),
    ("how is rheumatoid arthritis different from osteoarthritis?", "Rheumatoid arthritis", "Osteoarthritis"),
    ("Crohn's disease vs ulcerative colitis", "Crohn Disease", "Ulcerative colitis"),
    ("what do gout and hyperuricemia have in common?", "Gout", "Hyperuricemia"),
    ("how are gout and hyperuricemia related?", "Gout", "Hyperuricemia"),
    ("asthma or COPD?", "Asthma", "Chronic obstructive lung disease"),
    ("is asthma worse than COPD?", "Asthma", "Chronic obstructive lung disease"),
    # how each is treated: the first read type 1 diabetes alone, the others found no second disease
    ("how is type 1 diabetes treated differently from type 2?", "Diabetes mellitus type 1", "Diabetes mellitus type 2"),
    ("what is the difference between type 1 and type 2 diabetes treatment?", "Diabetes mellitus type 1",
     "Diabetes mellitus type 2"),
    ("how does the treatment of asthma differ from COPD?", "Asthma", "Chronic obstructive lung disease"),
    ("how does the treatment of asthma differ from that of COPD?", "Asthma", "Chronic obstructive lung disease"),
    ("how is gout treated differently from rheumatoid arthritis?", "Gout", "Rheumatoid arthritis"),
])
def test_two_diseases_are_read_as_compared(resources, question: str, first: str, second: str) -> None:
    update = compared_diseases(question, resources.linker)
    assert update is not None and update["intent"] == "diseases", question
    assert [m["entity"]["name"] for m in update["mentions"]] == [first, second]


@pytest.mark.parametrize("question", ["compare aspirin and warfarin", "compare aspirin and COPD", "compare asthma and asthma",
                                      "How does imatinib treat CML?", "compare asthma and qwzx"])
def test_other_questions_are_not(resources, question: str) -> None:
    assert compared_diseases(question, resources.linker) is None


def test_what_both_and_each_are_linked_to_come_from_the_graph(run_graph, resources) -> None:
    out, _ = run_graph({"question": "compare asthma and COPD"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "diseases", out["answer"]
    assert "not comparisons of how well drugs work" not in out["answer"] and out["walk"] == {}, out["answer"]
    kg = resources.kg
    asthma, copd = (resources.linker.link(x).best.id for x in ("asthma", "COPD"))
    both, only = _names(out, "are both linked to:"), _names(out, "Only Asthma is linked to:")
    assert both and all(fold(n) in _linked(kg, asthma) & _linked(kg, copd) for n in both), both
    assert only and all(fold(n) in _linked(kg, asthma) - _linked(kg, copd) for n in only), only
    drugs = re.search(r"\(PageRank upstream from the disease\): Asthma: (.+?); Chronic", out["answer"]).group(1).split(", ")
    assert drugs and all(kg.node(resources.linker.link(d).best.id).type == "Drug" for d in drugs), drugs


def test_a_direct_link_is_said_first(run_graph) -> None:
    out, _ = run_graph({"question": "how are gout and hyperuricemia related?"}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph links them directly: Hyperuricemia manifestation of Gout."), out["answer"]
    assert "Hyperuricemia" not in out["answer"].split("Only Gout is linked to:", 1)[1].split(".")[0], out["answer"]


def test_the_thread_goes_on_from_the_two_diseases(run_graph) -> None:
    compared, second, it = in_thread(run_graph, "dc", "What's the difference between type 1 and type 2 diabetes?",
                                     "what drugs treat the second one?", "how does insulin glargine treat the first one?")
    assert compared["status"] is Status.ANSWERED and "Diabetes mellitus type 1 and Diabetes mellitus type 2" in compared["answer"]
    assert second["understood_as"] == "What drugs treat Diabetes mellitus type 2?", second["answer"]
    assert it["understood_as"] == "How does insulin glargine treat Diabetes mellitus type 1?", it["answer"]
    assert it["status"] is Status.ANSWERED


@pytest.mark.parametrize("question", ["what is the link between obesity and diabetes?", "how are obesity and diabetes related?"])
def test_two_diseases_one_of_them_asked_about_are_compared_once_picked(run_graph, question: str) -> None:
    """"diabetes" fits several diseases, so the comparison did not read the question: the walk asked which diabetes,
    then found no chain from Obesity to it (NOT_FOUND), and "how are obesity and diabetes related?" parsed as nothing
    and was answered for Obesity alone. Once the user picks, the two diseases are compared."""
    from langgraph.types import Command

    _out, snap = run_graph({"question": question}, thread=f"od-{question}", interactive=True, memory=False)
    pending = [i.value for t in snap.tasks for i in t.interrupts]
    assert pending and pending[0]["mention"] == "diabetes", pending
    out, _ = run_graph(Command(resume="1"), thread=f"od-{question}", interactive=True, memory=False)
    picked = pending[0]["candidates"][0]["name"]
    assert out["status"] is Status.ANSWERED and out["intent"] == "diseases", out["answer"]
    assert [m["entity"]["name"] for m in out["mentions"]] == ["Obesity", picked], out["mentions"]
    assert f"Only {picked} is linked to: " in out["answer"] or f"Obesity and {picked}" in out["answer"], out["answer"]


def test_a_chemical_linked_into_both_diseases_is_shared(run_graph, resources) -> None:
    """"compare gout and hyperuricemia" left uric acid out of what both are linked to: chemicals were dropped with the
    drugs."""
    out, _ = run_graph({"question": "compare gout and hyperuricemia"}, interactive=False, memory=False)
    kg = resources.kg
    gout, hyper = (m["entity"]["id"] for m in out["mentions"][:2])
    chemicals = {kg.name(e.head) for e in kg.in_edges(gout) if kg.node(e.head).type == "ChemicalSubstance"} & {
        kg.name(e.head) for e in kg.in_edges(hyper) if kg.node(e.head).type == "ChemicalSubstance"}
    assert chemicals, "the graph links a chemical into both"
    both = out["answer"].split("are both linked to: ", 1)[1].split(".", 1)[0]
    assert any(c in both.split(", ") for c in chemicals), (both, chemicals)
