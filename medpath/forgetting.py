"""Forgetting a user everywhere medpath writes: the memory tiers, the conversations, and the spans of their questions;
and forgetting one conversation: its checkpoints and the spans of its questions.

What stays is what names nobody: the audit log (keyed pseudonyms and counts, never text) records that the forget
happened. The memory files and the checkpoints are scrubbed (``secure_delete``, WAL truncated, the DuckDB vault
rewritten); a span file that held one of the user's questions (content capture on) is rewritten, in place and under its lock,
without those traces.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any

from core.errors import StoreError
from core.settings import Settings
from medpath.services import Services
from medpath.threads import delete_thread, forget_threads, open_checkpoints
from memory.audit import audit

__all__ = ["forget_thread", "forget_user"]


def forget_user(services: Services, user: str, *, checkpointer: Any = None) -> dict[str, int]:
    """Delete ``user``'s memory, conversations and question spans; returns what went, per place."""
    settings = services.settings
    gone: dict[str, int] = dict(services.memory.forget(user)) if services.memory is not None else {}
    saver = checkpointer if checkpointer is not None else open_checkpoints(settings)
    gone["threads"] = len(forget_threads(saver, user))
    gone["spans"] = _forget_spans(settings.traces_dir / "otel", "medpath.user_hash", services.pseudonyms(user))
    audit(settings, {"action": "memory.forget", "source": "medpath", "outcome": "success",
                     "actor_hash": services.pseudonyms(user), "counts": gone})
    return gone


def forget_thread(settings: Settings, saver: Any, thread: str) -> dict[str, int] | None:
    """Delete one conversation (``thread``, the checkpointer's key): its checkpoints, scrubbed, and the traces of its
    questions, which carry the thread's key and, with content capture on, the questions themselves. Returns what went,
    or None when there is no such thread. What memory learnt from its answers stays (:func:`forget_user` forgets
    that)."""
    if not delete_thread(saver, thread):
        return None
    gone = {"threads": 1, "spans": _forget_spans(settings.traces_dir / "otel", "medpath.thread_id", thread)}
    audit(settings, {"action": "thread.delete", "source": "medpath", "outcome": "success", "counts": gone})
    return gone


def _forget_spans(folder: Path, key: str, value: str) -> int:
    """Rewrite each span file in place, under its lock, without the traces a span of which has the attribute ``key``
    set to ``value``; a server appending to the file meanwhile waits and then appends after the rewrite. A line that
    is no JSON (a process killed while writing it) goes when it holds ``value`` and stays as it is otherwise: one torn
    line failed the whole forget ("cannot rewrite the span file …: Unterminated string"). Returns the spans dropped."""
    dropped = 0
    needle = json.dumps(value)[1:-1]
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        try:
            with path.open("r+") as fh:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
                lines = [(line, _span(line)) for line in fh.read().splitlines() if line.strip()]
                theirs = {s.get("trace_id") for _, s in lines if s is not None
                          and (s.get("attributes") or {}).get(key) == value}
                if not theirs and not any(s is None and needle in line for line, s in lines):
                    continue
                kept = [line for line, s in lines if (s.get("trace_id") not in theirs if s is not None else needle not in line)]
                dropped += len(lines) - len(kept)
                fh.seek(0)
                fh.writelines(line + "\n" for line in kept)
                fh.truncate()
                fh.flush()
                os.fsync(fh.fileno())
        except (OSError, ValueError) as exc:
            raise StoreError(f"cannot rewrite the span file {path.name}: {exc}") from exc
    return dropped


def _span(line: str) -> dict[str, Any] | None:
    """The span a line of a span file holds; None for a line that is no JSON object."""
    try:
        span = json.loads(line)
    except ValueError:
        return None
    return span if isinstance(span, dict) else None
