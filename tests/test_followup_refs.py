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
