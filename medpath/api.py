"""HTTP API (FastAPI): ``medpath serve``.

=========================  =====================================================================
``POST /api/memory/retrieve``   hybrid retrieval (Bearer JWT; ``patient_id`` required unless admin)
``GET /api/v1/memories/search``  memory search within a user, project or org scope (audited, without the query)
``DELETE /api/v1/memories``     forget the caller everywhere (memory, conversations, question spans)
``POST /api/v1/ask``            the whole pipeline; a clarification is answered on the same thread
``GET /healthz``                liveness and store status (no token)
``GET /api/v1/threads/{id}``    the caller's conversation on a thread (turns, pending clarification)
``GET /openapi.json``, ``/docs``, ``/redoc``  the schema; the docs pages' assets are served locally (offline)
=========================  =====================================================================

Status codes: 400 unreadable JSON; 422 a body or parameter that fails validation (depth outside 1–4,
an unknown ``force_route`` or mode); 401 a missing or bad token; 403 a patient outside the caller's
scope, or no ``patient_id`` from a non-admin; 404 an unknown patient or thread; 429 over the rate limit
(per client IP, ``MEDPATH_RATE_LIMIT``, default 100/minute); 503 when ``HYBRID_RETRIEVAL_ENABLED=false``
or the stores are down.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Path, Query, Request, Response
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from core.errors import (
    MedpathError,
    NotFoundError,
    RetrievalUnavailableError,
    StoreBusyError,
    http_status,
    public_message,
)
from core.gc_policy import loading
from core.settings import (
    Settings,
    checkpoint_ttl_days,
    hybrid_retrieval_enabled,
    max_body_bytes,
    pin_native_threads,
    rate_limit,
    rate_limit_storage,
    serve_workers,
)
from core.tracing import joined, start_run
from medpath.auth import Principal, TokenError, load_secret, verify_token
from medpath.forgetting import forget_thread, forget_user
from medpath.http_limits import BodyLimit
from medpath.ratelimit import RateLimiter
from medpath.schemas import AskRequest, AskResponse, Mode, RetrieveRequest, Scope, ThreadResponse
from medpath.search import owner_for, search_memories
from medpath.services import Services, build_services
from medpath.session import Session
from medpath.threads import prune_threads
from medpath.web import WebHooks, web_routes
from memory.audit import audit
from memory.patients import patient_ids_in
from memory.records import SCORE_WEIGHTS
from tools.retrieval import HybridRetriever, RetrievalResult

__all__ = ["AskRequest", "AskResponse", "RetrieveRequest", "create_app", "serve_app"]



class _State:
    """What the app loads lazily, once: from the services container unless injected."""

    def __init__(self, services: Services, retriever: HybridRetriever | None, session: Any) -> None:
        self.services, self._retriever, self._session = services, retriever, session
        self.settings = services.settings
        self.run: str | None = None
        self.spread_asks = False
        """True in each process of ``medpath serve --workers N`` (N > 1): asks end their connection."""
        self.lock = threading.Lock()

    def retriever(self) -> HybridRetriever:
        with self.lock:
            if self._retriever is None:
                self._retriever = self.services.retrieval
            return self._retriever

    def loaded(self) -> HybridRetriever | None:
        """The retriever if it has been loaded (health checks must not load it)."""
        return self._retriever

    def session(self) -> Any:
        with self.lock:
            if self._session is None:
                self._session = Session(self.settings, interactive=True, services=self.services)
            return self._session


def create_app(settings: Settings | None = None, *, services: Services | None = None,
               retriever: HybridRetriever | None = None, session: Any = None, limiter: RateLimiter | None = None,
               secret: str | None = None) -> FastAPI:
    """The API over these settings (or ``services``); ``retriever``, ``session``, ``limiter`` and ``secret`` can be
    injected."""
    services = services or build_services(settings)
    settings = services.settings
    limiter = limiter or RateLimiter.from_text(rate_limit(), storage_uri=rate_limit_storage())
    state = _State(services, retriever, session)
    # FastAPIOffline serves the Swagger UI and ReDoc assets from the package: /docs works without a network
    app = FastAPIOffline(title="medpath", version="0.1.0",
                         description="Hybrid retrieval, memory search and question answering over DrugMechDB.")
    app.state.medpath = state
    app.state.limiter = limiter
    app.add_exception_handler(RequestValidationError, _invalid)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _audited(services))  # type: ignore[arg-type]
    app.add_middleware(BodyLimit, limit=max_body_bytes())  # before routing, auth and JSON parsing
    principal = _principal_dependency(limiter, secret or load_secret(settings.home))
    _ops_routes(app, state, limiter)
    _retrieval_routes(app, state, principal)
    _qa_routes(app, state, principal)
    web_routes(app, WebHooks(state=state, principal=principal, internal_thread=lambda who, t: _internal_thread(state, who, t),
                             check_question=_check_question, ask_response=_ask_response, run_id=lambda: state.run))
    return app


def serve_app() -> FastAPI:
    """The app of ``medpath serve`` over the environment's settings, its stores loaded before the first request
    (each worker process of ``serve --workers N`` calls this)."""
    pin_native_threads()
    with loading():  # the loaded indexes are frozen: later collections never walk them (core.gc_policy)
        app = create_app(Settings.from_env())
        run = f"serve-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}"
        # this process's spans, on disk only (the page links each ask's waterfall); memory would grow with every ask
        start_run(run, app.state.medpath.settings.traces_dir, keep=False)
        app.state.medpath.run = run
        app.state.medpath.spread_asks = serve_workers() > 1
        app.state.medpath.retriever()
    # retention: conversations unused for longer than MEDPATH_CHECKPOINT_TTL_DAYS go when a server starts
    prune_threads(app.state.medpath.session().graph.checkpointer, checkpoint_ttl_days() * 86400)
    return app


def _http(exc: MedpathError, internal: str = "", thread: str = "") -> HTTPException:
    """One of medpath's errors as an HTTP error (``core.errors.HTTP_STATUS``); a thread's internal id never leaks."""
    detail = public_message(exc)
    busy = isinstance(exc, StoreBusyError)  # a store another process holds: try again shortly
    return HTTPException(http_status(exc), detail.replace(internal, thread) if internal else detail,
                         headers={"Retry-After": str(max(1, round(exc.retry_after)))} if busy else None)


def _audited(services: Services) -> Callable[[Request, StarletteHTTPException], Any]:
    """FastAPI's own handling of HTTP errors, after an audit record for each 401 and 403 (denials are audited)."""
    settings, names = services.settings, services.pseudonyms

    async def handler(request: Request, exc: StarletteHTTPException) -> Any:
        if exc.status_code in (401, 403):
            who = getattr(request.state, "principal", None)
            record = {"action": "http.denied", "source": "medpath", "outcome": str(exc.status_code),
                      "actor_hash": names(who.sub) if who else None, "auth_source": who.auth_source if who else None,
                      "payload": {"path": request.url.path, "method": request.method, "reason": str(exc.detail)[:200]}}
            await asyncio.to_thread(audit, settings, record)
        return await http_exception_handler(request, exc)

    return handler


async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = exc.errors()
    status = 400 if any(e.get("type") == "json_invalid" for e in errors) else 422
    return JSONResponse({"detail": [{k: e.get(k) for k in ("type", "loc", "msg")} for e in errors]}, status_code=status)


def _principal_dependency(limiter: RateLimiter, key: str) -> Callable[..., Principal]:
    """The dependency every protected route takes: the rate limit per client, then the bearer token."""
    bearer = HTTPBearer(auto_error=False, description="HS256 JWT from `medpath token issue`.")

    def limited(request: Request) -> None:
        client = request.client.host if request.client else "unknown"
        wait = limiter.hit(client)
        if wait is not None:
            raise HTTPException(429, f"rate limit {limiter.text} exceeded", headers={"Retry-After": str(max(1, round(wait)))})

    def principal(request: Request, _: None = Depends(limited),
                  cred: HTTPAuthorizationCredentials | None = Depends(bearer)) -> Principal:
        if cred is None or cred.scheme.lower() != "bearer":
            raise HTTPException(401, "missing bearer token", headers={"WWW-Authenticate": "Bearer"})
        try:
            who = verify_token(key, cred.credentials)
        except TokenError as exc:
            raise HTTPException(401, str(exc), headers={"WWW-Authenticate": "Bearer"}) from exc
        request.state.principal = who  # for the audit record of a later denial
        return who

    return principal


def _check_patient(who: Principal, patient_id: str | None) -> None:
    if patient_id is None:
        if not who.is_admin:
            raise HTTPException(403, "patient_id is required for non-admin callers")
    elif not who.may_see(patient_id):
        raise HTTPException(403, f"patient {patient_id} is outside the caller's scope")


def _named_out_of_scope(who: Principal, text: str) -> None:
    for pid in patient_ids_in(text):
        if not who.may_see(pid):
            raise HTTPException(403, f"patient {pid} is outside the caller's scope")


def _internal_thread(state: _State, who: Principal, thread_id: str) -> str:
    """Threads are private: the checkpointer's key joins the caller's keyed pseudonym to the thread id."""
    return f"api:{state.services.pseudonyms(who.sub)[:16]}:{thread_id}"


def _ops_routes(app: FastAPI, state: _State, limiter: RateLimiter) -> None:
    @app.get("/healthz", tags=["ops"])
    def healthz() -> dict[str, Any]:
        """Liveness, whether hybrid retrieval is on, and the stores that are loaded."""
        svc = state.loaded()
        return {"status": "ok", "hybrid_retrieval_enabled": hybrid_retrieval_enabled(), "loaded": svc is not None,
                "stores": sorted(svc.stores) if svc else [], "rate_limit": limiter.text}


def _retrieval_routes(app: FastAPI, state: _State, principal: Callable[..., Principal]) -> None:
    @app.post("/api/memory/retrieve", response_model=RetrievalResult, tags=["retrieval"],
              responses={400: {}, 401: {}, 403: {}, 404: {}, 422: {}, 429: {}, 503: {}})
    async def retrieve(body: RetrieveRequest, request: Request, who: Principal = Depends(principal)) -> RetrievalResult:
        """Hybrid retrieval: classify, fan out under deadlines, two-tier context within budgets, audited.

        A W3C ``traceparent`` header (the SDK sends the caller's) puts the retrieval's spans in the caller's trace.
        """
        _check_patient(who, body.patient_id)
        _named_out_of_scope(who, body.query)
        carrier = {k: v for k, v in request.headers.items() if k in ("traceparent", "tracestate")}
        try:
            svc = state.retriever()
            with joined(carrier, "http.retrieve", **{"http.route": "/api/memory/retrieve"}):
                return await svc.aretrieve(body.query, patient_id=body.patient_id, depth=body.depth,
                                           force_route=body.force_route, mode=body.mode, actor_id=who.sub,
                                           auth_source=who.auth_source,
                                           patient_scope=None if who.is_admin else who.may_see)
        except MedpathError as exc:
            raise _http(exc) from exc

    @app.get("/api/v1/memories/search", tags=["memory"], responses={401: {}, 403: {}, 422: {}, 429: {}, 503: {}})
    def search(q: str = Query(..., max_length=2000, description="What to look for."),
               scope: Scope = "user",
               scope_id: str | None = Query(None, max_length=128, description="Defaults to the caller (user scope)."),
               limit: int = Query(10, ge=1, le=100),
               mode: Mode = "semantic",
               who: Principal = Depends(principal)) -> dict[str, Any]:
        """Semantic memory search in a scope: graph filter, then composite score; the latest version wins."""
        sid = scope_id or (who.sub if scope == "user" else None)
        if sid is None:
            raise HTTPException(422, f"scope_id is required for the {scope} scope")
        allowed = who.is_admin or (scope == "user" and sid == who.sub) or (scope == "project" and sid in who.projects) \
            or (scope == "org" and sid == who.org)
        if not allowed:
            raise HTTPException(403, f"the {scope} scope {sid!r} is outside the caller's scope")
        try:
            svc = state.retriever()
            if svc.memory is None:
                raise RetrievalUnavailableError("memory is off (MEDPATH_MEMORY=off)")
            weights = svc.modes[mode].weights if mode in svc.modes else SCORE_WEIGHTS
            out = search_memories(svc.memory, svc.resources, owner_for(scope, sid), q, limit=limit, weights=weights,
                                  patients=None if who.is_admin else who.may_see)
        except MedpathError as exc:
            raise _http(exc) from exc
        # who searched which kind of scope, and how much came back; never the query or the scope's name
        audit(state.settings, {"action": "memory.search", "source": "api", "outcome": "success", "mode": mode,
                               "actor_hash": state.services.pseudonyms(who.sub), "auth_source": who.auth_source,
                               "payload": {"scope": scope}, "counts": {"results": len(out.get("results", []))}})
        return {"scope": scope, "scope_id": sid, "mode": mode, **out}

    @app.delete("/api/v1/memories", tags=["memory"], responses={401: {}, 429: {}, 503: {}})
    def forget(who: Principal = Depends(principal)) -> dict[str, Any]:
        """Forget the caller: their memory in every tier, their conversations and their question spans, scrubbed from
        the files. 503 with Retry-After while an ingest holds the memory files past the bounded wait."""
        try:
            gone = forget_user(state.services, who.sub, checkpointer=state.session().graph.checkpointer)
        except MedpathError as exc:
            raise _http(exc) from exc
        return {"forgotten": True, "removed": gone}


def _qa_routes(app: FastAPI, state: _State, principal: Callable[..., Principal]) -> None:
    @app.post("/api/v1/ask", response_model=AskResponse, tags=["qa"],
              responses={400: {}, 401: {}, 403: {}, 404: {}, 422: {}, 429: {}, 503: {}})
    def ask(body: AskRequest, response: Response, who: Principal = Depends(principal)) -> AskResponse:
        """Ask a question; on NEEDS_CLARIFICATION, post again with the thread id and ``resume``."""
        if state.spread_asks:
            # several server processes: a keep-alive connection would pin its client to one process for good, and
            # the kernel hands connections out unevenly, so each answer ends its connection and the next question
            # goes to whichever process accepts it first (the least busy one)
            response.headers["Connection"] = "close"
        _check_question(who, body)
        thread = body.thread_id or uuid.uuid4().hex
        internal = _internal_thread(state, who, thread)
        try:
            session = state.session()
            if body.resume is not None:
                values = session.resume(internal, body.resume)
            else:
                values = session.ask(body.question, thread_id=internal, user_id=who.sub, mode=body.mode,
                                     patient_scope=who.counted)
        except MedpathError as exc:
            raise _http(exc, internal, thread) from exc
        return _ask_response(thread, values)

    @app.get("/api/v1/threads/{thread_id}", response_model=ThreadResponse, tags=["qa"],
             responses={401: {}, 404: {}, 422: {}, 429: {}, 503: {}})
    def thread(thread_id: str = Path(..., max_length=128), who: Principal = Depends(principal)) -> ThreadResponse:
        """The caller's conversation on a thread: its turns and the pending clarification (threads are private)."""
        try:
            values = state.session().history(_internal_thread(state, who, thread_id))
        except NotFoundError as exc:
            raise HTTPException(404, f"no thread {thread_id!r}") from exc
        except MedpathError as exc:
            raise _http(exc) from exc
        return ThreadResponse(thread_id=thread_id, messages=values["messages"], pending=values.get("interrupt"))

    @app.delete("/api/v1/threads/{thread_id}", tags=["qa"], responses={401: {}, 404: {}, 422: {}, 429: {}, 503: {}})
    def thread_delete(thread_id: str = Path(..., max_length=128), who: Principal = Depends(principal)) -> dict[str, Any]:
        """Delete one of the caller's conversations: scrub its bytes from the checkpoints and drop the traces of its
        questions (404 for another caller's, as for reading it). What memory learnt from its answers stays: ``DELETE
        /api/v1/memories`` forgets that."""
        try:
            gone = forget_thread(state.settings, state.session().graph.checkpointer, _internal_thread(state, who, thread_id))
        except MedpathError as exc:
            raise _http(exc) from exc
        if gone is None:
            raise HTTPException(404, f"no thread {thread_id!r}")
        return {"deleted": True, "thread_id": thread_id}


def _check_question(who: Principal, body: AskRequest) -> None:
    """What every ask must carry (a question, or a thread and a resume), and no patient outside the scope."""
    if body.resume is None and not (body.question or "").strip():
        raise HTTPException(422, "give a question, or a thread_id and resume")
    if body.resume is not None and body.thread_id is None:
        raise HTTPException(422, "resume needs the thread_id of the pending question")
    _named_out_of_scope(who, body.question or "")


def _ask_response(thread: str, values: dict[str, Any]) -> AskResponse:
    hybrid = values.get("hybrid") or {}
    return AskResponse(
        thread_id=thread, status=str(values.get("status", "")), answer=values.get("answer", ""),
        evidence=values.get("evidence", []), citations=values.get("citations", []),
        clarification=values.get("interrupt") if values.get("status") == "NEEDS_CLARIFICATION" else None,
        route={k: hybrid.get(k) for k in ("route", "classifier_rule_id", "classifier_confidence") if k in hybrid},
        understood_as=values.get("understood_as", ""), suggestions=values.get("suggestions", []),
        also_asked=values.get("also_asked", []),
        ranked_answers=values.get("ranked_answers", []), trace_id=str(values.get("trace_id", "")),
        drug_class=values.get("drug_class", ""),
    )
