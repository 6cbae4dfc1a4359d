""""does it work in type 1 too?" after how metformin treats Diabetes mellitus type 2 asked which "type 1" was meant,
among Diabetes mellitus type 1, Human alphaherpesvirus 1 and others: it is the thread's disease with the other type."""

from __future__ import annotations

from typing import Any

import pytest

from agents.state import Status
from agents.typed_disease import of_the_thread_type
from tests.conftest import in_thread

T2D = {"id": "MESH:D003924", "name": "Diabetes mellitus type 2", "type": "Disease"}


@pytest.mark.parametrize(("question", "said"), [
    ("does it work in type 1 too?", "does it work in Diabetes mellitus type 1 too?"),
    ("and type one?", "and Diabetes mellitus type 1?"),
    ("what treats type I?", "what treats Diabetes mellitus type 1?"),
    ("and type 3?", "and type 3?"),  # no such disease in the graph
    ("does it work in type 1 diabetes?", "does it work in type 1 diabetes?"),  # the disease is named: the linker reads it
    ("is it a type 1 inhibitor?", "is it a type 1 inhibitor?"),  # not after a word that leads to a disease
])
def test_a_bare_type_is_the_thread_s_disease_of_that_type(resources: Any, question: str, said: str) -> None:
    assert of_the_thread_type(question, T2D, resources.linker)[0] == said


def test_a_disease_with_no_type_in_the_thread_changes_nothing(resources: Any) -> None:
    gout = {"id": "MESH:D006073", "name": "Gout", "type": "Disease"}
    assert of_the_thread_type("and type 1?", gout, resources.linker) == ("and type 1?", "")


def test_with_no_disease_in_the_thread_a_bare_type_is_diabetes(run_graph: Any, resources: Any) -> None:
    """"which is better for type 2?" after insulin and metformin compared the two for no disease, the words dropped
    (since stop 102)."""
    assert of_the_thread_type("and type 1?", None, resources.linker) == ("and Diabetes mellitus type 1?", "type 1")
    *_, out = in_thread(run_graph, "typed-none", "how does insulin work?", "what about metformin?", "which is better for type 2?")
    assert out["compared"] and [resources.kg.name(t) for t in out["targets"]] == ["Diabetes mellitus type 2"], out["answer"]


def test_does_it_work_in_type_1_after_type_2_asks_of_type_1(run_graph: Any, resources: Any) -> None:
    first, out = in_thread(run_graph, "typed", "How does metformin treat type 2 diabetes?", "does it work in type 1 too?")
    assert resources.kg.name(first["targets"][0]) == "Diabetes mellitus type 2"
    assert out["status"] is Status.ANSWERED and out["understood_as"] == "How does Metformin treat Diabetes mellitus type 1?"
    assert [resources.kg.name(t) for t in out["targets"]] == ["Diabetes mellitus type 1"], out["answer"]
