"""The text whose embedding steers a question's walk, its ranker and its triple scorer (:func:`steering_text`)."""

from __future__ import annotations

from typing import Any

from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent, State

__all__ = ["steering_text"]

_ONE_END = {Intent.INDICATIONS.value: ("drug", "What does {} treat?"), Intent.TREATS.value: ("disease", "What drug treats {}?")}
"""The plain wording of a question about one end (:func:`steering_text`), as ``medpath eval kg`` asks it."""


def steering_text(state: State, kg: Any) -> str:
    """The text whose embedding steers the walk, the ranker and the triple scorer. A mechanism question naming one
    drug and one disease is embedded as the plain template with the graph's names ("How does imatinib treat
    Gastrointestinal stromal tumor?"), so that every wording of it ("Is imatinib used for GIST?", "does imatinib
    work for GIST?") gets the same evidence. So is a relation question between one drug and one disease ("imatinib
    in GIST: mechanism?"). So are "what does X treat?" and "what drug treats Y?" ("what is imatinib prescribed for?"
    listed other diseases than "what does imatinib treat?"), unless the question says more (a class, a way of acting,
    what to leave out, a kind of disease). Any other question is embedded as asked (or as understood, for a
    follow-up)."""
    plain = _ONE_END.get(state.intent)
    if plain and not (state.via or state.drug_class or state.excluded or state.among or state.compared or state.disease_kind):
        ends, others = (state.sources, state.targets) if plain[0] == "drug" else (state.targets, state.sources)
        if len(ends) == 1 and not others:
            return plain[1].format(kg.name(ends[0]))
    if len(state.sources) != 1 or len(state.targets) != 1:
        return state.asked
    drug, disease = kg.node(state.sources[0]), kg.node(state.targets[0])
    relation = (state.intent == Intent.RELATION.value and drug is not None and disease is not None
                and drug.type in DRUG_TYPES and disease.type in DISEASE_TYPES)
    if state.intent == Intent.MECHANISM.value or relation:
        return f"How does {kg.name(state.sources[0])} treat {kg.name(state.targets[0])}?"
    return state.asked
