"""Answers to "Which "diabetes" do you mean?" that a person would type: the words of one option ("type 2"), its place
("the second one"), or words that narrow the mention ("lung" for which "cancer"). "type 2" was "not one of the
options", and "lung" was taken as the organ: the answer listed drugs "for lung"."""

from __future__ import annotations

from langgraph.types import Command

from agents.clarify import _refined, alike
from agents.intent import SLOT_TYPES
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
    # as the protein insulin, by one of its words, and answered for insulin glulisine). Which insulin is no longer
    # asked (test_drugs_that_act_alike_are_not_asked_about), so the refinement is checked alone.
    assert _refined(resources, "drug", "type 1", "insulin") is None
    assert _refined(resources, "disease", "lung", "cancer") is not None


def test_drugs_that_act_alike_are_not_asked_about(run_graph, resources) -> None:
    """"How does insulin lower blood sugar?" asked which of Insulin human, insulin lispro, insulin detemir and Insulin
    Glargine was meant; each of them only increases the activity of the insulin receptor in the graph, so the choice
    changes no answer. It is answered for the first, and the answer says which drugs act alike. Drugs that share a
    name and differ (the vitamins) are still asked about."""
    insulin = resources.linker.link("insulin", SLOT_TYPES["drug"])
    same = alike(resources, insulin)
    assert len(same) >= 2 and "insulin lispro" in same, same
    edges = {c.id: {(e.relation, e.tail) for e in resources.kg.out_edges(c.id)} for c in insulin.candidates[:len(same) + 1]}
    assert len({frozenset(v) for v in edges.values()}) == 1, edges
    assert alike(resources, resources.linker.link("vitamin", SLOT_TYPES["drug"])) == []
    out, snap = run_graph({"question": "How does insulin lower blood sugar?"}, thread="insulin-alike", memory=False)
    assert not _pending(snap) and out["status"] is Status.ANSWERED, out
    assert out["sources"] == [insulin.candidates[0].id], out["sources"]
    assert out["answer"].startswith(f'"insulin" names {len(same) + 1} drugs with the same relations in the knowledge '
                                    f"graph ({insulin.candidates[0].name}, "), out["answer"]
    _out, snap = run_graph({"question": "How does vitamin work?"}, thread="vitamin-asked", memory=False)
    assert _pending(snap) and _pending(snap)[0]["mention"] == "vitamin", snap
