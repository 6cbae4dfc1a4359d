"""Per-client rate limit: at most N requests in any sliding window (default 100 per minute).

``MEDPATH_RATE_LIMIT`` sets it, as ``100/minute``, ``10/second``, ``500/hour`` or a bare number per minute.
The client key is the caller's IP address. In-process: each server process counts its own clients.
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from collections.abc import Callable

from core.errors import ConfigError

__all__ = ["RateLimiter", "parse_limit"]

_UNITS = {"second": 1.0, "minute": 60.0, "hour": 3600.0}


def parse_limit(text: str) -> tuple[int, float]:
    """``"100/minute"`` → (100, 60.0); a bare number is per minute."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:/\s*(second|minute|hour)s?)?\s*", str(text))
    if not m or int(m.group(1)) < 1:
        raise ConfigError(f"bad rate limit {text!r}; write it as 100/minute")
    return int(m.group(1)), _UNITS[m.group(2) or "minute"]


class RateLimiter:
    """Sliding-window log per client key (thread-safe)."""

    def __init__(self, limit: int = 100, window_s: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        """Allow ``limit`` requests per ``window_s`` seconds per key."""
        self.limit, self.window_s, self.clock = limit, window_s, clock
        self._log: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_text(cls, text: str) -> RateLimiter:
        """From ``"100/minute"``."""
        return cls(*parse_limit(text))

    def hit(self, key: str) -> float | None:
        """Record a request; None when allowed, else the seconds until one would be."""
        now = self.clock()
        with self._lock:
            log = self._log.setdefault(key, deque())
            while log and log[0] <= now - self.window_s:
                log.popleft()
            if len(log) >= self.limit:
                return max(0.0, log[0] + self.window_s - now)
            log.append(now)
            if len(self._log) > 10_000:
                for k in [k for k, v in self._log.items() if not v or v[-1] <= now - self.window_s]:
                    del self._log[k]
            return None

    @property
    def text(self) -> str:
        """The limit as text."""
        unit = next((u for u, s in _UNITS.items() if s == self.window_s), None)
        return f"{self.limit}/{unit}" if unit else f"{self.limit}/{self.window_s:g}s"
