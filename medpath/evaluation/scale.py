"""``medpath eval scale``: the real graph plus seeded distractor edges on real nodes, at growing sizes.

Each size runs in a process of its own (``python -m medpath.evaluation.scale``), so that its peak RSS is its own:
it writes a fresh ``public.duckdb`` (the same writer as ``index build``) and loads it, which is the graph build
that is timed; then check-half questions are asked through the compiled graph (memory off), and each answer's
path is scored against the question's gold chains (Path-F1, as ``eval kg`` scores it). With ``--database`` the graph is
loaded into a fresh PostgreSQL database instead (``index build --database``'s writer), and the walk reads it there. Distractors are synthetic entities of real types joined to real nodes
by real relation labels (10 % join two real nodes), so the walker sees many more neighbours
at every real node. The dense index and the learned models stay those of the real graph
(distractors have no text to embed).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agents.context import Context
from core.datasets import Node, Triple, load_nodes, load_paths, split_tune_check
from core.errors import MedpathError
from core.gc_policy import loading
from core.settings import Settings, child_env
from graphs.qa import build_graph
from medpath.metrics import path_f1_best_chain, percentile
from medpath.services import build_services
from memory.factory import backend, drop_database, fresh_database, open_graph, write_graph
from tools.resources import ranker_from_models

__all__ = ["distractors", "measure_size", "run_scale"]


def distractors(real: list[Node], relations: list[str], n_edges: int, seed: int) -> tuple[list[Node], list[Triple]]:
    """``n_edges`` seeded distractor triples and the synthetic nodes they use."""
    rng = random.Random(seed)
    types = [n.type for n in real]
    n_syn = max(100, n_edges // 8)
    syn = [Node(f"SYN:{i:07d}", f"synthetic entity {i}", rng.choice(types)) for i in range(n_syn)]
    ids = [n.id for n in real]
    out: list[Triple] = []
    seen: set[tuple[str, str, str]] = set()
    while len(out) < n_edges:
        a = rng.choice(ids)
        b = rng.choice(ids) if rng.random() < 0.1 else syn[rng.randrange(n_syn)].id
        h, t = (a, b) if rng.random() < 0.5 else (b, a)
        key = (h, rng.choice(relations), t)
        if h != t and key not in seen:
            seen.add(key)
            out.append(Triple(*key))
    return syn, out


def run_scale(settings: Settings, sizes: list[int], n_questions: int, seed: int,
              echo: Callable[[str], None] = print, database: str = "") -> list[dict[str, Any]]:
    """Build and ask at each size, each in a process of its own; one result per size. With ``database`` (a
    PostgreSQL server's URL) each size's graph is loaded into a fresh database there and read from it."""
    points = []
    for size in sizes:
        cmd = [sys.executable, "-m", "medpath.evaluation.scale", "--size", str(size), "--questions", str(n_questions),
               "--seed", str(seed), *(["--database", database] if database else [])]
        done = subprocess.run(cmd, capture_output=True, text=True, env=child_env(MEDPATH_HOME=str(settings.home)),
                              check=False)
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
        if done.returncode != 0 or not lines:
            why = [ln for ln in (done.stderr or done.stdout).splitlines() if ln.strip()] or [f"exit status {done.returncode}"]
            raise MedpathError(f"eval scale at {size:,} triples failed: {why[-1]}")
        p = json.loads(lines[-1])
        echo(f"{p['triples']:>9,} triples: {p['backend']}, build {p['build_s']:6.1f} s, ask median {p['ask_median_ms']:6.1f} ms, "
             f"p95 {p['ask_p95_ms']:6.1f} ms, peak RSS {p['peak_rss_mb']:,.0f} MB, Path-F1 {p['path_f1']:.3f}, "
             f"{p['answered']}/{p['asked']} answered")
        points.append(p)
    return points


@contextlib.contextmanager
def _scratch(settings: Settings, database: str, size: int, seed: int) -> Iterator[Settings]:
    """Settings whose graph goes to a fresh place: a temporary home, or a fresh database on ``database``'s server
    (dropped afterwards)."""
    with tempfile.TemporaryDirectory() as tmp:
        scratch = dataclasses.replace(settings, home=Path(tmp))
        scratch.index_dir.mkdir(parents=True)
        if not database:
            yield scratch
            return
        name = f"medpath_scale_{size}_{seed}"
        try:
            yield dataclasses.replace(scratch, database_url=fresh_database(database, name))
        finally:
            drop_database(database, name)


def measure_size(settings: Settings, size: int, n_questions: int, seed: int, database: str = "") -> dict[str, Any]:
    """One size, in this process: the graph build (or the load into PostgreSQL), then the check-half questions;
    with this process's peak RSS."""
    res = build_services(dataclasses.replace(settings, database_url="")).resources
    nodes = load_nodes(settings.data_dir / "drugmechdb" / "nodes.tsv")
    base = [Triple(e.head, e.relation, e.tail) for e in res.kg.edges()]
    relations = sorted({t.relation for t in base})
    _, check = split_tune_check(load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl"))
    records = check[:n_questions]
    if not records:
        raise ValueError("no check-half questions to ask (--questions must be at least 1)")
    syn, noise = distractors(nodes, relations, max(0, size - len(base)), seed)
    with _scratch(settings, database, size, seed) as scratch:
        t0 = time.perf_counter()
        write_graph(scratch, [*nodes, *syn], [*base, *noise])
        kg = open_graph(scratch)
        build_s = time.perf_counter() - t0
        return _ask_all(settings, res, kg, records, build_s, size, len(noise)) | {"backend": backend(scratch)}


def _ask_all(settings: Settings, res: Any, kg: Any, records: list[Any], build_s: float, size: int, n_noise: int) -> dict[str, Any]:
    """Ask the questions on this graph (after one warm-up); latency, Path-F1 and the process's peak RSS."""
    ranker = ranker_from_models(kg, res.models, res.priors, res.node_vector)
    big = dataclasses.replace(res, kg=kg, ranker=ranker)
    ctx = Context(interactive=False, resources=big, settings=settings, memory=False)
    graph = build_graph()
    with loading():  # as `medpath serve` does after loading: what exists now is frozen (core.gc_policy)
        graph.invoke({"question": records[0].question}, context=ctx)  # warm-up
    lat, f1s, answered = [], [], 0
    for r in records:
        t0 = time.perf_counter()
        out = graph.invoke({"question": r.question}, context=ctx)
        lat.append((time.perf_counter() - t0) * 1000)
        answered += str(out.get("status")) == "ANSWERED"
        path = [(t["head"], t["relation"], t["tail"]) for t in out.get("evidence", [])]
        gold = [(t.head, t.relation, t.tail) for t in r.gold_triples]
        f1s.append(path_f1_best_chain(path, gold, r.gold_chains))
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # Linux: kilobytes
    return {"triples": len(kg), "requested": size, "distractors": n_noise, "build_s": build_s,
            "ask_median_ms": percentile(lat, 50), "ask_p95_ms": percentile(lat, 95), "peak_rss_mb": peak_kb / 1024,
            "path_f1": sum(f1s) / len(f1s), "asked": len(records), "answered": answered}


def main() -> None:
    """``python -m medpath.evaluation.scale --size N``: one size; prints its result as one JSON line."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--questions", type=int, default=50)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--database", default="", help="A PostgreSQL server's URL: load each graph there.")
    args = ap.parse_args()
    try:
        print(json.dumps(measure_size(Settings.from_env(), args.size, args.questions, args.seed, args.database)))
    except (MedpathError, OSError, ValueError) as exc:  # the parent reports this line
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
