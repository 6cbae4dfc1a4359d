"""What a protein makes: "what does xanthine oxidase make?" was NOT_FOUND ("no known entity in the question"), and
"what does COX-2 produce?" was told what the protein is connected to. They are answered from the graph's edges to
what the protein raises, by itself or through one process, without a walk."""

from __future__ import annotations

import re

import pytest

from agents.products import products_question
from agents.state import Status
from tests.conftest import in_thread


def _raised(kg, protein: str) -> set[str]:
    """Names of the chemicals the protein raises by its own edge or through one step, read here from the graph."""
    names = set()
    for e in kg.out_edges(protein):
        ends = [e.tail] if e.relation == "increases abundance of" else [
            e2.tail for e2 in kg.out_edges(e.tail) if e2.relation == "increases abundance of"] if e.relation in (
            "participates in", "positively regulates", "increases activity of", "part of") else []
        names |= {kg.name(t) for t in ends if (kg.node(t).type if kg.node(t) else "") in ("ChemicalSubstance", "Drug")}
    return names


@pytest.mark.parametrize("question", ["what does xanthine oxidase make?", "What does COX-2 produce?",
                                      "what is produced by COX-1?", "what are the products of HMG-CoA reductase?"])
def test_what_a_protein_makes_is_read_from_its_edges(run_graph, resources, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["intent"] == "products" and out["status"] is Status.ANSWERED, out["answer"]
    protein = out["mentions"][0]["entity"]
    m = re.match(rf"In the knowledge graph, {re.escape(protein['name'])} raises the abundance of (?P<told>.+?)(?: and \d+ more)?\. "
                 "It records what curated drug mechanisms pass through", out["answer"])
    assert m is not None, out["answer"]
    named = {part.split(" (", 1)[0] for part in re.split(r"\); ", m["told"])}
    raised = _raised(resources.kg, protein["id"])
    assert named and named <= raised, (named, raised)


def test_xanthine_oxidase_makes_uric_acid_and_the_next_question_is_about_it(run_graph) -> None:
    first, out = in_thread(run_graph, "products-next", "what does xanthine oxidase make?", "which drugs inhibit it?")
    assert "uric acid (" in first["answer"].casefold(), first["answer"]
    assert out["understood_as"] == "Which drugs inhibit Xanthine dehydrogenase/oxidase?", out["answer"]


@pytest.mark.parametrize("question", ["What does imatinib make?", "what does the liver make?", "what does gout make worse?",
                                      "how does xanthine oxidase make uric acid?"])
def test_other_questions_are_not_read_as_a_protein_s_products(resources, question: str) -> None:
    assert products_question(question, resources.linker) is None


def test_follow_ups_ask_the_same_of_another_protein_and_how_of_the_first_product(run_graph) -> None:
    """"and COX-1?" after "what does COX-2 produce?" asks what COX-1 makes, "how?" how COX-1 makes the first product
    listed, and "and prednisone?" after what levothyroxine becomes what prednisone becomes (each was "What does … target?",
    or, for "how?", how the product acted on the protein)."""
    first, other, how = in_thread(run_graph, "products-follow", "What does COX-2 produce?", "and COX-1?", "how?")
    assert other["understood_as"] == "What does Prostaglandin G/H synthase 1 make?" and other["intent"] == "products"
    assert first["status"] is Status.ANSWERED
    product = other["answer"].split(" raises the abundance of ", 1)[1].split(" (", 1)[0]  # "how?" is about the latest turn
    assert how["understood_as"] == f"How does Prostaglandin G/H synthase 1 act on {product}?", how["answer"]
    _first, becomes = in_thread(run_graph, "metabolites-follow", "what does levothyroxine become?", "and prednisone?")
    assert becomes["understood_as"] == "What does prednisone become?" and becomes["intent"] == "metabolites", becomes["answer"]
