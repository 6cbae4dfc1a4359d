"""Keyword queries, typed as into a search box rather than as a sentence.

- "imatinib mechanism of action", "imatinib MOA" and "mechanism imatinib" matched no rule. The free-text scan found
  the drug alone and answered what the graph holds about it ("imatinib is connected to: …"), not what it acts on, as
  "what is the mechanism of action of imatinib?" does.
- "metformin diabetes", "imatinib for leukemia" and "tamoxifen cancer" name a disease only in part. The scan matches
  whole names, so it found the drug alone and the disease was dropped: "Metformin is connected to: Hyperglycemia; …".
  The words beside the drug now fill the disease slot, and are linked as a slot is: the diseases they fit, nearest
  the drug first, and a clarification when interactive.
"""

from __future__ import annotations

import pytest

from agents.state import Status


@pytest.mark.parametrize("question", [
    "imatinib mechanism of action", "imatinib MOA", "mechanism imatinib", "aspirin: mechanism?",
])
def test_a_drug_beside_a_mechanism_word_asks_what_it_acts_on(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targets", out["answer"]
    assert " acts on: " in out["answer"]


@pytest.mark.parametrize("question", ["explain imatinib", "tell me about imatinib", "imatinib dose"])
def test_a_drug_beside_other_words_is_still_about_the_drug(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "entity", out["answer"]
    assert out["targets"] == []


@pytest.mark.parametrize(("question", "disease"), [
    ("imatinib for leukemia", "Chronic myeloid leukemia"),
    ("imatinib leukemia", "Chronic myeloid leukemia"),
    ("tamoxifen cancer", "Breast Neoplasms"),
    ("metformin diabetes mechanism", None),
])
def test_words_that_name_a_disease_in_part_are_the_disease(run_graph, resources, question: str, disease: str | None) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism", out["answer"]
    assert len(out["targets"]) == 1 and out["clarification"]["auto"] is True
    name = resources.kg.name(out["targets"][0])
    assert name == disease if disease else name.startswith("Diabetes mellitus")
    assert resources.kg.name(out["evidence"][-1]["tail"]) == name


def test_an_interactive_keyword_query_asks_which_disease(run_graph) -> None:
    out, _ = run_graph({"question": "metformin diabetes"}, thread="kw")
    assert "__interrupt__" in out
    names = [c["name"] for c in out["__interrupt__"][0].value["candidates"]]
    assert {"Diabetes mellitus type 1", "Diabetes mellitus type 2"} <= set(names)
