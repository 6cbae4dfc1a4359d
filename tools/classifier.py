"""Deterministic rule classifier: which of the four retrieval routes a query takes (SPEC-05).

The rules form an ordered decision tree. The first rule that fires decides, and its ``rule_id`` and
confidence are returned so that the choice can be audited. There is no model and no randomness: the
same query (and the same entity count) always gives the same route.

Order, and why:
1. ``EMPTY-1``: a blank query (HYBRID, confidence 0).
2. ``AGG-1``: counting words ("how many", "number of", "proportion", "most common") with people ("patients", "the
   cohort") are aggregations.
3. ``PAT-0``: counting words about one named patient (an id in the query, or the request's patient) read that
   patient's record: "how many medications is PAT_002 on?" is a graph walk, not a count over every patient.
4. ``AGG-2``: any other counting words are aggregations.
5. ``PAT-*``: a patient id, or "the patient's medications", is a patient-context graph walk.
6. ``TXT-*``: "why", "explain", "evidence", "studies" ask for an explanation from passages.
7. ``ENT-2``: a query that names two or more entities goes to HYBRID.
8. ``REL-1``: relation words ("targets", "interacts", "downstream") ask for an entity-to-entity walk.
9. ``DEF-1``: everything else is HYBRID.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from memory.patients import PATIENT_ID

__all__ = ["RULES", "Classification", "QueryClassifier", "Route", "Rule"]


class Route(StrEnum):
    """The four retrieval routes."""

    GRAPH = "graph"
    AGGREGATION = "aggregation"
    TEXT = "text"
    HYBRID = "hybrid"

    @property
    def query_type(self) -> str:
        """The SPEC-05 query type name (GRAPH, AGGREGATION, TEXT, HYBRID)."""
        return self.name

    @classmethod
    def parse(cls, value: str) -> Route:
        """A route from its name or value, any case; ``ValueError`` names the valid ones."""
        key = str(value).strip().lower()
        for r in cls:
            if key in (r.value, r.name.lower(), {"graph": "structural", "text": "explanatory"}.get(r.value)):
                return r
        raise ValueError(f"unknown route {value!r}; use one of {', '.join(r.value for r in cls)}")


@dataclass(frozen=True)
class Rule:
    """One node of the decision tree."""

    rule_id: str
    """Stable id written to the audit record."""
    route: Route
    """Where the query goes when the rule fires."""
    confidence: float
    """How sure the rule is (hand-set, in [0, 1])."""
    pattern: re.Pattern[str] | None = None
    """Fires when this matches the query (case-insensitive)."""
    min_entities: int | None = None
    """Fires when at least this many entities are named (and ``pattern``, if any, matches)."""
    also: re.Pattern[str] | None = None
    """A second pattern that must match too."""
    patient: bool = False
    """Fires only when the call names one patient: an id in the query, or the request's patient."""

    def fires(self, text: str, entities: int, patient: bool = False) -> bool:
        """True when the rule applies (``patient``: the call names one patient)."""
        if self.patient and not patient:
            return False
        if self.pattern is not None and not self.pattern.search(text):
            return False
        if self.also is not None and not self.also.search(text):
            return False
        return self.min_entities is None or entities >= self.min_entities


@dataclass(frozen=True)
class Classification:
    """The classifier's answer."""

    route: Route
    """The chosen route."""
    rule_id: str
    """The rule that decided."""
    confidence: float
    """That rule's confidence."""
    entities: int = 0
    """How many entities the mention counter found."""

    @property
    def query_type(self) -> str:
        """GRAPH, AGGREGATION, TEXT or HYBRID."""
        return self.route.query_type


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_PEOPLE = _rx(r"\b(patients?|people|persons|subjects|cohort)\b")
_COUNT = _rx(
    r"\bhow (many|often)\b|\b(total )?number of\b|\bcount(s|ed|ing)?\b|\b(proportion|percentage|fraction|prevalence|share)\b"
    r"|\bmost (common|frequent|prescribed)\b|\btop \w+ (across|among|in)\b|\brank\b.*\bby\b|\bby (condition|medication|drug)\b"
)

_PATIENT_REF = _rx(r"\b(this|the|my|our|that) patient('s)?\b")
_PATIENT_FACT = _rx(r"\b(medications?|meds|prescri\w*|conditions?|diagnos\w*|labs?|lab results|history|drugs?|allerg\w*)\b")
_EXPLAIN = _rx(
    r"^\s*(why|explain|describe)\b|\bwhy\b|\bexplain\w*\b|\brationale\b|\breasons?\b|\bevidence\b"
    r"|\b(study|studies|trials?|literature|research|findings|conclude\w*)\b"
)
_RELATION = _rx(
    r"\btarget(s|ed)?\b|\bact(s)? on\b|\binteract\w*\b|\bconnected\b|\b(up|down)stream\b|\bneighbou?rs?\b"
    r"|\brelationships?\b|\binhibit(s|ed)?\b|\bbind(s)?\b|\bactivates?\b|\bpathways?\b"
)

RULES: tuple[Rule, ...] = (
    Rule("AGG-1", Route.AGGREGATION, 0.95, _COUNT, also=_PEOPLE),
    Rule("PAT-0", Route.GRAPH, 0.9, _COUNT, patient=True),
    Rule("AGG-2", Route.AGGREGATION, 0.8, _COUNT),
    Rule("PAT-1", Route.GRAPH, 0.95, PATIENT_ID),
    Rule("PAT-2", Route.GRAPH, 0.85, _PATIENT_REF, also=_PATIENT_FACT),
    Rule("TXT-1", Route.TEXT, 0.9, _EXPLAIN),
    Rule("ENT-2", Route.HYBRID, 0.85, None, min_entities=2),
    Rule("REL-1", Route.GRAPH, 0.8, _RELATION),
    Rule("DEF-1", Route.HYBRID, 0.6),
)
"""The decision tree, in the order it is read."""


class QueryClassifier:
    """Routes a query with :data:`RULES`.

    ``count_entities`` (optional) returns how many KG entities a query names; the pipeline passes the
    entity linker's n-gram scan. Without it, the two-entity rule never fires.
    """

    def __init__(self, count_entities: Callable[[str], int] | None = None, rules: tuple[Rule, ...] = RULES) -> None:
        """Keep the rules and the mention counter."""
        self.rules = rules
        self.count_entities = count_entities

    def classify(self, query: str, entities: int | None = None, patient: bool = False) -> Classification:
        """The route for ``query`` (deterministic); ``entities`` overrides the mention counter, and ``patient`` says
        that the request names a patient (a patient id in the query does too)."""
        text = (query or "").strip()
        if not text:
            return Classification(Route.HYBRID, "EMPTY-1", 0.0, 0)
        if entities is None:
            entities = self.count_entities(text) if self.count_entities else 0
        patient = patient or bool(PATIENT_ID.search(text))
        for rule in self.rules:
            if rule.fires(text, entities, patient):
                return Classification(rule.route, rule.rule_id, rule.confidence, entities)
        return Classification(Route.HYBRID, "DEF-1", 0.6, entities)  # pragma: no cover - DEF-1 always fires
