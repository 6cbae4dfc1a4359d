"""Long-term vault (design §5.3): Reviewer-accepted facts only, bitemporal, LRU-pruned.

The vault is split by responsibility: ``memory.vault_file`` holds the DuckDB file (schema, the lock several
processes take in turns, the generation token), ``memory.vault_mirror`` the in-process mirror that answers reads
by (subj, rel), ``memory.vault_batch`` the pure logic of a batched write, and this module the writes, reads and
retention (prune, forget). ``session()`` holds the file for a batch of operations (ingest, benchmarks).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from core.errors import StoreError
from core.pseudonyms import Pseudonyms, load_key
from memory.records import MemoryFact
from memory.vault_batch import BatchItem, VaultWrite, apply_writes
from memory.vault_file import COLS, COLUMNS, VaultFile, row_fact
from memory.vault_group import GroupCommit
from memory.vault_mirror import VaultMirror, change_of

__all__ = ["Vault", "WriteReport"]

log = logging.getLogger("medpath.memory")



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


_SET_FROM_U = ", ".join(f"{c} = u.{c}" for c in COLUMNS if c not in ("owner", "subj", "rel", "obj"))
"""The non-key columns of a row-struct update (``u``: the rows given)."""


def _scalar(con: duckdb.DuckDBPyConnection, sql: str, args: Sequence[Any] = ()) -> Any:
    """The first column of the first row of an aggregate query."""
    row = con.execute(sql, list(args)).fetchone()
    if row is None:
        raise StoreError(f"vault query returned no row: {sql}")
    return row[0]




class Vault:
    """Quality-gated long-term memory with valid time (``t_start``/``t_end``) and system time (``recorded_at``)."""

    def __init__(self, path: Path | str, max_rows: int = 100_000, pseudonym: Callable[[str], str] | None = None, *,
                 wait_s: float | None = None) -> None:
        """Create the file and schema if needed. ``max_rows`` is the LRU cap (0 = no cap); ``pseudonym`` names owners
        in the vault's log (keyed HMAC; by default with a key file beside the vault); a session waits at most
        ``wait_s`` seconds for a file another process holds (None: as long as it takes)."""
        self.path = Path(path)
        self.pseudonym = pseudonym or Pseudonyms(load_key(self.path.parent))
        self.max_rows = int(max_rows)
        self.file = VaultFile(self.path, wait_s)
        self.mirror = VaultMirror(self.file)
        self.group: GroupCommit[VaultWrite, tuple[WriteReport, int]] = GroupCommit(self.file)

    def session(self) -> contextlib.AbstractContextManager[duckdb.DuckDBPyConnection]:
        """Hold the file for a batch of operations (``VaultFile.session``)."""
        return self.file.session()

    def write(self, items: Sequence[BatchItem] = (), *, owner: str = "", touch: Iterable[tuple[str, str, str]] = (),
              now: float | None = None) -> tuple[WriteReport, int]:
        """``add_batch(items)`` then ``touch(owner, touch, now)``, applied together with this process's concurrent
        writes in one session and one statement set (``memory.vault_group``); returns the write's own report and
        how many facts the touch found. Returns when the write is committed."""
        w = VaultWrite(tuple(items), owner, tuple(touch), time.time() if now is None else now)
        if not w.items and not w.touch:
            return WriteReport(), 0
        return self.group.run(w, self._write_group)

    def _write_group(self, writes: Sequence[VaultWrite]) -> list[tuple[WriteReport, int] | BaseException]:
        """Apply a group's writes in one transaction (the file held): each gets its own report, or its own error."""
        out: list[tuple[WriteReport, int] | BaseException] = []
        good = []
        for w in writes:
            bad = any(i.fact.quality != 1 for i in w.items)
            out.append(StoreError("the vault stores Reviewer-accepted facts only (quality = 1)") if bad else (WriteReport(), 0))
            if not bad:
                good.append(len(out) - 1)
        ws = [writes[i] for i in good]
        keys = sorted(set().union(*(w.slots() for w in ws)))
        if not keys:
            return out
        per, pruned = self._replace_slots(ws, keys)
        for i, (counts, used) in zip(good, per, strict=True):
            rep = WriteReport(counts["inserted"], counts["refreshed"], counts["superseded"])
            if pruned and rep.inserted:  # the group's LRU prune is reported once, by its first inserting write
                rep.pruned, pruned = pruned, 0
            out[i] = (rep, used)
        return out

    def _replace_slots(self, ws: Sequence[VaultWrite], keys: list[str]) -> tuple[list[tuple[dict[str, int], int]], int]:
        """Read the slots, replay the writes over them, write them back and log each write (one transaction); then
        the LRU prune. Returns each write's counts and touches, and the rows pruned."""
        cols = COLUMNS
        match = "owner || chr(31) || subj || chr(31) || rel IN (SELECT unnest(?))"
        slots = {(i.fact.owner, i.fact.subj, i.fact.rel) for w in ws for i in w.items} | {
            (w.owner, t[0], t[1]) for w in ws for t in w.touch}
        try:
            with self.session() as con:
                if self.mirror.sync(con):  # current: the slots' rows come from it, without a query
                    old = [dict(zip(cols, r, strict=True)) for r in self.mirror.slot_rows(slots)]
                else:
                    old = [dict(zip(cols, r, strict=True)) for r in
                           con.execute(f"SELECT {COLS} FROM vault WHERE {match}", [keys]).fetchall()]
                rows, per = apply_writes(old, ws)
                before = {(r["owner"], r["subj"], r["rel"], r["obj"]): r for r in old}
                changed = [{c: r[c] for c in cols} for r in rows
                           if before.get((r["owner"], r["subj"], r["rel"], r["obj"])) != r]
                logs = [self._log_row(w, counts) for w, (counts, _) in zip(ws, per, strict=True) if w.items]
                with self._transaction(con):
                    self._upsert(con, changed, before)
                    if logs:
                        con.execute("INSERT INTO vault_log SELECT unnest(?, recursive := true)", [logs])
                self.mirror.publish(change_of(rows, slots))
                pruned = 0
                known = self.mirror.size()  # after this write's own rows, when the mirror is current: no count query
                if self.max_rows and any(c["inserted"] for c, _ in per) and (known is None or
                                                                            known + sum(c["inserted"] for c, _ in per) > self.max_rows):
                    pruned = self._prune(con, self.max_rows, max(w.now for w in ws))
                    if pruned:
                        self.mirror.publish(None)
        except duckdb.Error as exc:
            raise StoreError(f"vault write failed: {exc}") from exc
        return per, pruned

    @staticmethod
    def _upsert(con: duckdb.DuckDBPyConnection, rows: Sequence[dict[str, Any]], stored: Collection[tuple[Any, ...]]) -> None:
        """Write new and changed rows (rows are never removed here). One statement per kind: a plain INSERT when all
        are new and an UPDATE when all are stored (each less than half the cost of INSERT OR REPLACE here), else
        INSERT OR REPLACE by primary key."""
        if not rows:
            return
        known = sum((r["owner"], r["subj"], r["rel"], r["obj"]) in stored for r in rows)
        if known == 0:
            con.execute(f"INSERT INTO vault ({COLS}) SELECT unnest(?, recursive := true)", [rows])
        elif known == len(rows):
            con.execute(f"UPDATE vault SET {_SET_FROM_U} FROM (SELECT unnest(?, recursive := true)) u WHERE "
                        "vault.owner = u.owner AND vault.subj = u.subj AND vault.rel = u.rel AND vault.obj = u.obj", [rows])
        else:
            con.execute(f"INSERT OR REPLACE INTO vault ({COLS}) SELECT unnest(?, recursive := true)", [rows])

    @contextlib.contextmanager
    def _transaction(self, con: duckdb.DuckDBPyConnection) -> Iterator[None]:
        """One transaction (file held) whose commit is marked in the change journal first; a failure rolls back
        and starts a new journal epoch (the mark would otherwise read as a writer that died)."""
        con.execute("BEGIN TRANSACTION")
        try:
            yield
            self.mirror.journal.begin()
            con.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(duckdb.Error):
                con.execute("ROLLBACK")
            self.mirror.publish(None)
            raise

    def _log_row(self, w: VaultWrite, counts: dict[str, int]) -> dict[str, Any]:
        """The ``vault_log`` row of one write (as ``add_batch`` logs it)."""
        owners = {i.fact.owner for i in w.items}
        return {"ts": max(i.ts for i in w.items), "action": "insert",
                "owner_hash": self.pseudonym(next(iter(owners))) if len(owners) == 1 else "*",
                "rows": counts["inserted"], "detail": f"superseded={counts['superseded']} batch={len(w.items)}"}

    def _bump(self, con: duckdb.DuckDBPyConnection, slots: Iterable[tuple[str, str]] | None) -> None:
        self.mirror.publish_slots(con, slots)

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
                with self._transaction(con):
                    for f in facts:
                        self._add_one(con, f, supersede, ts, rep)
                    if rep.inserted or rep.superseded:
                        owners = {f.owner for f in facts}
                        who = self.pseudonym(next(iter(owners))) if len(owners) == 1 else "*"
                        con.execute("INSERT INTO vault_log VALUES (?,?,?,?,?)",
                                    [ts, "insert", who, rep.inserted, f"superseded={rep.superseded}"])
                if self.max_rows and rep.inserted:
                    rep.pruned = self._prune(con, self.max_rows, ts)
                self._bump(con, None if rep.pruned else [(f.owner, f.subj) for f in facts])
        except duckdb.Error as exc:
            raise StoreError(f"vault write failed: {exc}") from exc
        return rep

    def add_batch(self, items: Sequence[BatchItem]) -> WriteReport:
        """Write many accepted facts (each with its own supersede flag and clock) in one transaction.

        The result is the same as ``add`` called fact by fact in this order (``memory.vault_batch``); it is the
        group commit's write (``_write_group``) for one request, in a session of its own.
        """
        if not items:
            return WriteReport()
        with self.session():
            result = self._write_group([VaultWrite(tuple(items), now=max(i.ts for i in items))])[0]
        if isinstance(result, BaseException):
            raise result
        return result[0]

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
                f"INSERT INTO vault ({COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
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
            self.mirror.journal.begin()
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
        self.mirror.journal.begin()
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
            self.mirror.journal.begin()
            con.execute("DELETE FROM vault WHERE owner=?", [owner])
            con.execute("INSERT INTO vault_log VALUES (?,?,?,?,?)", [ts, "forget", self.pseudonym(owner), n, ""])
            self.file.rewrite(con)  # DuckDB keeps deleted rows' bytes in its blocks: copy what is left to a new file
            self._bump(con, None)
        return int(n)

    # -- reads ----------------------------------------------------------------------------
    def current(self, owners: Sequence[str], subj: str, rel: str | None = None, *, as_of: float | None = None) -> list[MemoryFact]:
        """Facts valid at ``as_of`` (default: now) and already recorded then, newest first."""
        t = time.time() if as_of is None else as_of
        mirror = self.mirror.rows()
        out = [
            f
            for owner in owners
            for f in mirror.get((owner, subj), ())
            if (rel is None or f.rel == rel) and f.t_start <= t and f.recorded_at <= t and (f.t_end is None or f.t_end > t)
        ]
        out.sort(key=lambda f: (-f.t_start, -f.confidence, f.obj))
        return out

    def closed_of(self, owners: Sequence[str], *, as_of: float | None = None) -> set[tuple[str, str, str]]:
        """Keys of these owners' facts that a later version closed by ``as_of`` and that are not current then
        (from the mirror: no query)."""
        t = time.time() if as_of is None else as_of
        wanted = set(owners)
        rows = [f for (owner, _), facts in list(self.mirror.rows().items()) if owner in wanted for f in facts]
        closed = {f.key for f in rows if f.t_end is not None and f.t_end <= t}
        return closed - {f.key for f in rows if f.t_start <= t and f.recorded_at <= t and (f.t_end is None or f.t_end > t)}

    def current_of(self, owners: Sequence[str], *, as_of: float | None = None) -> list[MemoryFact]:
        """Every fact of these owners valid and recorded at ``as_of`` (superseded versions left out)."""
        t = time.time() if as_of is None else as_of
        wanted = set(owners)
        out = [f for (owner, _), facts in list(self.mirror.rows().items()) if owner in wanted for f in facts
               if f.t_start <= t and f.recorded_at <= t and (f.t_end is None or f.t_end > t)]
        out.sort(key=lambda f: (-f.t_start, f.subj, f.rel, f.obj))
        return out

    def current_sql(self, owners: Sequence[str], subj: str, rel: str | None = None, *, as_of: float | None = None) -> list[MemoryFact]:
        """Same as :meth:`current`, straight from DuckDB (no mirror); for checks and benchmarks."""
        t = time.time() if as_of is None else as_of
        ph = ",".join("?" * len(owners))
        sql = (f"SELECT {COLS} FROM vault WHERE subj=? AND owner IN ({ph}) AND t_start<=? AND recorded_at<=? "
               "AND (t_end IS NULL OR t_end>?)")
        args: list[Any] = [subj, *owners, t, t, t]
        if rel is not None:
            sql += " AND rel=?"
            args.append(rel)
        sql += " ORDER BY t_start DESC, confidence DESC, obj"
        return [row_fact(r) for r in self._exec(sql, args)] if owners else []

    def history(self, owner: str, subj: str | None = None, limit: int = 1000) -> list[MemoryFact]:
        """Every row of an owner (closed ones too), newest first."""
        sql = f"SELECT {COLS} FROM vault WHERE owner=?"
        args: list[Any] = [owner]
        if subj is not None:
            sql += " AND subj=?"
            args.append(subj)
        sql += " ORDER BY t_start DESC, subj, rel, obj LIMIT ?"
        args.append(int(limit))
        return [row_fact(r) for r in self._exec(sql, args)]

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
