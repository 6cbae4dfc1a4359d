"""Contract tests: one suite per store Protocol, run against every backend in ``BACKENDS``.

``embedded`` is the files under the home; ``postgres`` is a real PostgreSQL 18 + pgvector and a real Redis
(``scale_out_urls`` in conftest: servers started from their wheels, a fresh database per test). Every test below
runs against both. Each suite covers
every method of its Protocol, durability across a reopen, concurrent writers losing nothing (for the writable
stores), and bad input raising a clear ``MedpathError``.
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import numpy as np
import pytest

from core.datasets import Node, Triple
from core.errors import ConfigError, IndexMissingError, MedpathError
from core.settings import MemorySettings, Settings
from memory import factory
from memory.protocols import EpisodicTier, GraphStore, PatientGraphStore, TextIndex, VaultTier, VectorIndex
from memory.records import MemoryFact

BACKENDS = ["embedded", "postgres"]

NODES = [Node("D1", "aspirin", "Drug", ("acetylsalicylic acid",)), Node("G1", "PTGS1", "Protein", ()),
         Node("P1", "prostaglandin synthesis", "BiologicalProcess", ()), Node("X1", "pain", "Disease", ())]
TRIPLES = [Triple("D1", "decreases activity of", "G1"), Triple("G1", "positively regulates", "P1"),
           Triple("P1", "positively correlated with", "X1"), Triple("D1", "treats", "X1"),
           Triple("D1", "treats", "X1")]  # stored once


@pytest.fixture(params=BACKENDS)
def home(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """Settings whose stores live in a fresh place for this backend."""
    database_url = redis_url = ""
    if request.param == "postgres":
        database_url, redis_url = request.getfixturevalue("scale_out_urls")
    settings = dataclasses.replace(Settings.from_env(), home=tmp_path / "home", database_url=database_url,
                                   redis_url=redis_url, memory=MemorySettings(vault_max_rows=0))
    settings.index_dir.mkdir(parents=True)
    return settings


def _scale_out(settings: Settings) -> bool:
    return factory.backend(settings) == "postgres"


def test_an_unknown_backend_is_a_clear_config_error(home: Settings) -> None:
    with pytest.raises(ConfigError, match="MEDPATH_DATABASE_URL"):
        factory.open_graph(dataclasses.replace(home, database_url="mongodb://localhost/medpath"))


# -- graph ------------------------------------------------------------------------------------------------------
@pytest.fixture
def graph(home: Settings) -> GraphStore:
    assert factory.write_graph(home, NODES, TRIPLES) == 4
    return factory.open_graph(home)  # written, closed and reopened: durability


def test_graph_store_every_method(graph: GraphStore) -> None:
    assert isinstance(graph, GraphStore)
    assert len(graph) == 4 and graph.relations == sorted({t.relation for t in TRIPLES})
    assert graph.node("D1").name == "aspirin" and graph.node("nope") is None and graph.name("nope") == "nope"
    assert [e.tail for e in graph.out_edges("D1")] == ["G1", "X1"] and [e.head for e in graph.in_edges("X1")] == ["D1", "P1"]
    assert graph.degree("D1") == 2 and graph.degree("nope") == 0
    assert graph.has_edge("D1", "treats", "X1") and not graph.has_edge("X1", "treats", "D1")
    batch = graph.neighbours(["D1", "G1", "nope"], "out")
    assert [e.tail for e in batch["G1"]] == ["P1"] and list(batch["nope"]) == []
    assert [e.head for e in graph.neighbours(["X1"], "in")["X1"]] == ["D1", "P1"]
    assert {(e.head, e.tail) for e in graph.subgraph(["D1"], 1)} == {("D1", "G1"), ("D1", "X1")}
    assert len(graph.subgraph(["D1"], 3)) == 4 and len(graph.subgraph(["D1"], 3, max_edges=2)) == 2
    assert [e.id for e in graph.lookup("Acetylsalicylic acid")] == ["D1"] == [e.id for e in graph.lookup("D1")]
    assert graph.lookup("unknown thing") == []
    assert graph.entity_ids() == ["D1", "G1", "P1", "X1"] and len(list(graph.edges())) == 4
    assert graph.aliases["D1"] == ("acetylsalicylic acid",) and set(graph.entities) == {"D1", "G1", "P1", "X1"}


def test_graph_store_refuses_bad_input(graph: GraphStore, home: Settings) -> None:
    with pytest.raises(MedpathError):
        graph.neighbours(["D1"], "sideways")
    with pytest.raises(MedpathError):
        graph.subgraph(["D1"], -1)
    if _scale_out(home):
        with pytest.raises(MedpathError, match="index build"):
            factory.open_graph(dataclasses.replace(home, database_url=home.database_url.rsplit("/", 1)[0] + "/postgres"))
        with pytest.raises(MedpathError, match="PostgreSQL"):  # nothing listens there: a clear error, no hang
            factory.open_graph(dataclasses.replace(home, database_url="postgresql://postgres@127.0.0.1:9/x",
                                                   memory=dataclasses.replace(home.memory, wait_s=1.0)))
        # the packed edge lists use two control characters as separators: an id holding one is refused, and the
        # graph already loaded stays in use
        with pytest.raises(MedpathError, match="control character"):
            factory.write_graph(home, NODES, [*TRIPLES, Triple("D1", "treats", "X\x1e2")])
        assert [e.tail for e in factory.open_graph(home).out_edges("D1")] == ["G1", "X1"]
        return
    (home.index_dir / "public.duckdb").write_bytes(b"not a database")
    with pytest.raises(MedpathError):
        factory.open_graph(home)
    (home.index_dir / "public.duckdb").unlink()
    with pytest.raises(MedpathError, match="index build"):
        factory.open_graph(home)


# -- vectors ----------------------------------------------------------------------------------------------------
def _unit(rows: int, dim: int, seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal((rows, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_vector_index_every_method_and_reopen(home: Settings) -> None:
    vecs = _unit(5, 8, 1)
    factory.write_vectors(home, ["a", "b", "c", "d", "e"], vecs, "test-model", 8)
    index = factory.open_vectors(home, "test-model", 8)
    assert isinstance(index, VectorIndex)
    assert index.dim == 8 and list(index.ids) == ["a", "b", "c", "d", "e"]
    assert np.allclose(index.vectors(), vecs, atol=1e-6)
    top = index.search(vecs[[2]], 2)[0]
    assert top[0][0] == "c" and top[0][1] == pytest.approx(1.0, abs=1e-5) and len(top) == 2
    index.add(["f"], _unit(1, 8, 2))
    assert list(index.ids)[-1] == "f" and index.search(vecs[[0]], 0) == [[]]
    index.save(home.index_dir)
    assert list(factory.open_vectors(home, "test-model", 8).ids) == ["a", "b", "c", "d", "e", "f"]


def test_vector_index_refuses_bad_input(home: Settings) -> None:
    factory.write_vectors(home, ["a"], _unit(1, 8, 1), "test-model", 8)
    index = factory.open_vectors(home, "test-model", 8)
    with pytest.raises(MedpathError):
        index.add(["x", "y"], _unit(1, 8, 3))  # two ids, one vector
    with pytest.raises(MedpathError):
        factory.open_vectors(home, "another-model", 8)  # built with another embedder
    empty = (dataclasses.replace(home, database_url=home.database_url.rsplit("/", 1)[0] + "/postgres")
             if _scale_out(home) else dataclasses.replace(home, home=home.home / "empty"))
    # nothing built there: said at once (a database without pgvector waited out the pool's 10 s, "did not answer")
    with pytest.raises(IndexMissingError, match="index build"):
        factory.open_vectors(empty, "test-model", 8)


# -- text -------------------------------------------------------------------------------------------------------
def test_text_index_every_method_and_reopen(home: Settings) -> None:
    factory.write_text(home, ["t1", "t2", "t3"], ["aspirin inhibits PTGS1", "PTGS1 makes prostaglandins",
                                                   "pain is relieved"])
    index = factory.open_text(home)
    assert isinstance(index, TextIndex)
    assert index.search("aspirin PTGS1", 3)[0][0] == "t1"
    assert index.search("", 3) == [] and index.search("zebra", 3) == [] and index.search("pain", 0) == []
    index.save(home.index_dir)
    assert factory.open_text(home).search("pain", 1)[0][0] == "t3"


def test_text_index_refuses_bad_input(home: Settings) -> None:
    with pytest.raises(MedpathError):
        factory.write_text(home, ["t1", "t2"], ["only one text"])
    with pytest.raises(MedpathError, match="index build"):
        factory.open_text(home)  # nothing built here


# -- vault ------------------------------------------------------------------------------------------------------
def _fact(owner: str, obj: str, t: float, **kw: object) -> MemoryFact:
    fields: dict[str, object] = {"evidence": f"takes {obj}", **kw}
    return MemoryFact(owner=owner, subj="PAT_1", rel="current_medication", obj=obj, t_start=t, **fields)  # type: ignore[arg-type]


def test_vault_every_method_and_reopen(home: Settings) -> None:
    vault = factory.open_memory(home).vault
    assert isinstance(vault, VaultTier)
    vault.add([_fact("u1", "metformin", 100.0)], supersede=True, now=100.0)
    vault.add([_fact("u1", "insulin", 200.0)], supersede=True, now=200.0)
    assert [f.obj for f in vault.current(["u1"], "PAT_1", "current_medication")] == ["insulin"]
    assert [f.obj for f in vault.current(["u1"], "PAT_1", "current_medication", as_of=150.0)] == ["metformin"]
    assert vault.current(["u2"], "PAT_1") == []  # another owner sees nothing
    reopened = factory.open_memory(home).vault
    assert {f.obj for f in reopened.history("u1")} == {"metformin", "insulin"}
    assert reopened.prune(max_rows=1, now=300.0) == 1 and reopened.count("u1") == 1
    assert reopened.forget("u1") == 1 and reopened.current(["u1"], "PAT_1") == []


def test_vault_two_concurrent_writers_lose_nothing(home: Settings) -> None:
    vaults = [factory.open_memory(home).vault, factory.open_memory(home).vault]  # two handles on one store

    def write(w: int) -> None:
        for i in range(25):
            vaults[w].add([_fact(f"u{w}", f"drug{i}", float(i))], now=float(i))

    threads = [threading.Thread(target=write, args=(w,)) for w in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert factory.open_memory(home).vault.count() == 50


def test_vault_refuses_bad_input(home: Settings) -> None:
    vault = factory.open_memory(home).vault
    with pytest.raises(MedpathError):
        vault.add([_fact("u1", "x", 1.0, quality=0)])  # only Reviewer-accepted facts


# -- episodic ---------------------------------------------------------------------------------------------------
def test_episodic_every_method_and_reopen(home: Settings) -> None:
    episodic = factory.open_memory(home).episodic
    assert isinstance(episodic, EpisodicTier)
    assert episodic.add([_fact("u1", "metformin", 0.0, store="episodic")], now=1000.0) == 1
    assert [f.obj for f in episodic.by_subject("u1", "PAT_1", now=1001.0)] == ["metformin"]
    assert episodic.by_subject("u1", "PAT_1", now=1000.0 + home.memory.ttl_s + 1) == []  # past its TTL
    assert [f.obj for f in factory.open_memory(home).episodic.by_subject("u1", "PAT_1", now=1001.0)] == ["metformin"]
    assert episodic.forget("u1") == 1 and episodic.by_subject("u1", "PAT_1", now=1001.0) == []


def test_episodic_two_concurrent_writers_lose_nothing(home: Settings) -> None:
    tiers = [factory.open_memory(home).episodic, factory.open_memory(home).episodic]

    def write(w: int) -> None:
        for i in range(25):
            tiers[w].add([_fact(f"u{w}", f"drug{i}", 0.0, store="episodic")], now=1000.0)

    threads = [threading.Thread(target=write, args=(w,)) for w in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert factory.open_memory(home).episodic.count(now=1000.0) == 50


def test_episodic_refuses_a_broken_file(home: Settings) -> None:
    if _scale_out(home):  # the Redis tier's failure: nothing listens at the URL
        with pytest.raises(MedpathError, match="Redis"):
            factory.open_memory(dataclasses.replace(home, redis_url="redis://127.0.0.1:9/0"))
        return
    home.memory_dir.mkdir(parents=True)
    (home.memory_dir / "episodic.sqlite").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(MedpathError):
        factory.open_memory(home)


# -- patients ---------------------------------------------------------------------------------------------------
def _patients() -> list:
    from memory.patients import Patient, PatientFact

    open_ = Patient("PAT_001", {"name": "Ada Example"}, {"conditions": True, "medications": True, "labs": False,
                                                          "notes": True, "research": True})
    open_.facts += [PatientFact("f1", "PAT_001", "conditions", "has_condition", "X1", "pain", on="2026-01-01"),
                    PatientFact("f2", "PAT_001", "medications", "takes", "D1", "aspirin", via="X1", on="2026-01-02"),
                    PatientFact("f3", "PAT_001", "labs", "has_lab", "ALT", "ALT", value=30.0, unit="U/L", on="2026-01-03"),
                    PatientFact("n1", "PAT_001", "notes", "note", "n1", "Clinical note", on="2026-01-04",
                                text="Ada Example reports less pain on aspirin.", pii_fields=["name"])]
    return [open_]


def test_patient_store_every_method_and_reopen(home: Settings) -> None:
    factory.write_patients(home, _patients(), seed=1)
    store = factory.open_patients(home)
    assert isinstance(store, PatientGraphStore) and set(store.patients) == {"PAT_001"}
    assert store.get("PAT_001").pii["name"] == "Ada Example"
    shown, withheld = store.visible("PAT_001", ("conditions", "medications", "labs"))
    assert [f.object_name for f in shown] == ["pain", "aspirin"] and withheld == 1  # labs withheld by consent
    hits, _ = store.note_hits("PAT_001", "pain aspirin")
    assert hits and hits[0][0].id == "n1"


def test_patient_store_refuses_bad_input(home: Settings) -> None:
    with pytest.raises(MedpathError, match="patients synth"):
        factory.open_patients(home)  # no file yet
    factory.write_patients(home, _patients(), seed=1)
    with pytest.raises(MedpathError):
        factory.open_patients(home).get("PAT_999")
    for body in ("[]", "{not json", '{"format": 99, "patients": []}'):
        home.patients_path.write_text(body)
        with pytest.raises(MedpathError):
            factory.open_patients(home)


# -- forget means gone --------------------------------------------------------------------------------------------
def test_forget_leaves_no_byte_of_the_text_or_the_owner_in_the_memory_files(home: Settings) -> None:
    """Deleting rows left their bytes in the files (DuckDB blocks, SQLite free pages and WAL); forget now scrubs."""
    from memory.records import GateDecision

    canary_owner, canary_text = "canary-user-7f3a9c", "CANARY-EVIDENCE-91b2e4"
    memory = factory.open_memory(home)
    for i in range(40):  # enough rows that the canary's pages are real pages, beside another owner's
        memory.commit(GateDecision("accept", 0.9), [_fact(canary_owner, f"drug{i}", float(i + 1),
                                                           evidence=f"{canary_text} {i}")],
                      aliases={"PAT_1": [f"{canary_owner} alias"]}, now=float(i + 1))
        memory.commit(GateDecision("accept", 0.9), [_fact("someone-else", f"drug{i}", float(i + 1))], now=float(i + 1))
    memory.gate_log.add([(1.0, canary_owner, "PAT_1", "current_medication", "drug0", "accept", 0.9, "embedded", canary_text)])
    assert memory.forget(canary_owner)["vault"] == 40
    reopened = factory.open_memory(home)
    assert reopened.vault.count("someone-else") == 40 and reopened.vault.count(canary_owner) == 0
    folder = home.memory_dir
    if _scale_out(home):  # every file of the PostgreSQL server: tables, indexes, write-ahead log, statistics
        import psycopg

        with psycopg.connect(home.database_url) as con:
            folder = Path(con.execute("SHOW data_directory").fetchone()[0])
        assert reopened.episodic.count(canary_owner, now=41.0) == 0  # Redis keeps no file (no RDB, no AOF)
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        assert canary_text.encode() not in data and canary_owner.encode() not in data, path.name


def test_a_vault_reader_does_not_wait_for_a_writer(home: Settings) -> None:
    """A running ingest held the vault file for seconds and every reader (and the server's event loop) waited.

    A reader follows other handles' writes through the change journal without the file; only a new epoch (here a
    forget) needs the table, and while the file is held the reader answers at once from what it has. (PostgreSQL
    readers never wait for writers: MVCC; the multi-worker tests cover it.)"""
    import time as clock

    if _scale_out(home):
        pytest.skip("an embedded-file property: PostgreSQL has no file lock")
    reader, writer = factory.open_memory(home).vault, factory.open_memory(home).vault
    writer.add([_fact("u1", "metformin", 1.0), _fact("u2", "aspirin", 1.0)], now=1.0)
    assert [f.obj for f in reader.current(["u1"], "PAT_1", as_of=2.0)] == ["metformin"]  # the reader's mirror
    held, release = threading.Event(), threading.Event()

    def ingest() -> None:
        with writer.session():
            held.set()
            release.wait(10)

    def read_while_held(owner: str) -> tuple[float, set[str]]:
        held.clear()
        release.clear()
        t = threading.Thread(target=ingest)
        t.start()
        held.wait(5)
        t0 = clock.perf_counter()
        during = {f.obj for f in reader.current([owner], "PAT_1", as_of=3.0)}
        waited = clock.perf_counter() - t0
        release.set()
        t.join()
        return waited, during

    writer.add([_fact("u1", "insulin", 2.0)], now=2.0)  # another handle wrote: the journal carries it
    waited, during = read_while_held("u1")
    assert waited < 1.0 and during == {"metformin", "insulin"}
    writer.forget("u2")  # a new epoch: the reader must reload the table, which the "ingest" holds
    waited, during = read_while_held("u2")
    assert waited < 1.0 and during == {"aspirin"}  # what it had, at once
    assert {f.obj for f in reader.current(["u2"], "PAT_1", as_of=3.0)} == set()  # caught up
