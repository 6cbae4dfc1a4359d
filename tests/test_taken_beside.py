""""I'm on lisinopril, can I take ibuprofen for my back pain?": a question whether one drug may be taken beside another
is asked as their interactions, the disease offered next (``agents.preamble._taken_beside``). It was answered with how
lisinopril acts on Backache, or with no chain from lisinopril to ibuprofen."""

from __future__ import annotations

import pytest

from agents.state import Status

INTERACTIONS = "The knowledge graph holds curated drug mechanisms, not drug interactions. What it holds: "


@pytest.mark.parametrize(("message", "understood", "also"), [
    ("I'm taking lisinopril. Can I take ibuprofen for back pain?", "Can I take ibuprofen with lisinopril?",
     ["How does ibuprofen treat back pain?"]),
    ("im on lisinopril, can i take ibuprofen for my back pain?", "Can I take ibuprofen with lisinopril?",
     ["How does ibuprofen treat back pain?"]),
    ("im on lisinopril, can i take ibuprofen?", "Can I take ibuprofen with lisinopril?", []),
    ("Is aspirin ok for a headache if I take warfarin?", "Can I take aspirin with warfarin?", ["How does aspirin treat headache?"]),
    ("I take metformin. Is it safe to take ibuprofen?", "Can I take ibuprofen with metformin?", []),
])
def test_a_drug_taken_beside_another_is_asked_as_their_interactions(run_graph, message: str, understood: str,
                                                                    also: list[str]) -> None:
    out, _ = run_graph({"question": message}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == understood, out["answer"]
    topic = INTERACTIONS.replace("drug interactions", "safety") if "safe" in message else INTERACTIONS  # its own word first
    assert out["answer"].startswith(f'Understood as: "{understood}" {topic}'), out["answer"]
    assert out["also_asked"] == also, out["also_asked"]
    assert len(out["mentions"]) >= 2 and all(m["entity"]["type"] == "Drug" for m in out["mentions"] if m.get("entity"))


@pytest.mark.parametrize("message", ["I take lisinopril for my blood pressure. How does it work?",
                                     "My mom takes lisinopril and metformin. What are they for?",
                                     "I'm taking lisinopril. Can I take it for migraine?"])
def test_other_statements_of_a_drug_taken_are_read_as_before(run_graph, message: str) -> None:
    out, _ = run_graph({"question": message}, interactive=False, memory=False)
    assert not out["understood_as"].startswith("Can I take") and INTERACTIONS not in out["answer"], out["answer"]
