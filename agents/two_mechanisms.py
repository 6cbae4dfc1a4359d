"""Two mechanisms of one drug set side by side: "compare the two", "how do they differ?" after "How does sildenafil
treat erectile dysfunction?" and "and in pulmonary hypertension?".

It was `NOT_FOUND` ('"compare the two" is not in the knowledge graph'): the comparisons medpath knew were of drugs,
and the thread had one. The two answers' paths are in the thread's messages, so the answer needs no walk: each
mechanism, then the steps both pass through, as "which is better for pain, ibuprofen or acetaminophen?" tells two
drugs' mechanisms for one disease (``agents.answer_notes.for_one_disease``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agents.answer_notes import listing, sentence, steps
from agents.state import Intent, Status

__all__ = ["two_mechanisms", "two_mechanisms_answer"]

_COMPARE_TWO = re.compile(
    r"^(?:so |and |ok,? |now |then )?(?:(?:(?:can|could) you |please )?compare (?:the two|them|both|these|those)(?: mechanisms| paths"
    r"| answers)?|how do (?:they|the two|these|those|both)(?: mechanisms| paths)? (?:differ|compare)|what(?:'s|’s| is| are) the "
    r"differences?(?: between (?:them|the two|these|those|the two mechanisms))?|(?:are|is) (?:they|the two|both|it)(?: mechanisms)? "
    r"(?:the same|different|alike)(?: mechanism)?|what do (?:they|the two|both) have in common|(?:does|do) (?:it|they) work the same way"
    r"(?: in both)?)(?: please)?[?.!]*$", re.IGNORECASE)
"""A question that sets the last two answers against each other, naming neither."""


def _answered(messages: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The thread's assistant turns that answered, the latest first."""
    return [m for m in reversed(messages) if m.get("role") == "assistant" and str(m.get("status", "")).endswith("ANSWERED")
            and m.get("intent") not in ("", Intent.SMALL_TALK.value, Intent.HISTORY.value)]


def two_mechanisms(question: str, messages: Sequence[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The last two answers, older first, when ``question`` compares "the two" and they told one drug's mechanisms for
    two diseases, the later one the thread's latest answer; None otherwise."""
    if not _COMPARE_TWO.match(" ".join(question.split())):
        return None
    latest, before = ([*_answered(messages), {}, {}])[:2]
    if not all(m.get("intent") == Intent.MECHANISM.value and m.get("steps") and m.get("drug") and m.get("disease")
               for m in (latest, before)):
        return None
    if latest["drug"]["id"] != before["drug"]["id"] or latest["disease"]["id"] == before["disease"]["id"]:
        return None
    return before, latest


def two_mechanisms_answer(pair: tuple[dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
    """Each turn's path in words, then the steps between the drug and the disease that both pass through."""
    parts, inner = [], []
    for turn in pair:
        path = turn["steps"]
        parts.append(f"{path[0]['head_name']} acts on {path[-1]['tail_name']} through {steps(len(path))}: {sentence(path)}.")
        inner.append([t["tail_name"] for t in path[:-1]])
    shared = [n for n in inner[0] if n in inner[1]]
    parts.append(f"Both pass through: {listing(shared)}." if shared else "The two mechanisms share no step in between.")
    return {"status": Status.ANSWERED, "answer": " ".join(parts)}
