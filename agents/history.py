"""What the thread has asked so far: "what did I ask before?", "what was my first question?", "recap".

Answered from the thread's own messages (the checkpointed conversation), not from the graph: the planner routes
such a question straight to the explainer, and the turn leaves the thread's focus as it was, so the follow-up after
it resolves as if it had not been asked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from agents.focus import focus_from
from agents.state import Intent, Status

__all__ = ["HISTORY", "HISTORY_SHOWN", "asks_history", "back_to", "history_answer"]

HISTORY = re.compile(
    r"^(?:(?:so |and |ok,? )?(?:what|which)(?: questions?)? (?:did|have|had) (?:i|we) (?:just |already |previously )?"
    r"(?:ask(?:ed)?|talk(?:ed)? about|discuss(?:ed)?|cover(?:ed)?)(?: you)?"
    r"(?: (?:before|earlier|so far|previously|today|in this (?:conversation|chat|thread)))*|"
    r"what (?:was|were) my (?P<which>first|last|previous|earlier) questions?|"
    r"what did (?:i|we) (?:ask|say) (?P<said>first|last)(?: of all)?|"
    r"(?:what (?:was|were) your|(?:(?:can|could|would) you |please )?(?:repeat|show me|give me) (?:your|the)) "
    r"(?P<answer>first|last|previous|earlier) (?:answers?|repl(?:y|ies)|responses?)(?: again)?|"
    r"(?P<again>what (?:was|is) (?:your|the|that) (?:answer|reply|response)(?: again)?|what did you (?:just )?say(?: again)?|"
    r"(?:(?:can|could|would) you |please )?(?:repeat|say) (?:that|it|your answer)(?: again)?(?: please)?)|"
    r"(?:(?:can|could|would) you |please )?(?:summari[sz]e|recap|give me a (?:summary|recap) of)"
    r"(?: (?:our|this|the) (?:conversation|chat|thread|session|discussion))?(?: (?:so far|please))?|"
    r"(?:show|list)(?: me)? my (?:questions|history)|what have we (?:talked about|discussed|covered)(?: so far)?|"
    r"what (?:did|have) you (?:tell|told|say|said|answer|answered|show|shown)(?: (?:me|us))?"
    r"(?: about (?P<about>.+?))?(?: (?:before|earlier|so far|previously|today|already|in this (?:conversation|chat|thread)))*)"
    r"[?.!]*$", re.IGNORECASE)
"""A question about the thread itself; ``which`` picks one question ("what was my first question?"), ``answer`` one
answer ("what was your first answer?": it was read as the first item of the latest list, "What was your Tyrosine-protein
kinase ABL1?"), ``again`` the last one ("what was the answer?", "what did you say?", "say that again": they were
NOT_FOUND, or a recap of the questions), ``about`` the turns about a name ("what did you tell me about imatinib?")."""
_PRONOUN = re.compile(r"(?:it|that|this|them|those|these)", re.IGNORECASE)
HISTORY_INTENT = Intent.HISTORY.value
HISTORY_SHOWN = 10
"""The latest questions a recap lists (the rest are counted)."""
_OUTCOME = {Status.ANSWERED.value: "answered", Status.NOT_FOUND.value: "nothing verified found",
            Status.NEEDS_CLARIFICATION.value: "asked which one was meant", Status.ERROR.value: "failed"}


def asks_history(question: str) -> bool:
    """Whether the question asks what the thread has asked so far."""
    return HISTORY.match(" ".join(question.split())) is not None


def _turns(messages: Sequence[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each earlier turn: the question as asked and the assistant's record of it; questions about the thread itself
    and small talk ("thanks") are left out."""
    asked = ""
    for m in messages:
        if m.get("role") == "user":
            asked = " ".join(str(m.get("content", "")).split())
        elif m.get("role") == "assistant":
            if asked and m.get("intent") not in (HISTORY_INTENT, Intent.SMALL_TALK.value):
                yield asked, m
            asked = ""


def _asked(messages: Sequence[dict[str, Any]]) -> list[str]:
    """Each earlier turn as a recap line: the question as asked, how it was understood when that differs, and how it
    ended."""
    lines = []
    for asked, m in _turns(messages):
        understood = str(m.get("question") or "")
        read = f", understood as \"{understood}\"" if understood and understood.casefold() != asked.casefold() else ""
        lines.append(f"\"{asked}\"{read} ({_OUTCOME.get(str(m.get('status')), 'answered')})")
    return lines


def _told(messages: Sequence[dict[str, Any]], about: str) -> list[str]:
    """The earlier answers to questions that name ``about`` (as asked or as understood), each after its question."""
    key = about.casefold()
    return [f"to \"{asked}\": {' '.join(str(m.get('content', '')).split())}" for asked, m in _turns(messages)
            if key in f"{asked} {m.get('question') or ''}".casefold()]


def history_answer(question: str, messages: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The thread's earlier questions, numbered (the latest :data:`HISTORY_SHOWN`), the one ``question`` picks, or
    the answers about the name it asks about."""
    lines = _asked(messages)
    m = HISTORY.match(" ".join(question.split()))
    if m is not None and m["about"]:  # "what did you tell me about imatinib?"; "… about it?": the thread's drug or disease
        about = m["about"].strip()
        focus = focus_from(messages) if _PRONOUN.fullmatch(about) else None
        about = next((e["name"] for e in (focus.drug, focus.disease) if e), about) if focus else about
        told = _told(messages, about)
        if not told:
            return {"status": Status.ANSWERED, "answer": f"This conversation has no earlier answer about {about}."}
        shown = told[-HISTORY_SHOWN:]
        return {"status": Status.ANSWERED, "answer": f"About {about}, I answered " + "; ".join(
            f"{i + 1}. {t}" for i, t in enumerate(shown)) + ("" if shown[-1].endswith(".") else ".")}
    if not lines:
        return {"status": Status.ANSWERED, "answer": "This conversation has no earlier questions."}
    if m is not None and (m["answer"] or m["again"]):  # "what was your first answer?": that turn's question and answer
        which = (m["answer"] or "last").casefold()  # "what was the answer?", "say that again": the last one
        turns = list(_turns(messages))
        asked, said = turns[0] if which == "first" else turns[-1]
        answer = " ".join(str(said.get("content", "")).split())
        return {"status": Status.ANSWERED, "answer": f"My {which} answer, to \"{asked}\": {answer}"}
    if m is not None and (which := m["which"] or m["said"]):  # "what did I ask first?" (it was NOT_FOUND)
        pick = lines[0] if which.casefold() == "first" else lines[-1]
        return {"status": Status.ANSWERED, "answer": f"Your {which.casefold()} question was {pick}."}
    shown = lines[-HISTORY_SHOWN:]
    first = len(lines) - len(shown) + 1
    more = f" ({first - 1} earlier ones not shown)" if first > 1 else ""
    numbered = "; ".join(f"{first + i}. {line}" for i, line in enumerate(shown))
    count = f"{len(lines)} question{'s' if len(lines) > 1 else ''}"
    return {"status": Status.ANSWERED, "answer": f"In this conversation you asked {count}{more}: {numbered}."}


_BACK_TO = re.compile(r"^(?:(?:ok,? |so |and )?(?:let'?s |let us |can we |could we |please )?(?:go back|get back|return|come back)"
                      r" to|back to) (?:my |the |our )?(?P<w>first|original|previous|last|earlier) question(?: please)?[?.!]*$",
                      re.IGNORECASE)
"""A request to return to an earlier question ("go back to the first question": it was `NOT_FOUND`, "no known entity
in the question")."""


def back_to(question: str, messages: Sequence[dict[str, Any]]) -> str | None:
    """The earlier question "go back to the first question" asks again, as that turn understood it; "" with no earlier
    question; None for any other question."""
    m = _BACK_TO.match(" ".join(question.split()))
    turns = list(_turns(messages)) if m is not None else []
    if m is None or not turns:
        return None if m is None else ""
    asked, record = turns[0] if m["w"].casefold() in ("first", "original") else turns[-1]
    return str(record.get("question") or asked)
