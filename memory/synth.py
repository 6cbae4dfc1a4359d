"""Seeded synthetic memory stream: events over simulated days, and probes with expected answers.

Some cases are deliberately beyond the embedded Reviewer: a switch may name the new drug
by an alias only, and a hearsay mention may carry no hedge word ("a neighbour claims").
The stream exercises what MIRIX-Slim must get right: facts that are later superseded
(medication switched, lab value updated), low-quality candidates the Reviewer must reject
(hedged, negated, or evidence that does not name the object), repeated and conflicting
mentions, and facts scoped to one user that must never reach another. Drugs, conditions
and mechanism facts are drawn from the real DrugMechDB graph. Formats: ``docs/formats.md``.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.datasets import load_nodes, load_triples

__all__ = ["START", "StreamSpec", "iso", "parse_ts", "synth_stream", "write_stream"]

START = datetime(2026, 1, 5, 8, 0, tzinfo=UTC).timestamp()
"""Day 0, 08:00 UTC: the stream's clock starts here."""
DAY = 86400.0
LABS = {
    "HbA1c": ("%", 5.0, 11.0, 1),
    "LDL": ("mg/dL", 60.0, 190.0, 0),
    "eGFR": ("mL/min/1.73m2", 25.0, 110.0, 0),
    "Potassium": ("mmol/L", 3.2, 5.6, 1),
}


def iso(ts: float) -> str:
    """Epoch seconds → ``YYYY-MM-DDTHH:MM:SSZ``."""
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_ts(value: Any) -> float:
    """ISO 8601 text (``Z`` or offset) or epoch seconds → epoch seconds."""
    if isinstance(value, int | float):
        return float(value)
    text = str(value).strip().replace("Z", "+00:00")
    dt = datetime.fromisoformat(text)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.timestamp()


@dataclass(frozen=True)
class StreamSpec:
    """Size of the generated stream (defaults give about 7k events)."""

    seed: int = 7
    users: int = 30
    patients: int = 300
    days: int = 7
    kg_facts_per_user: int = 25


VALID_MED = ("Medication reconciliation for {pid}: taking {drug} daily.",
             "{pid} med list reviewed: {drug} once daily, adherent.",
             "Discharge medications for {pid} include {drug}.",
             "Pharmacy confirms {pid} refilled {drug} this month.")
SWITCH = ("{pid} switched from {old} to {new} after review.",
          "{old} stopped, {new} started for {pid}.",
          "For {pid}: {old} was discontinued; {new} begun instead.",
          "{pid}: {old} changed to {new} today.")
REPEAT = ("Follow-up note: {pid} continues {drug} as prescribed.",
          "{pid} still taking {drug}; may adjust the dose next week.",
          "Continue {drug} for {pid}, no side effects.")
HEDGED_MED = ("Unverified: a relative says {pid} might be taking {drug}?",
              "A neighbour claims {pid} is on {drug} now.",
              "{pid}'s friend thinks he takes {drug}, unconfirmed.")
NEGATED = ("{pid} denies {drug}; never prescribed.",
           "{pid} is no longer taking {drug}.",
           "{pid} denies any use of {drug}.")
NOT_CURRENT = (("plan", "Consider starting {drug} for {pid} at the next visit."),
               ("plan", "Plan: may begin {drug} for {pid} if symptoms persist."),
               ("allergy", "{pid} is allergic to {drug} (rash)."),
               ("past", "{pid} was on {drug} years ago."))
FAMILY_LAB = ("{pid}'s brother had a {lab} of {value}.",
              "Mother of {pid}: {lab} {value} last month.")
"""Phrasings per event label; the gate is never tuned to them (its rules come from clinical note conventions)."""


@dataclass
class _Chart:
    """One patient's fixed facts while their days are generated."""

    owner: str
    pid: str
    aliases: list[str]
    labs: list[str]
    values: dict[str, str]


class _Gen:
    def __init__(self, spec: StreamSpec, data_dir: Path) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)
        nodes = load_nodes(data_dir / "drugmechdb" / "nodes.tsv")
        self.names = {n.id: n.name for n in nodes}
        self.aliases = {n.id: [a for a in n.aliases if a.isascii() and len(a) > 3] for n in nodes}
        self.drugs = sorted(n.id for n in nodes if n.type == "Drug")
        self.diseases = sorted(n.id for n in nodes if n.type == "Disease")
        self.triples = [t for t in load_triples(data_dir / "drugmechdb" / "triples.tsv")
                        if t.head in self.names and t.head.startswith(("MESH:", "DB")) and t.tail.startswith("UniProt:")]
        self.events: list[dict[str, Any]] = []
        self.probes: list[dict[str, Any]] = []
        self.truth: dict[tuple[str, str, str], list[tuple[float, str]]] = defaultdict(list)

    def _ts(self, day: int) -> float:
        return START + day * DAY + self.rng.randint(0, 10 * 3600)

    def event(self, ts: float, owner: str, subj: str, aliases: list[str], rel: str, obj: str, obj_name: str,
              evidence: str, supersedes: bool, label: str) -> None:
        self.events.append({"ts": ts, "owner": owner, "thread": f"{owner}-d{int((ts - START) // DAY)}", "subj": subj,
                            "subj_aliases": aliases, "rel": rel, "obj": obj, "obj_name": obj_name, "evidence": evidence,
                            "supersedes": supersedes, "label": label})
        if label in ("valid", "repeat", "switch", "lab_update") and supersedes:
            self.truth[(owner, subj, rel)].append((ts, obj))

    def patient(self, i: int) -> None:
        rng = self.rng
        pid = f"PAT_{i:04d}"
        mrn = f"MRN-{rng.randint(100000, 999999)}"
        owner = f"u{(i % self.spec.users) + 1:02d}"
        aliases = [mrn]
        for cond in rng.sample(self.diseases, rng.randint(1, 2)):
            self.event(self._ts(0), owner, pid, aliases, "has_condition", cond, self.names[cond],
                       f"Problem list for {pid}: {self.names[cond]} (confirmed diagnosis).", False, "valid")
        med = rng.choice(self.drugs)
        self.event(self._ts(0), owner, pid, aliases, "current_medication", med, self.names[med],
                   rng.choice(VALID_MED).format(pid=pid, drug=self.names[med]), True, "valid")
        labs = rng.sample(sorted(LABS), 2)
        values = {}
        for lab in labs:
            values[lab] = self._lab_value(lab)
            self.event(self._ts(0), owner, pid, aliases, f"lab:{lab}", values[lab], values[lab],
                       f"Lab result for {pid}: {lab} {values[lab]} {LABS[lab][0]}.", True, "valid")
        for day in range(1, self.spec.days):
            med = self._day(day, _Chart(owner, pid, aliases, labs, values), med)
        self._probes(i, owner, pid, mrn, labs)

    def _day(self, day: int, chart: _Chart, med: str) -> str:
        """One day of one patient's events (lab updates, hedged and negated mentions, switches); the medication after it."""
        rng = self.rng
        owner, pid, aliases, labs, values = chart.owner, chart.pid, chart.aliases, chart.labs, chart.values
        for lab in labs:
            if rng.random() < 0.6:
                new = self._lab_value(lab, exclude=values[lab])
                values[lab] = new
                self.event(self._ts(day), owner, pid, aliases, f"lab:{lab}", new, new,
                           f"Lab result for {pid}: {lab} {new} {LABS[lab][0]} (updated).", True, "lab_update")
            if rng.random() < 0.2:
                wrong = self._lab_value(lab, exclude=values[lab])
                self.event(self._ts(day), owner, pid, aliases, f"lab:{lab}", wrong, wrong,
                           f"Family member thinks {pid}'s {lab} was maybe around {wrong}?", True, "hedged")
        if rng.random() < 0.12:
            new = rng.choice([d for d in self.drugs if d != med])
            said = rng.choice(self.aliases[new]) if self.aliases[new] and rng.random() < 0.5 else self.names[new]
            self.event(self._ts(day), owner, pid, aliases, "current_medication", new, self.names[new],
                       rng.choice(SWITCH).format(pid=pid, old=self.names[med], new=said), True, "switch")
            med = new
        if rng.random() < 0.5:
            self.event(self._ts(day), owner, pid, aliases, "current_medication", med, self.names[med],
                       rng.choice(REPEAT).format(pid=pid, drug=self.names[med]), True, "repeat")
        if rng.random() < 0.35:
            other = rng.choice(self.drugs)
            if other != med:
                self.event(self._ts(day), owner, pid, aliases, "current_medication", other, self.names[other],
                           rng.choice(HEDGED_MED).format(pid=pid, drug=self.names[other]), True, "hedged")
        if rng.random() < 0.06:
            other = rng.choice(self.drugs)
            if other != med:
                self.event(self._ts(day), owner, pid, aliases, "current_medication", other, self.names[other],
                           f"A neighbour claims {pid} is on {self.names[other]} now.", True, "hedged")
        if rng.random() < 0.15:
            other = rng.choice(self.drugs)
            if other != med:
                self.event(self._ts(day), owner, pid, aliases, "current_medication", other, self.names[other],
                           rng.choice(NEGATED).format(pid=pid, drug=self.names[other]), True, "negated")
        if rng.random() < 0.12:  # plans, allergies and past use: about a drug, but not a current medication
            other = rng.choice(self.drugs)
            if other != med:
                label, text = rng.choice(NOT_CURRENT)
                self.event(self._ts(day), owner, pid, aliases, "current_medication", other, self.names[other],
                           text.format(pid=pid, drug=self.names[other]), True, label)
        if rng.random() < 0.05:
            lab = rng.choice(labs)
            wrong = self._lab_value(lab, exclude=values[lab])
            self.event(self._ts(day), owner, pid, aliases, f"lab:{lab}", wrong, wrong,
                       rng.choice(FAMILY_LAB).format(pid=pid, lab=lab, value=wrong), True, "family_lab")
        if rng.random() < 0.15:
            other = rng.choice(self.drugs)
            if other != med:
                self.event(self._ts(day), owner, pid, aliases, "current_medication", other, self.names[other],
                           f"Phone call with {pid}'s family about the parking permit and visiting hours.", True, "irrelevant")
        return med

    def _probes(self, i: int, owner: str, pid: str, mrn: str, labs: list[str]) -> None:
        """The questions asked of this patient at the end (current, as of a past time, and a leak attempt)."""
        rng = self.rng
        end = START + self.spec.days * DAY + 2 * 3600
        for rel in ["current_medication", *(f"lab:{lab}" for lab in labs)]:
            subj = mrn if rng.random() < 0.3 else pid
            self.probe(end, owner, subj, rel, self._truth_at(owner, pid, rel, end), "current")
        if rng.random() < 0.4:
            rel = rng.choice(["current_medication", *(f"lab:{lab}" for lab in labs)])
            first = min(ts for ts, _ in self.truth[(owner, pid, rel)])
            at = rng.uniform(first + 60, START + self.spec.days * DAY - 60)
            self.probe(at, owner, pid, rel, self._truth_at(owner, pid, rel, at), "as_of")
        if rng.random() < 0.33:
            intruder = f"u{((i + 1 + rng.randint(0, self.spec.users - 2)) % self.spec.users) + 1:02d}"
            if intruder != owner:
                self.probe(end, intruder, pid, "current_medication", None, "leak")

    def kg_facts(self, user: int) -> None:
        owner = f"u{user:02d}"
        picks = self.rng.sample(self.triples, self.spec.kg_facts_per_user)
        slots: dict[tuple[str, str], set[str]] = defaultdict(set)
        for t in picks:
            slots[(t.head, t.relation)].add(t.tail)
            day = self.rng.randint(0, self.spec.days - 1)
            self.event(self._ts(day), owner, t.head, [self.names[t.head]], t.relation, t.tail, self.names.get(t.tail, t.tail),
                       f"Reviewed mechanism: {self.names[t.head]} {t.relation} {self.names.get(t.tail, t.tail)} (DrugMechDB).",
                       False, "kg_fact")
        end = START + self.spec.days * DAY + 2 * 3600
        for (head, rel), tails in sorted(slots.items())[:5]:
            if len(tails) == 1:
                self.probe(end, owner, self.names[head], rel, next(iter(tails)), "kg")

    def _lab_value(self, lab: str, exclude: str | None = None) -> str:
        _, lo, hi, nd = LABS[lab]
        while True:
            v = f"{self.rng.uniform(lo, hi):.{nd}f}"
            if v != exclude:
                return v

    def _truth_at(self, owner: str, subj: str, rel: str, ts: float) -> str | None:
        past = [(t, o) for t, o in self.truth[(owner, subj, rel)] if t <= ts]
        return max(past)[1] if past else None

    def probe(self, ts: float, owner: str, subj: str, rel: str, expected: str | None, kind: str) -> None:
        self.probes.append({"ts": ts, "owner": owner, "subj": subj, "rel": rel, "expected": expected, "kind": kind,
                            "day": int((ts - START) // DAY)})


def synth_stream(spec: StreamSpec, data_dir: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Generate (events, probes), each sorted by time, with ids and ISO timestamps."""
    g = _Gen(spec, data_dir)
    for i in range(1, spec.patients + 1):
        g.patient(i)
    for u in range(1, spec.users + 1):
        g.kg_facts(u)
    g.events.sort(key=lambda e: (e["ts"], e["owner"], e["subj"], e["rel"], e["obj"]))
    g.probes.sort(key=lambda p: (p["ts"], p["owner"], p["subj"], p["rel"]))
    for n, e in enumerate(g.events, 1):
        e["id"] = f"ev-{n:06d}"
        e["ts"] = iso(e["ts"])
    for n, p in enumerate(g.probes, 1):
        p["id"] = f"pr-{n:05d}"
        p["ts"] = iso(p["ts"])
    key_order = ("id", "ts", "owner", "thread", "subj", "subj_aliases", "rel", "obj", "obj_name", "evidence", "supersedes", "label")
    events = [{k: e[k] for k in key_order} for e in g.events]
    probes = [{k: p[k] for k in ("id", "ts", "owner", "subj", "rel", "expected", "kind", "day")} for p in g.probes]
    return events, probes


def write_stream(events: list[dict[str, Any]], probes: list[dict[str, Any]], out: Path) -> tuple[Path, Path]:
    """Write ``events.jsonl`` and ``probes.jsonl`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = (out / "events.jsonl", out / "probes.jsonl")
    for path, rows in zip(paths, (events, probes), strict=True):
        with path.open("w") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    return paths
