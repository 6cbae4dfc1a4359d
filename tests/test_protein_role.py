"""What a protein does, from its own edges ("what does TNF do?"; ``agents.protein_role``). It was told what the protein
is connected to, mostly the diseases its chains end in."""

from __future__ import annotations

import re

import pytest

from agents.protein_role import role_question
from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize("question", ["what does ACE do?", "what is the function of ACE?", "what is ACE's role?"])
def test_a_protein_s_steps_are_its_own_edges(run_graph, resources, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["intent"] == "role" and out["status"] is Status.ANSWERED, out["answer"]
    m = re.match(r"In the knowledge graph, Angiotensin-converting enzyme (?P<steps>.+?)\. (?:Its chains|Drugs that)", out["answer"])
    assert m is not None, out["answer"]
    kg = resources.kg
    ace = next(x["entity"]["id"] for x in out["mentions"] if x.get("entity"))
    edges = {(e.relation, kg.name(e.tail)) for e in kg.out_edges(ace)}
    for told in m["steps"].split("; "):
        relation = next(r for r, _ in sorted(edges, key=lambda x: -len(x[0])) if told.startswith(r + " "))
        for end in told[len(relation) + 1:].split(", "):
            assert (relation, end) in edges, (relation, end)
    assert "Drugs that act on it: " in out["answer"] and out["answer"].endswith("not all that the protein does."), out["answer"]


@pytest.mark.parametrize("question", ["what does aspirin do?", "what is the role of TNF in rheumatoid arthritis?",
                                      "what does gout do?", "what does TNFish do?"])
def test_other_questions_are_not_about_a_protein_s_role(resources, question: str) -> None:
    assert role_question(question, resources.linker) is None


def test_it_after_a_protein_s_role_is_the_protein(run_graph) -> None:
    first, then = in_thread(run_graph, "role-it", "what does TNF do?", "which drugs inhibit it?")
    assert first["intent"] == "role", first["answer"]
    assert then["understood_as"] == "Which drugs inhibit Tumor necrosis factor?" and then["ranked_answers"], then["answer"]
