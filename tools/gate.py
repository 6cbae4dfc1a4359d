"""The Reviewer's gate for remembered claims: assertion status first, then a policy per relation.

``decide`` reads the claim's object mention in its evidence (``tools.assertion``) and applies
``memory/gate_policy.yaml``: a mention is accepted when every status that governs it is one the
relation accepts. The decision carries its reason (status, cue, rule, and the relation the text
would fit instead), which memory keeps beside the fact or in its gate log.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import ConfigError
from memory.records import GateDecision
from tools.assertion import PRECEDENCE, Assertion, AssertionReader, read_yaml

__all__ = ["DEFAULT_POLICY", "ClaimGate", "GatePolicy", "Rule", "contradictions", "decide"]

DEFAULT_POLICY = Path(__file__).resolve().parent.parent / "memory" / "gate_policy.yaml"
ACCEPT_SCORE = {"affirmed": 0.95, "historical": 0.8, "possible": 0.7}
"""Confidence stored with an accepted fact, by status (the most doubtful status present sets it)."""


@dataclass(frozen=True)
class Rule:
    """What one relation accepts."""

    name: str
    accept: frozenset[str]
    fits: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class GatePolicy:
    """Rules per relation (exact, then ``prefix:*`` patterns), and the default."""

    rules: dict[str, Rule]
    default: Rule

    @classmethod
    def load(cls, path: Path | str | None = None) -> GatePolicy:
        """From YAML (default ``memory/gate_policy.yaml``); a broken file raises ConfigError naming it."""
        path = Path(path) if path else DEFAULT_POLICY
        raw = read_yaml(path, "gate policy")
        if not isinstance(raw, dict) or not isinstance(raw.get("default"), dict):
            raise ConfigError(f"{path.name}: expected 'default' and 'relations' mappings")
        rules = {str(k): cls._rule(str(k), v, path) for k, v in (raw.get("relations") or {}).items()}
        return cls(rules, cls._rule("default", raw["default"], path))

    @staticmethod
    def _rule(name: str, spec: Any, path: Path) -> Rule:
        if not isinstance(spec, dict):
            raise ConfigError(f"{path.name}: rule {name!r} must be a mapping")
        accept = frozenset(str(s) for s in spec.get("accept") or [])
        fits = {str(k): str(v) for k, v in (spec.get("fits") or {}).items()}
        unknown = (accept | set(fits)) - set(PRECEDENCE)
        if unknown:
            raise ConfigError(f"{path.name}: rule {name!r} names unknown status {min(unknown)!r}")
        return Rule(name, accept, fits)

    def rule_for(self, relation: str) -> Rule:
        """The rule of a relation: exact match, then the first matching pattern, then the default."""
        if relation in self.rules:
            return self.rules[relation]
        return next((r for k, r in self.rules.items() if "*" in k and fnmatch.fnmatchcase(relation, k)), self.default)


def decide(assertion: Assertion, relation: str, policy: GatePolicy) -> GateDecision:
    """Accept or reject one claim from its object's assertion; the reason says status, cue and rule."""
    rule = policy.rule_for(relation)
    reason: dict[str, Any] = {"status": assertion.status, "statuses": sorted(assertion.statuses), "rule": rule.name,
                              "cue": "", "cue_category": ""}
    if not assertion.found:
        reason["why"] = "the evidence does not name the object"
        return GateDecision("reject", 0.0, "embedded", reason)
    blocking = [s for s in PRECEDENCE if s in assertion.statuses and s not in rule.accept]
    if blocking:
        status = blocking[0]
        reason.update(cue=assertion.cue_for(status), cue_category=status,
                      why=f"{status} (cue \"{assertion.cue_for(status)}\") is not accepted for {relation}")
        if status in rule.fits:
            reason["fits"] = rule.fits[status]
            reason["why"] += f"; the statement would fit {rule.fits[status]}"
        return GateDecision("reject", 0.05, "embedded", reason)
    present = [s for s in ("possible", "historical") if s in assertion.statuses]
    if present:
        reason.update(cue=assertion.cue_for(present[0]), cue_category=present[0])
    score = min([ACCEPT_SCORE["affirmed"], *(ACCEPT_SCORE[s] for s in present)])
    return GateDecision("accept", score, "embedded", reason)


class ClaimGate:
    """The assertion reader and the policy together: ``decide(evidence, object names, relation)``."""

    def __init__(self, reader: AssertionReader, policy: GatePolicy) -> None:
        """Bind a loaded reader and policy."""
        self.reader, self.policy = reader, policy

    @classmethod
    def load(cls, rules: Path | str | None = None, policy: Path | str | None = None) -> ClaimGate:
        """From the YAML files (defaults: the shipped ``memory/assertion_rules.yaml`` and ``gate_policy.yaml``)."""
        return cls(AssertionReader.load(rules), GatePolicy.load(policy))

    def decide(self, evidence: str, object_names: Any, relation: str, subject_names: Any = ()) -> GateDecision:
        """The gate's decision on one claim (``subject_names``: whom the claim is about, see ``AssertionReader.read``)."""
        assertion = self.reader.read(evidence, [str(n) for n in object_names], [str(n) for n in subject_names])
        return decide(assertion, relation, self.policy)


CONTRADICTING = ("negated", "hypothetical", "uncertain", "possible")
"""Statuses of an edge's tail in a passage that naming both ends that keep the passage from supporting the edge."""


def contradictions(get_reader: Callable[[], AssertionReader], triples: list[dict[str, str]], passages: list[str],
                   aliases: Callable[[str], Any] | None = None) -> list[dict[str, str]]:
    """Passages that name an edge's head, then a negation, hypothesis or hedge, then its tail ("imatinib does not
    inhibit EGFR" does not support imatinib → EGFR). ``aliases(id)`` gives more names.
    The reader (spaCy) is only built when some passage names both ends of an edge."""
    found = []
    for t in triples:
        heads = [t["head_name"], *(aliases(t["head"]) if aliases else ())]
        tails = [t["tail_name"], *(aliases(t["tail"]) if aliases else ())]
        for p in passages:
            head_at = AssertionReader.find(p, heads)
            tail_at = AssertionReader.find(p, tails) if head_at else []
            if not (head_at and tail_at):
                continue
            a = get_reader().read(p, tails, heads)
            # the cue must sit between the two ends, as in "X does not inhibit Y"; "No association of X with Y"
            # negates the association, which says nothing against the edge
            bad = [s for s in CONTRADICTING if s in a.statuses
                   and any(h[1] <= a.cue_offset(s) < t[0] for h in head_at for t in tail_at)]
            if bad:
                found.append({"head": t["head"], "relation": t["relation"], "tail": t["tail"], "status": bad[0],
                              "cue": a.cue_for(bad[0])})
    return found
