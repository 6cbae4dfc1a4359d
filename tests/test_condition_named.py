""""what about lactic acidosis?" after "can metformin cause B12 deficiency?" asked "Does lactic acid cause Cobalamin
deficiency?": the linker guessed the drug lactic acid by meaning, and a drug takes the drug's place. A name worded as a
condition is a disease the graph lacks (``tools.word_forms.condition_named``)."""

from __future__ import annotations

import pytest
from conftest import in_thread

from agents.state import Status
from tools.word_forms import condition_named


@pytest.mark.parametrize(("mention", "condition"), [
    ("lactic acidosis", True), ("Hepatitis", True), ("hypokalemia", True), ("hypokalaemia", True),
    ("peripheral neuropathy", True), ("B12 deficiency", True), ("kidney failure", True), ("diarrhoea", True),
    ("lactic acid", False), ("metformin", False), ("lisinopril", False), ("zorbaxil", False), ("insulin", False),
])
def test_a_name_worded_as_a_condition(mention: str, condition: bool) -> None:
    assert condition_named(mention) is condition


def test_a_condition_the_graph_lacks_takes_the_condition_s_place(run_graph) -> None:
    _, out = in_thread(run_graph, "lactic-acidosis", "can metformin cause B12 deficiency?", "what about lactic acidosis?")
    assert out["understood_as"] == "Does Metformin cause lactic acidosis?", out["answer"]
    assert out["status"] is Status.NOT_FOUND and '"lactic acidosis" is not in the knowledge graph' in out["answer"], out["answer"]


def test_an_unknown_drug_name_still_takes_the_drug_s_place(run_graph) -> None:
    _, out = in_thread(run_graph, "unknown-drug", "can metformin cause B12 deficiency?", "what about zorbaxil?")
    assert out["understood_as"] == "Does zorbaxil cause Cobalamin deficiency?", out["answer"]
