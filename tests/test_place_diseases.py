""""How does cisplatin treat cancer of the lung?" answered how cisplatin acts on the lung: the only name inside the
mention was the organ's, and the linker read the whole mention as the organ (a GrossAnatomicalStructure).
"… cancer in the lung?" dropped the lung as a place the graph does not distinguish and asked which "cancer" was
meant, among ovary, breast and others. A kind of disease with a place now names the diseases of that place."""

from __future__ import annotations

import pytest

from agents.followup import resolve_followup
from agents.intent import SLOT_TYPES
from agents.state import Status
from tests.conftest import in_thread
from tools.linker import LinkStatus
from tools.places import PLACE_TYPES

DISEASES = {"Disease", "PhenotypicFeature"}


@pytest.mark.parametrize(("mention", "expected"), [
    ("cancer of the breast", "Breast Neoplasms"),
    ("cancer of the colon", "Malignant tumor of colon"),
    ("brain tumour", "Malignant neoplasm of brain"),
])
def test_a_kind_of_disease_in_an_organ_links_to_the_disease_named_so(resources, mention, expected) -> None:
    out = resources.linker.link(mention, SLOT_TYPES["disease"])
    assert out.status is LinkStatus.LINKED and out.best.name == expected, out


@pytest.mark.parametrize("mention", ["cancer of the lung", "cancer in the lung", "liver disease", "infection of the lung"])
def test_when_names_differ_it_asks_among_diseases_not_the_organ(resources, mention) -> None:
    """Two lung cancers (Malignant tumor of lung, Non-small cell lung cancer), or only names that say more than the
    mention ("liver disease": Hepatic Veno-Occlusive Disease is one kind of it): a question, never the organ."""
    out = resources.linker.link(mention, SLOT_TYPES["disease"])
    assert out.status is LinkStatus.AMBIGUOUS and out.candidates, out
    assert {c.type for c in out.candidates} <= DISEASES, out
    if "lung" in mention and "cancer" in mention:
        assert out.best.name == "Malignant tumor of lung", out


def test_an_organ_alone_still_names_the_organ(resources) -> None:
    for mention in ("lung", "the liver"):
        assert resources.linker.link(mention).best.type in PLACE_TYPES, mention


def test_a_kind_of_disease_before_a_place_is_not_a_qualifier(run_graph, resources) -> None:
    q = "how does cisplatin treat cancer in the lung?"
    assert resolve_followup(q, [], resources.linker).qualifier == ""
    out, _ = run_graph({"question": q}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert "acts on Malignant tumor of lung" in out["answer"] and "does not distinguish" not in out["answer"], out["answer"]


def test_a_place_where_a_disease_is_wanted_asks_among_its_diseases(resources) -> None:
    """"which drugs are good for the heart?" listed drugs "with a verified mechanism for Heart", and "is aspirin good
    for the heart?" answered "Aspirin acts on Heart": the organ was the disease."""
    out = resources.linker.link("the heart", SLOT_TYPES["disease"])
    assert out.status is LinkStatus.AMBIGUOUS and out.candidates[-1].type in PLACE_TYPES, out
    named = out.candidates[:-1]
    assert named and {c.type for c in named} <= DISEASES and any(c.name == "Myocardial infarction" for c in named), out
    assert resources.linker.link("heart").best.type in PLACE_TYPES  # "what is the heart?" asks about the organ


def test_the_answer_is_for_a_disease_of_the_place(run_graph, resources) -> None:
    out, _ = run_graph({"question": "which drugs are good for the heart?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and '"heart" fits several entries' in out["answer"], out["answer"]
    assert [resources.kg.node(t).type for t in out["targets"]] == ["Disease"], out["targets"]


@pytest.mark.parametrize(("questions", "understood"), [
    (("how does cisplatin treat ovarian cancer?", "and in the lung?"), "How does Cisplatin treat Malignant tumor of lung?"),
    (("how does tamoxifen treat breast cancer?", "and in the brain?"), "How does Tamoxifen treat Malignant neoplasm of brain?"),
    (("what drugs treat lung cancer?", "and in the colon?"), "What drug treats Malignant tumor of colon?"),
])
def test_another_place_after_a_disease_of_a_place_is_that_place_s_disease(run_graph, questions, understood) -> None:
    """"and in the lung?" after how cisplatin treats ovarian cancer asked how cisplatin acts on the lung."""
    *_, out = in_thread(run_graph, f"place-swap-{questions[0]}", *questions)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]


@pytest.mark.parametrize(("questions", "understood", "place"), [
    (("how does metformin work in the liver?", "and in the kidney?"), "What does Metformin target in the kidney?", "the kidney"),
    (("how does metformin treat type 2 diabetes?", "what about in the liver?"),
     "How does Metformin treat Diabetes mellitus type 2 in the liver?", "the liver"),
    # "it" for the thread's drug: answered for Hepatic Veno-Occlusive Disease, and "Does it work in the stomach?" as
    # a chain into the stomach
    (("What is the mechanism of metformin?", "Does it affect the liver?"), "Does Metformin work in the liver?", "the liver"),
    (("How does aspirin work?", "does it work in the stomach?"), "Does Aspirin work in the stomach?", "the stomach"),
])
def test_in_a_place_after_a_question_about_a_drug_is_a_qualifier(run_graph, questions, understood, place) -> None:
    """"and in the kidney?" after "how does metformin work in the liver?" asked how metformin acts on the kidney, an
    anatomical structure (NOT_FOUND: no chain within the walk budget)."""
    *_, out = in_thread(run_graph, f"place-qualifier-{questions[0]}", *questions)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    assert f"DrugMechDB does not distinguish {place}; this is the general mechanism." in out["answer"], out["answer"]


def test_a_disease_named_after_a_place_is_not_asked_among_the_place_s_diseases(resources) -> None:
    """"how does metformin treat polycystic ovary syndrome?" (a disease the graph lacks) asked which of the ovary's
    diseases was meant, "Malignant tumor of ovary" first; non-interactive, it answered for the tumour. A mention that
    says no more than the place, or the place and a word for any illness, is still asked about."""
    out = resources.linker.link("polycystic ovary syndrome", SLOT_TYPES["disease"])
    assert not any(c.type in DISEASES for c in out.candidates), out
    for mention in ("kidney problems", "the heart", "liver"):
        asked = resources.linker.link(mention, SLOT_TYPES["disease"])
        assert asked.status is LinkStatus.AMBIGUOUS and asked.candidates[0].type in DISEASES, (mention, asked)


@pytest.mark.parametrize("mention", ["kidney damage", "liver damage", "heart injury"])
def test_damage_to_an_organ_asks_among_its_diseases(resources, mention) -> None:
    """"what drugs treat kidney damage?" listed drugs "with a verified mechanism for Kidney" (the organ, read as the
    closest name): damage to an organ names no disease of it in particular, as "kidney problems" does not."""
    out = resources.linker.link(mention, SLOT_TYPES["disease"])
    assert out.status is LinkStatus.AMBIGUOUS and {c.type for c in out.candidates[:-1]} <= DISEASES, out
    assert out.candidates[0].type in DISEASES, out


def test_what_about_damage_to_an_organ_asks_about_its_diseases(run_graph) -> None:
    """It was "How does lisinopril act on Kidney?", with no chain found."""
    _, out = in_thread(run_graph, "organ-damage", "what does lisinopril treat?", "what about kidney damage?")
    assert out["understood_as"] == "How does lisinopril treat kidney damage?", out["answer"]
    assert '"kidney damage" fits several entries' in out["answer"] and "act on Kidney" not in out["answer"], out["answer"]
