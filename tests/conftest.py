"""Shared fixtures: the real index (built once if missing), resources, and a graph runner."""

from __future__ import annotations

import contextlib
import gc
import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

from core.settings import Settings
from medpath.indexing import build_index
from tools.resources import index_ready, load_resources

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    """Run outputs of the tests (spans, audit records) go to a temporary folder, never to traces/; with
    pytest-xdist, one folder per worker, so a test that reads the spans sees only its own worker's."""
    import os
    import tempfile

    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        os.environ["MEDPATH_TRACES_DIR"] = tempfile.mkdtemp(prefix=f"medpath-test-traces-{worker}-")
    else:
        os.environ.setdefault("MEDPATH_TRACES_DIR", tempfile.mkdtemp(prefix="medpath-test-traces-"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests (servers, subprocesses: up to a minute and a half each) first, in their order, so that no
    worker of pytest-xdist starts one when the others have nothing left to run."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _unfreeze_after_in_process_commands() -> Iterator[None]:
    """An in-process `medpath ask` (CliRunner) freezes what it loaded (``core.gc_policy``), which a one-shot process
    wants; a test process runs hundreds of commands, so their objects go back to the collector after each test."""
    yield
    if gc.get_freeze_count():
        gc.unfreeze()

@pytest.fixture(scope="session")
def scale_out_stack() -> Iterator[tuple[str, str]]:
    """A real PostgreSQL 18 + pgvector and a real Redis for this test session, started from their wheels by
    ``medpath.stack`` (fsync off: a throwaway server); yields (postgres admin URL, redis URL without a db)."""
    import os
    import shutil
    import tempfile

    from medpath import stack

    folder = Path(tempfile.mkdtemp(prefix="medpath-stack-", dir="/tmp"))
    os.chmod(folder, 0o755)  # PostgreSQL runs as nobody when the tests run as root
    try:
        pg = stack.start_postgres(folder / "pg", stack.free_port(), fsync=False)
        redis_url = stack.start_redis(folder / "redis", stack.free_port())
        yield pg, redis_url.rsplit("/", 1)[0]
    finally:
        stack.stop_redis(folder / "redis")
        stack.stop_postgres(folder / "pg")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture()
def scale_out_urls(scale_out_stack: tuple[str, str], request: pytest.FixtureRequest) -> tuple[str, str]:
    """A fresh database and an emptied Redis database for one test: (database URL, redis URL)."""
    import uuid

    import psycopg
    import redis

    admin, redis_base = scale_out_stack
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as con:
        con.execute(f"CREATE DATABASE {name}")
    redis_url = f"{redis_base}/1"
    with contextlib.closing(redis.Redis.from_url(redis_url)) as r:
        r.flushdb()
    return admin.rsplit("/", 1)[0] + f"/{name}", redis_url


@pytest.fixture(scope="session")
def settings() -> Settings:
    """Settings of the real index (built here when `make index` has not run)."""
    s = Settings.from_env()
    if not index_ready(s.index_dir):
        build_index(s, show_progress=False)
    return s


@pytest.fixture(scope="session")
def resources(settings: Settings) -> Any:
    """Loaded stores and models."""
    return load_resources(settings)


@pytest.fixture(scope="session")
def pipeline_services(resources: Any, settings: Settings) -> dict[str, Any]:
    """The retrieval service the Retriever node consults and the IMM router's rules, opened once per session as
    ``Services`` opens them once per process. Opened per graph run, they took 0.2 s of each run under cProfile (0.11 s
    of it the token counter), and `tests/test_conversation.py` 107 s instead of 46 s."""
    from memory.router import DEFAULT_RULES, load_router
    from tools.retrieval import open_retriever

    return {"retrieval": open_retriever(settings, resources=resources, memory=False),
            "router_rules": load_router(str(settings.memory.router_rules or DEFAULT_RULES))}


@pytest.fixture(scope="session")
def qa_graph() -> Any:
    """The QA graph compiled once; each test's runner copies it with a checkpointer of its own."""
    from graphs.qa import build_graph

    return build_graph()


@pytest.fixture()
def memory_store(tmp_path) -> Any:
    """A fresh MIRIX-Slim memory in a temporary folder."""
    from memory.mirix import Memory

    return Memory(tmp_path / "memory")


@pytest.fixture()
def run_graph(resources: Any, settings: Settings, memory_store: Any, pipeline_services: dict[str, Any], qa_graph: Any):
    """Run a question through the compiled graph with an in-memory checkpointer and a temporary memory."""
    from langgraph.checkpoint.memory import InMemorySaver

    from agents.context import Context
    from medpath.session import checkpoint_serde

    graph = qa_graph.copy({"checkpointer": InMemorySaver(serde=checkpoint_serde())})  # a fresh saver: no threads shared

    def run(payload: Any, thread: str = "t", **ctx: Any) -> tuple[dict[str, Any], Any]:
        config = {"configurable": {"thread_id": thread}}
        ctx.setdefault("resources", resources)
        ctx.setdefault("memory_store", memory_store)
        if ctx["resources"] is resources:  # a test that brings its own resources opens its own services
            for name, service in pipeline_services.items():
                ctx.setdefault(name, service)
        context = Context(settings=ctx["resources"].settings, **ctx)
        if isinstance(payload, dict) and "question" in payload:  # as ``Session.ask`` sends it: no patient from before
            payload = {"patient_id": None, **payload}
        out = graph.invoke(payload, config, context=context)
        return out, graph.get_state(config)

    return run


class _FakeOpenAI(BaseHTTPRequestHandler):
    """A minimal OpenAI-compatible chat completions server."""

    calls: ClassVar[list[dict[str, Any]]] = []
    rewrite = "What does imatinib target?"
    """What the server answers to a follow-up rewrite prompt."""
    garbled = False
    """When True, every answer is HTTP 200 with a body that is not JSON."""

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).calls.append(body)
        prompt = body["messages"][-1]["content"]
        if "Edge vocabulary" in prompt:
            content = json.dumps([{"relation": "decreases activity of", "prob": 0.8}, {"relation": "causes", "prob": 0.6}])
        elif "Rewrite the user's last question" in prompt:
            content = type(self).rewrite
        elif "Answer the question" in prompt:
            content = "Imatinib blocks BCR/ABL, the kinase that drives CML."
        else:
            content = "yes"
        choice: dict[str, Any] = {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
        if body.get("logprobs"):
            top = [{"token": "yes", "logprob": -0.1, "bytes": None}, {"token": "no", "logprob": -2.5, "bytes": None}]
            choice["logprobs"] = {"content": [{"token": "yes", "logprob": -0.1, "bytes": None, "top_logprobs": top}]}
        resp = {"id": "x", "object": "chat.completion", "created": 0, "model": body.get("model", "m"), "choices": [choice],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        data = b"<html>upstream proxy says hi</html>" if type(self).garbled else json.dumps(resp).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture()
def fake_llm():
    """A local OpenAI-compatible server on 127.0.0.1; yields its base URL."""
    _FakeOpenAI.calls = []
    _FakeOpenAI.rewrite = "What does imatinib target?"
    _FakeOpenAI.garbled = False
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeOpenAI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", _FakeOpenAI.calls
    _FakeOpenAI.rewrite = "What does imatinib target?"
    _FakeOpenAI.garbled = False
    server.shutdown()
    server.server_close()


@pytest.fixture()
def garbled_llm(fake_llm):
    """The same server, answering HTTP 200 with a body that is not JSON; yields its base URL."""
    _FakeOpenAI.garbled = True
    yield fake_llm[0]


def free_tcp_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


@pytest.fixture()
def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on."""
    return free_tcp_port()


@contextlib.contextmanager
def serve_process(env: dict[str, str], log: Path, *args: str, port: int | None = None,
                  seconds: float = 120.0) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A real ``medpath serve`` process (``args`` are extra options); yields its base URL and the process once
    ``/healthz`` answers, and stops it afterwards (unless the test killed it)."""
    port = port or free_tcp_port()
    proc = subprocess.Popen([str(Path(sys.executable).parent / "medpath"), "serve", "--port", str(port), *args],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("a"))
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{base}/healthz", log, "medpath serve", seconds=seconds)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=20)
            proc.kill()
            proc.wait(timeout=20)


def wait_for_http(url: str, log: Any, what: str, seconds: float = 60.0) -> None:
    """Poll ``url`` until it answers 200; fail the test with the end of ``log`` (a path) when it never does."""
    import time

    import httpx

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.25)
    pytest.fail(f"{what} did not start: " + log.read_text()[-2000:])


def in_thread(run_graph: Any, thread: str, *questions: str) -> list[dict[str, Any]]:
    """Ask ``questions`` one after the other on one thread (not interactive, no memory): each run's final state."""
    return [run_graph({"question": q}, thread=thread, interactive=False, memory=False)[0] for q in questions]
