""""How does allopurinol treat gout? Explain simply.": a request for how to answer, said around the question, is taken
off it (it was read as part of the disease's name, "gout? Explain simply" linked by fuzzy match, and the answer opened
with that guess), and asks for the answer in plain words or step by step."""

from __future__ import annotations

import pytest
from langgraph.types import Command

from agents.state import Status
from agents.style_request import style_request


@pytest.mark.parametrize(("message", "question", "kind"), [
    ("How does allopurinol treat gout? Explain simply.", "How does allopurinol treat gout?", "simpler"),
    ("how does aspirin prevent heart attacks? keep it short", "how does aspirin prevent heart attacks?", "brief"),
    ("In plain words, how does lisinopril work?", "how does lisinopril work?", "simpler"),
    ("ELI5: how does metformin treat diabetes?", "how does metformin treat diabetes?", "simpler"),
    ("ELI5, how does it work?", "how does it work?", "simpler"),  # not "ELI5?" with how asked after it
    # since stop 100: "sertraline like I'm five" was read as sertraline by a guess, and no plain words given
    ("explain the mechanism of sertraline like I'm five", "explain the mechanism of sertraline?", "simpler"),
    ("how does metformin work, like I am 5?", "how does metformin work?", "simpler"),
    ("how does insulin work for a layman?", "how does insulin work?", "simpler"),
    ("how does imatinib treat CML, step by step please", "how does imatinib treat CML?", "steps"),
    ("Briefly, what does aspirin treat?", "what does aspirin treat?", "brief"),
    # the sources: "CML? Give me the sources" was read as a guessed name
    ("How does imatinib treat CML? Give me the sources.", "How does imatinib treat CML?", "sources"),
    ("How does imatinib treat CML, with sources", "How does imatinib treat CML?", "sources"),
    ("what drugs treat gout and cite your sources", "what drugs treat gout?", "sources"),
    # how or why after a yes/no question: "fever? How" was read as a guessed name
    ("Can ibuprofen treat fever? How?", "Can ibuprofen treat fever?", "how"),
    ("Does metformin treat diabetes? If so, how?", "Does metformin treat diabetes?", "how"),
    ("Is aspirin used for gout? If not, why not?", "Is aspirin used for gout?", "how"),
    ("Does imatinib work for CML? And how exactly?", "Does imatinib work for CML?", "how"),
])
def test_the_request_is_taken_off_the_question(message: str, question: str, kind: str) -> None:
    assert style_request(message) == (question, kind)


@pytest.mark.parametrize("message", ["How does imatinib treat CML?", "what is short bowel syndrome?",
                                     "can you explain that more simply?", "explain it simply", "walk me through it step by step",
                                     "so explain that in plain english please", "what are the steps?",
                                     "show me the sources", "What are the sources of vitamin D?", "How?", "why not?",
                                     "How does aspirin work? How does ibuprofen work?",
                                     "My doctor prescribed metformin. How does it work?"])
def test_a_question_with_no_request_or_a_request_alone_is_left_as_it_is(message: str) -> None:
    """A request alone is about the last answer (``agents.last_answer``), not a question of its own."""
    assert style_request(message) == (message, "")


def test_a_question_asked_simply_is_answered_in_plain_words(run_graph) -> None:
    out = run_graph({"question": "How does allopurinol treat gout? Explain simply."}, interactive=False, memory=False)[0]
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert [m["mention"] for m in out["mentions"] if m["slot"] == "disease"] == ["gout"], out["mentions"]
    assert "Read " not in out["answer"] and "In plain words: allopurinol " in out["answer"], out["answer"]
    steps = run_graph({"question": "how does imatinib treat CML step by step"}, interactive=False, memory=False)[0]
    assert "The path has two steps: 1. imatinib " in steps["answer"], steps["answer"]


def test_asked_again_a_clarified_name_keeps_its_pick(run_graph) -> None:
    """"can you explain that more simply?" after "How does metformin treat diabetes?", where "diabetes" was asked
    about and answered, asked which diabetes again."""
    _out, snap = run_graph({"question": "How does metformin treat diabetes?"}, thread="simply-clar", memory=False)
    pending = [i.value for t in snap.tasks for i in t.interrupts]
    assert pending and len(pending[0]["candidates"]) > 1, pending
    picked = pending[0]["candidates"][0]
    answered, _ = run_graph(Command(resume="1"), thread="simply-clar", memory=False)
    assert answered["status"] is Status.ANSWERED and answered["evidence"][-1]["tail"] == picked["id"], answered["answer"]
    again, snap = run_graph({"question": "can you explain that more simply?"}, thread="simply-clar", memory=False)
    assert not [i for t in snap.tasks for i in t.interrupts], "asked which diabetes again"
    assert again["evidence"][-1]["tail"] == picked["id"] and "In plain words" in again["answer"], again["answer"]


def test_a_question_asked_with_its_sources_ends_with_them(run_graph) -> None:
    out = run_graph({"question": "How does imatinib treat CML? Give me the sources."}, interactive=False, memory=False)[0]
    assert out["status"] is Status.ANSWERED and "Read " not in out["answer"], out["answer"]
    assert " Sources: DrugMechDB: a curated database of drug mechanisms" in out["answer"], out["answer"]


def test_how_asked_after_a_yes_no_question_is_answered_with_the_mechanism(run_graph) -> None:
    out = run_graph({"question": "Can ibuprofen treat fever? How?"}, interactive=False, memory=False)[0]
    assert out["status"] is Status.ANSWERED and "Read " not in out["answer"], out["answer"]
    assert out["answer"].startswith("Yes: Ibuprofen acts on Fever through a "), out["answer"]
