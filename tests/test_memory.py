"""MIRIX-Slim tiers on their own: TTL, the gate, supersession, as-of, LRU, isolation, forget, concurrency."""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from core.errors import StoreError
from memory.episodic import EpisodicStore
from memory.mirix import Memory
from memory.records import GateDecision, MemoryFact, Salience, composite_score
from memory.vault import Vault, WriteReport

T0 = 1_767_600_000.0  # an arbitrary fixed clock
YES = GateDecision("accept", 0.9)
NO = GateDecision("reject", 0.2)


def fact(owner: str, subj: str, rel: str, obj: str, t: float = T0) -> MemoryFact:
    return MemoryFact(owner=owner, subj=subj, rel=rel, obj=obj, t_start=t, evidence=f"{subj} {rel} {obj}")


def test_episodic_ttl_with_injected_clock(tmp_path: Path) -> None:
    ep = EpisodicStore(tmp_path / "e.sqlite", ttl_s=1800)
    ep.add([fact("alice", "S", "r", "o")], now=T0)
    assert [f.obj for f in ep.by_subject("alice", "S", now=T0 + 1799)] == ["o"]
    assert ep.by_subject("alice", "S", now=T0 + 1801) == []  # expired: never returned
    assert ep.count(now=T0 + 1801) == 0
    assert ep.sweep(now=T0 + 1801) == 1  # and swept
    assert ep.sweep(now=T0 + 1801) == 0


def test_episodic_sweeps_on_write(tmp_path: Path) -> None:
    ep = EpisodicStore(tmp_path / "e.sqlite", ttl_s=60)
    ep.add([fact("alice", "S", "r", "old")], now=T0)
    ep.add([fact("alice", "S", "r", "new")], now=T0 + 120)
    assert ep._db.execute("SELECT obj FROM episodic").fetchall() == [("new",)]


def test_gate_reject_writes_nothing(tmp_path: Path) -> None:
    mem = Memory(tmp_path)
    out = mem.commit(NO, [fact("alice", "S", "r", "o")], now=T0)
    assert not out.written and "reject" in out.reason
    assert mem.vault.count() == 0 and mem.episodic.count(now=T0) == 0 and mem.index.count() == 0
    assert mem.commit(YES, [fact("alice", "S", "r", "o")], now=T0).written
    assert mem.vault.count() == 1 and mem.episodic.count(now=T0) == 1


def test_vault_refuses_unreviewed_rows(tmp_path: Path) -> None:
    from core.errors import StoreError

    v = Vault(tmp_path / "v.duckdb")
    bad = fact("alice", "S", "r", "o")
    bad.quality = 0
    with pytest.raises(StoreError):
        v.add([bad], now=T0)
    assert v.count() == 0


def test_supersession_stays_in_its_slot(tmp_path: Path) -> None:
    v = Vault(tmp_path / "v.duckdb")
    v.add([fact("alice", "P1", "med", "A"), fact("alice", "P1", "lab", "7.1"), fact("bob", "P1", "med", "A"),
           fact("alice", "P2", "med", "A")], supersede=True, now=T0)
    v.add([fact("alice", "DRUG", "targets", "X"), fact("alice", "DRUG", "targets", "Y")], now=T0)  # additive
    rep = v.add([fact("alice", "P1", "med", "B", T0 + 100)], supersede=True, now=T0 + 100)
    assert rep.superseded == 1
    now = T0 + 200
    assert [f.obj for f in v.current(["alice"], "P1", "med", as_of=now)] == ["B"]
    assert [f.obj for f in v.current(["alice"], "P1", "lab", as_of=now)] == ["7.1"]  # other relation untouched
    assert [f.obj for f in v.current(["bob"], "P1", "med", as_of=now)] == ["A"]  # other owner untouched
    assert [f.obj for f in v.current(["alice"], "P2", "med", as_of=now)] == ["A"]  # other subject untouched
    assert sorted(f.obj for f in v.current(["alice"], "DRUG", "targets", as_of=now)) == ["X", "Y"]
    closed = [f for f in v.history("alice", "P1") if f.obj == "A"]
    assert closed[0].t_end == T0 + 100


def test_late_arriving_old_value_is_closed_at_once(tmp_path: Path) -> None:
    v = Vault(tmp_path / "v.duckdb")
    v.add([fact("alice", "P", "med", "NEW", T0 + 100)], supersede=True, now=T0 + 100)
    v.add([fact("alice", "P", "med", "OLD", T0)], supersede=True, now=T0 + 200)
    assert [f.obj for f in v.current(["alice"], "P", "med", as_of=T0 + 300)] == ["NEW"]


def test_as_of_queries(tmp_path: Path) -> None:
    v = Vault(tmp_path / "v.duckdb")
    v.add([fact("alice", "P", "med", "A", T0)], supersede=True, now=T0)
    v.add([fact("alice", "P", "med", "B", T0 + 1000)], supersede=True, now=T0 + 1000)
    assert v.current(["alice"], "P", "med", as_of=T0 - 1) == []
    assert [f.obj for f in v.current(["alice"], "P", "med", as_of=T0 + 500)] == ["A"]
    assert [f.obj for f in v.current(["alice"], "P", "med", as_of=T0 + 1000)] == ["B"]
    # valid from T0+1500 but only recorded at T0+3000: not known as of T0+2000
    v.add([fact("alice", "P", "lab", "9.9", T0 + 1500)], supersede=True, now=T0 + 3000)
    assert v.current(["alice"], "P", "lab", as_of=T0 + 2000) == []
    assert [f.obj for f in v.current(["alice"], "P", "lab", as_of=T0 + 3000)] == ["9.9"]
    # the mirror and DuckDB agree
    for t in (T0 - 1, T0 + 500, T0 + 2000, T0 + 4000):
        assert [f.key for f in v.current(["alice"], "P", as_of=t)] == [f.key for f in v.current_sql(["alice"], "P", as_of=t)]


def test_lru_pruning_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    v = Vault(tmp_path / "v.duckdb", max_rows=0)
    for i in range(5):
        v.add([fact("alice", f"S{i}", "r", "o", T0 + i)], now=T0 + i)
    v.touch("alice", [("S0", "r", "o")], now=T0 + 10)  # the oldest becomes the most recently used
    with caplog.at_level(logging.INFO, logger="medpath.memory"):
        assert v.prune(3, now=T0 + 11) == 2
    left = sorted(f.subj for f in v.history("alice"))
    assert left == ["S0", "S3", "S4"]
    assert "pruned 2" in caplog.text
    assert v.stats()["log"]["prune"] == {"events": 1, "rows": 2}


def test_cap_prunes_on_write(tmp_path: Path) -> None:
    v = Vault(tmp_path / "v.duckdb", max_rows=3)
    for i in range(5):
        v.add([fact("alice", f"S{i}", "r", "o", T0 + i)], now=T0 + i)
    assert v.count() == 3


def test_users_never_see_each_other(tmp_path: Path) -> None:
    mem = Memory(tmp_path)
    mem.commit(YES, [fact("alice", "PAT_9", "med", "A")], aliases={"PAT_9": ["MRN-1"]}, now=T0)
    assert mem.recall(["bob"], "PAT_9", as_of=T0 + 1) == []
    assert mem.resolve(["bob"], "MRN-1") == []
    assert mem.resolve(["alice"], "mrn 1") == ["PAT_9"]  # folded alias
    assert [f.obj for f in mem.recall(["alice"], "PAT_9", as_of=T0 + 1)] == ["A"]
    assert mem.vault_matches(["bob"], {("PAT_9", "med", "A")}, as_of=T0 + 1) == set()


def test_mem_index_finds_by_alias_and_embedding(tmp_path: Path) -> None:
    mem = Memory(tmp_path)
    v = np.ones(8, dtype=np.float32) / np.sqrt(8)
    mem.commit(YES, [fact("alice", "MESH:D1", "r", "o")], aliases={"MESH:D1": ["Gleevec", "imatinib"]},
               vectors={"MESH:D1": v}, now=T0)
    assert mem.resolve(["alice"], "GLEEVEC") == ["MESH:D1"]
    assert mem.resolve(["alice"], "MESH:D1") == ["MESH:D1"]
    assert mem.index.lookup_vector(["alice"], v + 0.001) == ["MESH:D1"]


def test_forget_removes_everything(tmp_path: Path) -> None:
    mem = Memory(tmp_path)
    mem.commit(YES, [fact("alice", "S", "r", "o"), fact("alice", "T", "r", "o")], aliases={"S": ["ess"]}, now=T0)
    mem.commit(YES, [fact("bob", "S", "r", "o")], now=T0)
    gone = mem.forget("alice")
    assert gone["vault"] == 2 and gone["episodic"] == 2 and gone["mem_index"] >= 3
    assert mem.vault.count("alice") == 0 and mem.episodic.count("alice", now=T0) == 0 and mem.index.count("alice") == 0
    assert mem.vault.count("bob") == 1


def test_salience_and_composite_score() -> None:
    sal = Salience(half_life_s=100.0)
    assert sal(T0, 1, T0) == pytest.approx(0.5)
    assert sal(T0, 3, T0) == pytest.approx(0.875)  # raised by use
    assert sal(T0, 1, T0 + 100) == pytest.approx(0.25)  # halves per half-life
    assert composite_score(1.0, 1.0, 1.0, (0.5, 0.3, 0.2)) == pytest.approx(1.0)
    assert composite_score(0.8, 0.5, 0.9, (0.5, 0.3, 0.2)) == pytest.approx(0.4 + 0.15 + 0.18)
    assert composite_score(2.0, -1.0, float("nan"), (0.5, 0.3, 0.2)) == pytest.approx(0.5)  # clipped


def test_recall_ranks_by_composite(tmp_path: Path) -> None:
    mem = Memory(tmp_path)
    mem.commit(GateDecision("accept", 0.95), [fact("alice", "D", "targets", "X")], now=T0)
    mem.commit(GateDecision("accept", 0.55), [fact("alice", "D", "targets", "Y")], now=T0)
    hits = mem.recall(["alice"], "D", stores=("vault",), as_of=T0 + 1)
    assert [h.obj for h in hits] == ["X", "Y"] and hits[0].score > hits[1].score


_WRITER = textwrap.dedent("""
    import sys
    from memory.vault import Vault, WriteReport
    from memory.records import MemoryFact
    v = Vault(sys.argv[1], max_rows=0)
    for i in range(int(sys.argv[3])):
        v.add([MemoryFact(owner=sys.argv[2], subj=f"S{i}", rel="r", obj="o", t_start=1.0)], now=1.0 + i)
""")


def test_two_processes_writing_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "v.duckdb"
    early = Vault(path, max_rows=0)
    assert early.current(["writer-a"], "S0") == []  # its mirror is loaded before the writers start
    root = Path(__file__).resolve().parent.parent
    n = 60
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), owner, str(n)], cwd=root)
             for owner in ("writer-a", "writer-b")]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    v = Vault(path)
    assert v.count("writer-a") == n and v.count("writer-b") == n
    # a reader that loaded its mirror before sees later writes by another process
    assert len(v.current(["writer-a"], "S0", as_of=10_000)) == 1
    subprocess.run([sys.executable, "-c", _WRITER, str(path), "writer-c", "1"], cwd=root, check=True)
    assert len(v.current(["writer-c"], "S0", as_of=10_000)) == 1
    # the early reader followed 121 writes of three other processes through the journal: its mirror is the table
    with v.session() as con:
        table = sorted(con.execute("SELECT owner, subj, rel, obj, use_count, t_start FROM vault").fetchall())
    assert sorted((f.owner, f.subj, f.rel, f.obj, f.use_count, f.t_start) for facts in early.mirror.rows().values()
                  for f in facts) == table and len(table) == 2 * n + 1


def test_tiers_implement_their_protocols(tmp_path: Path) -> None:
    from memory.protocols import EpisodicTier, VaultTier

    assert isinstance(EpisodicStore(":memory:"), EpisodicTier)
    assert isinstance(Vault(tmp_path / "v.duckdb"), VaultTier)


def test_group_commit_gives_every_writer_its_own_result_and_error(tmp_path: Path) -> None:
    """Concurrent writers share vault sessions: each still gets its own report back (and its own error), every row
    is written, and fewer sessions are opened than there were writers."""
    import threading

    from memory.vault_batch import BatchItem

    vault = Vault(tmp_path / "v.duckdb")
    groups: list[int] = []
    real = vault._write_group

    def counting(requests):  # type: ignore[no-untyped-def]
        groups.append(len(requests))
        return real(requests)

    vault._write_group = counting  # type: ignore[method-assign]
    start = threading.Barrier(12)
    results: dict[int, object] = {}

    def writer(i: int) -> None:
        f = MemoryFact(owner=f"u{i}", subj="DB:x", rel="rel", obj=f"o{i}", evidence="e", quality=0 if i == 5 else 1,
                       confidence=0.9)
        start.wait()
        try:
            results[i] = vault.write([BatchItem(f, False, 100.0 + i)], now=100.0 + i)[0].inserted
        except StoreError as exc:
            results[i] = exc

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert isinstance(results[5], StoreError)  # writer 5's bad fact fails it alone
    assert all(results[i] == 1 for i in range(12) if i != 5), results
    assert {o for o, _ in vault.owners()} == {f"u{i}" for i in range(12) if i != 5}
    assert sum(groups) == 12 and len(groups) < 12, groups  # at least one group carried several writers


def test_a_group_of_writes_equals_the_same_writes_one_by_one(tmp_path: Path) -> None:
    """What the group commit applies in one statement set is what add_batch then touch, write after write, gives:
    the rows, each write's report and each touch's count (supersession, refreshes and touches of facts that an
    earlier write of the group inserted included)."""
    from memory.vault_batch import BatchItem, VaultWrite

    def f(owner: str, subj: str, rel: str, obj: str, conf: float = 0.8) -> MemoryFact:
        return MemoryFact(owner=owner, subj=subj, rel=rel, obj=obj, evidence=f"{subj} {rel} {obj}", quality=1,
                          confidence=conf)

    writes = [
        VaultWrite((BatchItem(f("a", "S", "r", "x"), False, 10.0), BatchItem(f("a", "S", "q", "y"), False, 10.0)),
                   "a", (("S", "r", "x"), ("T", "r", "none")), 10.0),
        VaultWrite((BatchItem(f("b", "S", "r", "x", 0.9), False, 11.0),), "a", (("S", "q", "y"),), 11.0),
        VaultWrite((BatchItem(f("a", "S", "r", "z"), True, 12.0),), "a", (("S", "r", "x"), ("S", "r", "x")), 12.0),
        VaultWrite((), "b", (("S", "r", "x"),), 13.0),
        VaultWrite((BatchItem(f("a", "S", "q", "y", 0.95), False, 14.0),), "", (), 14.0),
    ]
    grouped, single = Vault(tmp_path / "g.duckdb"), Vault(tmp_path / "s.duckdb")
    seed = (BatchItem(f("a", "S", "r", "old"), False, 1.0),)
    for v in (grouped, single):
        v.add_batch(list(seed))
    grouped.current_of(["a"])  # the mirror is loaded: the group write updates it in place, without a query
    with grouped.session():
        got = grouped._write_group(writes)
    want = []
    for w in writes:
        rep = single.add_batch(list(w.items)) if w.items else WriteReport()
        want.append((rep, single.touch(w.owner, list(w.touch), now=w.now) if w.touch else 0))
    assert got == want

    def rows(v: Vault) -> list[tuple[object, ...]]:
        with v.session() as con:
            return con.execute("SELECT * FROM vault ORDER BY owner, subj, rel, obj").fetchall()

    assert rows(grouped) == rows(single)
    assert [r[:4] for r in rows(grouped)] == sorted(r[:4] for r in rows(grouped))

    def mirrored(v: Vault) -> list[tuple[object, ...]]:
        return sorted((f.owner, f.subj, f.rel, f.obj, f.use_count, f.last_used, f.t_end) for facts in v.mirror.rows().values()
                      for f in facts)

    assert grouped.mirror._rows is not None and mirrored(grouped) == mirrored(Vault(tmp_path / "g.duckdb"))


def test_a_sqlite_tier_held_by_another_process_is_a_bounded_busy_error(tmp_path: Path) -> None:
    """A write waits at most its bound (MEDPATH_STORE_WAIT_S) for a SQLite tier another connection holds, then
    raises StoreBusyError (503 + Retry-After in the API), not a plain failure and not a 30 s hang."""
    import sqlite3
    import time

    from core.errors import StoreBusyError

    store = EpisodicStore(tmp_path / "episodic.sqlite", wait_s=0.3)
    other = sqlite3.connect(str(tmp_path / "episodic.sqlite"), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    t0 = time.monotonic()
    with pytest.raises(StoreBusyError, match="locked"):
        store.add([MemoryFact(owner="u", subj="s", rel="r", obj="o", evidence="e")])
    assert time.monotonic() - t0 < 5
    other.execute("ROLLBACK")
    assert store.add([MemoryFact(owner="u", subj="s", rel="r", obj="o", evidence="e")]) == 1


def test_the_vault_log_is_replayed_by_the_next_session_and_checkpointed_once_big(tmp_path: Path) -> None:
    """A session leaves a small write-ahead log in place (committed rows are durable in it): another engine, as
    another process would, sees every row; once the log reaches CHECKPOINT_WAL_BYTES a session folds it into the
    file. A forget leaves no row of the owner in any file, log included."""
    from memory.vault_file import CHECKPOINT_WAL_BYTES

    path = tmp_path / "v.duckdb"
    wal = Path(str(path) + ".wal")
    vault = Vault(path)
    vault.add([MemoryFact(owner="alice", subj="S", rel="r", obj="canary-o1", evidence="e", quality=1)], now=1.0)
    assert wal.exists() and 0 < wal.stat().st_size < CHECKPOINT_WAL_BYTES  # not checkpointed at detach
    other = Vault(path)  # a second engine replays the log
    assert [f.obj for f in other.current(["alice"], "S", as_of=2.0)] == ["canary-o1"]
    sizes = [wal.stat().st_size]
    for i in range(200):
        vault.add([MemoryFact(owner="bob", subj=f"S{i}", rel="r", obj=f"o{i}", evidence="e" * 200, quality=1)], now=3.0 + i)
        sizes.append(wal.stat().st_size if wal.exists() else 0)
        if sizes[-1] < sizes[-2]:  # folded into the file
            break
    else:
        raise AssertionError("the log grew past the threshold without a checkpoint")
    # the log grew write after write, was folded in only once it neared the threshold, and never stayed above it
    assert i > 3 and sizes[:-1] == sorted(sizes[:-1]) and sizes[-2] > CHECKPOINT_WAL_BYTES // 2, sizes
    assert max(sizes) < CHECKPOINT_WAL_BYTES, sizes
    assert Vault(path).count() == 1 + i + 1
    vault.forget("alice")
    assert not any(b"canary-o1" in f.read_bytes() for f in tmp_path.iterdir() if f.is_file())
