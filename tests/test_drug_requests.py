""""Name a drug used in gout", "Suggest a medicine for gout", "Drugs indicated in the management of gout" and
"suggest a beta blocker for hypertension" matched no rule: the free-text scan found only the disease, and the first
three were NOT_FOUND ("no candidate path was found within the walk budget"), the last "Hypertension is connected to:
Congestive heart failure, …"."""

from __future__ import annotations

import pytest

from agents.intent import class_request, parse_question
from agents.state import Intent, Status


@pytest.mark.parametrize(("question", "disease"), [
    ("Name a drug used in gout", "gout"),
    ("Suggest a medicine for gout", "gout"),
    ("Recommend a drug for hypertension", "hypertension"),
    ("Drugs indicated in the management of gout", "gout"),
    ("medications prescribed for asthma", "asthma"),
    # a question word and no verb: "what medicine for high cholesterol?" was answered with what Hypercholesterolemia
    # is connected to; "what drugs for gout?" found the disease by the free-text scan
    ("what medicine for high cholesterol?", "high cholesterol"),
    ("which medication for asthma", "asthma"),
    ("what treatment for gout?", "gout"),
])
def test_a_request_for_one_drug_or_an_indicated_one(question: str, disease: str) -> None:
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.TREATS
    assert (parsed.drug, parsed.disease) == ("", disease)


def test_a_class_request_with_an_article() -> None:
    request = class_request("suggest a beta blocker for hypertension")
    assert request is not None and (request.among, request.disease) == ("beta blocker", "hypertension")


def test_a_drug_for_gout_lists_drugs_with_a_chain_into_gout(run_graph, resources) -> None:
    out, _ = run_graph({"question": "Suggest a medicine for gout"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats"
    assert out["answer"].startswith("Drugs with a verified mechanism for Gout: ")
    assert resources.kg.name(out["evidence"][-1]["tail"]) == "Gout"


def test_a_class_member_for_hypertension_is_one_of_the_class(run_graph) -> None:
    out, _ = run_graph({"question": "suggest a beta blocker for hypertension"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED
    assert out["answer"].startswith("Beta blockers with a verified mechanism for Hypertensive disorder: ")


@pytest.mark.parametrize(("question", "intent", "drug"), [
    ("when is lamotrigine prescribed?", Intent.INDICATIONS, "lamotrigine"),
    ("When is fusidic acid prescribed", Intent.INDICATIONS, "fusidic acid"),
    ("when should metformin be used?", Intent.INDICATIONS, "metformin"),
    ("when do doctors prescribe imatinib?", Intent.INDICATIONS, "imatinib"),
    ("when would you use clopidogrel?", Intent.INDICATIONS, "clopidogrel"),
])
def test_when_a_drug_is_prescribed_asks_what_it_treats(question: str, intent: Intent, drug: str) -> None:
    """"when is lamotrigine prescribed?" was told what lamotrigine is connected to (ten of ten such wordings over
    seeded check-half drugs). "when is metformin taken?" (timing) and "when is it prescribed?" (a follow-up) are not
    these rules'."""
    parsed = parse_question(question)
    assert parsed is not None and (parsed.intent, parsed.drug) == (intent, drug), parsed
    assert parse_question("when is metformin taken?") is None and parse_question("when is it prescribed?") is None


def test_when_a_drug_is_prescribed_lists_its_indications(run_graph) -> None:
    out, _ = run_graph({"question": "when is lamotrigine prescribed?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "indications"
    assert "verified mechanism for" in out["answer"] and "Epilepsy" in out["answer"]


@pytest.mark.parametrize(("question", "disease"), [
    ("best thing for acid reflux", "acid reflux"),
    ("drugs to stop a seizure", "seizure"),
    ("pills to lower blood pressure", "high blood pressure"),
    ("tablets for gout", "gout"),
])
def test_everyday_requests_for_what_treats_a_disease(question: str, disease: str) -> None:
    """"best thing for acid reflux" and "drugs to stop a seizure" were told what the disease is connected to, and
    "pills to lower blood pressure" went to the free-text scan. "what is the best thing about metformin?" is not a
    request for remedies."""
    parsed = parse_question(question)
    assert parsed is not None and (parsed.intent, parsed.disease) == (Intent.TREATS, disease), parsed
    assert parse_question("what is the best thing about metformin?") is None


def test_the_uses_of_a_drug_besides_a_disease_leave_it_out(run_graph) -> None:
    """"what are the uses of ibuprofen other than pain?" read "ibuprofen other than pain" as the drug's name ("the
    closest name") and listed Pain with the rest; "what does ibuprofen treat other than pain?" already left it out."""
    parsed = parse_question("what are the uses of metformin besides diabetes?")
    assert parsed is not None and (parsed.intent, parsed.drug, parsed.disease) == (Intent.INDICATIONS, "metformin", "diabetes")
    out, _ = run_graph({"question": "what are the uses of ibuprofen other than pain?"}, interactive=False, memory=False)
    assert out["answer"].startswith("Leaving out Pain, as asked."), out["answer"]


@pytest.mark.parametrize(("question", "intent", "name"), [
    ("name three drugs for asthma", Intent.TREATS, "asthma"),
    ("what are the top 10 drugs for hypertension?", Intent.TREATS, "hypertension"),
    ("what are 3 drugs for asthma?", Intent.TREATS, "asthma"),
    ("list all drugs that inhibit COX-2", Intent.TARGETED_BY, "COX-2"),
    ("which are the 3 best drugs for gout?", Intent.TREATS, "gout"),
])
def test_a_count_of_answers_asked_for_is_read_as_the_list(question: str, intent: Intent, name: str) -> None:
    """They were told what the disease or the protein is connected to, or not read: the count kept every rule from
    reading them ("give me five drugs that treat epilepsy" was read). The answer is the ranked list."""
    parsed = parse_question(question)
    assert parsed is not None and (parsed.intent, parsed.disease) == (intent, name), parsed


def test_a_count_asked_for_answers_with_the_list(run_graph) -> None:
    out, _ = run_graph({"question": "name three drugs for asthma"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats", out["answer"]
    assert out["answer"].startswith("Drugs with a verified mechanism for Asthma: "), out["answer"]
