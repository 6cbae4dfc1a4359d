""""does it work the same way?" after turns about aspirin and then clopidogrel was asked of clopidogrel alone ("Is
Clopidogrel the same mechanism?", what it is connected to), and "does it work the same way as ibuprofen?" after
naproxen told what ibuprofen is connected to. Both compare the two drugs now; after one drug, "it" has nothing to be
set against and the question is read as before. "Why are they given together?" after levodopa and carbidopa names
both."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize("then", ["does it work the same way?", "is it the same mechanism?", "does it work differently?",
                                  "does that one act in the same way as the other one?"])
def test_it_after_two_drugs_compares_them(run_graph, then: str) -> None:
    *_, out = in_thread(run_graph, f"alike-{then}", "how does aspirin prevent heart attacks?", "and clopidogrel?", then)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == "Compare Aspirin and Clopidogrel", out["answer"]
    # what each acts on, by name; no drug left out as "already named", and no note on how well drugs work
    assert "P2Y purinoceptor 12" in out["answer"] and "Prostaglandin G/H synthase 1" in out["answer"], out["answer"]
    assert "Leaving out" not in out["answer"] and "how well drugs work" not in out["answer"], out["answer"]


@pytest.mark.parametrize("then", ["does it work the same way as ibuprofen?", "does it work like ibuprofen?",
                                  "does it act differently from ibuprofen?"])
def test_it_set_against_a_named_drug_compares_the_two(run_graph, then: str) -> None:
    first, out = in_thread(run_graph, f"like-{then}", "what does naproxen target?", then)
    assert first["status"] is Status.ANSWERED and out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == "Compare naproxen and Ibuprofen", out["answer"]
    assert "naproxen and Ibuprofen both act on" in out["answer"], out["answer"]
    assert "how well drugs work" not in out["answer"], out["answer"]


def test_it_after_one_drug_is_not_a_comparison(run_graph) -> None:
    """After one drug there is nothing to set "it" against: the question is not read as a comparison."""
    _first, out = in_thread(run_graph, "alike-one", "How does ibuprofen work?", "does it work the same way?")
    assert not out.get("understood_as", "").startswith("Compare"), out["answer"]


@pytest.mark.parametrize("then", ["why are they given together?", "why would you combine them?"])
def test_why_two_drugs_are_given_together_names_both(run_graph, then: str) -> None:
    """It was "Why are carbidopa given together?", `NOT_FOUND`; now it is read as "why is carbidopa given with it?" is."""
    *_, out = in_thread(run_graph, f"together-{then}", "How does levodopa treat Parkinson's disease?", "what about carbidopa?",
                        then)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == "Why is carbidopa given with levodopa?", out["answer"]
    assert "Aromatic-L-amino-acid decarboxylase" in out["answer"], out["answer"]


def test_which_is_better_after_two_drugs_asked_about_since_a_list_compares_those_two(run_graph) -> None:
    """"which is better?" after salbutamol and then montelukast, neither of them in the list of drugs for asthma asked
    before them, compared the five listed drugs; it compares the two. Right after the list it still compares the list."""
    *_, out = in_thread(run_graph, "better-since-list", "What drugs treat asthma?", "how does salbutamol work?",
                        "what about montelukast?", "which is better?")
    assert out["understood_as"].startswith("Compare Salbutamol and Montelukast"), out["answer"]
    _listed, right_after = in_thread(run_graph, "better-right-after-list", "What drugs treat asthma?", "which is better?")
    assert right_after["understood_as"].count(",") >= 2, right_after["answer"]


@pytest.mark.parametrize("then", ["do they treat the same things?", "are they used for the same conditions?"])
def test_whether_two_drugs_treat_the_same_diseases(run_graph, then: str) -> None:
    """It was "Do valsartan treat the same things?", `NOT_FOUND` ("same things" is not in the knowledge graph)."""
    *_, out = in_thread(run_graph, f"treat-alike-{then}", "What does losartan treat?", "and valsartan?", then)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == "Do Losartan and valsartan treat the same diseases?", out["answer"]
    assert "Losartan and valsartan both have a verified mechanism for: " in out["answer"], out["answer"]


def test_which_is_the_oldest_of_a_list_sets_them_side_by_side(run_graph) -> None:
    """"which one is the oldest?" after a list was "Which one is the oldest of Nicardipine?" (the list's one drug that
    the previous turn named); it sets the listed drugs side by side with the note on what the graph does not hold."""
    *_, out = in_thread(run_graph, "oldest", "What drugs treat hypertension?", "how do they work?", "which one is the oldest?")
    assert out["understood_as"].startswith("Compare ") and out["understood_as"].count(",") >= 2, out["answer"]
    assert "not who discovered drugs or when they were approved" in out["answer"], out["answer"]
