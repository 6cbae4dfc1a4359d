"""What the follow-up resolver returns (``Resolution``), and the part of the entity linker it reads."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from agents.focus import ORDINALS
from core.text import fold

__all__ = ["Linker", "Resolution", "narrowed", "resolve_choice", "restated"]

_ORDINAL = re.compile(rf"^(?:the )?({'|'.join(ORDINALS)})(?: one)?[.!]*$", re.IGNORECASE)
"""A clarification answered by a candidate's place in words ("the second one")."""


class Linker(Protocol):
    """The part of the entity linker the resolver needs."""

    def link(self, mention: str, type_weight: dict[str, float] | None = None) -> Any:
        """Resolve a mention (``LinkOutcome`` with ``status`` and ``candidates``)."""
        ...

    def exact(self, mention: str) -> list[Any]:
        """Entities whose name or alias is the mention, folded."""
        ...

    def scan(self, text: str) -> list[tuple[str, list[Any]]]:
        """Exact n-gram mentions inside a text."""
        ...

    def drug_class(self, mention: str) -> list[Any]:
        """The drugs of the class a mention names ("statins"); empty when it names none."""
        ...

    def class_name(self, mention: str) -> str:
        """The mention as the name of the class it names, in the plural ("kinase inhibitor" → "kinase inhibitors")."""
        ...

    def headed_by(self, mention: str, types: Any) -> list[str]:
        """Ids of the entities of ``types`` whose longer name opens with the mention ("insulin": insulin glulisine)."""
        ...


@dataclass
class Resolution:
    """The question as understood, and how."""

    question: str
    references: list[dict[str, Any]] = field(default_factory=list)
    pinned: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Entity per substituted name (folded), so the planner does not link the name again."""
    missing: str = ""
    """The reference that could not be resolved ("it"), when there was nothing to resolve it against."""
    qualifier: str = ""
    patient_id: str | None = None
    among: list[str] = field(default_factory=list)
    """The drugs of the last answer's list, when a question asks about them ("which of them treat …"): the answer
    is kept to them."""
    targets: list[str] = field(default_factory=list)
    """The proteins the last answer listed, when a question asks which drugs act on them ("which drugs act on them?"
    after what imatinib targets): every one of them is a target of the question, as the entities of a kind are."""
    excluded: list[str] = field(default_factory=list)
    """The thread's entities, when a follow-up asks for "other" ones or what "else" ("which other drugs act on that
    target?"): the answer leaves them out."""
    refused: str = ""
    """Why the follow-up cannot be answered as asked, with what to ask instead ("which of them are cancers?" after a
    list of drugs): the turn is NOT_FOUND with this reason."""
    ambiguous: dict[str, Any] = field(default_factory=dict)
    """A reference that the thread fits to several entities equally ("it" after two compared drugs, or after a
    patient's several medications): ``mention``, ``candidates`` (id, name, type) and ``question`` (what to ask). An
    interactive run asks which one (NEEDS_CLARIFICATION) and resolves the question again with the one picked;
    otherwise ``refused`` stands, or, when it is empty, the reading already made."""

    @property
    def rewritten(self) -> bool:
        """True when the question was changed (drugs it leaves out, "… besides beta blockers?", change nothing)."""
        return any(r.get("how") != "besides" for r in self.references)

    @property
    def understood(self) -> str:
        """The question as understood, qualifier included ("… in children?")."""
        return self.question.rstrip("?") + f" in {self.qualifier}?" if self.qualifier else self.question


def resolve_choice(choice: Any, candidates: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Match a clarification answer (1-based index, an ordinal word, entity id or name) to a candidate, or the words
    of one candidate's name alone ("type 2" for Diabetes mellitus type 2: it was "not one of the options")."""
    if isinstance(choice, dict):
        choice = choice.get("id") or choice.get("choice") or ""
    text = str(choice).strip()
    if candidates and (m := _ORDINAL.match(text)) and (place := ORDINALS[m[1].casefold()]) < len(candidates):
        return candidates[place]  # "the second one"
    if text.isdigit() and 1 <= int(text) <= len(candidates):
        return candidates[int(text) - 1]
    for c in candidates:
        if text == c["id"] or text.casefold() == str(c["name"]).casefold():
            return c
    fitting = narrowed(text, candidates)
    return fitting[0] if len(fitting) == 1 else None


def narrowed(text: str, candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The candidates whose name holds the words of a clarification answer, in a row ("lung" for Non-small cell lung
    cancer and Small cell lung cancer)."""
    words = fold(text)
    return [c for c in candidates if words and f" {words} " in f" {fold(str(c['name']))} "]


def restated(question: str) -> str:
    """A thread's earlier question asked again, as a question: capitalised, ending with one "?"."""
    return question[0].upper() + question[1:].rstrip("?.! ") + "?"
