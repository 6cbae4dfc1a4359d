"""Follow-ups that ask whether the thread's drug is better than another ("is dasatinib better?", "which is better, it
or rizatriptan?", "is it better?") set the two drugs side by side, for the thread's disease when the turn before was
about one; with nothing to set it against, the answer says so."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread

COMPARES = "The knowledge graph holds curated drug mechanisms, not comparisons of how well drugs work. What it holds: "


@pytest.mark.parametrize(("first", "question", "drugs", "disease"), [
    ("How does imatinib treat CML?", "is dasatinib better?", ["imatinib", "Dasatinib"], "Chronic myeloid leukemia"),
    ("How does imatinib treat CML?", "would nilotinib be better?", ["imatinib", "nilotinib"], "Chronic myeloid leukemia"),
    ("How does atorvastatin lower cholesterol?", "is rosuvastatin better?", ["atorvastatin", "Rosuvastatin"],
     "Hypercholesterolemia"),
    ("How does sumatriptan treat migraine?", "which is better, it or rizatriptan?", ["sumatriptan", "Rizatriptan"], "Migraine"),
])
def test_a_drug_set_against_the_thread_s_drug_is_compared_with_it(run_graph, resources, first: str, question: str,
                                                                  drugs: list[str], disease: str) -> None:
    """Each was answered with what the new drug is connected to, the thread's drug left out ("it" in "it or
    rizatriptan" was not read: the question names a drug)."""
    _, out = in_thread(run_graph, f"better-{question}", first, question)
    kg = resources.kg
    assert out["status"] is Status.ANSWERED and out["compared"] and out["intent"] == "treats", out["answer"]
    assert [kg.name(x) for x in out["among"]] == drugs and [kg.name(y) for y in out["targets"]] == [disease]
    assert f" {COMPARES}" in out["answer"] and out["understood_as"].rstrip("?").endswith(f" for {disease}"), out["answer"]


def test_is_it_better_sets_the_thread_s_two_drugs_side_by_side_or_says_there_is_one(run_graph, resources) -> None:
    """"is it better?" after imatinib and then dasatinib was "Is Dasatinib better?", answered with what dasatinib is
    connected to; after imatinib alone it was answered with what imatinib is connected to."""
    *_, two = in_thread(run_graph, "better-two", "How does imatinib treat CML?", "and dasatinib?", "is it better?")
    assert two["understood_as"] == "Compare imatinib and Dasatinib for Chronic myeloid leukemia", two["answer"]
    assert two["compared"] and len(two["among"]) == 2
    _, one = in_thread(run_graph, "better-one", "How does imatinib treat CML?", "is it better?")
    assert one["status"] is Status.NOT_FOUND and not one["compared"], one["answer"]
    assert ('"better" sets imatinib against another drug, and this conversation has named no other; name it ("Is '
            'imatinib better than …?")') in one["answer"]


def test_them_compared_for_a_disease_named_in_the_follow_up(run_graph, resources) -> None:
    """"compare them for gout" after "compare allopurinol and colchicine" compared what the two target, gout dropped."""
    first, out = in_thread(run_graph, "them-for", "compare allopurinol and colchicine", "compare them for gout")
    assert out["understood_as"] == "Compare allopurinol and colchicine for gout", out["answer"]
    assert out["among"] == first["among"] and [resources.kg.name(y) for y in out["targets"]] == ["Gout"]


@pytest.mark.parametrize(("question", "note"), [
    ("which is safer, ibuprofen or acetaminophen?", "The knowledge graph holds curated drug mechanisms, not safety. "),
    ("which one lasts longer, ibuprofen or naproxen?", "The knowledge graph holds curated drug mechanisms, not pharmacokinetics. "),
])
def test_a_choice_between_two_named_drugs_on_any_quality_compares_them(run_graph, question: str, note: str) -> None:
    """Both were NOT_FOUND: "the knowledge graph has no chain of relations from Ibuprofen to …"."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["compared"] and len(out["among"]) == 2, out["answer"]
    assert out["answer"].startswith(note + "What it holds: Ibuprofen and "), out["answer"]


def test_ranking_the_thread_s_drugs_when_it_has_named_one_says_so(run_graph) -> None:
    """"which of those is best?" after one medication was NOT_FOUND with "no known entity in the question"."""
    record, meds = in_thread(run_graph, "one-med", "What is PAT_001 taking?", "which of those is best?")
    items = [i["name"] for i in record["messages"][-1]["items"]]
    assert len(items) == 1 and meds["status"] is Status.NOT_FOUND, meds["answer"]
    assert (f'"which of those is best" sets two or more drugs side by side, and this conversation has named one: '
            f'{items[0]}; name another ("Is {items[0]} better than …?")') in meds["answer"]
    _, one = in_thread(run_graph, "one-drug", "How does imatinib treat CML?", "which one is better?")
    assert one["status"] is Status.NOT_FOUND and "this conversation has named one: imatinib;" in one["answer"], one["answer"]


def test_whether_any_of_the_listed_drugs_is_better_compares_them(run_graph) -> None:
    """"Are any of them better?" after a list was asked as "Compare imatinib and any of them" ("any of them" is not in
    the knowledge graph) after turns about imatinib, or NOT_FOUND."""
    listed, out = in_thread(run_graph, "any-better", "What drugs treat gout?", "Are any of them better?")
    top = listed["ranked_answers"][0]["name"]
    assert out["understood_as"].startswith(f"Compare {top}, ") and out["compared"], out["understood_as"]
    assert f" {COMPARES}" in out["answer"], out["answer"]
    *_, after = in_thread(run_graph, "any-better-2", "How does imatinib treat CML?", "Which other drugs act on ABL1?",
                          "Are any of them better?")
    assert "any of them" not in after["understood_as"] and after["compared"], after["answer"]


@pytest.mark.parametrize(("turns", "understood"), [
    (("What drugs treat gout?", "how does allopurinol work?", "what about colchicine?", "which is better for an acute attack?"),
     "Compare allopurinol and colchicine"),
    (("What drugs treat gout?", "how does febuxostat work?", "and allopurinol?", "which is better?"),
     "Compare Febuxostat and allopurinol"),
])
def test_which_is_better_after_turns_about_two_drugs_since_a_list_compares_those_two(run_graph, turns: tuple[str, ...],
                                                                                    understood: str) -> None:
    """After the drugs for gout and then turns about two drugs, one or both of them listed, "which is better?"
    compared the five listed drugs; the two the turns since were about are what it sets side by side. Right after the
    list it is still the listed drugs."""
    out = in_thread(run_graph, f"better-since-{'-'.join(turns)}", *turns)[-1]
    assert out["understood_as"] == understood and out["compared"], out["answer"]
    assert COMPARES in out["answer"], out["answer"]
    *_, listed = in_thread(run_graph, "better-right-after", "What drugs treat gout?", "how does the first one work?", "which is better?")
    assert listed["understood_as"].startswith("Compare Febuxostat, pegloticase, allopurinol"), listed["understood_as"]


def test_whether_a_named_drug_is_the_best_option_gets_no_yes(run_graph) -> None:
    """"Is thalidomide the best option for peptic ulcer?" was answered "Yes: thalidomide acts on Peptic ulcer …"."""
    out, _ = run_graph({"question": "Is thalidomide the best option for peptic ulcer?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(COMPARES), out["answer"]
    assert "Yes" not in out["answer"]


@pytest.mark.parametrize(("first", "question", "understood"), [
    ("How does omeprazole treat peptic ulcer?", "Is that the best option?", "Is Omeprazole the best option for Peptic ulcer?"),
    ("How does omeprazole treat peptic ulcer?", "is it the best drug for it?", "Is Omeprazole the best option for Peptic ulcer?"),
    ("What is PAT_002 taking for peptic ulcer?", "Is it the best option?", "Is thalidomide the best option for Peptic ulcer?"),
])
def test_whether_the_thread_s_drug_is_the_best_option_is_asked_of_it(run_graph, first: str, question: str,
                                                                      understood: str) -> None:
    """They were NOT_FOUND ("no known entity in the question"), or asked of the disease ("Is Peptic ulcer the best
    option?") or of the drug as the disease ("Is it the best drug for Omeprazole?")."""
    _, out = in_thread(run_graph, f"best-{first}-{question}", first, question)
    assert out["understood_as"] == understood, out["answer"]
    assert out["status"] is Status.ANSWERED and f" {COMPARES}" in out["answer"], out["answer"]
