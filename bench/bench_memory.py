"""Benchmark: memory lookups per second (episodic by subject, vault by (subj, rel)) on a filled store.

Usage: python bench/bench_memory.py [--rows 20000] [--lookups 50000]
Fills a temporary episodic store and vault with synthetic rows for 50 owners, then times
lookups of random (owner, subject[, relation]) keys, one call at a time. The vault is timed
twice: through its in-process mirror (what ``ask`` uses) and straight from DuckDB. Last, the
cost of one single-fact vault write that opens and closes the file, as an answer's write does.
Prints a table; nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    """Run the benchmark and print the figures."""
    from memory.episodic import EpisodicStore
    from memory.records import MemoryFact
    from memory.vault import Vault

    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=20000)
    ap.add_argument("--lookups", type=int, default=50000)
    args = ap.parse_args()
    rng = random.Random(1)
    now = 1_767_600_000.0
    owners = [f"u{i:02d}" for i in range(50)]
    facts = [MemoryFact(owner=rng.choice(owners), subj=f"S{i % (args.rows // 4)}", rel=f"r{i % 4}", obj=f"O{i}", t_start=now,
                        thread="t") for i in range(args.rows)]
    with tempfile.TemporaryDirectory() as tmp:
        ep = EpisodicStore(Path(tmp) / "e.sqlite")
        ep.add(facts, now=now)
        vault = Vault(Path(tmp) / "v.duckdb", max_rows=0)
        t = time.perf_counter()
        with vault.session():
            for i in range(0, len(facts), 500):
                vault.add(facts[i : i + 500], now=now)
        fill_s = time.perf_counter() - t
        keys = [(f.owner, f.subj, f.rel) for f in (rng.choice(facts) for _ in range(args.lookups))]
        t = time.perf_counter()
        hits = sum(len(ep.by_subject(o, s, now=now + 1)) for o, s, _ in keys)
        ep_rate = len(keys) / (time.perf_counter() - t)
        vault.current([keys[0][0]], keys[0][1], keys[0][2], as_of=now + 1)  # load the mirror
        t = time.perf_counter()
        vhits = sum(len(vault.current([o], s, r, as_of=now + 1)) for o, s, r in keys)
        v_rate = len(keys) / (time.perf_counter() - t)
        t = time.perf_counter()
        for i in range(30):  # what a single answer's write costs: lock, open the file, insert, close
            vault.add([MemoryFact(owner="bench", subj=f"W{i}", rel="r", obj="o", t_start=now)], now=now)
        write_ms = (time.perf_counter() - t) / 30 * 1000
        sql_keys = keys[: min(len(keys), 3000)]
        with vault.session():
            t = time.perf_counter()
            shits = sum(len(vault.current_sql([o], s, r, as_of=now + 1)) for o, s, r in sql_keys)
            s_rate = len(sql_keys) / (time.perf_counter() - t)
    print(f"rows {args.rows}, lookups {len(keys)} (hits: episodic {hits}, vault {vhits}, sql {shits}); vault fill {fill_s:.1f} s")
    print("| store | lookup | lookups/s |")
    print("|---|---|---:|")
    print(f"| episodic (SQLite, b-tree on subj) | by subject | {ep_rate:,.0f} |")
    print(f"| vault (mirror of DuckDB) | by (subj, rel) | {v_rate:,.0f} |")
    print(f"| vault (DuckDB query, session held) | by (subj, rel) | {s_rate:,.0f} |")
    print(f"\nvault write of one fact, opening and closing the file: {write_ms:.1f} ms")


if __name__ == "__main__":
    main()
