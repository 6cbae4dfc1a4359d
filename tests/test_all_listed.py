""""Which of them treat hypertension?" after PAT_003's medications said Haloprogin, Amineptine and Pirlindole had "a
verified mechanism" for it, by chains through calcium ion import and serotonin; "do they all treat type 2 diabetes?"
after the drugs that inhibit DPP-4 gave the list with no yes or no. Each listed drug's answer now says whether the
disease is one of its uses (``agents.known_use``), and the answer leads with it (``agents.all_listed``; since stop
100)."""

from __future__ import annotations

from agents.state import Status
from tests.conftest import in_thread


def test_a_patient_s_medications_reaching_a_disease_by_chains_alone_are_said_to(run_graph) -> None:
    _first, out = in_thread(run_graph, "listed-uses-pat3", "what is PAT_003 taking?", "which of them treat hypertension?")
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert all(a["known_use"] is False for a in out["ranked_answers"]), out["ranked_answers"]
    assert out["answer"].startswith('Understood as: "Which of the listed drugs treat hypertension?" None of the listed drugs '
                                    "has Hypertensive disorder among its uses as medpath finds them; the chains below reach "
                                    "it from Haloprogin"), out["answer"]


def test_whether_all_the_listed_drugs_treat_a_disease_opens_with_the_count(run_graph) -> None:
    *_, out = in_thread(run_graph, "listed-uses-dpp4", "what is the target of sitagliptin?", "what other drugs work that way?",
                        "do they all treat type 2 diabetes?")
    assert out["status"] is Status.ANSWERED and len(out["ranked_answers"]) == 5, out["answer"]
    assert all(a["known_use"] for a in out["ranked_answers"]), out["ranked_answers"]
    assert out["answer"].startswith('Understood as: "Which of the listed drugs treat type 2 diabetes?" Yes, all 5: '), out["answer"]


def test_a_list_whose_drugs_are_not_all_uses_says_which(run_graph) -> None:
    *_, out = in_thread(run_graph, "listed-uses-copd", "what drugs treat asthma?", "do they all treat copd?")
    uses = [a["name"] for a in out["ranked_answers"] if a["known_use"]]
    others = [a["name"] for a in out["ranked_answers"] if not a["known_use"]]
    assert others and out["answer"].split('?" ', 1)[1].startswith(f"Not all: {len(uses)} of the 5 "), out["answer"]
    assert all(name in out["answer"].split(". ")[0] for name in others), out["answer"]
