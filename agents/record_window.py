"""One patient's record over the stretch of time a question names: "What labs did PAT_001 have in the past 3 months?",
"What medications did PAT_001 start this year?", "What was PAT_001's ALT in March?".

The answers read the whole record: the latest labs whatever their date, every medication whatever its start ("Vitamin
E", started in 2019, for what PAT_001 started this year). :func:`kept_to` keeps a record's facts to the stretch, as
``tools.cohort_window`` does for counts: lab results always, diagnoses when the question says "diagnosed", starts when
it says "started"; the answer says what it kept to, and what the record holds outside it when nothing is left.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from tools.cohort_window import Dated, dating, window

__all__ = ["Kept", "kept_to", "none_in", "not_applied", "outside_only", "timed_again"]

_KIND_OF = {"lab": "labs", "condition": "conditions", "medication": "medications"}
_DATED_AS = {"lab": "dated", "condition": "diagnosed", "medication": "started"}
"""How each kind of fact is dated."""
_WHAT = {kind: f"{'lab result' if kind == 'lab' else kind} {verb}" for kind, verb in _DATED_AS.items()}
"""What a record has none of in a stretch ("medication started")."""


def not_applied(said: str, counted: bool) -> str:
    """That the stretch of time ``said`` was applied to no fact: who has a condition or takes a drug is as recorded now,
    in a count (``counted``) or one record."""
    whose, what, how, ask = (("The records date", "who has a condition or takes a drug", "counted", "who was diagnosed or started one")
                             if counted else ("The record dates", "what the patient has or takes", "listed",
                                              "what was diagnosed or started"))
    return (f" {whose} diagnoses, medication starts and lab results: \"{said}\" was not applied to {what}, {how} as recorded "
            f"now (ask {ask} {said}{' to count those' if counted else ''}).")


@dataclass
class Kept:
    """A record's facts kept to a question's stretch of time."""

    facts: list[tuple[str, dict[str, Any]]]
    """The record's (line, fact) pairs in the stretch, with each lab's latest result in it marked ``latest``; all of
    them when the question names no stretch."""
    dated: Dated
    """What was kept to which stretch."""
    outside: list[dict[str, Any]] = field(default_factory=list)
    """The facts of those kinds that the stretch left out."""

    def note(self) -> str:
        """" Only lab results dated in 2025 were read.", that the stretch the question names was applied to nothing
        ("What conditions did PAT_001 have in 2025?" listed the conditions with no word on the year), or ""."""
        said, window = self.dated.said(), self.dated.window
        if said or window is None:
            return f" Only {said} were read." if said else ""
        return not_applied(window.said, counted=False)

    def words(self) -> str:
        """The question's words for the stretch ("in the past year"), or ""."""
        return self.dated.window.words if self.dated.window is not None and self.dated.kinds else ""


def kept_to(question: str, facts: list[tuple[str, dict[str, Any]]], today: date, labs: bool) -> Kept:
    """``facts`` kept to the stretch of time ``question`` names (``labs``: it asks about labs)."""
    dated = dating(question, today, labs)
    if dated.window is None or not dated.kinds:
        return Kept(facts, dated)
    window = dated.window
    def inside(f: dict[str, Any]) -> bool:
        return _KIND_OF.get(f["kind"], "") not in dated.kinds or window.holds(f.get("on"))
    kept = [(line, f) for line, f in facts if inside(f)]
    last: dict[str, str] = {}
    for _, f in kept:
        if f["kind"] == "lab":
            last[f["name"]] = max(last.get(f["name"], ""), f.get("on") or "")
    kept = [(line, {**f, "latest": f["kind"] != "lab" or (f.get("on") or "") == last.get(f["name"])}) for line, f in kept]
    return Kept(kept, dated, [f for _, f in facts if not inside(f)])


def _named(f: dict[str, Any]) -> str:
    return f"{f['name']} {f['value']:g} {f['unit']}" if f["kind"] == "lab" else str(f["name"])


def none_in(pid: str, kept: Kept, kinds: list[str], lab: str = "") -> str:
    """That the record has nothing of ``kinds`` in the stretch, with what it holds outside it ("PAT_001's record has no
    medication started between 2026-01-01 and 2026-12-02 (outside that time, it lists: Vitamin E (2019-01-30))");
    ``lab``: the one lab asked about ("no ALT result dated in March 2026")."""
    window = kept.dated.window
    said = window.said if window is not None else ""
    shown = [kind for kind in kinds if _KIND_OF[kind] in kept.dated.kinds] or kinds
    outside = [f for f in kept.outside if f["kind"] in shown]
    listed = ", ".join(f"{_named(f)} ({f.get('on') or 'undated'})"
                       for f in sorted(outside, key=lambda f: f.get("on") or "", reverse=True)) or "none"
    what = " or ".join(f"{lab} result dated" if kind == "lab" and lab else _WHAT[kind] for kind in shown)
    return f"{pid}'s record has no {what} {said} (outside that time, it lists: {listed})."


def outside_only(pid: str, facts: list[dict[str, Any]], kept: Kept) -> str:
    """"No" to a yes-or-no question about what the record holds only outside the stretch asked about ("Has PAT_029 been
    on bosutinib for more than a year?" was "No: … lists no Bosutinib among the medications", though it lists it, started
    2026-09-13)."""
    said = kept.dated.window.said if kept.dated.window is not None else ""
    listed = ", ".join(f"{f['name']} ({_DATED_AS.get(f['kind'], 'dated')} {f.get('on') or 'undated'})" for f in facts)
    return f"No: {pid}'s record lists {listed}, not {said}."


_FILLER = re.compile(r"^(?:(?:and|so|but|ok|okay|what|how|about|only|just|then|which|of|those|them|these|ones?|were|was|are|"
                     r"is|done|taken|measured|from|dated|for)\b[\s,]*)*$", re.IGNORECASE)
"""What else a question that only names a stretch of time may say ("and in the past 3 months?", "what about last
year?", "which of those were in the last 6 months?")."""
_TIMED = ("cohort", "patient")


def timed_again(question: str, messages: Sequence[dict[str, Any]]) -> str | None:
    """The thread's last count or record question asked again over the stretch of time ``question`` names alone ("How
    many patients had an ALT above 30 in the past 3 months?" for "and in the past 3 months?"; it was `NOT_FOUND`, no
    known entity, and "and in January?" after PAT_001's ALT was "What drug treats January?"); None otherwise."""
    text = " ".join(question.split()).rstrip("?.! ")
    found = window(text, date.today())  # only the words matter here: the answer reads the run's clock
    last = next((m for m in reversed(messages) if m.get("role") == "assistant" and m.get("intent")), {})
    if found is None or last.get("intent") not in _TIMED or not _FILLER.match(text.replace(found.words, " ").strip()):
        return None
    asked = " ".join(str(last.get("question", "")).split()).rstrip("?.! ")
    before = window(asked, date.today())
    asked = asked.replace(before.words, " ") if before is not None else asked
    return f"{' '.join(asked.split())} {found.words}?" if asked else None
