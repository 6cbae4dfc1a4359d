"""The vault on PostgreSQL: the same bitemporal rows and rules as the embedded vault, shared by every process.

A write runs in one transaction: it takes a transaction-scoped advisory lock per (owner, subj, rel) slot it
touches (in sorted order, so two writers never deadlock), reads those slots, replays the writes over them with
the embedded vault's own rules (``memory.vault_batch.apply_writes``) and upserts the rows that changed. Writers of
other slots never wait for each other, and readers never wait at all (MVCC). A write returns after its commit, so
an acknowledged write survives the death of the process that made it.

``forget`` deletes the owner's rows, rewrites the tables (``VACUUM FULL``: new files, the old ones unlinked) and
then checkpoints and switches the write-ahead log twice, so that PostgreSQL drops the log segments that held the
rows (``pg_db.scrub_tables``; the local stack runs with ``wal_recycle=off``; see ``docs/scale-out.md`` for a server you run yourself).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from core.errors import StoreError
from memory.pg_db import PgDatabase
from memory.records import MemoryFact
from memory.vault import WriteReport
from memory.vault_batch import BatchItem, VaultWrite, apply_writes, slot_key
from memory.vault_file import COLS, COLUMNS, row_fact

__all__ = ["PgVault"]

log = logging.getLogger("medpath.memory")

SCHEMA = """
CREATE SCHEMA IF NOT EXISTS mem;
CREATE TABLE IF NOT EXISTS mem.vault (
    owner TEXT NOT NULL, subj TEXT NOT NULL, rel TEXT NOT NULL, obj TEXT NOT NULL,
    first_seen DOUBLE PRECISION NOT NULL, last_used DOUBLE PRECISION NOT NULL, use_count INTEGER NOT NULL,
    quality SMALLINT NOT NULL, confidence DOUBLE PRECISION NOT NULL, evidence TEXT NOT NULL,
    t_start DOUBLE PRECISION NOT NULL, t_end DOUBLE PRECISION, recorded_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (owner, subj, rel, obj)
) WITH (autovacuum_enabled = false);
CREATE INDEX IF NOT EXISTS vault_subj_rel ON mem.vault (subj, rel);
CREATE TABLE IF NOT EXISTS mem.vault_log (ts DOUBLE PRECISION NOT NULL, action TEXT NOT NULL, owner_hash TEXT NOT NULL,
                                          rows INTEGER NOT NULL, detail TEXT NOT NULL);
"""
# autovacuum is off for the memory tables: its ANALYZE would copy column values (a forgotten owner's text among
# them) into pg_statistic, out of forget's reach. The tables are small, and their lookups go by primary key.

_UPSERT = (f"INSERT INTO mem.vault ({COLS}) VALUES ({', '.join(['%s'] * len(COLUMNS))}) "
           "ON CONFLICT (owner, subj, rel, obj) DO UPDATE SET "
           + ", ".join(f"{c} = EXCLUDED.{c}" for c in COLUMNS if c not in ("owner", "subj", "rel", "obj")))


class PgVault:
    """``VaultTier`` on PostgreSQL (the methods of ``memory.vault.Vault`` that callers use)."""

    def __init__(self, db: PgDatabase, max_rows: int = 100_000, pseudonym: Callable[[str], str] | None = None) -> None:
        """Create the schema if needed; ``max_rows`` is the LRU cap (0 = none), ``pseudonym`` names owners in the log."""
        self.db, self.max_rows = db, int(max_rows)
        self.pseudonym = pseudonym or (lambda owner: "*")
        db.ensure_schema(SCHEMA)

    # -- writes ---------------------------------------------------------------------------------------------
    def write(self, items: Sequence[BatchItem] = (), *, owner: str = "", touch: Iterable[tuple[str, str, str]] = (),
              now: float | None = None) -> tuple[WriteReport, int]:
        """``add_batch(items)`` then ``touch``, in one transaction; returns the write's report and the facts touched."""
        w = VaultWrite(tuple(items), owner, tuple(touch), time.time() if now is None else now)
        if not w.items and not w.touch:
            return WriteReport(), 0
        if any(i.fact.quality != 1 for i in w.items):
            raise StoreError("the vault stores Reviewer-accepted facts only (quality = 1)")
        counts, used = self._apply(w)
        rep = WriteReport(counts["inserted"], counts["refreshed"], counts["superseded"])
        if self.max_rows and rep.inserted:
            rep.pruned = self._prune(self.max_rows, w.now)
        return rep, used

    def _apply(self, w: VaultWrite) -> tuple[dict[str, int], int]:
        """Replay one write over its slots' rows in one transaction (slots locked); its counts and touches."""
        slots = sorted({(i.fact.owner, i.fact.subj, i.fact.rel) for i in w.items} | {(w.owner, s, r) for s, r, _ in w.touch})
        with self.db.transaction() as con:
            for o, s, r in slots:
                con.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [slot_key(o, s, r)])
            old = [dict(zip(COLUMNS, r, strict=True)) for r in con.execute(
                f"SELECT {COLS} FROM mem.vault WHERE (owner, subj, rel) IN "
                "(SELECT * FROM unnest(%s::text[], %s::text[], %s::text[]))",
                [[s[0] for s in slots], [s[1] for s in slots], [s[2] for s in slots]]).fetchall()]
            rows, ((counts, used),) = apply_writes(old, [w])
            before = {(r["owner"], r["subj"], r["rel"], r["obj"]): r for r in old}
            changed = [tuple(r[c] for c in COLUMNS) for r in rows if before.get((r["owner"], r["subj"], r["rel"], r["obj"])) != r]
            with con.cursor() as cur:
                if changed:
                    cur.executemany(_UPSERT, changed)
                if w.items:
                    cur.execute("INSERT INTO mem.vault_log VALUES (%s, %s, %s, %s, %s)", self._log_row(w, counts))
        return counts, used

    def _log_row(self, w: VaultWrite, counts: dict[str, int]) -> tuple[Any, ...]:
        owners = {i.fact.owner for i in w.items}
        return (max(i.ts for i in w.items), "insert", self.pseudonym(next(iter(owners))) if len(owners) == 1 else "*",
                counts["inserted"], f"superseded={counts['superseded']} batch={len(w.items)}")

    def add(self, facts: Iterable[MemoryFact], *, supersede: bool = False, now: float | None = None) -> WriteReport:
        """Insert Reviewer-accepted facts (``memory.vault.Vault.add`` rules)."""
        ts = time.time() if now is None else now
        return self.add_batch([BatchItem(f, supersede, ts) for f in facts])

    def add_batch(self, items: Sequence[BatchItem]) -> WriteReport:
        """Many accepted facts, each with its own supersede flag and clock, in one transaction."""
        if not items:
            return WriteReport()
        return self.write(items, now=max(i.ts for i in items))[0]

    def touch(self, owner: str, keys: Iterable[tuple[str, str, str]], now: float | None = None) -> int:
        """Mark facts as used (raises their salience); returns rows touched."""
        return self.write((), owner=owner, touch=keys, now=now)[1]

    def prune(self, max_rows: int | None = None, now: float | None = None) -> int:
        """LRU: delete the least recently used rows above ``max_rows``; logged; returns rows removed."""
        return self._prune(self.max_rows if max_rows is None else int(max_rows), time.time() if now is None else now)

    def _prune(self, cap: int, ts: float) -> int:
        if cap <= 0:
            return 0
        with self.db.transaction() as con:
            con.execute("SELECT pg_advisory_xact_lock(7306022)")  # one pruner at a time
            extra = int(con.execute("SELECT count(*) FROM mem.vault").fetchone()[0]) - cap
            if extra <= 0:
                return 0
            con.execute("DELETE FROM mem.vault WHERE (owner, subj, rel, obj) IN (SELECT owner, subj, rel, obj FROM "
                        "mem.vault ORDER BY last_used, use_count, recorded_at LIMIT %s)", [extra])
            con.execute("INSERT INTO mem.vault_log VALUES (%s, 'prune', '*', %s, %s)", [ts, extra, f"cap={cap}"])
        log.info("vault pruned %d least recently used rows (cap %d)", extra, cap)
        return extra

    def forget(self, owner: str, now: float | None = None) -> int:
        """Delete every row of one owner, leaving none of its bytes in the tables' files; returns how many went."""
        ts = time.time() if now is None else now
        with self.db.transaction() as con:
            n = int(con.execute("DELETE FROM mem.vault WHERE owner = %s", [owner]).rowcount)
            con.execute("INSERT INTO mem.vault_log VALUES (%s, 'forget', %s, %s, '')", [ts, self.pseudonym(owner), n])
        self.db.scrub(["mem.vault"])
        return n

    # -- reads ----------------------------------------------------------------------------------------------
    def _facts(self, where: str, args: Sequence[Any], order: str) -> list[MemoryFact]:
        return [row_fact(r) for r in self.db.query(f"SELECT {COLS} FROM mem.vault WHERE {where} ORDER BY {order}", args)]

    def current(self, owners: Sequence[str], subj: str, rel: str | None = None, *, as_of: float | None = None) -> list[MemoryFact]:
        """Facts valid at ``as_of`` (default: now) and already recorded then, newest first."""
        if not owners:
            return []
        t = time.time() if as_of is None else as_of
        where = "subj = %s AND owner = ANY(%s) AND t_start <= %s AND recorded_at <= %s AND (t_end IS NULL OR t_end > %s)"
        args: list[Any] = [subj, list(owners), t, t, t]
        if rel is not None:
            where += " AND rel = %s"
            args.append(rel)
        return self._facts(where, args, "t_start DESC, confidence DESC, obj")

    def current_of(self, owners: Sequence[str], *, as_of: float | None = None) -> list[MemoryFact]:
        """Every fact of these owners valid and recorded at ``as_of``."""
        t = time.time() if as_of is None else as_of
        return self._facts("owner = ANY(%s) AND t_start <= %s AND recorded_at <= %s AND (t_end IS NULL OR t_end > %s)",
                           [list(owners), t, t, t], "t_start DESC, subj, rel, obj")

    def closed_of(self, owners: Sequence[str], *, as_of: float | None = None) -> set[tuple[str, str, str]]:
        """Keys of these owners' facts that a later version closed by ``as_of`` and that are not current then."""
        t = time.time() if as_of is None else as_of
        rows = self.db.query("SELECT subj, rel, obj, t_end <= %s, t_start <= %s AND recorded_at <= %s AND "
                             "(t_end IS NULL OR t_end > %s) FROM mem.vault WHERE owner = ANY(%s)", [t, t, t, t, list(owners)])
        return {(s, r, o) for s, r, o, closed, _ in rows if closed} - {(s, r, o) for s, r, o, _, cur in rows if cur}

    def history(self, owner: str, subj: str | None = None, limit: int = 1000) -> list[MemoryFact]:
        """Every row of an owner (closed ones too), newest first."""
        where, args = "owner = %s", [owner]
        if subj is not None:
            where += " AND subj = %s"
            args.append(subj)
        return self._facts(where, args, f"t_start DESC, subj, rel, obj LIMIT {int(limit)}")

    def count(self, owner: str | None = None) -> int:
        """Rows (of one owner, or all)."""
        if owner is None:
            return int(self.db.query("SELECT count(*) FROM mem.vault")[0][0])
        return int(self.db.query("SELECT count(*) FROM mem.vault WHERE owner = %s", [owner])[0][0])

    def owners(self) -> list[tuple[str, int]]:
        """(owner, rows) pairs."""
        return [(o, int(n)) for o, n in self.db.query("SELECT owner, count(*) FROM mem.vault GROUP BY owner ORDER BY owner")]

    def stats(self) -> dict[str, Any]:
        """Row counts, open vs closed, owners, and the log of prunes and forgets."""
        total, open_, owners = self.db.query("SELECT count(*), count(*) FILTER (WHERE t_end IS NULL), "
                                             "count(DISTINCT owner) FROM mem.vault")[0]
        logrows = self.db.query("SELECT action, count(*), sum(rows) FROM mem.vault_log GROUP BY action ORDER BY action")
        return {"rows": int(total), "current": int(open_), "superseded": int(total - open_), "owners": int(owners),
                "max_rows": self.max_rows, "log": {a: {"events": int(c), "rows": int(r or 0)} for a, c, r in logrows}}
