"""When a count over patients asks about a stretch of time: "How many patients had an HbA1c above 9 last year?",
"… were diagnosed with gout in 2025?", "… started metformin in the past 6 months?".

The count read the latest results and every recorded diagnosis whatever the question said of time. :func:`window`
reads the stretch a question names, relative to the asker's day; ``tools.aggregate`` keeps to the facts dated in it:
lab results always, diagnoses when the question says "diagnosed", medications when it says "started".
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

__all__ = ["Dated", "Window", "dating", "window"]

_MONTHS = {name.casefold(): i for i, name in enumerate(calendar.month_name) if name}
_MONTH = "|".join(_MONTHS)
_COUNT = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "eighteen": 18, "twenty-four": 24}
_ROLLING = re.compile(r"\b(?:(?:in|during|over|within|for)\s+)?(?:the\s+)?(?:last|past|previous|recent)\s+(?:(?P<n>\d+|"
                      + "|".join(_COUNT) + r")\s+)?(?P<unit>year|month|week|day)s?\b", re.IGNORECASE)
"""A stretch that ends today: "in the past 6 months", "over the last year", "the past two weeks"."""
_CALENDAR = re.compile(r"\b(?P<which>last|this|previous)\s+(?P<unit>year|month)\b", re.IGNORECASE)
"""A calendar year or month: "last year" is the year before today's, "this year" runs from its first day."""
_DATED = re.compile(rf"\b(?P<how>in|during|since|from|before|until|prior\s+to)\s+(?:(?:(?P<month>{_MONTH})\s+(?:of\s+)?)?(?P<year>(?:19|20)\d\d)\b(?!-\d)|"
                    rf"(?P<alone>{_MONTH.replace('may|', '')})\b)|"
                    r"\b(?P<how2>since|from|after)\s+(?P<iso>\d{4}-\d{2}-\d{2})\b", re.IGNORECASE)
"""A named year or month ("in 2025", "in March 2026"), a start ("since 2025", "since 2026-03-01") or an end ("before
2020")."""


@dataclass(frozen=True)
class Window:
    """A stretch of days, both ends included."""

    start: date
    """Its first day."""
    end: date
    """Its last day (today, for a stretch that ends today)."""
    said: str
    """How an answer names it: "in 2025", "between 2026-06-03 and 2026-12-02" (the past 6 months)."""
    words: str = ""
    """The question's words for it ("in the past 6 months")."""

    def holds(self, on: str | None) -> bool:
        """Whether an ISO date (a fact's ``on``) falls in the stretch; an undated fact never does."""
        try:
            day = date.fromisoformat(on[:10]) if on else None
        except ValueError:
            return False
        return day is not None and self.start <= day <= self.end


def _months_back(today: date, n: int) -> date:
    month = today.month - 1 - n
    year, month = today.year + month // 12, month % 12 + 1
    return date(year, month, min(today.day, calendar.monthrange(year, month)[1]))


def _span(start: date, end: date) -> str:
    return f"between {start.isoformat()} and {end.isoformat()}"


_EARLIEST = date(1900, 1, 1)
"""Where a stretch too long for the calendar starts ("in the past 9999999 days" raised OverflowError)."""


def _rolling(m: re.Match[str], today: date) -> Window | None:
    raw = (m["n"] or "1").casefold()
    n, unit = int(raw) if raw.isdigit() else _COUNT[raw], m["unit"].casefold()
    if n < 1:  # "in the past 0 days" names no stretch
        return None
    try:
        back = {"day": lambda: today - timedelta(days=n), "week": lambda: today - timedelta(weeks=n),
                "month": lambda: _months_back(today, n), "year": lambda: _months_back(today, 12 * n)}[unit]()
    except (OverflowError, ValueError):
        back = _EARLIEST - timedelta(days=1)
    start = max(back + timedelta(days=1), _EARLIEST)
    return Window(start, today, _span(start, today))


def _calendar(m: re.Match[str], today: date) -> Window:
    this = m["which"].casefold() == "this"
    if m["unit"].casefold() == "year":
        year = today.year if this else today.year - 1
        start = date(year, 1, 1)
        return Window(start, today, _span(start, today)) if this else Window(start, date(year, 12, 31), f"in {year}")
    first = today.replace(day=1) if this else _months_back(today, 1).replace(day=1)
    last = today if this else first.replace(day=calendar.monthrange(first.year, first.month)[1])
    return Window(first, last, _span(first, last) if this else f"in {calendar.month_name[first.month]} {first.year}")


def _dated(m: re.Match[str], today: date) -> Window | None:
    if m["iso"]:
        try:
            start = date.fromisoformat(m["iso"])
        except ValueError:
            return None
        return Window(start, today, f"since {start.isoformat()}")
    if m["alone"]:  # "since June": the latest June that has begun
        month = _MONTHS[m["alone"].casefold()]
        year = today.year if month <= today.month else today.year - 1
    else:
        year, month = int(m["year"]), _MONTHS.get((m["month"] or "").casefold())
    first = date(year, month or 1, 1)
    named = f"{calendar.month_name[month] + ' ' if month else ''}{year}"
    if m["how"].casefold() in ("before", "until") or m["how"].casefold().startswith("prior"):  # "before 2020"
        return Window(_EARLIEST, first - timedelta(days=1), f"before {named}")
    if m["how"].casefold() in ("since", "from"):
        return Window(first, today, f"since {calendar.month_name[month] + ' ' if month else ''}{year}")
    last = date(year, month, calendar.monthrange(year, month)[1]) if month else date(year, 12, 31)
    return Window(first, last, f"in {calendar.month_name[month] + ' ' if month else ''}{year}")


_DURATION = re.compile(r"\bfor (?:more than|over|at least|longer than) (?:(?P<n>\d+|" + "|".join(_COUNT) +
                       r")\s+)?(?P<unit>year|month|week|day)s?\b", re.IGNORECASE)
"""How long a patient has been on a drug or had a condition ("on probenecid for more than a year"): a start on or
before that long ago (it counted every taker)."""
_TAKING = re.compile(r"\b(?:on|taking|taken|take|takes|using|used|prescribed)\b", re.IGNORECASE)


def _lasting(m: re.Match[str], today: date) -> Window | None:
    ago = _rolling(m, today)
    if ago is None:
        return None
    end = ago.start - timedelta(days=1)
    return Window(_EARLIEST, end, f"on or before {end.isoformat()}")


def window(text: str, today: date) -> Window | None:
    """The stretch of time ``text`` asks about, relative to ``today``; None when it names none."""
    found: Window | None = None
    m = _DURATION.search(text) or _ROLLING.search(text)
    if m is not None and m.re is _DURATION:
        found = _lasting(m, today)
    elif m is not None and (m["n"] or not m.group(0).casefold().startswith(("last", "previous"))):  # "last year": a calendar year
        found = _rolling(m, today)
    elif m := _CALENDAR.search(text):
        found = _calendar(m, today)
    elif m := _DATED.search(text):
        found = _dated(m, today)
    return replace(found, words=m.group(0)) if found is not None and m is not None else None


_DIAGNOSED = re.compile(r"\bdiagnos(?:ed|is|es)\b", re.IGNORECASE)
_STARTED = re.compile(r"\b(?:start(?:ed|ing)?|began|begun|begin(?:ning)?|initiated|put on|newly prescribed)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Dated:
    """Which of a count's facts are kept to a stretch of time."""

    window: Window | None = None
    """The stretch the question names; None for none."""
    kinds: frozenset[str] = frozenset()
    """The fact categories kept to it: ``labs`` (results), ``conditions`` (diagnoses), ``medications`` (starts)."""

    def view(self, patient: Any) -> Any:
        """``patient`` with only the facts of ``kinds`` that the window holds (the others as they are)."""
        if self.window is None or not self.kinds:
            return patient
        window = self.window
        return replace(patient, facts=[f for f in patient.facts if f.category not in self.kinds or window.holds(f.on)])

    def said(self) -> str:
        """What was kept to the window, in words ("lab results dated in 2025"); "" for nothing."""
        if self.window is None or not self.kinds:
            return ""
        words = [w for k, w in (("conditions", "diagnoses"), ("medications", "medication starts"), ("labs", "lab results"))
                 if k in self.kinds]
        return f"{' and '.join(words)} dated {self.window.said}"


def dating(text: str, today: date, labs: bool) -> Dated:
    """What of a count ``text`` keeps to the stretch of time it names: the named labs' results (``labs``), diagnoses
    when it says "diagnosed", medications when it says "started"; a stretch that reaches none of them is kept with no
    kinds, so that the answer can say it was not applied."""
    found = window(text, today)
    if found is None:
        return Dated()
    if _DURATION.fullmatch(found.words):  # "on probenecid for more than a year": started by then, whatever the labs
        return Dated(found, frozenset({"medications"} if _TAKING.search(text) else {"conditions"}))
    kinds = {"labs"} if labs else set()
    kinds |= {"conditions"} if _DIAGNOSED.search(text) else set()
    kinds |= {"medications"} if _STARTED.search(text) else set()
    return Dated(found, frozenset(kinds))
