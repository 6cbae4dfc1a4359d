"""PostgreSQL for the scale-out stores: a psycopg 3 connection pool per store, errors translated to ``StoreError``.

Every scale-out store (``pg_graph``, ``pg_vectors``, ``pg_text``, ``pg_vault``, ``pg_memory``) holds one
:class:`PgDatabase`. Statements run in autocommit unless a caller opens ``transaction()``; a server that cannot be
reached within ``timeout_s`` is a ``StoreBusyError`` (503 with Retry-After in the API), any other database failure
a ``StoreError`` naming what was being done. The password of a URL never reaches a message.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from core.errors import ConfigError, StoreBusyError, StoreError

__all__ = ["PgDatabase", "is_postgres_url", "psycopg_modules", "redact"]

T = TypeVar("T")


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
                 statement_timeout_s: float = 30.0) -> None:
        """Open ``min_size=1`` connections now and up to ``max_size`` on demand; ``what`` names the store in errors.
        A statement running longer than ``statement_timeout_s`` is cancelled by the server (0: no limit, for loads),
        so a stuck query is an error, not a hang."""
        psycopg, pool_mod = psycopg_modules()
        self._errors = (psycopg.Error, pool_mod.PoolTimeout)
        self._broken = psycopg.OperationalError
        self.url, self.what, self.timeout_s = url, what, timeout_s
        try:
            self.pool = pool_mod.ConnectionPool(url, min_size=1, max_size=max_size, timeout=timeout_s, open=False,
                                       kwargs={"autocommit": True, "connect_timeout": max(1, int(timeout_s)),
                                               "options": f"-c statement_timeout={int(statement_timeout_s * 1000)}"},
                                       name=f"medpath-{what}")
            self.pool.open(wait=True, timeout=timeout_s)
        except pool_mod.PoolTimeout as exc:
            with contextlib.suppress(Exception):
                self.pool.close(timeout=0)
            raise StoreBusyError(f"{what}: PostgreSQL at {redact(url)} did not answer in {timeout_s:g} s") from exc
        except psycopg.Error as exc:
            raise StoreError(f"{what}: cannot open PostgreSQL at {redact(url)}: {exc}") from exc

    @contextlib.contextmanager
    def connection(self) -> Iterator[Any]:
        """A pooled connection (autocommit); database errors become ``StoreError``."""
        db_error, pool_timeout = self._errors
        try:
            with self.pool.connection() as con:
                yield con
        except pool_timeout as exc:
            raise StoreBusyError(f"{self.what}: no PostgreSQL connection within {self.timeout_s:g} s") from exc
        except db_error as exc:
            raise StoreError(f"{self.what} failed on PostgreSQL: {exc}".strip()) from exc

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
        except StoreError as exc:
            if not isinstance(exc.__cause__, self._broken) or isinstance(exc, StoreBusyError):
                raise
        self.pool.check()  # drop the pool's other dead connections too
        with self.connection() as con:
            return run(con)

    def close(self) -> None:
        """Close every pooled connection."""
        with contextlib.suppress(Exception):
            self.pool.close(timeout=2)
