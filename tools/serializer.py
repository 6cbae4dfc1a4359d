"""Two-tier context within token budgets, with PII stripped (SPEC-05).

::

    === PATIENT GRAPH ===          (=== GRAPH === when no patient is in scope)
    Patient: PAT_001 → Condition: Diabetes mellitus type 2 → Medication: metformin
    === SUPPORTING TEXT ===
    [note 2026-03-01] [redacted] ([redacted], born [redacted]) seen for ...

The graph tier gets its budget, the text tier gets its own, and the total is capped; every header and
line is counted with the route's token counter. A line that does not fit is cut (when at least a few
tokens are left) or dropped, and ``truncated`` is set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tools.fanout import Item
from tools.tokens import TokenCounter

__all__ = ["DEFAULT_BUDGETS", "AssembledContext", "Budget", "parse_budgets", "redact", "redact_identifiers", "serialize"]

REDACTED = "[redacted]"
_PATTERNS = (re.compile(r"\bMRN\s*#?\d{5,}\b", re.IGNORECASE), re.compile(r"\b\d{3}-\d{3}-\d{4}\b"))
"""Backstops for identifiers a claim forgot to list in its ``pii_fields``."""
MIN_CUT = 6
"""A line is cut (rather than dropped) only when at least this many tokens are left."""


@dataclass(frozen=True)
class Budget:
    """Token budgets of one route."""

    graph: int = 400
    """Graph tier, header included."""
    text: int = 600
    """Text tier, header included."""
    total: int = 1000
    """Both tiers together."""

    def __post_init__(self) -> None:
        """Refuse negative budgets."""
        if min(self.graph, self.text, self.total) < 0:
            raise ValueError(f"token budgets must not be negative: {self}")


DEFAULT_BUDGETS: dict[str, Budget] = {
    "graph": Budget(graph=400, text=300, total=700),
    "aggregation": Budget(graph=400, text=300, total=700),
    "text": Budget(graph=400, text=800, total=1100),
    "hybrid": Budget(graph=400, text=600, total=1000),
}
"""Per route: graph tier 400, text tier 300–800, and a total cap."""


def parse_budgets(text: str, base: dict[str, Budget] | None = None) -> dict[str, Budget]:
    """Budgets from ``"text=800,hybrid:total=1200"``: ``field=N`` for every route, ``route:field=N`` for one.

    Fields are ``graph``, ``text`` and ``total``; routes are the keys of :data:`DEFAULT_BUDGETS`.
    ``ValueError`` names what is wrong.
    """
    from dataclasses import replace

    out = dict(base or DEFAULT_BUDGETS)
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, value = part.partition("=")
        route, colon, fld = key.strip().rpartition(":")
        if not eq or fld not in ("graph", "text", "total") or (colon and route not in out) or not value.strip().isdigit():
            raise ValueError(f"bad budget {part!r}; write field=N or route:field=N (fields graph, text, total; "
                             f"routes {', '.join(out)})")
        for r in [route] if colon else list(out):
            out[r] = replace(out[r], **{fld: int(value)})
    return out


@dataclass
class AssembledContext:
    """The rendered context and what it cost."""

    text: str
    """The two tiers, rendered."""
    graph_lines: list[str] = field(default_factory=list)
    """Graph-tier lines as rendered."""
    text_lines: list[str] = field(default_factory=list)
    """Text-tier lines as rendered (PII stripped)."""
    tokens: dict[str, int] = field(default_factory=dict)
    """``graph``, ``text`` and ``total`` tokens used."""
    budget: dict[str, int] = field(default_factory=dict)
    """The budgets applied."""
    truncated: bool = False
    """True when a line was cut or dropped to fit."""
    tokenizer: str = "whitespace"
    """``cl100k_base`` or ``whitespace``."""

    def to_json(self) -> dict[str, Any]:
        """Plain dictionary."""
        return {"text": self.text, "graph_lines": self.graph_lines, "text_lines": self.text_lines, "tokens": self.tokens,
                "budget": self.budget, "truncated": self.truncated, "tokenizer": self.tokenizer}


_FREE_TEXT_PATTERNS = (re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.]+\b"), re.compile(r"\b\d{6,}\b"))
_SHAPE_WORDS = frozenset(
    ["a", "about", "act", "acts", "after", "against", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "before", "being", "both", "but", "by", "can", "cause", "causes", "could", "did", "do", "does", "drug", "drugs", "during", "each", "effect", "effects", "either", "else", "end", "explain", "first", "for", "from", "has", "have", "help", "helps", "her", "his", "how", "if", "in", "instead", "into", "is", "it", "its", "last", "list", "many", "mechanism", "medication", "medications", "more", "most", "my", "no", "not", "now", "of", "on", "one", "only", "or", "other", "our", "out", "over", "patient", "patients", "protein", "proteins", "same", "second", "she", "should", "so", "some", "than", "that", "the", "their", "them", "then", "there", "these", "they", "third", "this", "those", "through", "to", "treat", "treated", "treating", "treats", "under", "up", "use", "used", "uses", "via", "was", "we", "were", "what", "when", "where", "which", "while", "who", "why", "will", "with", "work", "works", "would", "you", "your", "target", "targets", "bind", "binds", "inhibit", "inhibits", "block", "blocks", "disease", "diseases", "condition", "conditions", "labs", "lab", "taking", "take", "on", "why", "does", "children", "elderly", "pregnancy", "adults"])


def redact_free_text(text: str, limit: int = 120) -> str:
    """A user's free text made fit for a log line: identifier, phone, e-mail and long-number patterns
    replaced by ``[redacted]``, cut to ``limit`` characters."""
    text = " ".join(text.split())
    for pat in (*_PATTERNS, *_FREE_TEXT_PATTERNS):
        text = pat.sub(REDACTED, text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def redact_identifiers(text: str) -> str:
    """``text`` with identifier, phone, e-mail and long-number patterns replaced by ``[redacted]`` (nothing cut): how
    a question is kept in a conversation's checkpoints. Entity names and patient ids (PAT_001) stay."""
    for pat in (*_PATTERNS, *_FREE_TEXT_PATTERNS):
        text = pat.sub(REDACTED, text)
    return text


def question_shape(question: str, mentions: list[dict[str, Any]], limit: int = 120) -> str:
    """A question with its content taken out, for logs kept without content capture: each linked mention
    becomes its entity type (``<Drug>``), and every other word that is not a common function or question
    word becomes ``…`` ("How does <Drug> treat <Disease>?")."""
    text = " ".join(question.split())
    for m in sorted(mentions, key=lambda m: -len(str(m.get("mention", "")))):
        words = re.findall(r"\w+", str(m.get("mention", "")))
        if not words:
            continue
        label = f"<{m['entity']['type']}>" if m.get("entity") else "<unknown>"
        text = re.sub(r"\b" + r"\W+".join(map(re.escape, words)) + r"\b[^\w\s?]*", label, text, flags=re.IGNORECASE)
    parts = re.split(r"(<\w+>|[^\w<]+)", text)
    out = "".join(p if not p or p.startswith("<") or not re.match(r"\w", p) or p.casefold() in _SHAPE_WORDS else "…"
                  for p in parts)
    return out if len(out) <= limit else out[: limit - 1] + "…"


def redact(text: str, pii: dict[str, str]) -> str:
    """``text`` with every PII value (longest first) and identifier pattern replaced by ``[redacted]``."""
    for value in sorted((v for v in pii.values() if v), key=len, reverse=True):
        text = re.sub(re.escape(value), REDACTED, text, flags=re.IGNORECASE)
    for pat in _PATTERNS:
        text = pat.sub(REDACTED, text)
    return text


def _fill(header: str, lines: list[str], limit: int, counter: TokenCounter) -> tuple[list[str], int, bool]:
    """Header plus as many lines as fit in ``limit`` tokens; (rendered lines, tokens, truncated)."""
    used = counter.count(header + "\n")
    if used > limit:
        return [], 0, bool(lines)
    out: list[str] = []
    cut = False
    for line in lines:
        cost = counter.count(line + "\n")
        if used + cost <= limit:
            out.append(line)
            used += cost
            continue
        cut = True
        room = limit - used - 1
        if room >= MIN_CUT:
            short = counter.truncate(line, room - 1).rstrip() + " …"
            while short and counter.count(short + "\n") > limit - used:
                short = counter.truncate(short, counter.count(short) - 2).rstrip() + " …"
            out.append(short)
            used += counter.count(short + "\n")
        break
    return out, used, cut


def serialize(graph: list[Item], text: list[Item], *, patient: bool, budget: Budget, counter: TokenCounter) -> AssembledContext:
    """Render the two tiers within ``budget``; text items lose their PII first."""
    g_header = "=== PATIENT GRAPH ===" if patient else "=== GRAPH ==="
    t_header = "=== SUPPORTING TEXT ==="
    g_lines = [redact(i.text, i.pii) if i.pii else i.text for i in graph]
    t_lines = [(f"[{i.cite}] " if i.cite else "") + redact(i.text, i.pii) for i in text]
    g_out, g_used, g_cut = _fill(g_header, g_lines, min(budget.graph, budget.total), counter) if g_lines else ([], 0, False)
    t_limit = min(budget.text, budget.total - g_used)
    t_out, t_used, t_cut = _fill(t_header, t_lines, t_limit, counter) if t_lines else ([], 0, False)
    parts = ([g_header, *g_out] if g_used else []) + ([t_header, *t_out] if t_used else [])
    return AssembledContext(
        text="\n".join(parts),
        graph_lines=g_out,
        text_lines=t_out,
        tokens={"graph": g_used, "text": t_used, "total": g_used + t_used},
        budget={"graph": budget.graph, "text": budget.text, "total": budget.total},
        truncated=g_cut or t_cut,
        tokenizer=counter.name,
    )
