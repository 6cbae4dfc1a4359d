""""Which NSAIDs are COX-2 selective?" was NOT_FOUND ("no chain of relations from non-steroidal anti-inflammatory drug
to Prostaglandin G/H synthase 2"), and "which beta blockers are selective for the beta-1 receptor?" opened with the
note that the graph does not compare how well drugs work. The graph does not record selectivity; the answer says so,
then which of the class's drugs its curated mechanisms name acting on the target and on none of the class's other
shared targets."""

from __future__ import annotations

import re

import pytest

from agents.selective import NOTE, selective_question
from agents.state import Status
from tests.conftest import in_thread


def _direct(kg, drug: str) -> set[str]:
    return {kg.name(e.tail) for e in kg.out_edges(drug)}


@pytest.mark.parametrize("question", ["which NSAIDs are COX-2 selective?", "which NSAIDs are selective COX-2 inhibitors?",
                                      "which NSAID is selective for COX-2?"])
def test_the_class_s_drugs_that_name_the_target_alone(run_graph, resources, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["intent"] == "selective" and out["status"] is Status.ANSWERED, out["answer"]
    m = re.match(re.escape(NOTE) + r"Of the (\d+) NSAIDs, these act on Prostaglandin G/H synthase 2 and on none of the other "
                 r"targets they share \(Prostaglandin G/H synthase 1\): (?P<names>.+?)\. (?P<both>\d+) act on both\.$", out["answer"])
    assert m is not None, out["answer"]
    kg, linker = resources.kg, resources.linker
    by_name = {kg.name(c.id): c.id for c in linker.drug_class("NSAIDs")}
    for name in m["names"].split(", "):
        acts = _direct(kg, by_name[name])
        assert "Prostaglandin G/H synthase 2" in acts and "Prostaglandin G/H synthase 1" not in acts, (name, acts)


def test_one_drug_is_told_what_else_it_acts_on(run_graph) -> None:
    out, _ = run_graph({"question": "is ibuprofen COX-2 selective?"}, interactive=False, memory=False)
    assert out["answer"] == NOTE + "It records Ibuprofen acting on Prostaglandin G/H synthase 2 and also on Prostaglandin G/H synthase 1."
    beta, _ = run_graph({"question": "which beta blockers are selective for the beta-1 receptor?"}, interactive=False, memory=False)
    assert re.match(re.escape(NOTE) + r"Of the \d+ beta blockers, these act on Beta-1 adrenergic receptor and on none of the other "
                    r"targets they share \(Beta-2 adrenergic receptor", beta["answer"]), beta["answer"]


@pytest.mark.parametrize("question", ["which drugs treat gout?", "which statins are the strongest?",
                                      "is the test selective for CML?"])
def test_other_questions_are_not_about_selectivity(resources, question: str) -> None:
    assert selective_question(question, resources.linker) is None


def test_whether_a_drug_is_selective_with_no_target_reads_its_targets(run_graph) -> None:
    """"is it selective?" after a drug was told what the drug is connected to, with no word on selectivity; until stop
    100 it got the note on comparisons of how well drugs work, and what the drug is connected to. Now the note on
    selectivity, then what the drug acts on (a drug of no class)."""
    _first, out = in_thread(run_graph, "selective-bare", "what is febuxostat used for?", "is it selective?")
    assert out["understood_as"] == "Is Febuxostat selective?", out["answer"]
    assert out["intent"] == "selective", out["answer"]
    assert out["answer"].endswith(NOTE + "It records Febuxostat acting on Xanthine dehydrogenase/oxidase."), out["answer"]


@pytest.mark.parametrize(("question", "said"), [
    ("is propranolol selective?", "it records Propranolol acting on both: by its mechanisms, it is not selective among them."),
    ("is propranolol non-selective?", "it records Propranolol acting on both: by its mechanisms, it is not selective among them."),
    ("is metoprolol selective?", "it records Metoprolol acting on Beta-1 adrenergic receptor alone, not on Beta-2 adrenergic receptor."),
    ("is aspirin a selective inhibitor?", "it records Aspirin acting on both: by its mechanisms, it is not selective among them."),
])
def test_whether_a_drug_of_a_class_is_selective_reads_the_class_s_shared_targets(run_graph, question: str, said: str) -> None:
    """"Is propranolol selective?" got the note on comparisons of how well drugs work and what it is connected to;
    "is aspirin a selective inhibitor?" read "selective" as a channel activity and was NOT_FOUND (since stop 100)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["intent"] == "selective" and out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith(NOTE + "Of the targets the "), out["answer"]
    assert out["answer"].endswith(said), out["answer"]


def test_the_class_s_count_is_one_per_name(run_graph, resources) -> None:
    """It counted the class table's entries ("Of the 26 NSAIDs"), where the class's own answer counts names (23)."""
    out, _ = run_graph({"question": "which NSAIDs are COX-2 selective?"}, interactive=False, memory=False)
    names = {c.name.casefold() for c in resources.linker.drug_class("NSAIDs")}
    assert f"Of the {len(names)} NSAIDs," in out["answer"], out["answer"]


def test_which_of_them_after_the_class_s_drugs_asks_of_the_class(run_graph) -> None:
    """It was "How do the listed drugs work?", after the note on comparisons of how well drugs work."""
    _first, out = in_thread(run_graph, "selective-them", "what are some NSAIDs?", "which of them are selective for COX-2?")
    assert out["understood_as"] == "Which NSAIDs are selective for COX-2?", out["answer"]
    assert out["intent"] == "selective" and NOTE in out["answer"], out["answer"]


def test_cardioselective_is_selective_for_the_beta_1_receptor(run_graph) -> None:
    """"which beta blockers are cardioselective?" was not read as selectivity, and "which one is most cardioselective?"
    after how beta blockers lower blood pressure compared five of them with the note on how well drugs work."""
    out, _ = run_graph({"question": "which beta blockers are cardioselective?"}, interactive=False, memory=False)
    assert out["intent"] == "selective" and "act on Beta-1 adrenergic receptor and on none of the other targets" in out["answer"], out["answer"]
    _first, most = in_thread(run_graph, "cardio", "explain how beta blockers lower blood pressure", "which one is most cardioselective?")
    assert most["understood_as"] == "Which beta blockers are most beta-1 selective?" and most["intent"] == "selective", most["answer"]
    _two, pair = in_thread(run_graph, "cardio-two", "compare metoprolol and propranolol", "which one is more cardioselective?")
    assert pair["understood_as"] == "Compare Metoprolol and Propranolol", pair["answer"]  # two drugs are no class


def test_one_of_them_after_a_class_s_selective_drugs_asks_it_of_the_drug(run_graph) -> None:
    """"is carvedilol one of them?" after which beta blockers are cardioselective was told what carvedilol is connected
    to, with no word on selectivity (``agents.selective._one_of_them``); so was a second one after it."""
    outs = in_thread(run_graph, "selective-one-of", "how do beta blockers work?", "which ones are cardioselective?",
                     "is carvedilol one of them?", "is propranolol one of them?")
    for out, drug in zip(outs[2:], ("Carvedilol", "Propranolol"), strict=True):
        assert out["status"] is Status.ANSWERED and out["understood_as"] == f"Is {drug} beta-1 selective?", out["answer"]
        assert f"It records {drug} acting on Beta-1 adrenergic receptor" in out["answer"], out["answer"]
    assert "and also on Beta-2 adrenergic receptor" in outs[3]["answer"], outs[3]["answer"]
