""""Is she on any of them?" after a list of drugs was read as "Is PAT_002 on any of those?" ("No: PAT_002's record
lists no of those among the conditions") or took "them" for the listed drugs' disease; it asks the record about each
listed drug now, in one sentence. A question naming several drugs kept the patient's medications out of the budgeted
context (the graph's edges for the drugs came first), so the answer said the record listed none. "Which labs are
abnormal?" after a record was NOT_FOUND. "Do they treat COPD?" after the drugs for asthma asked about the first listed
drug alone, and "do they both treat hypertension?" after two drugs about the latest."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread


def test_any_of_the_listed_drugs_is_checked_against_the_record(run_graph) -> None:
    *_, out = in_thread(run_graph, "record-list", "What is PAT_002 taking?", "what drugs treat schizophrenia?",
                        "is she on any of those?")
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"].startswith("Is PAT_002 taking "), out["answer"]
    # one sentence for the five listed drugs, with what the record does list: none of them was cut from the context
    assert out["answer"].count("No:") + out["answer"].count("Yes:") == 1, out["answer"]
    assert "Amineptine" in out["answer"], out["answer"]


@pytest.mark.parametrize("then", ["is PAT_003 taking any of them?", "which of these is PAT_003 on?",
                                  "are any of these on PAT_003's record?"])  # NOT_FOUND until stop 100
def test_a_named_patient_is_checked_against_the_list(run_graph, then: str) -> None:
    """With the patient named in the question and none in the thread, they were "Is PAT_003 taking any of Gout?" (the
    record's conditions) and "What is PAT_003 taking for of the listed?" (since stop 100)."""
    _first, out = in_thread(run_graph, f"named-list-{then}", "what drugs treat gout?", then)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"].startswith("Is PAT_003 taking Febuxostat, "), out["answer"]
    assert "No: PAT_003's record lists none of Febuxostat, " in out["answer"] and "Amineptine" in out["answer"], out["answer"]


@pytest.mark.parametrize("then", ["which labs are abnormal?", "any abnormal results?", "which of his labs are too high?",
                                  "are any abnormal?", "are any of them high?"])  # the last two were NOT_FOUND
def test_which_labs_are_abnormal_is_about_the_record(run_graph, then: str) -> None:
    _first, out = in_thread(run_graph, f"labs-{then}", "what are PAT_003's labs?", then)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == "Are PAT_003's labs normal?", out["answer"]


def test_they_after_a_list_of_drugs_are_the_listed_drugs(run_graph) -> None:
    _first, out = in_thread(run_graph, "they-list", "what drugs treat asthma?", "do they treat copd?")
    assert out["understood_as"] == "Which of the listed drugs treat copd?", out["answer"]
    assert out["answer"].count(",") >= 1, out["answer"]  # several of the listed drugs, not the first alone


def test_they_both_after_two_drugs_are_the_two(run_graph) -> None:
    *_, out = in_thread(run_graph, "both-two", "what does losartan treat?", "what about valsartan?", "do they both treat hypertension?")
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == "Do Losartan and valsartan treat hypertension?", out["answer"]
    assert out["answer"].startswith("Understood as") and "Yes, both: Losartan acts on" in out["answer"], out["answer"]


@pytest.mark.parametrize(("first", "then", "asked"), [
    ("what is PAT_001's diagnosis?", "what medications would help her?", "What drugs treat Vitamin E deficiency?"),
    ("what conditions does PAT_003 have?", "what drugs would help him?", "What drugs treat Depressive disorder?"),
    ("what is PAT_001's diagnosis?", "what would you recommend?", "What drugs treat Vitamin E deficiency?"),
])
def test_what_would_help_the_patient_asks_what_treats_her_condition(run_graph, first: str, then: str, asked: str) -> None:
    """"What medications would help her?" was "What medications would help PAT_001's?", answered with her medications;
    "what drugs would help him?" was `NOT_FOUND`, '"him" is not in the knowledge graph'; "what would you recommend?"
    was `NOT_FOUND`, "no known entity in the question" (since stop 100). A second condition is offered after."""
    _first, out = in_thread(run_graph, f"helps-{then}", first, then)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == asked, out["answer"]
    assert out["intent"] == "treats" and out["ranked_answers"], out["answer"]
    if "PAT_003" in first:
        assert out["answer"].endswith('Ask "What drugs treat Infection by Loa loa?" for PAT_003\'s Infection by Loa loa.'), out["answer"]


def test_any_of_them_on_her_record_after_what_would_help_her(run_graph) -> None:
    """"are any of them already on his record?" after the drugs for his condition was `NOT_FOUND`, "no known entity in
    the question" (since stop 100)."""
    *_, out = in_thread(run_graph, "on-his-record", "what conditions does PAT_003 have?", "what drugs would help him?",
                        "are any of them already on his record?")
    assert out["understood_as"].startswith("Is PAT_003 taking "), out["answer"]
    assert "PAT_003's record lists Pirlindole (for Depressive disorder) among the medications" in out["answer"], out["answer"]


def test_how_the_first_one_is_treated_after_a_record_is_its_first_condition(run_graph) -> None:
    """"How is the first one treated?" after PAT_002's conditions and medications was "How is thalidomide treated?",
    the first medication, answered with what thalidomide is connected to (since stop 100); "how does the second one
    work?" is still the second medication."""
    _first, out = in_thread(run_graph, "ordinal-condition", "what does PAT_002 have?", "how is the second one treated?")
    assert out["understood_as"] == "How is Schizophrenia treated?" and out["intent"] == "treats", out["answer"]
    _first, med = in_thread(run_graph, "ordinal-med", "what does PAT_002 have?", "how does the second one work?")
    assert med["understood_as"].startswith("How does Amineptine "), med["answer"]
