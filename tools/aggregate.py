"""The aggregation route's store: "How many patients with X have Y?" counted over the patient records.

A condition, medication or lab is named by a linked KG id the records hold, by a word the records' names share (a
6-letter stem: "diabetes" finds Diabetes mellitus type 2), or by a lab's exact name. Patients who do not allow
research use are left out and their facts counted; a cohort smaller than ``tools.routes.MIN_COHORT`` is not reported.
"""

from __future__ import annotations

import hashlib
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

from core.datasets import DISEASE_TYPES
from memory.records import CohortCount
from tools.cohort_negation import Negation, negation, positions
from tools.cohort_window import Dated, dating
from tools.fanout import Item
from tools.routes import MIN_COHORT, RetrievalQuery
from tools.spelling import Respeller

__all__ = ["STATISTIC", "Aggregate"]

_GENERIC = frozenset(["disease", "disorder", "chronic", "type", "syndrome", "infection", "essential", "acute", "primary", "deficiency", "by", "of", "the", "and", "with",
                      "acid"])
"""Words a name shares with too many others to pick it out ("citric acid" counted the takers of tienilic acid and the
uric acid lab too)."""
_WORD = re.compile(r"[a-z0-9]+")
_ABOVE = ("above", "over", "greater than", "more than", ">")
STATISTIC = re.compile(r"\b(?:average|median)\b|(?:^|\b(?:the|a|their|our) )mean\b", re.IGNORECASE)
"""A lab summed up over many patients ("the average HbA1c of patients on metformin"): its latest results' mean or
median, over the patients who take the drugs the question names, when it names any."""
_RESULTS = r"(?:results?|tests?|measurements?|readings?|values|checks)\b"
_THRESH = re.compile(rf"\b(above|over|greater than|more than|>|below|under|less than|<)\s*(\d+(?:\.\d+)?)(?!\d|\.\d|\s+(?:[\w-]+\s+){{0,3}}?"
                     rf"{_RESULTS})", re.IGNORECASE)
"""A lab's threshold ("an HbA1c above 7"), not a number of results ("more than 2 ALT results")."""


_COHORT_WORDS = frozenset(["patients", "people", "proportion", "percentage", "percent", "number", "common", "among",
                           "medication", "medications", "medicines", "condition", "conditions", "diagnosed", "taking",
                           "takes", "having", "which", "their", "there", "above", "below", "under", "greater", "total"])
"""Words of a question about many patients that are no misspelt name, however near one they are."""


_ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4"}
_HAVING = re.compile(
    r"\b(?:patients|people|persons|subjects|who)\s+(?:(?:who\s+)?(?:have|has|had)(?:\s+been\s+diagnosed\s+with)?|with|having|"
    r"(?:(?:are|were)\s+)?diagnosed\s+with)\s+(?!(?:been|taken|taking|used|using|on|prescribed|received|any|a|no|not|never)\b)"
    r"(?P<c>[^?.!,;]+?)(?=\s+(?:who|that|and|but|take|takes|taking|took|are|is|were|was|on|using|uses?|prescribed|receiving|"
    r"in|among|for|have|has|had)\b|\s*[?.!,;]|\s*$)", re.IGNORECASE)
"""Where a question names the condition of its cohort ("patients with tuberculosis take …", "patients have gout")."""
_WITHIN = re.compile(r"\b(?:with|having)\s+[^?.!]+?\s+(?:(?:who|that)\s+)?(?:also\s+)?(?:have|has|had)\s+(?P<b>[^?.!]+)", re.IGNORECASE)
"""A count within a cohort by another condition ("patients with depression (who also) have migraine")."""
_BOTH = re.compile(r"\b(?:with|have|has|had|having)\s+[^?.!]+?\s+and\s+(?:also\s+)?[^?.!]+", re.IGNORECASE)
"""Conditions joined by "and": a patient has each ("patients with gout and hypertension")."""
_TAKING_CLAUSE = re.compile(r"\b(?:take|takes|taking|took|on|using|uses?|prescribed|receiving|given)\s+[^?.!,;]+?"
                            r"(?=\s+(?:and|who|with|for|that|have|has|had)\b|\s*[?.!,;]|\s*$)", re.IGNORECASE)
"""What a question says patients take ("take vitamin E"): no condition is named by its words ("Vitamin E deficiency"
was the cohort of "How many patients take vitamin E?", and of vitamin D)."""


_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_TALLY = re.compile(r"\b(?<!\btop )(?:(?P<cmp>more than|over|at least|fewer than|less than|under|at most|exactly|only)\s+)?(?P<n>\d+|"
                    + "|".join(_NUMBERS) + r")\s+(?P<more>or more\s+)?(?:different\s+)?(?P<kind>medications?|drugs?|medicines?|"
                    r"meds|conditions?|diagnos[ie]s|diseases?)\b(?P<more2>\s+or more)?", re.IGNORECASE)
"""A count of patients by how many medications or conditions the record lists ("How many patients take more than 3
medications?" was `NOT_FOUND`, '"more than 3 medications" names no condition, medication or lab'); not "the top 5
drugs", the most common ones."""
_LAB_TALLY = re.compile(r"\b(?<!\btop )(?:(?P<cmp>more than|over|at least|fewer than|less than|under|at most|exactly|only)\s+)?(?P<n>\d+|"
                        + "|".join(_NUMBERS) + rf")\s+(?P<more>or more\s+)?(?:[\w-]+\s+){{0,3}}?{_RESULTS}(?P<more2>\s+or more)?",
                        re.IGNORECASE)
"""A count of patients by how many results of a lab their records hold ("How many patients had more than 2 ALT results
this year?" was counted as an ALT above 2)."""
_BY_COMPARISON = {"more than": int.__gt__, "over": int.__gt__, "at least": int.__ge__, "fewer than": int.__lt__,
                  "less than": int.__lt__, "under": int.__lt__, "at most": int.__le__, "exactly": int.__eq__,
                  "only": int.__eq__, "": int.__eq__, "or more": int.__ge__}


_ASKS_MEDS = re.compile(r"\b(?:medications?|medicines?|meds|drugs?|prescri\w*|prescriptions?)\b", re.IGNORECASE)
_ASKS_CONDS = re.compile(r"\b(?:conditions?|diagnos[ie]s|diseases?|illness(?:es)?|comorbidit(?:y|ies))\b", re.IGNORECASE)
"""A count that asks for medications or for conditions, by the words for them: the breakdown is of that kind alone."""


def _stems(text: str) -> set[str]:
    return {w[:6] for w in _WORD.findall(text.casefold()) if len(w) >= 4 and w not in _GENERIC}


def _marks(name: str) -> set[str]:
    """The numbers and letters that tell the kinds of one condition apart ("type 1" from "type 2", "hepatitis B" from
    "hepatitis C"), roman numerals read as numbers."""
    return {_ROMAN.get(w, w) for w in _WORD.findall(name.casefold()) if w.isdigit() or w in _ROMAN or (len(w) == 1 and w != "a")}


def _lab_line(lab: str, threshold: re.Match[str] | None, above: bool, when: str = "") -> str:
    """How an aggregation names a lab count: measured at all, or its latest value past the question's threshold;
    ``when``: the stretch of time its results were kept to ("in 2025")."""
    at = f" {when}" if when else ""
    return f"Lab: {lab} measured{at}" if threshold is None else f"Lab: {lab} {'>' if above else '<'} {threshold.group(2)} (latest{at})"


def _how(m: re.Match[str]) -> str:
    """How a tally compares ("more than", "or more", "" for exactly)."""
    return "or more" if m["more"] or m["more2"] else (m["cmp"] or "").casefold()


def _started(cohort: list[Any], dated: Dated) -> list[CohortCount]:
    """The cohort's patients with a medication started in the question's stretch of time ("How many patients started a
    new medication this year?" was broken down by condition), among those whose medications may be read."""
    readable = [p for p in cohort if p.allows("medications")]
    count = sum(1 for p in readable if any(f.relation == "takes" for f in p.facts))  # ``dated.view`` kept those started then
    when = dated.window.said if dated.window is not None else ""
    return [CohortCount("", 0, "medication", f"a medication started {when}", count, unknown=len(cohort) - len(readable), tally=True)]


_AS_CONDITION = re.compile(r"\b(?:high|low|elevated|raised)$")
"""The word before a lab's name that makes it a condition ("high blood pressure")."""
_QUALIFIERS = frozenset(["systolic", "diastolic", "fasting", "serum", "total", "random"])


def _lab_phrases(name: str) -> set[str]:
    """The words a lab is named by ("How many patients had an LDL above 160?" named no lab of the records)."""
    words = _WORD.findall(name.casefold())
    out = {" ".join(words)}
    if len(words) > 1 and sum(c.isupper() for c in name.split()[0]) >= 2:  # "LDL cholesterol": "LDL"
        out.add(words[0])
    if len(words) > 1 and words[0] in _QUALIFIERS:  # "Systolic blood pressure": "blood pressure"
        out.add(" ".join(words[1:]))
    return out


def _today(q: RetrievalQuery) -> date:
    """The asker's day (UTC), from the query's clock or the wall clock."""
    return datetime.fromtimestamp(q.now or time.time(), tz=UTC).date()


class Aggregate:
    """"How many patients with X have Y?": cohort by condition (name or taxonomy word), 1 hop, counts."""

    inline = True
    """In-memory and fast: the fan-out runs it on the event loop."""

    def __init__(self, patients: Any, kg: Any, classes: Callable[[str], list[tuple[str, list[str]]]] | None = None) -> None:
        """Index the condition, medication and lab names of the patient store. ``classes``: the drug classes a text
        names, each with its drugs ("How many patients take statins?"), counted as the drugs it names are; a class
        no patient takes any drug of is counted 0, as a named drug is."""
        self.patients, self.kg, self.classes = patients, kg, classes
        self.names: dict[str, tuple[str, str]] = {}
        for p in patients.patients.values():
            for f in p.facts:
                if f.relation in ("has_condition", "takes", "has_lab") and p.allows(f.category):  # a refused fact names nothing
                    self.names.setdefault(f.object_id, (f.relation, f.object_name))
        self.words = {oid: " ".join(_WORD.findall(name.casefold())) for oid, (_, name) in self.names.items()}
        """Each name's words, folded ("ldl cholesterol"): a lab is named by all of them."""
        self.stems = {oid: _stems(name) for oid, (_, name) in self.names.items()}
        self.lab_words = {oid: _lab_phrases(name) for oid, (rel, name) in self.names.items() if rel == "has_lab"}
        """The words each lab is named by: all of its name's, its acronym ("LDL" for LDL cholesterol), or its name without
        a qualifier ("blood pressure")."""
        self.spelling = Respeller(self.words.values(), _COHORT_WORDS)
        """Reads a misspelt word as the nearest word of the records' names ("diabtes" → "diabetes")."""

    def _named(self, q: RetrievalQuery, relation: str, asked: tuple[set[str], str],
               classes: list[tuple[str, list[str]]] | None = None, linked: Sequence[Any] = ()) -> set[str]:
        """Ids of this kind the query names: linked KG ids, taxonomy words (6-letter stems) or exact lab names; for
        medications, the drugs of ``classes`` that some patient takes. ``asked``: the query's stems (and those of its
        respelling) and its folded words, read once per query; ``linked``: :meth:`_linked_conditions`, read once too."""
        stems, phrase = asked
        found = {e for e in q.entities if self.names.get(e, ("",))[0] == relation}
        kinds = [m[0] for m in (*_HAVING.finditer(q.text), *_TAKING_CLAUSE.finditer(q.text))]  # the words of what is named
        kinds += [n.name for n in linked] if relation == "has_condition" else []
        if relation == "takes":
            found |= {e for e in q.entities if (n := self.kg.node(e)) is not None and n.type == "Drug"}
            found |= {e for _, ids in classes or [] for e in ids if self.names.get(e, ("",))[0] == relation}
        for oid, (rel, _) in self.names.items():
            if rel != relation or oid in found:
                continue
            own = self.stems[oid]
            lab = relation == "has_lab"  # a lab's words after "high" name a condition ("high blood pressure")
            if ((own and own & stems and not (lab and self._lab_in(oid, phrase, as_condition=True))) or
                    (lab and self._lab_in(oid, phrase))) and not self._other_kind(oid, kinds):
                found.add(oid)
        return found

    def _lab_in(self, oid: str, folded: str, as_condition: bool = False) -> bool:
        """Whether ``folded`` (a question's folded words, space-padded) names the lab ``oid``, not after a word that
        makes it a condition ("How many patients have high blood pressure?" counted who had a blood pressure result);
        ``as_condition``: whether it names it, or a long word of its name, only after such a word ("high cholesterol")."""
        def after(phrases: Iterable[str]) -> list[bool]:
            return [bool(_AS_CONDITION.search(folded[: m.start()])) for w in phrases for m in re.finditer(f" {re.escape(w)} ", folded)]
        named = self.lab_words.get(oid, ())
        if not as_condition:
            return not all(said) if (said := after(named)) else False
        return any(after([*named, *{w for words in named for w in words.split() if len(w) >= 5}])) and all(after(named))

    def _linked_conditions(self, q: RetrievalQuery) -> list[Any]:
        """The KG conditions the query links that the records do not hold under that id ("Diabetes mellitus type 1")."""
        return [n for e in q.entities if e not in self.names and (n := self.kg.node(e)) is not None and n.type in DISEASE_TYPES]

    def _other_kind(self, oid: str, kinds: list[str]) -> bool:
        """Whether the records' ``oid``, found by a word it shares with one of ``kinds`` (what the question names, in its
        words or as a linked condition), is another kind of it, by their marks (:func:`_marks`): "Diabetes mellitus type
        2" for "type 1 diabetes" and "Vitamin E" for "vitamin D" (they were counted as the ones asked about)."""
        own = _marks(self.names[oid][1])
        return bool(own) and any(self.stems[oid] & _stems(k) and (m := _marks(k)) and not m & own for k in kinds)

    def _unrecorded(self, q: RetrievalQuery, conds: set[str], linked: list[Any]) -> CohortCount | None:
        """When no condition of the records matched: the one the question names that no patient record holds (in the
        question's words), and the records' conditions it shares a word with; None when it names none. Its cohort was
        dropped and every patient counted ("How many patients with tuberculosis take isoniazid?": 0 of 43)."""
        if conds:
            return None
        drugs = {s for e in q.entities if (n := self.kg.node(e)) is not None and n.type == "Drug" for s in _stems(n.name)}
        phrases = [m["c"].strip() for m in _HAVING.finditer(q.text) if not _TALLY.search(m["c"])]  # not "2 conditions"
        asked = next((c for c in phrases if not self._held(c, drugs)), "")
        if not asked and not linked:
            return None
        asked = asked or next((c for c in phrases if any(_stems(c) & _stems(n.name) for n in linked)), "")
        near = sorted({self.names[o][1] for o, (rel, _) in self.names.items()
                       if rel == "has_condition" and any(self.stems[o] & _stems(n.name) for n in linked)})
        return CohortCount(asked or linked[0].name, 0, unrecorded=asked or linked[0].name, nearest=" or ".join(near))

    def _held(self, words: str, drugs: set[str]) -> bool:
        """Whether ``words`` name something of the records (a condition, medication or lab, by a shared word or a lab's
        name), a drug the query links or a drug class; words with nothing to tell apart ("a condition") count as held."""
        stems = _stems(words) | _stems(self.spelling.respell(words))
        folded = " " + " ".join(_WORD.findall(words.casefold())) + " "
        return (not stems or bool(stems & drugs) or bool(self.classes and self.classes(words))
                or any(self.stems[o] & stems or (rel == "has_lab" and self._lab_in(o, folded)) for o, (rel, _) in self.names.items()))

    def _cohort(self, q: RetrievalQuery, groups: list[set[str]], taking: set[str], without: set[str] = frozenset(),  # type: ignore[assignment]
                view: Callable[[Any], Any] = lambda p: p) -> tuple[list[Any], int]:
        """The patients counted: in the caller's scope, with one of each of ``groups`` (any, when none; as their conditions show
        where they allow them to be read, as medications and labs are: a refusal had been read anyway), taking one of
        ``taking`` (when not empty, as their medications show where they allow them to be read), and allowing research
        use; and the recorded facts of those left out for want of that consent. ``view``: each patient as counted
        (:meth:`tools.cohort_window.Dated.view`: the facts dated in the question's stretch of time)."""
        withheld, cohort = 0, []
        for raw in self.patients.patients.values():
            if q.in_scope is not None and not q.in_scope(raw.id):
                continue  # outside the caller's patients: not counted, not even as withheld
            p = view(raw)
            held = {f.object_id for f in p.facts if f.relation == "has_condition"} if p.allows("conditions") else set()
            if groups and not all(held & g for g in groups) or without and (held & without or not p.allows("conditions")):
                continue  # without: only a patient whose conditions may be read is known to lack one
            if taking and not (p.allows("medications") and any(f.relation == "takes" and f.object_id in taking for f in p.facts)):
                continue
            if not p.allows("research"):
                withheld += sum(1 for f in raw.facts if f.relation in ("has_condition", "takes", "has_lab"))
                continue
            cohort.append(p)
        return cohort, withheld

    def __call__(self, q: RetrievalQuery) -> list[Item]:
        """Count lines, largest first, or a lab's average over the cohort; patients without research consent are left
        out and counted."""
        classes = self.classes(q.text) if self.classes else []  # "statins": their drugs, once per query
        asked = (_stems(q.text) | _stems(self.spelling.respell(q.text)), " " + " ".join(_WORD.findall(q.text.casefold())) + " ")
        having = _TAKING_CLAUSE.sub(" ", q.text)  # and the names the linker gave: "high blood pressure" is Hypertension
        linked = self._linked_conditions(q)  # read once: the condition's words, its kinds and what no record holds
        having += " " + " ".join(n.name for n in linked)
        conds, drugs, labs = (self._named(q, "has_condition", (_stems(having) | _stems(self.spelling.respell(having)), asked[1]),
                                          linked=linked),
                              self._named(q, "takes", asked, classes), self._named(q, "has_lab", asked))
        if (unheld := self._unrecorded(q, conds, linked)) is not None:  # nobody has it: no cohort of every patient instead
            return [Item("agg:cohort:" + hashlib.sha1(unheld.cohort.encode()).hexdigest()[:12], "graph",
                         f"Cohort: patients with {unheld.cohort}: no patient record holds it", 1.0, "aggregate", (), count=unheld)]
        conds, drugs, present, lacking, without = self._negated(q.text, conds, drugs, labs, classes)  # present: labs had
        groups, within = self._groups(q.text, conds)
        untaken = [name for name, ids in classes if not any(self.names.get(e, ("",))[0] == "takes" for e in ids)]
        stat = STATISTIC.search(q.text) if labs else None  # "the average HbA1c of patients on metformin"
        unless = any(rel == "takes" and ids for rel, _, ids in lacking)  # "… on metformin and not on insulin?"
        keep_to = drugs if stat or unless or labs else set()  # of those who take it, not a count of who does ("How many
        # patients on probenecid have an ALT above 20?" counted the ALT of every patient, and the takers apart)
        drugs = set() if keep_to else drugs  # the cohort is their takers: no count of them again
        dated = dating(q.text, _today(q), bool(labs))  # "… last year?": the facts dated then
        cohort, q.withheld["aggregate"] = self._cohort(q, groups, keep_to, without, dated.view)
        base = CohortCount(" and ".join(" or ".join(sorted(self.names[c][1] for c in g)) for g in groups), 0,
                           taking=" or ".join(sorted(self.kg.name(d) for d in keep_to)),
                           without=" or ".join(sorted(self.names[c][1] for c in without)), dated=dated.said(),
                           undated=dated.window.said if dated.window is not None and not dated.kinds else "")
        head = f"Condition: {base.cohort or 'any condition'}" + (f"; Medication: {base.taking}" if base.taking else "")
        tallies = self._tallies(q.text, cohort, labs)  # "… take more than 3 medications?", "… 2 ALT results?"
        tallies += _started(cohort, dated) if "medications" in dated.kinds and not (drugs or untaken or keep_to) else []
        when = dated.window.said if dated.window is not None and "labs" in dated.kinds else ""
        counts = self._counts(q.text, cohort, drugs, untaken, present, within, conds, bool(lacking or tallies), when)
        who = (f"{base.cohort or 'any condition'}{f' without {base.without}' if base.without else ''}"
               f"{f' taking {base.taking}' if base.taking else ''}")
        if len(cohort) < MIN_COHORT:  # a small cohort's counts would point at people
            return [Item("agg:cohort:" + hashlib.sha1(head.encode()).hexdigest()[:12], "graph",
                         f"Cohort: patients with {who} (research consent): too few to report (fewer than {MIN_COHORT})",
                         1.0, "aggregate", tuple(sorted(conds)), count=replace(base, too_few=True))]
        every = len(self._cohort(q, [], set())[0]) if groups or keep_to or without else len(cohort)  # "what proportion …?"
        base = replace(base, size=len(cohort))
        items = [Item("agg:cohort:" + hashlib.sha1(head.encode()).hexdigest()[:12], "graph",
                      f"Cohort: patients with {who} (research consent): {base.size} of {every}",
                      max(counts.values(), default=0) + 1.0, "aggregate", tuple(sorted(conds)), count=replace(base, of_all=every))]
        if stat:
            statistic = "median" if stat.group(0).casefold() == "median" else "mean"
            return items + [self._lab_statistic(cohort, lab, statistic, head, conds, base) for lab in sorted(labs)]
        unread = {kind: sum(1 for p in cohort if not p.allows(f"{kind}s")) for kind in ("medication", "condition", "lab")}
        return items + self._count_items(head, base, tuple(sorted(conds)), [*self._absent(cohort, lacking), *tallies], counts,
                                         unread)

    @staticmethod
    def _count_items(head: str, base: CohortCount, conds: tuple[str, ...], asked: list[CohortCount], counts: Counter[str],
                     unread: dict[str, int]) -> list[Item]:
        """The count lines after the cohort's: what its patients lack or how many of a kind they have (``asked``, which
        lead), then ``counts``, largest first, each among the patients who allow its kind to be read (``unread``: how
        many of the cohort do not, by kind; "Citric acid: 4 of 43 patients" counted 5 whose medications are withheld)."""
        items, top = [], max(counts.values(), default=0) + 1.0  # the counts keep their order after the cohort's line
        for absent in asked:
            key = f"{'By number' if absent.tally else 'Not'} {absent.kind}: {absent.name}"
            items.append(Item("agg:" + hashlib.sha1(f"{head}|{key}".encode()).hexdigest()[:12], "graph",
                              f"{head} → {key}: {absent.count} of {base.size} patients", top - 0.5, "aggregate",
                              conds, count=replace(absent, cohort=base.cohort, size=base.size, taking=base.taking)))
        for key, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            kind, name = key.split(": ", 1)
            items.append(Item("agg:" + hashlib.sha1(f"{head}|{key}".encode()).hexdigest()[:12], "graph",
                              f"{head} → {key}: {c} of {base.size} patients", float(c), "aggregate", conds,
                              count=CohortCount(base.cohort, base.size, kind.casefold(), name, c, taking=base.taking,
                                                unknown=unread.get(kind.casefold(), 0))))
        return items

    def _negated(self, text: str, conds: set[str], drugs: set[str], labs: set[str], classes: list[tuple[str, list[str]]]
                 ) -> tuple[set[str], set[str], set[str], list[tuple[str, str, frozenset[str]]], set[str]]:
        """The conditions, drugs and labs the question asks about as present, what it asks the patients to lack
        (:meth:`_lacking`: "… not on metformin?" is counted apart, not as taken; "… not had an HbA1c test?" too), and
        the conditions its cohort is without: the negated ones, when it asks something else of that cohort ("… without
        gout take allopurinol?")."""
        lab_stems = {lab: {w[:6] for words in self.lab_words.get(lab, ()) for w in words.split()} for lab in labs}
        neg = negation(text, positions(text, [*((c, "has_condition", self.stems[c]) for c in conds),
                                              *((d, "takes", _stems(self.kg.name(d))) for d in drugs),
                                              *((lab, "has_lab", lab_stems[lab]) for lab in labs)]))
        conds, drugs, present = conds - neg.absent, drugs - neg.absent, labs - neg.absent
        lacking = self._lacking(neg, classes)
        if not (any(rel != "has_condition" or not ids for rel, _, ids in lacking) or drugs or present):
            return conds, drugs, present, lacking, set()
        without = {o for rel, _, ids in lacking if rel == "has_condition" for o in ids}
        return conds, drugs, present, [a for a in lacking if a[0] != "has_condition" or not a[2]], without

    def _lacking(self, neg: Negation, classes: list[tuple[str, list[str]]]) -> list[tuple[str, str, frozenset[str]]]:
        """What the counted patients lack, as (relation, name, ids): a condition or a drug, a class's drugs together
        ("aren't on any statins": none of them; it was the one statin some patient takes), or no ids for none of a
        kind recorded."""
        out, gone = [], set()
        for name, ids in classes:
            if members := set(ids) & neg.absent:
                out.append(("takes", name, frozenset(ids)))
                gone |= members
        for oid in sorted(neg.absent - gone):
            relation, name = self.names.get(oid, ("takes", self.kg.name(oid)))
            out.append((relation, name, frozenset([oid])))
        return out + [(kind, f"any {'medication' if kind == 'takes' else 'condition'}", frozenset())
                      for kind in sorted(neg.nothing, reverse=True)]

    @staticmethod
    def _absent(cohort: list[Any], lacking: list[tuple[str, str, frozenset[str]]]) -> list[CohortCount]:
        """The cohort's patients who lack each of ``lacking`` (:meth:`_lacking`), among those who allow that kind to be
        read (the others are ``unknown``)."""
        out = []
        for relation, name, ids in lacking:
            category, kind = {"takes": ("medications", "medication"), "has_lab": ("labs", "lab")}.get(relation, ("conditions", "condition"))
            readable = [p for p in cohort if p.allows(category)]
            count = sum(1 for p in readable if not any(f.relation == relation and (not ids or f.object_id in ids) for f in p.facts))
            out.append(CohortCount("", 0, kind, name, count, absent=True, unknown=len(cohort) - len(readable)))
        return out

    def _tallies(self, text: str, cohort: list[Any], labs: set[str]) -> list[CohortCount]:
        """The cohort's patients by how many medications or conditions their records list, or results of a named lab,
        as the question asks ("more than 3 medications"), among those who allow that kind to be read (the others are
        ``unknown``)."""
        out = []
        for m in _LAB_TALLY.finditer(text) if labs else ():
            n, how = int(m["n"]) if m["n"].isdigit() else _NUMBERS[m["n"].casefold()], _how(m)
            readable = [p for p in cohort if p.allows("labs")]
            for lab in sorted(labs):
                count = sum(1 for p in readable if _BY_COMPARISON[how](sum(1 for f in p.facts if f.object_id == lab), n))
                name = f"{n} or more {self.names[lab][1]} results" if how == "or more" else \
                    f"{how} {n} {self.names[lab][1]} result{'s' if n != 1 else ''}".strip()
                out.append(CohortCount("", 0, "lab", name, count, unknown=len(cohort) - len(readable), tally=True))
        for m in _TALLY.finditer(text):
            medication = m["kind"].casefold().startswith(("medic", "drug", "med"))
            relation, category, kind = (("takes", "medications", "medication") if medication else
                                        ("has_condition", "conditions", "condition"))
            n = int(m["n"]) if m["n"].isdigit() else _NUMBERS[m["n"].casefold()]
            how = _how(m)
            readable = [p for p in cohort if p.allows(category)]
            count = sum(1 for p in readable
                        if _BY_COMPARISON[how](len({f.object_id for f in p.facts if f.relation == relation}), n))
            name = f"{n} or more {kind}s" if how == "or more" else f"{how} {n} {kind}{'s' if n != 1 else ''}".strip()
            out.append(CohortCount("", 0, kind, name, count, unknown=len(cohort) - len(readable), tally=True))
        return out

    def _counts(self, text: str, cohort: list[Any], drugs: set[str], untaken: list[str], labs: set[str], within: set[str],
                conditioned: set[str], negated: bool = False, when: str = "") -> Counter[str]:
        """The cohort's patients counted by what the question names (medications, labs past a threshold, conditions
        ``within`` the cohort), or by their medications, or (when no condition was named, or the question asks for
        conditions) their conditions other than the cohort's own ``conditioned`` ("the most common conditions among
        patients with gout" counted no condition: every patient there has gout); nothing else when it asks for what they
        lack (``negated``: :meth:`_absent` counts that)."""
        m = _THRESH.search(text)
        above, limit = m is not None and m.group(1).lower() in _ABOVE, float(m.group(2)) if m else 0.0
        counts: Counter[str] = Counter({f"Medication: {self.kg.name(d)}": 0 for d in drugs})
        counts.update({f"Medication: {name}": 0 for name in untaken})  # "diuretics", when no patient takes one
        counts.update({f"Condition: {self.names[c][1]}": 0 for c in within})  # "… with depression have migraine?"
        asked_for = bool(drugs or untaken or labs or within or negated)  # a named class: medications, taken or not
        meds_only, conds_only = _ASKS_MEDS.search(text) is not None, _ASKS_CONDS.search(text) is not None
        meds_only, conds_only = meds_only and not conds_only, conds_only and not meds_only  # "the most common medication":
        # the medications alone (it listed conditions, the most common first, as in a question that names neither)
        lines = {lab: [_lab_line(lab, m, above, when)] + ([_lab_line(lab, None, above, when)] if when and m else []) for lab in labs}
        counts.update({line: 0 for lab in labs for line in lines[lab]})  # a named lab none has is counted 0, as a drug is
        for p in cohort:
            seen: set[str] = set()
            for f in p.facts:
                if f.relation == "takes" and (f.object_id in drugs or not asked_for and not conds_only) and p.allows("medications"):
                    seen.add(f"Medication: {f.object_name}")
                elif f.relation == "has_condition" and (f.object_id in within or (not conditioned or conds_only) and not asked_for
                                                        and not meds_only and f.object_id not in conditioned) and p.allows("conditions"):
                    seen.add(f"Condition: {f.object_name}")
            for lab in labs:  # "… last year": and how many were measured then, which a 0 might only mean
                vals = sorted((f for f in p.facts if f.object_id == lab), key=lambda f: f.on or "")
                if vals and p.allows("labs") and (m is None or (vals[-1].value > limit) == above):
                    seen.add(lines[lab][0])
                if vals and p.allows("labs") and len(lines[lab]) > 1:
                    seen.add(lines[lab][1])
            counts.update(seen)
        return counts

    def _groups(self, text: str, conds: set[str]) -> tuple[list[set[str]], set[str]]:
        """The conditions a patient must have, one of each group (groups joined by "and": "patients with gout and
        hypertension" have both), and those counted within that cohort ("patients with depression (who also) have
        migraine": the cohort is the first, the second a count in it). Both were one cohort of patients with any of them."""
        words = [(w.start(), w[0][:6]) for w in _WORD.finditer(text.casefold())]
        at = {c: min((i for i, stem in words if stem in self.stems[c]), default=-1) for c in conds}
        if (m := _WITHIN.search(text)) and any(at[c] >= m.start("b") for c in conds) and any(0 <= at[c] < m.start("b") for c in conds):
            return [{c for c in conds if at[c] < m.start("b")}], {c for c in conds if at[c] >= m.start("b")}
        if (m := _BOTH.search(text)) and " or " not in m[0].casefold():
            cuts = [j.start() + m.start() for j in re.finditer(r"\s+and\s+(?:also\s+)?", m[0])]
            parts = [{c for c in conds if lo <= at[c] < hi} for lo, hi in zip([-1, *cuts], [*cuts, len(text)], strict=True)]
            if len([g for g in parts if g]) > 1 and all(parts):
                return parts, set()
        return ([conds] if conds else []), set()

    def _lab_statistic(self, cohort: list[Any], lab: str, statistic: str, head: str, conds: set[str],
                       base: CohortCount) -> Item:
        """The ``statistic`` of ``lab``'s latest results over the ``cohort`` patients who allow their labs to be read,
        withheld when fewer than ``MIN_COHORT`` of them were measured (it would point at people)."""
        latest, unit = [], ""
        for p in cohort:
            vals = sorted((f for f in p.facts if f.object_id == lab and f.value is not None), key=lambda f: f.on or "")
            if vals and p.allows("labs"):
                latest.append(float(vals[-1].value))
                unit = unit or str(vals[-1].unit or "")
        k, name = len(latest), self.names[lab][1]
        value = None if k < MIN_COHORT else round(statistics.median(latest) if statistic == "median" else statistics.fmean(latest), 2)
        shown = f"{value:g} {unit}".rstrip() if value is not None else f"not reported (fewer than {MIN_COHORT} measured)"
        key = f"Lab: {name} {statistic} (latest)"
        return Item("agg:" + hashlib.sha1(f"{head}|{key}".encode()).hexdigest()[:12], "graph",
                    f"{head} → {key}: {shown}, {k} of {base.size} patients measured", float(k), "aggregate",
                    tuple(sorted(conds)), count=replace(base, kind="lab", name=name, count=k, statistic=statistic,
                                                        value=value, unit=unit))
