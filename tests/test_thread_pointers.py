"""Follow-ups that name nothing and lean on the thread: "is there anything better?", "why is the first one on the
list?", "what is the first one for?" after a patient's medications, "what else could he take for that?"."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread

NOT_COMPARED = "The knowledge graph holds curated drug mechanisms, not comparisons of how well drugs work. What it holds: "


@pytest.mark.parametrize("question", ["is there anything better?", "anything better?", "are there better options?",
                                      "is there something better than that?",
                                      # these two were NOT_FOUND, "no known entity in the question"
                                      "is there a stronger drug?", "any more potent options?"])
def test_anything_better_lists_other_drugs_for_the_thread_s_disease(run_graph, question: str) -> None:
    """Each was NOT_FOUND ("there anything" is not in the knowledge graph, or no known entity in the question)."""
    first, out = in_thread(run_graph, f"better-{question}", "How does allopurinol treat gout?", question)
    assert out["understood_as"] == "Is there anything better for Gout?", out["answer"]
    assert out["status"] is Status.ANSWERED and out["ranked_answers"], out["answer"]
    assert NOT_COMPARED in out["answer"]
    assert first["sources"][0] in out["excluded"] and first["sources"][0] not in [d["id"] for d in out["ranked_answers"]]


@pytest.mark.parametrize("question", ["is there anything newer?", "are there newer drugs?"])
def test_anything_newer_lists_other_drugs_for_the_thread_s_disease(run_graph, question: str) -> None:
    """It was NOT_FOUND ("no known entity in the question"); the graph holds no dates, and the answer says so."""
    first, out = in_thread(run_graph, f"newer-{question}", "How does allopurinol treat gout?", question)
    assert out["understood_as"] == "Is there a newer drug for Gout?", out["answer"]
    assert out["status"] is Status.ANSWERED and out["ranked_answers"], out["answer"]
    assert "not who discovered drugs or when they were approved. What it holds: " in out["answer"], out["answer"]
    assert first["sources"][0] not in [d["id"] for d in out["ranked_answers"]]


def test_anything_better_with_no_disease_in_the_thread_is_not_rewritten(run_graph) -> None:
    _, out = in_thread(run_graph, "better-target", "What does imatinib target?", "is there anything better?")
    assert out["understood_as"] != "Is there anything better for Gout?" and "better for" not in out["understood_as"]


@pytest.mark.parametrize(("question", "place"), [("why is the first one on the list?", 0), ("why is the last one listed?", -1),
                                                  ("why is the second drug on the list?", 1)])
def test_why_a_drug_named_by_its_place_is_listed(run_graph, question: str, place: int) -> None:
    """"why is the first one on the list?" was NOT_FOUND: "on the list" is not in the knowledge graph."""
    listed, out = in_thread(run_graph, f"why-{question}", "What drugs treat gout?", question)
    drug = listed["ranked_answers"][place]["name"]
    assert out["understood_as"] == f"How does {drug} treat Gout?", out["answer"]
    assert f"{drug[:1].upper()}{drug[1:]} is " in out["answer"] and " of the 5 drugs listed for Gout: " in out["answer"], out["answer"]


def test_what_is_the_first_one_for_after_a_patient_s_medications_reads_the_record(run_graph) -> None:
    """It was answered with every disease the graph has a mechanism for; the record lists each medication for one."""
    listed, out, other = in_thread(run_graph, "record-for", "What is PAT_002 taking?", "what is the first one for?",
                                   "what else could he take for that?")
    first_line = listed["answer"].split("medications: ", 1)[1]
    drug, condition = first_line.split(" (for ", 1)
    condition = condition.split(")", 1)[0]
    assert out["understood_as"] == f"How does {drug} treat {condition}?", out["answer"]
    assert other["understood_as"] == f"What else could he take for {condition}?", other["answer"]
    assert other["status"] is Status.ANSWERED and other["ranked_answers"], other["answer"]


@pytest.mark.parametrize("then", ["how does her first medication work?", "and his first drug?"])
def test_her_first_medication_is_the_first_one_the_record_lists(run_graph, then: str) -> None:
    """"How does her first medication work?" was "How does her thalidomide work?", the pronoun kept before the name and
    the record's condition not read (since stop 102)."""
    listed, out = in_thread(run_graph, f"her-first-{then}", "What is PAT_002 taking?", then)
    drug, condition = listed["answer"].split("medications: ", 1)[1].split(")", 1)[0].split(" (for ", 1)
    assert out["understood_as"] == f"How does {drug} treat {condition}?", out["answer"]


def test_what_is_it_for_outside_a_patient_thread_lists_what_the_drug_treats(run_graph) -> None:
    _, out = in_thread(run_graph, "what-for", "What does metformin target?", "what is it for?")
    assert out["understood_as"] == "What is Metformin for?" and out["intent"] == "indications", out["answer"]


def test_blocking_it_after_a_protein_is_blocking_the_protein(run_graph) -> None:
    """"What happens if you block it?" after "what does ACE do?" asked of Angiotensin II, the first thing the answer
    named; then "which drugs do that?" was "Which drugs treat Angiotensin-converting enzyme?" (since stop 102)."""
    _first, out, then = in_thread(run_graph, "block-it", "what does ACE do?", "what happens if you block it?",
                                  "which drugs do that?")
    assert out["understood_as"] == "What happens if you block Angiotensin-converting enzyme?", out["answer"]
    assert then["understood_as"] == "Which drugs inhibit Angiotensin-converting enzyme?", then["answer"]
    assert then["status"] is Status.ANSWERED and then["ranked_answers"], then["answer"]
