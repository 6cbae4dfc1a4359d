""""Which drugs treat hypertension besides beta blockers?" leaves the class's drugs out of the answer; it read
"hypertension besides beta blockers" as the disease's name (a guess: Hypertensive disorder) and left nothing out."""

from __future__ import annotations

import pytest

from agents.state import Status


def test_a_class_or_named_drugs_after_besides_are_left_out(run_graph, resources) -> None:
    out, _ = run_graph({"question": "Which drugs treat hypertension besides beta blockers?"}, interactive=False, memory=False)
    beta = {c.id for c in resources.linker.drug_class("beta blockers")}
    assert out["status"] is Status.ANSWERED and out["ranked_answers"] and out["understood_as"] == ""
    assert [m["mention"] for m in out["mentions"]] == ["hypertension"]
    assert beta <= set(out["excluded"]) and not beta & {a["id"] for a in out["ranked_answers"]}
    assert out["answer"].startswith("Leaving out beta blockers, as asked. Drugs with a verified mechanism for ")
    out, _ = run_graph({"question": "what drugs treat gout other than allopurinol and febuxostat?"}, interactive=False, memory=False)
    names = {resources.kg.name(x).casefold() for x in out["excluded"]}
    assert {"allopurinol", "febuxostat"} <= names and not names & {a["name"].casefold() for a in out["ranked_answers"]}
    assert out["answer"].startswith("Leaving out allopurinol and febuxostat, as asked.")


def test_besides_in_a_mechanism_question_is_left_alone(run_graph) -> None:
    out, _ = run_graph({"question": "What does ibuprofen treat besides pain?"}, interactive=False, memory=False)
    assert out["intent"] == "indications" and out["answer"].startswith("Leaving out Pain, as asked.")


def test_drugs_that_are_not_of_a_class_are_left_out_as_besides(run_graph, resources) -> None:
    """"drugs for high cholesterol that aren't statins" read "high cholesterol that aren't statins" as the disease's
    name (a guess) and left nothing out."""
    statins = {c.id for c in resources.linker.drug_class("statins")}
    for question in ("drugs for high cholesterol that aren't statins", "which drugs treat high cholesterol that are not statins?"):
        out, _ = run_graph({"question": question}, interactive=False, memory=False)
        assert [m["mention"] for m in out["mentions"]] == ["high cholesterol"], out["answer"]
        assert statins <= set(out["excluded"]) and out["answer"].startswith("Leaving out statins, as asked."), out["answer"]


@pytest.mark.parametrize(("question", "klass", "disease"), [
    ("what are non-steroidal options for asthma?", "steroids", "Asthma"),  # told what Asthma is connected to
    ("what drugs for asthma are not steroids?", "steroids", "Asthma"),  # "asthma are not steroids" read by a guess
    ("are there non-opioid drugs for pain?", "opioids", "Pain"),
    ("non-statin drugs for high cholesterol", "statins", "Hypercholesterolemia"),
])
def test_drugs_outside_a_class_named_by_non_or_are_not(run_graph, resources, question: str, klass: str, disease: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    members = {c.id for c in resources.linker.drug_class(klass)}
    assert out["status"] is Status.ANSWERED and out["ranked_answers"], out["answer"]
    assert out["answer"].startswith(f"Leaving out {klass}, as asked. Drugs with a verified mechanism for {disease}: "), \
        out["answer"]
    assert not members & {a["id"] for a in out["ranked_answers"]}, out["ranked_answers"]


def test_opioids_take_the_opioid_analgesics_the_graph_holds(resources) -> None:
    """"are there non-opioid drugs for pain?" listed dextropropoxyphene, butorphanol and pethidine: the class table's
    opioids named ten drugs by their whole names, and not these."""
    names = {c.name.casefold() for c in resources.linker.drug_class("opioids")}
    assert {"dextropropoxyphene", "butorphanol", "pethidine", "codeine", "fentanyl"} <= names, names
    assert "loperamide" not in names and "dextromethorphan" not in names


def test_a_drug_s_targets_besides_one_leave_it_and_its_namesakes_out(run_graph, resources) -> None:
    """"What targets does imatinib hit besides BCR-ABL?" read "besides BCR-ABL" as ABL1 and listed the drugs that act
    on ABL1. It is imatinib's targets with BCR-ABL left out: ABL1, which the words link to, and "Fusion Proteins,
    bcr-abl", whose name holds them; "other than dopamine receptors" leaves out each dopamine receptor."""
    plain, _ = run_graph({"question": "What does imatinib target?"}, interactive=False, memory=False)
    out, _ = run_graph({"question": "What targets does imatinib hit besides BCR-ABL?"}, interactive=False, memory=False)
    assert out["intent"] == "targets" and out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith("Leaving out BCR-ABL, as asked. imatinib acts on: "), out["answer"]
    listed = out["answer"].split(" acts on: ")[1].split(". Best evidence")[0]
    assert "bcr-abl" not in listed.casefold() and "ABL1" not in listed, listed
    assert "ABL1" in plain["answer"]  # the plain question lists it (so the test can fail)
    kept = [c for c in ("Mast/stem cell growth factor receptor Kit", "Platelet-derived growth factor receptor alpha") if c in plain["answer"]]
    assert kept and all(c in listed for c in kept), listed
    out, _ = run_graph({"question": "which receptors does olanzapine block other than dopamine receptors?"}, interactive=False,
                       memory=False)
    listed = out["answer"].split(" acts on: ")[1].split(". Best evidence")[0]
    assert out["answer"].startswith("Leaving out dopamine receptors, as asked.") and "dopamine" not in listed.casefold(), listed
    assert listed, out["answer"]
