"""The HTTP API through the real app (every status code), the SDK in-process and against `medpath serve`, and MCP."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import serve_process

from core.errors import (
    APINotFoundError,
    AuthenticationError,
    InvalidRequestError,
    MemoryRetrievalError,
    PermissionDeniedError,
    RateLimitError,
)
from core.settings import child_env
from core.tracing import start_run
from medpath.api import create_app
from medpath.auth import issue_token
from medpath.ratelimit import RateLimiter, parse_limit
from medpath.sdk import AsyncMemoryClient, MemoryClient
from memory.patients import PatientStore, synthesize, write_patients
from tools.retrieval import open_retriever

SECRET = "test-secret-for-medpath-0123456789"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def patients_file(resources: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("api") / "patients.json"
    write_patients(synthesize(resources.kg, 30, seed=11), path, 11)
    return path


@pytest.fixture(scope="module")
def app_parts(settings: Any, resources: Any, patients_file: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from langgraph.checkpoint.memory import InMemorySaver

    from medpath.session import Session, checkpoint_serde
    from memory.mirix import Memory

    mem = Memory(tmp_path_factory.mktemp("apimem"))
    svc = open_retriever(settings, resources=resources, patients=PatientStore.load(patients_file), memory=mem)
    session = Session(settings, checkpointer=InMemorySaver(serde=checkpoint_serde()), resources=resources, memory_store=mem)
    return {"retriever": svc, "session": session, "memory": mem}


def _app(settings: Any, parts: dict[str, Any], limit: int = 10_000) -> Any:
    return create_app(settings, retriever=parts["retriever"], session=parts["session"],
                      limiter=RateLimiter(limit, 60.0), secret=SECRET)


def _tok(role: str = "clinician", patients: list[str] | None = None, **kw: Any) -> str:
    return issue_token(SECRET, kw.pop("sub", "dr-who"), role, patients if patients is not None else ["PAT_001"], **kw)


def _run(coro: Any) -> Any:
    return asyncio.run(coro)


async def _post(app: Any, path: str, token: str | None, **kw: Any) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    headers.update(kw.pop("headers", {}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
        return await c.request(kw.pop("method", "POST"), path, headers=headers, **kw)


def test_every_status_code(settings: Any, app_parts: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app(settings, app_parts)
    tok = _tok()
    ok = _run(_post(app, "/api/memory/retrieve", tok, json={"query": "What medications is PAT_001 on?", "patient_id": "PAT_001"}))
    assert ok.status_code == 200, ok.text
    body = ok.json()
    assert body["route"] == "graph" and body["context"]["text"].startswith("=== PATIENT GRAPH ===")
    # 400: unreadable JSON; 422: depth outside 1-4, unknown route, missing query
    bad = _run(_post(app, "/api/memory/retrieve", tok, content=b"{not json", headers={"Content-Type": "application/json"}))
    assert bad.status_code == 400
    for payload in ({"query": "x", "patient_id": "PAT_001", "depth": 5}, {"query": "x", "patient_id": "PAT_001", "depth": 0},
                    {"query": "x", "patient_id": "PAT_001", "force_route": "nowhere"}, {"patient_id": "PAT_001"}):
        assert _run(_post(app, "/api/memory/retrieve", tok, json=payload)).status_code == 422, payload
    # 401: no token, a bad signature, an expired token
    assert _run(_post(app, "/api/memory/retrieve", None, json={"query": "x"})).status_code == 401
    forged = issue_token("another-secret-0123456789abcdef-xyz", "dr-who", "admin", ["*"])
    assert _run(_post(app, "/api/memory/retrieve", forged, json={"query": "x"})).status_code == 401
    expired = _tok(now=time.time() - 7200, ttl_s=60)
    assert _run(_post(app, "/api/memory/retrieve", expired, json={"query": "x", "patient_id": "PAT_001"})).status_code == 401
    # 403: a non-admin without patient_id, or outside its scope; an admin needs neither
    assert _run(_post(app, "/api/memory/retrieve", tok, json={"query": "What does imatinib target?"})).status_code == 403
    assert _run(_post(app, "/api/memory/retrieve", tok, json={"query": "x", "patient_id": "PAT_002"})).status_code == 403
    admin = _tok("admin", [])
    assert _run(_post(app, "/api/memory/retrieve", admin, json={"query": "What does imatinib target?"})).status_code == 200
    # 404: an unknown patient
    assert _run(_post(app, "/api/memory/retrieve", admin, json={"query": "x", "patient_id": "PAT_999"})).status_code == 404
    # 503: switched off
    monkeypatch.setenv("HYBRID_RETRIEVAL_ENABLED", "false")
    off = _run(_post(app, "/api/memory/retrieve", admin, json={"query": "What does imatinib target?"}))
    assert off.status_code == 503 and "disabled" in off.json()["detail"]
    monkeypatch.delenv("HYBRID_RETRIEVAL_ENABLED")
    # 429: over the limit (3 per minute here), with Retry-After
    small = _app(settings, app_parts, limit=3)
    codes = [_run(_post(small, "/api/memory/retrieve", admin, json={"query": ""})).status_code for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]
    again = _run(_post(small, "/api/memory/retrieve", admin, json={"query": ""}))
    assert again.status_code == 429 and int(again.headers["Retry-After"]) >= 1


def test_openapi_and_healthz(settings: Any, app_parts: dict[str, Any]) -> None:
    app = _app(settings, app_parts)
    schema = _run(_post(app, "/openapi.json", None, method="GET")).json()
    assert {"/api/memory/retrieve", "/api/v1/memories/search", "/api/v1/ask", "/healthz"} <= set(schema["paths"])
    assert "RetrievalResult" in schema["components"]["schemas"]
    health = _run(_post(app, "/healthz", None, method="GET"))
    assert health.status_code == 200 and health.json()["status"] == "ok"


def test_async_sdk_in_process(settings: Any, app_parts: dict[str, Any]) -> None:
    app = _app(settings, app_parts)

    async def go() -> None:
        transport = httpx.ASGITransport(app=app)
        async with AsyncMemoryClient(base_url="http://test", token=_tok(patients=["PAT_001", "PAT_003"]), transport=transport) as c:
            r = await c.retrieve("What medications is PAT_003 on?", patient_id="PAT_003", depth=2)
            assert r.route == "graph" and r.patient_id == "PAT_003" and r.graph_edges_count > 0
            with pytest.raises(PermissionDeniedError):
                await c.retrieve("x", patient_id="PAT_004")
            with pytest.raises(InvalidRequestError):
                await c.retrieve("x", patient_id="PAT_001", depth=7)
            # memory search in the caller's own scope; another user's scope is refused
            found = await c.search("imatinib")
            assert found["scope"] == "user" and found["scope_id"] == "dr-who" and isinstance(found["results"], list)
            with pytest.raises(PermissionDeniedError):
                await c.search("imatinib", scope_id="someone-else")
        async with AsyncMemoryClient(base_url="http://test", token="nonsense", transport=transport) as c:
            with pytest.raises(AuthenticationError):
                await c.retrieve("x", patient_id="PAT_001")

    _run(go())


def test_memory_search_graph_filter_and_latest_version(settings: Any, app_parts: dict[str, Any], resources: Any) -> None:
    from memory.records import GateDecision, MemoryFact

    mem = app_parts["memory"]
    imatinib = "MESH:D000068877"
    target = next(e.tail for e in resources.kg.out_edges(imatinib))
    other = next(e.tail for e in resources.kg.out_edges(imatinib) if e.tail != target)
    accept = GateDecision("accept", 0.9, "test")
    now = time.time()
    mem.commit(accept, [MemoryFact("searcher", imatinib, "decreases activity of", target)], now=now - 100)
    mem.commit(accept, [MemoryFact("searcher", imatinib, "decreases activity of", other)], supersede=True, now=now - 50)
    mem.commit(accept, [MemoryFact("searcher", "MESH:D008687", "treats", "MESH:D003924")], now=now - 10)
    app = _app(settings, app_parts)

    async def go() -> dict[str, Any]:
        async with AsyncMemoryClient(base_url="http://test", token=_tok(sub="searcher"),
                                     transport=httpx.ASGITransport(app=app)) as c:
            return await c.search("what does imatinib inhibit")

    out = _run(go())
    objs = [h["obj"] for h in out["results"]]
    assert other in objs and target not in objs  # the superseded version is hidden
    assert out["superseded_hidden"] >= 1 and out["graph_filter"]["applied"]
    assert "MESH:D003924" not in objs  # outside the graph boundary of the query's entities
    scores = [h["score"] for h in out["results"]]
    assert scores == sorted(scores, reverse=True)


def test_ask_with_clarification_round_trip(settings: Any, app_parts: dict[str, Any]) -> None:
    app = _app(settings, app_parts)
    tok = _tok()
    first = _run(_post(app, "/api/v1/ask", tok, json={"question": "How does metformin treat diabetes?"}))
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["status"] == "NEEDS_CLARIFICATION" and body["clarification"]["candidates"]
    done = _run(_post(app, "/api/v1/ask", tok, json={"thread_id": body["thread_id"], "resume": "Diabetes mellitus type 1"}))
    assert done.status_code == 200 and done.json()["status"] == "ANSWERED" and done.json()["answer"]
    # another caller cannot resume this thread; a thread that does not exist is 404
    other = _tok(sub="mallory")
    assert _run(_post(app, "/api/v1/ask", other, json={"thread_id": body["thread_id"], "resume": "0"})).status_code == 404
    assert _run(_post(app, "/api/v1/ask", tok, json={})).status_code == 422
    assert _run(_post(app, "/api/v1/ask", tok, json={"question": "What medications is PAT_002 on?"})).status_code == 403


def test_ask_which_drug_returns_the_ranked_answers(settings: Any, app_parts: dict[str, Any]) -> None:
    app = _app(settings, app_parts)
    out = _run(_post(app, "/api/v1/ask", _tok(), json={"question": "What drug treats gout?"}))
    assert out.status_code == 200, out.text
    ranked = out.json()["ranked_answers"]
    assert ranked and [a["rank"] for a in ranked] == list(range(1, len(ranked) + 1))
    assert all(a["path"]["triples"] and a["citations"] for a in ranked)
    assert out.json()["drug_class"] == ""
    statins = _run(_post(app, "/api/v1/ask", _tok(), json={"question": "Which statins lower cholesterol?"})).json()
    assert statins["drug_class"] == "statins" and statins["ranked_answers"]
    assert all(a["name"].lower().endswith("vastatin") for a in statins["ranked_answers"])
    both = _run(_post(app, "/api/v1/ask", _tok(), json={"question": "What drugs treat gout and hyperuricemia?"})).json()
    assert both["status"] == "ANSWERED" and both["also_asked"] == ["What drug treats hyperuricemia?"]


def test_ask_follow_ups_on_a_thread(settings: Any, app_parts: dict[str, Any]) -> None:
    with start_run("api-thread", settings.traces_dir, keep=False):  # spans to a file, as `medpath serve` writes them
        app = _app(settings, app_parts)
        tok = _tok(sub="conv")
        first = _run(_post(app, "/api/v1/ask", tok, json={"question": "How does prednisone treat lupus nephritis?"})).json()
        assert first["status"] == "NOT_FOUND" and first["suggestions"]
        thread = first["thread_id"]
        good = _run(_post(app, "/api/v1/ask", tok, json={"thread_id": thread, "question": "How does imatinib treat CML (ph+)?"})).json()
        assert good["status"] == "ANSWERED" and good["evidence"]  # the failed first turn left nothing behind
        follow = _run(_post(app, "/api/v1/ask", tok, json={"thread_id": thread, "question": "and what does it target?"})).json()
        assert follow["status"] == "ANSWERED" and "imatinib" in follow["understood_as"]
        hist = _run(_post(app, f"/api/v1/threads/{thread}", tok, method="GET"))
        assert hist.status_code == 200
        msgs = hist.json()["messages"]
        assert [m["role"] for m in msgs] == ["user", "assistant"] * 3 and hist.json()["pending"] is None
        assert _run(_post(app, f"/api/v1/threads/{thread}", _tok(sub="someone-else"), method="GET")).status_code == 404
        # one conversation is deleted by its owner alone (it could be read and listed, not deleted, but by forgetting all)
        assert _run(_post(app, f"/api/v1/threads/{thread}", _tok(sub="someone-else"), method="DELETE")).status_code == 404
        assert _thread_traces(settings, thread)  # the test can fail: its questions left traces
        gone = _run(_post(app, f"/api/v1/threads/{thread}", tok, method="DELETE"))
        assert gone.status_code == 200 and gone.json() == {"deleted": True, "thread_id": thread}
        assert not _thread_traces(settings, thread)  # and deleting the conversation dropped them
        assert _run(_post(app, f"/api/v1/threads/{thread}", tok, method="GET")).status_code == 404
        assert _run(_post(app, f"/api/v1/threads/{thread}", tok, method="DELETE")).status_code == 404


def _thread_traces(settings: Any, thread: str) -> set[str]:
    """The traces, in every span file, whose question was asked on the API thread ``thread`` (any caller's)."""
    folder = settings.traces_dir / "otel"
    spans = [json.loads(line) for f in folder.glob("*.jsonl") for line in f.read_text().splitlines() if line.strip()]
    return {s["trace_id"] for s in spans if str(s["attributes"].get("medpath.thread_id", "")).endswith(f":{thread}")}


def test_docs_render_offline(settings: Any, app_parts: dict[str, Any]) -> None:
    """/docs and /redoc load their scripts and styles from the app itself, never from a CDN."""
    import re

    app = _app(settings, app_parts)
    for page in ("/docs", "/redoc"):
        html = _run(_post(app, page, None, method="GET"))
        assert html.status_code == 200
        assets = re.findall(r"""(?:src|href)=["']([^"']+\.(?:js|css|png))["']""", html.text) + \
            re.findall(r"""url: ["']([^"']+)["']""", html.text)
        assert assets, html.text[:300]
        assert not [a for a in assets if a.startswith(("http://", "https://", "//"))], assets
        for a in assets:
            got = _run(_post(app, a, None, method="GET"))
            assert got.status_code == 200 and len(got.content) > 100, a


def test_rate_limit_parsing() -> None:
    assert parse_limit("100/minute") == (100, 60.0) and parse_limit("5/second") == (5, 1.0) and parse_limit("20") == (20, 60.0)
    from core.errors import ConfigError

    with pytest.raises(ConfigError):
        parse_limit("lots")
    lim = RateLimiter(2, 1.0)
    assert lim.hit("a") is None and lim.hit("a") is None and lim.hit("b") is None
    wait = lim.hit("a")
    assert wait is not None and 0.0 <= wait <= 1.0  # the third in the window waits, at most the window
    time.sleep(1.1)
    assert lim.hit("a") is None


@pytest.mark.slow
def test_sync_sdk_against_real_serve(settings: Any, patients_file: Path, free_port: int, tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "patients").mkdir(parents=True)
    (home / "index").symlink_to(settings.index_dir)
    (home / "patients" / "patients.json").write_bytes(patients_file.read_bytes())
    env = child_env(MEDPATH_HOME=str(home), MEDPATH_JWT_SECRET=SECRET, MEDPATH_RATE_LIMIT="1000/minute")
    with serve_process(env, tmp_path / "serve.log", port=free_port) as (base, _proc):
        with MemoryClient(base_url=base, token=_tok("admin", [])) as c:
            assert c.health()["hybrid_retrieval_enabled"] is True
            r = c.retrieve("How many patients with gout take probenecid?", force_route="aggregation")
            assert r.route == "aggregation" and r.force_route_used and "Cohort:" in r.context.text
            with pytest.raises(APINotFoundError):
                c.retrieve("x", patient_id="PAT_999")
        with MemoryClient(base_url=base, token=_tok()) as c, pytest.raises(PermissionDeniedError):
            c.retrieve("What does imatinib target?")
        with MemoryClient(base_url="http://127.0.0.1:9", token="x", timeout=1) as c, pytest.raises(MemoryRetrievalError):
            c.retrieve("x")
    with pytest.raises(RateLimitError):
        from medpath.sdk import _raise_for

        _raise_for(httpx.Response(429, json={"detail": "slow down"}, headers={"Retry-After": "3"},
                                  request=httpx.Request("POST", "http://x/api/memory/retrieve")))


@pytest.mark.slow
def test_mcp_server_speaks_mcp(settings: Any, patients_file: Path, tmp_path: Path) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider

    from core.tracing import load_spans

    home = tmp_path / "home"
    (home / "patients").mkdir(parents=True)
    (home / "index").symlink_to(settings.index_dir)
    (home / "patients" / "patients.json").write_bytes(patients_file.read_bytes())
    traces = tmp_path / "traces"
    env = child_env(MEDPATH_HOME=str(home), MEDPATH_TRACES_DIR=str(traces))
    exe = Path(sys.executable).parent / "medpath"
    caller = TracerProvider().get_tracer("test-caller")

    async def go() -> tuple[Any, ...]:
        async with Client(StdioServerParameters(command=str(exe), args=["mcp"], env=env, cwd=str(ROOT))) as c:
            names = [t.name for t in (await c.list_tools()).tools]
            with trace.use_span(caller.start_span("caller"), end_on_exit=True) as sp:
                from opentelemetry.propagate import inject

                meta: dict[str, str] = {}
                inject(meta)
                q = await c.call_tool("memory.query", {"query": "What medications is PAT_001 on?", "patient_id": "PAT_001",
                                                       "mode": "knowledge_lookup"}, meta=meta)
                trace_id = f"{sp.get_span_context().trace_id:032x}"
            a = await c.call_tool("medpath.ask", {"question": "How does imatinib treat CML (ph+)?", "thread_id": "m1"})
            bad = await c.call_tool("memory.query", {"query": "x", "depth": 9})
            follow = await c.call_tool("medpath.ask", {"question": "and what does it target?", "thread_id": "m1"})
            clar = await c.call_tool("medpath.ask", {"question": "How does metformin treat diabetes?", "thread_id": "m2"})
            return names, q, a, bad, trace_id, follow, clar

    names, q, a, bad, trace_id, follow, clar = asyncio.run(go())
    assert "imatinib" in follow.structured_content["understood_as"]
    assert clar.structured_content["status"] == "NEEDS_CLARIFICATION"
    # the clarification asked through MCP is answered from another process (the CLI) on the same home
    cli_resume = subprocess.run([str(exe), "ask", "--json", "--thread", "m2", "--resume", "MESH:D003922"], env=env,
                                capture_output=True, text=True, timeout=120, check=False)
    assert cli_resume.returncode in (0, 3), cli_resume.stderr
    import json

    assert json.loads(cli_resume.stdout)["targets"] == ["MESH:D003922"]
    assert {"memory.query", "medpath.ask"} <= set(names)
    assert not q.is_error and q.structured_content["route"] == "graph" and q.structured_content["mode"] == "knowledge_lookup"
    assert "PAT_001" in q.structured_content["context"]["text"]
    assert not a.is_error and a.structured_content["status"] == "ANSWERED"
    assert bad.is_error and "depth" in bad.content[0].text
    run = next((traces / "otel").glob("mcp-*.jsonl")).stem
    spans = load_spans(traces, run)
    tool = next(s for s in spans if s["name"] == "mcp.tool.memory.query")
    assert tool["trace_id"] == trace_id  # the tool joined the caller's trace


def test_local_secret_and_token_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from medpath.auth import load_secret, verify_token
    from medpath.cli import cli

    monkeypatch.delenv("MEDPATH_JWT_SECRET", raising=False)
    monkeypatch.setenv("MEDPATH_HOME", str(tmp_path))
    secret = load_secret(tmp_path)
    assert len(secret) >= 32 and (tmp_path / "jwt_secret").stat().st_mode & 0o777 == 0o600
    assert load_secret(tmp_path) == secret
    res = CliRunner().invoke(cli, ["token", "issue", "--sub", "nurse", "--role", "clinician", "--patients", "PAT_001,PAT_002"])
    assert res.exit_code == 0, res.output
    who = verify_token(secret, res.output.strip())
    assert who.sub == "nurse" and who.patients == ("PAT_001", "PAT_002") and who.may_see("PAT_002") and not who.may_see("PAT_003")
    bad = CliRunner().invoke(cli, ["token", "issue", "--sub", "x", "--role", "wizard"])
    assert bad.exit_code != 0
    monkeypatch.setenv("MEDPATH_JWT_SECRET", "short")
    from core.errors import ConfigError

    with pytest.raises(ConfigError):
        load_secret(tmp_path)


def test_cli_patients_retrieval_and_eval_classifier(settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from click.testing import CliRunner

    from medpath.cli import cli

    home = tmp_path / "home"
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    monkeypatch.setenv("MEDPATH_HOME", str(home))
    monkeypatch.setenv("MEDPATH_MEMORY", "off")
    run = CliRunner()
    res = run.invoke(cli, ["patients", "synth", "-n", "12", "--seed", "3"])
    assert res.exit_code == 0 and "wrote 12 patients" in res.output, res.output
    assert "left as is" in run.invoke(cli, ["patients", "synth", "--if-missing"]).output
    shown = run.invoke(cli, ["patients", "show", "PAT_002"])
    assert shown.exit_code == 0 and "consent:" in shown.output and "pii" not in shown.output
    out = run.invoke(cli, ["retrieval", "query", "What medications is PAT_002 on?", "--patient", "PAT_002", "--json"])
    assert out.exit_code == 0, out.output
    body = json.loads(out.output)
    assert body["route"] == "graph" and body["patient_id"] == "PAT_002"
    bad = run.invoke(cli, ["retrieval", "query", "x", "--patient", "PAT_099"])
    assert bad.exit_code != 0 and "NotFoundError" in bad.output
    ev = run.invoke(cli, ["eval", "classifier", "--json"])
    assert ev.exit_code == 0, ev.output
    metrics = json.loads(ev.output)
    assert metrics["queries"] == 80 and metrics["accuracy"] >= 0.9 and set(metrics["per_route"]) == {"GRAPH", "AGGREGATION", "TEXT", "HYBRID"}


def test_retrieve_joins_the_callers_trace(settings: Any, app_parts: dict[str, Any], tmp_path: Path) -> None:
    from core.tracing import load_spans, start_run

    app = _app(settings, app_parts)
    trace_id = "4bf92f3577b34da6a3ce929d0e0e4736"
    with start_run("api-join", tmp_path):
        r = _run(_post(app, "/api/memory/retrieve", _tok("admin", []), json={"query": "What does imatinib target?"},
                       headers={"traceparent": f"00-{trace_id}-00f067aa0ba902b7-01"}))
    assert r.status_code == 200
    spans = load_spans(tmp_path, "api-join")
    service = next(s for s in spans if s["name"] == "tools.retrieval.hybrid")
    assert service["trace_id"] == trace_id


def test_a_reference_that_fits_two_drugs_is_asked_over_http(settings: Any, app_parts: dict[str, Any]) -> None:
    """The follow-up clarification ("it" after two compared drugs) reaches an HTTP caller as any clarification does,
    with its options, and the answer is resumed by id."""
    app, tok = _app(settings, app_parts), _tok()
    first = _run(_post(app, "/api/v1/ask", tok, json={"question": "compare imatinib and dasatinib"})).json()
    asked = _run(_post(app, "/api/v1/ask", tok, json={"thread_id": first["thread_id"], "question": "what does it target?"}))
    body = asked.json()
    assert asked.status_code == 200 and body["status"] == "NEEDS_CLARIFICATION", asked.text
    options = body["clarification"]["candidates"]
    assert len(options) == 2 and body["clarification"]["mention"] == "it"
    done = _run(_post(app, "/api/v1/ask", tok, json={"thread_id": first["thread_id"], "resume": options[1]["id"]})).json()
    assert done["status"] == "ANSWERED" and done["understood_as"] == f"What does {options[1]['name']} target?", done


def test_sdk_runs_a_conversation_and_reads_it_back(settings: Any, app_parts: dict[str, Any]) -> None:
    """The SDK could ask and resume but not list or read a conversation (``GET /api/v1/threads`` and
    ``/api/v1/threads/{id}``, which the web page uses); a follow-up clarification goes through it as through HTTP."""
    app = _app(settings, app_parts)

    async def go() -> None:
        async with AsyncMemoryClient(base_url="http://test", token=_tok(sub="sdk-user"),
                                     transport=httpx.ASGITransport(app=app)) as c:
            first = await c.ask("compare imatinib and dasatinib")
            asked = await c.ask("what does it target?", thread_id=first["thread_id"])
            assert asked["status"] == "NEEDS_CLARIFICATION" and asked["clarification"]["mention"] == "it"
            done = await c.ask(thread_id=first["thread_id"], resume=2)
            assert done["status"] == "ANSWERED" and done["understood_as"].startswith("What does Dasatinib target")
            listed = await c.threads()
            assert [t["thread_id"] for t in listed] == [first["thread_id"]] and listed[0]["turns"] == 2
            thread = await c.thread(first["thread_id"])
            assert [m["role"] for m in thread["messages"]] == ["user", "assistant"] * 2 and thread["pending"] is None
            with pytest.raises(APINotFoundError):
                await c.thread("no-such-thread")
            await c.delete_thread(first["thread_id"])
            assert await c.threads() == []
            with pytest.raises(APINotFoundError):
                await c.delete_thread(first["thread_id"])

    _run(go())
