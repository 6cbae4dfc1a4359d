"""Python SDK for the medpath HTTP API: :class:`MemoryClient` and :class:`AsyncMemoryClient` (httpx).

::

    from medpath.sdk import AsyncMemoryClient, MemoryRetrievalError

    async with AsyncMemoryClient(base_url="http://127.0.0.1:8765", token=token) as client:
        try:
            result = await client.retrieve("medications for PAT_001", patient_id="PAT_001", depth=3)
        except MemoryRetrievalError:
            ...  # 503: retrieval is off or a store is down; fall back

HTTP errors become typed exceptions (all under ``core.errors.APIError``): 400/422
``InvalidRequestError``, 401 ``AuthenticationError``, 403 ``PermissionDeniedError``, 404
``APINotFoundError``, 429 ``RateLimitError``, 503 ``MemoryRetrievalError``. A transport can be
injected (``httpx.ASGITransport(app)`` runs the app in-process, as the tests do).
"""

from __future__ import annotations

from typing import Any, Self
from urllib.parse import quote

import httpx

from core.errors import (
    API_ERRORS,
    APIError,
    AuthenticationError,
    InvalidRequestError,
    MemoryRetrievalError,
    PermissionDeniedError,
    RateLimitError,
)
from tools.retrieval import RetrievalResult

__all__ = [
    "APIError",
    "AsyncMemoryClient",
    "AuthenticationError",
    "InvalidRequestError",
    "MemoryClient",
    "MemoryRetrievalError",
    "PermissionDeniedError",
    "RateLimitError",
]

_BY_STATUS = API_ERRORS


def _raise_for(resp: httpx.Response) -> None:
    if resp.status_code < 400:
        return
    try:
        detail = resp.json().get("detail")
    except ValueError:
        detail = resp.text
    cls = _BY_STATUS.get(resp.status_code, APIError)
    msg = f"{resp.status_code} from {resp.request.method} {resp.request.url.path}: {detail}"
    if cls is RateLimitError:
        after = resp.headers.get("Retry-After")
        raise RateLimitError(msg, status=429, detail=detail, retry_after=float(after) if after else None)
    raise cls(msg, status=resp.status_code, detail=detail)


def _retrieve_body(query: str, patient_id: str | None, depth: int, force_route: str | None, mode: str | None) -> dict[str, Any]:
    body: dict[str, Any] = {"query": query, "depth": depth}
    if patient_id is not None:
        body["patient_id"] = patient_id
    if force_route is not None:
        body["force_route"] = force_route
    if mode is not None:
        body["mode"] = mode
    return body


def _ask_body(question: str | None, thread_id: str | None, resume: str | int | None, mode: str) -> dict[str, Any]:
    return {k: v for k, v in {"question": question, "thread_id": thread_id, "resume": resume, "mode": mode}.items() if v is not None}


def _search_params(query: str, scope: str, scope_id: str | None, limit: int, mode: str) -> dict[str, Any]:
    params: dict[str, Any] = {"q": query, "scope": scope, "limit": limit, "mode": mode}
    if scope_id is not None:
        params["scope_id"] = scope_id
    return params


def _trace_headers() -> dict[str, str]:
    """W3C trace context of the caller's current span (empty outside a span), so the server joins its trace."""
    from opentelemetry.propagate import inject

    carrier: dict[str, str] = {}
    inject(carrier)
    return carrier


def _translate(exc: httpx.HTTPError) -> APIError:
    return MemoryRetrievalError(f"cannot reach the medpath API: {exc}", status=0, detail=str(exc))


class MemoryClient:
    """Synchronous client; use it as a context manager (or call :meth:`close`)."""

    def __init__(self, base_url: str = "http://127.0.0.1:8765", token: str | None = None, *, timeout: float = 30.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        """Connect lazily to ``base_url`` with a Bearer ``token``."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(base_url=base_url, headers=headers, timeout=timeout, transport=transport)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def _call(self, method: str, path: str, **kw: Any) -> Any:
        try:
            resp = self._http.request(method, path, headers=_trace_headers(), **kw)
        except httpx.HTTPError as exc:
            raise _translate(exc) from exc
        _raise_for(resp)
        return resp.json()

    def retrieve(self, query: str, *, patient_id: str | None = None, depth: int = 3, force_route: str | None = None,
                 mode: str | None = None) -> RetrievalResult:
        """``POST /api/memory/retrieve``."""
        return RetrievalResult.model_validate(self._call("POST", "/api/memory/retrieve",
                                                         json=_retrieve_body(query, patient_id, depth, force_route, mode)))

    def search(self, query: str, *, scope: str = "user", scope_id: str | None = None, limit: int = 10,
               mode: str = "semantic") -> dict[str, Any]:
        """``GET /api/v1/memories/search``."""
        return self._call("GET", "/api/v1/memories/search", params=_search_params(query, scope, scope_id, limit, mode))

    def ask(self, question: str | None = None, *, thread_id: str | None = None, resume: str | int | None = None,
            mode: str = "semantic") -> dict[str, Any]:
        """``POST /api/v1/ask``; answer a clarification with ``thread_id`` and ``resume``."""
        return self._call("POST", "/api/v1/ask", json=_ask_body(question, thread_id, resume, mode))

    def threads(self, *, limit: int = 50) -> list[dict[str, Any]]:
        """``GET /api/v1/threads``: the caller's conversations, newest first."""
        return list(self._call("GET", "/api/v1/threads", params={"limit": limit})["threads"])

    def thread(self, thread_id: str) -> dict[str, Any]:
        """``GET /api/v1/threads/{thread_id}``: one conversation's messages and its pending clarification."""
        return dict(self._call("GET", f"/api/v1/threads/{quote(thread_id, safe='')}"))

    def delete_thread(self, thread_id: str) -> None:
        """``DELETE /api/v1/threads/{thread_id}``: delete one conversation (``APINotFoundError`` when there is none)."""
        self._call("DELETE", f"/api/v1/threads/{quote(thread_id, safe='')}")

    def health(self) -> dict[str, Any]:
        """``GET /healthz``."""
        return self._call("GET", "/healthz")


class AsyncMemoryClient:
    """Asynchronous client; use it as an async context manager (or await :meth:`aclose`)."""

    def __init__(self, base_url: str = "http://127.0.0.1:8765", token: str | None = None, *, timeout: float = 30.0,
                 transport: httpx.AsyncBaseTransport | None = None) -> None:
        """Connect lazily to ``base_url`` with a Bearer ``token``."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.AsyncClient(base_url=base_url, headers=headers, timeout=timeout, transport=transport)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    async def _call(self, method: str, path: str, **kw: Any) -> Any:
        try:
            resp = await self._http.request(method, path, headers=_trace_headers(), **kw)
        except httpx.HTTPError as exc:
            raise _translate(exc) from exc
        _raise_for(resp)
        return resp.json()

    async def retrieve(self, query: str, *, patient_id: str | None = None, depth: int = 3, force_route: str | None = None,
                       mode: str | None = None) -> RetrievalResult:
        """``POST /api/memory/retrieve``."""
        return RetrievalResult.model_validate(await self._call("POST", "/api/memory/retrieve",
                                                               json=_retrieve_body(query, patient_id, depth, force_route, mode)))

    async def search(self, query: str, *, scope: str = "user", scope_id: str | None = None, limit: int = 10,
                     mode: str = "semantic") -> dict[str, Any]:
        """``GET /api/v1/memories/search``."""
        return await self._call("GET", "/api/v1/memories/search", params=_search_params(query, scope, scope_id, limit, mode))

    async def ask(self, question: str | None = None, *, thread_id: str | None = None, resume: str | int | None = None,
                  mode: str = "semantic") -> dict[str, Any]:
        """``POST /api/v1/ask``; answer a clarification with ``thread_id`` and ``resume``."""
        return await self._call("POST", "/api/v1/ask", json=_ask_body(question, thread_id, resume, mode))

    async def threads(self, *, limit: int = 50) -> list[dict[str, Any]]:
        """``GET /api/v1/threads``: the caller's conversations, newest first."""
        return list((await self._call("GET", "/api/v1/threads", params={"limit": limit}))["threads"])

    async def thread(self, thread_id: str) -> dict[str, Any]:
        """``GET /api/v1/threads/{thread_id}``: one conversation's messages and its pending clarification."""
        return dict(await self._call("GET", f"/api/v1/threads/{quote(thread_id, safe='')}"))

    async def delete_thread(self, thread_id: str) -> None:
        """``DELETE /api/v1/threads/{thread_id}``: delete one conversation (``APINotFoundError`` when there is none)."""
        await self._call("DELETE", f"/api/v1/threads/{quote(thread_id, safe='')}")

    async def health(self) -> dict[str, Any]:
        """``GET /healthz``."""
        return await self._call("GET", "/healthz")
