"""Long-term vault (design §5.3): DuckDB, Reviewer-accepted facts only, bitemporal, LRU-pruned.

DuckDB lets one process write a file at a time. Every operation therefore attaches the file
under an exclusive ``flock`` on ``<file>.lock`` and detaches it afterwards, so writers in
several processes queue up instead of failing; nothing is dropped. ``session()`` holds the
file for a batch of operations (ingest, benchmarks). The DuckDB engine itself (an in-memory
database that the file is attached to) lives as long as the ``Vault``: starting an engine
costs about 15 ms, attaching a file under 1 ms.

Reads by (subj, rel) are answered from an in-process mirror of the table, keyed by
(owner, subj). Every write stores a fresh token in ``<file>.gen``; a reader whose token
differs reloads the mirror, so a write by another process is seen on the next read.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import threading
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from core.errors import StoreError
from memory.records import MemoryFact
from memory.vault_batch import BatchItem, apply_batch, slot_key

__all__ = ["Vault", "WriteReport"]

log = logging.getLogger("medpath.memory")

_SCHEMA = """
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
_COLS = "owner, subj, rel, obj, first_seen, last_used, use_count, quality, confidence, evidence, t_start, t_end, recorded_at"


@dataclass
class WriteReport:
    """What one ``add`` did."""

    inserted: int = 0
    """New rows."""
    refreshed: int = 0
    """Existing rows seen again (use count and last use raised)."""
    superseded: int = 0
    """Rows of the same (owner, subj, rel) slot whose ``t_end`` was closed."""
    pruned: int = 0
    """Rows removed by LRU pruning after the write."""


def _scalar(con: duckdb.DuckDBPyConnection, sql: str, args: Sequence[Any] = ()) -> Any:
    """The first column of the first row of an aggregate query."""
    row = con.execute(sql, list(args)).fetchone()
    if row is None:
        raise StoreError(f"vault query returned no row: {sql}")
    return row[0]


def _owner_hash(owner: str) -> str:
    return hashlib.sha1(owner.encode()).hexdigest()[:12]


class Vault:
    """Quality-gated long-term memory with valid time (``t_start``/``t_end``) and system time (``recorded_at``)."""

    def __init__(self, path: Path | str, max_rows: int = 100_000) -> None:
        """Create the file and schema if needed. ``max_rows`` is the LRU cap (0 = no cap)."""
        self.path = Path(path)
        self.max_rows = int(max_rows)
        self._tls = threading.local()
        self._thread_lock = threading.RLock()
        self._gen_path = Path(str(self.path) + ".gen")
        self._engine: duckdb.DuckDBPyConnection | None = None
        self._mirror: dict[tuple[str, str], list[MemoryFact]] | None = None
        self._mirror_gen = ""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.session() as con:
            con.execute(_SCHEMA)

    # -- connection handling -------------------------------------------------------------
    @contextlib.contextmanager
    def session(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """Hold the file (lock + connection) for a batch of operations; re-entrant within a thread."""
        held = getattr(self._tls, "con", None)
        if held is not None:
            yield held
            return
        with self._thread_lock:
            lock_file = open(str(self.path) + ".lock", "a+")  # noqa: SIM115
            try:
                fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX)
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

    def _attach(self) -> duckdb.DuckDBPyConnection:
        """Attach the vault file to this Vault's engine (thread lock and file lock held)."""
        try:
            if self._engine is None:
                self._engine = duckdb.connect(":memory:")
            quoted = str(self.path).replace("'", "''")
            self._engine.execute(f"ATTACH '{quoted}' AS {_ALIAS}")
            self._engine.execute(f"USE {_ALIAS}")
        except duckdb.Error as exc:
            self._detach(self._engine)
            raise StoreError(f"cannot open vault {self.path}: {exc}") from exc
        return self._engine

    def _detach(self, con: duckdb.DuckDBPyConnection | None) -> None:
        """Detach the file (checkpointing it) so that another process may take it."""
        if con is None:
            return
        with contextlib.suppress(duckdb.Error):
            con.execute("ROLLBACK")  # only when a caller left a transaction open
        try:
            con.execute("USE memory")
            con.execute(f"DETACH DATABASE IF EXISTS {_ALIAS}")
        except duckdb.Error:  # a broken engine: drop it, the next session starts a new one
            with contextlib.suppress(duckdb.Error):
                con.close()
            self._engine = None

    def _read_gen(self) -> str:
        try:
            return self._gen_path.read_text()
        except OSError:
            return ""

    def _bump(self, con: duckdb.DuckDBPyConnection, slots: Iterable[tuple[str, str]] | None) -> None:
        """After a write (lock held): new generation token; refresh the touched mirror slots or drop the mirror."""
        stale = self._read_gen() != self._mirror_gen
        token = uuid.uuid4().hex
        tmp = self._gen_path.with_suffix(".gen.tmp")
        tmp.write_text(token)
        os.replace(tmp, self._gen_path)
        if self._mirror is None or slots is None or stale:
            self._mirror = None
            return
        wanted = sorted(set(slots))
        keys = [f"{o}{chr(31)}{s}" for o, s in wanted]
        fresh: dict[tuple[str, str], list[MemoryFact]] = {}
        for r in con.execute(f"SELECT {_COLS} FROM vault WHERE owner || chr(31) || subj IN (SELECT unnest(?))", [keys]).fetchall():
            f = self._fact(r)
            fresh.setdefault((f.owner, f.subj), []).append(f)
        for slot in wanted:  # one query for every touched slot, not one per slot
            if slot in fresh:
                self._mirror[slot] = fresh[slot]
            else:
                self._mirror.pop(slot, None)
        self._mirror_gen = token

    def _load_mirror(self) -> dict[tuple[str, str], list[MemoryFact]]:
        gen = self._read_gen()
        if self._mirror is not None and gen == self._mirror_gen:
            return self._mirror
        with self.session() as con:
            gen = self._read_gen()
            rows = con.execute(f"SELECT {_COLS} FROM vault").fetchall()
        mirror: dict[tuple[str, str], list[MemoryFact]] = {}
        for r in rows:
            f = self._fact(r)
            mirror.setdefault((f.owner, f.subj), []).append(f)
        self._mirror, self._mirror_gen = mirror, gen
        return mirror

    def _exec(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            with self.session() as con:
                return con.execute(sql, list(args)).fetchall()
        except duckdb.Error as exc:
            raise StoreError(f"vault query failed: {exc}") from exc

    # -- writes ---------------------------------------------------------------------------
    def add(self, facts: Iterable[MemoryFact], *, supersede: bool = False, now: float | None = None) -> WriteReport:
        """Insert Reviewer-accepted facts (``quality`` must be 1).

        With ``supersede=True`` each fact is the new value of its (owner, subj, rel) slot: other
        open rows of that slot that started earlier get ``t_end = fact.t_start``. Facts without
        it are added beside what is there (a drug has many targets). A fact already stored is
        refreshed (and re-opened if it had been closed).
        """
        ts = time.time() if now is None else now
        rep = WriteReport()
        facts = list(facts)
        for f in facts:
            if f.quality != 1:
                raise StoreError("the vault stores Reviewer-accepted facts only (quality = 1)")
        try:
            with self.session() as con:
                con.execute("BEGIN TRANSACTION")
                try:
                    for f in facts:
                        self._add_one(con, f, supersede, ts, rep)
                    if rep.inserted or rep.superseded:
                        owners = {f.owner for f in facts}
                        who = _owner_hash(next(iter(owners))) if len(owners) == 1 else "*"
                        con.execute("INSERT INTO vault_log VALUES (?,?,?,?,?)",
                                    [ts, "insert", who, rep.inserted, f"superseded={rep.superseded}"])
                    con.execute("COMMIT")
                except Exception:
                    con.execute("ROLLBACK")
                    raise
                if self.max_rows and rep.inserted:
                    rep.pruned = self._prune(con, self.max_rows, ts)
                self._bump(con, None if rep.pruned else [(f.owner, f.subj) for f in facts])
        except duckdb.Error as exc:
            raise StoreError(f"vault write failed: {exc}") from exc
        return rep

    def add_batch(self, items: Sequence[BatchItem]) -> WriteReport:
        """Write many accepted facts (each with its own supersede flag and clock) in one transaction.

        The result is the same as ``add`` called fact by fact in this order (``memory.vault_batch``).
        """
        rep = WriteReport()
        if not items:
            return rep
        if any(i.fact.quality != 1 for i in items):
            raise StoreError("the vault stores Reviewer-accepted facts only (quality = 1)")
        keys = sorted({slot_key(i.fact.owner, i.fact.subj, i.fact.rel) for i in items})
        cols = [c.strip() for c in _COLS.split(",")]
        match = "owner || chr(31) || subj || chr(31) || rel IN (SELECT unnest(?))"
        try:
            with self.session() as con:
                con.execute("BEGIN TRANSACTION")
                try:
                    old = [dict(zip(cols, r, strict=True)) for r in
                           con.execute(f"SELECT {_COLS} FROM vault WHERE {match}", [keys]).fetchall()]
                    rows, counts, _ = apply_batch(old, items)
                    con.execute(f"DELETE FROM vault WHERE {match}", [keys])
                    con.execute(f"INSERT INTO vault ({_COLS}) SELECT unnest(?, recursive := true)",
                                [[{c: r[c] for c in cols} for r in rows]])
                    rep.inserted, rep.refreshed, rep.superseded = counts["inserted"], counts["refreshed"], counts["superseded"]
                    owners = {i.fact.owner for i in items}
                    who = _owner_hash(next(iter(owners))) if len(owners) == 1 else "*"
                    con.execute("INSERT INTO vault_log VALUES (?,?,?,?,?)",
                                [max(i.ts for i in items), "insert", who, rep.inserted, f"superseded={rep.superseded} batch={len(items)}"])
                    con.execute("COMMIT")
                except Exception:
                    con.execute("ROLLBACK")
                    raise
                if self.max_rows and rep.inserted:
                    rep.pruned = self._prune(con, self.max_rows, max(i.ts for i in items))
                self._bump(con, None if rep.pruned else [(i.fact.owner, i.fact.subj) for i in items])
        except duckdb.Error as exc:
            raise StoreError(f"vault write failed: {exc}") from exc
        return rep

    def _add_one(self, con: duckdb.DuckDBPyConnection, f: MemoryFact, supersede: bool, ts: float, rep: WriteReport) -> None:
        start = f.t_start or ts
        key = (f.owner, f.subj, f.rel, f.obj)
        end: float | None = None
        if supersede:
            later = _scalar(
                con,
                "SELECT min(t_start) FROM vault WHERE owner=? AND subj=? AND rel=? AND obj<>? AND t_start>? AND t_end IS NULL",
                [f.owner, f.subj, f.rel, f.obj, start],
            )
            end = later  # an older value arriving late is closed by the newer one at once
            n = con.execute(
                "UPDATE vault SET t_end=? WHERE owner=? AND subj=? AND rel=? AND obj<>? AND t_start<=? "
                "AND (t_end IS NULL OR t_end>?) RETURNING 1",
                [start, f.owner, f.subj, f.rel, f.obj, start, start],
            ).fetchall()
            rep.superseded += len(n)
        row = con.execute("SELECT t_start, t_end FROM vault WHERE owner=? AND subj=? AND rel=? AND obj=?", list(key)).fetchone()
        if row is None:
            con.execute(
                f"INSERT INTO vault ({_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [*key, ts, ts, 1, 1, float(f.confidence), f.evidence, start, end, ts],
            )
            rep.inserted += 1
        else:
            _old_start, old_end = row
            reopen = supersede and old_end is not None and start >= old_end
            con.execute(
                "UPDATE vault SET last_used=?, use_count=use_count+1, confidence=greatest(confidence, ?), "
                "t_start=CASE WHEN ? THEN ? ELSE t_start END, t_end=CASE WHEN ? THEN ? ELSE t_end END, "
                "recorded_at=CASE WHEN ? THEN ? ELSE recorded_at END "
                "WHERE owner=? AND subj=? AND rel=? AND obj=?",
                [ts, float(f.confidence), reopen, start, reopen, end, reopen, ts, *key],
            )
            rep.refreshed += 1

    def touch(self, owner: str, keys: Iterable[tuple[str, str, str]], now: float | None = None) -> int:
        """Mark facts as used by a question (raises their salience); returns rows touched."""
        ts = time.time() if now is None else now
        keys = list(keys)
        n = 0
        if not keys:
            return 0
        sep = chr(31)
        wanted = sorted({f"{owner}{sep}{subj}{sep}{rel}{sep}{obj}" for subj, rel, obj in keys})
        with self.session() as con:
            n = len(con.execute(  # one statement for every key
                "UPDATE vault SET last_used=?, use_count=use_count+1 "
                "WHERE owner || chr(31) || subj || chr(31) || rel || chr(31) || obj IN (SELECT unnest(?)) RETURNING 1",
                [ts, wanted],
            ).fetchall())
            self._bump(con, [(owner, k[0]) for k in keys])
        return n

    def prune(self, max_rows: int | None = None, now: float | None = None) -> int:
        """LRU: delete the least recently used rows above ``max_rows``; logged; returns rows removed."""
        cap = self.max_rows if max_rows is None else int(max_rows)
        with self.session() as con:
            n = self._prune(con, cap, time.time() if now is None else now)
            if n:
                self._bump(con, None)
            return n

    def _prune(self, con: duckdb.DuckDBPyConnection, cap: int, ts: float) -> int:
        total = int(_scalar(con, "SELECT count(*) FROM vault"))
        extra = total - cap
        if cap <= 0 or extra <= 0:
            return 0
        con.execute(
            "DELETE FROM vault WHERE (owner, subj, rel, obj) IN (SELECT owner, subj, rel, obj FROM vault "
            "ORDER BY last_used ASC, use_count ASC, recorded_at ASC LIMIT ?)",
            [extra],
        )
        con.execute("INSERT INTO vault_log VALUES (?,?,?,?,?)", [ts, "prune", "*", extra, f"cap={cap}"])
        log.info("vault pruned %d least recently used rows (cap %d)", extra, cap)
        return int(extra)

    def forget(self, owner: str, now: float | None = None) -> int:
        """Delete every row of one owner; returns how many went."""
        ts = time.time() if now is None else now
        with self.session() as con:
            n = int(_scalar(con, "SELECT count(*) FROM vault WHERE owner=?", [owner]))
            con.execute("DELETE FROM vault WHERE owner=?", [owner])
            con.execute("INSERT INTO vault_log VALUES (?,?,?,?,?)", [ts, "forget", _owner_hash(owner), n, ""])
            self._bump(con, None)
        return int(n)

    # -- reads ----------------------------------------------------------------------------
    def current(self, owners: Sequence[str], subj: str, rel: str | None = None, *, as_of: float | None = None) -> list[MemoryFact]:
        """Facts valid at ``as_of`` (default: now) and already recorded then, newest first."""
        t = time.time() if as_of is None else as_of
        mirror = self._load_mirror()
        out = [
            f
            for owner in owners
            for f in mirror.get((owner, subj), ())
            if (rel is None or f.rel == rel) and f.t_start <= t and f.recorded_at <= t and (f.t_end is None or f.t_end > t)
        ]
        out.sort(key=lambda f: (-f.t_start, -f.confidence, f.obj))
        return out

    def current_of(self, owners: Sequence[str], *, as_of: float | None = None) -> list[MemoryFact]:
        """Every fact of these owners valid and recorded at ``as_of`` (superseded versions left out)."""
        t = time.time() if as_of is None else as_of
        wanted = set(owners)
        out = [f for (owner, _), facts in self._load_mirror().items() if owner in wanted for f in facts
               if f.t_start <= t and f.recorded_at <= t and (f.t_end is None or f.t_end > t)]
        out.sort(key=lambda f: (-f.t_start, f.subj, f.rel, f.obj))
        return out

    def current_sql(self, owners: Sequence[str], subj: str, rel: str | None = None, *, as_of: float | None = None) -> list[MemoryFact]:
        """Same as :meth:`current`, straight from DuckDB (no mirror); for checks and benchmarks."""
        t = time.time() if as_of is None else as_of
        ph = ",".join("?" * len(owners))
        sql = (f"SELECT {_COLS} FROM vault WHERE subj=? AND owner IN ({ph}) AND t_start<=? AND recorded_at<=? "
               "AND (t_end IS NULL OR t_end>?)")
        args: list[Any] = [subj, *owners, t, t, t]
        if rel is not None:
            sql += " AND rel=?"
            args.append(rel)
        sql += " ORDER BY t_start DESC, confidence DESC, obj"
        return [self._fact(r) for r in self._exec(sql, args)] if owners else []

    def history(self, owner: str, subj: str | None = None, limit: int = 1000) -> list[MemoryFact]:
        """Every row of an owner (closed ones too), newest first."""
        sql = f"SELECT {_COLS} FROM vault WHERE owner=?"
        args: list[Any] = [owner]
        if subj is not None:
            sql += " AND subj=?"
            args.append(subj)
        sql += " ORDER BY t_start DESC, subj, rel, obj LIMIT ?"
        args.append(int(limit))
        return [self._fact(r) for r in self._exec(sql, args)]

    def count(self, owner: str | None = None) -> int:
        """Rows (of one owner, or all)."""
        if owner is None:
            return int(self._exec("SELECT count(*) FROM vault")[0][0])
        return int(self._exec("SELECT count(*) FROM vault WHERE owner=?", [owner])[0][0])

    def owners(self) -> list[tuple[str, int]]:
        """(owner, rows) pairs."""
        return [(o, int(n)) for o, n in self._exec("SELECT owner, count(*) FROM vault GROUP BY owner ORDER BY owner")]

    def stats(self) -> dict[str, Any]:
        """Row counts, open vs closed, owners, and the log of prunes and forgets."""
        total, open_, owners = self._exec("SELECT count(*), count(*) FILTER (WHERE t_end IS NULL), count(DISTINCT owner) FROM vault")[0]
        logrows = self._exec("SELECT action, count(*), sum(rows) FROM vault_log GROUP BY action ORDER BY action")
        return {"rows": int(total), "current": int(open_), "superseded": int(total - open_), "owners": int(owners),
                "max_rows": self.max_rows, "log": {a: {"events": int(c), "rows": int(r or 0)} for a, c, r in logrows}}

    @staticmethod
    def _fact(r: tuple[Any, ...]) -> MemoryFact:
        owner, subj, rel, obj, first, last, uses, quality, conf, evidence, t0, t1, rec = r
        return MemoryFact(owner=owner, subj=subj, rel=rel, obj=obj, confidence=conf, evidence=evidence, store="vault",
                          first_seen=first, last_used=last, use_count=uses, t_start=t0, t_end=t1, recorded_at=rec, quality=quality)
