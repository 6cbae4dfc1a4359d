"""The medpath error tree, rooted at ``MedpathError``.

::

    MedpathError
     ├── ConfigError              bad settings, bad YAML, unknown backend
     ├── InputError               a malformed question or argument
     ├── DataError                a broken or missing data file
     ├── StoreError               a store could not be read or written
     │    ├── NotFoundError       an id or thread that does not exist
     │    ├── StoreBusyError      another process holds the store past the bounded wait (503 + Retry-After)
     │    ├── IndexMissingError   the indexes are not built yet
     │    └── IndexMismatchError  the index was built with another model
     ├── RetrievalError           the retrieval pipeline failed
     │    ├── DenseUnavailableError   the dense index is down
     │    └── RetrievalUnavailableError   hybrid retrieval is switched off or its stores are down
     ├── APIError                 an HTTP call to `medpath serve` failed (the SDK raises these)
     │    ├── InvalidRequestError     400 / 422
     │    ├── AuthenticationError     401
     │    ├── PermissionDeniedError   403
     │    ├── APINotFoundError        404
     │    ├── RateLimitError          429
     │    └── MemoryRetrievalError    503 (fall back to plain BM25 or no context)
     └── LLMError                 the configured LLM failed or answered badly
          └── LLMUnavailableError     it could not be reached in time

Library exceptions are translated at the boundary with ``raise ... from exc``.
"""

from __future__ import annotations

import re

__all__ = [
    "API_ERRORS",
    "HTTP_STATUS",
    "APIError",
    "APINotFoundError",
    "AuthenticationError",
    "ConfigError",
    "DataError",
    "DenseUnavailableError",
    "IndexMismatchError",
    "IndexMissingError",
    "InputError",
    "InvalidRequestError",
    "LLMError",
    "LLMUnavailableError",
    "MedpathError",
    "MemoryRetrievalError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "RetrievalError",
    "RetrievalUnavailableError",
    "StoreBusyError",
    "StoreError",
    "http_status",
    "public_message",
]


class MedpathError(Exception):
    """Root of every error medpath raises on purpose."""


class ConfigError(MedpathError):
    """Settings or a configuration file are invalid."""


class InputError(MedpathError):
    """The caller gave a malformed question or argument."""


class DataError(MedpathError):
    """A data file is missing, unreadable or malformed."""


class StoreError(MedpathError):
    """A store could not be read or written."""


class NotFoundError(StoreError):
    """The requested id, thread or row does not exist."""


class StoreBusyError(StoreError):
    """Another process (an ingest) held the store for longer than the bounded wait; try again after
    ``retry_after`` seconds."""

    def __init__(self, message: str, *, retry_after: float = 5.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class IndexMissingError(StoreError):
    """The indexes have not been built; run ``medpath index build``."""


class IndexMismatchError(StoreError):
    """The index on disk was built with another embedding model or dimension."""


class RetrievalError(MedpathError):
    """The retrieval pipeline failed."""


class DenseUnavailableError(RetrievalError):
    """The dense (FAISS) index is down or failed during a search."""


class RetrievalUnavailableError(RetrievalError):
    """Hybrid retrieval is disabled (``HYBRID_RETRIEVAL_ENABLED=false``) or every store it needed failed."""


class APIError(MedpathError):
    """An HTTP call to the medpath API failed; ``status`` and ``detail`` say how."""

    def __init__(self, message: str, *, status: int = 0, detail: object = None) -> None:
        """Keep the HTTP status and the server's detail."""
        super().__init__(message)
        self.status = status
        self.detail = detail


class InvalidRequestError(APIError):
    """400 or 422: the request was malformed."""


class AuthenticationError(APIError):
    """401: the token is missing or bad."""


class PermissionDeniedError(APIError):
    """403: the token's role or patient scope does not allow the request."""


class APINotFoundError(APIError):
    """404: no such thread or resource."""


class RateLimitError(APIError):
    """429: too many requests; ``retry_after`` says when to try again (seconds)."""

    def __init__(self, message: str, *, status: int = 429, detail: object = None, retry_after: float | None = None) -> None:
        """Keep the server's Retry-After."""
        super().__init__(message, status=status, detail=detail)
        self.retry_after = retry_after


class MemoryRetrievalError(APIError):
    """503: retrieval is switched off or a store is down; callers fall back (plain BM25, or no context)."""


class LLMError(MedpathError):
    """The configured LLM failed or returned something unusable."""


class LLMUnavailableError(LLMError):
    """The configured LLM could not be reached within its timeout."""


# -- one error -> HTTP status table, used by the API (server side) and the SDK (client side) ---------------------

HTTP_STATUS: tuple[tuple[type[MedpathError], int], ...] = (
    (NotFoundError, 404),
    (InputError, 422),
    (MedpathError, 503),
)
"""Server side: the first row whose class matches the error gives the status (most specific first). Anything
else of medpath's own (a store, the index, retrieval, the LLM, the configuration) is 503: the request was fine and
the service cannot answer it now."""

API_ERRORS: dict[int, type[APIError]] = {
    400: InvalidRequestError, 401: AuthenticationError, 403: PermissionDeniedError, 404: APINotFoundError,
    422: InvalidRequestError, 429: RateLimitError, 503: MemoryRetrievalError,
}
"""Client side: the SDK exception for an HTTP status (``APIError`` for any other)."""


def http_status(exc: MedpathError) -> int:
    """The HTTP status of one of medpath's errors (``HTTP_STATUS``)."""
    return next(code for cls, code in HTTP_STATUS if isinstance(exc, cls))


_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[/\\][^\s'\"/\\:,;()]+)+[/\\]([^\s'\"/\\:,;()]+)")


def public_message(exc: BaseException) -> str:
    """The error's text with every absolute file path cut to its last part (what a client may see)."""
    return _PATH.sub(r"\1", str(exc))
