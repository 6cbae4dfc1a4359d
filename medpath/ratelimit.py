"""Per-client rate limit: at most N requests in any moving window (default 100 per minute), on ``limits``.

``MEDPATH_RATE_LIMIT`` sets it, as ``100/minute``, ``10/second``, ``500/hour`` or a bare number per minute.
The client key is the caller's IP address. The counts live in a ``limits`` storage: in-process memory by default
(each server process counts its own clients); ``MEDPATH_REDIS_URL`` makes every process that uses the same Redis
count together (``medpath serve --workers N``, or servers on several machines). A Redis that does not answer lets
requests through and logs it once per outage (the limit is a guard against floods, not an access control).
"""

from __future__ import annotations

import logging
import re
import time

from limits import RateLimitItemPerSecond
from limits.errors import ConfigurationError
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from core.errors import ConfigError

__all__ = ["RateLimiter", "parse_limit"]

log = logging.getLogger("medpath.ratelimit")

_UNITS = {"second": 1.0, "minute": 60.0, "hour": 3600.0}


def parse_limit(text: str) -> tuple[int, float]:
    """``"100/minute"`` → (100, 60.0); a bare number is per minute."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:/\s*(second|minute|hour)s?)?\s*", str(text))
    if not m or int(m.group(1)) < 1:
        raise ConfigError(f"bad rate limit {text!r}; write it as 100/minute")
    return int(m.group(1)), _UNITS[m.group(2) or "minute"]


class RateLimiter:
    """A moving-window limit per client key (``limits``' MovingWindowRateLimiter; thread-safe)."""

    def __init__(self, limit: int = 100, window_s: float = 60.0, storage_uri: str = "memory://") -> None:
        """Allow ``limit`` requests per ``window_s`` seconds per key, counted in the storage at ``storage_uri``."""
        if limit < 1 or window_s < 1 or window_s != int(window_s):
            raise ConfigError(f"bad rate limit {limit} per {window_s} s: a positive count per whole seconds")
        self.limit, self.window_s = limit, window_s
        self._item = RateLimitItemPerSecond(limit, int(window_s))
        try:
            storage = storage_from_string(storage_uri, socket_timeout=0.5, socket_connect_timeout=0.5) \
                if storage_uri.startswith(("redis", "unix")) else storage_from_string(storage_uri)
        except ConfigurationError as exc:  # e.g. the redis package is missing
            raise ConfigError(f"rate-limit storage {storage_uri.split('@')[-1]!r}: {exc}") from exc
        self._strategy = MovingWindowRateLimiter(storage)
        self._down = False

    @classmethod
    def from_text(cls, text: str, storage_uri: str = "memory://") -> RateLimiter:
        """From ``"100/minute"``."""
        return cls(*parse_limit(text), storage_uri=storage_uri)

    def hit(self, key: str) -> float | None:
        """Record a request; None when allowed, else the seconds until one would be."""
        try:
            if self._strategy.hit(self._item, key):
                self._down = False
                return None
            reset = self._strategy.get_window_stats(self._item, key).reset_time
        except Exception as exc:  # noqa: BLE001 - a storage that does not answer (Redis down): let the request through
            if not self._down:
                log.warning("rate-limit storage unavailable, requests are not counted: %s", exc)
            self._down = True
            return None
        return max(0.0, reset - time.time())

    @property
    def text(self) -> str:
        """The limit as text."""
        unit = next((u for u, s in _UNITS.items() if s == self.window_s), None)
        return f"{self.limit}/{unit}" if unit else f"{self.limit}/{self.window_s:g}s"
