"""The vault's change journal: mirrors in several processes (here several handles, each with its own DuckDB engine)
follow each other's writes without reading the table, and reload it only on a new epoch."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import pytest

import memory.vault_journal as journal_module
from memory.records import MemoryFact
from memory.vault import Vault
from memory.vault_batch import BatchItem
from memory.vault_file import COLS
from memory.vault_mirror import fact_row


def _table(v: Vault) -> list[tuple[Any, ...]]:
    with v.session() as con:
        return sorted(tuple(r) for r in con.execute(f"SELECT {COLS} FROM vault").fetchall())


def _mirror(v: Vault) -> list[tuple[Any, ...]]:
    return sorted(fact_row(f) for facts in list(v.mirror.rows().values()) for f in facts)


def _fact(owner: str, subj: str, rel: str, obj: str, t: float) -> MemoryFact:
    return MemoryFact(owner=owner, subj=subj, rel=rel, obj=obj, evidence=f"{subj} {rel} {obj}", t_start=t,
                      confidence=0.5 + (t % 5) / 10, quality=1)


def _count_reloads(v: Vault) -> list[int]:
    calls = [0]
    inner = v.mirror._reload

    def counted(con: Any) -> None:
        calls[0] += 1
        inner(con)

    v.mirror._reload = counted  # type: ignore[method-assign]
    return calls


def test_two_handles_see_each_others_writes_through_the_journal(tmp_path: Path) -> None:
    """A seeded mix of writes (single facts, batches, group writes with touches, supersession) through two handles:
    after each, both mirrors equal the table; only a forget or a prune (a new epoch) makes a mirror reload it."""
    path = tmp_path / "v.duckdb"
    handles = [Vault(path, max_rows=0), Vault(path, max_rows=0)]
    reloads = [_count_reloads(v) for v in handles]
    rng = random.Random(7)
    epochs = 0
    for step in range(120):
        v = handles[rng.randrange(2)]
        t = float(step + 1)
        owner, subj, rel = rng.choice(["alice", "bob"]), rng.choice(["S1", "S2", "S3"]), rng.choice(["r", "q"])
        fact = _fact(owner, subj, rel, rng.choice(["o1", "o2", "o3", "o4"]), t)
        kind = rng.random()
        if kind < 0.35:
            v.add([fact], supersede=rng.random() < 0.5, now=t)
        elif kind < 0.65:
            v.write([BatchItem(fact, rng.random() < 0.5, t)], owner=owner, now=t,
                    touch=[(rng.choice(["S1", "S2"]), "r", rng.choice(["o1", "o2"]))])
        elif kind < 0.8:
            v.add_batch([BatchItem(_fact(owner, s, rel, "o5", t), False, t) for s in ("S1", "S4")])
        elif kind < 0.95:
            v.touch(owner, [(subj, rel, "o1"), (subj, rel, "o2")], now=t)
        else:
            v.forget(owner)
            epochs += 1
        want = _table(v)
        assert _mirror(handles[0]) == want and _mirror(handles[1]) == want, step
    # each handle loaded the table once, and again after each new epoch at most
    assert all(1 <= r[0] <= 1 + epochs for r in reloads), (reloads, epochs)


def test_a_writer_that_died_between_commit_and_record_makes_the_next_writer_start_an_epoch(tmp_path: Path) -> None:
    """A committed row whose record never reached the journal: readers stop at the mark; the next writer finds the
    mark alone, starts a new epoch, and writes over the table as it is (the dead writer's row is superseded)."""
    path = tmp_path / "v.duckdb"
    live, dead = Vault(path), Vault(path)
    live.add([_fact("alice", "S", "r", "old", 1.0)], now=1.0)
    assert [f.obj for f in live.current(["alice"], "S", as_of=5.0)] == ["old"]
    with dead.session() as con:  # what a writer killed after its commit leaves: the row and a lone mark
        con.execute(f"INSERT INTO vault ({COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    ["alice", "S", "r", "lost", 2.0, 2.0, 1, 1, 0.9, "e", 2.0, None, 2.0])
        dead.mirror.journal.begin()
    assert {f.obj for f in live.current(["alice"], "S", as_of=5.0)} == {"old"}  # stopped at the mark
    live.write([BatchItem(_fact("alice", "S", "r", "new", 3.0), True, 3.0)], owner="alice", now=3.0)
    assert {f.obj for f in live.current(["alice"], "S", as_of=5.0)} == {"new"}
    rows = {r[3]: r for r in _table(live)}
    assert rows["lost"][11] == 3.0 and rows["old"][11] == 3.0  # both closed by the superseding write
    assert _mirror(live) == _table(live) == _mirror(Vault(path))


def test_the_journal_starts_over_once_big_and_a_reader_that_kept_up_reads_on(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal past ROTATE_BYTES starts over in a new file that names where the old one ended: a reader that had
    read it all reads on without reloading the table; one that had not reloads once."""
    monkeypatch.setattr(journal_module, "ROTATE_BYTES", 2000)
    path = tmp_path / "v.duckdb"
    writer, reader, late = Vault(path), Vault(path), Vault(path)
    reloads, late_reloads = _count_reloads(reader), _count_reloads(late)
    assert _mirror(late) == _table(writer) == []
    sizes = []
    for i in range(60):
        writer.add([_fact("alice", f"S{i}", "r", "o", float(i + 1))], now=float(i + 1))
        sizes.append(writer.mirror.journal.end())
        assert _mirror(reader) == _table(writer)
    assert max(sizes) < 2000 + 1000 and min(sizes[5:]) < 1000  # it grew, then started over, more than once
    assert sum(b < a for a, b in itertools.pairwise(sizes)) >= 2
    assert reloads[0] == 1  # the first load only
    assert _mirror(late) == _table(writer) and late_reloads[0] == 2  # it missed the end of an old journal


@pytest.mark.parametrize("damage", ["garbage", "deleted", "no-epoch"])
def test_a_broken_journal_makes_readers_reload_and_writers_start_over(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "v.duckdb"
    writer, reader = Vault(path), Vault(path)
    writer.add([_fact("alice", "S", "r", "o1", 1.0)], now=1.0)
    assert _mirror(reader) == _table(writer)
    changes = writer.mirror.journal.path
    if damage == "garbage":
        with changes.open("ab") as fh:
            fh.write(b"\xff{not json\n")
    elif damage == "deleted":
        changes.unlink()
    else:
        changes.write_bytes(b"P\n")
    with reader.session() as con:  # another writer, without the journal
        con.execute(f"INSERT INTO vault ({COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    ["alice", "S", "r", "o2", 2.0, 2.0, 1, 1, 0.9, "e", 2.0, None, 2.0])
    assert {f.obj for f in reader.current(["alice"], "S", as_of=5.0)} == {"o1", "o2"}  # reloaded the table
    writer.add([_fact("alice", "S", "r", "o3", 3.0)], now=3.0)
    assert _mirror(writer) == _mirror(reader) == _table(writer)


def test_a_journal_that_cannot_be_written_is_a_store_error_and_the_next_write_recovers(tmp_path: Path) -> None:
    """The journal is where the commit mark goes: when it cannot be written, the write is refused with a clear
    StoreError (nothing committed), and once it can, writes and every mirror carry on."""
    from core.errors import StoreError

    path = tmp_path / "v.duckdb"
    writer, reader = Vault(path), Vault(path)
    writer.add([_fact("alice", "S", "r", "o1", 1.0)], now=1.0)
    assert _mirror(reader) == _table(writer)
    journal = writer.mirror.journal.path
    journal.unlink()
    journal.mkdir()  # a path no file can be opened at
    with pytest.raises(StoreError, match="change journal"):
        writer.write([BatchItem(_fact("alice", "S", "r", "o2", 2.0), False, 2.0)], owner="alice", now=2.0)
    assert {r[3] for r in _table(writer)} == {"o1"}
    journal.rmdir()
    writer.add([_fact("alice", "S", "r", "o3", 3.0)], now=3.0)
    assert {r[3] for r in _table(writer)} == {"o1", "o3"}
    assert _mirror(writer) == _mirror(reader) == _table(writer)
