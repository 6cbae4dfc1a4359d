"""Benchmark: warm in-process ``ask`` latency on dev questions, cold ``medpath ask`` process, index build time.

Memory is on (a temporary folder, or the database of MEDPATH_DATABASE_URL): every accepted answer is written to the
episodic store and the vault.

Usage: python bench/bench_ask.py [--questions 200] [--build]
The cold figure is the median of three ``medpath ask`` processes after a first one that writes the fresh home's
caches (reported apart).
``--build`` also times ``medpath index build --force`` into a temporary home (from nothing).
Prints a table; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from core.settings import child_env

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    """Run the benchmark and print the figures."""
    from core.datasets import load_paths
    from core.settings import Settings
    from medpath.metrics import percentile
    from medpath.services import build_services
    from medpath.session import Session, checkpoint_serde

    ap = argparse.ArgumentParser()
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--build", action="store_true")
    args = ap.parse_args()
    settings = Settings.from_env()
    records = load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl", limit=args.questions)
    from langgraph.checkpoint.memory import InMemorySaver

    from memory.factory import backend, open_memory
    from memory.mirix import Memory

    scratch = tempfile.TemporaryDirectory()  # memory and the cold runs' home: never the user's own memory
    home = Path(scratch.name) / "home"
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir.resolve())
    # embedded: a memory in the scratch folder; with MEDPATH_DATABASE_URL: that database's memory tables (and Redis's
    # episodic tier with MEDPATH_REDIS_URL), so that the two backends are compared store for store
    memory = (open_memory(settings) if settings.database_url
              else Memory(Path(scratch.name) / "memory", settings.memory))
    session = Session(settings, interactive=False, checkpointer=InMemorySaver(serde=checkpoint_serde()),
                      services=build_services(settings), memory_store=memory)
    session.ask("How does imatinib treat CML (ph+)?", thread_id="warmup")
    lat, statuses, nodes = [], {}, {}
    for i, r in enumerate(records):
        t0 = time.perf_counter()
        out = session.ask(r.question, thread_id=f"b{i}")
        lat.append((time.perf_counter() - t0) * 1000)
        statuses[out["status"]] = statuses.get(out["status"], 0) + 1
        for node, ms in out.get("timings", {}).items():
            nodes.setdefault(node, []).append(ms)
    exe = str(Path(sys.executable).parent / "medpath")
    cold = []
    for _ in range(4):  # the first run in the fresh home also writes its caches (the optimised ONNX graph, token ranks)
        t0 = time.perf_counter()
        subprocess.run([exe, "ask", "--json", "How does acetaminophen treat Fever?"], check=True,
                       capture_output=True, env=child_env(MEDPATH_HOME=str(home)))
        cold.append(time.perf_counter() - t0)
    first, cold = cold[0], cold[1:]
    build_s = None
    if args.build:
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            subprocess.run([exe, "index", "build", "--quiet", "--force"], check=True, capture_output=True,
                           env=child_env(MEDPATH_HOME=tmp))
            build_s = time.perf_counter() - t0
    scratch.cleanup()
    print(f"backend: {backend(settings)}; questions: {len(records)} (first {len(records)} of paths_dev.jsonl), "
          f"statuses: {statuses}")
    print(f"warm ask in-process: median {percentile(lat, 50):.1f} ms, p95 {percentile(lat, 95):.1f} ms")
    print("  median per node: " + ", ".join(f"{n} {percentile(v, 50):.1f} ms" for n, v in sorted(nodes.items())))
    print(f"cold `medpath ask` process: median {percentile(cold, 50):.2f} s (3 runs: {', '.join(f'{c:.2f}' for c in cold)}); "
          f"the first run in a fresh home, which writes the home's caches: {first:.2f} s")
    if build_s is not None:
        print(f"index build from nothing: {build_s:.1f} s")


if __name__ == "__main__":
    main()
