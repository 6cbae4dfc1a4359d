"""Benchmark: the HTTP server under load. Ask throughput with N concurrent clients, and ``/healthz`` during an ingest.

Each server is a real ``medpath serve`` process on a fresh home (the index linked in, memory on, an empty vault).
``--base`` also runs an earlier commit from a git worktree, in the same run, so the two figures share the machine's
state of the moment.

    python bench/bench_serve.py --clients 8 --seconds 30 --base 692da14
    python bench/bench_serve.py --ingest            # /healthz p50/p99/max while `medpath memory ingest` runs

Prints a table; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from core.settings import child_env

ROOT = Path(__file__).resolve().parent.parent
SECRET = "bench-serve-secret-0123456789abcdef0123"


def _port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


def _env(tree: Path, home: Path) -> dict[str, str]:
    return child_env(MEDPATH_HOME=str(home), MEDPATH_TRACES_DIR=str(home / "traces"), PYTHONPATH=str(tree),
                     MEDPATH_JWT_SECRET=SECRET, MEDPATH_RATE_LIMIT="1000000/minute")


def _home(scratch: Path, name: str) -> Path:
    home = scratch / f"home-{name}"
    home.mkdir()
    (home / "index").symlink_to((ROOT / ".medpath" / "index").resolve())
    return home


@contextlib.contextmanager
def _server(tree: Path, home: Path, workers: int = 1) -> Iterator[str]:
    """A ``medpath serve`` process of ``tree``; yields its base URL once /healthz answers (``_SERVED`` maps the URL
    to the process, for its CPU time)."""
    port = _port()
    log = (home / "serve.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "medpath.cli", "serve", "--port", str(port)]
                            + (["--workers", str(workers)] if workers > 1 else []), cwd=tree,
                            env=_env(tree, home), stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            if proc.poll() is not None:
                raise SystemExit(f"server of {tree} exited: {(home / 'serve.log').read_text()[-2000:]}")
            time.sleep(0.2)
        _SERVED[url] = proc.pid
        yield url
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
        proc.kill()
        log.close()


_SERVED: dict[str, int] = {}


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of a process and its children (the workers of ``serve --workers N``)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if entry.name == str(pid) or fields[1] == str(pid):  # fields[1] is the parent's pid
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _token(tree: Path, home: Path) -> str:
    out = subprocess.run([sys.executable, "-m", "medpath.cli", "token", "issue", "--sub", "bench", "--role", "admin",
                          "--patients", "*"], cwd=tree, env=_env(tree, home), capture_output=True, text=True, check=True)
    return out.stdout.strip()


def _questions(n: int) -> list[str]:
    rows = [json.loads(line) for line in (ROOT / "data" / "drugmechdb" / "paths_dev.jsonl").open()][:n]
    return [r["question"] for r in rows]


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q / 100 * (len(xs) - 1)))] if xs else float("nan")


def _load(url: str, token: str, questions: list[str], clients: int, seconds: float) -> dict[str, Any]:
    """``clients`` threads asking in a loop for ``seconds``; asks/s, latency percentiles and non-200 counts."""
    head = {"Authorization": f"Bearer {token}"}
    lat: list[float] = []
    codes: dict[int, int] = {}
    lock = threading.Lock()
    with httpx.Client(timeout=60) as warm:  # load the stores before the clock starts
        warm.post(url + "/api/v1/ask", json={"question": questions[0]}, headers=head)
    end = time.monotonic() + seconds

    def client(k: int) -> None:
        with httpx.Client(timeout=120) as c:
            i = k
            while time.monotonic() < end:
                t0 = time.perf_counter()
                r = c.post(url + "/api/v1/ask", json={"question": questions[i % len(questions)]}, headers=head)
                ms = (time.perf_counter() - t0) * 1000
                with lock:
                    codes[r.status_code] = codes.get(r.status_code, 0) + 1
                    if r.status_code == 200:
                        lat.append(ms)
                i += clients

    t0, cpu0, mine0, idle0 = time.perf_counter(), _cpu_s(_SERVED[url]), time.process_time(), _idle_s()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall, cpu = time.perf_counter() - t0, _cpu_s(_SERVED[url]) - cpu0
    asks = max(len(lat), 1)
    return {"asks": len(lat), "per_s": len(lat) / wall, "p50": _pct(lat, 50), "p99": _pct(lat, 99), "codes": codes,
            "cpu_ms": cpu * 1000 / asks, "client_ms": (time.process_time() - mine0) * 1000 / asks,
            "idle": (_idle_s() - idle0) / wall / (os.cpu_count() or 1)}


def _idle_s() -> float:
    """Seconds every core of the machine has been idle since boot (``/proc/stat``)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    return (int(fields[4]) + int(fields[5])) / os.sysconf("SC_CLK_TCK")


def _healthz_during_ingest(tree: Path, home: Path, events: Path) -> dict[str, Any]:
    with _server(tree, home) as url:
        token = _token(tree, home)
        httpx.post(url + "/api/v1/ask", json={"question": "How does imatinib treat CML?"},
                   headers={"Authorization": f"Bearer {token}"}, timeout=60)
        ingest = subprocess.Popen([sys.executable, "-m", "medpath.cli", "memory", "ingest", "--quiet", str(events)],
                                  cwd=tree, env=_env(tree, home), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        lat: list[float] = []
        bad = 0
        t0 = time.perf_counter()
        with httpx.Client(timeout=30) as c:
            while ingest.poll() is None:
                s = time.perf_counter()
                ok = c.get(url + "/healthz").status_code == 200
                lat.append((time.perf_counter() - s) * 1000)
                bad += not ok
                time.sleep(0.01)
        wall = time.perf_counter() - t0
        out = (ingest.stdout.read() if ingest.stdout else b"").decode().strip().splitlines()
    return {"ingest_s": wall, "ingest_rc": ingest.returncode, "report": out[0] if out else "", "probes": len(lat),
            "p50": _pct(lat, 50), "p99": _pct(lat, 99), "max": max(lat) if lat else float("nan"), "non_200": bad}


def main() -> None:
    """Run the chosen benchmark(s) and print the tables."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--workers", type=int, default=1, help="Server processes of this tree (the base runs one).")
    ap.add_argument("--base", default=None, help="An earlier commit to measure in the same run.")
    ap.add_argument("--ingest", action="store_true", help="Measure /healthz during `memory ingest` instead.")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="medpath-bench-serve-") as tmp:
        scratch = Path(tmp)
        trees = [("this tree", ROOT)]
        if args.base:
            base = scratch / "base"
            subprocess.run(["git", "worktree", "add", "--detach", str(base), args.base], cwd=ROOT, check=True,
                           capture_output=True)
            (base / ".medpath").symlink_to((ROOT / ".medpath").resolve())
            trees.insert(0, (args.base, base))
        try:
            if args.ingest:
                subprocess.run([sys.executable, "-m", "medpath.cli", "memory", "synth", "--out", str(scratch / "stream")],
                               cwd=ROOT, env=child_env(PYTHONPATH=str(ROOT)), check=True, capture_output=True)
                events = scratch / "stream" / "events.jsonl"
                n = sum(1 for line in events.open() if line.strip())
                print(f"/healthz every 10 ms during `medpath memory ingest` of {n} events")
                print("| code | ingest | probes | p50 | p99 | max | non-200 | report |")
                print("|---|---:|---:|---:|---:|---:|---:|---|")
                for name, tree in trees:
                    r = _healthz_during_ingest(tree, _home(scratch, name.replace(" ", "-")), events)
                    print(f"| {name} | {r['ingest_s']:.1f} s (rc {r['ingest_rc']}) | {r['probes']} | {r['p50']:.1f} ms "
                          f"| {r['p99']:.1f} ms | {r['max']:.1f} ms | {r['non_200']} | {r['report']} |")
                return
            questions = _questions(args.questions)
            print(f"{args.clients} clients asking for {args.seconds:.0f} s each (POST /api/v1/ask, memory on); "
                  f"this tree with {args.workers} worker(s)")
            print("| code | asks | asks/s | p50 | p99 | server CPU per ask | client CPU per ask | machine idle | status codes |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
            rates = []
            for name, tree in trees:
                home = _home(scratch, name.replace(" ", "-"))
                with _server(tree, home, args.workers if tree == ROOT else 1) as url:
                    r = _load(url, _token(tree, home), questions, args.clients, args.seconds)
                rates.append(r["per_s"])
                print(f"| {name} | {r['asks']} | {r['per_s']:.1f} | {r['p50']:.0f} ms | {r['p99']:.0f} ms "
                      f"| {r['cpu_ms']:.0f} ms | {r['client_ms']:.0f} ms | {r['idle']:.0%} | {r['codes']} |")
            if len(rates) == 2:
                print(f"throughput: {rates[1] / rates[0]:.2f}x")
        finally:
            if args.base:
                subprocess.run(["git", "worktree", "remove", "--force", str(scratch / "base")], cwd=ROOT,
                               capture_output=True, check=False)


if __name__ == "__main__":
    main()
