"""Question intent and mention spans, by ordered regular-expression rules."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.state import Intent

__all__ = ["SLOT_TYPES", "ParsedQuestion", "parse_question"]

_X = r"(?P<x>.+?)"
_Y = r"(?P<y>.+?)"
_VERB_TREAT = (
    r"(?:treat|treats|help(?:s)?(?: with| in| treat)?|work(?:s)? (?:in|for|against|on)|act(?:s)? (?:in|on|against)|"
    r"prevent|prevents|cure|cures|relieve|relieves|alleviate|alleviates|manage|manages|improve|improves|"
    r"reduce|reduces|ameliorate|ameliorates|affect|affects|fight|fights|combat|combats)"
)
_RULES: tuple[tuple[Intent, re.Pattern[str]], ...] = tuple(
    (intent, re.compile(p, re.IGNORECASE))
    for intent, p in (
        (Intent.MECHANISM, rf"^(?:how|in what way|by what mechanism) (?:does|do|can|could|might|would|is|are) {_X} (?:used to )?{_VERB_TREAT} {_Y}$"),
        (Intent.MECHANISM, rf"^(?:what is|explain|describe)?\s*(?:the )?mechanism(?: of action)? (?:of|for|by which) {_X} (?:in|for|against|treats?) {_Y}$"),
        (Intent.MECHANISM, rf"^why (?:does|do|is|are|would) {_X} (?:used to )?{_VERB_TREAT} {_Y}$"),
        (Intent.MECHANISM, rf"^why (?:does|do|is|are|would) {_X} (?:used to |used for |used in )?{_VERB_TREAT}? ?{_Y}$"),
        (Intent.MECHANISM, rf"^how (?:is|are) {_Y} (?:treated|helped|managed|relieved|prevented) (?:by|with) {_X}$"),
        (Intent.MECHANISM, rf"^how (?:is|are) {_X} (?:used )?(?:to treat|for|in) {_Y}$"),
        (Intent.TARGETS, rf"^(?:what|which)(?: proteins?| genes?| receptors?| enzymes?| targets?)? (?:does|do|can) {_X} (?:target|bind(?: to)?|inhibit|act on|interact with|block|activate)$"),
        (Intent.TARGETS, rf"^(?:what (?:is|are)|list|name)?\s*(?:the )?(?:molecular )?targets? of {_X}$"),
        (Intent.INDICATIONS, rf"^(?:what|which)(?: else)?(?: diseases?| conditions?| disorders?)?(?: else)? (?:does|do|can|is|are) {_X} (?:treat|used (?:to treat|for))$"),
        (Intent.INDICATIONS, rf"^(?:what|which) (?:diseases?|conditions?|disorders?) (?:is|are) {_X} (?:used (?:to treat|for)|indicated for)$"),
        (Intent.TREATS, rf"^(?:what|which)(?: else)?(?: \w+)?(?: drugs?| medications?| medicines?| compounds?| agents?| therap(?:y|ies)| treatments?)? (?:treats?|is used (?:to treat|for|against)|are used (?:to treat|for|against)|helps?(?: with| in)?|cures?|can treat|could treat|is effective (?:for|against)|works? (?:for|against)) {_Y}$"),
        (Intent.TREATS, rf"^(?:what|which) (?:is|are) (?:the |a )?(?:drugs?|medications?|treatments?|therap(?:y|ies)) (?:for|of|against) {_Y}$"),
        (Intent.TREATS, rf"^how (?:is|are|can|do you) {_Y} (?:be )?treated$"),
    )
)

SLOT_TYPES: dict[str, dict[str, float]] = {
    "drug": {"Drug": 1.0, "ChemicalSubstance": 0.97, "Protein": 0.7, "GeneFamily": 0.7},
    "disease": {"Disease": 1.0, "PhenotypicFeature": 0.9, "BiologicalProcess": 0.7, "OrganismTaxon": 0.8},
}
"""Type preference of each slot; types not listed weigh 0.6."""

for _w in SLOT_TYPES.values():
    _w.setdefault("*", 0.6)


@dataclass(frozen=True)
class ParsedQuestion:
    """Intent and the raw text of each slot."""

    intent: Intent
    drug: str = ""
    disease: str = ""


def _clean(span: str) -> str:
    span = span.strip().strip("\"'“”")
    span = re.sub(r"^(?:the|a|an|patients? with|people with)\s+", "", span, flags=re.IGNORECASE)
    return span.strip()


def parse_question(question: str) -> ParsedQuestion | None:
    """Match the question against the rules; None when no rule fits (free-text scan follows)."""
    q = " ".join(question.strip().split()).rstrip("?.! ")
    for intent, rx in _RULES:
        m = rx.match(q)
        if m:
            groups = m.groupdict()
            return ParsedQuestion(intent, _clean(groups.get("x") or ""), _clean(groups.get("y") or ""))
    return None
