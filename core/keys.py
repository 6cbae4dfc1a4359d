"""Secrets medpath keeps for itself: from an environment variable, else a random one made once in a 0600 file."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from core.errors import ConfigError

__all__ = ["local_secret"]


def local_secret(env_value: str, env_name: str, path: Path, why: str = "") -> str:
    """``env_value`` when set (at least 32 characters), else the secret in ``path``, created once (mode 0600; a
    second process that races to make it reads the winner's). ``why`` explains the length rule in the error."""
    if env_value:
        if len(env_value) < 32:
            raise ConfigError(f"{env_name} must be at least 32 characters{why}")
        return env_value
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            fd = None  # another process made it first
        if fd is not None:
            with os.fdopen(fd, "w") as fh:
                fh.write(secrets.token_hex(32))
    secret = path.read_text().strip()
    if len(secret) < 32:
        raise ConfigError(f"{path.name} holds a secret shorter than 32 characters; delete it to make a new one")
    return secret
