""""What about X?" after a question the graph cannot answer keeps that question's topic: the same question of the
other drug, the note on what the graph lacks kept (``agents.topic_again``), and "does ibuprofen cause …?" stays a
question about causing (``agents.ellipsis``)."""

from __future__ import annotations

import pytest
from conftest import in_thread

from agents.state import Status


@pytest.mark.parametrize(("first", "then", "understood", "topic"), [
    # it asked what lisinopril targets, with no note
    ("what are the side effects of metformin?", "what about lisinopril?", "what are the side effects of lisinopril?",
     "side effects"),
    # it was "is metformin safe in insulin?"
    ("is metformin safe in pregnancy?", "what about insulin?", "is insulin safe in pregnancy?", "safety"),
    # it was "How does Metformin act on insulin?", which found no chain
    ("how much metformin should I take?", "what about insulin?", "how much insulin should I take?", "dosing"),
    # it was "Is there a link between naproxen and Gastric ulcer?", with no note
    ("does ibuprofen cause stomach ulcers?", "what about naproxen?", "Does naproxen cause Gastric ulcer?", "side effects"),
])
def test_another_drug_after_an_out_of_scope_question_is_asked_the_same(run_graph, first: str, then: str, understood: str,
                                                                       topic: str) -> None:
    _, out = in_thread(run_graph, f"again-{first}-{then}", first, then)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == understood, out["answer"]
    assert f"The knowledge graph holds curated drug mechanisms, not {topic}." in out["answer"], out["answer"]
    drug = then.removeprefix("what about ").rstrip("?")
    assert drug in out["answer"].casefold() and "metformin" not in out["answer"].casefold().split("what it holds:")[1]


@pytest.mark.parametrize(("first", "then", "understood"), [
    # a condition after a safety question swaps the condition, not the drug
    ("is metformin safe in pregnancy?", "what about kidney disease?", "is metformin safe in kidney disease?"),
    # a question that named two drugs swaps the second, as before
    ("can I take warfarin with ibuprofen?", "what about aspirin?", "Can I take warfarin with aspirin?"),
    # a question the graph answers swaps the slot, as before
    ("How does imatinib treat CML?", "what about dasatinib?", "How does Dasatinib treat Chronic myeloid leukemia?"),
])
def test_other_follow_ups_swap_as_before(run_graph, first: str, then: str, understood: str) -> None:
    _, out = in_thread(run_graph, f"as-before-{first}-{then}", first, then)
    assert out["understood_as"] == understood, out["answer"]
