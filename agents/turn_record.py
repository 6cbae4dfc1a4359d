"""The assistant's record of a turn in ``messages``: the entities, list, path and class a later follow-up resolves
against (``agents.focus``)."""

from __future__ import annotations

from typing import Any

from agents.list_size import MOST_ANSWERS
from agents.state import DRUG_TYPES, LISTED_DRUGS, Intent, State, class_mechanism, named_targets
from agents.via import names_the_kind
from core.text import fold

__all__ = ["MAX_STEPS", "TARGET_TYPES", "turn_record"]

TARGET_TYPES = frozenset({"Protein", "GeneFamily", "MacromolecularComplex"})
"""Entity types a follow-up's "that target" can mean."""
MAX_STEPS = 8
"""The steps of an answer's path kept in its turn record (:func:`_steps`)."""


def _slot_entity(state: State, slot: str) -> dict[str, str] | None:
    for m in state.mentions:
        ent = m.get("entity")
        if ent and (m["slot"] == slot or (m["slot"] == "free" and (ent["type"] in DRUG_TYPES) == (slot == "drug"))):
            return {"id": ent["id"], "name": ent["name"], "type": ent["type"]}
    return None


def turn_record(state: State, out: dict[str, Any], items: list[dict[str, str]], kg: Any = None) -> dict[str, Any]:
    """The assistant's record of this turn in ``messages``: what later follow-ups resolve against."""
    typed = [{**i, "type": kg.node(i["id"]).type if kg is not None and kg.node(i["id"]) else ""} for i in items[:MOST_ANSWERS]]
    drug = _slot_entity(state, "drug")
    evidence = out.get("evidence") or []
    subject = class_mechanism(state) or _class_subject(state)  # a class is no one drug: "what does it treat?" is the class
    if kg is not None and evidence and state.intent in (Intent.MECHANISM.value, Intent.TARGETS.value) and not subject:
        head = kg.node(evidence[0]["head"])  # the drug the answer is about ("insulin" → insulin glulisine)
        if head is not None and head.type in DRUG_TYPES:
            drug = {"id": head.id, "name": head.name, "type": head.type}
    disease = None if _a_kind(state) else _slot_entity(state, "disease") or _slot_entity(state, "target")
    if any(r.get("how") == "step" for r in state.references):  # "explain the second step": the thread stays on its
        came = next((m for m in reversed(state.messages) if m.get("role") == "assistant" and m.get("steps")), {})
        drug, disease = came.get("drug") or drug, came.get("disease") or disease  # drug and disease, not the step's ends
    return {"role": "assistant", "content": out.get("answer", ""), "status": str(out.get("status", state.status)),
            "intent": state.intent, "question": state.understood_as or " ".join(state.question.split()),
            "drug": drug, "disease": disease, "items": typed,
            "patient_id": state.patient_id, "drug_class": state.drug_class, "target": _target(state, evidence, kg),
            "compared": _compared(state, kg), "steps": _steps(state, evidence, kg), "cited": bool(out.get("citations")),
            "class_subject": _class_subject(state), "named": _named(state), "also_asked": list(state.also_asked),
            "unknown": [m["mention"] for m in state.mentions if m.get("status") == "unknown" and m.get("mention")],
            "known_use": state.known_use}


def _named(state: State) -> dict[str, dict[str, str]]:
    """Each mention of this turn (folded) and the entity it was linked to, a clarification's pick included: asked
    again ("can you explain that more simply?"), "diabetes" is the diabetes picked then (it was asked about again)."""
    return {fold(m["mention"]): {k: m["entity"][k] for k in ("id", "name", "type")}
            for m in state.mentions if m.get("entity") and m.get("mention")}


def _class_subject(state: State) -> str:
    """The drug class a turn asked about as its subject ("What do penicillins treat?", "How do statins lower
    cholesterol?"): what a later "they" or "it" is (``agents.focus``); it asked what "they" meant."""
    subject = state.intent in (Intent.TARGETS.value, Intent.INDICATIONS.value) or class_mechanism(state)
    kept = subject and state.among and not state.compared and not state.via
    return state.drug_class if kept and state.drug_class != LISTED_DRUGS else ""


def _steps(state: State, evidence: list[dict[str, str]], kg: Any) -> list[dict[str, str]]:
    """The answer's path, each step with its two ends' types: what "explain the second step" asks about. A turn that
    explained one step keeps the path it came from ("and the third step?" next)."""
    if any(r.get("how") == "step" for r in state.references):
        return next((m["steps"] for m in reversed(state.messages) if m.get("role") == "assistant" and m.get("steps")), [])

    def typed(x: str) -> str:
        node = kg.node(x) if kg is not None else None
        return node.type if node is not None else ""
    return [{**t, "head_type": typed(t["head"]), "tail_type": typed(t["tail"])} for t in evidence[:MAX_STEPS]]


def _compared(state: State, kg: Any) -> list[dict[str, str]]:
    """The drugs a comparison was about ("compare imatinib and dasatinib"), or a question about two of them after it
    ("what do they target?"): what a later "they" is, and what a later "it" could be."""
    both = state.drug_class == LISTED_DRUGS and state.intent in (Intent.TARGETS.value, Intent.INDICATIONS.value)
    kept = state.compared or (both and len(state.among) == 2)
    nodes = [kg.node(i) for i in state.among] if kg is not None and kept and len(state.among) >= 2 else []
    return [{"id": n.id, "name": n.name, "type": n.type} for n in nodes if n is not None]


def _target(state: State, evidence: list[dict[str, str]], kg: Any) -> dict[str, str] | None:
    """The target this turn was about ("which other drugs act on that target?"): the one a "which drugs act on X"
    question named, or the first step of a drug's evidence when it ends at a protein or a gene family (after how it
    acts, what it targets, or what it is: "what other drugs target that?" after "what is clopidogrel?")."""
    if state.intent == Intent.TARGETED_BY.value:
        return _slot_entity(state, "target")
    named = [m["entity"] for m in state.mentions if m.get("entity")]
    if state.intent == Intent.ENTITY.value and len(named) == 1 and named[0].get("type") in TARGET_TYPES:
        return {k: named[0][k] for k in ("id", "name", "type")}  # "what is ABL1?": "how does imatinib block it?" next
    if kg is None or not evidence or state.intent not in (Intent.MECHANISM.value, Intent.TARGETS.value, Intent.ENTITY.value):
        return None
    head, tail = kg.node(evidence[0]["head"]), kg.node(evidence[0]["tail"])
    if head is None or tail is None or head.type not in DRUG_TYPES or tail.type not in TARGET_TYPES:
        return None
    return {"id": tail.id, "name": tail.name, "type": tail.type}


def _a_kind(state: State) -> bool:
    """Whether the turn read a kind of target as every target of that kind ("which of them block sodium channels?":
    17 entities, ``agents.via.family_targets``). The one its words were linked to is then no disease slot of the turn:
    "how does the first one work?" next asked how pramocaine acts on Sodium channel protein type 5 subunit alpha, which
    it does not act on (it acts on another), and the thread's disease is what it treats. "That target" is still the
    one, as "Which drugs block sodium channels?" reads the kind about every drug."""
    named = named_targets(state)
    return (state.intent == Intent.TARGETED_BY.value and len(named) == 1 and len(state.targets) > 1
            and not any(names_the_kind(m.get("mention", ""), m["entity"]) for m in state.mentions
                        if m.get("slot") == "target" and m.get("entity")))
