"""The wording a question is made plain in before the intent rules read it (``agents.wording``)."""

from __future__ import annotations

import pytest

from agents.intent import parse_question
from agents.state import Intent


@pytest.mark.parametrize(("question", "drug", "disease"), [
    ("how come aspirin helps with pain?", "aspirin", "pain"),  # "come aspirin" was read as the drug's name
    ("how come statins lower cholesterol?", "statins", "high cholesterol"),
    ("how come metformin is used for diabetes?", "metformin", "diabetes"),  # no rule read it
])
def test_how_come_asks_why(question: str, drug: str, disease: str) -> None:
    parsed = parse_question(question)
    assert parsed is not None and (parsed.intent, parsed.drug, parsed.disease) == (Intent.MECHANISM, drug, disease), parsed



@pytest.mark.parametrize(("question", "intent", "disease"), [
    ("how does metformin work at the molecular level?", Intent.TARGETS, ""),  # told what metformin is connected to
    ("what does aspirin do on a molecular level?", Intent.TARGETS, ""),
    ("how does imatinib treat CML at a cellular level?", Intent.MECHANISM, "CML"),
])
def test_the_level_asked_about_is_how_it_works(question: str, intent: Intent, disease: str) -> None:
    parsed = parse_question(question)
    assert parsed is not None and (parsed.intent, parsed.disease) == (intent, disease), parsed
