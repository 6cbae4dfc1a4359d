"""Keyed pseudonyms (HMAC-SHA256) for who asked: what the audit log, the vault's log and the traces record.

The key is ``MEDPATH_AUDIT_KEY``, else a random one created once in ``<home>/audit_key`` (mode 0600). Without the
key a pseudonym cannot be recomputed from a guessed user id, as an unsalted hash could.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from core.keys import local_secret
from core.settings import audit_key

__all__ = ["Pseudonyms", "load_key"]


def load_key(folder: Path) -> bytes:
    """``MEDPATH_AUDIT_KEY``, else ``<folder>/audit_key`` (created once, 0600)."""
    return local_secret(audit_key(), "MEDPATH_AUDIT_KEY", folder / "audit_key").encode()


class Pseudonyms:
    """``pseudonyms("alice")`` → 16 hex digits, stable for one key."""

    def __init__(self, key: bytes) -> None:
        """Keep the key."""
        self._key = key

    def __call__(self, value: str) -> str:
        """The pseudonym of ``value``."""
        return hmac.new(self._key, value.encode(), hashlib.sha256).hexdigest()[:16]
