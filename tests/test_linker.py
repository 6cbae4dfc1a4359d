"""Entity linking on the real KG."""

from __future__ import annotations

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
