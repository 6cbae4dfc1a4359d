"""Reliability and forgetting against real processes: a `medpath serve` process, `medpath memory ingest`, the MCP
server and the CLI, each on one fresh home.

- A canary (a made-up word, an e-mail address and a user id) goes in through every entry point (ask, ingest, memory
  search, MCP); after `medpath memory forget`, no file under the home or the traces folder holds a byte of it.
- kill -9 of the server and of a running ingest loses no batch the ingest acknowledged, and the server restarts.
- Concurrent asks run at the same time (no global lock), and a write that waits on a held memory file gets 503 with
  Retry-After within the bounded wait while /healthz keeps answering.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import serve_process

from core.settings import child_env
from medpath.auth import issue_token
from medpath.ingest import read_jsonl, review_events
from memory.mirix import Memory
from memory.synth import StreamSpec, synth_stream, write_stream

ROOT = Path(__file__).resolve().parent.parent
EXE = Path(sys.executable).parent / "medpath"
SECRET = "test-secret-for-reliability-0123456789"
WORD, MAIL, USER = "Quorblaxian", "zq.canary.7731@example.org", "canary-user-5521"


def _home(tmp_path: Path, settings: Any) -> tuple[Path, Path, dict[str, str]]:
    home, traces = tmp_path / "home", tmp_path / "traces"
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    env = child_env(MEDPATH_HOME=str(home), MEDPATH_TRACES_DIR=str(traces), MEDPATH_JWT_SECRET=SECRET,
                    MEDPATH_RATE_LIMIT="100000/minute", MEDPATH_CAPTURE_CONTENT="1")
    return home, traces, env


def _auth(sub: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, sub, 'clinician', ['PAT_001'])}"}


def _files_holding(roots: list[Path], needles: list[bytes]) -> dict[str, list[str]]:
    """Every regular file under ``roots`` (links not followed: the shared index is not ours) holding a needle."""
    found: dict[str, list[str]] = {}
    for root in roots:
        for dirpath, _dirs, files in os.walk(root):
            for name in files:
                path = Path(dirpath) / name
                if path.is_symlink() or not path.is_file():
                    continue
                data = path.read_bytes()
                for n in needles:
                    if n in data:
                        found.setdefault(n.decode(), []).append(str(path.relative_to(root.parent)))
    return found


def _mcp(env: dict[str, str]) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    async def go() -> None:
        async with Client(StdioServerParameters(command=str(EXE), args=["mcp"], env=env, cwd=str(ROOT))) as c:
            a = await c.call_tool("medpath.ask", {"question": f"How does imatinib treat CML? {WORD} {MAIL}"})
            assert not a.is_error
            q = await c.call_tool("memory.query", {"query": f"What does imatinib target? {WORD}"})
            assert not q.is_error

    asyncio.run(go())


def _canary_events(settings: Any, folder: Path) -> Path:
    events, probes = synth_stream(StreamSpec(users=2, patients=3, days=2, kg_facts_per_user=6), settings.data_dir)
    for e in events:
        e["owner"] = USER
        e["evidence"] = f"{e['evidence']} (told by {WORD}, {MAIL})"
    write_stream(events, probes, folder)
    return folder / "events.jsonl"


@pytest.mark.slow
def test_a_canary_through_every_entry_point_is_gone_after_forget(settings: Any, tmp_path: Path, free_port: int) -> None:
    home, traces, env = _home(tmp_path, settings)
    log = tmp_path / "serve.log"
    events = _canary_events(settings, tmp_path / "stream")
    with serve_process(env, log, port=free_port) as (base, _proc):
        with httpx.Client(base_url=base, timeout=120, headers=_auth(USER)) as c:
            first = c.post("/api/v1/ask", json={"question": f"How does imatinib treat CML? I am {WORD}, write to {MAIL}"})
            assert first.status_code == 200, first.text
            follow = c.post("/api/v1/ask", json={"question": f"and what does it target, {WORD}?",
                                                 "thread_id": first.json()["thread_id"]})
            assert follow.status_code == 200, follow.text
            ingest = subprocess.run([str(EXE), "memory", "ingest", "--quiet", str(events)], cwd=ROOT, env=env,
                                    capture_output=True, text=True, timeout=300, check=False)
            assert ingest.returncode == 0, ingest.stderr
            found = c.get("/api/v1/memories/search", params={"q": f"{WORD} imatinib"})
            assert found.status_code == 200, found.text
        _mcp(env)
        before = _files_holding([home, traces], [WORD.encode(), MAIL.encode(), USER.encode()])
        # the test can fail: the canary is there before the forget (and the e-mail never reaches a checkpoint)
        assert any("checkpoints.sqlite" in p for p in before[WORD]), before
        assert any("vault.duckdb" in p for p in before[WORD]) and USER in before, before
        assert any("otel" in p for p in before[WORD]), before  # content capture is on: the spans hold questions
        assert not any("checkpoints" in p for p in before.get(MAIL, [])), before
        for who in (USER, "mcp"):
            out = subprocess.run([str(EXE), "memory", "forget", who, "--yes"], cwd=ROOT, env=env, capture_output=True,
                                 text=True, timeout=120, check=False)
            assert out.returncode == 0, out.stderr
        with httpx.Client(base_url=base, timeout=60) as c:  # the server still answers, and its memory is gone too
            assert c.get("/healthz").status_code == 200
            left = c.get("/api/v1/memories/search", params={"q": "imatinib"}, headers=_auth(USER)).json()
            assert left["results"] == []
    after = _files_holding([home, traces], [WORD.encode(), MAIL.encode(), USER.encode()])
    assert after == {}, after


@pytest.mark.slow
def test_kill_9_during_ingest_loses_no_acknowledged_batch(settings: Any, resources: Any, tmp_path: Path,
                                                          free_port: int) -> None:
    home, _traces, env = _home(tmp_path, settings)
    log = tmp_path / "serve.log"
    events, probes = synth_stream(StreamSpec(), settings.data_dir)
    write_stream(events, probes, tmp_path / "stream")
    path = tmp_path / "stream" / "events.jsonl"
    acked: list[int] = []
    health: list[int] = []
    with serve_process(env, log, port=free_port) as (base, server):
        ingest = subprocess.Popen([str(EXE), "memory", "ingest", "--quiet", "--acks", "--batch", "250", str(path)],
                                  cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

        def read_acks() -> None:
            for line in ingest.stderr or []:
                if line.startswith("committed "):
                    acked.append(int(line.split()[1]))

        reader = threading.Thread(target=read_acks, daemon=True)
        reader.start()
        end = time.monotonic() + 240
        with httpx.Client(base_url=base, timeout=30) as c:
            while len(acked) < 3 and time.monotonic() < end and ingest.poll() is None:
                health.append(c.get("/healthz").status_code)
                time.sleep(0.05)
        assert len(acked) >= 3, f"the ingest acknowledged {acked} (rc {ingest.poll()})"
        os.kill(ingest.pid, signal.SIGKILL)
        os.kill(server.pid, signal.SIGKILL)
        ingest.wait(timeout=30)
        server.wait(timeout=30)
        reader.join(timeout=10)
    assert health and set(health) == {200}
    n = max(acked)
    assert n < len(events), "the ingest finished before it was killed; nothing was tested"
    with serve_process(env, log, port=free_port) as (base, _proc):  # the server restarts on the files the kill left
        r = httpx.post(f"{base}/api/v1/ask", json={"question": "How does imatinib treat CML?"}, timeout=120,
                       headers=_auth("after-restart"))
        assert r.status_code == 200, r.text
    rows = read_jsonl(path, ("ts", "owner", "subj", "rel", "obj", "evidence"))
    decisions = review_events(rows, resources.gate(), settings.llm, resources.kg)
    order = sorted(range(len(rows)), key=lambda i: rows[i]["_ts"])[:n]
    want = {(rows[i]["owner"], rows[i]["subj"], rows[i]["rel"], rows[i]["obj"]) for i in order if decisions[i].accepted}
    mem = Memory(home / "memory")
    have = {(f.owner, f.subj, f.rel, f.obj) for owner, _n in mem.vault.owners()
            for f in mem.vault.history(owner, limit=1_000_000)}
    assert want and not (want - have), f"{len(want - have)} of {len(want)} acknowledged facts lost"


def test_asks_run_concurrently_and_a_held_store_gives_503_with_retry_after(settings: Any, resources: Any,
                                                                          tmp_path: Path) -> None:
    from dataclasses import replace
    from types import SimpleNamespace

    from medpath.api import create_app
    from medpath.ratelimit import RateLimiter
    from medpath.services import Services

    home = tmp_path / "home"
    home.mkdir()
    svc = Services(replace(settings, home=home, traces_dir=tmp_path / "traces",
                           memory=replace(settings.memory, wait_s=0.5)))
    svc._built["resources"] = resources
    inside = threading.Barrier(2, timeout=20)

    class Gate:  # a session whose asks wait until two are inside at once: a global lock would time the barrier out
        graph = SimpleNamespace(checkpointer=None)

        def ask(self, question: str, **_kw: Any) -> dict[str, Any]:
            inside.wait()
            return {"status": "ANSWERED", "answer": question}

    app = create_app(services=svc, session=Gate(), limiter=RateLimiter(10_000, 60.0), secret=SECRET)

    async def two_asks() -> list[int]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t", timeout=60) as c:
            rs = await asyncio.gather(*(c.post("/api/v1/ask", json={"question": f"q{i}"}, headers=_auth("u"))
                                        for i in range(2)))
        return [r.status_code for r in rs]

    assert asyncio.run(two_asks()) == [200, 200]
    # another handle holds the vault file (as an ingest would): the forget waits its bounded time, then 503
    assert svc.memory is not None
    holder = Memory(home / "memory")
    with holder.vault.session():

        async def forget_and_health() -> tuple[httpx.Response, httpx.Response, float]:
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t", timeout=60) as c:
                t0 = time.perf_counter()
                r = await c.delete("/api/v1/memories", headers=_auth("u"))
                return r, await c.get("/healthz"), time.perf_counter() - t0

        r, health, took = asyncio.run(forget_and_health())
    assert r.status_code == 503 and int(r.headers["Retry-After"]) >= 1 and "busy" in r.json()["detail"], r.text
    assert health.status_code == 200 and took < 10
