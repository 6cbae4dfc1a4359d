"""The scale-out backend end to end: ``index build --database``, and ``serve --workers 4`` on one PostgreSQL +
pgvector and one Redis (real servers from their wheels, ``scale_out_stack`` in conftest) sharing every state.

Each multi-worker test makes its requests on new connections, so the kernel hands them to whichever of the four
workers accepts first; a property that held only within one worker would fail here.
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import json
import os
import shutil
import signal
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil
import psycopg
import pytest
from click.testing import CliRunner
from conftest import serve_process

from core.errors import StoreError
from core.settings import Settings, child_env
from medpath import stack
from medpath.auth import issue_token
from medpath.cli import cli
from medpath.threads import checkpoint_serde
from memory import factory
from memory.records import MemoryFact

SECRET = "scale-out-secret-0123456789abcdef0123"
QUESTION = "How does imatinib treat CML (ph+)?"


def _home(settings: Settings, folder: Path) -> Path:
    """A home whose index folder links the built index's files (the manifest copied, so a build records its keys
    here and not in the shared one)."""
    index = folder / "index"
    index.mkdir(parents=True)
    for f in settings.index_dir.iterdir():
        if f.name == "manifest.json":
            (index / f.name).write_bytes(f.read_bytes())
        else:
            (index / f.name).symlink_to(f.resolve())
    return folder


@pytest.fixture(scope="module")
def loaded(scale_out_stack: tuple[str, str], settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A database loaded by ``medpath index build --database`` (the CLI, twice), and the env of workers using it."""
    admin, redis_base = scale_out_stack
    name = f"idx_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as con:
        con.execute(f"CREATE DATABASE {name}")
    url = admin.rsplit("/", 1)[0] + f"/{name}"
    home = _home(settings, tmp_path_factory.mktemp("scale-out-home"))
    env = {"MEDPATH_HOME": str(home), "MEDPATH_DATABASE_URL": "", "MEDPATH_REDIS_URL": ""}
    runs = [CliRunner().invoke(cli, ["index", "build", "--database", url, "--quiet"], env=env) for _ in range(2)]
    yield {"url": url, "redis": f"{redis_base}/2", "home": home, "runs": runs}


def test_index_build_loads_the_database_and_a_second_run_skips(loaded: dict[str, Any], settings: Settings) -> None:
    first, second = loaded["runs"]
    assert first.exit_code == 0, first.output
    assert [ln.split()[1] for ln in first.output.splitlines()[:3]] == ["built", "built", "built"]  # public dense bm25
    assert second.exit_code == 0 and [ln.split()[1] for ln in second.output.splitlines()[:3]] == ["skipped"] * 3
    env = {"MEDPATH_HOME": str(loaded["home"]), "MEDPATH_REDIS_URL": ""}
    status = CliRunner().invoke(cli, ["index", "status"], env={**env, "MEDPATH_DATABASE_URL": loaded["url"]})
    assert status.exit_code == 0 and [ln.split()[1] for ln in status.output.splitlines()[1:5]] == ["ready"] * 4
    other = loaded["url"].rsplit("/", 1)[0] + "/postgres"  # a database nothing was loaded into
    status = CliRunner().invoke(cli, ["index", "status"], env={**env, "MEDPATH_DATABASE_URL": other})
    assert [ln.split()[1] for ln in status.output.splitlines()[1:5]] == ["missing", "missing", "missing", "ready"]
    scaled = dataclasses.replace(settings, database_url=loaded["url"])
    graph, embedded = factory.open_graph(scaled), factory.open_graph(settings)
    assert len(graph) == len(embedded) and graph.entity_ids() == embedded.entity_ids()
    assert list(graph.edges()) == list(embedded.edges())  # the same fixed order: the same walks and sums
    some = embedded.entity_ids()[:50]
    assert graph.neighbours(some, "in") == {k: tuple(v) for k, v in embedded.neighbours(some, "in").items()}


def test_a_failed_load_leaves_the_old_graph_in_use(loaded: dict[str, Any], settings: Settings) -> None:
    from core.datasets import Node, Triple

    scaled = dataclasses.replace(settings, database_url=loaded["url"])
    before = len(factory.open_graph(scaled))

    def broken() -> Iterator[Triple]:
        yield Triple("A", "treats", "B")
        raise OSError("the triples file went away mid-load")

    with pytest.raises(OSError):
        factory.write_graph(scaled, [Node("A", "a", "Drug", ())], broken())
    assert len(factory.open_graph(scaled)) == before


def _workers_env(loaded: dict[str, Any], **extra: str) -> dict[str, str]:
    return child_env(MEDPATH_HOME=str(loaded["home"]), MEDPATH_DATABASE_URL=loaded["url"], MEDPATH_REDIS_URL=loaded["redis"],
                     MEDPATH_JWT_SECRET=SECRET, MEDPATH_RATE_LIMIT=extra.pop("limit", "100000/minute"), **extra)


def _memories(base: str, token: str) -> dict[tuple[str, str, str], int]:
    with httpx.Client(timeout=60) as c:
        r = c.get(f"{base}/api/v1/memories", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return {(m["subject"], m["relation"], m["object"]): m["uses"] for m in r.json()["memories"]}


def _ask(base: str, token: str, body: dict[str, Any]) -> httpx.Response:
    with httpx.Client(timeout=120) as c:
        return c.post(f"{base}/api/v1/ask", json=body, headers={"Authorization": f"Bearer {token}"})


@pytest.mark.slow
def test_four_workers_share_memory_limits_and_conversations(loaded: dict[str, Any], tmp_path: Path) -> None:
    """With ``serve --workers 4`` on PostgreSQL + Redis: a memory write through one worker is read through every
    other; a clarification started on one worker resumes on whichever takes the answer; and a rate limit of 10 a
    minute counts across all four (checked last, in a server of its own)."""
    alice = issue_token(SECRET, f"alice-{uuid.uuid4().hex[:6]}", role="clinician", patients=[], ttl_s=3600)
    bob = issue_token(SECRET, f"bob-{uuid.uuid4().hex[:6]}", role="clinician", patients=[], ttl_s=3600)
    with serve_process(_workers_env(loaded), tmp_path / "serve.log", "--workers", "4", seconds=180) as (base, _proc):
        assert _ask(base, alice, {"question": QUESTION}).json()["status"] == "ANSWERED"
        reads = [_memories(base, alice) for _ in range(16)]
        assert reads[0] and all(r == reads[0] for r in reads)
        assert _ask(base, alice, {"question": QUESTION}).json()["status"] == "ANSWERED"  # uses what it wrote
        after = [_memories(base, alice) for _ in range(16)]
        assert any(v > reads[0].get(k, 0) for k, v in after[0].items()) and all(a == after[0] for a in after)
        for _ in range(6):
            started = _ask(base, bob, {"question": "How does metformin treat diabetes?"}).json()
            assert started["status"] == "NEEDS_CLARIFICATION", started
            done = _ask(base, bob, {"thread_id": started["thread_id"], "resume": "MESH:D003922"})
            assert done.status_code == 200 and done.json()["status"] in ("ANSWERED", "NOT_FOUND"), done.text
    carol = issue_token(SECRET, f"carol-{uuid.uuid4().hex[:6]}", role="clinician", patients=[], ttl_s=3600)
    with serve_process(_workers_env(loaded, limit="10/minute"), tmp_path / "limited.log", "--workers", "4",
                       seconds=180) as (base, _proc):
        codes = []
        for _ in range(40):
            with httpx.Client(timeout=30) as c:
                codes.append(c.get(f"{base}/api/v1/memories", headers={"Authorization": f"Bearer {carol}"}).status_code)
    assert set(codes) <= {200, 429} and codes.count(200) == 10, codes


@pytest.mark.slow
def test_killing_a_worker_loses_no_acknowledged_write(loaded: dict[str, Any], tmp_path: Path) -> None:
    """Twelve users ask at once, four at a time, while one worker is killed with SIGKILL: every ask that was
    answered (its memory write acknowledged) is in the vault afterwards, read through the workers left."""
    users = [f"kill-{uuid.uuid4().hex[:6]}-{i}" for i in range(12)]
    tokens = {u: issue_token(SECRET, u, role="clinician", patients=[], ttl_s=3600) for u in users}
    with serve_process(_workers_env(loaded), tmp_path / "serve.log", "--workers", "4", seconds=180) as (base, proc):
        workers = psutil.Process(proc.pid).children(recursive=True)
        assert len(workers) >= 4

        def ask(u: str) -> tuple[str, int]:
            try:
                r = _ask(base, tokens[u], {"question": QUESTION})
                return u, r.status_code if r.status_code != 200 else (200 if r.json()["status"] == "ANSWERED" else 0)
            except httpx.HTTPError:
                return u, -1  # the connection died with its worker: not acknowledged

        with cf.ThreadPoolExecutor(4) as pool:
            futures = [pool.submit(ask, u) for u in users]
            time.sleep(1.5)  # asks are in flight on every worker
            os.kill(workers[-1].pid, signal.SIGKILL)
            results = dict(f.result() for f in futures)
        acknowledged = [u for u, code in results.items() if code == 200]
        assert acknowledged, results
        for u in acknowledged:
            assert _memories(base, tokens[u]), (u, results)  # read through whichever worker is left
    scaled = dataclasses.replace(Settings.from_env(), home=loaded["home"], database_url=loaded["url"])
    vault = factory.open_memory(scaled).vault
    assert all(vault.count(u) > 0 for u in acknowledged)


def test_a_postgresql_that_goes_away_is_a_clear_store_error(tmp_path: Path, settings: Settings) -> None:
    """A server that stops under a running process: the checkpointer, the vault and the graph answer with medpath's
    store errors (503 at the API) within the bounded wait, never a driver exception or a hang. A broken pooled
    connection after a restart is replaced: the pools work again once the server is back."""
    folder = Path(tempfile.mkdtemp(prefix="medpath-pg-gone-", dir="/tmp"))
    os.chmod(folder, 0o755)
    port = stack.free_port()
    try:
        url = stack.start_postgres(folder / "pg", port, fsync=False)
        scaled = dataclasses.replace(settings, home=tmp_path / "home", database_url=url,
                                     memory=dataclasses.replace(settings.memory, wait_s=2.0))
        saver = factory.open_checkpoints(scaled, checkpoint_serde())
        vault = factory.open_memory(scaled).vault
        fact = MemoryFact(owner="u1", subj="PAT_1", rel="current_medication", obj="metformin", t_start=1.0, quality=1)
        vault.add([fact], now=1.0)
        stack.stop_postgres(folder / "pg")
        config = {"configurable": {"thread_id": "t1"}}
        for call in (lambda: saver.get_tuple(config), lambda: vault.count("u1")):
            t0 = time.monotonic()
            with pytest.raises(StoreError) as caught:
                call()
            assert time.monotonic() - t0 < 15, caught.value
        stack.start_postgres(folder / "pg", port, fsync=False)
        deadline = time.monotonic() + 30  # the pools reconnect in the background, backing off while it was down
        while True:
            try:
                assert vault.count("u1") == 1 and saver.get_tuple(config) is None  # the pools recovered
                break
            except StoreError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
    finally:
        stack.stop_postgres(folder / "pg")
        shutil.rmtree(folder, ignore_errors=True)


def test_the_memory_commands_read_the_scale_out_memory(loaded: dict[str, Any], settings: Settings) -> None:
    """`medpath memory show` and `forget` go to the backend the settings name (they once opened the home's files
    whatever the backend), with entity names read from the database's graph."""
    scaled = dataclasses.replace(settings, home=loaded["home"], database_url=loaded["url"], redis_url=loaded["redis"])
    owner = f"cli-{uuid.uuid4().hex[:6]}"
    fact = MemoryFact(owner=owner, subj="MESH:D000068877", rel="decreases activity of", obj="UniProt:P00519",
                      t_start=time.time(), quality=1, evidence="imatinib inhibits ABL1")
    factory.open_memory(scaled).vault.add([fact])
    env = {"MEDPATH_HOME": str(loaded["home"]), "MEDPATH_DATABASE_URL": loaded["url"], "MEDPATH_REDIS_URL": loaded["redis"]}
    shown = CliRunner().invoke(cli, ["memory", "show", owner, "--json"], env=env)
    assert shown.exit_code == 0, shown.output
    row = json.loads(shown.output.splitlines()[0])
    assert row["obj"] == "UniProt:P00519" and row["subj_name"] == "imatinib" and row["obj_name"] != row["obj"]
    gone = CliRunner().invoke(cli, ["memory", "forget", owner, "--yes"], env=env)
    assert gone.exit_code == 0, gone.output
    assert factory.open_memory(scaled).vault.count(owner) == 0
