"""Answers to "Which "diabetes" do you mean?" that a person would type: the words of one option ("type 2"), its place
("the second one"), or words that narrow the mention ("lung" for which "cancer"). "type 2" was "not one of the
options", and "lung" was taken as the organ: the answer listed drugs "for lung"."""

from __future__ import annotations

from langgraph.types import Command

from agents.resolution import narrowed, resolve_choice
from agents.state import Status

_OPTIONS = [{"id": "a", "name": "Diabetes mellitus"}, {"id": "b", "name": "Diabetes mellitus type 1"},
            {"id": "c", "name": "Diabetes mellitus type 2"}]


def test_an_option_is_picked_by_its_own_words_or_its_place() -> None:
    assert resolve_choice("type 2", _OPTIONS)["id"] == "c"
    assert resolve_choice("the second one", _OPTIONS)["id"] == "b"
    assert resolve_choice("last", _OPTIONS)["id"] == "c"
    assert resolve_choice("2", _OPTIONS)["id"] == "b"
    assert resolve_choice("mellitus", _OPTIONS) is None  # all three: no choice
    assert [c["id"] for c in narrowed("mellitus type", _OPTIONS)] == ["b", "c"]
    assert resolve_choice("type", _OPTIONS) is None and resolve_choice("", _OPTIONS) is None


def _pending(snap) -> list[dict]:
    return [i.value for t in snap.tasks for i in t.interrupts]


def test_which_diabetes_answered_by_type_2(run_graph) -> None:
    _out, snap = run_graph({"question": "How does metformin treat diabetes?"}, thread="type-2", memory=False)
    asked = _pending(snap)
    assert asked and asked[0]["slot"] == "disease", asked
    out, _ = run_graph(Command(resume="type 2"), thread="type-2", memory=False)
    assert out["status"] is not Status.NEEDS_CLARIFICATION, out
    assert out["targets"] == ["MESH:D003924"], out["answer"]  # Diabetes mellitus type 2


def test_which_cancer_answered_by_an_organ_is_that_organ_s_cancer(run_graph, resources) -> None:
    _out, snap = run_graph({"question": "What treats cancer?"}, thread="lung", memory=False)
    asked = _pending(snap)
    assert asked and asked[0]["mention"] == "cancer", asked
    out, _ = run_graph(Command(resume="lung"), thread="lung", memory=False)
    assert out["status"] is Status.ANSWERED and "lung" not in [m["entity"]["name"] for m in out["mentions"]]
    assert "lung cancer" in resources.kg.name(out["targets"][0]).casefold(), out["answer"]
    # a name of the wrong kind for the slot is no answer, with the mention or without it: asked again
    run_graph({"question": "What treats cancer?"}, thread="drug-for-cancer", memory=False)
    _out, snap = run_graph(Command(resume="aspirin"), thread="drug-for-cancer", memory=False)
    again = _pending(snap)
    assert again and again[0]["question"].startswith('"aspirin" is not one of the options.'), again
    # words that name the mention only by a guess are no answer: "type 1" for which insulin (it read "type 1 insulin"
    # as the protein insulin, by one of its words, and answered for insulin glulisine)
    run_graph({"question": "How does insulin work?"}, thread="type-1-insulin", memory=False)
    _out, snap = run_graph(Command(resume="type 1"), thread="type-1-insulin", memory=False)
    again = _pending(snap)
    assert again and again[0]["question"].startswith('"type 1" is not one of the options.'), again
