"""A question whose clarification was never answered is still the thread's latest question.

"How does metformin treat diabetes?" asks which diabetes is meant. A caller who asks "what about gout?" instead
starts a new turn, and the question left pending has no assistant record in ``messages``: the follow-up was resolved
against the turn before it ("How does imatinib treat Gout?" after a turn about imatinib), and "how does it work?"
asked what "it" meant. The planner now reads the pending question again without asking (``agents.planner``), and
:func:`pending_record` makes the record the follow-up resolver reads: the names it linked, and an ambiguous one as
its own words, so that "what about insulin?" is "How does insulin treat diabetes?" and asks which diabetes again.
A reply that is one of the options the pending question offered ("type 2 diabetes", "the second one") answers it
(:func:`chosen_after`): it was read as a question of its own ("What drugs treat Diabetes mellitus type 2?").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from agents.resolution import Linker, Resolution, resolve_choice
from agents.state import DRUG_TYPES, State, Status
from agents.turn_record import turn_record
from core.text import fold
from tools.linker import LinkStatus

__all__ = ["chosen_after", "pending_record", "unanswered"]

_FIELDS = {f.name for f in dataclasses.fields(State)}


def unanswered(history: Sequence[dict[str, Any]]) -> str | None:
    """The question of the thread's last record when it is a user's that got no answer (its clarification was left
    pending, or its run failed), else None."""
    if not history or history[-1].get("role") != "user":
        return None
    return " ".join(str(history[-1].get("content") or "").split()) or None


def pending_record(update: dict[str, Any], question: str, history: Sequence[dict[str, Any]], kg: Any
                   ) -> dict[str, Any] | None:
    """The assistant record of ``question``, left unanswered, from the planner's ``update`` for it (read without
    asking): its linked names, and each ambiguous mention as its words with no id (the planner links such a name
    again, and asks). None when it names no drug, disease or patient, or could not be read."""
    if update.get("status") in (Status.ERROR, Status.ERROR.value):
        return None
    mentions = list(update.get("mentions") or [])
    state = State(question=question, messages=list(history),
                  **{k: v for k, v in update.items() if k in _FIELDS and k not in ("messages", "mentions", "status")})
    state.mentions = [m for m in mentions if m.get("status") != "ambiguous"]
    record = turn_record(state, {"status": Status.NEEDS_CLARIFICATION.value, "answer": ""}, [], kg)
    for m in mentions:
        if m.get("status") != "ambiguous" or not m.get("mention"):
            continue
        slot = "drug" if m.get("slot") == "drug" or (m.get("entity") or {}).get("type") in DRUG_TYPES else "disease"
        record[slot] = record.get(slot) or {"id": "", "name": str(m["mention"]), "type": ""}
    clar = update.get("clarification") or {}
    if clar.get("mention") and clar.get("candidates"):  # what it would have asked
        record["pending"] = {"mention": clar["mention"], "candidates": list(clar["candidates"])}
    return record if record.get("drug") or record.get("disease") or record.get("patient_id") else None


def chosen_after(question: str, history: Sequence[dict[str, Any]], linker: Linker) -> Resolution | None:
    """The pending question with its ambiguous name replaced by the option that ``question`` picks, when the thread's
    last record is a pending question's (:func:`pending_record`) and ``question`` is nothing but a pick of one of its
    options: a number, an ordinal, an id, a name, the words of one name ("type 2"), or words the linker links to one
    of them ("type 2 diabetes"). None otherwise."""
    pending = (history[-1].get("pending") if history else None) or {}
    if not pending:
        return None
    text = question.strip().rstrip("?.!").strip()
    cands = pending["candidates"]
    picked = resolve_choice(text, cands)
    if picked is None and len(text) <= 80:
        out = linker.link(text)
        best = out.best if out.status is LinkStatus.LINKED else None
        picked = next((c for c in cands if best is not None and c["id"] == best.id), None)
    asked = str(history[-1].get("question") or "")
    mention = re.compile(rf"\b{re.escape(str(pending['mention']))}\b", re.IGNORECASE)
    if picked is None or not mention.search(asked):
        return None
    name = str(picked["name"])
    entity = {"id": picked["id"], "name": name, "type": picked.get("type", "")}
    return Resolution(question=mention.sub(lambda _m: name, asked, count=1), pinned={fold(name): entity},
                      references=[{"text": question, "how": "clarified", "answer": name}])
