""""What drugs treat both gout and hypertension?" lists drugs with a verified mechanism for each disease. It answered
gout alone and suggested asking about hypertension next."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread
from tools.answers import lowers
from tools.walker import GraphWalker


def test_drugs_with_a_mechanism_for_each_disease(run_graph, resources, settings) -> None:
    kg = resources.kg
    out, _ = run_graph({"question": "What drugs treat both gout and hypertension?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["also_asked"] == [] and len(out["targets"]) == 2
    gout, second = out["targets"]
    assert kg.name(gout) == "Gout" and out["ranked_answers"]
    assert out["answer"].startswith(f"Drugs with a verified mechanism for both Gout and {kg.name(second)}: ")
    walker = GraphWalker(kg, settings.budget)
    conf = resources.predictor.conf_fn(resources.embed_one(out["question"]))
    for a in out["ranked_answers"]:
        triples = a["path"]["triples"]
        assert triples[0]["head"] == a["id"] and triples[-1]["tail"] == gout
        assert any(lowers(p) for p in walker.walk([a["id"]], [second], conf).paths), a["name"]  # and a path into the other
    plain, _ = run_graph({"question": "What drugs treat gout and hypertension?"}, interactive=False, memory=False)
    assert plain["also_asked"] and len(plain["targets"]) == 1  # without "both": one at a time, as before


def test_an_acronym_among_the_diseases_is_one_of_them(run_graph, resources) -> None:
    """"which drugs treat both asthma and COPD?" was answered for COPD alone: the acronym inside the slot's text linked
    the whole text by its letters, so it was not split into two names. An acronym inside a longer mention is a word of
    it, as a name inside is."""
    kg = resources.kg
    out, _ = run_graph({"question": "which drugs treat both asthma and COPD?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and [kg.name(x) for x in out["targets"]] == ["Asthma", "Chronic obstructive lung disease"]
    assert out["answer"].startswith("Drugs with a verified mechanism for both Asthma and Chronic obstructive lung disease: ")
    assert resources.linker.link("EGFR tyrosine kinase").best.method == "ngram"  # read from inside: said so in the answer


@pytest.mark.parametrize(("first", "then", "understood", "both"), [
    ("what drugs treat gout?", "what if she also has hypertension?", "What drugs treat both Gout and hypertension?",
     "both Gout and Hypertensive disorder"),
    ("what drugs treat asthma?", "and if I have COPD too?", "What drugs treat both Asthma and COPD?",
     "both Asthma and Chronic obstructive lung disease"),
])
def test_a_second_disease_a_person_also_has_asks_for_drugs_that_treat_both(run_graph, first: str, then: str,
                                                                            understood: str, both: str) -> None:
    """"what about if I also have diabetes?" after the drugs for high blood pressure was NOT_FOUND: '"if I also have
    diabetes" is not in the knowledge graph'."""
    _first, out = in_thread(run_graph, f"also-has-{then}", first, then)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == understood, out["answer"]
    assert f"Drugs with a verified mechanism for {both}:" in out["answer"], out["answer"]


def test_a_disease_without_also_is_not_read_as_a_second_one(run_graph) -> None:
    _first, out = in_thread(run_graph, "if-has", "what drugs treat gout?", "what if she has hypertension?")
    assert "both" not in (out.get("understood_as") or ""), out.get("answer")


def _acting(kg, target: str) -> set[str]:
    return {e.head for e in kg.in_edges(target)}


def test_drugs_acting_on_each_of_two_targets(run_graph, resources) -> None:
    """"Which drugs inhibit both COX-1 and COX-2?" listed the drugs for COX-1 alone, as "COX-1 (any of the 2 entities
    whose names hold those words)"; each listed drug now acts on both."""
    kg = resources.kg
    out, _ = run_graph({"question": "Which drugs inhibit both COX-1 and COX-2?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targeted_by" and len(out["targets"]) == 2, out["answer"]
    one, two = out["targets"]
    assert out["answer"].startswith(f"Drugs that inhibit both {kg.name(one)} and {kg.name(two)}: "), out["answer"]
    assert "any of the" not in out["answer"] and out["ranked_answers"]
    for a in out["ranked_answers"]:  # the pool's nearest paths: for these NSAIDs, their own edges into each
        assert a["id"] in _acting(kg, one) and a["id"] in _acting(kg, two), a["name"]


def test_only_the_drugs_for_each_target_are_listed(run_graph, resources) -> None:
    """With one drug acting on both (imatinib on ABL1 and KIT), the answer listed two more that act on one."""
    out, _ = run_graph({"question": "what drugs target both ABL1 and c-kit?"},
                       interactive=False, memory=False)
    names = [a["name"] for a in out["ranked_answers"]]
    assert out["status"] is Status.ANSWERED and names and len(out["targets"]) == 2, out["answer"]
    assert all(a["id"] in _acting(resources.kg, t) for a in out["ranked_answers"] for t in out["targets"]), names
    listed = out["answer"].split(": ", 1)[1].split(". Best evidence")[0].split(", ")
    assert listed == names[:len(listed)], out["answer"]


def test_no_drug_for_each_target_says_so(run_graph) -> None:
    out, _ = run_graph({"question": "which drugs inhibit both xanthine oxidase and COX-1?"}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and "no drug in the knowledge graph acts on each of" in out["answer"], out["answer"]


@pytest.mark.parametrize(("question", "first", "second"), [
    ("Is there a drug that treats gout and lowers blood pressure?", "Gout", "Hypertensive disorder"),
    ("Which drugs treat depression and also help with anxiety?", "Depressive disorder", "Anxiety"),
    ("Are there any medications that treat hypertension and also lower cholesterol?", "Hypertensive disorder",
     "Hypercholesterolemia"),
])
def test_a_drug_that_treats_one_and_lowers_another_treats_both(run_graph, resources, question, first, second) -> None:
    """Two verbs, one per disease: "treats gout and lowers blood pressure" was read as one name, "gout and lowers high
    blood pressure" (a guess: Hypertensive disorder), and the drugs for it listed."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and [resources.kg.name(x) for x in out["targets"]] == [first, second], out["answer"]
    assert out["answer"].startswith(f"Drugs with a verified mechanism for both {first} and {second}: "), out["answer"]
    assert "Read " not in out["answer"]


@pytest.mark.parametrize("question", ["What drugs treat both type 2 diabetes and weight loss?",
                                      "What drug treats type 2 diabetes and helps with weight loss?",
                                      "What drug treats type 2 diabetes and helps you lose weight?"])
def test_weight_loss_beside_a_disease_is_obesity_and_both_are_asked_for(run_graph, resources, question: str) -> None:
    """The first was `NOT_FOUND` ("both type 2 diabetes and weight loss" is not in the knowledge graph); the others were
    read as obesity alone, "diabetes and helps with weight loss" the closest name."""
    kg = resources.kg
    out, _ = run_graph({"question": question}, thread=question, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert [kg.name(x) for x in out["targets"]] == ["Diabetes mellitus type 2", "Obesity"], out["answer"]
    assert out["answer"].startswith("Drugs with a verified mechanism for both Diabetes mellitus type 2 and Obesity: ")
