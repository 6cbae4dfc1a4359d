""""Is Gleevec the same as imatinib?", "What's the generic name of Lipitor?": answered from the linker's names (the
first was NOT_FOUND, "no chain of relations from imatinib to imatinib"; the others listed what the drug is connected
to)."""

from __future__ import annotations

import pytest

from agents.names import names_question
from agents.state import Status
from tests.conftest import in_thread


def _id(resources, name: str) -> str:
    return resources.linker.link(name).candidates[0].id


def test_two_names_of_one_drug_and_of_two(run_graph, resources) -> None:
    out, _ = run_graph({"question": "Is Gleevec the same as imatinib?"}, interactive=False, memory=False)
    assert _id(resources, "Gleevec") == _id(resources, "imatinib")  # the brand table puts Gleevec on imatinib
    assert out["status"] is Status.ANSWERED and out["intent"] == "names", out["answer"]
    assert out["answer"] == (f"Yes: Gleevec and imatinib name the same entity in the knowledge graph, imatinib "
                             f"({_id(resources, 'imatinib')}).")
    other, _ = run_graph({"question": "Is Tylenol the same as ibuprofen?"}, thread="t2", interactive=False, memory=False)
    assert other["answer"].startswith("No: in the knowledge graph Tylenol is Acetaminophen "), other["answer"]
    unknown, _ = run_graph({"question": "is aspirin the same as qwzx?"}, thread="t3", interactive=False, memory=False)
    assert unknown["status"] is Status.NOT_FOUND and '"qwzx" is not in the knowledge graph' in unknown["answer"]


def test_the_names_of_a_drug_are_the_linker_s(run_graph, resources) -> None:
    out, _ = run_graph({"question": "what other names does acetaminophen have?"}, interactive=False, memory=False)
    aliases = [a for a in resources.linker.aliases[_id(resources, "acetaminophen")] if a.casefold() != "acetaminophen"]
    assert out["answer"].startswith("Acetaminophen (") and all(a in out["answer"] for a in aliases[:3]), out["answer"]
    generic, _ = run_graph({"question": "What's the generic name of Lipitor?"}, thread="t2", interactive=False, memory=False)
    assert generic["answer"].startswith("Lipitor is atorvastatin in the knowledge graph ("), generic["answer"]
    ace, _ = run_graph({"question": "What does ACE stand for?"}, thread="t3", interactive=False, memory=False)
    assert ace["answer"].startswith("ACE is Angiotensin-converting enzyme in the knowledge graph"), ace["answer"]


@pytest.mark.parametrize("question", ["what's another name for acetaminophen?", "what is a different name for acetaminophen?"])
def test_another_name_for_a_drug_lists_its_names(run_graph, resources, question: str) -> None:
    """These were told what acetaminophen is connected to."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    aliases = [a for a in resources.linker.aliases[_id(resources, "acetaminophen")] if a.casefold() != "acetaminophen"]
    assert out["intent"] == "names" and out["answer"].startswith("Acetaminophen ("), out["answer"]
    assert all(a in out["answer"] for a in aliases[:3]), out["answer"]


def test_the_drug_named_is_the_thread_s(run_graph) -> None:
    _, then = in_thread(run_graph, "names", "Is Gleevec the same as imatinib?", "what does it target?")
    assert then["understood_as"] == "What does imatinib target?", then["answer"]


def test_it_in_a_question_about_names_is_the_thread_s_drug(run_graph) -> None:
    """"is it the same as Gleevec?" after imatinib was NOT_FOUND: '"it" is not in the knowledge graph'."""
    _, same, other = in_thread(run_graph, "names", "How does imatinib treat CML?", "is it the same as Gleevec?",
                               "is Tylenol the same as that drug?")
    assert same["understood_as"] == "Is imatinib the same as Gleevec?", same["answer"]
    assert same["status"] is Status.ANSWERED and "Yes: imatinib and Gleevec name the same entity" in same["answer"]
    assert other["answer"].startswith('Understood as: "Is Tylenol the same as imatinib?" No: '), other["answer"]
    alone, _ = run_graph({"question": "is it the same as Gleevec?"}, thread="alone", interactive=False, memory=False)
    assert alone["status"] is Status.NOT_FOUND and 'for "it" to refer to' in alone["answer"], alone["answer"]


@pytest.mark.parametrize(("question", "opening"), [
    ("what is the active ingredient in advil?", "advil is Ibuprofen in the knowledge graph ("),
    ("what's the generic for Zoloft", "Zoloft is sertraline in the knowledge graph ("),
    ("what is the generic version of lipitor?", "lipitor is atorvastatin in the knowledge graph ("),
])
def test_the_generic_or_the_active_ingredient_of_a_brand_is_its_drug(run_graph, question: str, opening: str) -> None:
    """They were told what the drug is connected to, without a word on the brand."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["answer"].startswith(opening), out["answer"]


@pytest.mark.parametrize("question", ["What is the drug for gout called?", "How does imatinib treat CML?",
                                      "Is imatinib a kinase inhibitor?", "what is the name of the drug for gout?",
                                      "what is the generic drug for gout?"])
def test_other_questions_are_no_names_question(resources, question: str) -> None:
    assert names_question(question, resources.linker) is None


@pytest.mark.parametrize(("question", "opening"), [("are motrin and advil the same?", "Yes: motrin and advil name the same entity"),
                                                   ("are aspirin and ibuprofen the same?", "No: in the knowledge graph aspirin is")])
def test_whether_two_names_are_the_same_reads_both(run_graph, question: str, opening: str) -> None:
    """The first was NOT_FOUND ("no chain of relations from Ibuprofen to Ibuprofen"), the second too ("… from Aspirin
    to Ibuprofen"); "is motrin the same as advil?" was answered."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(opening), out["answer"]
