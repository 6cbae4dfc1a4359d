"""Runs questions through the compiled graph with a SQLite checkpointer, handling interrupts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.context import Context
from core.errors import InputError, NotFoundError
from core.pseudonyms import Pseudonyms, load_key
from core.settings import Settings
from core.tracing import set_content, tracer
from graphs.qa import build_graph
from medpath.services import Services
from medpath.threads import checkpoint_serde, open_checkpoints
from tools.serializer import question_shape, redact_identifiers

__all__ = ["Session", "checkpoint_serde"]



StepFn = Callable[[str, dict[str, Any]], None]


class Session:
    """One caller's handle on the QA graph: threads persist in ``checkpoints.sqlite``."""

    def __init__(self, settings: Settings, *, interactive: bool = True, checkpointer: Any = None,
                 services: Services | None = None, **context: Any) -> None:
        """Compile the graph with a SQLite checkpointer (or the one given). The run context carries ``services``
        when given; without them, each store is built on first use and kept for this session."""
        self.settings = settings
        self.pseudonym = services.pseudonyms if services is not None else Pseudonyms(load_key(settings.home))
        if checkpointer is None:
            checkpointer = open_checkpoints(settings)
        self.graph = build_graph(checkpointer=checkpointer)
        if services is not None:
            self.context = services.context(interactive=interactive, **context)
        else:
            self.context = Context(interactive=interactive, settings=settings, **context)

    def _run(self, payload: Any, thread_id: str, on_step: StepFn | None) -> dict[str, Any]:


        config = {"configurable": {"thread_id": thread_id}}
        with tracer().start_as_current_span("medpath.question") as root:
            root.set_attribute("medpath.thread_id", thread_id)
            root.set_attribute("medpath.resume", not isinstance(payload, dict))
            if isinstance(payload, dict):
                root.set_attribute("medpath.user_hash", self.pseudonym(str(payload.get("user_id", ""))))
                root.set_attribute("medpath.mode", str(payload.get("mode", "semantic")))
                set_content(root, "medpath.question", payload.get("question"))
            values = self._stream(payload, config, thread_id, on_step)
            values["trace_id"] = f"{root.get_span_context().trace_id:032x}"
            # for `traces list`: the question without its content (entity types, common words), always
            root.set_attribute("medpath.question.shape", question_shape(str(values.get("question", "")),
                                                                        values.get("mentions") or []))
            root.set_attribute("medpath.status", values["status"])
            root.set_attribute("medpath.evidence.hops", len(values.get("evidence", [])))
            if values["status"] == "NEEDS_CLARIFICATION":
                root.set_attribute("medpath.interrupt", True)
        return values

    def _stream(self, payload: Any, config: dict[str, Any], thread_id: str, on_step: StepFn | None) -> dict[str, Any]:
        for chunk in self.graph.stream(payload, config, context=self.context, stream_mode="updates",
                                       durability="exit"):
            for node, update in chunk.items():
                if node == "__interrupt__" or not isinstance(update, dict):
                    continue
                if on_step:
                    on_step(node, update)
        snap = self.graph.get_state(config)
        values = dict(snap.values)
        values["thread_id"] = thread_id
        pending = [i for t in snap.tasks for i in t.interrupts]
        if pending:
            values["status"] = "NEEDS_CLARIFICATION"
            values["interrupt"] = pending[0].value
        else:
            values["status"] = str(values.get("status", ""))
        return values

    def ask(self, question: str, *, thread_id: str, user_id: str = "anonymous", mode: str = "semantic",
            on_step: StepFn | None = None, patient_scope: list[str] | None = None) -> dict[str, Any]:
        """Run a new question on a thread; returns the final state (or the pending clarification). ``patient_scope``:
        the patients a question about many patients may count (``None``: every patient, for a local caller)."""
        if not isinstance(question, str):
            raise InputError("the question must be text")
        if not isinstance(user_id, str) or not user_id.strip():
            raise InputError("the user id must be non-empty text")
        # stored redacted: the thread's checkpoints keep no e-mail, phone, record or long number of the question
        question = redact_identifiers(question)
        # patient_id is sent every turn, so a patient named in an earlier turn does not scope this one
        return self._run({"question": question, "user_id": user_id, "mode": mode, "patient_id": None,
                          "patient_scope": patient_scope}, thread_id, on_step)

    def history(self, thread_id: str) -> dict[str, Any]:
        """A thread's conversation: ``messages`` (oldest first) and the pending clarification, if any."""
        snap = self.graph.get_state({"configurable": {"thread_id": thread_id}})
        if not snap.values:
            raise NotFoundError(f"no thread {thread_id!r}")
        pending = [i for t in snap.tasks for i in t.interrupts]
        return {"thread_id": thread_id, "messages": list(snap.values.get("messages", [])),
                "interrupt": pending[0].value if pending else None}

    def resume(self, thread_id: str, choice: Any, on_step: StepFn | None = None) -> dict[str, Any]:
        """Answer the pending clarification of a thread and finish the run."""
        from langgraph.types import Command

        config = {"configurable": {"thread_id": thread_id}}
        snap = self.graph.get_state(config)
        if not snap.values:
            raise NotFoundError(f"no thread {thread_id!r}")
        if not any(t.interrupts for t in snap.tasks):
            raise InputError(f"thread {thread_id!r} has no pending clarification")
        return self._run(Command(resume=choice), thread_id, on_step)
