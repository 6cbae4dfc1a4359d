"""The web chat page and the endpoints it uses, beside the JSON API (``medpath serve``).

=================================  ===============================================================================
``GET /``                          the chat page (static files shipped in ``medpath/static``; no CDN, no build step)
``POST /api/v1/ask/stream``        the ask as Server-Sent Events: ``started``, one ``progress`` per graph node as it
                                   finishes (name and milliseconds), then ``answer`` (the ``AskResponse``) or ``error``
``GET /api/v1/threads``            the caller's conversations, newest first (id, first question, last update)
``GET /api/v1/memories``           what medpath remembers for the caller: facts with their dates and sources
``GET /api/v1/traces/{trace_id}``  the waterfall of one of the caller's asks (HTML)
=================================  ===============================================================================

The page keeps the bearer token in the tab's ``sessionStorage`` and sends it on every call; a 401, 403, 429 or 503
is shown as a sentence, never a blank page.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Query
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles
from sse_starlette.sse import EventSourceResponse

from core.errors import MedpathError, http_status, public_message
from core.tracing import load_spans
from medpath.auth import Principal
from medpath.schemas import AskRequest
from medpath.search import owner_for
from medpath.threads import list_threads
from medpath.trace_report import html_timeline

__all__ = ["STATIC", "WebHooks", "web_routes"]

STATIC = Path(__file__).resolve().parent / "static"
"""The page's files (``index.html``, ``app.js``, ``app.css``), shipped inside the package."""


@dataclass
class WebHooks:
    """What the web routes share with the JSON API (``medpath.api``)."""

    state: Any
    """The API's lazily loaded services and session."""
    principal: Callable[..., Principal]
    """The dependency that checks the rate limit and the bearer token."""
    internal_thread: Callable[[Principal, str], str]
    """The checkpointer's key of a caller's thread."""
    check_question: Callable[[Principal, Any], None]
    """The same checks as ``POST /api/v1/ask`` (raises ``HTTPException``)."""
    ask_response: Callable[[str, dict[str, Any]], Any]
    """The ``AskResponse`` of a finished run."""
    run_id: Callable[[], str | None]
    """The span file of this server process (None when spans are not kept)."""


def web_routes(app: FastAPI, hooks: WebHooks) -> None:
    """Add the page, its files and its endpoints to ``app``."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    _stream_route(app, hooks)
    _listing_routes(app, hooks)


def _stream_route(app: FastAPI, hooks: WebHooks) -> None:
    @app.post("/api/v1/ask/stream", tags=["qa"], responses={401: {}, 403: {}, 422: {}, 429: {}, 503: {}})
    async def ask_stream(body: AskRequest, who: Principal = Depends(hooks.principal)) -> EventSourceResponse:
        """The ask as Server-Sent Events: ``started``, ``progress`` per finished node, then ``answer`` or ``error``."""
        hooks.check_question(who, body)
        thread = body.thread_id or uuid.uuid4().hex
        internal = hooks.internal_thread(who, thread)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, dict[str, Any]] | None] = asyncio.Queue()

        def put(item: tuple[str, dict[str, Any]] | None) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, item)

        def run() -> None:
            last = [time.perf_counter()]

            def on_step(node: str, _update: dict[str, Any]) -> None:
                now = time.perf_counter()
                put(("progress", {"node": node, "status": "done", "ms": round((now - last[0]) * 1000, 1)}))
                last[0] = now

            try:
                session = hooks.state.session()
                if body.resume is not None:
                    values = session.resume(internal, body.resume, on_step=on_step)
                else:
                    values = session.ask(body.question, thread_id=internal, user_id=who.sub, mode=body.mode,
                                         on_step=on_step, patient_scope=who.counted)
                answer = hooks.ask_response(thread, values).model_dump()
                answer["entity_types"] = _types(hooks.state.services.resources.kg, answer)
                put(("answer", answer))
            except MedpathError as exc:
                put(("error", {"status": http_status(exc), "detail": public_message(exc).replace(internal, thread)}))
            except Exception:  # noqa: BLE001 - the stream ends with a readable error, never a broken connection
                put(("error", {"status": 500, "detail": "internal error; the server log has the details"}))
            finally:
                put(None)

        async def events() -> AsyncIterator[dict[str, str]]:
            yield {"event": "started", "data": json.dumps({"thread_id": thread})}
            task = loop.run_in_executor(None, run)
            while (item := await queue.get()) is not None:
                yield {"event": item[0], "data": json.dumps(item[1], default=str)}
            await task

        return EventSourceResponse(events(), ping=15)


def _types(kg: Any, answer: dict[str, Any]) -> dict[str, str]:
    """The entity type of every id on the answer's paths (the page colours the boxes by it)."""
    triples = list(answer.get("evidence") or [])
    for r in answer.get("ranked_answers") or []:
        triples += (r.get("path") or {}).get("triples") or []
    ids = {t.get(k) for t in triples for k in ("head", "tail")} - {None}
    return {i: node.type for i in sorted(ids) if (node := kg.node(i)) is not None}


def _listing_routes(app: FastAPI, hooks: WebHooks) -> None:
    @app.get("/api/v1/threads", tags=["qa"], responses={401: {}, 429: {}, 503: {}})
    def threads(limit: int = Query(50, ge=1, le=200), who: Principal = Depends(hooks.principal)) -> dict[str, Any]:
        """The caller's conversations, newest first: id, first question, number of turns, last update."""
        try:
            rows = list_threads(hooks.state.session().graph.checkpointer, hooks.internal_thread(who, ""))
        except MedpathError as exc:
            raise HTTPException(http_status(exc), public_message(exc)) from exc
        return {"threads": rows[:limit]}

    @app.get("/api/v1/memories", tags=["memory"], responses={401: {}, 429: {}, 503: {}})
    def memories(limit: int = Query(100, ge=1, le=1000), who: Principal = Depends(hooks.principal)) -> dict[str, Any]:
        """What medpath remembers for the caller (their own user scope, within their patient scope): each fact with its
        dates and source, most recently used first."""
        try:
            svc = hooks.state.retriever()
            if svc.memory is None:
                return {"memories": [], "memory": "off"}
            facts = svc.memory.recall([owner_for("user", who.sub)], patients=None if who.is_admin else who.may_see)
            kg = svc.resources.kg
        except MedpathError as exc:
            raise HTTPException(http_status(exc), public_message(exc)) from exc
        facts = sorted(facts, key=lambda f: -f.last_used)[:limit]
        return {"memories": [{"subject": f.subj, "subject_name": kg.name(f.subj), "relation": f.rel, "object": f.obj,
                              "object_name": kg.name(f.obj), "first_seen": f.first_seen, "last_used": f.last_used,
                              "uses": f.use_count, "source": f.evidence[:300]} for f in facts]}

    @app.get("/api/v1/traces/{trace_id}", tags=["ops"], response_class=HTMLResponse,
             responses={401: {}, 404: {}, 429: {}})
    def trace(trace_id: str, who: Principal = Depends(hooks.principal)) -> HTMLResponse:
        """The waterfall of one of the caller's asks on this server process (404 for anyone else's)."""
        run = hooks.run_id()
        try:
            spans = load_spans(hooks.state.settings.traces_dir, run) if run else []
        except MedpathError:
            spans = []
        mine = hooks.state.services.pseudonyms(who.sub)
        ours = [s for s in spans if s.get("trace_id") == trace_id]
        if not any((s.get("attributes") or {}).get("medpath.user_hash") == mine for s in ours):
            raise HTTPException(404, f"no trace {trace_id[:64]!r} of yours on this server")
        return HTMLResponse(html_timeline(f"ask {trace_id[:12]}", ours))
