"""Benchmark: the chat page's streamed ask against the plain API, on a warm `medpath serve`.

For each question, in turn: ``POST /api/v1/ask/stream`` (the page's call), timing the first ``progress`` event
(the first graph node done), the first ``progress`` of the planner, and the ``answer`` event; then
``POST /api/v1/ask`` with the same question on a new thread. Memory is on (a fresh home).

    python bench/bench_web.py --questions 100

Prints a table; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_serve import ROOT, _home, _pct, _questions, _server, _token


def _stream(c: httpx.Client, url: str, head: dict[str, str], question: str) -> tuple[float, float, float]:
    """Milliseconds from Send to the first progress event, to the planner's, and to the answer."""
    t0 = time.perf_counter()
    first = planner = answer = float("nan")
    event = ""
    with c.stream("POST", url + "/api/v1/ask/stream", json={"question": question}, headers=head) as r:
        for line in r.iter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                ms = (time.perf_counter() - t0) * 1000
                if event == "progress":
                    first = ms if math.isnan(first) else first
                    if json.loads(line[5:])["node"] == "planner":
                        planner = ms
                elif event in ("answer", "error"):
                    answer = ms
    return first, planner, answer


def main() -> None:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=int, default=100)
    args = ap.parse_args()
    questions = _questions(args.questions)
    with tempfile.TemporaryDirectory(prefix="medpath-bench-web-") as tmp:
        home = _home(Path(tmp), "web")
        with _server(ROOT, home) as url, httpx.Client(timeout=120) as c:
            head = {"Authorization": f"Bearer {_token(ROOT, home)}"}
            for q in questions[:5]:  # warm both paths
                _stream(c, url, head, q)
                c.post(url + "/api/v1/ask", json={"question": q}, headers=head)
            firsts, planners, streamed, plain = [], [], [], []
            for q in questions:
                f, p, a = _stream(c, url, head, q)
                firsts.append(f)
                planners.append(p)
                streamed.append(a)
                t0 = time.perf_counter()
                c.post(url + "/api/v1/ask", json={"question": q}, headers=head)
                plain.append((time.perf_counter() - t0) * 1000)
    print(f"{len(questions)} questions, warm server, memory on")
    print("| measure | median | p95 |")
    print("|---|---:|---:|")
    for name, xs in (("first progress event", firsts), ("planner's progress event", planners),
                     ("whole answer, streamed", streamed), ("whole answer, plain POST /api/v1/ask", plain)):
        print(f"| {name} | {_pct(xs, 50):.1f} ms | {_pct(xs, 95):.1f} ms |")
    print(f"streamed / plain (medians): {_pct(streamed, 50) / _pct(plain, 50):.2f}x")


if __name__ == "__main__":
    main()
