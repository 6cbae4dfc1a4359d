""""What are the alternatives?" after a turn about one drug asked the last question again ("What is metoprolol used
for?", leaving out the diseases it had listed) or was NOT_FOUND; it asks for alternatives to the drug now. "Tell me
about lisinopril and losartan" was read as a chain from one drug to the other (NOT_FOUND). "What other drugs target
that?" after "what is clopidogrel?" asked what "that" was, and "which drugs hit COX-1?" told what COX-1 is connected
to. "What if it doesn't work?" was told what the drug is connected to, and "which ones don't make you drowsy?" after a
drug class was NOT_FOUND."""

from __future__ import annotations

import pytest

from agents.class_member import MEMBERS_SHOWN, class_drugs
from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize(("first", "then"), [
    ("what is metoprolol used for?", "what are the alternatives?"),
    ("what is metoprolol?", "is there an alternative?"),
    ("how does metoprolol work?", "what else could I take instead?"),
    ("what does metoprolol target?", "are there any alternatives?"),
])
def test_alternatives_after_one_drug_are_to_that_drug(run_graph, first: str, then: str) -> None:
    _first, out = in_thread(run_graph, f"alt-{first}-{then}", first, then)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == "Which other drugs inhibit Beta-1 adrenergic receptor?", out["answer"]
    assert "Metoprolol left out" in out["answer"] and "bisoprolol" in out["answer"], out["answer"]


@pytest.mark.parametrize("asked", ["are there any alternatives?", "is there an alternative?", "is there another option?",
                                   "what else could help?", "anything else that might help?"])
def test_alternatives_after_a_drug_for_a_disease_are_other_drugs_for_it(run_graph, asked: str) -> None:
    """With a disease in the turn, the alternatives are the other drugs for that disease ("is there an alternative?"
    after how allopurinol treats gout was NOT_FOUND, "no known entity in the question"; so was "what else could
    help?" until stop 101)."""
    _first, out = in_thread(run_graph, f"alt-disease-{asked}", "how does aspirin treat headache?", asked)
    assert out["understood_as"] == "Which other drugs treat Headache disorder?", out["answer"]


def test_alternatives_after_a_list_of_drugs_are_more_of_the_list(run_graph) -> None:
    """A guard: after a list of drugs, "any alternatives?" asks for more of them, as before."""
    _first, out = in_thread(run_graph, "alt-list", "what drugs treat asthma?", "any alternatives?")
    assert out["understood_as"] == "What drugs treat asthma?", out["answer"]
    assert "Leaving out those already named" in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["tell me about lisinopril and losartan", "what are lisinopril and losartan?"])
def test_two_drugs_asked_about_are_told_what_each_acts_on(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == "What do lisinopril and Losartan target?", out["answer"]
    assert "Angiotensin-converting enzyme" in out["answer"] and "Type-1 angiotensin II receptor" in out["answer"], out["answer"]


def test_two_diseases_asked_about_are_compared(run_graph) -> None:
    out, _ = run_graph({"question": "tell me about asthma and copd"}, interactive=False, memory=False)
    assert out["understood_as"] == "Compare Asthma and Chronic obstructive lung disease", out["answer"]
    assert "both linked to" in out["answer"], out["answer"]


def test_a_name_inside_longer_words_is_not_asked_about(run_graph) -> None:
    """A guard: "the difference between lisinopril" names no drug whole; the question is the comparison it was."""
    out, _ = run_graph({"question": "what is the difference between lisinopril and losartan?"}, interactive=False, memory=False)
    assert not out.get("understood_as"), out["answer"]
    assert "Only Losartan acts on" in out["answer"], out["answer"]


@pytest.mark.parametrize("then", ["what other drugs target that?", "any other drugs hitting that?"])
def test_that_after_what_a_drug_is_is_its_target(run_graph, then: str) -> None:
    _first, out = in_thread(run_graph, f"that-target-{then}", "what is clopidogrel?", then)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert "P2Y purinoceptor 12" in out["understood_as"], out["answer"]
    assert "Ticagrelor" in out["answer"], out["answer"]


def test_hit_is_a_verb_of_targeting(run_graph) -> None:
    out, _ = run_graph({"question": "which drugs hit COX-1?"}, interactive=False, memory=False)
    assert out["answer"].startswith("Drugs that act on Prostaglandin G/H synthase 1"), out["answer"]


def test_what_if_it_does_not_work_after_a_drug_for_a_disease_lists_the_other_drugs(run_graph) -> None:
    """It was told what sertraline is connected to, with no word that the graph holds nothing on it."""
    _first, out = in_thread(run_graph, "no-response", "how does sertraline treat depression?", "what if it does not work?")
    assert out["understood_as"] == "Which other drugs treat Depressive disorder?", out["answer"]
    assert "not what to do when a drug does not work" in out["answer"], out["answer"]
    assert "sertraline" not in out["answer"].split("What it holds:")[-1].split("Best evidence")[0], out["answer"]


def test_what_if_it_does_not_help_after_a_drug_alone_asks_for_its_alternatives(run_graph) -> None:
    _first, out = in_thread(run_graph, "no-response-drug", "what does sertraline treat?", "what if it doesnt help?")
    assert out["understood_as"] == "Which other drugs inhibit Sodium-dependent serotonin transporter?", out["answer"]


@pytest.mark.parametrize("then", ["which ones don't make you drowsy?", "which ones are non-drowsy?", "which of them are cheapest?"])
def test_what_the_graph_lacks_about_a_class_answers_with_its_drugs(run_graph, then: str) -> None:
    """They were `NOT_FOUND`, "no known entity in the question"."""
    _first, out = in_thread(run_graph, f"class-beyond-{then}", "how do antihistamines work?", then)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == "Which drugs are antihistamines?", out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not" in out["answer"], out["answer"]


@pytest.mark.parametrize(("then", "note"), [
    ("which ones are safe in pregnancy?", "not use in pregnancy or breastfeeding"),
    ("which ones are safe for children?", "not safety"),
])
def test_a_population_after_a_class_answers_with_its_drugs(run_graph, resources, then: str, note: str) -> None:
    """"Which drugs are statins in pregnancy?", as the follow-up was understood, was `NOT_FOUND`: "no drug and drug class
    in the question"."""
    _first, out = in_thread(run_graph, f"class-population-{then}", "what are statins?", then)
    assert out["status"] is Status.ANSWERED and note in out["answer"], out["answer"]
    names = [c.name for c in class_drugs(resources.linker, "statins")][:MEMBERS_SHOWN]
    assert f"the most connected first: {', '.join(names)}." in out["answer"], out["answer"]


def test_a_class_s_drugs_for_a_population_say_it_is_not_told_apart(run_graph) -> None:
    out, _ = run_graph({"question": "which drugs are statins in children?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and "The class table lists 8 statins" in out["answer"], out["answer"]
    assert out["answer"].endswith("Neither the class table nor the knowledge graph tells them apart for children."), out["answer"]
