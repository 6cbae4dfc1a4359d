""""Where does asthma occur?", "where is that enzyme found?": the places the curated chains give an entity, or that they
give none, before what the graph holds of it (both were answered with what the entity is connected to alone)."""

from __future__ import annotations

from agents.state import Status
from agents.where import PLACES
from tests.conftest import in_thread


def _places(kg, entity: str) -> list[str]:
    out = [e.tail for e in kg.out_edges(entity) if e.relation in ("located in", "part of", "expressed in", "occurs in")]
    out += [e.head for e in kg.in_edges(entity) if e.relation in ("location of", "affected by")]
    return list(dict.fromkeys(kg.name(x) for x in out if kg.node(x).type in PLACES))


def test_where_a_disease_occurs_is_its_organ(run_graph, resources) -> None:
    out, _ = run_graph({"question": "where does asthma occur?"}, interactive=False, memory=False)
    places = _places(resources.kg, resources.linker.link("asthma").best.id)
    assert places and out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith(f"Where the knowledge graph places Asthma: {', '.join(places)}. What else it holds: ")
    plain, _ = run_graph({"question": "what is asthma?"}, thread="t2", interactive=False, memory=False)
    assert "places" not in plain["answer"] and "records no place" not in plain["answer"], plain["answer"]


def test_a_follow_up_about_a_target_without_a_place_says_so(run_graph, resources) -> None:
    _, where = in_thread(run_graph, "wh", "What does imatinib target?", "where is that enzyme found?")
    abl1 = resources.linker.link("ABL1").best
    assert not _places(resources.kg, abl1.id)
    assert where["understood_as"] == f"Where is {abl1.name} found?", where["answer"]
    assert where["answer"].startswith(f'Understood as: "Where is {abl1.name} found?" The knowledge graph records no place '
                                      f"for {abl1.name}. What it holds: {abl1.name} is connected to: "), where["answer"]
