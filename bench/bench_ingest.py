"""Benchmark: `medpath memory ingest` wall time, this tree against an earlier commit, on the same stream.

The earlier commit runs from a git worktree (on this checkout's index and venv); each ingest writes into an empty
home. The stream is the earlier commit's default `memory synth` output unless --events names one.

    python bench/bench_ingest.py --base b72f8d9
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


def _ingest(tree: Path, events: Path, scratch: Path, name: str) -> tuple[float, str]:
    home = scratch / f"home-{name}"
    home.mkdir()
    (home / "index").symlink_to((ROOT / ".medpath" / "index").resolve())
    env = child_env(MEDPATH_HOME=str(home), MEDPATH_TRACES_DIR=str(home / "traces"), PYTHONPATH=str(tree))
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "medpath.cli", "memory", "ingest", "--quiet", str(events)], cwd=tree,
                         env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - t0, out.stdout.strip().splitlines()[0]


def main() -> None:
    """Run both ingests and print the table."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="b72f8d9", help="The earlier commit.")
    ap.add_argument("--events", type=Path, default=None, help="Default: the base commit's `memory synth` stream.")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="medpath-bench-ingest-") as tmp:
        scratch = Path(tmp)
        base = scratch / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), args.base], cwd=ROOT, check=True, capture_output=True)
        try:
            (base / ".medpath").symlink_to((ROOT / ".medpath").resolve())
            events = args.events
            if events is None:
                subprocess.run([sys.executable, "-m", "medpath.cli", "memory", "synth", "--out", str(scratch / "stream")],
                               cwd=base, env=child_env(PYTHONPATH=str(base)), check=True, capture_output=True)
                events = scratch / "stream" / "events.jsonl"
            n = sum(1 for line in events.open() if line.strip())
            rows = [(args.base, *_ingest(base, events, scratch, "base")), ("this tree", *_ingest(ROOT, events, scratch, "new"))]
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True, check=False)
    print(f"{n} events ({events.name})")
    print("| code | wall time | events/s | report |")
    print("|---|---:|---:|---|")
    for name, sec, line in rows:
        print(f"| {name} | {sec:.1f} s | {n / sec:.0f} | {line} |")
    print(f"speed-up: {rows[0][1] / rows[1][1]:.1f}x")


if __name__ == "__main__":
    main()
