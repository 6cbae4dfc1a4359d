"""What a word of pharmacology, or a relation of the knowledge graph, means: "what is an agonist?", "what does
"decreases activity of" mean?", "what's the difference between an agonist and an antagonist?". They were NOT_FOUND
("no known entity in the question", '"a prodrug" is not in the knowledge graph'), though medpath's own answers are
written in those relations.

Answered from a hand-written glossary (``memory/glossary.tsv``), and the answer says so: the graph holds the relations,
not what they mean. Only a word the glossary holds is read so, asked with an indefinite article or none: "what is the
target?" is still a question about the thread's drug, and "what is gout?" about the entity.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from agents.state import Intent, Status

__all__ = ["GLOSSARY", "glossary_answer", "glossary_question", "read_glossary"]

GLOSSARY = Path(__file__).resolve().parent.parent / "memory" / "glossary.tsv"
"""The hand-written glossary: term TAB other forms, comma-separated TAB what it means."""

_ASKED = re.compile(
    r"^(?:so |and |but |ok,? )?(?:what(?:'s| is) the difference between(?: an?)? (?P<c>.+?) and(?: an?)? (?P<d>.+?)|"
    r"(?:what(?:'s| is| are)|define|explain|definition of|meaning of|what(?:'s| is) the (?:meaning|definition) of)"
    r"(?: an?)?(?: (?:the )?(?:term|word|relation|phrase))? (?P<a>.+?)|what (?:does|do)"
    r"(?: the (?:term|word|relation|phrase))? (?P<b>.+?) mean)[?.!]*$", re.IGNORECASE)
"""A request for what a word means, or how two words differ; "the" before the word is no request for a definition
("what is the target?" asks for the thread drug's)."""


def read_glossary(path: Path = GLOSSARY) -> dict[str, tuple[str, str]]:
    """Each form of each term, lower case, → (the term, what it means). A missing file or a malformed line adds
    nothing: the glossary is a convenience, never a failure."""
    found: dict[str, tuple[str, str]] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return found
    for line in lines:
        parts = line.split("\t")
        if line.startswith("#") or len(parts) != 3 or not parts[0].strip() or not parts[2].strip():
            continue
        term, meaning = parts[0].strip(), parts[2].strip()
        for form in (term, *(f.strip() for f in parts[1].split(",") if f.strip())):
            found.setdefault(form.casefold(), (term, meaning))
    return found


def _terms(question: str, path: Path = GLOSSARY) -> list[tuple[str, str]]:
    """The (term, meaning) pairs a question asks for, in its order; [] unless every word it asks about is a term. The
    glossary is read only for a question its pattern matches (this reader sees most questions)."""
    m = _ASKED.match(" ".join(question.replace("’", "'").split()))
    if m is None:
        return []
    asked = [m["a"] or m["b"]] if m["a"] or m["b"] else [m["c"], m["d"]]
    words = [w.strip().strip("\"'“”").strip().casefold() for w in asked]
    if any(w.startswith("the ") for w in words):
        return []
    glossary = read_glossary(path)
    return list(dict.fromkeys(glossary[w] for w in words)) if all(w in glossary for w in words) else []


def glossary_question(question: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for a question for what glossary words mean (no entity: "what does it mean?" next has
    nothing to point at); None for any other question. ``linker`` is unused: the glossary reader's signature is that
    of the other readers of ``agents.conversation``."""
    return {"intent": Intent.GLOSSARY.value, "mentions": []} if _terms(question) else None


def glossary_answer(question: str, kg: Any, linker: Any) -> dict[str, Any]:
    """What each asked word means, a relation of the graph said to be one ("decreases activity of", one of the 67
    relations of the knowledge graph: …)."""
    terms = _terms(question)
    if not terms:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no word of medpath's glossary in the question."}
    relations = set(kg.relations)
    said = [f"\"{term}\" (one of the {len(relations)} relations of the knowledge graph): {meaning}." if term in relations
            else f"{term[:1].upper()}{term[1:]}: {meaning}." for term, meaning in terms]
    return {"status": Status.ANSWERED,
            "answer": "From medpath's glossary (hand-written, not the knowledge graph): " + " ".join(said)}
