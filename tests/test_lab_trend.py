"""Which way a patient's lab went: "Has PAT_003's ALT gone up?" was answered with every result and no word on the
question. Patients are picked by what their raw records hold, and the expected direction comes from those records."""

from __future__ import annotations

from typing import Any

import pytest

from agents.lab_trend import trend
from agents.state import Status
from memory.factory import open_patients
from tests.conftest import in_thread


def _lab(value: float, on: str) -> dict[str, Any]:
    return {"value": value, "unit": "U/L", "on": on}


@pytest.mark.parametrize(("asked", "said"), [
    ("Has PAT_X's ALT gone up?", "Yes: PAT_X's ALT went up from 20 U/L (2026-01-01) to 30 U/L (2026-05-01)."),
    ("Has her ALT dropped?", "No: PAT_X's ALT went up from 20 U/L (2026-01-01) to 30 U/L (2026-05-01)."),
    ("Is her ALT going up?", "Yes: PAT_X's ALT went up from 20 U/L (2026-01-01) to 30 U/L (2026-05-01)."),
    ("Is it falling?", "No: PAT_X's ALT went up from 20 U/L (2026-01-01) to 30 U/L (2026-05-01)."),
    ("How has PAT_X's ALT changed?", "PAT_X's ALT went up from 20 U/L (2026-01-01) to 30 U/L (2026-05-01)."),
    ("Is PAT_X's ALT improving?", ("PAT_X's ALT went up from 20 U/L (2026-01-01) to 30 U/L (2026-05-01); the records "
                                   "hold no reference ranges to say whether that is better or worse.")),
    ("What was PAT_X's ALT last time?", ""),
])
def test_the_last_two_results_say_which_way_it_went(asked: str, said: str) -> None:
    every = [_lab(30, "2026-05-01"), _lab(20, "2026-01-01"), _lab(40, "2025-06-01")]  # the latest first
    assert trend("PAT_X", "ALT", every, asked) == said


def test_one_result_or_the_same_value_tells_no_direction() -> None:
    assert trend("PAT_X", "ALT", [_lab(30, "2026-05-01")], "Has it gone up?") == ""
    same = trend("PAT_X", "ALT", [_lab(30, "2026-05-01"), _lab(30, "2026-01-01")], "Has it gone up?")
    assert same == "No: PAT_X's ALT was the same in its last two results, 30 U/L (2026-01-01) and 30 U/L (2026-05-01)."


def test_a_patient_s_lab_gone_up_or_down_is_answered_yes_or_no(run_graph, settings) -> None:
    def last_two(p: Any) -> list[Any]:
        return sorted((f for f in p.facts if f.relation == "has_lab" and f.object_id == "ALT"), key=lambda f: f.on)[-2:]
    p = next(p for _, p in sorted(open_patients(settings).patients.items())
             if p.allows("labs") and len(two := last_two(p)) == 2 and two[0].value != two[1].value)
    before, latest = last_two(p)
    went = "up" if latest.value > before.value else "down"
    # since stop 98 also "is … going up?", "… rising?", "… falling?" (they were told the latest result alone)
    for question, yes in ((f"Has {p.id}'s ALT gone up?", went == "up"), (f"Has {p.id}'s ALT gone down?", went == "down"),
                          (f"Is {p.id}'s ALT going up?", went == "up"), (f"Is {p.id}'s ALT rising?", went == "up"),
                          (f"Is {p.id}'s ALT falling?", went == "down")):
        out, _ = run_graph({"question": question}, thread=question, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED
        assert out["answer"].startswith(f"{'Yes' if yes else 'No'}: {p.id}'s ALT went {went} from {before.value:g} "
                                        f"{before.unit} ({before.on}) to {latest.value:g} {latest.unit} ({latest.on})."), out["answer"]


@pytest.mark.parametrize("then", ["what was the ALT trend?", "show me the ALT trend"])
def test_a_lab_s_trend_after_a_record_is_the_patient_s(run_graph, then: str) -> None:
    """"what was the ALT trend?" after PAT_006's labs was NOT_FOUND ("no known entity in the question"): no pronoun
    named the patient (since stop 99)."""
    _labs, out = in_thread(run_graph, f"trend-{then}", "what labs does PAT_006 have?", then)
    assert out["status"] is Status.ANSWERED and "PAT_006's ALT" in out["understood_as"], out["answer"]
    assert "PAT_006's ALT went " in out["answer"] or "PAT_006's ALT was the same" in out["answer"], out["answer"]
