"""A disease the graph holds under two ids of one name: "Hyperglycemia" is HP:0003074 (a phenotype, where the curated
chains of the SGLT2 inhibitors end) and MESH:D006943 (a disease, which the linker reads). "How does empagliflozin
lower blood sugar?" said that no chain joins them, and "How do SGLT2 inhibitors lower blood sugar?" that none of the
six inhibitors has one; the shortest chains and the class's routes now end at either id."""

from __future__ import annotations

from typing import Any

from agents.state import Status
from core.text import fold
from tools.answers import same_named


def _twins(kg: Any, name: str) -> set[str]:
    return {e.id for e in kg.lookup(name) if fold(e.name) == fold(name)}


def test_same_named_adds_every_entity_of_the_name_and_nothing_else(resources: Any) -> None:
    kg = resources.kg
    twins = _twins(kg, "Hyperglycemia")
    assert len(twins) >= 2  # the data this test is about
    for x in twins:
        assert same_named(kg, [x]) == twins
    alone = next(x for x in kg.entity_ids() if len(_twins(kg, kg.name(x))) == 1)
    assert same_named(kg, [alone]) == {alone}
    assert same_named(kg, []) == set()


def test_a_chain_to_the_other_entity_of_the_name_answers(run_graph: Any, resources: Any) -> None:
    kg = resources.kg
    out, _ = run_graph({"question": "How does empagliflozin lower blood sugar?"}, thread="sglt2", interactive=False,
                       memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert fold(kg.name(out["evidence"][-1]["tail"])) == "hyperglycemia" and out["evidence"][-1]["tail"] not in out["targets"]
    assert out["answer"].startswith("empagliflozin acts on Hyperglycemia through"), out["answer"]


def test_a_class_s_routes_into_the_other_entity_of_the_name(run_graph: Any) -> None:
    out, _ = run_graph({"question": "How do SGLT2 inhibitors lower blood sugar?"}, thread="sglt2s", interactive=False,
                       memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith("SGLT2 inhibitors act on Hyperglycemia in the knowledge graph through: "
                                    "Sodium/glucose cotransporter 2"), out["answer"]
