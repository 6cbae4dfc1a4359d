""""which of these cause CML?" after "What does imatinib target?" listed the drugs for CML, and "which of them are
involved in breast cancer?" after tamoxifen's targets was asked as "Which of Tamoxifen are involved in breast
cancer?". Which of a drug's listed targets bear on a disease is how the drug reaches it: the chain names the target."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize(("first", "then", "understood"), [
    ("What does imatinib target?", "which of these cause CML?", "How does imatinib treat CML?"),
    ("What does imatinib target?", "which of them is linked to GIST?", "How does imatinib treat GIST?"),
    ("What are the targets of tamoxifen?", "which of them are involved in breast cancer?", "How does Tamoxifen treat breast cancer?"),
])
def test_which_listed_target_bears_on_a_disease_is_the_drug_s_chain_to_it(run_graph, first: str, then: str,
                                                                           understood: str) -> None:
    listed, out = in_thread(run_graph, f"targets-{then}", first, then)
    assert listed["status"] is Status.ANSWERED and out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == understood and out["intent"] == "mechanism", out["answer"]
    drug = listed["sources"][0]
    assert out["sources"] == [drug] and out["evidence"][0]["head"] == drug, out["evidence"]
    # the chain leaves the drug through one of the targets the first answer listed
    assert out["evidence"][0]["tail_name"] in listed["answer"].split(". Best evidence")[0], (listed["answer"], out["evidence"])


def test_a_place_is_not_read_as_a_disease(run_graph) -> None:
    """"which of these are in the liver?" names a place: it is not asked as how the drug treats "the liver" (which
    linked Hepatic Veno-Occlusive Disease and told an 8-step chain)."""
    _listed, out = in_thread(run_graph, "targets-liver", "What does metformin target?", "which of these are in the liver?")
    assert not out.get("understood_as", "").startswith("How does"), out["answer"]


def test_what_disease_that_is_linked_to_is_the_target_just_named(run_graph) -> None:
    """"what disease is that linked to?" after omeprazole's one target was `NOT_FOUND` ("no known entity"): "that" is
    the target, and the answer lists the diseases its curated chains lead to."""
    listed, out = in_thread(run_graph, "targets-that", "what is the target of omeprazole", "what disease is that linked to?")
    assert listed["status"] is Status.ANSWERED and out["status"] is Status.ANSWERED, out["answer"]
    target = listed["answer"].split("acts on: ")[1].split(". Best evidence")[0]
    assert out["understood_as"] == f"What disease is {target} linked to?", out["answer"]
    assert "Peptic ulcer" in out["answer"], out["answer"]


def test_a_protein_asked_about_is_the_thread_s_target(run_graph) -> None:
    """"how does imatinib block it?" after "what is ABL1?" was answered with what imatinib is connected to: the
    pronoun was read as the drug the question names, and the protein the turn before was about was no target of the
    thread. "which drugs inhibit it?" after "tell me about the serotonin transporter" already asked about it."""
    _, out = in_thread(run_graph, "abl1-it", "what is ABL1?", "how does imatinib block it?")
    assert out["understood_as"] == "How does imatinib block Tyrosine-protein kinase ABL1?", out["answer"]
    assert out["answer"].split('" ', 1)[1].startswith("imatinib acts on Tyrosine-protein kinase ABL1 through"), out["answer"]
    _, sert = in_thread(run_graph, "sert-it", "tell me about the serotonin transporter", "which drugs inhibit it?")
    assert sert["understood_as"] == "Which drugs inhibit Sodium-dependent serotonin transporter?", sert["answer"]
    _, gout = in_thread(run_graph, "gout-it", "what is gout?", "how does allopurinol treat it?")  # a disease: as before
    assert gout["understood_as"] == "How does allopurinol treat Gout?", gout["answer"]


@pytest.mark.parametrize(("then", "understood"), [
    ("where is it found?", "Where is Potassium-transporting ATPase alpha chain 1 found?"),
    ("what does it do?", "What does Potassium-transporting ATPase alpha chain 1 do?"),
])
def test_it_after_what_a_protein_is_is_the_protein_not_the_earlier_drug(run_graph, then: str, understood: str) -> None:
    """"where is it found?" after "what is the proton pump?", asked after how omeprazole reduces stomach acid, was
    "Where is Omeprazole found?": the drug of an earlier turn, not the protein the last one was about."""
    *_, out = in_thread(run_graph, f"pump-{then}", "How does omeprazole reduce stomach acid?", "what is the proton pump?", then)
    assert out["understood_as"] == understood, out["answer"]


def test_what_that_does_after_one_listed_entity_is_about_it(run_graph) -> None:
    """"What does that do?" after metformin's one target asked about metformin again ("What does Metformin do?", the
    same answer); after several targets "that" names none of them, so the drug is still what is asked about."""
    first, out = in_thread(run_graph, "that-does", "what does metformin target?", "what does that do?")
    listed = [e["tail_name"] for e in first["evidence"] if e["head_name"] == "Metformin"]
    assert len(set(listed)) == 1, first["answer"]
    assert out["understood_as"] == f"What does {listed[0]} do?" and out["status"] is Status.ANSWERED, out["answer"]
    _first, several = in_thread(run_graph, "that-does-many", "what does imatinib target?", "what does that do?")
    assert several["understood_as"] == "What does imatinib do?", several["answer"]


@pytest.mark.parametrize(("first", "then"), [
    ("What does imatinib target?", "which drugs act on them?"),
    ("what genes are involved in gout?", "which drugs act on them?"),
    ("what genes are involved in Alzheimer's disease?", "which drugs target these?"),
    ("What does imatinib target?", "which other drugs inhibit them?"),
    ("What does imatinib target?", "Which other drugs hit the same targets?"),
    ("What does imatinib target?", "which drugs share these targets?"),
    ("What does imatinib target?", "what other drugs act on the same ones?"),
    ("what genes are involved in alzheimer's?", "are there drugs that target them?"),  # since stop 101: "Are there
    ("what proteins are involved in gout?", "any drugs that inhibit them?"),  # drugs that target Alzheimer's disease?"
])
def test_drugs_acting_on_listed_proteins_act_on_any_of_them(run_graph, first: str, then: str) -> None:
    """"which drugs act on them?" after a list of proteins was asked of the first protein alone (after imatinib's
    targets) or of the disease (after the genes of gout: "Which drugs act on Gout?"), and "which drugs target these?"
    and "which other drugs hit the same targets?" were NOT_FOUND. Every listed protein is a target, and each drug
    listed acts on one of them."""
    listed, out = in_thread(run_graph, f"on-them-{first}-{then}", first, then)
    proteins = [a["id"] for a in listed["ranked_answers"]]
    assert listed["status"] is Status.ANSWERED and out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"].endswith("the listed proteins?") and out["intent"] == "targeted_by", out["answer"]
    assert len(out["targets"]) > 1 and set(out["targets"]) <= set(proteins), (out["targets"], proteins)
    assert f"the {len(out['targets'])} listed proteins (any of them)" in out["answer"], out["answer"]
    for a in out["ranked_answers"]:
        assert {t["tail"] for t in a["path"]["triples"]} & set(out["targets"]), a
    if "other" in then:  # the thread's drug is left out
        assert listed["sources"][0] not in {a["id"] for a in out["ranked_answers"]}, out["answer"]


def test_drugs_acting_on_them_after_a_list_of_drugs_is_not_read_so(run_graph) -> None:
    """After a list of drugs, "which drugs act on them?" is not about the listed proteins."""
    _listed, out = in_thread(run_graph, "on-them-drugs", "What drugs treat gout?", "which drugs act on them?")
    assert "listed proteins" not in out.get("understood_as", ""), out["answer"]
