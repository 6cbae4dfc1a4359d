"""Drugs set side by side in ways that were misread: whether either of two drugs (or each of several) treats a disease,
and the verdict its answer opens with; a comparison of two
drugs from a list for a disease asked again for which is better, and a reference that stands for the drug it is
compared with."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize(("question", "drugs", "disease"), [
    ("does allopurinol or colchicine treat gout?", ["allopurinol", "colchicine"], "Gout"),
    ("can imatinib or dasatinib be used for chronic myeloid leukemia?", ["imatinib", "Dasatinib"], "Chronic myeloid leukemia"),
    ("does allopurinol or warfarin treat gout?", ["allopurinol", "warfarin"], "Gout"),
    ("do losartan and valsartan treat hypertension?", ["Losartan", "valsartan"], "Hypertensive disorder"),
    ("is aspirin or clopidogrel used for stroke?", ["Aspirin", "Clopidogrel"], "Cerebrovascular accident"),
    ("do allopurinol, colchicine and febuxostat treat gout?", ["allopurinol", "colchicine", "Febuxostat"], "Gout"),
    # what a drug lowers, and "both" after the names: these were answered for the first drug ("simvastatin both" was
    # not a name in the knowledge graph), the second offered as the next question
    ("do atorvastatin and simvastatin lower cholesterol?", ["atorvastatin", "Simvastatin"], "Hypercholesterolemia"),
    ("do atorvastatin and simvastatin both lower cholesterol?", ["atorvastatin", "Simvastatin"], "Hypercholesterolemia"),
    ("can lisinopril and losartan both be used for hypertension?", ["lisinopril", "Losartan"], "Hypertensive disorder"),
])
def test_whether_either_of_two_drugs_treats_a_disease_answers_for_both(run_graph, resources, question: str,
                                                                        drugs: list[str], disease: str) -> None:
    """Each was answered for the first drug, the second offered as the next question: the user did not learn whether
    the second one does."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    kg = resources.kg
    assert out["status"] is Status.ANSWERED and out["compared"] and out["intent"] == "treats", out["answer"]
    assert [kg.name(x) for x in out["among"]] == drugs and [kg.name(y) for y in out["targets"]] == [disease]
    assert "Ask it next" not in out["answer"], out["answer"]


@pytest.mark.parametrize(("question", "lead", "lowering"), [
    ("does allopurinol or colchicine treat gout?", "Yes, both: ", 2),
    ("Do imatinib and dasatinib treat CML?", "Yes, both: ", 2),
    ("do allopurinol, colchicine and febuxostat treat gout?", "Yes, all 3: ", 3),
    ("does metformin or aspirin treat gout?", "Only Aspirin, of the two: ", 1),
    ("do metformin and aspirin both lower blood sugar?", "Only Metformin, of the two: ", 1),
    ("does metformin or aspirin cure gout?", "The knowledge graph records how a drug lowers a disease, not whether it cures it: ", 1),
])
def test_whether_each_named_drug_treats_a_disease_is_answered_first(run_graph, resources, question: str, lead: str,
                                                                     lowering: int) -> None:
    """Each drug's mechanism was told with no answer to what was asked; the answer now opens with it, counted from the
    drugs that have a chain that lowers the disease (each of those has a ranked answer, the others a sentence saying
    they have none)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["compared"] and out["answer"].startswith(lead), out["answer"]
    assert len(out["ranked_answers"]) == lowering, out["ranked_answers"]
    for drug in set(out["among"]) - {a["id"] for a in out["ranked_answers"]}:
        assert f"{resources.kg.name(drug).capitalize()} has no chain in the knowledge graph that lowers" in out["answer"]


def test_a_comparison_for_one_disease_gets_no_verdict(run_graph) -> None:
    """"Which is better" is not answered "Yes, both"."""
    out, _ = run_graph({"question": "is allopurinol or colchicine better for gout?"}, interactive=False, memory=False)
    assert out["compared"] and "Yes" not in out["answer"] and "Only" not in out["answer"], out["answer"]


def test_whether_one_drug_treats_one_of_two_diseases_is_still_asked_in_turn(run_graph) -> None:
    """Only two drugs offered for one disease are compared; "gout or hyperuricemia" is two questions."""
    out, _ = run_graph({"question": "does allopurinol treat gout or hyperuricemia?"}, interactive=False, memory=False)
    assert not out["compared"] and 'You also asked: "How does allopurinol treat hyperuricemia?"' in out["answer"]


def test_which_is_better_after_comparing_two_drugs_of_a_list_keeps_the_list_s_disease(run_graph, resources) -> None:
    """"which of the two is better?" after "compare the first two" of the drugs that treat gout compared what they
    target again, gout left out."""
    listed, compared, better = in_thread(run_graph, "two-better", "What drugs treat gout?", "compare the first two",
                                         "which of the two is better?")
    first_two = listed["ranked_answers"][:2]
    assert compared["understood_as"] == f"Compare {first_two[0]['name']} and {first_two[1]['name']}", compared["answer"]
    assert better["understood_as"] == f"{compared['understood_as']} for Gout", better["answer"]
    assert better["compared"] and [resources.kg.name(y) for y in better["targets"]] == ["Gout"]


def test_a_comparison_of_other_drugs_does_not_take_the_list_s_disease(run_graph) -> None:
    """Drugs that the list did not hold are compared as they were: for nothing in particular."""
    *_, out = in_thread(run_graph, "two-other", "What drugs treat gout?", "compare aspirin and ibuprofen",
                        "which of the two is better?")
    assert out["understood_as"] == "Compare Aspirin and Ibuprofen", out["answer"]


def test_a_reference_to_the_drug_it_is_compared_with_is_refused(run_graph) -> None:
    """"how does levodopa compare to the first one?" when levodopa heads the list was "How does levodopa compare to
    levodopa?", NOT_FOUND: "no chain of relations from levodopa to levodopa"."""
    listed, out = in_thread(run_graph, "self-compare", "What drugs treat Parkinson's disease?",
                            "how does levodopa compare to the first one?")
    first = listed["ranked_answers"][0]["name"]
    assert first == "levodopa"
    assert out["status"] is Status.NOT_FOUND and not out["compared"], out["answer"]
    assert (f'"the first one" is {first} itself, so the question compares {first} with {first}; name another drug to '
            "compare it with") in out["answer"]
    _, other = in_thread(run_graph, "other-compare", "What drugs treat Parkinson's disease?",
                         "how does levodopa compare to the second one?")
    assert other["compared"] and "itself" not in other["answer"], other["answer"]


def test_what_is_the_difference_after_two_drugs_compares_them(run_graph) -> None:
    """It was NOT_FOUND: "the difference" is not in the knowledge graph."""
    *_, out = in_thread(run_graph, "difference", "What does sertraline target?", "and fluoxetine?", "what is the difference?")
    assert out["understood_as"] == "Compare sertraline and fluoxetine" and out["compared"], out["answer"]
    _, one = in_thread(run_graph, "difference-one", "How does ibuprofen treat pain?", "what's the difference?")
    assert one["status"] is Status.NOT_FOUND and not one["compared"], one["answer"]
    assert "this conversation has named one: Ibuprofen; name another (\"How does Ibuprofen differ from …?\")" in one["answer"]


def test_is_a_named_drug_the_same_compares_it_with_the_thread_s_drug(run_graph) -> None:
    """"is acetaminophen the same?" after how ibuprofen treats pain was answered with what acetaminophen is connected
    to, ibuprofen left out."""
    _, out = in_thread(run_graph, "same", "How does ibuprofen treat pain?", "is acetaminophen the same?")
    assert out["understood_as"] == "Compare Ibuprofen and Acetaminophen" and out["compared"], out["answer"]
