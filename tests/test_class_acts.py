"""Whether drugs act on a target, asked of two drugs or of a drug class ("do atorvastatin and simvastatin both
target HMG-CoA reductase?", "do statins target HMG-CoA reductase?"; ``agents.class_acts``, ``agents.answer_notes``)."""

from __future__ import annotations

from agents.state import Intent, Status
from tests.conftest import in_thread


def _ask(run_graph, question: str) -> dict:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    return out


def test_two_drugs_that_both_target_it_are_each_told(run_graph) -> None:
    """It was answered for atorvastatin, and simvastatin offered as the next question."""
    out = _ask(run_graph, "do atorvastatin and simvastatin both target HMG-CoA reductase?")
    assert out["answer"].startswith("Yes, both: Atorvastatin acts on 3-hydroxy-3-methylglutaryl-coenzyme A reductase"), out["answer"]
    assert "Simvastatin acts on 3-hydroxy-3-methylglutaryl-coenzyme A reductase" in out["answer"], out["answer"]
    assert not out["also_asked"], out["also_asked"]


def test_a_drug_with_no_chain_into_the_target_is_said_to_have_none(run_graph) -> None:
    out = _ask(run_graph, "do losartan and lisinopril both target the angiotensin receptor?")
    assert "Only Losartan, of the two:" in out["answer"], out["answer"]
    assert "Lisinopril has no chain in the knowledge graph into Type-1 angiotensin II receptor." in out["answer"], out["answer"]


def test_they_both_after_a_comparison_are_the_two_drugs(run_graph) -> None:
    """It was "Do atorvastatin both target HMG-CoA reductase?", answered for atorvastatin alone."""
    *_, out = in_thread(run_graph, "both-target", "compare atorvastatin and simvastatin", "do they both target HMG-CoA reductase?")
    assert out["understood_as"] == "Do atorvastatin and Simvastatin target HMG-CoA reductase?", out["answer"]
    assert "Yes, both:" in out["answer"], out["answer"]


def test_a_class_that_acts_on_it_is_counted(run_graph) -> None:
    """It was told the class's routes, which leave out a single step: only simvastatin's metabolite was named."""
    for question in ("do statins target HMG-CoA reductase?", "do all statins target HMG-CoA reductase?"):
        out = _ask(run_graph, question)
        assert out["intent"] == Intent.TARGETED_BY.value, out["answer"]
        assert out["answer"].startswith("Yes: all 8 statins that the class table lists act on 3-hydroxy-3-methylglutaryl"), out["answer"]
        assert "Simvastatin through simvastatin hydroxy acid" in out["answer"], out["answer"]


def test_a_class_that_partly_inhibits_it_names_those_that_do_not(run_graph) -> None:
    """It was answered for indomethacin alone."""
    out = _ask(run_graph, "do NSAIDs inhibit COX-1?")
    assert out["answer"].startswith("Not all: "), out["answer"]
    assert "Rofecoxib" in out["answer"].split("no such step for", 1)[1], out["answer"]


def test_one_drug_is_still_asked_about_itself(run_graph) -> None:
    out = _ask(run_graph, "does atorvastatin target HMG-CoA reductase?")
    assert out["answer"].startswith("Yes: atorvastatin acts on 3-hydroxy-3-methylglutaryl-coenzyme A reductase"), out["answer"]


def test_they_all_after_a_class_is_the_class(run_graph) -> None:
    """It was "Do statins all target HMG-CoA reductase?", NOT_FOUND: "statins all" is no name."""
    *_, out = in_thread(run_graph, "all-target", "what are some statins?", "do they all target HMG-CoA reductase?")
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert "Yes: all 8 statins" in out["answer"], out["answer"]
