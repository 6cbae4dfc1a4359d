""""gout", typed alone, is read as "What is gout?" is: the drugs with a mechanism for it. It was NOT_FOUND ("no
candidate path was found within the walk budget"): the walk went forward from the disease."""

from __future__ import annotations

import pytest

from agents.described import about
from agents.state import Status


def test_a_bare_name_is_a_request_for_a_description() -> None:
    assert [about(q) for q in ("gout", "Gout?", "chronic myeloid leukemia", "What is gout?", "define gout",
                               "definition of CML")] == ["gout", "Gout", "chronic myeloid leukemia", "gout", "gout", "CML"]
    # a question, a list of names, or a long text is not a bare name
    assert [about(q) for q in ("how does imatinib work?", "and gout?", "does it work?",
                               "gout pain in the big toe at night")] == [""] * 4


def test_a_disease_typed_alone_lists_what_treats_it(run_graph) -> None:
    for q in ("gout", "Gout?"):
        out, _ = run_graph({"question": q}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED and out["understood_as"] == "What drugs treat Gout?", q
        assert out["ranked_answers"] and out["answer"].startswith('Understood as: "What drugs treat Gout?" The knowledge graph')
    drug, _ = run_graph({"question": "imatinib"}, interactive=False, memory=False)  # a drug: what it is connected to
    assert drug["status"] is Status.ANSWERED and drug["understood_as"] == "" and drug["intent"] == "entity"


def test_a_description_of_a_name_several_entities_hold_asks_which(run_graph, resources) -> None:
    """"What is reverse transcriptase?" holds no whole name, and was NOT_FOUND ("no known entity in the question"). The
    words are linked as written: several entities hold them, so an interactive run asks which, and a run that cannot
    ask answers for the first. Words that link nothing stay NOT_FOUND."""
    from langgraph.types import Command

    def holds(c: dict) -> bool:
        return any("reverse transcriptase" in n.casefold() for n in (c["name"], *resources.linker.aliases.get(c["id"], ())))

    _out, snap = run_graph({"question": "what is reverse transcriptase?"}, thread="rt", interactive=True, memory=False)
    pending = [i.value for t in snap.tasks for i in t.interrupts]
    assert pending and pending[0]["mention"] == "reverse transcriptase", pending
    assert len(pending[0]["candidates"]) > 1 and all(holds(c) for c in pending[0]["candidates"])
    out, _ = run_graph(Command(resume="2"), thread="rt", interactive=True, memory=False)
    assert out["status"] is Status.ANSWERED and out["sources"] == [pending[0]["candidates"][1]["id"]], out["answer"]
    none, _ = run_graph({"question": "what is blorptazine?"}, interactive=False, memory=False)
    assert none["status"] is Status.NOT_FOUND


@pytest.mark.parametrize("question, lead", [
    ("What is imatinib?", "In the knowledge graph, imatinib is a drug (MESH:D000068877), one of the tyrosine kinase inhibitors. "),
    ("what is Gleevec?", "In the knowledge graph, Gleevec is imatinib, a drug (MESH:D000068877), one of the tyrosine kinase inhibitors. "),
    ("tell me about EGFR", "In the knowledge graph, EGFR is Epidermal growth factor receptor, a protein (UniProt:P00533). "),
    # as written, not as the linker folds it ("hmg coa reductase")
    ("what is HMG-CoA reductase?", ("In the knowledge graph, HMG-CoA reductase is 3-hydroxy-3-methylglutaryl-coenzyme A "
                                    "reductase, a protein (UniProt:P04035). ")),
    ("what is inflammatory response?", "In the knowledge graph, inflammatory response is a process in the body (GO:0006954). "),
    # a word before or after the request ("so …", "… then?"): they were told only what metformin is connected to
    ("so what is metformin, then?", "In the knowledge graph, Metformin is a drug (MESH:D008687), one of the biguanides. "),
    ("what is metformin exactly?", "In the knowledge graph, Metformin is a drug (MESH:D008687), one of the biguanides. "),
])
def test_what_an_entity_is_comes_before_what_it_is_connected_to(run_graph, question: str, lead: str) -> None:
    """"What is imatinib?" was answered with what imatinib is connected to, and nothing about what it is."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(lead), out["answer"]
    assert " is connected to: " in out["answer"]
    plain, _ = run_graph({"question": "How does imatinib treat CML?"}, interactive=False, memory=False)
    assert not plain["answer"].startswith("In the knowledge graph, "), plain["answer"]


def test_what_insulin_is_names_the_protein_and_the_drugs_named_after_it(run_graph, resources) -> None:
    """"What is insulin?" told that insulin prevents Hyperglycemia, not that the graph's insulin is the protein and the
    drugs are named after it."""
    out, _ = run_graph({"question": "what is insulin?"}, interactive=False, memory=False)
    named = [c.name for c in resources.linker.drugs_named_by("insulin", [], {"Drug": 1.0})]
    assert len(named) > 4 and "Insulin human" in named[:4]
    assert out["answer"].startswith(f"In the knowledge graph, insulin is a protein (UniProt:P01308). Drugs named after it: "
                                    f"{', '.join(named[:4])} and {len(named) - 4} more; ask about one of them"), out["answer"]


@pytest.mark.parametrize("question, lead", [
    ("is insulin a protein?", "Yes: in the knowledge graph, insulin is a protein (UniProt:P01308). Drugs named after it: "),
    ("is gout a disease?", "Yes: in the knowledge graph, Gout is a disease (MESH:D006073). Drugs with a verified mechanism"),
    ("is aspirin a protein?", "No: in the knowledge graph, Aspirin is a drug (MESH:D001241), not a protein. It is one of the NSAIDs"),
    # the graph lists Hyperglycemia twice, as a MeSH disease and an HPO sign: both are said (the sign alone was, as a "No")
    ("is hyperglycemia a disease?", ("Yes: in the knowledge graph, Hyperglycemia is a disease (MESH:D006943); it is also "
                                     "listed as a sign or symptom (HP:0003074). ")),
    ("is atrial fibrillation a symptom?", ("Yes: in the knowledge graph, Atrial fibrillation is a sign or symptom "
                                           "(HP:0005110); it is also listed as a disease (MESH:D001281). ")),
    ("what kind of thing is uric acid?", "In the knowledge graph, Uric Acid is a chemical (MESH:D014527). "),
])
def test_whether_an_entity_is_of_a_kind_is_answered_yes_or_no(run_graph, question: str, lead: str) -> None:
    """"is aspirin a protein?" was answered with what aspirin is connected to, and "is gout a disease?" with the drugs
    for gout, neither with a yes or a no."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(lead), out["answer"]
    member, _ = run_graph({"question": "is imatinib a kinase inhibitor?"}, interactive=False, memory=False)
    assert member["answer"].startswith("Yes: imatinib is one of the kinase inhibitors"), member["answer"]
