"""What a chain's signs say a drug does to a disease, for a question whether it causes, worsens or may be taken with
it ("Does febuxostat cause gout?", "can I take aspirin with a stomach ulcer?"), and which of those questions ask
about side effects or safety, which the knowledge graph does not hold."""

from __future__ import annotations

import re

from agents.intent import CAUSING
from agents.state import Intent, State
from core.datasets import DISEASE_TYPES
from tools.path_ranker import effect


def names_disease(state: State) -> bool:
    """Whether a question linked a disease or a phenotype."""
    return any((m.get("entity") or {}).get("type") in DISEASE_TYPES for m in state.mentions)


def asks_causing(state: State) -> bool:
    """A question whether X causes Y ("Does metformin cause lactic acidosis?", ``agents.intent.CAUSING``)."""
    return state.intent == Intent.RELATION.value and bool(re.search(rf"\b{CAUSING}\b", state.asked, re.IGNORECASE))


_WORSENING = re.compile(r"\b(?:make|makes|making)\s+(?:\S+\s+){1,4}worse\b|\b(?:worsen|aggravat|exacerbat)\w*|\bbad (?:for|in)\b|"
                        r"\b(?:safe|unsafe|dangerous|harmful|contraindicated)\b|\b(?:can|could|may|should|ok|okay|fine|"
                        r"alright|avoid)\b[^?]*\b(?:take|taking|use|using|be on|have)\b", re.IGNORECASE)
"""A question whether X worsens Y, or is safe in it ("is propranolol safe in asthma?"), or may be taken with it ("can I
take aspirin with a stomach ulcer?", "should I avoid propranolol if I have asthma?", told as any mechanism before):
the chain's direction answers."""


def causal_note(state: State, top: list[dict[str, str]]) -> str:
    """For "does X cause Y?", what the chain's signed relations say it does to Y (``tools.path_ranker.effect``):
    "Does febuxostat cause gout?" is answered by the chain through which it lowers gout. So is "is propranolol safe
    in asthma?" or "can it make asthma worse?": its chain lowers a receptor that widens the airways, and so raises
    asthma (it was told as any mechanism)."""
    worsening = state.intent == Intent.RELATION.value and bool(_WORSENING.search(state.asked))
    if not (asks_causing(state) or worsening):
        return ""
    sign = effect([t["relation"] for t in top])
    x, y = top[0]["head_name"], top[-1]["tail_name"]
    lowers = "." if worsening else ": it treats it, rather than causes it."
    raises = ": it would worsen it." if worsening else "."
    return {-1: f" Along this chain {x} lowers {y}{lowers}", 1: f" Along this chain {x} raises {y}{raises}"}.get(sign, "")


def side_effect_topic(state: State) -> str:
    """"side effects" for "Does metformin cause lactic acidosis?": what a drug causes is a side effect, which the
    graph does not hold; "" for anything else, a chemical substance included ("Does uric acid cause gout?": all but
    one of the graph's 333 are the tail of some relation, as what the body makes is; almost no drug is)."""
    if not asks_causing(state):
        return ""
    drug = next((m.get("entity") or {} for m in state.mentions if m.get("slot") == "drug"), {})
    return "side effects" if drug.get("type") == "Drug" else ""
