"""Assertion status of a concept mention in clinical text (ConText categories on negspacy's NegEx).

Each category of ``memory/assertion_rules.yaml`` (negated, hypothetical, historical, uncertain,
possible, family, allergy) is one NegEx pass of negspacy 1.1 over a blank spaCy pipeline with a
sentencizer: negspacy's ``PhraseMatcher`` finds the triggers, drops those a pseudo-trigger overlaps,
and cuts each sentence at termination phrases. This module then asks which trigger governs *this*
mention: the nearest preceding trigger in the mention's segment, or the nearest following one; a
"tight" trigger (a verb such as "stopped") does not reach across a comma, so in "metformin stopped,
insulin started" only metformin is negated. A section header ("ALLERGIES:", "FAMILY HISTORY:")
governs the text up to the next header. No model is downloaded: ``spacy.blank("en")``.

Install the ``gate`` dependencies (negspacy, spaCy) to use it; they are in the base install.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from core.errors import ConfigError

__all__ = ["DEFAULT_RULES", "PRECEDENCE", "Assertion", "AssertionReader", "Cue", "read_yaml"]

DEFAULT_RULES = Path(__file__).resolve().parent.parent / "memory" / "assertion_rules.yaml"
PRECEDENCE = ("allergy", "family", "negated", "hypothetical", "uncertain", "possible", "historical")
"""Order in which a mention's statuses name its one status (``affirmed`` when none applies)."""
_KEYS = ("pseudo_negations", "preceding_negations", "following_negations", "termination")


@dataclass(frozen=True)
class Cue:
    """A trigger that governs a mention."""

    category: str
    text: str
    direction: str
    """``preceding``, ``following`` or ``section``."""
    offset: int = -1
    """Character offset of the trigger in the text."""


@dataclass(frozen=True)
class Assertion:
    """What the text asserts about one concept."""

    found: bool
    """False when no name of the concept occurs in the text (the text does not support the claim)."""
    cues: tuple[Cue, ...] = ()
    mention: str = ""

    @property
    def statuses(self) -> frozenset[str]:
        """Every category that governs the mention."""
        return frozenset(c.category for c in self.cues)

    @property
    def status(self) -> str:
        """One status: the first of ``PRECEDENCE`` that applies, else ``affirmed`` (``absent`` when not found)."""
        if not self.found:
            return "absent"
        return next((s for s in PRECEDENCE if s in self.statuses), "affirmed")

    @property
    def experiencer(self) -> str:
        """``patient``, or ``other`` (a family member or someone else)."""
        return "other" if "family" in self.statuses else "patient"

    def cue_for(self, category: str) -> str:
        """The trigger text of a category ('' when none)."""
        return next((c.text for c in self.cues if c.category == category), "")

    def cue_offset(self, category: str) -> int:
        """Character offset of a category's trigger (-1 when none, or a section header)."""
        return next((c.offset for c in self.cues if c.category == category), -1)

    def to_json(self) -> dict[str, Any]:
        """Plain dictionary."""
        return {"status": self.status, "statuses": sorted(self.statuses), "experiencer": self.experiencer,
                "mention": self.mention, "cues": [vars(c) for c in self.cues]}


@dataclass
class _Category:
    name: str
    negex: Any
    tight: frozenset[str] = field(default_factory=frozenset)
    tight_following: frozenset[str] = field(default_factory=frozenset)


def read_yaml(path: Path, what: str) -> Any:
    """A YAML file's content; ConfigError names the file (not its folder) when it cannot be read or parsed."""
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read {what} {path.name}: {exc}") from exc


def _load_rules(path: Path) -> dict[str, Any]:
    rules = read_yaml(path, "assertion rules")
    if not isinstance(rules, dict) or not isinstance(rules.get("categories"), dict):
        raise ConfigError(f"{path.name}: expected a 'categories' mapping")
    return rules


class AssertionReader:
    """Reads the assertion status of concept mentions; build once (``load``), then call ``read``."""

    def __init__(self, rules: dict[str, Any]) -> None:
        """Build the spaCy pipeline and one NegEx matcher per category from a rules mapping."""
        try:
            import spacy
            from negspacy.negation import Negex
            from negspacy.termsets import termset
        except ImportError as exc:  # pragma: no cover - both are dependencies
            raise ImportError("the assertion gate needs negspacy and spaCy: pip install 'negspacy==1.1.0'") from exc
        self.nlp = spacy.blank("en")
        self.nlp.add_pipe("sentencizer")
        extra_term = [str(t) for t in rules.get("termination_all", [])]
        self.categories: list[_Category] = []
        for name, spec in rules["categories"].items():
            if name not in PRECEDENCE:
                raise ConfigError(f"assertion rules: unknown category {name!r} (known: {', '.join(PRECEDENCE)})")
            spec = spec or {}
            base = termset(spec["base"]).get_patterns() if spec.get("base") else {k: [] for k in _KEYS}
            ts = {
                "pseudo_negations": [*base["pseudo_negations"], *spec.get("pseudo", [])],
                "preceding_negations": [*base["preceding_negations"], *spec.get("preceding", [])],
                "following_negations": [*base["following_negations"], *spec.get("following", [])],
                "termination": [*base["termination"], *spec.get("termination", []), *extra_term],
            }
            ts = {k: sorted({str(x).lower() for x in v}) for k, v in ts.items()}
            negex = Negex(self.nlp, f"context_{name}", ts, extension_name=f"context_{name}")
            tight = frozenset(str(t).lower() for t in spec.get("tight", []))
            self.categories.append(_Category(name, negex, tight, tight | {str(t).lower() for t in spec.get("tight_following", [])}))
        sections = {str(k).lower(): (str(v) if v else "") for k, v in (rules.get("sections") or {}).items()}
        bad = [v for v in sections.values() if v and v not in PRECEDENCE]
        if bad:
            raise ConfigError(f"assertion rules: section maps to unknown category {bad[0]!r}")
        self.sections = sections
        names = "|".join(sorted((re.escape(k) for k in sections), key=len, reverse=True))
        self._header = re.compile(rf"(?:^|\n|\.\s+|;\s*)\s*({names})\s*:", re.IGNORECASE) if names else None

    @classmethod
    def load(cls, path: Path | str | None = None) -> AssertionReader:
        """From a YAML rules file (default: ``memory/assertion_rules.yaml``)."""
        return cls(_load_rules(Path(path) if path else DEFAULT_RULES))

    # -- reading ---------------------------------------------------------------------------
    def read(self, text: str, names: Iterable[str], subjects: Iterable[str] = ()) -> Assertion:
        """The assertion of the concept called by any of ``names`` in ``text``.

        ``subjects`` are names of whom the claim is about (a patient id, an MRN): named between a
        family trigger and the concept, they end the family scope ("Family member thinks PAT_0007's
        HbA1c is 9" is about the patient, reported by a relative). When the concept occurs more than
        once, an occurrence with no cue wins ("Denies chest pain at rest. Chest pain on exertion.");
        otherwise the first occurrence's cues are reported.
        """
        spans = self.find(text, names)
        if not spans:
            return Assertion(found=False)
        doc = self.nlp(text)
        anchors = [doc.char_span(s, e, alignment_mode="expand") for s, e in self.find(text, subjects)]
        # "mother of PAT_0007: LDL 190" is still the mother's: a subject after "of" names whose relative it is
        anchor_starts = [a.start for a in anchors if a is not None and not (a.start and doc[a.start - 1].lower_ == "of")]
        matches = [(c, *c.negex.process_negations(doc)) for c in self.categories]
        first: Assertion | None = None
        for start, end in spans:
            span = doc.char_span(start, end, alignment_mode="expand")
            if span is None:
                continue
            cues = [cue for c, pre, fol, term in matches
                    if (cue := self._governing(doc, span, c, pre, fol, term, anchor_starts if c.name == "family" else ()))]
            section = self._section(text, start)
            if section and section[0] not in {c.category for c in cues}:
                cues.append(Cue(section[0], section[1], "section", -1))
            found = Assertion(found=True, cues=tuple(cues), mention=span.text)
            if not cues:
                return found
            first = first or found
        return first or Assertion(found=False)

    @staticmethod
    def find(text: str, names: Iterable[str]) -> list[tuple[int, int]]:
        """Character spans of any of ``names`` in ``text`` (case-insensitive, whole words), longest name first."""
        found: list[tuple[int, int]] = []
        # ASCII text and name: a name whose lower case is not in the text's cannot match (most names a passage lacks)
        lowered = text.lower() if text.isascii() else None
        for name in sorted({n.strip() for n in names if n and n.strip()}, key=len, reverse=True):
            if lowered is not None and name.isascii() and name.lower() not in lowered:
                continue
            pattern = re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w])", re.IGNORECASE)
            for m in pattern.finditer(text):
                if not any(s <= m.start() < e for s, e in found):
                    found.append(m.span())
        return sorted(found)

    def _governing(self, doc: Any, span: Any, cat: _Category, pre: list, fol: list, term: list,
                   anchors: Sequence[int] = ()) -> Cue | None:
        """The trigger of one category that governs the span: same segment, nearest first.

        A termination phrase inside a trigger ("to" in "used to take") does not cut the trigger's own scope.
        """
        inside = [(s, e) for _, s, e in (*pre, *fol)]
        term = [t for t in term if not any(s <= t[1] < e for s, e in inside)]
        bounds = cat.negex.termination_boundaries(doc, term)
        lo, hi = next(((a, b) for a, b in bounds if a <= span.start < b), (0, len(doc)))
        best: Cue | None = None
        for _, s, e in sorted(pre, key=lambda m: (-m[1], m[1] - m[2])):
            if lo <= s and e <= span.start:
                if any(e <= a < span.start for a in anchors):
                    continue
                text = doc[s:e].text.lower()
                if text in cat.tight and any(t.text == "," for t in doc[e:span.start]):
                    continue
                best = Cue(cat.name, doc[s:e].text, "preceding", doc[s].idx)
                break
        if best is not None:
            return best
        for _, s, e in sorted(fol, key=lambda m: (m[1], m[1] - m[2])):
            if span.end <= s < hi:
                text = doc[s:e].text.lower()
                if text in cat.tight_following and any(t.text == "," for t in doc[span.end:s]):
                    continue
                return Cue(cat.name, doc[s:e].text, "following", doc[s].idx)
        return None

    def _section(self, text: str, offset: int) -> tuple[str, str] | None:
        """(category, header) of the last section header before ``offset``, if it sets a category."""
        if self._header is None:
            return None
        last = None
        for m in self._header.finditer(text, 0, offset):
            if m.end() <= offset:
                last = m
        if last is None:
            return None
        cat = self.sections.get(last.group(1).lower(), "")
        return (cat, last.group(1)) if cat else None
