"""One drug's mechanisms for two diseases set side by side from the thread ("compare the two" after "How does
sildenafil treat erectile dysfunction?" and "and in pulmonary hypertension?"; ``agents.two_mechanisms``)."""

from __future__ import annotations

from agents.answer_notes import sentence
from agents.state import Status
from agents.two_mechanisms import two_mechanisms
from tests.conftest import in_thread


def _turn(drug: str, disease: str, path: list[tuple[str, str, str]]) -> dict:
    return {"role": "assistant", "status": "Status.ANSWERED", "intent": "mechanism", "drug": {"id": drug, "name": drug},
            "disease": {"id": disease, "name": disease},
            "steps": [{"head_name": h, "relation": r, "tail_name": t} for h, r, t in path]}


def test_only_one_drug_s_two_diseases_are_compared() -> None:
    a = _turn("D", "Y1", [("D", "inhibits", "T"), ("T", "causes", "Y1")])
    b = _turn("D", "Y2", [("D", "inhibits", "T"), ("T", "causes", "Y2")])
    other = _turn("E", "Y2", [("E", "inhibits", "T"), ("T", "causes", "Y2")])
    assert two_mechanisms("compare the two", [a, b]) == (a, b)
    assert two_mechanisms("how do they differ?", [a, b]) == (a, b)
    assert two_mechanisms("compare the two", [a, other]) is None  # two drugs: compared as drugs
    assert two_mechanisms("compare the two", [a, a]) is None
    assert two_mechanisms("what does it target?", [a, b]) is None


def test_compare_the_two_after_two_mechanisms_of_one_drug(run_graph) -> None:
    """It was NOT_FOUND, '"compare the two" is not in the knowledge graph'."""
    first, second, both, step = in_thread(run_graph, "two-mechanisms", "what is the mechanism of sildenafil in erectile dysfunction?",
                                          "and in pulmonary hypertension?", "compare the two", "explain step 2")
    assert both["status"] is Status.ANSWERED, both["answer"]
    for turn in (first, second):  # each answer's path, in words
        assert f"through a {len(turn['evidence'])}-step mechanism: {sentence(turn['evidence'])}." in both["answer"], both["answer"]
    assert both["answer"].endswith("Both pass through: cGMP-specific 3',5'-cyclic phosphodiesterase."), both["answer"]
    assert "not comparisons of how well drugs work" not in both["answer"], both["answer"]
    assert step["status"] is Status.ANSWERED and "cGMP-specific 3',5'-cyclic phosphodiesterase" in step["understood_as"], step["answer"]
