"""Several ``medpath serve`` worker processes, one state: what one worker writes, every other one reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import serve_process

from core.settings import child_env
from medpath.auth import issue_token

SECRET = "workers-secret-0123456789abcdef0123"
QUESTION = "How does imatinib treat CML (ph+)?"


def _env(settings: Any, tmp_path: Path) -> dict[str, str]:
    """A fresh home that links the built index, for ``medpath serve``."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    return child_env(MEDPATH_HOME=str(home), MEDPATH_JWT_SECRET=SECRET, MEDPATH_RATE_LIMIT="100000/minute")


def _uses(base: str, token: str, n: int) -> list[dict[tuple[str, str, str], int]]:
    """``n`` reads of the caller's memory, each on a new connection (whichever worker accepts it answers)."""
    out = []
    for _ in range(n):
        with httpx.Client(timeout=60) as c:
            r = c.get(f"{base}/api/v1/memories", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200, r.text
            out.append({(m["subject"], m["relation"], m["object"]): m["uses"] for m in r.json()["memories"]})
    return out


@pytest.mark.slow
def test_a_memory_write_through_one_worker_is_read_through_every_other(settings: Any, tmp_path: Path) -> None:
    """Two workers read their vault mirrors, then one of them answers the same question again, which raises the
    use count of the facts it wrote the first time: every read after it, by either worker, sees the new count
    (the other worker's mirror follows the vault's change journal)."""
    env = _env(settings, tmp_path)
    token = issue_token(SECRET, "alice", role="clinician", patients=[], ttl_s=3600)
    head = {"Authorization": f"Bearer {token}"}
    with serve_process(env, tmp_path / "serve.log", "--workers", "2") as (base, _proc):
        with httpx.Client(timeout=120) as c:
            first = c.post(f"{base}/api/v1/ask", json={"question": QUESTION}, headers=head).json()
        assert first["status"] == "ANSWERED", first
        before = _uses(base, token, 20)  # both workers load their mirrors
        assert before[0] and all(b == before[0] for b in before)
        with httpx.Client(timeout=120) as c:
            again = c.post(f"{base}/api/v1/ask", json={"question": QUESTION}, headers=head).json()
        assert again["status"] == "ANSWERED"
        after = _uses(base, token, 20)
    raised = {k for k, v in after[0].items() if v > before[0].get(k, 0)}
    assert raised, (before[0], after[0])  # the second answer used (touched or refreshed) what the first wrote
    assert all(a == after[0] for a in after), after  # every read, by either worker, sees it


@pytest.mark.slow
def test_a_clarification_started_on_one_worker_resumes_on_any(settings: Any, tmp_path: Path) -> None:
    """Each ask's response ends its connection with several workers, so the answer to a clarification is taken by
    whichever worker accepts it; every one resumes the thread the other started (checkpoints in the shared file)."""
    env = _env(settings, tmp_path)
    head = {"Authorization": f"Bearer {issue_token(SECRET, 'bob', role='clinician', patients=[], ttl_s=3600)}"}
    with serve_process(env, tmp_path / "serve.log", "--workers", "2") as (base, _proc):
        for _ in range(6):
            with httpx.Client(timeout=120) as c:
                started = c.post(f"{base}/api/v1/ask", json={"question": "How does metformin treat diabetes?"},
                                 headers=head).json()
            assert started["status"] == "NEEDS_CLARIFICATION", started
            pick = next(o["id"] for o in started["clarification"]["candidates"] if o["id"] == "MESH:D003922")
            with httpx.Client(timeout=120) as c:
                done = c.post(f"{base}/api/v1/ask", json={"thread_id": started["thread_id"], "resume": pick},
                              headers=head)
            assert done.status_code == 200 and done.json()["status"] in ("ANSWERED", "NOT_FOUND"), done.text
