"""LangGraph's conversation checkpoints on either backend: open the saver, list thread ids, scrub after deletes.

Embedded: ``SqliteSaver`` on ``<home>/checkpoints.sqlite`` with ``secure_delete`` (deleted rows are overwritten),
scrubbed by moving the WAL into the file and truncating it. PostgreSQL: ``PostgresSaver``
(``langgraph-checkpoint-postgres``) on a small pool, so that a conversation started on one server process goes on
in any other; scrubbed by rewriting its tables and pushing the old rows out of the log (``pg_db.scrub_tables``).
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver

from core.errors import StoreBusyError, StoreError
from memory.pg_db import advisory_lock, psycopg_modules, redact, scrub_tables

__all__ = ["open_pg_checkpoints", "open_sqlite_checkpoints", "scrub_checkpoints", "thread_ids"]

_TABLES = ["checkpoints", "checkpoint_blobs", "checkpoint_writes"]
_SETUP_LOCK = 7306023
"""The advisory lock key of the checkpoint tables' migrations."""


def open_sqlite_checkpoints(path: Path, serde: Any) -> BaseCheckpointSaver[Any]:
    """The SQLite checkpointer of ``path`` (deleted rows are overwritten)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(str(path), check_same_thread=False)
        conn.execute("PRAGMA secure_delete=ON")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {path.name}: {exc}") from exc
    return SqliteSaver(conn, serde=serde)


def _translated(saver_class: Any, errors: tuple[type[BaseException], ...]) -> Any:
    """``saver_class`` whose database failures are ``StoreBusyError`` (503 with Retry-After at the API), so that a
    PostgreSQL that went away mid-run is a clear answer, not a traceback from inside the graph."""

    def guard(name: str) -> Any:
        method = getattr(saver_class, name)

        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except errors as exc:
                raise StoreBusyError(f"conversation store unavailable (PostgreSQL): {exc}".strip()) from exc

        call.__doc__ = method.__doc__
        return call

    def listing(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            yield from saver_class.list(self, *args, **kwargs)
        except errors as exc:
            raise StoreBusyError(f"conversation store unavailable (PostgreSQL): {exc}".strip()) from exc

    methods = {n: guard(n) for n in ("get_tuple", "put", "put_writes", "delete_thread", "setup")}
    return type("MedpathPostgresSaver", (saver_class,), {**methods, "list": listing})


def open_pg_checkpoints(url: str, serde: Any, wait_s: float = 10.0) -> BaseCheckpointSaver[Any]:
    """A ``PostgresSaver`` on a small pool (a connection is checked when taken, so one that a server restart broke is
    replaced, not handed out; none free within ``wait_s`` is a 503); its tables are created once (an advisory lock keeps two workers that start together
    from racing through the migrations)."""
    psycopg, pool_mod = psycopg_modules()
    from langgraph.checkpoint.postgres import PostgresSaver  # the [postgres] extra, as psycopg
    from psycopg.rows import dict_row

    try:
        pool = pool_mod.ConnectionPool(url, min_size=1, max_size=8, open=False, name="medpath-checkpoints", timeout=wait_s,
                                       check=pool_mod.ConnectionPool.check_connection,
                                       kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row})
        pool.open(wait=True, timeout=10)
        saver = _translated(PostgresSaver, (psycopg.Error, pool_mod.PoolTimeout))(pool, serde=serde)
        with pool.connection() as con, advisory_lock(con, _SETUP_LOCK):  # setup runs on another pooled connection
            saver.setup()
    except (psycopg.Error, pool_mod.PoolTimeout) as exc:
        raise StoreError(f"cannot open the checkpoints in PostgreSQL at {redact(url)}: {exc}") from exc
    return saver  # type: ignore[no-any-return]


def thread_ids(saver: BaseCheckpointSaver[Any], pattern: str) -> list[str]:
    """Thread ids matching a LIKE pattern (backslash escapes), from the saver's own table."""
    if isinstance(saver, SqliteSaver):
        try:
            with saver.cursor() as cur:
                cur.execute("SELECT DISTINCT thread_id FROM checkpoints WHERE thread_id LIKE ? ESCAPE '\\'", (pattern,))
                return [str(r[0]) for r in cur.fetchall()]
        except sqlite3.Error as exc:
            raise StoreError(f"cannot list the conversations: {exc}") from exc
    if not hasattr(saver, "conn"):  # any other saver (LangGraph's in-memory one): its checkpoints, read through
        like = re.compile("".join(".*" if t == "%" else "." if t == "_" else re.escape(t[-1])
                                  for t in re.findall(r"\\.|.", pattern, re.DOTALL)), re.DOTALL)
        return sorted({str(t.config["configurable"]["thread_id"]) for t in saver.list(None)
                       if like.fullmatch(str(t.config["configurable"]["thread_id"]))})
    psycopg, _ = psycopg_modules()
    try:
        with saver.conn.connection() as con:
            rows = con.execute("SELECT DISTINCT thread_id FROM checkpoints WHERE thread_id LIKE %s ESCAPE '\\'",
                               [pattern]).fetchall()
    except psycopg.Error as exc:
        raise StoreError(f"cannot list the conversations: {exc}") from exc
    return [str(r["thread_id"]) for r in rows]


def scrub_checkpoints(saver: BaseCheckpointSaver[Any]) -> None:
    """After deleting threads: leave none of their bytes in the files (SQLite's WAL moved in and truncated;
    PostgreSQL's tables rewritten and its log switched); a saver in memory holds no file."""
    if isinstance(saver, InMemorySaver):
        return
    if isinstance(saver, SqliteSaver):
        try:
            with saver.cursor() as cur:
                cur.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot scrub the checkpoints: {exc}") from exc
        return
    psycopg, _ = psycopg_modules()
    try:
        with saver.conn.connection() as con:  # type: ignore[attr-defined]
            scrub_tables(con, _TABLES)
    except psycopg.Error as exc:
        raise StoreError(f"cannot scrub the checkpoints: {exc}") from exc
