"""Another drug named after a turn about one, with nothing that says "it" (``agents.beside``): "any interactions with
aspirin?", "can I take aspirin too?", "is aspirin ok too?" after warfarin ask about the two together. They were
answered for aspirin alone, or reworded "Interactions with aspirin of warfarin?". And the other drug of such a
question that the graph does not hold, or that is misspelled (``agents.other_side``): "does warfarin interact with
apixaban?" was answered for warfarin alone, apixaban dropped without a word."""

from __future__ import annotations

import pytest

from agents.beside import interaction_with
from agents.state import Status
from tests.conftest import in_thread

INTERACTIONS = "The knowledge graph holds curated drug mechanisms, not drug interactions."
WARFARIN = {"id": "MESH:D014859", "name": "warfarin", "type": "Drug"}


@pytest.mark.parametrize(("first", "follow_up", "understood"), [
    ("I take warfarin.", "any interactions with aspirin?", "Does warfarin interact with aspirin?"),
    ("I take warfarin.", "interactions with aspirin?", "Does warfarin interact with aspirin?"),
    ("I take warfarin.", "is there an interaction with aspirin?", "Does warfarin interact with aspirin?"),
    ("I take warfarin.", "what about interactions with aspirin?", "Does warfarin interact with aspirin?"),
    ("I'm on warfarin", "any problem combining with aspirin?", "Does warfarin interact with aspirin?"),
    ("I take warfarin.", "can I take aspirin too?", "Can I take aspirin with warfarin?"),
    ("I'm on warfarin", "is it ok to take aspirin as well?", "Can I take aspirin with warfarin?"),
    ("I'm on warfarin", "is aspirin ok too?", "Can I take aspirin with warfarin?"),
    ("I'm on warfarin", "is aspirin safe for me?", "Can I take aspirin with warfarin?"),
    ("my mom takes warfarin", "can she also take aspirin?", "Can she take aspirin with warfarin?"),
    ("how does metformin work?", "any interaction with alcohol?", "Does Metformin interact with alcohol?"),
    ("how does metformin work?", "any interactions with other drugs?", "Any drug interactions of Metformin?"),
])
def test_another_drug_after_a_turn_about_one_asks_about_the_two(run_graph, first: str, follow_up: str,
                                                                 understood: str) -> None:
    _, out = in_thread(run_graph, f"beside-{first}-{follow_up}", first, follow_up)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == understood, out["answer"]
    assert out["answer"].startswith(f'Understood as: "{understood}" The knowledge graph holds curated drug mechanisms'), out["answer"]
    if "alcohol" not in understood and "Any drug" not in understood:  # both drugs' targets, not aspirin's alone
        assert {"warfarin", "Aspirin"} <= {m["entity"]["name"] for m in out["mentions"] if m.get("entity")}, out["mentions"]


def test_is_it_safe_for_me_stays_about_one_drug_unless_the_thread_says_it_is_taken(run_graph) -> None:
    _, out = in_thread(run_graph, "beside-not-taken", "how does warfarin work?", "is aspirin safe for me?")
    assert not out["understood_as"] and out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not safety"), \
        out["answer"]


def test_interaction_with_names_no_one_drug_for_pronouns_and_the_drug_itself() -> None:
    assert interaction_with("any interactions with it?", WARFARIN) is None
    assert interaction_with("any interactions with warfarin?", WARFARIN) is None
    assert interaction_with("what are the interactions?", WARFARIN) is None
    assert interaction_with("any interactions with aspirin?", None) is None
    assert interaction_with("any  interactions with my other meds?", WARFARIN) == "Any drug interactions of warfarin?"


@pytest.mark.parametrize(("question", "unknown", "hint"), [
    ("does warfarin interact with apixaban?", "apixaban", "one of the anticoagulants"),
    ("can I take warfarin with asprin?", "asprin", "did you mean Aspirin?"),
    ("can I take warfarin with blorpazine?", "blorpazine", "did you mean"),
])
def test_the_other_drug_the_graph_does_not_hold_is_named(run_graph, question: str, unknown: str, hint: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND, out["answer"]
    assert out["answer"].startswith(f'{INTERACTIONS} No verified evidence: "{unknown}" is not in the knowledge graph'), out["answer"]
    assert hint in out["answer"] and "warfarin" in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["Does metformin interact with alcohol?", "can I take ibuprofen with food?",
                                      "is it safe to take warfarin with other drugs?", "does warfarin interact with aspirin?",
                                      "Can I take aspirin with breakfast?", "can I take ibuprofen with a glass of water?"])
def test_food_drugs_as_such_and_held_drugs_are_answered_as_before(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(INTERACTIONS), out["answer"]


@pytest.mark.parametrize(("first", "follow_up", "understood"), [
    ("I take warfarin", "can I take aspirin?", "Can I take aspirin with warfarin?"),
    ("I take warfarin", "and I just started amiodarone, is that a problem?", "Can I take amiodarone with warfarin?"),
    ("I'm on lisinopril and metformin", "can I take ibuprofen?", "Can I take ibuprofen with lisinopril and Metformin?"),
    ("my dad takes warfarin and atorvastatin", "is it ok for him to take aspirin?", "Can he take aspirin with warfarin and atorvastatin?"),
])
def test_a_drug_after_saying_which_are_taken_is_asked_with_them(run_graph, first: str, follow_up: str, understood: str) -> None:
    """They were answered about the new drug alone; "I'm on lisinopril and metformin" was NOT_FOUND, "no chain of
    relations from lisinopril to Metformin", and is now what each acts on."""
    said, out = in_thread(run_graph, f"stated-{first}-{follow_up}", first, follow_up)
    assert said["status"] is Status.ANSWERED, said["answer"]
    assert out["status"] is Status.ANSWERED and out["understood_as"] == understood, out["answer"]
    assert out["answer"].startswith(f'Understood as: "{understood}" {INTERACTIONS}'), out["answer"]
    if " and " in first:
        assert said["understood_as"].startswith("What do ") and "act on no target in common" in said["answer"], said["answer"]


def test_a_bare_can_i_take_stays_about_one_drug_when_nothing_said_it_is_taken(run_graph) -> None:
    _, out = in_thread(run_graph, "not-stated", "how does warfarin work?", "can I take aspirin?")
    assert not out["understood_as"] and INTERACTIONS not in out["answer"], out["answer"]


def test_a_question_that_names_both_drugs_is_left_as_asked(run_graph) -> None:
    """"Can I take ibuprofen with aspirin?" after "Can I take aspirin with a stomach ulcer?" (a question, which says
    nobody takes aspirin) was "Can I take ibuprofen with aspirin with Aspirin?" while this was written."""
    _, out = in_thread(run_graph, "both-named", "Can I take aspirin with a stomach ulcer?", "Can I take ibuprofen with aspirin?")
    assert not out["understood_as"] and out["answer"].startswith(INTERACTIONS), out["answer"]
    _, also = in_thread(run_graph, "both-named-2", "I take warfarin", "can I take ibuprofen with aspirin?")
    assert not also["understood_as"] and also["answer"].startswith(INTERACTIONS), also["answer"]
