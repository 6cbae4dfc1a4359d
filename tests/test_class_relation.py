""""are statins linked to hypercholesterolemia?" and "is there a link between beta blockers and hypertension?" asked
which statin (or beta blocker) was meant, where "Do statins treat hypercholesterolemia?" told how the class acts on it.
A link between a drug class and a disease is now answered for the class; so is "do statins cause …?", after the note
that the graph holds no side effects."""

from __future__ import annotations

import pytest

from agents.state import Status


@pytest.mark.parametrize(("question", "opening"), [
    ("are statins linked to hypercholesterolemia?", "Statins act on Hypercholesterolemia in the knowledge graph through: "),
    ("is there a link between beta blockers and hypertension?",
     "Beta blockers act on Hypertensive disorder in the knowledge graph through: "),
])
def test_a_link_between_a_class_and_a_disease_is_how_the_class_acts_on_it(run_graph, question: str, opening: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(opening), out["answer"]
    assert out["drug_class"] and len(out["sources"]) > 1, out


def test_no_link_is_said_of_the_whole_class(run_graph) -> None:
    out, _ = run_graph({"question": "is there a link between statins and gout?"}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND, out["answer"]
    assert "any of the 8 statins" in out["answer"], out["answer"]


def test_whether_a_class_causes_a_disease_is_said_of_the_class_after_the_note(run_graph) -> None:
    """"do statins cause diabetes mellitus?" asked which statin, only to give, for the one picked, the note that the
    graph holds no side effects. It gets that note at once, then how the class acts on the disease, as one drug would."""
    out, snap = run_graph({"question": "do statins cause diabetes mellitus?"}, thread="class-causes", interactive=True,
                          memory=False)
    assert not [i for t in snap.tasks for i in t.interrupts], out
    assert out["drug_class"] == "statins", out
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not side effects. "), out["answer"]
    assert "any of the 8 statins" in out["answer"] or out["status"] is Status.ANSWERED, out["answer"]
    nsaids, _ = run_graph({"question": "can NSAIDs cause stomach ulcers?"}, interactive=False, memory=False)
    assert nsaids["status"] is Status.ANSWERED and nsaids["answer"].startswith(
        "The knowledge graph holds curated drug mechanisms, not side effects. What it holds: NSAIDs act on Gastric ulcer "
        "in the knowledge graph through: "), nsaids["answer"]
