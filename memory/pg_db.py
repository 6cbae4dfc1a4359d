"""PostgreSQL for the scale-out stores: a psycopg 3 connection pool per store, errors translated to ``StoreError``.

Every scale-out store (``pg_graph``, ``pg_vectors``, ``pg_text``, ``pg_vault``, ``pg_memory``) holds one
:class:`PgDatabase`. Statements run in autocommit unless a caller opens ``transaction()``; a server that cannot be
reached within ``timeout_s`` is a ``StoreBusyError`` (503 with Retry-After in the API), any other database failure
a ``StoreError`` naming what was being done. The password of a URL never reaches a message.
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Self, TypeVar

from core.errors import ConfigError, StoreBusyError, StoreError

__all__ = ["BrokenConnection", "PgDatabase", "advisory_lock", "is_postgres_url", "psycopg_modules", "redact", "scrub_tables"]

T = TypeVar("T")
log = logging.getLogger("medpath.memory")
_SCHEMA_LOCK = 7306021
"""The advisory lock key of schema creation."""


@contextlib.contextmanager
def advisory_lock(con: Any, key: int, wait_s: float = 120.0) -> Iterator[None]:
    """Hold a session advisory lock on ``con`` (autocommit) for the block. It is taken by polling
    ``pg_try_advisory_lock``, not by a blocking ``pg_advisory_lock``: a waiter then holds no open statement, and so a
    ``CREATE INDEX CONCURRENTLY`` that the holder runs on another connection (LangGraph's checkpoint migrations do)
    does not wait for the waiters while they wait for the holder (four workers starting on a fresh database hung so,
    invisibly to PostgreSQL's deadlock check). Longer than ``wait_s`` is a ``StoreBusyError``."""
    deadline = time.monotonic() + wait_s
    while not _first(con.execute("SELECT pg_try_advisory_lock(%s)", [key]).fetchone()):
        if time.monotonic() > deadline:
            raise StoreBusyError(f"PostgreSQL advisory lock {key} still held after {wait_s:g} s")
        time.sleep(0.05)
    try:
        yield
    finally:
        con.execute("SELECT pg_advisory_unlock(%s)", [key])


def _first(row: Any) -> Any:
    """The first column of a row, whatever the connection's row factory (tuples, or dicts for LangGraph's)."""
    return next(iter(row.values())) if isinstance(row, dict) else row[0]


class BrokenConnection(StoreError):
    """The pooled connection died (a server restart, a dropped socket): the statement may be tried on a new one."""


def scrub_tables(con: Any, tables: Sequence[str]) -> None:
    """Rewrite ``tables`` (``VACUUM FULL``: new files, the old ones unlinked), then checkpoint and switch the
    write-ahead log twice so that the segments holding the deleted rows are dropped (best effort without the right
    to checkpoint: the rows are gone from the tables, and the log ages out). ``con`` is autocommit."""
    for t in tables:
        con.execute(f"VACUUM FULL {t}")
    for _ in range(2):
        try:
            con.execute("CHECKPOINT")
            con.execute("SELECT pg_switch_wal()")
        except Exception as exc:  # noqa: BLE001 - a role without the right
            log.warning("forget: cannot checkpoint and switch the log (%s); old log segments keep the rows "
                        "until PostgreSQL recycles them", exc)
            break
    with contextlib.suppress(Exception):
        con.execute("CHECKPOINT")


def psycopg_modules() -> tuple[Any, Any]:
    """``psycopg`` and ``psycopg_pool``, imported on first use (0.13 s that an embedded run never pays), or a
    ``ConfigError`` naming the extra."""
    try:
        import psycopg
        import psycopg_pool
    except ImportError as exc:
        raise ConfigError("the PostgreSQL backend needs psycopg: pip install 'medpath[postgres]'") from exc
    return psycopg, psycopg_pool


def is_postgres_url(url: str) -> bool:
    """True for ``postgresql://`` and ``postgres://`` URLs."""
    return url.lower().startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """The URL without its password."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)


class PgDatabase:
    """A small connection pool on one database, opened at once (a dead server fails here, clearly)."""

    def __init__(self, url: str, *, max_size: int = 4, timeout_s: float = 10.0, what: str = "store",
                 statement_timeout_s: float = 30.0, configure: Callable[[Any], None] | None = None) -> None:
        """Open ``min_size=1`` connections now and up to ``max_size`` on demand; ``what`` names the store in errors.
        A statement running longer than ``statement_timeout_s`` is cancelled by the server (0: no limit, for loads),
        so a stuck query is an error, not a hang. ``configure`` runs once on each new connection (type adapters)."""
        psycopg, pool_mod = psycopg_modules()
        self._errors = (psycopg.Error, pool_mod.PoolTimeout)
        self.url, self.what, self.timeout_s = url, what, timeout_s
        try:
            self.pool = pool_mod.ConnectionPool(url, min_size=1, max_size=max_size, timeout=timeout_s, open=False,
                                       kwargs={"autocommit": True, "connect_timeout": max(1, int(timeout_s)),
                                               "options": f"-c statement_timeout={int(statement_timeout_s * 1000)}"},
                                       name=f"medpath-{what}", configure=configure)
            self.pool.open(wait=True, timeout=timeout_s)
        except pool_mod.PoolTimeout as exc:
            with contextlib.suppress(Exception):
                self.pool.close(timeout=0)
            raise StoreBusyError(f"{what}: PostgreSQL at {redact(url)} did not answer in {timeout_s:g} s") from exc
        except psycopg.Error as exc:
            raise StoreError(f"{what}: cannot open PostgreSQL at {redact(url)}: {exc}") from exc

    def __enter__(self) -> Self:
        """``with PgDatabase(...) as db``: closed on exit."""
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def connection(self) -> Iterator[Any]:
        """A pooled connection (autocommit); database errors become ``StoreError`` (``BrokenConnection`` when the
        connection itself died, e.g. in a server restart)."""
        db_error, pool_timeout = self._errors
        con = None
        try:
            with self.pool.connection() as con:
                yield con
        except pool_timeout as exc:
            raise StoreBusyError(f"{self.what}: no PostgreSQL connection within {self.timeout_s:g} s") from exc
        except db_error as exc:
            kind = BrokenConnection if con is not None and con.broken else StoreError
            raise kind(f"{self.what} failed on PostgreSQL: {exc}".strip()) from exc

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Any]:
        """A pooled connection inside one transaction (committed on exit, rolled back on an error)."""
        with self.connection() as con, con.transaction():
            yield con

    def query(self, sql: str, args: Sequence[Any] | dict[str, Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of one statement (tried again once on a new connection when the pooled one was broken, e.g. by a
        server restart)."""
        return self._retrying(lambda con: list(con.execute(sql, args).fetchall()))

    def execute(self, sql: str, args: Sequence[Any] | dict[str, Any] = ()) -> int:
        """Run one idempotent statement; returns its row count (retried once, as ``query``)."""
        return self._retrying(lambda con: int(con.execute(sql, args).rowcount))

    def _retrying(self, run: Callable[[Any], T]) -> T:
        try:
            with self.connection() as con:
                return run(con)
        except BrokenConnection:  # only a dead connection: a statement that failed or timed out is not run twice
            self.pool.check()  # drop the pool's other dead connections too
        with self.connection() as con:
            return run(con)

    def ensure_schema(self, sql: str) -> None:
        """Run idempotent DDL under an advisory lock, so that processes starting together do not race through it."""
        with self.connection() as con, advisory_lock(con, _SCHEMA_LOCK):
            con.execute(sql)

    def scrub(self, tables: Sequence[str]) -> None:
        """After deletes that must leave no trace: ``scrub_tables`` on a pooled connection."""
        with self.connection() as con:
            scrub_tables(con, tables)

    def close(self) -> None:
        """Close every pooled connection."""
        with contextlib.suppress(Exception):
            self.pool.close(timeout=2)
