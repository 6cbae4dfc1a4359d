""""Does imatinib treat hypertension?" was answered "Yes: imatinib acts on Hypertensive disorder through a 6-step
mechanism", through abnormal cell proliferation in the kidney: the walk finds a lowering chain from most drugs into
most diseases. The yes now needs the disease to be one of the drug's uses (``agents.known_use``); otherwise the answer
says it is not, and gives the chain as the nearest evidence (since stop 100)."""

from __future__ import annotations

import pytest

from agents.state import Status
from tests.conftest import in_thread
from tools.path_ranker import effect


@pytest.mark.parametrize(("question", "drug", "disease"), [
    ("does imatinib treat hypertension?", "imatinib", "Hypertensive disorder"),
    ("Does haloprogin treat hypertension?", "Haloprogin", "Hypertensive disorder"),
])
def test_a_chain_into_a_disease_that_is_none_of_the_drug_s_uses_is_no_yes(run_graph, question: str, drug: str,
                                                                          disease: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["known_use"] is False, out["answer"]
    assert out["answer"].startswith(f"Not among {drug}'s uses as medpath finds them: neither the diseases it lists for "
                                    f"{drug} (ask \"What does {drug} treat?\") nor those of the curated drugs that act on "
                                    f"its targets as it does include {disease}, and the drugs it lists for {disease} (ask "
                                    f"\"What drugs treat {disease}?\") do not include {drug}. The chain the knowledge graph "
                                    f"holds: {drug} acts on {disease} through "), out["answer"]
    listed, _ = run_graph({"question": f"list all diseases that {drug} treats"}, interactive=False, memory=False)
    assert disease not in [a["name"] for a in listed["ranked_answers"]], listed["answer"]


@pytest.mark.parametrize("question", ["does allopurinol treat gout?", "Does imatinib treat chronic myeloid leukemia?",
                                      "does montelukast help with allergies?",  # a finding of a disease it treats
                                      "does prednisone treat asthma?"])  # through what it becomes (since stop 101)
def test_a_chain_into_one_of_the_drug_s_uses_is_a_yes(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["known_use"] is True and out["answer"].startswith("Yes: "), out["answer"]


def test_a_follow_up_yes_no_question_is_read_the_same_way(run_graph) -> None:
    """"does it help with hypertension?" after how imatinib works is understood as "How does imatinib treat
    hypertension?", and its yes is read as the question's."""
    _first, out = in_thread(run_graph, "known-use-follow", "how does imatinib work?", "does it help with hypertension?")
    assert out["known_use"] is False and out["answer"].startswith("Understood as"), out["answer"]
    assert "Not among imatinib's uses as medpath finds them" in out["answer"], out["answer"]


def test_questions_that_ask_no_yes_or_no_are_not_read(run_graph) -> None:
    out, _ = run_graph({"question": "How does imatinib treat hypertension?"}, interactive=False, memory=False)
    assert out["known_use"] is None and not out["answer"].startswith(("Yes", "Not among")), out["answer"]


def test_a_use_the_drug_s_own_list_misses_is_read_from_the_disease_s_list(run_graph) -> None:
    """"Does theophylline treat COPD?" was hedged: theophylline's own list of diseases opens with the common cold, and
    misses COPD; COPD's own list of drugs holds theophylline (since stop 101)."""
    out, _ = run_graph({"question": "does theophylline treat COPD?"}, interactive=False, memory=False)
    assert out["known_use"] is True and out["answer"].startswith("Yes: "), out["answer"]
    diseases, _ = run_graph({"question": "list all diseases that theophylline treats"}, interactive=False, memory=False)
    assert "Chronic obstructive lung disease" not in [a["name"] for a in diseases["ranked_answers"]], diseases["answer"]
    drugs, _ = run_graph({"question": "list all drugs for COPD"}, interactive=False, memory=False)
    assert "theophylline" in [a["name"].lower() for a in drugs["ranked_answers"]], drugs["answer"]


@pytest.mark.parametrize(("question", "drug"), [("does moxifloxacin treat iron deficiency anemia?", "moxifloxacin"),
                                                ("Does carbinoxamine treat impotence?", "carbinoxamine")])
def test_a_chain_without_a_lowering_sign_into_none_of_the_uses_says_so(run_graph, question: str, drug: str) -> None:
    """A chain whose signs say it raises the disease, or say nothing, opened with no yes or no: the chain read as the
    answer (since stop 101)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert effect([t["relation"] for t in out["evidence"]]) >= 0, out["answer"]
    assert out["known_use"] is False and out["answer"].startswith(f"Not among {drug}'s uses"), out["answer"]


def test_a_use_whose_chain_raises_the_disease_is_said_to_be_one(run_graph) -> None:
    """"Does metformin treat type 1 diabetes?" opened with nothing, a yes/no question answered with neither: the disease
    is among its uses as medpath finds them, and the walk's chain raises it by its signs (since stop 102)."""
    out, _ = run_graph({"question": "does metformin treat type 1 diabetes?"}, interactive=False, memory=False)
    assert out["known_use"] is True and out["evidence"] and effect([t["relation"] for t in out["evidence"]]) > 0, out["answer"]
    assert out["answer"].startswith("Among Metformin's uses as medpath finds them, though the chain found does not lower "
                                    "Diabetes mellitus type 1 by the signs of its relations: Metformin acts on "), out["answer"]
