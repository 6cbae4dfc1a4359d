"""Follow-ups that point at what the thread just said: "how does it do that?", "how does colchicine do that?", "is
there another drug for that?", and "how does that one work?" right after a list of other drugs."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize(("first", "question", "understood"), [
    ("What drugs treat gout?", "how does it do that?", "How does {top} treat Gout?"),
    ("What drugs treat gout?", "how does the second one do that?", "How does {second} treat Gout?"),
])
def test_how_does_it_do_that_asks_how_the_drug_referred_to_works(run_graph, first: str, question: str,
                                                                  understood: str) -> None:
    """"how does it do that?" after a list of drugs for gout was "How does Gout do that?", the list again."""
    listed, out = in_thread(run_graph, f"do-it-{question}", first, question)
    top, second = (d["name"] for d in listed["ranked_answers"][:2])
    assert out["understood_as"] == understood.format(top=top, second=second), out["answer"]
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism"


@pytest.mark.parametrize(("first", "question", "understood"), [
    ("How does allopurinol treat gout?", "how does colchicine do that?", "How does colchicine treat Gout?"),
    ("What reduces prostaglandin E2?", "how does ibuprofen do that?", "How does Ibuprofen lower Prostaglandin E2?"),
    # "does colchicine work?" and "would colchicine help too?" told what colchicine is connected to ("too" was NOT_FOUND)
    ("How does allopurinol treat gout?", "does colchicine work?", "Does colchicine treat Gout?"),
    ("How does allopurinol treat gout?", "would colchicine help too?", "Does colchicine treat Gout?"),
    # "do it" as "do that" (since stop 98): it told what vancomycin is connected to, Neonatal Sepsis first
    ("Which drugs kill Staphylococcus aureus?", "how does vancomycin do it?", "How does vancomycin treat Staphylococcus aureus?"),
    ("How does allopurinol treat gout?", "does colchicine do it too?", "Does colchicine treat Gout?"),
])
def test_how_does_a_named_drug_do_that_asks_for_its_mechanism_for_the_thread(run_graph, first: str, question: str,
                                                                            understood: str) -> None:
    """Each was answered with what the named drug is connected to, the thread's disease left out."""
    _, out = in_thread(run_graph, f"do-named-{question}", first, question)
    assert out["understood_as"] == understood, out["answer"]
    assert out["status"] is Status.ANSWERED and out["evidence"], out["answer"]


def test_another_drug_for_that_lists_the_other_drugs_for_the_thread_s_disease(run_graph, resources) -> None:
    """"is there another drug for that?" after how metformin treats hyperglycemia was NOT_FOUND, "no known entity in
    the question"; the other drugs leave metformin out."""
    first, out = in_thread(run_graph, "another-drug", "How does metformin treat hyperglycemia?",
                           "is there another drug for that?")
    assert out["understood_as"] == "Is there another drug for Hyperglycemia?", out["answer"]
    assert out["status"] is Status.ANSWERED and out["ranked_answers"], out["answer"]
    assert first["sources"][0] not in [d["id"] for d in out["ranked_answers"]], out["answer"]


def test_that_one_after_a_list_of_other_drugs_is_the_list_s_first(run_graph) -> None:
    """"how does that one work?" after "what else could I use?" was the thread's drug, imatinib, which the list left
    out; "it" still is the thread's drug."""
    _, listed, that_one = in_thread(run_graph, "that-one", "How does imatinib treat CML?", "what else could I use?",
                                    "how does that one work?")
    top = listed["ranked_answers"][0]["name"]
    assert top.casefold() != "imatinib"
    assert that_one["understood_as"] == f"How does {top} treat Chronic myeloid leukemia?", that_one["answer"]
    *_, it = in_thread(run_graph, "that-it", "How does imatinib treat CML?", "what else could I use?", "how does it work?")
    assert it["understood_as"] == "How does imatinib treat Chronic myeloid leukemia?", it["answer"]


def test_it_after_a_verb_of_acting_on_a_protein_right_after_a_drug_s_targets_is_the_target(run_graph) -> None:
    """"does valsartan block it too?" after "what does it block?" (losartan, in a thread about hypertension) was
    "Does valsartan block Hypertensive disorder too?"."""
    *_, out = in_thread(run_graph, "block-it", "How does losartan treat hypertension?", "what does it block?",
                        "does valsartan block it too?")
    assert out["understood_as"] == "Does valsartan block Type-1 angiotensin II receptor too?", out["answer"]
    assert out["status"] is Status.ANSWERED and out["answer"].split('" ', 1)[1].startswith("Yes: "), out["answer"]


def test_too_after_a_name_is_not_read_as_part_of_it(run_graph) -> None:
    """"Hypertensive disorder too" was linked by its closest name, and the answer opened by saying so."""
    _, out = in_thread(run_graph, "treat-too", "How does losartan treat hypertension?", "does valsartan treat it too?")
    assert out["understood_as"] == "Does valsartan treat Hypertensive disorder too?", out["answer"]
    assert "closest name" not in out["answer"], out["answer"]


def test_how_does_it_help_asks_the_drug_s_mechanism_for_the_thread_s_disease(run_graph) -> None:
    """"How does it help?" after ibuprofen for arthritis was "How does Ibuprofen help?", answered with what ibuprofen
    is connected to."""
    listed, out = in_thread(run_graph, "help-first", "What drugs treat gout?", "how does the first one help?")
    top = listed["ranked_answers"][0]["name"]
    assert out["understood_as"] == f"How does {top} treat Gout?" and out["status"] is Status.ANSWERED, out["answer"]


@pytest.mark.parametrize(("first", "question"), [
    ("How does metformin treat type 2 diabetes?", "How does aspirin work?"),
    ("How does salbutamol relieve asthma?", "How does Tylenol work?"),
])
def test_how_a_newly_named_drug_works_is_asked_about_that_drug(run_graph, first: str, question: str) -> None:
    """"How does aspirin work?" after metformin for type 2 diabetes was read as "How does Aspirin treat Diabetes
    mellitus type 2?" and answered with an 8-step walk, as if aspirin treated it; now it is asked on its own."""
    before, out = in_thread(run_graph, f"works-{question}", first, question)
    alone, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["understood_as"] == "" and out["answer"] == alone["answer"], out["answer"]
    assert before["targets"][0] not in out["targets"] + out["sources"]


def test_other_drugs_leave_out_every_drug_the_thread_named(run_graph) -> None:
    """"which other drugs hit it?" after sumatriptan's target and then what that receptor does said "Leaving out those
    already named in this conversation" and listed sumatriptan: only the latest turn's entities were left out."""
    first, _, out = in_thread(run_graph, "other-named", "What is the target of sumatriptan?", "what does that receptor do?",
                              "which other drugs hit it?")
    assert out["status"] is Status.ANSWERED and out["ranked_answers"], out["answer"]
    assert first["sources"][0] in out["excluded"], out["excluded"]
    assert first["sources"][0] not in [d["id"] for d in out["ranked_answers"]], out["answer"]
