"""The vault's DuckDB file: schema, and the lock that lets several processes take turns.

DuckDB lets one process write a file at a time. Every operation therefore attaches the file under an exclusive
``flock`` on ``<file>.lock`` and detaches it afterwards, so writers in several processes queue up instead of
failing; nothing is dropped. The DuckDB engine (an in-memory database the file is attached to) lives as long as
the ``VaultFile``: starting an engine costs about 15 ms, attaching a file under 1 ms. Every write also appends its
rows to ``<file>.changes`` (``memory.vault_journal``), so that readers in other processes follow it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb

from core.errors import StoreBusyError, StoreError
from memory.records import MemoryFact

__all__ = ["COLS", "COLUMNS", "FileBusy", "VaultFile", "row_fact"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS vault (
    owner VARCHAR NOT NULL,
    subj VARCHAR NOT NULL,
    rel VARCHAR NOT NULL,
    obj VARCHAR NOT NULL,
    first_seen DOUBLE NOT NULL,
    last_used DOUBLE NOT NULL,
    use_count INTEGER NOT NULL,
    quality TINYINT NOT NULL,
    confidence DOUBLE NOT NULL,
    evidence VARCHAR NOT NULL,
    t_start DOUBLE NOT NULL,
    t_end DOUBLE,
    recorded_at DOUBLE NOT NULL,
    PRIMARY KEY (owner, subj, rel, obj)
);
CREATE INDEX IF NOT EXISTS vault_subj_rel ON vault(subj, rel);
CREATE TABLE IF NOT EXISTS vault_log (
    ts DOUBLE NOT NULL,
    action VARCHAR NOT NULL,
    owner_hash VARCHAR NOT NULL,
    rows INTEGER NOT NULL,
    detail VARCHAR NOT NULL
);
"""
_ALIAS = "vaultdb"
COLS = "owner, subj, rel, obj, first_seen, last_used, use_count, quality, confidence, evidence, t_start, t_end, recorded_at"
COLUMNS = [c.strip() for c in COLS.split(",")]
"""The same columns as a list (row dicts and row tuples use this order)."""


def row_fact(r: tuple[Any, ...]) -> MemoryFact:
    """A row of ``SELECT {COLS} FROM vault`` as a fact."""
    owner, subj, rel, obj, first, last, uses, quality, conf, evidence, t0, t1, rec = r
    return MemoryFact(owner=owner, subj=subj, rel=rel, obj=obj, confidence=conf, evidence=evidence, store="vault",
                      first_seen=first, last_used=last, use_count=uses, t_start=t0, t_end=t1, recorded_at=rec,
                      quality=quality)


class FileBusy(StoreBusyError):
    """Another process or handle holds the vault file: at once with ``session(wait=False)``, or for longer than
    the file's bounded wait."""


_POLL_S = (0.0005, 0.005)
"""A waiting session tries the file lock again after 0.5 ms, doubling up to 5 ms: another worker holds the file for
about 20 ms a write, and a 20 ms poll left it free (and the machine idle) for half a poll on average."""
CHECKPOINT_WAL_BYTES = 16 * 1024
"""A session that ends with a write-ahead log at least this big checkpoints it into the file; smaller logs stay
(committed writes are durable in the log) and the next session replays them. A checkpoint at every detach cost
5–8 ms of the file lock's time per write under load; replaying a log this small costs well under a millisecond."""


class VaultFile:
    """One vault file, taken in turns by threads and processes."""

    def __init__(self, path: Path, wait_s: float | None = None) -> None:
        """Create the file and its schema if needed. A session waits at most ``wait_s`` seconds for the file
        (None: as long as it takes) and then raises :class:`FileBusy` (503 + Retry-After in the API)."""
        self.path = path
        self.wait_s = wait_s
        self._tls = threading.local()
        self._thread_lock = threading.RLock()
        self.journal_path = Path(str(self.path) + ".changes")
        self._engine: duckdb.DuckDBPyConnection | None = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.session() as con:
            con.execute(SCHEMA)

    @contextlib.contextmanager
    def session(self, *, wait: bool = True) -> Iterator[duckdb.DuckDBPyConnection]:
        """Hold the file (lock + connection) for a batch of operations; re-entrant within a thread. With
        ``wait=False``, raise :class:`FileBusy` at once when another process or handle holds the file."""
        held = getattr(self._tls, "con", None)
        if held is not None:
            yield held
            return
        budget = (self.wait_s if self.wait_s is not None else -1) if wait else 0
        deadline = time.monotonic() + max(budget, 0)
        if not self._thread_lock.acquire(timeout=budget if budget >= 0 else -1):
            raise FileBusy(f"{self.path.name} is busy (waited {max(budget, 0):g} s)")
        try:
            lock_file = open(str(self.path) + ".lock", "a+")  # noqa: SIM115
            try:
                self._lock_file(lock_file, budget, deadline)
                con = self._attach()
                self._tls.con = con
                try:
                    yield con
                finally:
                    self._tls.con = None
                    self._detach(con)
            finally:
                fcntl.flock(lock_file.fileno(), fcntl.LOCK_UN)
                lock_file.close()
        finally:
            self._thread_lock.release()

    def _lock_file(self, lock_file: Any, budget: float, deadline: float) -> None:
        """Take the exclusive file lock: blocking when ``budget`` < 0, else trying until the deadline."""
        if budget < 0:
            fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX)
            return
        pause = _POLL_S[0]
        while True:
            try:
                fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError as exc:
                if time.monotonic() >= deadline:
                    raise FileBusy(f"{self.path.name} is busy: another process (an ingest?) holds it; waited "
                                   f"{budget:g} s", retry_after=max(1.0, budget)) from exc
                time.sleep(pause)
                pause = min(pause * 2, _POLL_S[1])

    def _attach(self) -> duckdb.DuckDBPyConnection:
        """Attach the vault file to this engine (thread lock and file lock held)."""
        try:
            if self._engine is None:
                # one thread: the vault's statements are tiny, and DuckDB's worker threads cost more CPU than they save
                self._engine = duckdb.connect(":memory:", config={"threads": 1})
                self._engine.execute("PRAGMA disable_checkpoint_on_shutdown")  # _detach checkpoints a big log
            quoted = str(self.path).replace("'", "''")
            self._engine.execute(f"ATTACH '{quoted}' AS {_ALIAS}")
            self._engine.execute(f"USE {_ALIAS}")
        except duckdb.Error as exc:
            self._detach(self._engine)
            raise StoreError(f"cannot open vault {self.path}: {exc}") from exc
        return self._engine

    def _detach(self, con: duckdb.DuckDBPyConnection | None) -> None:
        """Detach the file (checkpointing its log once it reaches ``CHECKPOINT_WAL_BYTES``) so that another process
        may take it."""
        if con is None:
            return
        with contextlib.suppress(duckdb.Error):
            con.execute("ROLLBACK")  # only when a caller left a transaction open
        try:
            if self._wal_bytes() >= CHECKPOINT_WAL_BYTES:
                con.execute(f"CHECKPOINT {_ALIAS}")
            con.execute("USE memory")
            con.execute(f"DETACH DATABASE IF EXISTS {_ALIAS}")
        except duckdb.Error:  # a broken engine: drop it, the next session starts a new one
            with contextlib.suppress(duckdb.Error):
                con.close()
            self._engine = None

    def _wal_bytes(self) -> int:
        try:
            return Path(str(self.path) + ".wal").stat().st_size
        except OSError:
            return 0

    def rewrite(self, con: duckdb.DuckDBPyConnection) -> None:
        """Replace the file by a fresh copy of its rows (file held), so that deleted rows leave no bytes behind."""
        fresh = self.path.with_name(self.path.name + ".rewrite")
        fresh.unlink(missing_ok=True)
        Path(str(fresh) + ".wal").unlink(missing_ok=True)  # a log left by a rewrite that crashed
        quoted = str(fresh).replace("'", "''")
        try:
            con.execute(f"ATTACH '{quoted}' AS fresh")
            con.execute("USE fresh")
            con.execute(SCHEMA)
            con.execute(f"INSERT INTO fresh.vault SELECT * FROM {_ALIAS}.vault")
            con.execute(f"INSERT INTO fresh.vault_log SELECT * FROM {_ALIAS}.vault_log")
            con.execute("CHECKPOINT fresh")  # the new file must hold every row itself: its log is not moved with it
            con.execute("USE memory")
            con.execute("DETACH fresh")
            con.execute(f"DETACH {_ALIAS}")
            os.replace(fresh, self.path)
            Path(str(self.path) + ".wal").unlink(missing_ok=True)  # the old file's log: its rows were copied above
            path = str(self.path).replace("'", "''")
            con.execute(f"ATTACH '{path}' AS {_ALIAS}")
            con.execute(f"USE {_ALIAS}")
        except (duckdb.Error, OSError) as exc:
            raise StoreError(f"cannot rewrite vault {self.path.name}: {exc}") from exc
