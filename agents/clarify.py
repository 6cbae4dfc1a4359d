"""The planner's clarification: ask which entity an ambiguous mention means, by ``interrupt()``, until the answer
picks one: a number, an ordinal ("the second one"), an id, a name, the words of one option's name ("type 2"), or words
that narrow the mention ("lung" for which "cancer")."""

from __future__ import annotations

from typing import Any

from langgraph.types import interrupt

from agents.intent import SLOT_TYPES
from agents.resolution import narrowed, resolve_choice
from core.datasets import DRUG_TYPES
from tools.linker import GUESSED_METHODS, Candidate, LinkOutcome, LinkStatus

__all__ = ["alike", "ask_which"]

TIED = 0.02
"""The linker's ambiguity margin: candidates this close to the best are the ones a clarification weighs."""


def alike(res: Any, outcome: LinkOutcome) -> list[str]:
    """The other drugs tied with the best candidate when every one of them has the same relations to the same entities
    as it, else []. "How does insulin lower blood sugar?" asked which of Insulin human, insulin lispro, insulin
    detemir and Insulin Glargine was meant, and each of them does one thing in the graph, increase the activity of
    the insulin receptor: which one changes no answer, so none is asked (penicillins, whose targets differ, are)."""
    if not outcome.candidates:
        return []
    top = outcome.candidates[0]
    tied = [c for c in outcome.candidates if top.score - c.score < TIED]
    if len(tied) < 2 or any(c.type not in DRUG_TYPES for c in tied):
        return []
    edges = [{(e.relation, e.tail) for e in res.kg.out_edges(c.id)} for c in tied]
    return [c.name for c in tied[1:]] if edges[0] and all(e == edges[0] for e in edges[1:]) else []


def _named_entity(res: Any, choice: Any, slot: str) -> dict[str, Any] | None:
    """An answer outside the options that names one entity of a type the slot takes exactly (its id, name or alias):
    "lung" for which cancer is the organ, not an answer (it was taken, and drugs "for lung" were listed)."""
    text = str(choice.get("id") if isinstance(choice, dict) else choice).strip()
    ent = res.kg.node(text)
    if ent is None:
        exact = res.linker.exact(text)
        ent = res.kg.node(exact[0].id) if len(exact) == 1 else None
    if ent is None or ent.type not in SLOT_TYPES.get(slot, {ent.type: 1.0}):
        return None
    return {"id": ent.id, "name": ent.name, "type": ent.type, "score": 1.0, "method": "chosen"}


def _refined(res: Any, slot: str, choice: str, mention: str) -> dict[str, Any] | None:
    """A clarification answered by words that narrow the mention ("lung" for which "cancer"): the entity that the two
    together name; None when they name none or several, or only a guess does ("type 1" for which insulin read
    "type 1 insulin" as the protein insulin by one of its words, and answered for insulin glulisine)."""
    if not choice.strip() or len(choice) > 60:
        return None
    out = res.linker.link(f"{choice.strip()} {mention}", SLOT_TYPES[slot])
    best = out.best if out.status is LinkStatus.LINKED and out.best and out.best.method not in GUESSED_METHODS else None
    return best.as_dict() if best is not None and best.type in SLOT_TYPES[slot] else None  # "aspirin": no cancer


def ask_which(res: Any, slot: str, outcome: LinkOutcome, interactive: bool
              ) -> tuple[Candidate | dict[str, Any] | None, dict[str, Any]]:
    """The entity an ambiguous mention of ``slot`` means, and the clarification's record; without an interactive
    caller, the linker's best candidate. An answer that fits several options asks again among those only."""
    cands = [c.as_dict() for c in outcome.candidates]
    if same := alike(res, outcome):  # answered for the first, and said so (``agents.explainer._auto_picked``)
        return outcome.best, {"alike": {"mention": outcome.mention, "names": same}}
    if not interactive:
        return outcome.best, {"mention": outcome.mention, "slot": slot, "candidates": cands, "auto": True}
    question = f"Which \"{outcome.mention}\" do you mean? Answer with a number, an id or a name."
    payload = {"kind": "clarify", "slot": slot, "mention": outcome.mention, "question": question, "candidates": cands}
    while True:
        choice = interrupt(payload)
        picked = resolve_choice(choice, cands) or _named_entity(res, choice, slot)
        if picked is not None:  # the caller's choice, not a guess: no "Read … as …: the closest name" in the answer
            return {**picked, "method": "chosen"}, {**payload, "choice": picked["id"]}
        if (both := _refined(res, slot, str(choice), outcome.mention)) is not None:  # "lung" for which cancer
            return both, {**payload, "choice": both["id"]}
        if len(fitting := narrowed(str(choice), cands)) > 1:  # "lung" for which cancer: the lung cancers
            payload = {**payload, "candidates": (cands := fitting),
                       "question": f"\"{choice}\" fits {len(fitting)} of them. {question}"}
            continue
        payload = {**payload, "question": f"\"{choice}\" is not one of the options. {question}"}
