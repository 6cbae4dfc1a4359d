""""Which drug treats Y?" says when every listed drug reaches Y through one entity, and, for a finding such as the
HPO "Lymphoma", names the diseases it is a manifestation of (``agents.answer_notes``)."""

from __future__ import annotations

import re

from agents.answer_notes import treats_notes
from agents.state import Intent, State, Status
from memory.protocols import Edge, Entity
from memory.public_kg import PublicKG
from tools.answers import manifested_in
from tools.linker import EntityLinker


def _kg() -> PublicKG:
    """A finding F, a manifestation of diseases A and B (B the more connected), reached only through process P."""
    types = {"d1": "Drug", "d2": "Drug", "d3": "Drug", "P": "BiologicalProcess", "F": "PhenotypicFeature",
             "A": "Disease", "B": "Disease", "C": "Protein", "K": "Disease"}
    names = {"F": "Night blindness", "A": "Avitaminosis", "B": "Vitamin A deficiency", "P": "retinol metabolism",
             "K": "Avitaminosis B"}
    edges = [Edge(d, "positively regulates", "P") for d in ("d1", "d2", "d3")] + [
        Edge("P", "contributes to", "F"), Edge("F", "manifestation of", "A"), Edge("F", "manifestation of", "B"),
        Edge("C", "causes", "B"), Edge("F", "manifestation of", "C")]
    return PublicKG({x: Entity(x, names.get(x, x), t) for x, t in types.items()}, {}, edges)


def _answer(drug: str, kg: PublicKG) -> dict:
    return {"id": drug, "path": {"triples": [
        {"head": drug, "head_name": drug, "relation": "positively regulates", "tail": "P", "tail_name": kg.name("P")},
        {"head": "P", "head_name": kg.name("P"), "relation": "contributes to", "tail": "F", "tail_name": kg.name("F")}]}}


def test_the_notes_on_a_hand_made_graph() -> None:
    kg = _kg()
    assert manifested_in(kg, "F") == ["B", "A"]  # the protein C is no disease; B has the more edges
    ranked = [_answer(d, kg) for d in ("d1", "d2", "d3")]
    state = State(question="What drugs treat night blindness?", intent=Intent.TREATS.value, targets=["F"])
    linker = EntityLinker(dict(kg.entities), {})
    assert treats_notes(state, ranked, kg, linker) == (
        " All 3 reach Night blindness through retinol metabolism; the knowledge graph links nothing else into it."
        " In the knowledge graph Night blindness is a manifestation of Vitamin A deficiency and Avitaminosis: ask"
        " \"What drugs treat Vitamin A deficiency?\" for one of them.")
    assert treats_notes(state, ranked[:2], kg, linker).startswith(" In the knowledge graph")  # two answers say little
    # a disease reached one way: the diseases named as kinds of it ("Avitaminosis B" of Avitaminosis)
    assert treats_notes(State(question="q", intent=Intent.TREATS.value, targets=["A"]), ranked, kg, linker).endswith(
        " Kinds of Avitaminosis named so in the knowledge graph: Avitaminosis B: ask \"What drugs treat Avitaminosis B?\" for it.")
    assert "Kinds of" not in treats_notes(State(question="q", intent=Intent.TREATS.value, targets=["A"]), ranked[:2], kg, linker)
    assert treats_notes(State(question="q", intent=Intent.TREATS.value, targets=["F"], among=["d1", "d2", "d3"]),
                        ranked, kg, linker) == ""
    assert treats_notes(State(question="q", intent=Intent.INDICATIONS.value, targets=["F"]), ranked, kg, linker) == ""


def test_the_diseases_a_finding_is_a_manifestation_of(resources) -> None:
    kg = resources.kg
    finding = next(x for x in kg.entity_ids() if kg.name(x) == "Lymphoma" and kg.node(x).type == "PhenotypicFeature")
    found = manifested_in(kg, finding)
    names = [kg.name(x) for x in found]
    assert {"Hodgkin's disease", "Non-Hodgkin's lymphoma"} <= set(names), names
    assert all(kg.node(x).type == "Disease" for x in found)
    assert [kg.degree(x) for x in found] == sorted((kg.degree(x) for x in found), reverse=True)
    gout = next(x for x in kg.entity_ids() if kg.name(x) == "Gout")
    assert manifested_in(kg, gout) == []  # a disease, not a finding of one


def test_drugs_for_a_finding_name_the_narrower_diseases(run_graph, resources) -> None:
    """"What drugs treat lymphoma?" listed mepolizumab, benzoyl peroxide and theophylline with no word that each
    reaches the HPO finding through inflammatory response, the only thing the graph links into it."""
    out, _ = run_graph({"question": "What drugs treat lymphoma?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED
    ranked = out["ranked_answers"]
    entries = {a["path"]["triples"][-1]["head_name"] for a in ranked}
    assert len(ranked) >= 3 and entries == {"inflammatory response"}, entries
    assert (f"All {len(ranked)} reach Lymphoma through inflammatory response; the knowledge graph links nothing else "
            "into it.") in out["answer"]
    note = re.search(r'In the knowledge graph Lymphoma is a manifestation of (.+?): ask "What drugs treat (.+?)\?" for '
                     r"one of them\.", out["answer"])
    assert note, out["answer"]
    assert "Hodgkin's disease" in note[1] and note[1].startswith(note[2])
    narrower, _ = run_graph({"question": f"What drugs treat {note[2]}?"}, interactive=False, memory=False)
    assert narrower["status"] is Status.ANSWERED
    assert {a["id"] for a in narrower["ranked_answers"]} != {a["id"] for a in ranked}


def test_drugs_for_a_generic_disease_reached_one_way_name_its_kinds(run_graph) -> None:
    """"My mom has arthritis. What can she take?" listed carbenoxolone and rebamipide: the graph reaches Arthritis only
    through Arthralgia. The answer names the diseases named as kinds of it, for which curated mechanisms exist."""
    out, _ = run_graph({"question": "What drugs treat arthritis?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and " reach Arthritis through Arthralgia" in out["answer"], out["answer"]
    note = re.search(r'Kinds of Arthritis named so in the knowledge graph: (.+?): ask "What drugs treat (.+?)\?" for one of '
                     r"them\.", out["answer"])
    assert note and note[1].startswith(note[2]) and "Rheumatoid arthritis" in note[1], out["answer"]
    assert "Kinds of" not in run_graph({"question": "What drugs treat asthma?"}, interactive=False, memory=False)[0]["answer"]


def test_no_note_where_the_listed_drugs_take_different_ways(run_graph) -> None:
    for question in ("What drugs treat gout?", "Which statins treat hyperlipidemia?"):
        out, _ = run_graph({"question": question}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED
        entries = {a["path"]["triples"][-1]["head"] for a in out["ranked_answers"]}
        assert len(entries) > 1 or question.startswith("Which statins"), (question, entries)
        assert " reach " not in out["answer"] and "is a manifestation of" not in out["answer"], out["answer"]
