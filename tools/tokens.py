"""Token counting for the context budgets: tiktoken cl100k_base from the bundled BPE file, or whitespace.

tiktoken downloads its BPE files on first use, which cannot work offline. medpath ships
``data/tiktoken/cl100k_base.tiktoken.gz``, checks its hash, and builds the encoding from it. The parsed ranks are
kept in ``<home>/tiktoken`` as a ``marshal`` file (reading it takes about a tenth of parsing the BPE text, which
matters for a cold ``medpath ask``); a broken or stale cache file is rebuilt. When all that fails (no tiktoken, a
broken bundle), counting falls back to whitespace words, and ``name`` says so.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import logging
import marshal
import os
import threading
from pathlib import Path
from typing import Protocol

__all__ = ["TokenCounter", "WhitespaceCounter", "load_counter"]

CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
"""SHA-256 of the decompressed BPE file, as ``tiktoken_ext.openai_public`` expects it."""
CL100K_PATTERN = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]"""
                  r"""|\s+(?!\S)|\s""")
"""cl100k_base's split pattern (``tiktoken_ext.openai_public.cl100k_base``; a test compares the two encodings)."""
CL100K_SPECIAL = {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                  "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}
"""cl100k_base's special tokens."""
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


_LOAD_LOCK = threading.Lock()


def _ranks(bundle: Path, cache_dir: Path) -> dict[bytes, int]:
    """The BPE ranks: from the marshal cache when it is sound, else parsed from ``bundle`` (hash checked) and cached."""
    cached = cache_dir / f"cl100k_base.{CL100K_SHA256[:16]}.marshal"
    try:
        ranks = marshal.loads(cached.read_bytes())
        if isinstance(ranks, dict) and len(ranks) > 100_000:
            return ranks
    except (OSError, EOFError, ValueError, TypeError):
        pass
    raw = gzip.decompress(bundle.read_bytes())
    if hashlib.sha256(raw).hexdigest() != CL100K_SHA256:
        raise ValueError(f"{bundle} does not hold the cl100k_base file tiktoken expects")
    ranks = {base64.b64decode(tok): int(rank) for tok, rank in (line.split() for line in raw.splitlines() if line)}
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps(ranks))
        tmp.replace(cached)
    except OSError as exc:
        log.warning("cannot cache the token ranks in %s (%s)", cache_dir, exc)
    return ranks


def load_counter(bundle: Path, cache_dir: Path) -> TokenCounter:
    """cl100k_base from ``bundle`` (ranks cached in ``cache_dir``), or the whitespace fallback."""
    with _LOAD_LOCK:
        counter: TokenCounter
        try:
            import tiktoken

            encoding = tiktoken.Encoding("cl100k_base", pat_str=CL100K_PATTERN, mergeable_ranks=_ranks(bundle, cache_dir),
                                         special_tokens=CL100K_SPECIAL)
            counter = TiktokenCounter(encoding)
        except Exception as exc:  # noqa: BLE001 - any failure means the fallback, and it is logged
            log.warning("tiktoken unavailable (%s); counting whitespace words", exc)
            counter = WhitespaceCounter()
        return counter
