"""Planner node: intent, entity linking, and clarification by ``interrupt()`` on ambiguity."""

from __future__ import annotations

import time
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from agents.intent import SLOT_TYPES, parse_question
from graphs.context import Context
from graphs.state import Intent, State, Status
from memory.patients import patient_ids_in
from memory.router import MODES
from tools.linker import Candidate, LinkOutcome, LinkStatus

__all__ = ["plan", "resolve_choice"]

MAX_QUESTION_CHARS = 2000
DRUG_TYPES = ("Drug", "ChemicalSubstance")
DISEASE_TYPES = ("Disease", "PhenotypicFeature")
GOALS = {
    Intent.TREATS: ["Drug", "ChemicalSubstance"],
    Intent.TARGETS: ["Protein", "GeneFamily", "MacromolecularComplex"],
    Intent.INDICATIONS: ["Disease", "PhenotypicFeature"],
    Intent.ENTITY: ["Drug", "Disease", "PhenotypicFeature", "Protein"],
}


def resolve_choice(choice: Any, candidates: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Match a clarification answer (1-based index, entity id or name) to a candidate."""
    if isinstance(choice, dict):
        choice = choice.get("id") or choice.get("choice") or ""
    text = str(choice).strip()
    if text.isdigit() and 1 <= int(text) <= len(candidates):
        return candidates[int(text) - 1]
    for c in candidates:
        if text == c["id"] or text.casefold() == str(c["name"]).casefold():
            return c
    return None


def _ask(slot: str, outcome: LinkOutcome, interactive: bool) -> tuple[Candidate | dict[str, Any] | None, dict[str, Any]]:
    cands = [c.as_dict() for c in outcome.candidates]
    if not interactive:
        return outcome.best, {"mention": outcome.mention, "slot": slot, "candidates": cands, "auto": True}
    question = f"Which \"{outcome.mention}\" do you mean? Answer with a number, an id or a name."
    payload = {"kind": "clarify", "slot": slot, "mention": outcome.mention, "question": question, "candidates": cands}
    while True:
        choice = interrupt(payload)
        picked = resolve_choice(choice, cands)
        if picked is not None:
            return picked, {**payload, "choice": picked["id"]}
        payload = {**payload, "question": f"\"{choice}\" is not one of the options. {question}"}


def _link_slot(res: Any, slot: str, text: str, interactive: bool) -> tuple[dict[str, Any], dict[str, Any] | None]:
    outcome = res.linker.link(text, SLOT_TYPES[slot])
    record: dict[str, Any] = {"slot": slot, "mention": text, "status": outcome.status.value}
    clar = None
    picked: Any = None
    if outcome.status is LinkStatus.LINKED:
        picked = outcome.best
    elif outcome.status is LinkStatus.AMBIGUOUS:
        picked, clar = _ask(slot, outcome, interactive)
    if picked is not None:
        record["entity"] = picked.as_dict() if isinstance(picked, Candidate) else picked
    record["candidates"] = [c.as_dict() for c in outcome.candidates[:5]]
    return record, clar


def plan(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Parse the intent, link mentions to entities, and ask when a mention is ambiguous."""
    t0 = time.perf_counter()
    question = " ".join(state.question.split())
    if not question or len(question) > MAX_QUESTION_CHARS or not any(ch.isalpha() for ch in question):
        why = "the question is empty" if not question else (
            f"the question is longer than {MAX_QUESTION_CHARS} characters" if len(question) > MAX_QUESTION_CHARS
            else "the question has no words"
        )
        return {"status": Status.ERROR, "error": why, "timings": {"planner": (time.perf_counter() - t0) * 1000}}
    if state.mode not in MODES:
        why = f"unknown retrieval mode {state.mode!r} (known: {', '.join(MODES)})"
        return {"status": Status.ERROR, "error": why, "timings": {"planner": (time.perf_counter() - t0) * 1000}}
    ctx = runtime.context or Context()
    res = ctx.get_resources()
    parsed = parse_question(question)
    mentions: list[dict[str, Any]] = []
    clar: dict[str, Any] = {}
    if parsed is not None:
        intent = parsed.intent
        for slot, text in (("drug", parsed.drug), ("disease", parsed.disease)):
            if text:
                rec, c = _link_slot(res, slot, text, ctx.interactive)
                mentions.append(rec)
                clar = c or clar
    else:
        for mention, cands in res.linker.scan(question):
            if cands:
                best = max(cands, key=lambda c: (c.type in DRUG_TYPES or c.type in DISEASE_TYPES, c.score))
                mentions.append({"slot": "free", "mention": mention, "status": "linked", "entity": best.as_dict(),
                                 "candidates": [c.as_dict() for c in cands[:5]]})
        intent = Intent.RELATION if len(mentions) >= 2 else Intent.ENTITY
    sources: list[str] = []
    targets: list[str] = []
    for m in mentions:
        ent = m.get("entity")
        if not ent:
            continue
        if m["slot"] == "drug" or (m["slot"] == "free" and not sources and (ent["type"] in DRUG_TYPES or len(mentions) == 1)):
            sources.append(ent["id"])
        else:
            targets.append(ent["id"])
    if intent is Intent.RELATION and not sources and len(targets) >= 2:
        sources.append(targets.pop(0))
    out: dict[str, Any] = {
        "intent": intent.value,
        "mentions": mentions,
        "sources": sources,
        "targets": targets,
        "goal_types": GOALS.get(intent, []),
        "clarification": clar,
        "timings": {"planner": (time.perf_counter() - t0) * 1000},
    }
    pid = state.patient_id or next(iter(patient_ids_in(question)), None)
    if pid is not None:
        out["patient_id"] = pid
        if not (sources or targets):
            out["intent"] = Intent.PATIENT.value
            out["goal_types"] = []
            return out
    unknown = [m["mention"] for m in mentions if not m.get("entity")]
    if unknown or not (sources or targets):
        names = ", ".join(f'"{u}"' for u in unknown) or "no known entity"
        out["status"] = Status.NOT_FOUND
        out["error"] = f"not in the knowledge graph: {names}"
    return out
