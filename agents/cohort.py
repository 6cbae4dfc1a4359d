"""Questions about many patients at once ("How many patients have diabetes?", "Which patients take metformin?"),
answered from the hybrid retrieval's aggregation route: counts over the patients who allow research use, none
reported for a cohort smaller than ``tools.routes.MIN_COHORT``, and no patient named."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agents.answer_notes import NO_EVIDENCE
from agents.state import Intent, State, Status
from memory.records import CohortCount
from tools.routes import MIN_COHORT

__all__ = ["COHORT_CITATION", "cohort_answer", "cohort_followup", "cohort_question", "in_scope"]

_PEOPLE = r"(?:patients|people|persons|subjects)"
_COHORT = re.compile(
    rf"\b(?:how many|(?:the )?number of|count of|(?:what )?(?:proportion|percentage|share|fraction) of|which|what|"
    rf"list(?: all| the)?|show(?: me)?(?: all| the)?|find(?: all| the)?|name(?: the)?|count(?: the)?)\s+(?:of\s+)?"
    rf"(?:the |our |my |all )?{_PEOPLE}\b|"
    rf"\bmost (?:common|frequent|frequently prescribed|prescribed)\b.*\b(?:among|in|for|across) (?:the |our |my |all )?"
    rf"(?:{_PEOPLE}|cohort)\b", re.IGNORECASE)
"""A count or a list over patients; a question about one patient names its id and is answered from its record."""
_NAMED = re.compile(r"\b(?:have|has|having|with|take|takes|taking|on|using|use|prescribed|diagnosed with)\s+"
                    r"(?P<what>(?!(?:any|a|an|the)?\s*(?:condition|disease|medication|drug|lab)s?\b)[^?.!]+)", re.IGNORECASE)
"""What a count names: "have zorblaxitis", "take metformin"."""
_MAX_COUNTS = 5
"""Count lines the answer names; the rest are in the retrieval context."""
COHORT_CITATION = {"source": "medpath-patients", "title": "Synthetic patient records, counted (research consent; no patient named)",
                   "url": "", "id": "cohort"}


def cohort_question(question: str) -> dict[str, Any]:
    """The planner's update for a question about many patients ("how many patients have gout?"), or ``{}``."""
    if not _COHORT.search(question):
        return {}
    return {"intent": Intent.COHORT.value, "goal_types": [], "sources": [], "targets": [], "status": Status.RUNNING,
            "error": ""}


_COUNT_AGAIN = re.compile(r"^(?:and |what about |how about |also )?how many (?:of them |people |persons )?(?P<rest>(?:have|has|"
                          r"had|take|takes|are on|are taking|are diagnosed with|with)\b[^?]*)\??$", re.IGNORECASE)
""""and how many have gout?" after a count: another count over the patients, which names no one."""


_MOST_AMONG = re.compile(r"^(?:and )?(?:which|what) (?:drugs?|medications?|medicines?) (?:is|are) (?:the )?most (?:common|"
                         r"frequent|often taken|prescribed)(?: among (?:them|these|those|these patients|those patients))?\??$",
                         re.IGNORECASE)
""""which drug is most common among them?" after a count: the cohort's most common medications."""
_COUNTED = re.compile(r"^how many patients (?:have|has|with) (?P<c>[^?]+?)\??$", re.IGNORECASE)


def cohort_followup(question: str, messages: Sequence[dict[str, Any]]) -> str | None:
    """When the thread's last answer counted patients: "How many patients have gout?" for "and how many have gout?"
    (it was read as "What drugs treat gout?"), and "What is the most common medication among patients with Gout?" for
    "which drug is most common among them?" (it was read as a question about a drug); None otherwise."""
    last = next((m for m in reversed(messages) if m.get("role") == "assistant"), {})
    text = " ".join(question.split())
    if last.get("intent") != Intent.COHORT.value:
        return None
    if (m := _COUNT_AGAIN.match(text)) is not None:
        return f"How many patients {m['rest'].strip()}?"
    if _MOST_AMONG.match(text):
        counted = _COUNTED.match(str(last.get("question", "")))
        return f"What is the most common medication among patients{f' with {counted[1]}' if counted else ''}?"
    return None


def in_scope(scope: list[str] | None) -> Any:
    """The test of whether a patient may be counted: ``None`` counts everyone (a local caller, or an admin; "*" too)."""
    if scope is None or "*" in scope:
        return None
    allowed = frozenset(scope)
    return allowed.__contains__


def cohort_answer(state: State) -> dict[str, Any]:
    """The counts the aggregation returned (``RetrievalResult.cohort_counts``, typed), as a sentence; a count of no
    patient is never a name of one."""
    hybrid = state.hybrid or {}
    if hybrid.get("error"):
        return {"status": Status.NOT_FOUND, "answer": f"{NO_EVIDENCE}: {hybrid['error']}.", "error": hybrid["error"]}
    counts = [CohortCount(**c) for c in hybrid.get("cohort_counts", [])]
    head = next((c for c in counts if not c.kind), None)
    if head is None:
        reason = "the patient records hold no cohort for this question"
        return {"status": Status.NOT_FOUND, "answer": f"{NO_EVIDENCE}: {reason}.", "error": reason}
    named = _NAMED.search(state.asked)  # the store breaks the count down by condition only when it matched no name
    if named and any(c.kind == "condition" for c in counts):
        reason = f"\"{named['what'].strip()}\" names no condition, medication or lab of the patient records"
        return {"status": Status.NOT_FOUND, "answer": f"{NO_EVIDENCE}: {reason}.", "error": reason}
    told = [f"{c.name}: {c.count} of {c.size} patients" for c in counts if c.kind][:_MAX_COUNTS]
    size = f"too few to report (fewer than {MIN_COHORT})" if head.too_few else str(head.size)
    cohort = f"patients{f' with {head.cohort}' if head.cohort else ''} (research consent): {size}"
    answer = f"P{cohort[1:]}." + (" Of them: " + "; ".join(told) + "." if told else "")
    withheld = int(hybrid.get("consent_filtered_count", 0))
    if withheld:
        answer += f" {withheld} recorded facts of patients who do not allow research use were left out."
    answer += " Counts only: no patient is named in an answer about many patients."
    return {"status": Status.ANSWERED, "answer": answer, "evidence": [], "evidence_text": "; ".join([f"Cohort: {cohort}", *told]),
            "citations": [COHORT_CITATION]}
