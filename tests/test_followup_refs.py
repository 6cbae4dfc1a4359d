"""Follow-ups that refer to two listed items at once, or to several things when the thread has named one."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize(("second", "expected"), [
    ("how does the second one compare with the first one?", [1, 0]),
    ("compare the first one with the third one", [0, 2]),
])
def test_two_ordinals_in_one_question_are_both_read(run_graph, second: str, expected: list[int]) -> None:
    """"how does the second one compare with the first one?" after a list read only the first ordinal and was
    NOT_FOUND: '"first one" is not in the knowledge graph'."""
    listed, out = in_thread(run_graph, f"two-ordinals-{expected}", "what drugs treat parkinson's disease?", second)
    drugs = [a["id"] for a in listed["ranked_answers"]]
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    assert out["among"] == [drugs[i] for i in expected], out["answer"]
    assert [r["how"] for r in out["references"]].count("ordinal") == 2


@pytest.mark.parametrize(("first", "second"), [
    ("How does sildenafil treat erectile dysfunction?", "what do they have in common?"),
    ("how does imatinib work?", "how do they differ?"),
    ("how does imatinib treat CML?", "are they similar?"),
])
def test_they_compared_after_one_drug_asks_for_the_others(run_graph, resources, first: str, second: str) -> None:
    """"what do they have in common?" after one drug was "What do Sildenafil have in common?", answered with what
    sildenafil is connected to."""
    before, out = in_thread(run_graph, f"they-one-{second}", first, second)
    drug = resources.kg.name(before["sources"][0])
    assert out["status"] is Status.NOT_FOUND, out["answer"]
    assert f'"they" sets two or more side by side, and this conversation has named one: {drug}' in out["answer"]
    assert f'"Compare {drug} and …"' in out["answer"]


def test_they_compared_after_two_drugs_still_compares_them(run_graph, resources) -> None:
    *_, out = in_thread(run_graph, "they-two", "how does atenolol treat angina pectoris?", "what about propranolol?",
                        "what do they have in common?")
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    assert sorted(resources.kg.name(x) for x in out["among"]) == ["Atenolol", "Propranolol"]


@pytest.mark.parametrize(("turns", "understood"), [
    (("How does imatinib treat CML?", "What drugs treat gout?", "how?"), "How does {drug} treat Gout?"),
    (("How does imatinib treat CML?", "what does aspirin treat?", "tell me more"), "How does Aspirin treat {disease}?"),
    (("what does sildenafil treat?", "how so?"), "How does Sildenafil treat {disease}?"),
    (("What does imatinib target?", "tell me more"), "How does imatinib act on {disease}?"),
    (("How does imatinib treat CML?", "why?"), "How does imatinib treat Chronic myeloid leukemia?"),
])
def test_how_again_asks_about_the_latest_turn_and_its_first_answer(run_graph, turns: tuple[str, ...], understood: str) -> None:
    """"tell me more" after "what does aspirin treat?" was "How does Aspirin treat Chronic myeloid leukemia?" (an
    earlier turn's disease), "how?" after "What drugs treat gout?" asked how the earlier turn's imatinib treats gout,
    and "how so?" after what sildenafil treats was NOT_FOUND. Each now asks about the latest turn, and where that
    turn named one end, the first item its answer listed for the other."""
    *before, out = in_thread(run_graph, f"again-{turns[-2]}-{turns[-1]}", *turns)
    first = before[-1]["ranked_answers"][0]["name"] if before[-1]["ranked_answers"] else ""
    expected = understood.format(drug=first, disease=first)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == expected, (out["understood_as"], out["answer"])


def test_its_other_uses_leave_out_what_the_thread_named(run_graph) -> None:
    """"what are its other uses?" was NOT_FOUND ('"what are its other" is not in the knowledge graph'), and "what are
    aspirin's other uses?" read those words as the closest name."""
    first, out = in_thread(run_graph, "other-uses", "How does aspirin prevent stroke?", "what are its other uses?")
    assert out["status"] is Status.ANSWERED and out["intent"] == "indications", out["answer"]
    assert out["understood_as"] == "What are the other uses of Aspirin?"
    assert first["targets"][0] in out["excluded"] and out["answer"].startswith("Understood as: ")
    plain, _ = run_graph({"question": "what are aspirin's other uses?"}, interactive=False, memory=False)
    assert plain["intent"] == "indications" and not plain["answer"].startswith("Read "), plain["answer"]


@pytest.mark.parametrize(("first", "understood"), [
    ("what's the target of imatinib", "What does Dasatinib target?"),
    ("what does aspirin treat?", "What does Dasatinib treat?"),
])
def test_and_of_a_name_asks_the_last_question_of_it(run_graph, first: str, understood: str) -> None:
    """"and of dasatinib?" after a drug's targets was told what dasatinib is connected to, without reading the last
    question; "and of them, which is best?" is no name, and reads as before."""
    _, out = in_thread(run_graph, f"and-of-{first}", first, "and of dasatinib?")
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    _, out = in_thread(run_graph, "and-of-them", "what drugs treat gout?", "and of them, which is best?")
    assert out["status"] is Status.ANSWERED and "them" not in out["understood_as"], out["answer"]


@pytest.mark.parametrize(("first", "then", "understood"), [
    ("Why is levodopa used for Parkinson's?", "And why carbidopa?", "How does carbidopa treat Parkinson's disease?"),
    ("Why does allopurinol work for gout?", "and why not colchicine?", "How does colchicine treat Gout?"),
])
def test_and_why_a_drug_asks_the_last_question_of_it(run_graph, first: str, then: str, understood: str) -> None:
    """"And why carbidopa?" after why levodopa is used for Parkinson's told what carbidopa is connected to."""
    _, out = in_thread(run_graph, f"why-{then}", first, then)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    _, so = in_thread(run_graph, "why-so", first, "why is that?")
    assert so["understood_as"] != "How does that treat Parkinson's disease?", so["understood_as"]


@pytest.mark.parametrize(("first", "then", "understood"), [
    ("Are ACE inhibitors used for heart failure?", "Which ones?", "Which ACE inhibitors treat Congestive heart failure?"),
    ("Do statins treat hypercholesterolemia?", "which ones exactly?", "Which statins treat Hypercholesterolemia?"),
])
def test_which_ones_after_a_class_and_a_disease_lists_the_class_s_drugs_for_it(run_graph, first, then, understood) -> None:
    """"Which ones?" after "Are ACE inhibitors used for heart failure?" was NOT_FOUND ("no known entity")."""
    _, out = in_thread(run_graph, f"ones-{first}", first, then)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    assert out["ranked_answers"], out["answer"]


@pytest.mark.parametrize("then", ["what drugs block it?", "what drugs block them?"])
def test_what_blocks_a_chemical_s_listed_target_is_about_the_target(run_graph, then: str) -> None:
    """After morphine's targets (morphine is a chemical in the graph), it was "What drugs block morphine?", NOT_FOUND:
    a chemical the thread was about came before the listed target (since stop 100)."""
    _first, out = in_thread(run_graph, f"block-{then}", "what receptors does morphine act on?", then)
    assert out["understood_as"] == "What drugs block Opioid receptor?", out["answer"]
    assert "Naloxone" in [a["name"] for a in out["ranked_answers"]], out["answer"]


@pytest.mark.parametrize(("turns", "understood", "opens"), [
    (("is lisinopril safe in pregnancy?", "why not?"), "is lisinopril safe in pregnancy?",
     "The knowledge graph holds curated drug mechanisms, not safety."),
    (("how does metformin work?", "can it cause lactic acidosis?", "why?"), "Can Metformin cause lactic acidosis?",
     "The knowledge graph holds curated drug mechanisms, not side effects."),
    (("does imatinib treat hypertension?", "why not?"), "What does imatinib treat?", "imatinib has a verified mechanism for: "),
])
def test_why_after_an_answer_that_said_no_or_not_held_asks_what_says_why(run_graph, turns: tuple[str, ...], understood: str,
                                                                         opens: str) -> None:
    """"why not?" after the note that the graph holds no safety was "How does lisinopril act on Angiotensin-converting
    enzyme?"; "why?" after a side effect the graph does not name was `NOT_FOUND`; "why not?" after "Not among
    imatinib's uses …" was the chain into hypertension again (since stop 101)."""
    *_, out = in_thread(run_graph, f"why-{turns[-2]}", *turns)
    assert out["understood_as"] == understood and out["status"] is not Status.ERROR, out["answer"]
    assert opens in out["answer"], out["answer"]


@pytest.mark.parametrize(("first", "then", "understood"), [
    ("what does imatinib target?", "what happens when it's blocked?",
     "What happens when Tyrosine-protein kinase ABL1 is blocked?"),
    ("what receptors does propranolol block?", "what happens when they're blocked?",
     "What happens when Beta-1 adrenergic receptor is blocked?"),
    ("what receptors does propranolol block?", "what happens when they are blocked?",
     "What happens when Beta-1 adrenergic receptor is blocked?"),
])
def test_what_is_blocked_after_a_drug_s_targets_is_its_target(run_graph, first: str, then: str, understood: str) -> None:
    """They were "What happens when imatinib's blocked?", "… when Propranolol're blocked?" and "… when Propranolol are
    blocked?": the drug put in the place of what it blocks, the contraction kept (since stop 101)."""
    _first, out = in_thread(run_graph, f"blocked-{then}", first, then)
    assert out["understood_as"] == understood, out["answer"]
