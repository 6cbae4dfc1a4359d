"""`langgraph dev` serves the graph named in langgraph.json; drive it over HTTP."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from conftest import wait_for_http

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_langgraph_dev_runs_the_graph(settings, tmp_path, free_port) -> None:
    exe = Path(sys.executable).parent / "langgraph"
    if not exe.exists() and not shutil.which("langgraph"):
        pytest.skip("langgraph-cli[inmem] is not installed (extra: dev or studio)")
    port = free_port
    log = open(tmp_path / "langgraph.log", "w")
    home = tmp_path / "home"  # the real index, a throw-away memory
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    env = {**os.environ, "MEDPATH_HOME": str(home)}
    proc = subprocess.Popen(
        [str(exe if exe.exists() else "langgraph"), "dev", "--no-browser", "--no-reload", "--port", str(port)],
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
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
