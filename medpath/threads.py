"""Conversation checkpoints (SQLite, or PostgreSQL on the scale-out backend): one way to open them, and a retention limit (``MEDPATH_CHECKPOINT_TTL_DAYS``).

Checkpoints hold a thread's turns, so they are kept only as long as the thread is in use: ``prune_threads`` deletes
every thread whose latest checkpoint is older than the limit, and scrubs the file (SQLite ``secure_delete``, then
the WAL moved in and truncated) so that the deleted turns leave no bytes behind.
"""

from __future__ import annotations

import sqlite3
import time
from datetime import datetime
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver

from core.errors import StoreError
from core.settings import Settings
from memory.pg_db import is_postgres_url, psycopg_modules, redact
from memory.pg_vault import scrub_tables

__all__ = ["checkpoint_serde", "forget_threads", "list_threads", "open_checkpoints", "prune_threads"]


def checkpoint_serde() -> Any:
    """The checkpoint serializer, allowing the graph's own Status enum."""
    return JsonPlusSerializer(allowed_msgpack_modules=[("agents.state", "Status")])


def open_checkpoints(settings: Settings) -> BaseCheckpointSaver[Any]:
    """The checkpointer: PostgreSQL (``langgraph-checkpoint-postgres`` on a pool) when ``MEDPATH_DATABASE_URL``
    names one, so that a conversation started on one server process goes on in any other; else the SQLite file
    ``settings.checkpoint_db`` (deleted rows are overwritten)."""
    if is_postgres_url(settings.database_url):
        return _open_postgres(settings.database_url)
    settings.home.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(str(settings.checkpoint_db), check_same_thread=False)
        conn.execute("PRAGMA secure_delete=ON")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {settings.checkpoint_db.name}: {exc}") from exc
    return SqliteSaver(conn, serde=checkpoint_serde())


def _open_postgres(url: str) -> BaseCheckpointSaver[Any]:
    """A ``PostgresSaver`` on a small pool; its tables are created once (an advisory lock keeps two workers that
    start together from racing through the migrations)."""
    psycopg, pool_mod = psycopg_modules()
    from langgraph.checkpoint.postgres import PostgresSaver  # the [postgres] extra, as psycopg
    from psycopg.rows import dict_row

    try:
        pool = pool_mod.ConnectionPool(url, min_size=1, max_size=8, open=False, name="medpath-checkpoints",
                                       kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row})
        pool.open(wait=True, timeout=10)
        saver = PostgresSaver(pool, serde=checkpoint_serde())
        with pool.connection() as con:
            con.execute("SELECT pg_advisory_lock(7306023)")
            try:
                saver.setup()
            finally:
                con.execute("SELECT pg_advisory_unlock(7306023)")
    except (psycopg.Error, pool_mod.PoolTimeout) as exc:
        raise StoreError(f"cannot open the checkpoints in PostgreSQL at {redact(url)}: {exc}") from exc
    return saver


def _is_postgres(saver: BaseCheckpointSaver[Any]) -> bool:
    return not isinstance(saver, SqliteSaver)


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


def _thread_ids(saver: BaseCheckpointSaver[Any], pattern: str) -> list[str]:
    """Thread ids matching a LIKE pattern (backslash escapes), from the checkpointer's own table."""
    if _is_postgres(saver):
        psycopg, _ = psycopg_modules()
        try:
            with saver.conn.connection() as con:  # type: ignore[attr-defined]
                rows = con.execute("SELECT DISTINCT thread_id FROM checkpoints WHERE thread_id LIKE %s ESCAPE '\\'",
                                   [pattern]).fetchall()
        except psycopg.Error as exc:
            raise StoreError(f"cannot list the conversations: {exc}") from exc
        return [str(r["thread_id"]) for r in rows]
    try:
        with saver.cursor() as cur:  # type: ignore[attr-defined]
            cur.execute("SELECT DISTINCT thread_id FROM checkpoints WHERE thread_id LIKE ? ESCAPE '\\'", (pattern,))
            return [str(r[0]) for r in cur.fetchall()]
    except sqlite3.Error as exc:
        raise StoreError(f"cannot list the conversations: {exc}") from exc


def list_threads(saver: BaseCheckpointSaver[Any], prefix: str) -> list[dict[str, Any]]:
    """The threads whose id starts with ``prefix`` (one caller's), newest first: the id without the prefix, the
    first question, the number of questions and the last update. Only those threads' latest checkpoints are read."""
    pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    ids = _thread_ids(saver, pattern)
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


def forget_threads(saver: BaseCheckpointSaver[Any], user: str) -> list[str]:
    """Delete every thread a turn of ``user`` is in (its checkpoints hold the user id and the questions), and scrub
    the file; returns their ids."""
    mine = sorted({str(t.config["configurable"]["thread_id"]) for t in saver.list(None)
                   if (t.checkpoint.get("channel_values") or {}).get("user_id") == user})
    _delete(saver, mine)
    return mine


def _delete(saver: BaseCheckpointSaver[Any], threads: list[str]) -> None:
    """Delete the threads, then scrub: SQLite moves the WAL into the file and truncates it (deleted pages are
    zeroed); PostgreSQL rewrites the checkpoint tables and pushes the old rows out of its log."""
    for thread in threads:
        saver.delete_thread(thread)
    if threads and _is_postgres(saver):
        psycopg, _ = psycopg_modules()
        try:
            with saver.conn.connection() as con:  # type: ignore[attr-defined]
                scrub_tables(con, ["checkpoints", "checkpoint_blobs", "checkpoint_writes"])
        except psycopg.Error as exc:
            raise StoreError(f"cannot scrub the checkpoints: {exc}") from exc
    elif threads:
        try:
            with saver.cursor() as cur:  # type: ignore[attr-defined]
                cur.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot scrub the checkpoints: {exc}") from exc
