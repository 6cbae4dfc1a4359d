"""Bad input gets a clear error, never a traceback or a 500 (reliability and security findings, reproduced first)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest

from agents.state import Status
from core.errors import ConfigError, LLMError
from core.settings import LLMSettings
from medpath.api import create_app
from medpath.auth import ALGORITHM, ISSUER, TokenError, issue_token, verify_token
from medpath.ratelimit import RateLimiter
from memory.router import Router
from tools.llm import LLMClient
from tools.retrieval import open_retriever

SECRET = "bad-input-test-secret-0123456789abcdef"


def _claims(**kw: Any) -> dict[str, Any]:
    now = int(time.time())
    return {"sub": "dr-who", "role": "admin", "patients": ["*"], "iss": ISSUER, "iat": now, "exp": now + 600, **kw}


def test_a_non_json_llm_answer_is_an_llm_error(garbled_llm: str) -> None:
    """An LLM (or a proxy before it) answering 200 with HTML raised JSONDecodeError, a 500 through the API."""
    url = garbled_llm
    client = LLMClient(LLMSettings(base_url=url, api_key="k", model="local", max_retries=0))
    with pytest.raises(LLMError, match="not JSON"):
        client.complete("Say hi")


def test_the_pipeline_falls_back_when_the_llm_answer_is_garbled(garbled_llm: str, run_graph: Any, resources: Any) -> None:
    url = garbled_llm
    llm = LLMSettings(base_url=url, api_key="k", model="local", timeout_s=2.0, max_retries=0)
    res = replace(resources, settings=replace(resources.settings, llm=llm))
    out, _ = run_graph({"question": "How does imatinib treat CML (ph+)?"}, resources=res)
    assert str(out["status"]) == "ANSWERED"
    assert any("not JSON" in f["reason"] for f in out["fallbacks"])


def test_router_rules_that_are_not_utf8_are_a_config_error(tmp_path: Path) -> None:
    """A rules file with invalid UTF-8 gave a UnicodeDecodeError traceback."""
    bad = tmp_path / "rules.yaml"
    bad.write_bytes(b"version: 1\nrules:\n  - id: caf\xe9\n")
    with pytest.raises(ConfigError, match="UTF-8"):
        Router.load(bad)


@pytest.mark.parametrize("claims", [
    _claims(exp=10**20),                                   # a lifetime of billions of years was accepted
    _claims(iat=int(time.time()) - 10, exp=int(time.time()) + 3 * 86400),  # 3 days: over the 24 h default
    _claims(sub=""),                                       # an empty subject was accepted
    _claims(sub="   "),
])
def test_implausible_tokens_are_refused(claims: dict[str, Any]) -> None:
    token = jwt.encode(claims, SECRET, algorithm=ALGORITHM)
    with pytest.raises(TokenError):
        verify_token(SECRET, token)


def test_a_normal_token_still_verifies_and_long_ones_are_not_issued() -> None:
    assert verify_token(SECRET, issue_token(SECRET, "dr-who", "clinician", ["PAT_001"])).sub == "dr-who"
    with pytest.raises(ConfigError):
        issue_token(SECRET, "dr-who", "clinician", ["PAT_001"], ttl_s=7 * 86400)


def _app(settings: Any, **kw: Any) -> Any:
    return create_app(settings, limiter=RateLimiter(10_000, 60.0), secret=SECRET, **kw)


async def _request(app: Any, method: str, path: str, token: str | None = None, **kw: Any) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    headers.update(kw.pop("headers", {}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
        return await c.request(method, path, headers=headers, **kw)


def test_request_schemas_are_strict(settings: Any) -> None:
    """`depth: true` was read as 1, and a blank question came back 200 with status ERROR."""
    app = _app(settings)
    admin = issue_token(SECRET, "root", "admin", ["*"])
    r = asyncio.run(_request(app, "POST", "/api/memory/retrieve", admin, json={"query": "imatinib", "depth": True}))
    assert r.status_code == 422
    r = asyncio.run(_request(app, "POST", "/api/v1/ask", admin, json={"question": "   "}))
    assert r.status_code == 422


def test_error_details_name_no_server_paths(settings: Any, resources: Any, tmp_path: Path) -> None:
    """A store that is down is a 503 naming the store; its detail held the server's absolute file path."""
    home = tmp_path / "secret-server-folder"
    (home / "patients").mkdir(parents=True)
    (home / "patients" / "patients.json").write_text("{ broken")
    (home / "index").symlink_to(settings.index_dir)
    local = replace(settings, home=home)
    app = _app(local, retriever=open_retriever(local, resources=resources, memory=False))
    admin = issue_token(SECRET, "root", "admin", ["*"])
    r = asyncio.run(_request(app, "POST", "/api/memory/retrieve", admin,
                             json={"query": "What is PAT_001 taking?", "patient_id": "PAT_001"}))
    assert r.status_code == 503 and "patients" in r.json()["detail"]
    assert "secret-server-folder" not in r.text and str(tmp_path) not in r.text and "patients.json" in r.text


def test_an_oversized_body_is_refused_before_auth_and_parsing(settings: Any) -> None:
    """A 200 MB body was read (+450 MB RSS) before the token was checked; now anything over 1 MB is a 413."""
    app = _app(settings)
    big = b'{"query": "' + b"x" * (2 * 1024 * 1024) + b'"}'
    r = asyncio.run(_request(app, "POST", "/api/memory/retrieve", None, content=big,
                             headers={"Content-Type": "application/json"}))
    assert r.status_code == 413
    small = asyncio.run(_request(app, "POST", "/api/memory/retrieve", None, json={"query": "x"}))
    assert small.status_code == 401  # under the cap, the token is checked as before


def test_audit_pseudonyms_are_keyed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit log and the vault's log named users by an unsalted sha1, which anyone can recompute from a guess."""
    import hashlib
    import hmac

    from core.pseudonyms import Pseudonyms, load_key
    from memory.records import MemoryFact
    from memory.vault import Vault

    key = "k" * 40
    monkeypatch.setenv("MEDPATH_AUDIT_KEY", key)
    names = Pseudonyms(load_key(tmp_path))
    assert names("alice") == hmac.new(key.encode(), b"alice", hashlib.sha256).hexdigest()[:16]
    assert names("alice") != hashlib.sha1(b"alice").hexdigest()[:12] and names("alice") != names("bob")
    monkeypatch.setenv("MEDPATH_AUDIT_KEY", "q" * 40)
    assert Pseudonyms(load_key(tmp_path))("alice") != names("alice")  # another key, another pseudonym
    monkeypatch.delenv("MEDPATH_AUDIT_KEY")
    filed = Pseudonyms(load_key(tmp_path / "home"))
    assert (tmp_path / "home" / "audit_key").stat().st_mode & 0o777 == 0o600
    assert filed("alice") == Pseudonyms(load_key(tmp_path / "home"))("alice")  # the key file is made once
    vault = Vault(tmp_path / "v.duckdb", pseudonym=names)
    vault.add([MemoryFact(owner="alice", subj="s", rel="r", obj="o")], now=1.0)
    with vault.session() as con:
        logged = {r[0] for r in con.execute("SELECT owner_hash FROM vault_log").fetchall()}
    assert logged == {names("alice")}


def test_retrieval_audit_records_carry_the_keyed_pseudonym(settings: Any, resources: Any, tmp_path: Path) -> None:
    import json

    from core.pseudonyms import Pseudonyms

    local = replace(settings, traces_dir=tmp_path)
    svc = open_retriever(local, resources=resources, memory=False, pseudonym=Pseudonyms(b"z" * 40))
    svc.retrieve("How does imatinib treat CML?", actor_id="alice")
    rows = [json.loads(x) for x in (tmp_path / "audit" / "audit.jsonl").read_text().splitlines()]
    assert rows and rows[-1]["actor_hash"] == Pseudonyms(b"z" * 40)("alice")
    assert "alice" not in (tmp_path / "audit" / "audit.jsonl").read_text()


def test_eval_memory_writes_under_medpath_traces_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`eval memory` (and `eval kg`, `eval scale`) wrote to the checkout's traces/ whatever MEDPATH_TRACES_DIR said."""
    from click.testing import CliRunner

    from core.settings import Settings
    from medpath.cli import cli
    from memory.synth import StreamSpec, synth_stream, write_stream

    events, probes = synth_stream(StreamSpec(users=2, patients=3, days=2), Settings.from_env().data_dir)
    ev, pr = write_stream(events, probes, tmp_path / "stream")
    monkeypatch.setenv("MEDPATH_TRACES_DIR", str(tmp_path / "elsewhere"))
    res = CliRunner().invoke(cli, ["eval", "memory", "--events", str(ev), "--probes", str(pr), "--quiet"])
    assert res.exit_code == 0, res.output
    assert list((tmp_path / "elsewhere" / "eval").glob("memory-*/report.md"))


def test_denials_are_audited(settings: Any, tmp_path: Path) -> None:
    """401 and 403 left no audit record."""
    import json

    app = _app(replace(settings, traces_dir=tmp_path))
    nurse = issue_token(SECRET, "nurse-1", "clinician", ["PAT_001"])
    assert asyncio.run(_request(app, "POST", "/api/memory/retrieve", None, json={"query": "x"})).status_code == 401
    assert asyncio.run(_request(app, "POST", "/api/memory/retrieve", "forged.token.here", json={"query": "x"})).status_code == 401
    r = asyncio.run(_request(app, "POST", "/api/memory/retrieve", nurse, json={"query": "x", "patient_id": "PAT_0777"}))
    assert r.status_code == 403
    rows = [json.loads(x) for x in (tmp_path / "audit" / "audit.jsonl").read_text().splitlines()]
    denied = [r for r in rows if r["action"] == "http.denied"]
    assert [d["outcome"] for d in denied] == ["401", "401", "403"]
    assert denied[0]["actor_hash"] is None and denied[2]["actor_hash"] and "nurse-1" not in json.dumps(denied)


def test_resume_is_a_string_or_an_integer_not_a_boolean(settings: Any) -> None:
    app = _app(settings)
    admin = issue_token(SECRET, "root", "admin", ["*"])
    r = asyncio.run(_request(app, "POST", "/api/v1/ask", admin, json={"thread_id": "t", "resume": True}))
    assert r.status_code == 422


def test_a_subject_cannot_name_another_scope() -> None:
    """A token with sub="org:acme" read the org scope's memory as its own user scope."""
    with pytest.raises(TokenError):
        verify_token(SECRET, jwt.encode(_claims(sub="org:acme"), SECRET, algorithm=ALGORITHM))
    with pytest.raises(ConfigError):
        issue_token(SECRET, "org:acme", "clinician", ["PAT_001"])


def test_memory_search_keeps_to_the_tokens_patients(settings: Any, tmp_path: Path) -> None:
    """A token for PAT_001 read what its user had remembered about PAT_0777."""
    from memory.records import GateDecision, MemoryFact

    home = tmp_path / "home"
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    app = _app(replace(settings, home=home, traces_dir=tmp_path / "traces"))
    memory = app.state.medpath.services.memory
    accept = GateDecision("accept", 0.9)
    memory.commit(accept, [MemoryFact("nurse-2", "PAT_0777", "current_medication", "MESH:D008687",
                                      evidence="PAT_0777 takes metformin")], now=time.time() - 60)
    memory.commit(accept, [MemoryFact("nurse-2", "PAT_001", "current_medication", "MESH:D008687",
                                      evidence="PAT_001 takes metformin")], now=time.time() - 30)
    nurse = issue_token(SECRET, "nurse-2", "clinician", ["PAT_001"])
    r = asyncio.run(_request(app, "GET", "/api/v1/memories/search", nurse, params={"q": "who takes metformin"}))
    assert r.status_code == 200, r.text
    subjects = {h["subj"] for h in r.json()["results"]}
    assert subjects == {"PAT_001"}


def test_a_slow_drip_llm_is_cut_off_at_the_deadline() -> None:
    """A server sending one byte every few seconds never tripped the per-read timeout: ask hung for good."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    stop = threading.Event()

    def drip() -> None:
        conn, _ = server.accept()
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
        while not stop.is_set():
            try:
                conn.sendall(b" ")
            except OSError:
                break
            stop.wait(0.3)
        conn.close()

    threading.Thread(target=drip, daemon=True).start()
    url = f"http://127.0.0.1:{server.getsockname()[1]}/v1"
    client = LLMClient(LLMSettings(base_url=url, api_key="k", model="local", timeout_s=1.0, max_retries=0))
    t0 = time.perf_counter()
    try:
        with pytest.raises(LLMError):
            client.complete("Say hi")
        assert time.perf_counter() - t0 < 5.0  # the deadline (1 s), not the drip (for ever)
    finally:
        stop.set()
        server.close()


def test_a_callers_thread_list_reads_only_threads_with_their_prefix() -> None:
    """The chat page lists a caller's threads by their key's prefix; LIKE wildcards in it match only themselves."""
    import sqlite3
    from typing import TypedDict

    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.graph import END, START, StateGraph

    from medpath.threads import list_threads

    class Turns(TypedDict):
        messages: list[dict[str, str]]

    builder = StateGraph(Turns)
    builder.add_node("n", lambda _s: {})
    builder.add_edge(START, "n")
    builder.add_edge("n", END)
    saver = SqliteSaver(sqlite3.connect(":memory:", check_same_thread=False))
    graph = builder.compile(checkpointer=saver)
    for key in ("api:a_b:t1", "api:a_b:t2", "api:axb:t3", "cli-x"):
        graph.invoke({"messages": [{"role": "user", "content": f"question on {key}"}]}, {"configurable": {"thread_id": key}})
    rows = list_threads(saver, "api:a_b:")
    assert [r["thread_id"] for r in rows] == ["t2", "t1"]  # newest first, and not api:axb: (``_`` is no wildcard)
    assert rows[0]["title"] == "question on api:a_b:t2" and rows[0]["turns"] == 1


def test_conversations_past_their_ttl_are_deleted_and_scrubbed(settings: Any, resources: Any, tmp_path: Path) -> None:
    """Checkpoints kept every question verbatim and were never pruned."""
    from click.testing import CliRunner

    from medpath.cli import cli
    from medpath.session import Session
    from medpath.threads import open_checkpoints, prune_threads

    local = replace(settings, home=tmp_path / "home")
    session = Session(local, interactive=False, resources=resources, memory=False)
    canary = "How does imatinib treat CML? canary-q-5d1e"
    session.ask(canary, thread_id="old-thread")
    time.sleep(1.2)
    session.ask("How does metformin treat type 2 diabetes?", thread_id="new-thread")
    saver = open_checkpoints(local)
    assert prune_threads(saver, older_than_s=1.0) == ["old-thread"]
    assert saver.get_tuple({"configurable": {"thread_id": "new-thread"}}) is not None
    assert saver.get_tuple({"configurable": {"thread_id": "old-thread"}}) is None
    for path in local.home.glob("checkpoints.sqlite*"):
        assert b"canary-q-5d1e" not in path.read_bytes(), path.name
    res = CliRunner().invoke(cli, ["threads", "prune", "--older-than-days", "0"], env={"MEDPATH_HOME": str(local.home)})
    assert res.exit_code == 0 and "deleted 1 thread(s)" in res.output


def test_emoji_in_a_question_are_no_part_of_a_name(run_graph) -> None:
    """"How does imatinib treat CML 🙂" read "CML 🙂" as the closest name, and said so."""
    out, _ = run_graph({"question": "How does imatinib treat CML 🙂"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and not out["answer"].startswith("Read "), out["answer"]
    assert [m["mention"] for m in out["mentions"]] == ["imatinib", "CML"], out["mentions"]
