"""Token counting for the context budgets: tiktoken cl100k_base from the bundled BPE file, or whitespace.

tiktoken downloads its BPE files on first use, which cannot work offline. medpath ships
``data/tiktoken/cl100k_base.tiktoken.gz`` and unpacks it where tiktoken's cache looks for it. When that
fails (no tiktoken, a broken file), counting falls back to whitespace words, and ``name`` says so.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import os
import threading
from pathlib import Path
from typing import Protocol

from core.settings import scoped_env

__all__ = ["TokenCounter", "WhitespaceCounter", "load_counter"]

CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
log = logging.getLogger("medpath.tokens")


class TokenCounter(Protocol):
    """Counts and cuts tokens."""

    name: str
    """``cl100k_base`` or ``whitespace``."""

    def count(self, text: str) -> int:
        """Tokens in ``text``."""
        ...

    def truncate(self, text: str, limit: int) -> str:
        """The longest prefix of ``text`` with at most ``limit`` tokens."""
        ...


class WhitespaceCounter:
    """Whitespace-separated words as tokens (the fallback)."""

    name = "whitespace"

    def count(self, text: str) -> int:
        """Words in ``text``."""
        return len(text.split())

    def truncate(self, text: str, limit: int) -> str:
        """First ``limit`` words."""
        return " ".join(text.split()[: max(0, limit)])


class TiktokenCounter:
    """Exact counts with a tiktoken encoding."""

    def __init__(self, encoding: object) -> None:
        """Wrap a ``tiktoken.Encoding``."""
        self._enc = encoding
        self.name = encoding.name  # type: ignore[attr-defined]

    def count(self, text: str) -> int:
        """Tokens in ``text``."""
        return len(self._enc.encode_ordinary(text))  # type: ignore[attr-defined]

    def truncate(self, text: str, limit: int) -> str:
        """Decode the first ``limit`` tokens (a cut never splits a character: bad bytes are dropped)."""
        toks = self._enc.encode_ordinary(text)  # type: ignore[attr-defined]
        if len(toks) <= limit:
            return text
        return self._enc.decode(toks[: max(0, limit)], errors="ignore")  # type: ignore[attr-defined]


_ENV_LOCK = threading.Lock()


def _unpack(bundle: Path, cache_dir: Path) -> Path:
    """Write the decompressed BPE file where tiktoken's cache expects it; verify its hash."""
    target = cache_dir / hashlib.sha1(CL100K_URL.encode()).hexdigest()
    if target.exists():
        return target
    raw = gzip.decompress(bundle.read_bytes())
    if hashlib.sha256(raw).hexdigest() != CL100K_SHA256:
        raise ValueError(f"{bundle} does not hold the cl100k_base file tiktoken expects")
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(raw)
    tmp.replace(target)
    return target


def load_counter(bundle: Path, cache_dir: Path) -> TokenCounter:
    """cl100k_base from ``bundle``, or the whitespace fallback (the lock serialises the environment juggling)."""
    with _ENV_LOCK:
        counter: TokenCounter
        try:
            import tiktoken

            _unpack(bundle, cache_dir)
            with scoped_env("TIKTOKEN_CACHE_DIR", str(cache_dir)):
                counter = TiktokenCounter(tiktoken.get_encoding("cl100k_base"))
        except Exception as exc:  # noqa: BLE001 - any failure means the fallback, and it is logged
            log.warning("tiktoken unavailable (%s); counting whitespace words", exc)
            counter = WhitespaceCounter()
        return counter
