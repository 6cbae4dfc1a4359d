""""What types of diabetes are there?" was NOT_FOUND ("no known entity in the question"), and "what are the types?"
after "What is diabetes?" was asked as "What drugs treat types?", which read "types" as Tension-Type Headache. The
graph holds no classification of diseases; the answer says so, then names the diseases whose names are kinds of the
one asked about (``agents.disease_types``)."""

from __future__ import annotations

from typing import Any

import pytest

from agents.disease_types import NOTE, kinds_question
from agents.state import Status
from tests.conftest import in_thread


def _turn(run_graph: Any, thread: str, question: str) -> dict[str, Any]:
    _out, snap = run_graph({"question": question}, thread=thread, interactive=False)
    return dict(snap.values)


@pytest.mark.parametrize(("question", "kinds"), [
    ("what types of diabetes are there?", {"Diabetes mellitus type 1", "Diabetes mellitus type 2"}),
    ("what kinds of leukemia exist?", {"Chronic myeloid leukemia", "Hairy cell leukemia", "Acute lymphoblastic leukemia"}),
    ("list the types of epilepsy", {"Tonic-clonic epilepsy"}),
    ("what are the different types of hypertension?", {"Pulmonary hypertension", "Essential hypertension"}),
])
def test_the_kinds_of_a_disease_are_the_diseases_named_as_its_kinds(run_graph, question: str, kinds: set[str]) -> None:
    out = _turn(run_graph, f"kinds-{question}", question)
    assert out["intent"] == "disease_kinds" and out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith(NOTE) and not out["evidence"], out["answer"]
    assert "retriever" not in out["timings"] and not out["candidates"], out["timings"]  # no walk runs
    listed = out["answer"].split("the most connected first: ")[1]
    assert all(k in listed for k in kinds), out["answer"]


def test_a_kind_named_is_what_the_second_one_means_next(run_graph) -> None:
    first = _turn(run_graph, "kinds-next", "what kinds of lymphoma are there?")
    second = first["answer"].split("the most connected first: ")[1].split("; ")[1]
    out = _turn(run_graph, "kinds-next", "what treats the second one?")
    assert out["understood_as"] == f"What treats {second}?" and out["status"] is Status.ANSWERED, out["answer"]


@pytest.mark.parametrize(("first", "then", "understood"), [
    ("What is diabetes?", "what are the types?", "What types of diabetes are there?"),
    ("how does metformin treat diabetes?", "what are the different kinds?", "What types of diabetes are there?"),
    ("what drugs treat leukemia?", "are there different types?", "What types of leukemia are there?"),
    ("how does imatinib treat CML?", "what are the types?", "What types of Chronic myeloid leukemia are there?"),
])
def test_the_types_in_a_thread_about_a_disease_are_its_kinds(run_graph, first: str, then: str, understood: str) -> None:
    """The words the thread asked by ("leukemia", answered for Acute lymphoblastic leukemia), or the disease's name
    when they are one of its names ("CML")."""
    _first, out = in_thread(run_graph, f"kinds-{first}", first, then)
    assert out["understood_as"] == understood and out["intent"] == "disease_kinds", out["answer"]
    assert out["status"] is Status.ANSWERED and "Tension-Type Headache" not in out["answer"], out["answer"]
    if "CML" in first:  # a disease is not one of its own kinds
        assert "first: Chronic myeloid leukemia" not in out["answer"], out["answer"]


def test_only_a_question_for_a_disease_s_kinds_is_read_so(resources) -> None:
    for q in ("What kind of disease is gout?", "what type of drug treats gout?", "What type of receptor does it block?",
              "what kinds of questions can I ask?", "what types of imatinib are there?"):
        assert kinds_question(q, resources.linker) is None, q


def test_the_types_with_no_disease_in_the_thread_say_so(run_graph) -> None:
    """With no disease in the thread, "what are the types?" was asked as "What drugs treat types?" (Tension-Type
    Headache)."""
    out = _turn(run_graph, "kinds-none", "what are the types?")
    assert out["status"] is Status.NOT_FOUND and "names no disease" in out["answer"], out["answer"]
    assert "Tension-Type Headache" not in out["answer"], out["answer"]


def test_the_types_of_a_word_drugs_are_named_after_are_those_drugs(run_graph, resources) -> None:
    """"What types of insulin are there?" told what the protein insulin is connected to; the drugs named after it are
    its types, and "what does the second one target?" next picks from them."""
    out = _turn(run_graph, "kinds-insulin", "what types of insulin are there?")
    assert out["status"] is Status.ANSWERED and out["intent"] == "disease_kinds", out["answer"]
    assert out["answer"].startswith("The knowledge graph holds no classification of drugs; it names them."), out["answer"]
    listed = out["answer"].split("the most connected first: ")[1].split(". For how")[0].split(", ")
    assert len(listed) > 2 and all("insulin" in x.casefold() for x in listed) and "retriever" not in out["timings"], listed
    then = _turn(run_graph, "kinds-insulin", "what does the second one target?")
    assert then["understood_as"] == f"What does {listed[1]} target?", then["answer"]
    for q in ("what types of penicillin are there?", "what types of heparin are there?"):  # a class; no drug named so
        assert kinds_question(q, resources.linker) is None, q
