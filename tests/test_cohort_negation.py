"""A count over patients that asks for what they lack counts that, and nothing else.

- "How many patients are not on metformin?" was answered "Metformin: 0 of 43 patients": the takers, as if asked.
- "How many patients don't take any medication?" was broken down by condition; "… have no conditions recorded?"
  was `NOT_FOUND`.
- "How many patients without gout take allopurinol?" was counted among the patients with gout, and "… don't have gout?"
  counted the patients with it.
- "How many patients take more than 3 medications?" was `NOT_FOUND` ("more than 3 medications" names nothing), as
  was "… have at least 2 conditions?".

Expected figures come from the raw patients file, not from the store that answers.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents.state import Status
from tools.cohort_negation import negation, positions


def _records(settings: Any) -> list[dict[str, Any]]:
    return [p for p in json.loads(settings.patients_path.read_text())["patients"] if p["consent"]["research"]]


def _has(p: dict[str, Any], relation: str, name: str | None = None) -> bool:
    return any(f["relation"] == relation and (name is None or f["object_name"].casefold() == name) for f in p["facts"])


def _ask(run_graph: Any, question: str, thread: str = "neg") -> dict[str, Any]:
    out, _ = run_graph({"question": question}, thread=thread, interactive=False, memory=False)
    assert out["intent"] == "cohort" and out["status"] is Status.ANSWERED, out["answer"]
    assert "PAT_" not in out["answer"], out["answer"]
    return out


def _readable(ps: list[dict[str, Any]], category: str) -> tuple[list[dict[str, Any]], str]:
    """The patients whose facts of ``category`` may be read, and how the answer says the others were left out."""
    kept = [p for p in ps if p["consent"][category]]
    left = len(ps) - len(kept)
    kind = category[:-1]
    return kept, (f" whose {kind}s may be read ({left} {'other' + chr(39) + 's' if left == 1 else 'others' + chr(39)} may not)"
                  if left else "")


@pytest.mark.parametrize("question", ["How many patients are not on metformin?", "How many patients don't take metformin?",
                                      "how many people aren't taking metformin"])
def test_patients_not_on_a_drug_are_those_who_do_not_take_it(run_graph, settings, question) -> None:
    ps = _records(settings)
    kept, left = _readable(ps, "medications")
    without = sum(1 for p in kept if not _has(p, "takes", "metformin"))
    out = _ask(run_graph, question)
    assert f"Of them: Not taking Metformin: {without} of {len(kept)} patients{left}." in out["answer"], out["answer"]
    assert "Metformin: 0 of" not in out["answer"]


def test_patients_with_no_medication_or_no_condition_recorded(run_graph, settings) -> None:
    ps = _records(settings)
    kept, left = _readable(ps, "medications")
    out = _ask(run_graph, "How many patients don't take any medication?")
    none = sum(1 for p in kept if not _has(p, "takes"))
    assert f"Of them: No medication recorded: {none} of {len(kept)} patients{left}." in out["answer"], out["answer"]
    assert "Gout:" not in out["answer"]  # no breakdown by condition
    kept, left = _readable(ps, "conditions")
    out = _ask(run_graph, "How many patients have no conditions recorded?", thread="neg2")
    none = sum(1 for p in kept if not _has(p, "has_condition"))
    assert f"Of them: No condition recorded: {none} of {len(kept)} patients{left}." in out["answer"], out["answer"]


def test_a_negated_condition_is_counted_or_keeps_the_cohort_to_those_without_it(run_graph, settings) -> None:
    ps = _records(settings)
    kept, left = _readable(ps, "conditions")
    out = _ask(run_graph, "How many patients don't have gout?")
    without = [p for p in kept if not _has(p, "has_condition", "gout")]
    assert f"Of them: Without Gout: {len(without)} of {len(kept)} patients{left}." in out["answer"], out["answer"]
    out = _ask(run_graph, "How many patients without gout take allopurinol?", thread="neg2")
    takers = sum(1 for p in without if p["consent"]["medications"] and _has(p, "takes", "allopurinol"))
    assert out["answer"].startswith(f"Patients without Gout (research consent): {len(without)}. Of them: allopurinol: "
                                    f"{takers} of {sum(1 for p in without if p['consent']['medications'])} patients"), out["answer"]
    hypertensive = [p for p in kept if _has(p, "has_condition", "essential hypertension")]
    out = _ask(run_graph, "How many patients with hypertension don't have diabetes?", thread="neg3")
    lacking = sum(1 for p in hypertensive if not _has(p, "has_condition", "diabetes mellitus type 2"))
    assert f"Without Diabetes mellitus type 2: {lacking} of {len(hypertensive)} patients" in out["answer"], out["answer"]


def test_a_negated_class_counts_the_patients_on_none_of_its_drugs(run_graph, settings, resources) -> None:
    statins = {c.name.casefold() for name in resources.linker.classes_in("statins") for c in resources.linker.drug_class(name)}
    assert statins
    kept, left = _readable(_records(settings), "medications")
    none = sum(1 for p in kept if not any(f["relation"] == "takes" and f["object_name"].casefold() in statins
                                          for f in p["facts"]))
    out = _ask(run_graph, "How many patients aren't on any statins?")
    assert f"Of them: Not taking statins: {none} of {len(kept)} patients{left}." in out["answer"], out["answer"]


def test_and_how_many_don_t_after_a_count_is_another_count(run_graph, settings) -> None:
    _ask(run_graph, "How many patients have asthma?", thread="neg4")
    out = _ask(run_graph, "and how many don't have asthma?", thread="neg4")
    assert out["understood_as"] == "How many patients don't have asthma?"
    assert "Without Asthma:" in out["answer"]


def test_which_names_a_negation_reaches() -> None:
    def absent(q: str, names: list[tuple[str, str, set[str]]]) -> tuple[list[str], list[str]]:
        n = negation(q, positions(q, names))
        return sorted(n.absent), sorted(n.nothing)

    met, gout, asthma = ("MET", "takes", {"metfor"}), ("GOUT", "has_condition", {"gout"}), ("AS", "has_condition", {"asthma"})
    assert absent("How many patients not on metformin have gout?", [met, gout]) == (["MET"], [])
    assert absent("How many patients without gout or asthma take metformin?", [gout, asthma, met]) == (["AS", "GOUT"], [])
    assert absent("How many patients who have gout are not on metformin?", [gout, met]) == (["MET"], [])
    assert absent("How many patients have never been diagnosed with gout?", [gout]) == (["GOUT"], [])
    assert absent("How many patients take no medications?", []) == ([], ["takes"])
    assert absent("How many patients with gout take metformin?", [gout, met]) == ([], [])
    high = ("HT", "has_condition", {"hypert"})  # "high blood pressure": linked, no word of its name in the question
    assert absent("How many patients with high blood pressure don't have gout?", [high, gout]) == (["GOUT"], [])
    assert absent("How many patients don't have high blood pressure?", [high]) == (["HT"], [])


@pytest.mark.parametrize(("question", "category", "line", "keep"), [
    ("How many patients take more than 3 medications?", "medications", "Taking more than 3 medications", lambda n: n > 3),
    ("How many patients have at least 2 conditions?", "conditions", "With at least 2 conditions", lambda n: n >= 2),
    ("How many patients take exactly one medication?", "medications", "Taking exactly 1 medication", lambda n: n == 1),
    ("How many patients take two or more drugs?", "medications", "Taking 2 or more medications", lambda n: n >= 2),
])
def test_patients_counted_by_how_many_medications_or_conditions(run_graph, settings, question, category, line, keep) -> None:
    relation = "takes" if category == "medications" else "has_condition"
    kept, left = _readable(_records(settings), category)
    count = sum(1 for p in kept if keep(len({f["object_id"] for f in p["facts"] if f["relation"] == relation})))
    out = _ask(run_graph, question, thread=f"tally-{line}")
    assert f"Of them: {line}: {count} of {len(kept)} patients{left}." in out["answer"], out["answer"]
