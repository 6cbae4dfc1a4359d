"""A dictionary that fills itself: for lookups repeated across the candidate paths of one question."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Memo"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(dict[K, V], Generic[K, V]):
    """``memo[key]`` is ``fn(key)``, worked out on the first lookup and kept for the memo's life (one call of a
    ranker: never process-wide)."""

    def __init__(self, fn: Callable[[K], V]) -> None:
        """Remember ``fn``."""
        super().__init__()
        self._fn = fn

    def __missing__(self, key: K) -> V:
        value = self[key] = self._fn(key)
        return value
