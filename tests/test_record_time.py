"""One patient's record over the stretch of time a question names.

- "What medications did PAT_001 start this year?" listed Vitamin E, started in 2019.
- "What labs did PAT_001 have in the past 3 months?" listed the latest labs, from May and July.
- "What was PAT_001's ALT in March?" gave the latest ALT, from May.
- "How many patients had an LDL above 160 this year?" was `NOT_FOUND`: "LDL" named no lab (the records say "LDL
  cholesterol").

Patients are picked by what their raw records hold, and expected lines come from those records.
"""

from __future__ import annotations

import calendar
import json
from datetime import UTC, datetime
from typing import Any

from agents.state import Status
from memory.factory import open_patients

NOW = datetime(2026, 12, 2, 12, tzinfo=UTC).timestamp()


def _ask(run_graph: Any, question: str) -> dict[str, Any]:
    out, _ = run_graph({"question": question}, thread=question, interactive=False, memory=False, now=NOW)
    assert out["status"] is Status.ANSWERED, out["answer"]
    return out


def _patients(settings: Any) -> list[Any]:
    return [p for _, p in sorted(open_patients(settings).patients.items())]


def test_medications_started_in_a_stretch_leave_out_older_ones(run_graph, settings) -> None:
    p = next(p for p in _patients(settings) if p.allows("medications") and
             any(f.relation == "takes" for f in p.facts) and all(f.on < "2026" for f in p.facts if f.relation == "takes"))
    out = _ask(run_graph, f"What medications did {p.id} start this year?")
    assert out["answer"].startswith(f"{p.id}'s record has no medication started between 2026-01-01 and 2026-12-02 "
                                    "(outside that time, it lists: "), out["answer"]
    for f in p.facts:
        if f.relation == "takes":
            assert f"{f.object_name} ({f.on})" in out["answer"], out["answer"]


def test_labs_of_the_past_months_are_those_dated_then(run_graph, settings) -> None:
    start, end = "2026-09-03", "2026-12-02"
    def inside(f: Any) -> bool:
        return f.relation == "has_lab" and start <= f.on <= end
    p = next(p for p in _patients(settings) if p.allows("labs") and any(inside(f) for f in p.facts)
             and any(f.relation == "has_lab" and f.on < start for f in p.facts))
    out = _ask(run_graph, f"What labs did {p.id} have in the past 3 months?")
    latest: dict[str, Any] = {}
    for f in sorted((f for f in p.facts if inside(f)), key=lambda f: f.on):
        latest[f.object_name] = f
    assert out["answer"].startswith(f"{p.id}: latest labs: "), out["answer"]
    for f in latest.values():
        assert f"{f.object_name} {f.value:g} {f.unit} ({f.on})" in out["answer"], out["answer"]
    for f in p.facts:
        if f.relation == "has_lab" and f.on < start:
            assert f"({f.on})" not in out["answer"], out["answer"]
    assert out["answer"].endswith(f"Only lab results dated between {start} and {end} were read."), out["answer"]


def test_a_lab_in_a_named_month_is_its_results_of_that_month(run_graph, settings) -> None:
    def alts(p: Any) -> list[Any]:
        return sorted((f for f in p.facts if f.object_id == "ALT"), key=lambda f: f.on)
    p = next(p for p in _patients(settings) if p.allows("labs") and len({f.on[:7] for f in alts(p)}) > 1)
    month = alts(p)[0].on[:7]
    name = calendar.month_name[int(month[5:])]
    out = _ask(run_graph, f"What was {p.id}'s ALT in {name} {month[:4]}?")
    assert out["answer"].startswith(f"{p.id}'s ALT results, the latest first: "), out["answer"]
    for f in alts(p):
        assert (f"({f.on})" in out["answer"]) == f.on.startswith(month), (f.on, out["answer"])
    missing = next(m for m in range(1, 13) if not any(f.on.startswith(f"2026-{m:02d}") for f in alts(p)))
    out = _ask(run_graph, f"What was {p.id}'s ALT in {calendar.month_name[missing]} 2026?")
    assert out["answer"].startswith(f"{p.id}'s record has no ALT result dated in {calendar.month_name[missing]} 2026 "
                                    "(outside that time, it lists: "), out["answer"]


def test_a_lab_named_by_its_acronym_is_counted(run_graph, settings) -> None:
    ps = [p for p in json.loads(settings.patients_path.read_text())["patients"] if p["consent"]["research"]]
    measured = above = 0
    for p in ps:
        results = sorted((f for f in p["facts"] if f["object_name"] == "LDL cholesterol" and f["on"] >= "2026-01-01"),
                         key=lambda f: f["on"])
        if results and p["consent"]["labs"]:
            measured += 1
            above += results[-1]["value"] > 160
    out = _ask(run_graph, "How many patients had an LDL above 160 this year?")
    span = "between 2026-01-01 and 2026-12-02"
    readable = sum(1 for p in ps if p["consent"]["labs"])  # the lab counts are among those whose labs may be read
    assert f"LDL cholesterol > 160 (latest {span}): {above} of {readable} patients" in out["answer"], out["answer"]
    assert f"LDL cholesterol measured {span}: {measured} of {readable} patients" in out["answer"], out["answer"]


def test_a_stretch_of_time_alone_asks_the_last_count_or_record_question_again(run_graph, settings) -> None:
    """"and in the past 3 months?" after a count was `NOT_FOUND` (no known entity); "and in January?" after a
    patient's ALT was "What drug treats January?"."""
    def turn(thread: str, question: str) -> dict[str, Any]:
        out, _ = run_graph({"question": question}, thread=thread, interactive=False, memory=False, now=NOW)
        return out
    turn("count", "How many patients had an ALT above 30?")
    out = turn("count", "and in the past 3 months?")
    assert out["understood_as"] == "How many patients had an ALT above 30 in the past 3 months?", out["answer"]
    assert "(latest between 2026-09-03 and 2026-12-02)" in out["answer"], out["answer"]
    out = turn("count", "what about last year?")
    assert out["understood_as"] == "How many patients had an ALT above 30 last year?", out["answer"]
    p = next(p for p in _patients(settings) if p.allows("labs") and any(f.object_id == "ALT" and f.on.startswith("2026-01")
                                                                         for f in p.facts))
    turn("record", f"What was {p.id}'s ALT?")
    out = turn("record", "and in January?")
    assert out["understood_as"] == f"What was {p.id}'s ALT in January?" and out["intent"] == "patient", out["answer"]
    for f in p.facts:
        if f.object_id == "ALT":
            assert (f"({f.on})" in out["answer"]) == f.on.startswith("2026-01"), (f.on, out["answer"])


def test_on_a_drug_for_more_than_a_year_reads_when_it_was_started(run_graph, settings) -> None:
    """"Has PAT_029 been on bosutinib for more than a year?" was "No: … lists no Bosutinib among the medications", though
    the record lists it, started in 2026; "How many patients have been on X for more than a year?" counted every taker."""
    cut = "2025-12-02"
    p, f = next((p, f) for p in _patients(settings) if p.allows("medications") for f in p.facts
                if f.relation == "takes" and f.on > cut)
    out = _ask(run_graph, f"Has {p.id} been on {f.object_name} for more than a year?")
    assert out["answer"] == f"No: {p.id}'s record lists {f.object_name} (started {f.on}), not on or before {cut}.", out["answer"]
    q, g = next((q, g) for q in _patients(settings) if q.allows("medications") for g in q.facts
                if g.relation == "takes" and g.on <= cut)
    out = _ask(run_graph, f"Has {q.id} been on {g.object_name} for more than a year?")
    assert out["answer"].startswith(f"Yes: {q.id}'s record lists {g.object_name}"), out["answer"]
    ps = [r for r in json.loads(settings.patients_path.read_text())["patients"] if r["consent"]["research"]]
    long_on = sum(1 for r in ps if r["consent"]["medications"] and any(
        x["relation"] == "takes" and x["object_name"] == "Probenecid" and x["on"] <= cut for x in r["facts"]))
    out = _ask(run_graph, "How many patients have been on probenecid for more than a year?")
    assert f"Probenecid: {long_on} of {sum(1 for r in ps if r['consent']['medications'])} patients" in out["answer"], out["answer"]
    assert f"Only medication starts dated on or before {cut} were counted." in out["answer"], out["answer"]


def test_a_stretch_that_nothing_of_the_record_is_kept_to_is_said_not_applied(run_graph, settings) -> None:
    """"What conditions did PAT_001 have in 2025?" listed the conditions with no word on the year."""
    p = next(p for p in _patients(settings) if p.allows("conditions") and any(f.relation == "has_condition" for f in p.facts))
    out = _ask(run_graph, f"What conditions did {p.id} have in 2025?")
    assert out["answer"].startswith(f"{p.id}: conditions: "), out["answer"]
    assert out["answer"].endswith('"in 2025" was not applied to what the patient has or takes, listed as recorded now '
                                  "(ask what was diagnosed or started in 2025)."), out["answer"]
