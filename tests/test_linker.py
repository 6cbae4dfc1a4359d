"""Entity linking on the real KG."""

from __future__ import annotations

import pytest

from agents.intent import SLOT_TYPES, parse_question
from agents.state import Intent
from tools.linker import LinkStatus, fold


def test_fold() -> None:
    assert fold("CML (Ph+)") == "cml ph"
    assert fold("  Acetaminophen!! ") == "acetaminophen"


def test_exact_and_folded(resources) -> None:
    out = resources.linker.link("IMATINIB", SLOT_TYPES["drug"])
    assert out.status is LinkStatus.LINKED and out.best.id == "MESH:D000068877"
    out = resources.linker.link("cml ph+", SLOT_TYPES["disease"])
    assert out.best.id == "MESH:D015464"


def test_type_preference_breaks_name_ties(resources) -> None:
    # "Fever" names both a Disease (MESH) and a PhenotypicFeature (HP); the disease slot prefers Disease.
    out = resources.linker.link("Fever", SLOT_TYPES["disease"])
    assert out.status is LinkStatus.LINKED and out.best.id == "MESH:D005334"


def test_partial_mention_is_ambiguous(resources) -> None:
    out = resources.linker.link("diabetes", SLOT_TYPES["disease"])
    assert out.status is LinkStatus.AMBIGUOUS
    assert {"MESH:D003922", "MESH:D003924"} <= {c.id for c in out.candidates}


def test_unknown_and_embedding_fallback(resources) -> None:
    assert resources.linker.link("zorblaxin", SLOT_TYPES["drug"]).status is LinkStatus.UNKNOWN
    out = resources.linker.link("chronic myelogenous leukaemia", SLOT_TYPES["disease"])
    assert out.best is not None and out.best.id == "MESH:D015464"


def test_intents() -> None:
    assert parse_question("How does imatinib treat CML (ph+)?").intent is Intent.MECHANISM
    p = parse_question("What drug treats bacterial pneumonia in the elderly?")
    assert p.intent is Intent.TREATS and p.disease == "bacterial pneumonia in the elderly"
    assert parse_question("What does imatinib target?").intent is Intent.TARGETS
    assert parse_question("What does aspirin treat?").intent is Intent.INDICATIONS
    assert parse_question("Tell me a joke") is None


@pytest.mark.parametrize("question", [
    "What drug treats {d}?", "what drug treats {d}", "Which drugs are used for {d}?", "What medication is given for {d}?",
    "What is prescribed for {d}?", "Which therapies are indicated for {d}?", "What drugs can be used to treat {d}?",
    "Which medicines help with {d}?", "What is the treatment of {d}?", "Treatment options for {d}?", "Drugs for {d}",
    "Best drug for {d}?", "List drugs that treat {d}.", "Is there a drug for {d}?", "What can I take for {d}?",
    "What should a patient with {d} take?", "How do you treat {d}?", "How to treat {d}", "How can {d} be treated?",
    "Which first-line drugs are recommended for {d}?", "What do doctors prescribe for {d}?",
])
def test_which_drug_treats_in_many_wordings(question: str) -> None:
    # the wordings of bench/bench_treats_phrasing.py and a few more: each asks for drugs, and the slot is the disease
    p = parse_question(question.format(d="gouty arthritis"))
    assert p is not None and p.intent is Intent.TREATS and p.disease == "gouty arthritis" and not p.drug


@pytest.mark.parametrize(("question", "intent", "drug", "disease"), [
    ("How does imatinib treat CML?", Intent.MECHANISM, "imatinib", "CML"),
    ("How does the drug treat gout?", Intent.MECHANISM, "drug", "gout"),
    ("imatinib for CML - how does it work?", Intent.MECHANISM, "imatinib", "CML"),
    ("Why is aspirin used for pain?", Intent.MECHANISM, "aspirin", "pain"),
    ("What is the mechanism of action of aspirin in pain?", Intent.MECHANISM, "aspirin", "pain"),
    ("What does aspirin treat?", Intent.INDICATIONS, "aspirin", ""),
    ("What diseases is aspirin used for?", Intent.INDICATIONS, "aspirin", ""),
])
def test_wider_treats_rules_leave_other_intents_alone(question: str, intent: Intent, drug: str, disease: str) -> None:
    p = parse_question(question)
    assert p is not None and (p.intent, p.drug, p.disease) == (intent, drug, disease)


@pytest.mark.parametrize("question", ["What is gout?", "What causes gout?", "Gout", "Tell me about drugs"])
def test_questions_that_do_not_ask_for_a_drug_are_not_treats(question: str) -> None:
    p = parse_question(question)
    assert p is None or p.intent is not Intent.TREATS
