"""Whether a drug class acts on a target: "do statins target HMG-CoA reductase?", "do all NSAIDs inhibit COX-1?",
"do they all target HMG-CoA reductase?" after "what are some statins?".

Such a question was asked as how the class acts on the target, whose routes leave out a single step: "Statins act on
3-hydroxy-3-methylglutaryl-coenzyme A reductase … through: simvastatin hydroxy acid (1 of 8)", as if only simvastatin
did; "do all statins …" and "do statins all …" were `NOT_FOUND` ("all statins" is no name), and "do NSAIDs inhibit
COX-1?" was answered for indomethacin alone. It is asked as "which statins target …?" is (the class's drugs that act on
it), and the answer opens with how many of the class's drugs do, by the knowledge graph's edges.
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import and_listed, listing
from agents.class_member import class_drugs
from agents.intent import ParsedQuestion
from agents.state import LISTED_DRUGS, Intent, State
from core.text import fold
from tools.answers import BECOMES
from tools.path_ranker import effect

__all__ = ["class_acts_on", "class_verdict"]

_QUANTIFIED = re.compile(r"^(?:all|any|both|each|every|the)\s+(?:of\s+the\s+)?|\s+(?:all|both|each)$", re.IGNORECASE)
"""The words around a class that count its drugs ("all statins", "statins all")."""
_YES_NO = re.compile(r"^(?:so |and |but |ok,? |then )?(?:do|does|did|can|could|will|would)\b", re.IGNORECASE)
"""A question asked for a yes or a no."""
_LOWERING = re.compile(r"\b(?:inhibit|block|antagoni[sz]e|suppress)", re.IGNORECASE)
"""The verbs that only a step lowering the target answers ("do NSAIDs inhibit COX-1?"); "target" takes any step."""
SHOWN = 5
"""The class's drugs named as those the graph records no such step for; the rest are counted."""


def class_acts_on(parsed: ParsedQuestion | None, linker: Any) -> ParsedQuestion | None:
    """"Which statins target HMG-CoA reductase?" for "do (all) statins target HMG-CoA reductase?": a question relating
    a drug class (no drug of that name) to a target by a targeting verb; ``parsed`` unchanged for any other."""
    if parsed is None or parsed.intent is not Intent.RELATION or parsed.y_slot != "target":
        return parsed
    words = _QUANTIFIED.sub("", parsed.drug.strip())
    if not words or linker.exact(words) or not linker.drug_class(words):
        return parsed
    return ParsedQuestion(Intent.TARGETED_BY, disease=parsed.disease, among=words)


def class_verdict(state: State, kg: Any, linker: Any) -> str:
    """How many of the class's drugs (one per name, as the class table lists them) act on the question's target by
    an edge of the graph, or through what they become ("Simvastatin —has metabolite→ simvastatin hydroxy acid
    —decreases activity of→ …"), before the answer to "do statins target …?"; "" for any other question."""
    if state.intent != Intent.TARGETED_BY.value or not state.drug_class or state.drug_class == LISTED_DRUGS \
            or not state.targets or not _YES_NO.match(state.asked.strip()):
        return ""
    lowering = bool(_LOWERING.search(state.asked))
    ids: dict[str, list[str]] = {}
    for c in linker.drug_class(state.drug_class):
        ids.setdefault(fold(c.name), []).append(c.id)
    members = class_drugs(linker, state.drug_class)
    direct, through, other = [], [], []
    for d in members:
        own = ids[fold(d.name)]
        if any(_acts(kg, x, state.targets, lowering) for x in own):
            direct.append(d.name)
        elif found := next((m for x in own for m in _becomes(kg, x) if _acts(kg, m, state.targets, lowering)), None):
            through.append(f"{d.name} through {kg.name(found)}")
        else:
            other.append(d.name)
    n, acting = len(members), len(direct) + len(through)
    if not acting:
        return ""
    verb = "inhibit" if lowering else "act on"
    target, cls = kg.name(state.targets[0]), state.drug_class
    how = f" ({len(direct)} directly; {listing(through)})" if through else ""
    if not other:
        return f"Yes: all {n} {cls} that the class table lists {verb} {target} in the knowledge graph{how}. "
    more = f" and {len(other) - SHOWN} more" if len(other) > SHOWN else ""
    return (f"Not all: {acting} of the {n} {cls} that the class table lists {verb} {target} in the knowledge graph{how}; "
            f"it records no such step for {and_listed(other[:SHOWN]) if not more else ', '.join(other[:SHOWN])}{more}. ")


def _becomes(kg: Any, drug: str) -> list[str]:
    """What a drug becomes in the body by an edge of the graph (its metabolites, what it produces)."""
    return [e.tail for e in kg.out_edges(drug) if e.relation in BECOMES]


def _acts(kg: Any, entity: str, targets: list[str], lowering: bool) -> bool:
    """Whether an edge of the graph leads from ``entity`` into a target: one that lowers it, when ``lowering``."""
    return any(e.tail in targets and (not lowering or effect([e.relation]) < 0) for e in kg.out_edges(entity))
