""""Which gout drugs don't act on xanthine oxidase?": the disease's drugs, leaving out those that act on it that way.
The negation was ignored: the answer listed the gout drugs with febuxostat among them."""

from __future__ import annotations

import pytest

from agents.not_acting import not_acting_on
from agents.resolution import Resolution
from agents.state import DRUG_TYPES, Status
from tools.answers import acting_on


@pytest.mark.parametrize(("question", "verb"), [
    ("Which gout drugs don't act on xanthine oxidase?", "act on"),
    ("which drugs treat gout without inhibiting xanthine oxidase?", "inhibit"),
    ("what drugs for gout do not target xanthine oxidase?", "act on"),
])
def test_the_drugs_that_act_that_way_are_left_out(run_graph, resources, question: str, verb: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats", out["answer"]
    assert f"Leaving out the drugs that {verb} Xanthine dehydrogenase/oxidase, as asked." in out["answer"]
    xo = resources.linker.link("xanthine oxidase").best
    acting = set(acting_on(resources.kg, xo.id, DRUG_TYPES))
    names = [a["id"] for a in out["ranked_answers"]]
    assert acting and names and not acting & set(names), out["answer"]
    assert out["targets"] and resources.kg.node(out["targets"][0]).name == "Gout"


@pytest.mark.parametrize("question", ["Which gout drugs act on xanthine oxidase?", "How does allopurinol treat gout?",
                                      "how does allopurinol treat gout without side effects?",
                                      "which drugs don't treat gout?"])
def test_other_questions_are_read_as_before(resources, question: str) -> None:
    assert not_acting_on(resources, Resolution(question=question)).question == question
