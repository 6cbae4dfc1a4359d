""""why does vitamin K reverse it?" after "What does warfarin target?" was asked of VKORC1, warfarin's target ("Why does
vitamin K reverse Vitamin K epoxide reductase complex subunit 1?"); what one drug undoes is the thread's drug. A
question whether one drug reverses another gets the note that the graph holds no antidotes, as "what reverses it?"
does; one whether a drug reverses a disease does not."""

from __future__ import annotations

import pytest

from tests.conftest import in_thread

NOTE = "The knowledge graph holds curated drug mechanisms, not antidotes or how to reverse a drug."


@pytest.mark.parametrize(("first", "then", "understood"), [
    ("What does warfarin target?", "why does vitamin K reverse it?", "Why does vitamin K reverse warfarin?"),
    ("How does morphine relieve pain?", "how does naloxone reverse it?", "How does naloxone reverse morphine?"),
])
def test_what_a_drug_reverses_is_the_thread_s_drug(run_graph, first: str, then: str, understood: str) -> None:
    _first, out = in_thread(run_graph, f"reverse-{then}", first, then)
    assert out["understood_as"] == understood, out["answer"]
    assert out["answer"].startswith(f'Understood as: "{understood}" {NOTE} '), out["answer"]


def test_only_a_drug_undoing_a_drug_gets_the_note(run_graph) -> None:
    named, _ = run_graph({"question": "why does vitamin K reverse warfarin?"}, interactive=False, memory=False)
    assert named["answer"].startswith(NOTE), named["answer"]
    disease, _ = run_graph({"question": "does metformin reverse insulin resistance?"}, interactive=False, memory=False)
    assert "antidotes" not in disease["answer"], disease["answer"]
