"""Typed records shared by the memory tiers (episodic scratch-pad and vault)."""

from __future__ import annotations

import hashlib
import math
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["CohortCount", "GateDecision", "MemoryFact", "Salience", "composite_score", "fact_id"]


def fact_id(owner: str, subj: str, rel: str, obj: str, *extra: str) -> str:
    """Content-hash id of a fact (16 hex digits)."""
    raw = "\x1f".join((owner, subj, rel, obj, *extra))
    return hashlib.sha1(raw.encode()).hexdigest()[:16]


@dataclass
class MemoryFact:
    """One remembered triple with its provenance and time columns (epoch seconds)."""

    owner: str
    """Whose memory: a user id, or a patient scope such as ``patient:PAT_001``."""
    subj: str
    """Subject id (a KG id such as ``MESH:D000068877``, or a patient id)."""
    rel: str
    """Relation label."""
    obj: str
    """Object id or value."""
    confidence: float = 1.0
    """The Reviewer's score when the fact was accepted."""
    evidence: str = ""
    """Evidence text the Reviewer saw."""
    store: str = "vault"
    """``episodic`` or ``vault``."""
    first_seen: float = 0.0
    """When the fact was first accepted."""
    last_used: float = 0.0
    """When the fact was last written again or read by a question."""
    use_count: int = 1
    """How many times it was written or read."""
    t_start: float = 0.0
    """Valid time: from when the fact holds."""
    t_end: float | None = None
    """Valid time: when a superseding fact closed it; None while current."""
    recorded_at: float = 0.0
    """System time: when this row was recorded."""
    quality: int = 1
    """1 = Reviewer-accepted (the vault holds nothing else)."""
    thread: str = ""
    """Thread that produced it (episodic scope)."""
    similarity: float = 0.0
    """Filled at query time: similarity of the fact to the question."""
    score: float = 0.0
    """Filled at query time: the composite score."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Anything else a backend returns (e.g. the row id)."""

    @property
    def key(self) -> tuple[str, str, str]:
        """(subj, rel, obj)."""
        return (self.subj, self.rel, self.obj)

    def to_json(self) -> dict[str, Any]:
        """Plain dictionary."""
        return asdict(self)


@dataclass(frozen=True)
class Salience:
    """How important a memory is now: decays with time since last use, raised by use."""

    half_life_s: float = 7 * 86400.0
    """Time for the decay factor to halve."""

    def __call__(self, last_used: float, use_count: int, now: float) -> float:
        """Salience in [0, 1]: ``0.5 ** (age / half_life) * (1 - 0.5 ** use_count)``."""
        age = max(0.0, now - last_used)
        decay = 0.5 ** (age / self.half_life_s) if self.half_life_s > 0 else 1.0
        return decay * (1.0 - 0.5 ** max(1, use_count))


SCORE_WEIGHTS: tuple[float, float, float] = (0.5, 0.3, 0.2)
"""Default weights of :func:`composite_score`: similarity, salience, confidence (a mode in ``router.yaml`` may
set its own)."""


def composite_score(similarity: float, salience: float, confidence: float, weights: tuple[float, float, float]) -> float:
    """``w_sim·similarity + w_sal·salience + w_conf·confidence`` (each input clipped to [0, 1])."""
    ws, wl, wc = weights
    return ws * _clip(similarity) + wl * _clip(salience) + wc * _clip(confidence)


def _clip(v: float) -> float:
    return 0.0 if math.isnan(v) else min(1.0, max(0.0, v))


@dataclass(frozen=True)
class GateDecision:
    """The Reviewer's verdict on what is about to be remembered; only ``accept`` opens the gate."""

    decision: str
    """``accept`` or ``reject``."""
    score: float
    """P(yes) from the reviewer; stored as the fact's confidence."""
    backend: str = "embedded"
    """Which reviewer decided (``embedded`` or ``llm``)."""
    reason: dict[str, Any] = field(default_factory=dict)
    """Why: the object's assertion status, the cue that set it, the policy rule (and the relation it would fit)."""

    @property
    def accepted(self) -> bool:
        """True when the reviewer said yes."""
        return self.decision == "accept"


@dataclass(frozen=True)
class PatientFactView:
    """One patient fact as retrieval shows it (consent already applied): typed from the store to the answer."""

    patient_id: str
    """PAT_001, ..."""
    kind: str
    """``condition``, ``medication`` or ``lab``."""
    name: str
    """The condition's, drug's or lab's display name."""
    for_condition: str | None = None
    """A medication's condition, when the chain shows it."""
    object_id: str = ""
    """The condition's or drug's id in the knowledge graph, as the record holds it ("MESH:D010437")."""
    for_condition_id: str = ""
    """The id of ``for_condition``: two entries of the graph may share its name (Peptic ulcer, disease and phenotype)."""
    value: float | None = None
    """A lab's value."""
    unit: str | None = None
    """A lab's unit."""
    on: str | None = None
    """When (ISO date)."""
    latest: bool = False
    """True for a lab's most recent result."""


@dataclass(frozen=True)
class CohortCount:
    """One count over many patients as the aggregation returns it (consent applied, no patient in it): typed from the
    store to the answer, which never reads the rendered line."""

    cohort: str
    """The condition the cohort is chosen by, as the records name it ("Gout", "Gout or Hyperuricemia"); "" for every
    patient."""
    size: int
    """Patients in the cohort who allow research use; 0 when there were too few to report."""
    kind: str = ""
    """``condition``, ``medication`` or ``lab`` for a count within the cohort; "" for the cohort itself."""
    name: str = ""
    """What is counted ("Metformin", "HbA1c > 7 (latest)")."""
    count: int = 0
    """Patients of the cohort it counts."""
    too_few: bool = False
    """The cohort is smaller than ``tools.routes.MIN_COHORT``: no count is reported."""
    taking: str = ""
    """The medication the cohort is kept to ("Metformin"), for a lab's average over those who take it; "" for none."""
    statistic: str = ""
    """``mean`` or ``median`` for a lab's latest results summed up over the cohort (``count`` of them measured); ""
    for a count."""
    value: float | None = None
    """That statistic, in ``unit``; None when fewer than ``tools.routes.MIN_COHORT`` patients were measured."""
    unit: str = ""
    """The lab's unit ("%", "mg/dL")."""
    of_all: int = 0
    """Every patient counted with no condition or drug named (research consent, the caller's scope): a cohort's share of
    them, for "what proportion of patients have asthma?"; 0 when not counted."""
    unrecorded: str = ""
    """A condition the question names that no patient record holds, in the question's words ("type 1 diabetes"):
    nothing is counted; "" otherwise."""
    nearest: str = ""
    """With ``unrecorded``: the records' conditions that share a word with it ("Diabetes mellitus type 2")."""
    absent: bool = False
    """``count`` is of the patients who do not have or take ``name`` ("How many patients are not on metformin?"); a
    ``name`` of "any condition" or "any medication": those with none of that kind recorded."""
    unknown: int = 0
    """With ``absent``: patients of the cohort whose facts of that kind may not be read, counted neither way."""
    tally: bool = False
    """``count`` is of the patients whose records list as many medications or conditions as ``name`` says ("more than
    3 medications"), among those who allow that kind to be read (``unknown``: the others)."""
    without: str = ""
    """The conditions the cohort's patients do not have ("How many patients without gout take allopurinol?"), as the
    records name them; "" for none."""
    dated: str = ""
    """What the count kept to the stretch of time the question names, in words ("lab results dated in 2025"); "" for
    none."""
    undated: str = ""
    """A stretch of time the question names ("in 2025") that nothing counted could be kept to: who has a condition
    or takes a drug is counted as recorded now; "" otherwise."""
