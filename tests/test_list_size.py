"""How many answers a list gives: a number asked for, "all", and "list them all" after a list (``agents.list_size``)."""

from __future__ import annotations

import pytest

from agents.list_size import ALL_ANSWERS, MOST_ANSWERS, answers_wanted
from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize(("question", "wanted"), [
    ("name three drugs for asthma", 3),
    ("what are the top 10 drugs for hypertension?", 10),
    ("List all drugs that inhibit COX-2", ALL_ANSWERS),
    ("give me the top 50 drugs for gout", MOST_ANSWERS),
    ("What drugs treat gout?", 0),
    ("Is imatinib one of the top drugs for CML?", 0),
])
def test_the_number_of_answers_asked_for(question: str, wanted: int) -> None:
    assert answers_wanted(question, []) == wanted


def test_a_request_for_the_whole_list_asks_for_all() -> None:
    assert answers_wanted("What drugs treat gout?", [{"how": "all", "question": "What drugs treat gout?"}]) == ALL_ANSWERS


def _names(out: dict) -> list[str]:
    return [a["name"] for a in out["ranked_answers"]]


def test_a_number_asked_for_is_the_number_listed(run_graph) -> None:
    """"what are the top 10 drugs for hypertension?" counted the patients' medications (a pattern for "the top drugs"
    with nothing after it matched the start of any question), and a list was five answers whatever was asked."""
    ten, _ = run_graph({"question": "what are the top 10 drugs for hypertension?"}, interactive=False, memory=False)
    assert ten["intent"] == "treats" and len(ten["ranked_answers"]) == 10, ten["answer"]
    assert "Ranked: 1. " in ten["answer"] and "10. " in ten["answer"]
    three, _ = run_graph({"question": "name three drugs for asthma"}, interactive=False, memory=False)
    assert len(three["ranked_answers"]) == 3, three["answer"]


def test_list_them_all_after_a_list_then_more(run_graph) -> None:
    """"list them all" after "What drugs treat gout?" was "List Gout all?", answered with what Gout is connected to;
    "more" after it leaves out every drug it listed."""
    five, whole, more = in_thread(run_graph, "all", "What drugs treat gout?", "list them all", "more")
    assert whole["status"] is Status.ANSWERED and whole["intent"] == "treats", whole["answer"]
    assert len(_names(five)) == 5 and _names(whole)[:5] == _names(five), whole["answer"]
    assert len(_names(whole)) == ALL_ANSWERS, whole["answer"]  # the graph holds more than 20 drugs for gout
    assert f'These are the first {ALL_ANSWERS}; ask "more" for the next.' in whole["answer"]
    assert _names(more) and not set(_names(more)) & set(_names(whole)), more["answer"]


@pytest.mark.parametrize("ask", ["show me all of them", "give me the full list"])
def test_the_whole_list_asked_other_ways(run_graph, ask: str) -> None:
    first, whole = in_thread(run_graph, ask, "Which drugs inhibit ACE?", ask)
    assert whole["intent"] == first["intent"] and len(_names(whole)) > 5, whole["answer"]
    assert whole["understood_as"] == "Which drugs inhibit ACE?"


def test_are_there_more_continues_a_list(run_graph) -> None:
    """"are there more?" after a list was `NOT_FOUND`, "no known entity in the question"."""
    first, more = in_thread(run_graph, "more?", "What drugs treat hypertension?", "are there more?")
    assert more["status"] is Status.ANSWERED and _names(more), more["answer"]
    assert not set(_names(more)) & set(_names(first)) and "Leaving out those already named" in more["answer"]


def test_examples_after_a_list_of_drugs_is_the_list_again(run_graph) -> None:
    """"give me examples" after "what drugs treat gout?" was NOT_FOUND, '"give me examples" is not in the knowledge graph'."""
    first, again = in_thread(run_graph, "examples", "what drugs treat gout?", "give me examples")
    assert again["status"] is Status.ANSWERED and again["understood_as"] == "What drugs treat gout?", again["answer"]
    assert _names(again) == _names(first), again["answer"]
    _cls, ssri = in_thread(run_graph, "examples-class", "what is an SSRI?", "any examples?")
    assert ssri["understood_as"] == "Which drugs are SSRIs?", ssri["answer"]


@pytest.mark.parametrize(("question", "wanted"), [("list 10 diseases imatinib treats", 10),
                                                  ("what are the top 8 diseases that imatinib treats?", 8),
                                                  ("name all the conditions metformin is used for", ALL_ANSWERS)])
def test_a_number_of_diseases_a_drug_treats_is_its_indications(run_graph, question: str, wanted: int) -> None:
    """They were told what the drug is connected to, its targets first: no rule read "diseases imatinib treats" with
    the count dropped (since stop 100)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["intent"] == "indications", out["answer"]
    assert out["answer"].split(":")[0].endswith("has a verified mechanism for"), out["answer"]
    if wanted == ALL_ANSWERS:  # metformin reaches fewer than 20 diseases: all of them, more than the usual five
        assert 5 < len(out["ranked_answers"]) <= ALL_ANSWERS, out["answer"]
    else:
        assert len(out["ranked_answers"]) == wanted, out["answer"]
