"""Benchmark of the hybrid retrieval service: classify, retrieve (embedded stores), and HTTP under load.

    python bench/bench_retrieval.py [--requests 3000] [--clients 20]

1. classify: every fixture query (80), with the entity scan, many times; p50 / p95.
2. retrieve: the fixture queries plus patient queries through ``HybridRetriever`` in-process. The first
   pass (cold: first embedding of each TEXT query) and a warm pass are reported separately.
3. HTTP: ``medpath serve`` on 127.0.0.1 with the rate limit raised; ``--clients`` concurrent clients
   send ``--requests`` retrieve calls in all (a bounded load); requests/s, p50 / p95, and any non-200.
4. Rate limit: the server again at its default limit (100/minute); the same clients send 300
   requests; every answer beyond the limit must be 429, and nothing else.

Results go to ``traces/bench/retrieval-<time>.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.settings import Settings, child_env
from medpath.auth import issue_token
from medpath.metrics import percentile
from medpath.services import build_services

FIXTURE = ROOT / "tests" / "fixtures" / "classifier_test_set.json"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).parent / "medpath"
    proc = subprocess.Popen([str(exe), "serve", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(400):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.25)
    proc.kill()
    raise SystemExit("medpath serve did not start")


async def _load(base: str, token: str, bodies: list[dict], total: int, clients: int) -> tuple[list[float], Counter, float]:
    lat: list[float] = []
    codes: Counter = Counter()
    nxt = iter(range(total))

    async def worker() -> None:
        async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30) as c:
            for i in nxt:
                t0 = time.perf_counter()
                r = await c.post("/api/memory/retrieve", json=bodies[i % len(bodies)])
                lat.append((time.perf_counter() - t0) * 1000)
                codes[r.status_code] += 1
                if r.status_code == 200 and b'"partial":true' in r.content:
                    codes["200 partial"] += 1
                    for st in r.json()["stores"]:
                        if st["status"] != "ok":
                            codes[f"late or failed: {st['name']} ({st['status']})"] += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    return lat, codes, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=3000)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--classify-reps", type=int, default=50)
    args = ap.parse_args()
    settings = Settings.from_env()
    if not settings.patients_path.exists():
        raise SystemExit("no patients file; run `medpath patients synth` (make index does)")
    rows = json.loads(FIXTURE.read_text())["queries"]
    queries = [r["query"] for r in rows]
    out: dict = {"host": os.uname().nodename, "cpus": os.cpu_count(), "time": time.strftime("%Y-%m-%d %H:%M:%S")}

    svc = build_services(settings).pipeline_retrieval
    svc.retrieve("warm up")
    times = []
    for _ in range(args.classify_reps):
        for q in queries:
            t0 = time.perf_counter()
            svc.classify(q)
            times.append((time.perf_counter() - t0) * 1000)
    out["classify_ms"] = {"n": len(times), "p50": percentile(times, 50), "p95": percentile(times, 95)}

    calls = [(q, None) for q in queries] + [(f"What medications is PAT_{i:03d} on?", f"PAT_{i:03d}") for i in range(1, 41)]
    for label in ("first_pass", "warm"):
        lat = []
        for q, pid in calls:
            r = svc.retrieve(q, patient_id=pid)
            lat.append(r.retrieval_latency_ms)
        out[f"retrieve_{label}_ms"] = {"n": len(lat), "p50": percentile(lat, 50), "p95": percentile(lat, 95), "max": max(lat)}

    token = issue_token("bench-secret-0123456789-abcdefghijkl", "bench", "admin", ["*"], ttl_s=3600)
    env = child_env(MEDPATH_JWT_SECRET="bench-secret-0123456789-abcdefghijkl", MEDPATH_RATE_LIMIT="10000000/minute")
    bodies = [{"query": q, **({"patient_id": pid} if pid else {})} for q, pid in calls]
    port = _port()
    proc = _serve(env, port)
    try:
        base = f"http://127.0.0.1:{port}"
        asyncio.run(_load(base, token, bodies, len(bodies), args.clients))  # one warm-up pass
        lat, codes, wall = asyncio.run(_load(base, token, bodies, args.requests, args.clients))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    out["http"] = {"clients": args.clients, "requests": args.requests, "seconds": wall, "rps": args.requests / wall,
                   "p50_ms": percentile(lat, 50), "p95_ms": percentile(lat, 95), "codes": {str(k): v for k, v in codes.items()}}

    env.pop("MEDPATH_RATE_LIMIT")
    port = _port()
    proc = _serve(env, port)
    try:
        _, codes, _ = asyncio.run(_load(f"http://127.0.0.1:{port}", token, bodies, 300, args.clients))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    out["rate_limit_default"] = {"requests": 300, "codes": {str(k): v for k, v in codes.items()},
                                 "only_429_beyond_limit": codes.get(200, 0) == 100 and codes.get(429, 0) == 200
                                 and not [k for k in codes if isinstance(k, int) and k not in (200, 429)]}

    folder = settings.traces_dir / "bench"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"retrieval-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(out, indent=2))
    c, r1, r2, h = out["classify_ms"], out["retrieve_first_pass_ms"], out["retrieve_warm_ms"], out["http"]
    print(f"classify        p50 {c['p50']:.3f} ms  p95 {c['p95']:.3f} ms  ({c['n']} calls)")
    print(f"retrieve, first p50 {r1['p50']:.1f} ms  p95 {r1['p95']:.1f} ms  ({r1['n']} queries)")
    print(f"retrieve, warm  p50 {r2['p50']:.1f} ms  p95 {r2['p95']:.1f} ms  max {r2['max']:.1f} ms")
    print(f"HTTP retrieve   {h['rps']:.0f} requests/s with {h['clients']} clients, p50 {h['p50_ms']:.1f} ms, "
          f"p95 {h['p95_ms']:.1f} ms, codes {h['codes']}")
    rl = out["rate_limit_default"]
    print(f"default limit   300 requests → codes {rl['codes']}; only 429s beyond the limit: {rl['only_429_beyond_limit']}")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
