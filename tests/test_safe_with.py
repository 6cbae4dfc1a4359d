"""Whether a drug is safe with a condition, and the same asked again of another condition or drug."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread

NOT_SAFETY = "The knowledge graph holds curated drug mechanisms, not safety."


def _ask(run_graph, thread: str, question: str) -> dict:
    return run_graph({"question": question}, thread=thread, interactive=False)[0]


def test_a_condition_that_names_no_one_disease_is_one_the_graph_does_not_distinguish(run_graph) -> None:
    """"Is metformin safe in kidney disease?" was NOT_FOUND, a chain looked for from metformin to the kidney."""
    for q in ("Is metformin safe in kidney disease?", "Is metformin safe for people with kidney disease?"):
        out = _ask(run_graph, q, q)
        assert out["status"] is Status.ANSWERED, out["answer"]
        assert out["understood_as"] == "Is metformin safe in kidney disease?", out["understood_as"]
        assert "DrugMechDB does not distinguish kidney disease" in out["answer"] and NOT_SAFETY in out["answer"], out["answer"]
        assert "Kidney" not in {m["entity"]["name"] for m in out["mentions"] if m.get("entity")}, out["mentions"]
    one = _ask(run_graph, "asthma", "Is ibuprofen safe with asthma?")  # one disease: the graph's chain to it is told
    assert "does not distinguish" not in one["answer"] and "Asthma" in one["answer"], one["answer"]


def test_the_same_asked_of_another_condition_or_drug_stays_a_safety_question(run_graph) -> None:
    """After "Is metformin safe in pregnancy?", "what about in children?" was asked as what metformin targets in
    children, and "what about kidney disease?" as how metformin treats it (a 7-step chain); the note was lost."""
    _ask(run_graph, "again", "Is metformin safe in pregnancy?")
    kids = _ask(run_graph, "again", "what about in children?")
    assert kids["understood_as"] == "Is metformin safe in children?" and NOT_SAFETY in kids["answer"], kids["answer"]
    kidney = _ask(run_graph, "again", "what about kidney disease?")
    assert kidney["understood_as"] == "Is metformin safe in kidney disease?", kidney["understood_as"]
    assert NOT_SAFETY in kidney["answer"] and "through a" not in kidney["answer"], kidney["answer"]
    other = _ask(run_graph, "again", "what about ibuprofen?")
    assert other["understood_as"] == "Is Ibuprofen safe in kidney disease?" and NOT_SAFETY in other["answer"], other["answer"]
    asthma = _ask(run_graph, "again", "and with asthma?")
    assert asthma["understood_as"] == "Is Ibuprofen safe with asthma?" and NOT_SAFETY in asthma["answer"], asthma["answer"]
    assert "does not distinguish" not in asthma["answer"], asthma["answer"]


def test_taking_a_drug_with_a_condition_is_a_safety_question(run_graph) -> None:
    """"Is it safe to take ibuprofen with kidney problems?" and "Is ibuprofen safe with kidney disease?" were read as
    drug interactions and told a 6-step chain to the kidney; "Can I take ibuprofen if I have kidney disease?" told the
    same chain with no note at all. A drug, food or drink after "with" is still an interaction."""
    for q in ("Is it safe to take ibuprofen with kidney problems?", "Is ibuprofen safe with kidney disease?",
              "Can I take ibuprofen if I have kidney disease?", "Can my dad take metformin with liver problems?"):
        out = _ask(run_graph, q, q)
        assert out["status"] is Status.ANSWERED and NOT_SAFETY in out["answer"], out["answer"]
        assert "does not distinguish" in out["answer"] and "through a" not in out["answer"], out["answer"]
        assert "Kidney" not in {m["entity"]["name"] for m in out["mentions"] if m.get("entity")}, out["mentions"]
    asthma = _ask(run_graph, "if asthma", "Can I take ibuprofen if I have asthma?")  # one disease: its chain, as safety
    assert NOT_SAFETY in asthma["answer"] and "Asthma" in asthma["answer"], asthma["answer"]
    for q in ("Can I take ibuprofen with aspirin?", "Can I take ibuprofen with food?"):
        other = _ask(run_graph, q, q)
        assert "not drug interactions" in other["answer"] and "does not distinguish" not in other["answer"], other["answer"]


def test_a_possessive_is_not_part_of_the_condition(run_graph) -> None:
    """"Is it safe for his kidneys?" said "DrugMechDB does not distinguish his kidneys"."""
    out = _ask(run_graph, "his", "Is metformin safe for my liver?")
    assert "does not distinguish liver;" in out["answer"] and "my liver" not in out["answer"], out["answer"]


def test_two_drugs_together_asked_again_of_another_drug(run_graph) -> None:
    """"what about aspirin?" after "can I take it with ibuprofen?" (warfarin) was "What does Aspirin target?": the thread's
    drug and the note on interactions were lost."""
    note = "The knowledge graph holds curated drug mechanisms, not drug interactions."
    for q in ("How does warfarin work?", "can I take it with ibuprofen?"):
        _ask(run_graph, "with", q)
    aspirin = _ask(run_graph, "with", "what about aspirin?")
    assert aspirin["understood_as"] == "Can I take warfarin with aspirin?" and note in aspirin["answer"], aspirin["answer"]
    assert "Only Aspirin acts on" in aspirin["answer"] or "both act on" in aspirin["answer"], aspirin["answer"]
    other = _ask(run_graph, "with", "and with acetaminophen?")
    assert other["understood_as"] == "Can I take warfarin with acetaminophen?", other["answer"]
    _ask(run_graph, "together", "is it safe to take warfarin and aspirin together?")
    clop = _ask(run_graph, "together", "what about clopidogrel?")
    assert clop["understood_as"] == "Is it safe to take warfarin and clopidogrel together?" and note in clop["answer"]


def test_two_drugs_asked_about_together_are_told_the_chain_that_joins_them(run_graph) -> None:
    """"Can I take warfarin with vitamin K?" said only that they act on no target in common."""
    for q in ("can I take warfarin with vitamin K?", "does vitamin K interact with warfarin?"):
        out = _ask(run_graph, q, q)
        assert "act on no target in common" in out["answer"], out["answer"]
        assert out["answer"].endswith("The knowledge graph joins them by a chain of 2 steps: warfarin decreases activity of Vitamin K "
                                      "epoxide reductase complex subunit 1; Vitamin K epoxide reductase complex subunit 1 produces "
                                      "vitamin k."), out["answer"]
    far = _ask(run_graph, "far", "can I take warfarin with ibuprofen?")
    assert "joins them" not in far["answer"], far["answer"]


def test_a_clause_on_safety_after_the_disease_is_not_part_of_its_name(run_graph) -> None:
    """"what drugs treat gout and are safe in kidney disease?" said '"are safe" is not a name in the knowledge graph'."""
    out = _ask(run_graph, "and-safe", "what drugs treat gout and are safe in kidney disease?")
    assert out["intent"] == "treats" and out["ranked_answers"], out["answer"]
    assert "are safe" not in out["answer"].split("What it holds:")[0].replace("are safe in kidney disease?", ""), out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not safety." in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["is prednisone safe with diabetes?", "Can I take prednisone if I have diabetes?",
                                      "can diabetics take prednisone?"])
def test_a_disease_several_entries_fit_is_a_condition_the_graph_does_not_distinguish(run_graph, question: str) -> None:
    """"diabetes" fits several entries, and was dropped without a word: the first got the note on drug interactions, the
    second and the third no note at all ("can diabetics take …" is asked as "… if they have diabetes"; since stop 102)."""
    out = _ask(run_graph, f"several-{question}", question)
    assert "DrugMechDB does not distinguish diabetes; this is the general mechanism. The knowledge graph holds curated " \
        "drug mechanisms, not safety." in out["answer"], out["answer"]


def test_people_named_by_their_condition_are_asked_about_with_it(run_graph) -> None:
    """"Should asthmatics use propranolol?" told how propranolol acts on asthma with no note on safety (since stop 102)."""
    out = _ask(run_graph, "asthmatics-use", "should asthmatics use propranolol?")
    assert out["understood_as"] == "Should people use propranolol if they have asthma?", out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not safety. What it holds: Propranolol acts on Asthma" \
        in out["answer"], out["answer"]


@pytest.mark.parametrize(("first", "follow_up", "understood", "kept"), [
    ("is atorvastatin safe in pregnancy?", "what about rosuvastatin?", "is Rosuvastatin safe in pregnancy?", "pregnancy"),
    ("is ibuprofen safe in children?", "and acetaminophen?", "is Acetaminophen safe in children?", "children"),
    ("is metformin safe in kidney disease?", "what about glipizide?", "is glipizide safe in kidney disease?", "kidney disease"),
])
def test_another_drug_after_a_safety_question_keeps_what_the_graph_does_not_distinguish(run_graph, first: str, follow_up: str,
                                                                                     understood: str, kept: str) -> None:
    """The follow-up dropped the note the first answer had ("DrugMechDB does not distinguish pregnancy"), and "kidney
    disease" kept in the question was told as a chain to the Kidney (``agents.ellipsis._qualifier_kept``)."""
    _, out = in_thread(run_graph, f"kept-{first}", first, follow_up)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == understood, out["answer"]
    assert out["answer"].startswith(f'Understood as: "{understood}" DrugMechDB does not distinguish {kept}; this is the general '
                                    "mechanism. The knowledge graph holds curated drug mechanisms, not safety."), out["answer"]
    assert "through" not in out["answer"].split("What it holds: ")[1].split(". ")[0], out["answer"]  # no chain to the Kidney
