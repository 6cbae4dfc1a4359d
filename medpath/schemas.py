"""The HTTP API's request and response bodies (``medpath.api`` and the web page's stream share them)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, StrictInt, StrictStr

from medpath.search import SCOPES
from memory.router import MODES
from tools.classifier import Route

__all__ = ["AskRequest", "AskResponse", "Mode", "RetrieveRequest", "Scope", "ThreadResponse"]


Mode = Literal[MODES]  # type: ignore[valid-type]
"""A retrieval mode (memory/router.py)."""
Scope = Literal[SCOPES]  # type: ignore[valid-type]
"""A memory search scope (medpath/search.py)."""


class RetrieveRequest(BaseModel):
    """Body of ``POST /api/memory/retrieve``."""

    query: str = Field(max_length=4000, description="The question or keywords; empty gives an empty result.")
    patient_id: str | None = Field(None, max_length=64, description="Patient in scope; required for non-admin callers.")
    depth: int = Field(3, ge=1, le=4, strict=True, description="Graph walk depth, 1-4 (an integer; true is not 1).")
    force_route: Route | None = Field(None, description="Bypass the classifier.")
    mode: Mode | None = Field(None, description="Retrieval mode.")


class AskRequest(BaseModel):
    """Body of ``POST /api/v1/ask``: a new question, or the answer to a pending clarification."""

    question: str | None = Field(None, max_length=2000, description="A new question (omit when resuming).")
    thread_id: str | None = Field(None, max_length=128, description="Thread to continue; a new one is made when omitted.")
    resume: StrictStr | StrictInt | None = Field(
        None, description="Answer to the thread's pending clarification (a number, an entity id or a name; true is neither).")
    mode: Mode = "semantic"


class AskResponse(BaseModel):
    """What ``POST /api/v1/ask`` returns."""

    thread_id: str
    status: str = Field(description="ANSWERED, NOT_FOUND, NEEDS_CLARIFICATION, ...")
    answer: str = ""
    evidence: list[dict[str, Any]] = Field(default_factory=list)
    citations: list[dict[str, Any]] = Field(default_factory=list)
    clarification: dict[str, Any] | None = Field(None, description="The pending question and its options.")
    route: dict[str, Any] = Field(default_factory=dict, description="The hybrid route and classifier rule.")
    understood_as: str = Field("", description="The follow-up question as understood from the thread's earlier turns.")
    suggestions: list[dict[str, Any]] = Field(default_factory=list, description="Nearest known entities (NOT_FOUND).")
    also_asked: list[str] = Field(
        default_factory=list, description="A question that listed several drugs or diseases is answered for the first; "
                                          "the questions it also asked, to ask next.")
    trace_id: str = Field("", description="The ask's trace; the waterfall is GET /api/v1/traces/{trace_id}.")
    ranked_answers: list[dict[str, Any]] = Field(
        default_factory=list, description="\"Which drug treats Y?\" and other one-sided questions: the best answers, ranked, "
                                          "each with its best path and citations.")
    drug_class: str = Field("", description="The drug class a \"which drug\" question named (\"Which statins ...\"): "
                                            "the ranked answers are its drugs only.")


class ThreadResponse(BaseModel):
    """What ``GET /api/v1/threads/{thread_id}`` returns: the conversation so far."""

    thread_id: str
    messages: list[dict[str, Any]] = Field(default_factory=list, description="User and assistant turns, oldest first.")
    pending: dict[str, Any] | None = Field(None, description="The clarification the thread waits for, if any.")
