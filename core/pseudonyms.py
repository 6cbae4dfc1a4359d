"""Keyed pseudonyms (HMAC-SHA256) for who asked: what the audit log, the vault's log and the traces record.

The key is ``MEDPATH_AUDIT_KEY``, else a random one created once in ``<home>/audit_key`` (mode 0600). Without the
key a pseudonym cannot be recomputed from a guessed user id, as an unsalted hash could.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from core.errors import ConfigError
from core.settings import audit_key

__all__ = ["Pseudonyms", "load_key"]


def load_key(folder: Path) -> bytes:
    """``MEDPATH_AUDIT_KEY``, else ``<folder>/audit_key`` (created once, 0600)."""
    env = audit_key()
    if env:
        if len(env) < 32:
            raise ConfigError("MEDPATH_AUDIT_KEY must be at least 32 characters")
        return env.encode()
    path = folder / "audit_key"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            fd = None  # another process made it first
        if fd is not None:
            with os.fdopen(fd, "w") as fh:
                fh.write(secrets.token_hex(32))
    key = path.read_text().strip()
    if len(key) < 32:
        raise ConfigError(f"{path.name} holds a key shorter than 32 characters; delete it to make a new one")
    return key.encode()


class Pseudonyms:
    """``pseudonyms("alice")`` → 16 hex digits, stable for one key."""

    def __init__(self, key: bytes) -> None:
        """Keep the key."""
        self._key = key

    def __call__(self, value: str) -> str:
        """The pseudonym of ``value``."""
        return hmac.new(self._key, value.encode(), hashlib.sha256).hexdigest()[:16]
