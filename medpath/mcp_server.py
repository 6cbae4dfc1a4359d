"""MCP server (``medpath mcp``, stdio): the retrieval surface and the pipeline as MCP tools.

Tools:
- ``memory.query``: hybrid retrieval (``query``, ``mode``, ``patient_id``, ``depth``, ``force_route``);
  returns the RetrievalResult (structured) with the two-tier context.
- ``medpath.ask``: the whole pipeline; a ``NEEDS_CLARIFICATION`` answer is continued with
  ``thread_id`` and ``resume``.

The server is a local process of its caller (stdio), so it runs with the local user's rights, like
the CLI: the JWT scope checks of the HTTP API do not apply. Each call is audited with
``auth_source`` = ``mcp``. A caller that sends W3C trace context in the request's ``_meta`` (the MCP
SDK does so from inside a span) gets the tool's spans in its own trace; the spans are also written
to ``traces/otel/mcp-<time>.jsonl``.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from core.errors import InputError, MedpathError
from core.settings import Settings
from core.tracing import span, start_run
from medpath.services import Services, build_services
from medpath.session import Session

__all__ = ["build_server"]


@contextmanager
def _tool_errors() -> Iterator[None]:
    """A medpath error becomes an MCP tool error whose message the caller sees."""
    from mcp.server.mcpserver.exceptions import ToolError


    try:
        yield
    except ValueError as exc:
        raise ToolError(f"InputError: {exc}") from exc
    except MedpathError as exc:
        raise ToolError(f"{type(exc).__name__}: {exc}") from exc


def build_server(settings: Settings, *, retriever: Any = None, session: Any = None, services: Services | None = None) -> Any:
    """An ``MCPServer`` with the two tools; stores load on the first call, from one services container."""
    services = services or build_services(settings)
    from mcp.server.mcpserver import MCPServer


    server = MCPServer("medpath", instructions="Offline biomedical retrieval and question answering over DrugMechDB.")
    state: dict[str, Any] = {"retriever": retriever, "session": session}
    # open for the process, on disk only (kept in memory, spans would grow with every call)
    start_run(f"mcp-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}", settings.traces_dir, keep=False)

    def svc() -> Any:
        if state["retriever"] is None:
            state["retriever"] = services.retrieval
        return state["retriever"]

    @server.tool(name="memory.query", description="Hybrid retrieval: a two-tier (graph + supporting text) context for a "
                 "query, within token budgets, PHI redacted. Optional patient_id, mode, depth 1-4, force_route.")
    async def memory_query(query: str, patient_id: str | None = None, mode: str | None = None, depth: int = 3,
                           force_route: str | None = None) -> dict[str, Any]:

        with span("mcp.tool.memory.query"), _tool_errors():
            result = await svc().aretrieve(query, patient_id=patient_id, depth=depth, force_route=force_route, mode=mode,
                                           actor_id="mcp", auth_source="mcp")
        return result.model_dump()

    @server.tool(name="medpath.ask", description="Answer a biomedical question with an evidence path and citations. "
                 "Questions on the same thread_id are a conversation (follow-ups such as 'and what does it target?'). "
                 "If the status is NEEDS_CLARIFICATION, call again with thread_id and resume (an option index or entity id).")
    def medpath_ask(question: str | None = None, thread_id: str | None = None, resume: str | None = None,
                    mode: str = "semantic") -> dict[str, Any]:
        with _tool_errors():
            return _ask(question, thread_id, resume, mode)

    def _ask(question: str | None, thread_id: str | None, resume: str | None, mode: str) -> dict[str, Any]:

        if state["session"] is None:
            state["session"] = Session(settings, interactive=True, services=services)
        sess = state["session"]
        if resume is not None:
            if not thread_id:
                raise InputError("resume needs the thread_id of the pending question")
            values = sess.resume(thread_id, resume)
        else:
            if not (question or "").strip():
                raise InputError("give a question")
            values = sess.ask(question, thread_id=thread_id or uuid.uuid4().hex, user_id="mcp", mode=mode)
        out = {k: values.get(k) for k in ("thread_id", "status", "answer", "evidence", "citations", "understood_as",
                                          "suggestions", "ranked_answers", "drug_class", "also_asked")}
        if values.get("status") == "NEEDS_CLARIFICATION":
            out["clarification"] = values.get("interrupt")
        return out

    return server
