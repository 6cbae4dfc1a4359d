"""Synthetic patients: a seeded patient graph over the KG's drugs and diseases, with PII and consent flags.

``medpath patients synth`` writes ``<home>/patients/patients.json``; :class:`PatientStore` reads it.
Every person here is made up. The format is in docs/formats.md.

- Conditions are KG Disease nodes (common ones first, when the KG has them).
- Medications are KG Drug nodes with a mechanism path of at most 3 hops into one of the patient's
  conditions (the KG's own edges; the gold path files are not read).
- Labs are values over time (HbA1c, LDL, eGFR, ...), drifting from a seeded start.
- Clinical notes are claims whose text holds PII; each lists its ``pii_fields``.
- Consent flags say which categories of facts may be shown (``medications``, ``labs``, ``notes``,
  ``conditions``) and whether the patient counts in aggregations (``research``).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import deque
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from core.errors import InputError, NotFoundError, StoreError
from core.text import fold

__all__ = ["CATEGORIES", "PATIENT_ID", "Patient", "PatientFact", "PatientStore", "patient_ids_in", "synthesize",
           "write_patients"]

FORMAT = "medpath-patients/1"
CATEGORIES = ("conditions", "medications", "labs", "notes")
"""Consent categories of patient facts."""
PII_FIELDS = ("name", "dob", "mrn", "phone", "address")

COMMON_CONDITIONS = (
    "Diabetes mellitus type 2", "Essential hypertension", "Hypertension", "Asthma", "Gout", "Migraine",
    "Chronic myeloid leukemia", "Depressive disorder", "Epilepsy", "Heart failure", "Rheumatoid arthritis",
    "Chronic obstructive pulmonary disease", "Hypercholesterolemia", "Obesity", "Atrial fibrillation",
    "Osteoporosis", "Psoriasis", "Hypothyroidism", "Parkinson disease", "Schizophrenia", "Acne vulgaris",
    "Urinary tract infection", "Bacterial pneumonia", "Peptic ulcer", "Angina pectoris",
)
LABS = {
    "HbA1c": ("%", 5.4, 0.6, ("diabet",)),
    "Fasting glucose": ("mg/dL", 98.0, 12.0, ("diabet",)),
    "LDL cholesterol": ("mg/dL", 115.0, 25.0, ("cholesterol", "hyperlipid", "angina", "heart")),
    "eGFR": ("mL/min/1.73m2", 85.0, 15.0, ("hypertens", "diabet", "gout", "heart")),
    "Systolic blood pressure": ("mmHg", 128.0, 12.0, ("hypertens", "heart", "angina", "fibrillation")),
    "Uric acid": ("mg/dL", 5.5, 1.2, ("gout",)),
    "TSH": ("mIU/L", 2.0, 0.8, ("thyroid",)),
    "ALT": ("U/L", 25.0, 8.0, ()),
}
"""Lab name → (unit, typical start, spread, condition words that make it likely)."""
_FIRST = ("Avery", "Jordan", "Morgan", "Riley", "Casey", "Taylor", "Quinn", "Rowan", "Emerson", "Hayden",
          "Marisol", "Teodor", "Ingrid", "Kwame", "Leilani", "Dmitri", "Saoirse", "Tomasz", "Yuki", "Farah")
_LAST = ("Okafor", "Lindqvist", "Marchetti", "Nakamura", "Delacroix", "Brennan", "Hollis", "Vasquez",
         "Achterberg", "Szymanski", "Whitlock", "Oyelaran", "Castellanos", "Pemberton", "Rasmussen", "Kowalczyk")
_STREETS = ("Alder Lane", "Birch Road", "Cedar Court", "Juniper Way", "Maple Row", "Willow Drive")
_SYMPTOMS = ("fatigue", "mild headache", "better sleep", "no new complaints", "occasional dizziness", "improved energy")


def _fid(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:16]


@dataclass
class PatientFact:
    """One edge of the patient graph, or one clinical note (a claim)."""

    id: str
    """Content hash."""
    patient_id: str
    """PAT_001, ..."""
    category: str
    """conditions, medications, labs or notes (the consent category)."""
    relation: str
    """has_condition, takes, has_lab or note."""
    object_id: str
    """KG id of the condition or drug, the lab name, or the note id."""
    object_name: str
    """Display name."""
    via: str | None = None
    """For a medication: the condition id it is for."""
    value: float | None = None
    """Lab value."""
    unit: str | None = None
    """Lab unit."""
    on: str | None = None
    """ISO date of the measurement, prescription or note."""
    text: str | None = None
    """Note text (holds PII; strip ``pii_fields`` before showing it)."""
    pii_fields: list[str] = field(default_factory=list)
    """Which of the patient's PII fields the text holds."""


@dataclass
class Patient:
    """A synthetic patient."""

    id: str
    """PAT_001, ..."""
    pii: dict[str, str]
    """name, dob, mrn, phone, address: never rendered."""
    consent: dict[str, bool]
    """Per category (``conditions``, ``medications``, ``labs``, ``notes``), and ``research`` for aggregations."""
    facts: list[PatientFact] = field(default_factory=list)
    """The patient's graph edges and notes."""

    def allows(self, category: str) -> bool:
        """Whether the consent lets facts of this category be shown."""
        return bool(self.consent.get(category, True))


def _drugs_for(kg: Any, disease: str, max_hops: int = 3, hub: int = 60) -> list[str]:
    """KG drugs with a directed path of ≤ max_hops into ``disease`` (not through hubs), nearest first."""
    seen = {disease: 0}
    queue = deque([disease])
    found: list[str] = []
    while queue:
        node = queue.popleft()
        if seen[node] >= max_hops:
            continue
        for e in kg.in_edges(node):
            if e.head in seen:
                continue
            seen[e.head] = seen[node] + 1
            ent = kg.node(e.head)
            if ent is not None and ent.type == "Drug":
                found.append(e.head)
            elif kg.degree(e.head) <= hub:
                queue.append(e.head)
    return found


def synthesize(kg: Any, n: int = 50, seed: int = 7, today: date | None = None) -> list[Patient]:
    """``n`` seeded patients over ``kg`` (a :class:`memory.public_kg.PublicKG`)."""
    if n < 1 or n > 999:
        raise InputError("the number of patients must be 1-999")
    rng = random.Random(seed)
    today = today or date(2026, 11, 1)
    pool = _condition_pool(kg, rng)
    weights = [3.0 if i < 10 else 1.0 for i in range(len(pool))]
    patients = []
    for i in range(1, n + 1):
        pid = f"PAT_{i:03d}"
        pii = {
            "name": f"{rng.choice(_FIRST)} {rng.choice(_LAST)}",
            "dob": (date(1940, 1, 1) + timedelta(days=rng.randrange(0, 365 * 60))).isoformat(),
            "mrn": f"MRN{rng.randrange(10**6, 10**7)}",
            "phone": f"555-{rng.randrange(100, 1000)}-{rng.randrange(1000, 10000)}",
            "address": f"{rng.randrange(2, 990)} {rng.choice(_STREETS)}",
        }
        consent = {"conditions": True, "medications": rng.random() > 0.05, "labs": rng.random() > 0.15,
                   "notes": rng.random() > 0.1, "research": rng.random() > 0.1}
        p = Patient(pid, pii, consent)
        chosen: list[tuple[str, list[str]]] = []
        for _ in range(rng.choice((1, 1, 2, 2, 3))):
            c = rng.choices(pool, weights)[0]
            if c not in chosen:
                chosen.append(c)
        _add_conditions(p, chosen, kg, rng, today)
        _add_labs(p, " ".join(fold(kg.name(d)) for d, _ in chosen), rng, today)
        _add_notes(p, chosen, kg, rng, today)
        patients.append(p)
    return patients


def _condition_pool(kg: Any, rng: random.Random) -> list[tuple[str, list[str]]]:
    """Up to 24 diseases that some drug's path reaches: the common conditions first, then seeded others."""
    by_name: dict[str, str] = {}
    for e in kg.entities.values():
        if e.type == "Disease":
            by_name.setdefault(fold(e.name), e.id)
    pool: list[tuple[str, list[str]]] = []
    for name in COMMON_CONDITIONS:
        did = by_name.get(fold(name))
        drugs = _drugs_for(kg, did) if did else []
        if did and drugs and did not in {d for d, _ in pool}:
            pool.append((did, drugs))
    extra = sorted(by_name.values())
    rng.shuffle(extra)
    for did in extra:
        if len(pool) >= 24:
            break
        if did not in {d for d, _ in pool}:
            drugs = _drugs_for(kg, did)
            if drugs:
                pool.append((did, drugs))
    if not pool:
        raise StoreError("the KG has no disease with a drug path; cannot make patients")
    return pool


def _add_conditions(p: Patient, chosen: list[tuple[str, list[str]]], kg: Any, rng: random.Random, today: date) -> None:
    pid = p.id
    for did, drugs in chosen:
        start = today - timedelta(days=rng.randrange(60, 3000))
        p.facts.append(PatientFact(_fid(pid, "has_condition", did), pid, "conditions", "has_condition", did,
                                   kg.name(did), on=start.isoformat()))
        for drug in rng.sample(drugs[:6], k=min(len(drugs[:6]), rng.choice((1, 1, 2)))):
            p.facts.append(PatientFact(_fid(pid, "takes", drug, did), pid, "medications", "takes", drug, kg.name(drug),
                                       via=did, on=(start + timedelta(days=rng.randrange(0, 60))).isoformat()))


def _add_labs(p: Patient, names: str, rng: random.Random, today: date) -> None:
    pid = p.id
    labs = [lab for lab, (_, _, _, words) in LABS.items() if any(w in names for w in words)] or ["ALT"]
    for lab in dict.fromkeys([*labs, rng.choice(sorted(LABS))]):
        unit, mu, sd, _ = LABS[lab]
        value = mu + rng.gauss(0, sd) + (1.6 if lab == "HbA1c" and "diabet" in names else 0.0)
        for k in range(rng.choice((2, 3, 4))):
            on = (today - timedelta(days=90 * (3 - k) + rng.randrange(0, 20))).isoformat()
            value = round(value + rng.gauss(0, sd / 4), 1)
            p.facts.append(PatientFact(_fid(pid, "has_lab", lab, on), pid, "labs", "has_lab", lab, lab,
                                       value=value, unit=unit, on=on))


def _add_notes(p: Patient, chosen: list[tuple[str, list[str]]], kg: Any, rng: random.Random, today: date) -> None:
    pid, pii = p.id, p.pii
    for k in range(rng.choice((1, 2, 3))):
        did, _ = rng.choice(chosen)
        meds = [f.object_name for f in p.facts if f.relation == "takes" and f.via == did] or ["no medication"]
        on = (today - timedelta(days=rng.randrange(1, 400))).isoformat()
        fields = ["name", "mrn", "dob"]
        text = (f"{pii['name']} ({pii['mrn']}, born {pii['dob']}) seen for {kg.name(did)}; continues {meds[0]}. "
                f"Reports {rng.choice(_SYMPTOMS)}.")
        if k == 1:
            text += f" Lives at {pii['address']}; call back on {pii['phone']} about the next review."
            fields += ["address", "phone"]
        note_id = _fid(pid, "note", on, text)
        p.facts.append(PatientFact(note_id, pid, "notes", "note", note_id, f"Clinical note {on}", on=on,
                                   text=text, pii_fields=fields))


def write_patients(patients: list[Patient], path: Path, seed: int) -> None:
    """Write the patients file atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {"format": FORMAT, "seed": seed, "patients": [asdict(p) for p in patients]}
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(body, indent=1))
    tmp.replace(path)


_TOKEN = re.compile(r"[a-z0-9]+")
PATIENT_ID = re.compile(r"\bPAT[_-]?(\d+)\b", re.IGNORECASE)
"""A patient id as people write it: PAT_001, PAT-1, pat001."""


def patient_ids_in(text: str) -> list[str]:
    """The patient ids a text names, normalised to ``PAT_001`` form, in order, without repeats."""
    return list(dict.fromkeys(f"PAT_{int(m):03d}" for m in PATIENT_ID.findall(text)))


class PatientStore:
    """Read-only patient graph, indexed by patient, condition and drug."""

    def __init__(self, patients: list[Patient]) -> None:
        """Index the patients."""
        self.patients = {p.id: p for p in patients}
        self._by_object: dict[str, set[str]] = {}
        for p in patients:
            for f in p.facts:
                if f.relation in ("has_condition", "takes"):
                    self._by_object.setdefault(f.object_id, set()).add(p.id)

    @classmethod
    def load(cls, path: Path) -> PatientStore:
        """Read a patients file; a missing or broken file raises a clear error."""
        if not path.exists():
            raise NotFoundError(f"{path} does not exist; run `medpath patients synth`")
        try:
            body = json.loads(path.read_text())
            if body.get("format") != FORMAT:
                raise ValueError(f"format is {body.get('format')!r}, expected {FORMAT}")
            patients = [Patient(p["id"], dict(p["pii"]), dict(p["consent"]), [PatientFact(**f) for f in p["facts"]])
                        for p in body["patients"]]
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise StoreError(f"cannot read patients from {path}: {exc}") from exc
        return cls(patients)

    def get(self, patient_id: str) -> Patient:
        """One patient; ``NotFoundError`` when unknown."""
        p = self.patients.get(patient_id)
        if p is None:
            raise NotFoundError(f"no patient {patient_id!r}")
        return p

    def visible(self, patient_id: str, categories: tuple[str, ...] = CATEGORIES) -> tuple[list[PatientFact], int]:
        """The patient's facts of these categories that consent allows, and how many were withheld."""
        p = self.get(patient_id)
        shown, withheld = [], 0
        for f in p.facts:
            if f.category not in categories:
                continue
            if p.allows(f.category):
                shown.append(f)
            else:
                withheld += 1
        return shown, withheld

    def with_object(self, object_ids: set[str]) -> set[str]:
        """Patients with a condition or medication among ``object_ids``."""
        out: set[str] = set()
        for oid in object_ids:
            out |= self._by_object.get(oid, set())
        return out

    def note_hits(self, patient_id: str, query: str, k: int = 5) -> tuple[list[tuple[PatientFact, float]], int]:
        """The patient's notes ranked by word overlap with the query (consent applied), and how many were withheld."""
        notes, withheld = self.visible(patient_id, ("notes",))
        words = set(_TOKEN.findall(query.casefold()))
        scored = []
        for f in notes:
            toks = _TOKEN.findall((f.text or "").casefold())
            overlap = sum(1 for t in toks if t in words and len(t) > 2)
            scored.append((f, overlap / (1 + len(toks)) ** 0.5))
        scored.sort(key=lambda x: (-x[1], x[0].on or "", x[0].id))
        return scored[:k], withheld
