"""What a drug raises or lowers: "what does allopurinol lower?", "what does sertraline increase?" and "what
neurotransmitter does sertraline affect?" were told what the drug is connected to. They are answered from the graph's
edges to chemicals near what the drug acts on, without a walk."""

from __future__ import annotations

import pytest

from agents.amounts import amounts_question, changed
from agents.state import Status
from memory.protocols import Edge, Entity
from memory.public_kg import PublicKG
from tests.conftest import in_thread


def _kg(edges: list[tuple[str, str, str]], types: dict[str, str]) -> PublicKG:
    return PublicKG({x: Entity(x, x, t) for x, t in types.items()}, {}, [Edge(*e) for e in edges])


def test_the_sign_is_read_from_the_chain_and_chains_that_disagree_say_nothing() -> None:
    types = {"drug": "Drug", "P": "Protein", "Q": "Protein", "proc": "BiologicalProcess", "loose": "BiologicalProcess",
             "up": "ChemicalSubstance", "down": "ChemicalSubstance", "both": "ChemicalSubstance", "far": "ChemicalSubstance"}
    kg = _kg([("drug", "decreases activity of", "P"), ("P", "increases abundance of", "down"),
              ("drug", "increases activity of", "Q"), ("Q", "positively regulates", "proc"),
              ("proc", "increases abundance of", "up"), ("proc", "increases abundance of", "both"),
              ("P", "increases abundance of", "both"),  # lowered through P, raised through Q and proc: said neither way
              ("drug", "negatively regulates", "loose"), ("loose", "decreases abundance of", "far")], types)
    assert {k: (v[1], v[2]) for k, v in changed(kg, "drug").items()} == {"down": (-1, "P"), "up": (1, "Q")}


def test_what_a_drug_depletes_is_what_it_lowers(run_graph) -> None:
    """"what vitamins does metformin deplete?" was told what metformin is connected to."""
    out, _ = run_graph({"question": "what vitamins does metformin deplete?"}, interactive=False, memory=False)
    assert out["intent"] == "amounts" and out["status"] is Status.ANSWERED, out["answer"]


def test_allopurinol_lowers_what_its_enzyme_raises(run_graph, resources) -> None:
    kg = resources.kg
    out, _ = run_graph({"question": "what does allopurinol lower?"}, interactive=False, memory=False)
    assert out["intent"] == "amounts" and out["status"] is Status.ANSWERED, out["answer"]
    drug = out["mentions"][0]["entity"]["id"]
    expected = [f"{kg.name(e2.tail)} (through {kg.name(e.tail)})" for e in kg.out_edges(drug)
                if e.relation in ("decreases activity of", "negatively regulates")
                for e2 in kg.out_edges(e.tail) if e2.relation == "increases abundance of"]
    assert expected and out["answer"].startswith(f"In the knowledge graph, allopurinol lowers {expected[0]}"), out["answer"]
    raised, _ = run_graph({"question": "what does allopurinol raise?"}, interactive=False, memory=False)
    assert raised["answer"].startswith(f"The knowledge graph records nothing that allopurinol raises; it records allopurinol "
                                       f"lowering {expected[0]}"), raised["answer"]


def test_a_drug_with_no_chemical_in_one_direction_says_so_and_what_it_acts_on(run_graph) -> None:
    first, out = in_thread(run_graph, "amounts-next", "what neurotransmitter does sertraline affect?", "how does it work?")
    assert first["intent"] == "amounts" and first["answer"].startswith(
        "The knowledge graph records no chemical that sertraline raises or lowers"), first["answer"]
    assert "It records sertraline acting on Sodium-dependent serotonin transporter" in first["answer"], first["answer"]
    assert out["understood_as"] == "How does sertraline work?", out["answer"]


@pytest.mark.parametrize("question", ["what does aspirin affect?", "what does gout lower?", "how does allopurinol lower uric acid?",
                                      "what does xanthine oxidase increase?", "does allopurinol lower uric acid?"])
def test_other_questions_are_not_read_as_a_drug_s_amounts(resources, question: str) -> None:
    assert amounts_question(question, resources.linker) is None


def test_follow_ups_ask_the_same_of_another_drug_and_how_of_the_first_chemical(run_graph) -> None:
    """"and febuxostat?" after "what does allopurinol lower?" was "What does Febuxostat target?", and "why?" was
    NOT_FOUND ("no known entity in the question"): a chemical listed first was read as a drug, leaving no end."""
    first, other, why = in_thread(run_graph, "amounts-follow", "what does allopurinol lower?", "and febuxostat?", "why?")
    assert other["understood_as"] == "What does Febuxostat raise or lower?" and other["intent"] == "amounts", other["answer"]
    assert first["status"] is Status.ANSWERED
    chemical = other["answer"].split(" lowers ", 1)[1].split(" (through", 1)[0]  # "why?" is about the latest turn
    assert why["understood_as"] == f"How does Febuxostat act on {chemical}?" and why["status"] is Status.ANSWERED, why["answer"]


def test_what_else_lowers_it_is_about_the_first_chemical(run_graph) -> None:
    """"what else lowers it?" after "what does allopurinol lower?" was NOT_FOUND ("nothing earlier in this conversation
    for "it" to refer to"): the drug was no end, and the chemical was no disease."""
    first, out = in_thread(run_graph, "amounts-else", "what does allopurinol lower?", "what else lowers it?")
    chemical = first["answer"].split(" lowers ", 1)[1].split(" (through", 1)[0]
    assert out["understood_as"] == f"What else lowers {chemical}?" and out["status"] is Status.ANSWERED, out["answer"]
    assert "allopurinol" not in [a["name"] for a in out["ranked_answers"]], out["answer"]
