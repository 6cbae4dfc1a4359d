"""`langgraph dev` serves the graph named in langgraph.json; drive it over HTTP."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from conftest import wait_for_http

from core.settings import child_env

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_langgraph_dev_runs_the_graph(settings, tmp_path, free_port) -> None:
    exe = Path(sys.executable).parent / "langgraph"
    if not exe.exists() and not shutil.which("langgraph"):
        pytest.skip("langgraph-cli[inmem] is not installed (extra: dev or studio)")
    port = free_port
    log = open(tmp_path / "langgraph.log", "w")  # noqa: SIM115 (the server's log; closed after the server stops)
    home = tmp_path / "home"  # the real index, a throw-away memory
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    env = child_env(MEDPATH_HOME=str(home))
    proc = subprocess.Popen(
        # with reload on, as a user runs it: the server then works in a spawned process, where the hang was
        [str(exe if exe.exists() else "langgraph"), "dev", "--no-browser", "--port", str(port)],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{base}/ok", tmp_path / "langgraph.log", "langgraph dev")
        thread = httpx.post(f"{base}/threads", json={}, timeout=10).json()["thread_id"]
        run = httpx.post(
            f"{base}/threads/{thread}/runs/wait",
            json={"assistant_id": "medpath", "input": {"question": "How does imatinib treat CML (ph+)?"}},
            timeout=120,
        )
        assert run.status_code == 200, run.text
        out = run.json()
        assert out["status"] == "ANSWERED"
        assert {t["tail"] for t in out["evidence"]} >= {"MESH:D015464"}
        _resume_like_studio(base, thread)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _resume_like_studio(base: str, thread: str) -> None:
    """Run to the interrupt, then resume as Studio does (streamed, from the interrupted checkpoint): ANSWERED within 10 s.

    This hung for good before: bm25s built a tqdm bar whose lock creation deadlocked in the server's worker.
    """
    import json

    ask = {"assistant_id": "medpath", "input": {"question": "How does metformin treat diabetes?"}}
    out = httpx.post(f"{base}/threads/{thread}/runs/wait", json=ask, timeout=60).json()
    assert out["__interrupt__"][0]["value"]["mention"] == "diabetes"
    state = httpx.get(f"{base}/threads/{thread}/state", timeout=10).json()
    options = state["tasks"][0]["interrupts"][0]["value"]["candidates"]
    pick = next(i for i, c in enumerate(options, 1) if c["id"] == "MESH:D003922")
    body = {"assistant_id": "medpath", "command": {"resume": str(pick)}, "checkpoint": state["checkpoint"],
            "stream_mode": ["values", "updates"], "stream_subgraphs": True}
    final: dict = {}
    with httpx.stream("POST", f"{base}/threads/{thread}/runs/stream", json=body, timeout=10) as resp:
        event = ""
        for line in resp.iter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event == "values":
                final = json.loads(line[5:])
    assert final.get("status") == "ANSWERED" and final["targets"] == ["MESH:D003922"], str(final)[:300]
    follow = httpx.post(f"{base}/threads/{thread}/runs/wait", timeout=10,
                        json={"assistant_id": "medpath", "input": {"question": "and what does it target?"}}).json()
    assert follow["intent"] == "targets" and follow["understood_as"]
