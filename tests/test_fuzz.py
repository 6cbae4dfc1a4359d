"""A bounded schemathesis run against a live `medpath serve`: every operation of the OpenAPI schema, a fixed seed,
one worker (the same cases every run), and the `not_a_server_error` check: 0 × 5xx or the test fails."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import serve_process

from core.settings import child_env
from medpath.auth import issue_token

ROOT = Path(__file__).resolve().parent.parent
SECRET = "test-secret-for-the-fuzz-run-0123456789"
SEED, EXAMPLES = 7, 100


@pytest.mark.slow
def test_schemathesis_finds_no_server_error(settings: Any, tmp_path: Path, free_port: int) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    env = child_env(MEDPATH_HOME=str(home), MEDPATH_TRACES_DIR=str(tmp_path / "traces"), MEDPATH_JWT_SECRET=SECRET,
                    MEDPATH_RATE_LIMIT="1000000/minute")
    bin_dir = Path(sys.executable).parent
    log = tmp_path / "serve.log"
    with serve_process(env, log, port=free_port) as (base, _proc):
        token = issue_token(SECRET, "fuzzer", "admin", ["*"])
        run = subprocess.run([str(bin_dir / "st"), "run", f"{base}/openapi.json", "--checks", "not_a_server_error",
                              "--header", f"Authorization: Bearer {token}", "--seed", str(SEED),
                              "--max-examples", str(EXAMPLES), "--phases", "fuzzing", "--workers", "1",
                              "--request-timeout", "60"],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240, check=False)
    out = run.stdout + run.stderr
    cases = re.search(r"(\d+) generated", out)
    assert run.returncode == 0, out[-4000:]
    assert cases and int(cases.group(1)) >= 200, out[-2000:]  # the run reached every operation many times
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
    print(f"schemathesis: {cases.group(1)} cases, 0 server errors (seed {SEED})")
