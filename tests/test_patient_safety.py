""""Is ibuprofen safe for PAT_003?" read the patient as a condition the graph does not distinguish; "Can PAT_003 take
ibuprofen?" told ibuprofen's targets with no word on safety or the record; "is it safe for her to take ibuprofen too?"
after her medications asked which of her conditions "it" was. A drug asked about for a patient is now the graph on the
drug, the note that it holds no safety, and what the patient's record lists beside it."""

from __future__ import annotations

from typing import Any

import pytest

from agents.state import Status
from memory.factory import open_patients
from tests.conftest import in_thread

NOTE = "The knowledge graph holds curated drug mechanisms, not safety. What it holds: "


def _record(run_graph: Any, pid: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The patient's conditions and (name, id) medications, as a record question shows them."""
    out, snap = run_graph({"question": f"Show me {pid}'s record"}, thread=f"record-{pid}", interactive=False, memory=False)
    facts = (snap.values.get("hybrid") or {}).get("patient_facts", [])
    assert out["status"] is Status.ANSWERED and facts, out["answer"]
    return ([f["name"] for f in facts if f["kind"] == "condition"],
            [(f["name"], f["object_id"]) for f in facts if f["kind"] == "medication"])


@pytest.mark.parametrize("question", ["Is ibuprofen safe for PAT_003?", "Can PAT_003 take ibuprofen?",
                                      "Is it safe for PAT_003 to take ibuprofen?"])
def test_a_drug_for_a_patient_is_told_with_the_record(run_graph, question: str) -> None:
    conditions, meds = _record(run_graph, "PAT_003")
    out, _ = run_graph({"question": question}, thread=question, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["patient_id"] == "PAT_003", out["answer"]
    assert out["answer"].startswith(NOTE + "Ibuprofen is connected to: "), out["answer"]
    assert "does not distinguish" not in out["answer"] and "record lists no" not in out["answer"], out["answer"]
    assert f"PAT_003's record lists conditions: {', '.join(conditions[:-1])} and {conditions[-1]}; medications: " \
        in out["answer"], out["answer"]
    assert all(name in out["answer"] for name, _ in meds), out["answer"]


def test_a_medication_acting_on_what_the_drug_acts_on_is_named(run_graph, resources) -> None:
    """The drug asked about is one that shares a direct target with one of the patient's medications (found in the
    graph here, so the test follows the data); the answer names the medication and the shared target."""
    kg = resources.kg
    _conditions, meds = _record(run_graph, "PAT_003")
    med, med_id = next((n, i) for n, i in meds if list(kg.out_edges(i)))
    target = next(e.tail for e in kg.out_edges(med_id))
    other = next(e.head for e in kg.in_edges(target)
                 if e.head not in {i for _, i in meds} and kg.node(e.head).type == "Drug" and kg.name(e.head).isalpha())
    out, _ = run_graph({"question": f"Is it safe for PAT_003 to take {kg.name(other)}?"}, thread="shared", interactive=False,
                       memory=False)
    assert f"{med} also acts on " in out["answer"] and kg.name(target) in out["answer"], out["answer"]


def test_her_in_a_safety_question_is_the_thread_patient(run_graph) -> None:
    _meds, out = in_thread(run_graph, "safe-for-her", "What is PAT_003 taking?", "is it safe for her to take ibuprofen too?")
    assert out["status"] is Status.ANSWERED and out["patient_id"] == "PAT_003", out["answer"]
    assert out["understood_as"] == "Is it safe for PAT_003 to take ibuprofen too?", out["understood_as"]
    assert NOTE in out["answer"] and "PAT_003's record lists conditions: " in out["answer"], out["answer"]


@pytest.mark.parametrize("ask", ["are these safe for her?", "is any of them risky with her conditions?", "are they safe?"])
def test_whether_the_listed_medications_are_safe_is_asked_of_the_record(run_graph, ask: str) -> None:
    """They were NOT_FOUND ("are these safe in her?", "they" could be any of her conditions) or compared the
    medications as drug interactions."""
    _meds, out = in_thread(run_graph, f"meds-{ask}", "What is PAT_003 taking?", ask)
    assert out["understood_as"] == "Are PAT_003's medications safe?" and out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith(f'Understood as: "Are PAT_003\'s medications safe?" {NOTE}PAT_003: medications: '), \
        out["answer"]


def test_a_patients_drugs_together_are_said_to_be_interactions(run_graph) -> None:
    out, _ = run_graph({"question": "Are PAT_003's drugs safe together?"}, thread="together", interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not drug interactions. What it "
                                    "holds: PAT_003: medications: "), out["answer"]


@pytest.mark.parametrize("ask", ["is any of them a problem together?", "are there any issues taking them together?"])
def test_whether_listed_medications_are_a_problem_together_is_about_interactions(run_graph, ask: str) -> None:
    """"Is any of them a problem together?" was "Which of the listed drugs is a problem together?", `NOT_FOUND`
    (since stop 101)."""
    _meds, out = in_thread(run_graph, f"problem-{ask}", "what medications is PAT_002 on?", ask)
    assert out["status"] is Status.ANSWERED and "The knowledge graph holds curated drug mechanisms, not drug " \
        "interactions." in out["answer"], out["answer"]


def test_a_drug_named_for_a_population_is_still_a_qualifier(run_graph) -> None:
    """Whom a drug is for is a patient or a person; a population stays what the graph does not distinguish."""
    out, _ = run_graph({"question": "Is ibuprofen safe for children?"}, thread="children", interactive=False, memory=False)
    assert "DrugMechDB does not distinguish children" in out["answer"] and out["patient_id"] is None, out["answer"]


def test_what_consent_withholds_is_said_beside_the_drug(run_graph, settings) -> None:
    """A patient whose consent withholds the medications: the record part lists what it may show and says that
    more is withheld (it would have read as a record with no medications)."""
    store = open_patients(settings)
    pid = next(p.id for p in store.patients.values() if not p.allows("medications") and p.allows("conditions"))
    out, _ = run_graph({"question": f"Is ibuprofen safe for {pid}?"}, thread="withheld", interactive=False, memory=False)
    assert f"{pid}'s record lists conditions: " in out["answer"] and "medications: " not in out["answer"], out["answer"]
    assert "recorded facts are withheld by the patient's consent, so the record may hold more." in out["answer"], out["answer"]


def test_a_record_s_medications_with_its_conditions_are_told_by_the_graph_s_chains(run_graph) -> None:
    """"are her meds safe with her conditions?" read "conditions" as a condition the graph does not distinguish, under
    the note on drug interactions, and told the record alone. It gets the safety note, the record, and each medication
    whose shortest chain to a condition it is not taken for raises that condition (``record_pairs``)."""
    _, out = in_thread(run_graph, "record-pairs-2", "What is PAT_002 taking?", "are her medications safe with her conditions?")
    assert out["status"] is Status.ANSWERED and out["understood_as"] == "Are PAT_002's medications safe with her conditions?"
    assert out["answer"].startswith('Understood as: "Are PAT_002\'s medications safe with her conditions?" ' + NOTE + "PAT_002: "), \
        out["answer"]
    assert "does not distinguish" not in out["answer"], out["answer"]
    assert out["answer"].endswith(" No chain of at most 3 steps in the knowledge graph, through no node with over 150 edges, has "
                                  "one of the medications raise a condition it is not taken for."), out["answer"]
    [out] = in_thread(run_graph, "record-pairs-26", "are PAT_026's meds ok with their conditions?")
    assert out["answer"].startswith(NOTE + "PAT_026: medications: "), out["answer"]
    said = "Along a chain of 3 steps from Acetylcarnitine to Chronic myeloid leukemia, Acetylcarnitine raises it: "
    assert said in out["answer"] and "from imatinib to Chronic myeloid leukemia" not in out["answer"], out["answer"]
    _, out = in_thread(run_graph, "record-pairs-29", "What is PAT_029 taking?", "are these safe for him?")
    assert out["understood_as"] == "Are PAT_029's medications safe?", out["answer"]
    assert "from Brivaracetam to Depressive disorder, Brivaracetam raises it: Brivaracetam negatively regulates" in out["answer"], \
        out["answer"]


def test_a_record_question_without_its_conditions_gets_no_chains(run_graph) -> None:
    [out] = in_thread(run_graph, "record-pairs-none", "what is PAT_026 taking?")
    assert "Along a chain" not in out["answer"] and "No chain of at most" not in out["answer"], out["answer"]


def test_a_drug_for_a_patient_is_told_with_its_chains_to_her_conditions(run_graph) -> None:
    """"Can PAT_010 take propranolol?" told the record beside propranolol, not that the graph's chain from propranolol
    to her asthma raises it; "can she also take ibuprofen?" after a record was answered for ibuprofen alone, under the
    note on interactions (since stop 105). A chain through a hub ("inflammatory response") is not told."""
    [out] = in_thread(run_graph, "pairs-propranolol", "Can PAT_010 take propranolol?")
    assert out["answer"].startswith(NOTE + "Propranolol "), out["answer"]
    assert ("Along a chain of 3 steps from Propranolol to Asthma, Propranolol raises it: Propranolol decreases activity of "
            "Beta-2 adrenergic receptor;") in out["answer"], out["answer"]
    [gout] = in_thread(run_graph, "pairs-propranolol-gout", "Can PAT_008 take propranolol?")
    assert "PAT_008's record lists" in gout["answer"] and "inflammatory response" not in gout["answer"], gout["answer"]
    _, also = in_thread(run_graph, "pairs-also", "What is PAT_002 taking?", "can she also take ibuprofen?")
    assert also["understood_as"] == "Can PAT_002 take ibuprofen?" and also["patient_id"] == "PAT_002", also["answer"]
    assert also["answer"].startswith('Understood as: "Can PAT_002 take ibuprofen?" ' + NOTE), also["answer"]
    assert "PAT_002's record lists conditions: " in also["answer"], also["answer"]
