""""Which genes are involved in gout?" walks back from the disease to the proteins on its curated paths, nearest
first. It was NOT_FOUND: the question was read as being about Gout alone, and the walk went forward from it."""

from __future__ import annotations

from typing import Any

import pytest

from agents.intent import parse_question
from agents.state import Intent, Status

PROTEIN_TYPES = {"Protein", "GeneFamily", "MacromolecularComplex"}


def test_the_wordings_that_ask_what_takes_part_in_a_disease() -> None:
    for q, y in (("which genes are involved in gout?", "gout"), ("what proteins are linked to CML?", "CML"),
                 ("genes associated with asthma", "asthma"), ("list the enzymes implicated in gout", "gout"),
                 ("which proteins does gout involve?", "gout")):
        parsed = parse_question(q)
        assert parsed is not None and parsed.intent is Intent.INVOLVED and parsed.disease == y, q
    for q in ("what is linked to gout?", "What drugs target EGFR?", "what causes gout?"):
        parsed = parse_question(q)
        assert parsed is None or parsed.intent is not Intent.INVOLVED, q


def _turn(run_graph: Any, thread: str, question: str) -> dict[str, Any]:
    _out, snap = run_graph({"question": question}, thread=thread, interactive=False)
    return dict(snap.values)


def test_proteins_on_the_paths_into_a_disease_nearest_first(run_graph, resources) -> None:
    out = _turn(run_graph, "inv", "which genes are involved in gout?")
    assert out["intent"] == "involved" and str(out["status"]) == "ANSWERED", out["answer"]
    ranked = out["ranked_answers"]
    gout = out["targets"][0]
    assert len(ranked) == 5 and resources.kg.name(gout) == "Gout"
    for a in ranked:
        triples = a["path"]["triples"]
        assert a["type"] in PROTEIN_TYPES and triples[0]["head"] == a["id"] and triples[-1]["tail"] == gout
    hops = [len(a["path"]["triples"]) for a in ranked]
    assert hops == sorted(hops), hops
    assert out["answer"].startswith("Proteins on the knowledge graph's curated paths into Gout, nearest first: "
                                    f"{ranked[0]['name']}")
    assert out["evidence"] == ranked[0]["path"]["triples"]
    first = _turn(run_graph, "inv", "how does the first one work?")
    assert first["understood_as"] == f"How does {ranked[0]['name']} act on Gout?"
    assert first["status"] is Status.ANSWERED and first["sources"] == [ranked[0]["id"]]
    _turn(run_graph, "inv2", "which genes are involved in gout?")
    other = _turn(run_graph, "inv2", "what about asthma?")
    assert other["understood_as"] == "Which proteins are involved in Asthma?" and other["intent"] == "involved"


def test_pathways_and_processes_on_the_paths_into_a_disease(run_graph) -> None:
    """"What pathways are involved in Alzheimer's?" listed the drugs for Alzheimer's disease."""
    assert parse_question("What pathways are involved in Alzheimer's?").intent is Intent.INVOLVED
    out = _turn(run_graph, "paths", "What pathways are involved in Alzheimer's?")
    assert out["intent"] == "involved" and str(out["status"]) == "ANSWERED", out["answer"]
    assert {a["type"] for a in out["ranked_answers"]} <= {"Pathway", "BiologicalProcess", "MolecularActivity"}
    assert out["answer"].startswith("Pathways and processes on the knowledge graph's curated paths into Alzheimer's disease, "
                                    f"nearest first: {out['ranked_answers'][0]['name']}"), out["answer"]


@pytest.mark.parametrize(("question", "drug"), [
    ("what pathways does metformin affect?", "MESH:D008687"),  # read as a disease: paths "into methionine synthase"
    ("which processes does aspirin affect?", "MESH:D001241"),
    ("what pathway does imatinib inhibit?", "MESH:D000068877"),  # its protein targets
])
def test_a_drug_s_pathways_are_those_its_chains_pass_through(run_graph, resources, question: str, drug: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targets" and out["sources"] == [drug], out["answer"]
    ends = [resources.kg.node(a["id"]).type for a in out["ranked_answers"]]
    assert ends and set(ends) <= {"Pathway", "BiologicalProcess", "MolecularActivity"}, (ends, out["answer"])


@pytest.mark.parametrize(("question", "y"), [("which genes are mutated in CML?", "CML"), ("what gene causes CML?", "CML"),
                                             ("which proteins are responsible for gout?", "gout"),
                                             ("what enzymes are defective in gout?", "gout")])
def test_a_gene_behind_a_disease_is_asked_as_what_takes_part_in_it(run_graph, question: str, y: str) -> None:
    """These listed the drugs for the disease; a mutation is said to be outside the graph."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.INVOLVED and parsed.disease == y, parsed
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["intent"] == "involved" and out["status"] is Status.ANSWERED, out["answer"]
    said = "The knowledge graph holds curated drug mechanisms, not mutations. What it holds: "
    assert out["answer"].startswith(said) is ("mutated" in question), out["answer"]
    assert "Proteins on the knowledge graph's curated paths into " in out["answer"], out["answer"]
