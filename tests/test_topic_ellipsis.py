""""and what about side effects?" after a turn about atorvastatin was asked as "What does side effects target?"
(`NOT_FOUND`, and a later "it" then meant "side effects"), and "what about the dose?" linked "dose" to Naloxone. A topic
the graph does not hold about a drug, asked as an ellipsis, is about the thread's drug, as "side effects?" alone is."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize(("then", "understood", "topic"), [
    ("and what about side effects?", "Side effects of atorvastatin?", "side effects"),
    ("what about the dose?", "The dose of atorvastatin?", "dosing"),
    ("what about interactions?", "Interactions of atorvastatin?", "drug interactions"),
])
def test_a_topic_after_a_drug_is_about_the_drug(run_graph, then: str, understood: str, topic: str) -> None:
    _first, out = in_thread(run_graph, f"topic-{then}", "What does atorvastatin do?", then)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == understood, out["answer"]
    assert f"not {topic}. What it holds: atorvastatin" in out["answer"], out["answer"]


def test_the_thread_keeps_its_drug_after_the_topic(run_graph) -> None:
    """"can I take it with grapefruit?" after the topic is still about atorvastatin (it was "side effects")."""
    *_, out = in_thread(run_graph, "topic-then-it", "What does atorvastatin do?", "and what about side effects?",
                        "can I take it with grapefruit?")
    assert out["status"] is Status.ANSWERED and out["understood_as"] == "Can I take atorvastatin with grapefruit?", out["answer"]


def test_a_food_is_not_read_as_a_topic_of_the_drug(run_graph) -> None:
    """"what about grapefruit?" names what to take the drug with, not a topic of it: not "Grapefruit of atorvastatin?"."""
    _first, out = in_thread(run_graph, "topic-grapefruit", "What does atorvastatin do?", "what about grapefruit?")
    assert "of atorvastatin" not in out.get("understood_as", ""), out["answer"]


@pytest.mark.parametrize(("then", "understood"), [("can I stop?", "Can I stop taking Levothyroxine?"),
                                                  ("should I stop it?", "Should I stop Levothyroxine?")])
def test_whether_to_stop_is_about_the_thread_s_drug(run_graph, then: str, understood: str) -> None:
    """"can I stop?" was NOT_FOUND ('"can I stop" is not in the knowledge graph'); it gets the note that the graph holds
    nothing on stopping a drug, then what it holds on the thread's drug."""
    _first, out = in_thread(run_graph, f"stop-{then}", "How does levothyroxine treat hypothyroidism?", then)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == understood, out["answer"]
    assert "not stopping a drug. What it holds: Levothyroxine" in out["answer"], out["answer"]


@pytest.mark.parametrize(("first", "then", "understood"), [
    ("does warfarin interact with aspirin?", "what about with alcohol?", "Does warfarin interact with alcohol?"),
    ("What does warfarin do?", "what about alcohol?", "Does warfarin interact with alcohol?"),
    ("What does atorvastatin do?", "and grapefruit juice?", "Does atorvastatin interact with grapefruit juice?"),
    ("What does atorvastatin do?", "what about grapefruit?", "Does atorvastatin interact with grapefruit?"),
])
def test_food_or_drink_after_a_drug_asks_whether_they_interact(run_graph, first: str, then: str, understood: str) -> None:
    """"what about with alcohol?" asked which alcohol was meant (Benzyl alcohol, Nicotinyl alcohol …), and "and grapefruit
    juice?" was "And grapefruit juice of atorvastatin?". After two drugs compared, the food is taken with the first."""
    _first, out = in_thread(run_graph, f"food-{first}-{then}", first, then)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == understood, out.get("answer") or out.get("interrupt")
    assert "not drug interactions. What it holds:" in out["answer"], out["answer"]


@pytest.mark.parametrize(("first", "then", "understood"), [
    ("How does Salicylamide treat Backache?", "and caffeine?", "How does caffeine treat Backache?"),  # a drug
    ("how does warfarin work?", "what about with caffeine?", "Does warfarin interact with caffeine?"),  # a drink
])
def test_caffeine_alone_is_the_graph_s_drug_and_with_it_a_drink(run_graph, first: str, then: str, understood: str) -> None:
    """"and caffeine?" after how salicylamide treats backache was asked as whether salicylamide interacts with caffeine:
    caffeine is one of the graph's drugs, and the question swaps it in."""
    _first, out = in_thread(run_graph, f"caffeine-{first}-{then}", first, then)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == understood, out["answer"]
