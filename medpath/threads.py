"""Conversation checkpoints (SQLite, or PostgreSQL on the scale-out backend): one way to open them, and a retention limit (``MEDPATH_CHECKPOINT_TTL_DAYS``).

Checkpoints hold a thread's turns, so they are kept only as long as the thread is in use: ``prune_threads`` deletes
every thread whose latest checkpoint is older than the limit, and scrubs the file (SQLite ``secure_delete``, then
the WAL moved in and truncated) so that the deleted turns leave no bytes behind.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from core.settings import Settings
from memory import factory
from memory.checkpoints import scrub_checkpoints, thread_ids

__all__ = ["checkpoint_serde", "delete_thread", "forget_threads", "list_threads", "open_checkpoints", "prune_threads"]


def checkpoint_serde() -> Any:
    """The checkpoint serializer, allowing the graph's own Status enum."""
    return JsonPlusSerializer(allowed_msgpack_modules=[("agents.state", "Status")])


def open_checkpoints(settings: Settings) -> BaseCheckpointSaver[Any]:
    """The checkpointer of the settings' backend (``memory.factory.open_checkpoints``) with the graph's serializer."""
    return factory.open_checkpoints(settings, checkpoint_serde())


def prune_threads(saver: BaseCheckpointSaver[Any], older_than_s: float, now: float | None = None) -> list[str]:
    """Delete the threads whose latest checkpoint is older than ``older_than_s``; returns their ids."""
    cutoff = (time.time() if now is None else now) - older_than_s
    latest: dict[str, float] = {}
    for t in saver.list(None):
        thread = str(t.config["configurable"]["thread_id"])
        ts = datetime.fromisoformat(str(t.checkpoint["ts"])).timestamp()
        latest[thread] = max(ts, latest.get(thread, ts))
    stale = sorted(thread for thread, ts in latest.items() if ts < cutoff)
    _delete(saver, stale)
    return stale


def list_threads(saver: BaseCheckpointSaver[Any], prefix: str) -> list[dict[str, Any]]:
    """The threads whose id starts with ``prefix`` (one caller's), newest first: the id without the prefix, the
    first question, the number of questions and the last update. Only those threads' latest checkpoints are read."""
    pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    ids = thread_ids(saver, pattern)
    rows = []
    for key in ids:
        t = saver.get_tuple({"configurable": {"thread_id": key}})
        if t is None:
            continue
        messages = (t.checkpoint.get("channel_values") or {}).get("messages") or []
        asked = [str(m.get("content", "")) for m in messages if m.get("role") == "user"]
        rows.append({"thread_id": key[len(prefix):], "title": (asked[0] if asked else "")[:120], "turns": len(asked),
                     "updated": datetime.fromisoformat(str(t.checkpoint["ts"])).timestamp()})
    return sorted(rows, key=lambda r: -r["updated"])


def delete_thread(saver: BaseCheckpointSaver[Any], thread: str) -> bool:
    """Delete one thread and scrub the file; False when there is no such thread."""
    if saver.get_tuple({"configurable": {"thread_id": thread}}) is None:
        return False
    _delete(saver, [thread])
    return True


def forget_threads(saver: BaseCheckpointSaver[Any], user: str) -> list[str]:
    """Delete every thread a turn of ``user`` is in (its checkpoints hold the user id and the questions), and scrub
    the file; returns their ids."""
    mine = sorted({str(t.config["configurable"]["thread_id"]) for t in saver.list(None)
                   if (t.checkpoint.get("channel_values") or {}).get("user_id") == user})
    _delete(saver, mine)
    return mine


def _delete(saver: BaseCheckpointSaver[Any], threads: list[str]) -> None:
    """Delete the threads, then scrub what they leave in the files (``memory.checkpoints.scrub_checkpoints``)."""
    for thread in threads:
        saver.delete_thread(thread)
    if threads:
        scrub_checkpoints(saver)
