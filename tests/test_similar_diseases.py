""""Which diseases are similar to gout?" and "what conditions are like asthma?" listed the disease's drugs. The graph
does not hold how alike diseases are; the answer says so, then names the diseases it links the most specific of the
same entities into."""

from __future__ import annotations

import re

import pytest

from agents.similar_diseases import NOTE, alike, similar_question
from agents.state import Status
from memory.protocols import Edge, Entity
from memory.public_kg import PublicKG
from tests.conftest import in_thread


def test_a_shared_specific_entity_counts_more_than_a_shared_generic_one() -> None:
    diseases = ["Y", "Z1", "Z2", "Z3", "Z4"]
    types = {**dict.fromkeys(diseases, "Disease"), "a": "ChemicalSubstance", "g": "BiologicalProcess", "drug": "Drug"}
    edges = [Edge("a", "contributes to", "Y"), Edge("a", "contributes to", "Z1"), Edge("drug", "treats", "Y"),
             *(Edge("g", "positively correlated with", d) for d in diseases)]
    kg = PublicKG({x: Entity(x, x, t) for x, t in types.items()}, {}, edges)
    ranked = alike(kg, "Y")
    assert [r[0] for r in ranked][:1] == ["Z1"] and ranked[0][2] == ["a", "g"], ranked
    assert {r[0] for r in ranked} == {"Z1", "Z2", "Z3", "Z4"} and ranked[0][1] > 2 * ranked[1][1], ranked


def test_the_diseases_like_gout_share_what_the_graph_links_into_it(run_graph, resources) -> None:
    first, out = in_thread(run_graph, "similar", "which diseases are similar to gout?", "what treats the first one?")
    assert first["intent"] == "similar" and first["status"] is Status.ANSWERED, first["answer"]
    m = re.match(re.escape(NOTE) + r"Diseases it links the same entities into as Gout, most alike first: (?P<told>.+)\.$",
                 first["answer"])
    assert m is not None, first["answer"]
    kg = resources.kg
    gout = first["mentions"][0]["entity"]["id"]
    into_gout = {kg.name(e.head) for e in kg.in_edges(gout)}
    named = re.findall(r"(?:^|; )(.+?) \((.+?)\)(?=; |$)", m["told"])
    assert named, m["told"]
    for disease, shared in named:
        assert shared.split(", ")[0] in into_gout, (disease, shared)
    assert out["understood_as"] == f"What treats {named[0][0]}?", out["answer"]


@pytest.mark.parametrize("question", ["what is gout?", "which drugs are similar to aspirin?", "what diseases are related to gout?"])
def test_other_questions_are_not_for_similar_diseases(resources, question: str) -> None:
    assert similar_question(question, resources.linker) is None
