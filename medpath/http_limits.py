"""ASGI middleware that refuses an oversized request body with 413, before routing, auth or parsing."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["BodyLimit"]

Scope = dict[str, Any]


class _TooLarge(Exception):
    pass


class BodyLimit:
    """At most ``limit`` bytes of request body: a larger ``Content-Length`` is refused at once, and a chunked body
    is counted as it arrives and cut off when it passes the limit."""

    def __init__(self, app: Any, limit: int) -> None:
        """Wrap ``app``."""
        self.app, self.limit = app, int(limit)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        """Pass the request on, or answer 413."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length", b"")
        if length.isdigit() and int(length) > self.limit:
            await self._refuse(send)
            return
        seen, started = 0, False

        async def counted() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        async def watched(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Any) -> None:
        body = json.dumps({"detail": f"request body over {self.limit} bytes (MEDPATH_MAX_BODY_BYTES)"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
