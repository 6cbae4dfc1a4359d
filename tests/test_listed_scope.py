"""What about another disease or target after a question about the listed drugs stays with those drugs."""

from __future__ import annotations

import pytest

from agents.state import LISTED_DRUGS, Status


def _thread(run_graph, thread: str, *questions: str) -> list[dict]:
    return [run_graph({"question": q}, thread=thread, interactive=False)[0] for q in questions]


def test_what_about_another_disease_asks_which_of_the_listed_drugs_treat_it(run_graph) -> None:
    """"What about angina?" after "which of them treat heart failure?" was read as "Which listed drugs treat angina?"
    and listed every drug for angina (felodipine, nicorandil), not the hypertension drugs listed first."""
    listed, kept, out = _thread(run_graph, "angina", "What drugs treat hypertension?", "Which of them treat heart failure?",
                                "What about angina?")
    first = {a["id"] for a in listed["ranked_answers"]}
    assert kept["drug_class"] == LISTED_DRUGS and set(kept["among"]) == first, kept["understood_as"]
    assert out["understood_as"] == "Which of the listed drugs treat angina?", out["understood_as"]
    assert out["drug_class"] == LISTED_DRUGS and set(out["among"]) == first, out["among"]
    assert out["status"] is Status.ANSWERED and {a["id"] for a in out["ranked_answers"]} <= first, out["answer"]


def test_what_about_another_target_asks_it_of_the_listed_drugs(run_graph) -> None:
    """"What about beta receptors?" after "which of those block calcium channels?" listed every drug that inhibits a
    beta receptor; "and ACE?" told what ACE is connected to."""
    listed, _, beta = _thread(run_graph, "beta", "What drugs treat hypertension?", "Which of those block calcium channels?",
                              "What about beta receptors?")
    first = {a["id"] for a in listed["ranked_answers"]}
    assert beta["understood_as"] == "Which of the listed drugs block beta receptors?", beta["understood_as"]
    assert set(beta["among"]) == first and {a["id"] for a in beta["ranked_answers"]} <= first, beta["answer"]
    ace = run_graph({"question": "And ACE?"}, thread="beta", interactive=False)[0]
    assert ace["understood_as"] == "Which of the listed drugs block ACE?" and set(ace["among"]) == first, ace["answer"]
    assert "listed drugs" in ace["answer"] and {a["id"] for a in ace["ranked_answers"]} <= first, ace["answer"]


def test_a_drug_named_there_is_no_listed_scope(run_graph) -> None:
    _, _, out = _thread(run_graph, "drug", "What drugs treat hypertension?", "Which of them treat heart failure?",
                        "what about nicardipine?")
    assert "listed drugs" not in out["understood_as"], out["understood_as"]


def test_what_about_a_drug_after_which_drugs_act_on_a_target_asks_whether_it_does(run_graph) -> None:
    """"What about allopurinol?" after "which of them inhibit xanthine oxidase?" was asked as which drugs inhibit it,
    the drug dropped."""
    *_, out = _thread(run_graph, "drug-target", "What drugs treat gout?", "which of them inhibit xanthine oxidase?",
                      "what about colchicine?")
    assert out["understood_as"] == "Does colchicine inhibit Xanthine dehydrogenase/oxidase?", out["understood_as"]
    _, again = _thread(run_graph, "abl", "Which drugs inhibit ABL1?", "what about imatinib?")
    assert again["understood_as"] == "Does imatinib inhibit Tyrosine-protein kinase ABL1?", again["understood_as"]
    assert again["status"] is Status.ANSWERED, again["answer"]


def test_which_ones_asks_of_the_listed_drugs(run_graph) -> None:
    """"Which ones treat heart failure?" after "What drugs treat hypertension?" listed every drug for heart failure
    (Bepridil, cilostazol, …): "which ones" is "which of them"."""
    listed, ones = _thread(run_graph, "ones", "What drugs treat hypertension?", "which ones treat heart failure?")
    first = {a["id"] for a in listed["ranked_answers"]}
    assert ones["understood_as"] == "Which of the listed drugs treat heart failure?", ones["understood_as"]
    assert ones["drug_class"] == LISTED_DRUGS and set(ones["among"]) == first, ones["among"]
    assert {a["id"] for a in ones["ranked_answers"]} <= first, ones["answer"]



@pytest.mark.parametrize(("first", "then", "status"), [
    ("which drugs target the dopamine D2 receptor?", "are any of them used for nausea?", Status.ANSWERED),
    ("what drugs treat gout?", "are any of them used for hypertension?", Status.NOT_FOUND),
])
def test_whether_any_listed_drug_is_used_for_a_disease_keeps_to_the_list(run_graph, first: str, then: str,
                                                                        status: Status) -> None:
    """"are any of them used for nausea?" after the drugs that act on the D2 receptor listed the drugs for nausea
    (thiethylperazine, dronedarone, …), not those of the list that have a mechanism for it."""
    listed, out = _thread(run_graph, f"any-used-{then}", first, then)
    assert out["status"] is status and out["drug_class"] == LISTED_DRUGS, out["answer"]
    shown = {a["id"] for a in listed["ranked_answers"]}
    assert set(out["among"]) == shown and {a["id"] for a in out["ranked_answers"]} <= shown, out["ranked_answers"]


@pytest.mark.parametrize(("first", "question", "answer"), [
    ("Compare lisinopril and losartan", "which one blocks the angiotensin receptor?", {"Losartan"}),
    ("What drugs treat gout?", "which one is a xanthine oxidase inhibitor?", {"allopurinol", "Febuxostat"})])
def test_which_one_asks_of_the_listed_or_compared_drugs(run_graph, first: str, question: str, answer: set[str]) -> None:
    """"which one …?" was read as a question of its own: after a comparison, every drug that blocks the receptor
    (valsartan, candesartan, …); after a list, NOT_FOUND ("no known entity in the question")."""
    _, out = _thread(run_graph, f"one-{question}", first, question)
    assert out["drug_class"] == LISTED_DRUGS and out["understood_as"].startswith("Which of the listed drugs "), out["answer"]
    assert out["status"] is Status.ANSWERED and {a["name"] for a in out["ranked_answers"]} == answer, out["answer"]


def test_a_second_question_about_the_compared_drugs_is_still_about_both(run_graph) -> None:
    """After comparing lisinopril and losartan and asking which of them acts on the kidney (neither), "which of them
    acts on the angiotensin receptor?" was "Which of lisinopril acts on …?", answered with every drug that does."""
    *_, out = _thread(run_graph, "twice", "Compare lisinopril and losartan", "which of them acts on the kidney?",
                      "which of them acts on the angiotensin receptor?")
    assert out["understood_as"] == "Which of the listed drugs act on the angiotensin receptor?", out["understood_as"]
    assert out["status"] is Status.ANSWERED and [a["name"] for a in out["ranked_answers"]] == ["Losartan"], out["answer"]


def test_a_kind_of_target_named_by_another_word_holds_its_members(run_graph, resources) -> None:
    """"serotonin receptors" held the 5HT3 serotonin receptor alone, not the 5-hydroxytryptamine receptors, so "which of
    them act on serotonin receptors?" after the drugs for migraine was NOT_FOUND, though the triptans act on them."""
    family = {c.name for c in resources.linker.family("serotonin receptors", [])}
    assert {"5-hydroxytryptamine receptor 1B", "5-hydroxytryptamine receptor 1D", "5HT3 serotonin receptor"} <= family
    listed, out = _thread(run_graph, "serotonin", "What drugs treat migraine?", "which of them act on serotonin receptors?")
    names = {a["name"] for a in out["ranked_answers"]}
    assert out["status"] is Status.ANSWERED and names and names <= {a["name"] for a in listed["ranked_answers"]}, out["answer"]
    assert any(n.endswith("triptan") for n in names), out["answer"]
