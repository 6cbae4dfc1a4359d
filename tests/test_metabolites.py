"""What a drug becomes: "is it a prodrug?" after clopidogrel's target was answered with what clopidogrel is connected
to, and "what does levothyroxine become?" told its targets. They are answered from the graph's edges to what a drug
becomes ("has metabolite"), without a walk."""

from __future__ import annotations

import pytest

from agents.metabolites import metabolites_question
from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize("question", ["what does levothyroxine become?", "What are the metabolites of levothyroxine?",
                                      "what is levothyroxine converted to?", "is levothyroxine a prodrug?",
                                      "does levothyroxine have an active metabolite?",
                                      "how is levothyroxine metabolized?"])  # told what it is connected to
def test_what_a_drug_becomes_is_read_from_its_metabolite_edges(run_graph, resources, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["intent"] == "metabolites" and out["status"] is Status.ANSWERED, out["answer"]
    kg = resources.kg
    becomes = [kg.name(e.tail) for e in kg.out_edges(out["mentions"][0]["entity"]["id"]) if e.relation == "has metabolite"]
    assert becomes and out["answer"].startswith(f"In the knowledge graph, Levothyroxine becomes {becomes[0]} (has "
                                                "metabolite), which acts on "), out["answer"]
    assert ("prodrug" in out["answer"]) is ("prodrug" in question), out["answer"]


def test_a_drug_with_no_metabolite_edge_says_so_and_what_it_acts_on(run_graph) -> None:
    _first, out = in_thread(run_graph, "prodrug", "What does clopidogrel target?", "is it a prodrug?")
    assert out["understood_as"] == "Is Clopidogrel a prodrug?" and out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].split('" ', 1)[1].startswith("The knowledge graph records no metabolite of Clopidogrel. It "
                                                       "records Clopidogrel acting on P2Y purinoceptor 12 itself."), out["answer"]
    assert "the graph does not record" in out["answer"], out["answer"]  # an absent edge is no "no"


def test_the_first_metabolite_is_what_the_first_one_means_next(run_graph) -> None:
    _first, out = in_thread(run_graph, "metabolite-next", "What are the metabolites of prednisone?",
                           "what does the first one target?")
    assert out["understood_as"] == "What does prednisolone target?", out["answer"]


def test_other_questions_are_not_read_so(resources) -> None:
    for q in ("what does aspirin treat?", "what does qwzx become?", "is gout a disease?", "what does it become?"):
        assert metabolites_question(q, resources.linker) is None, q
