"""What each listed drug acts on, when the drugs an answer listed share no target: "how do they work?" after "What is
PAT_002 taking?".

A drug class's answer counts how many of its drugs act on each target ("Statins … act on: HMG-CoA reductase (8 of
8)"). A patient's medications seldom share one, and the count said only "(1 of 3)" for each target, without which
drug it was: "The listed drugs in the knowledge graph act on: Sodium-dependent noradrenaline transporter (1 of 3),
Tumor necrosis factor (1 of 3), …". Here each drug is named with what it acts on directly or through what it
becomes (``tools.answers.direct_chains``, as the count reads it).
"""

from __future__ import annotations

from typing import Any

from agents.answer_notes import and_listed, sentence
from agents.state import LISTED_DRUGS, Intent, State
from tools.answers import direct_chains

__all__ = ["each_listed_drug"]

SHOWN = 3
"""Targets named per drug; the rest are counted."""


def _otherwise(kg: Any, drug: str) -> str:
    """What a drug with no target of the asked kinds does in the graph ("Haloprogin disrupts plasma membrane")."""
    edges = list(kg.out_edges(drug))[:SHOWN]
    done = and_listed([f"{e.relation} {kg.name(e.tail)}" for e in edges])
    return f"{kg.name(drug)} {done}" if edges else f"{kg.name(drug)} has no edge of its own in the knowledge graph"


def each_listed_drug(state: State, kg: Any, best: list[dict[str, str]]) -> tuple[str, list[dict[str, str]]] | None:
    """The answer and its items when the listed drugs (two or more, not compared) share no target, ``best`` the
    evidence path it ends with; None for any other question."""
    if state.intent != Intent.TARGETS.value or state.drug_class != LISTED_DRUGS or state.compared or len(state.among) < 2:
        return None
    if any(a["path"]["features"].get("class_drugs", 0) > 1 for a in state.ranked_answers):
        return None  # a target two of them act on: the count says it
    wanted = set(state.goal_types)
    parts, items = [], []
    for drug in state.among:
        targets = list(dict.fromkeys(c[-1].tail for c in direct_chains(kg, drug) if (n := kg.node(c[-1].tail)) and n.type in wanted))
        named = [kg.name(t) for t in targets[:SHOWN]]
        more = f" and {len(targets) - SHOWN} more" if len(targets) > SHOWN else ""
        parts.append(f"{kg.name(drug)} acts on {and_listed(named)}{more}" if named else _otherwise(kg, drug))
        items += [{"id": t, "name": kg.name(t)} for t in targets[:SHOWN]]
    text = f"The listed drugs act on no target in common in the knowledge graph: {'; '.join(parts)}."
    return f"{text} Best evidence: {sentence(best)}.", items
