"""Answers the explainer gives without a walk: from the thread's messages, as small talk, from the class table, from
the linker's names, from a count over the graph's edges, from two diseases' links or two classes' targets, or from
counted patients."""

from __future__ import annotations

from typing import Any

from agents.amounts import amounts_answer
from agents.class_compare import classes_answer, compared_sides
from agents.class_member import membership_answer
from agents.cohort import cohort_answer
from agents.context import Context
from agents.counts import count_answer
from agents.disease_compare import diseases_answer
from agents.disease_types import kinds_answer
from agents.diseases_of import diseases_of_answer
from agents.focus import focus_from
from agents.glossary import glossary_answer
from agents.history import history_answer
from agents.kinds import target_kind_answer
from agents.metabolites import metabolites_answer
from agents.names import names_answer
from agents.products import products_answer
from agents.protein_role import role_answer
from agents.selective import selective_answer
from agents.similar_diseases import similar_answer
from agents.small_talk import small_talk_answer
from agents.state import Intent, State
from agents.two_mechanisms import two_mechanisms, two_mechanisms_answer

__all__ = ["answered_without_walk"]

_FROM_EDGES = {Intent.METABOLITES.value: metabolites_answer, Intent.PRODUCTS.value: products_answer,
               Intent.AMOUNTS.value: amounts_answer, Intent.SELECTIVE.value: selective_answer,
               Intent.SIMILAR.value: similar_answer, Intent.GLOSSARY.value: glossary_answer,
               Intent.DISEASE_KINDS.value: kinds_answer, Intent.ROLE.value: role_answer}
"""Intents answered from an entity's edges, each with its answer (``items``: what "the first one" means next)."""


def answered_without_walk(state: State, ctx: Context) -> tuple[dict[str, Any], list[dict[str, str]], Any] | None:
    """``(answer update, items, graph)`` for a question of an intent answered without a walk (``items``: what a later
    "the second one" picks from, ``graph``: what names them), or None for any other."""
    if state.intent == Intent.HISTORY.value:  # "what did I ask before?", "compare the two" after two mechanisms
        pair = two_mechanisms(state.question, state.messages)
        return (two_mechanisms_answer(pair) if pair else history_answer(state.question, state.messages)), [], None
    if state.intent in (Intent.CLASS_MEMBER.value, Intent.COUNT.value):  # "Is atorvastatin a statin?", "how many …?"
        res = ctx.get_resources()
        if state.intent == Intent.COUNT.value:
            out = count_answer(state.asked, res)
        elif (kind := target_kind_answer(state.asked, res.linker)) is not None:  # "is ACE an enzyme?"
            out = kind
        elif (pair := compared_sides(state.asked, res.linker)) is not None:  # "compare ARBs and ACE inhibitors", "… statins and aspirin"
            out = classes_answer(pair, res)
        else:
            out = membership_answer(state.asked, res.linker)
        return out, out.pop("items", []), res.kg  # a class's drugs, the counted ones: "the second one" next
    if state.intent == Intent.NAMES.value:  # "Is Gleevec the same as imatinib?"
        return names_answer(state.asked, ctx.get_resources().linker), [], None
    if state.intent == Intent.SMALL_TALK.value:  # "hi", "thanks", "what can you do?"
        focus = focus_from(state.messages[:-1])  # the thread before this turn: what "what else should I know?" is about
        kind, name = (("patient", focus.patient_id) if focus.intent == "patient" and focus.patient_id else
                      ("drug", focus.drug["name"]) if focus.drug else ("disease", focus.disease["name"]) if focus.disease
                      else ("", ""))
        about = {"kind": kind, "name": name, "asked": focus.latest_question} if kind else None
        return small_talk_answer(state.question, any(m.get("role") == "assistant" for m in state.messages), about), [], None
    if state.intent in (Intent.DISEASES.value, Intent.DISEASES_OF.value):  # "compare asthma and COPD"
        res = ctx.get_resources()
        out = (diseases_answer if state.intent == Intent.DISEASES.value else diseases_of_answer)(state, res)
        return out, out.pop("items", []), res.kg  # "what drugs treat the second one?" next
    if state.intent in _FROM_EDGES:  # "What are the metabolites of prednisone?", "what does allopurinol lower?"
        res = ctx.get_resources()
        out = _FROM_EDGES[state.intent](state.asked, res.kg, res.linker)
        return out, out.pop("items", []), res.kg  # "what does the first one target?" next
    if state.intent == Intent.COHORT.value:  # "How many patients have diabetes?"
        return cohort_answer(state), [], None
    return None
