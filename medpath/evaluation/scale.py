"""``medpath eval scale``: the real graph grown with seeded synthetic triples, at growing sizes.

Each size runs in a process of its own (``python -m medpath.evaluation.scale``), so that its peak RSS is its own:
it writes a fresh ``public.duckdb`` (the same writer as ``index build``) and loads it, which is the graph build
that is timed; then check-half questions are asked through the compiled graph (memory off), and each answer's
path is scored against the question's gold chains (Path-F1, as ``eval kg`` scores it). With ``--database`` the graph
is loaded into a fresh PostgreSQL database instead (``index build --database``'s writer), and the walk reads it
there. How the graph grows is ``--growth`` (``medpath.evaluation.growth``): by new entities with the real graph's
types, schema and degrees (the default), or by random triples attached to real nodes (a density stress test). The
dense index and the learned models stay those of the real graph (synthetic entities have no text to embed).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agents.context import Context
from core.datasets import Triple, load_nodes, load_paths, split_tune_check
from core.errors import MedpathError
from core.gc_policy import loading
from core.settings import Settings, child_env
from graphs.qa import build_graph
from medpath.evaluation.growth import GROWTHS, grow
from medpath.metrics import path_f1_best_chain, percentile
from medpath.services import build_services
from medpath.training import fit_models
from memory.factory import backend, drop_database, fresh_database, open_graph, write_graph
from tools.resources import with_models

__all__ = ["measure_size", "run_scale"]


def run_scale(settings: Settings, sizes: list[int], n_questions: int, seed: int,
              echo: Callable[[str], None] = print, database: str = "", growth: str = "entities",
              retrain: bool = True) -> list[dict[str, Any]]:
    """Build and ask at each size, each in a process of its own; one result per size. With ``database`` (a
    PostgreSQL server's URL) each size's graph is loaded into a fresh database there and read from it."""
    points = []
    for size in sizes:
        cmd = [sys.executable, "-m", "medpath.evaluation.scale", "--size", str(size), "--questions", str(n_questions),
               "--seed", str(seed), "--growth", growth, *([] if retrain else ["--no-retrain"]), *(["--database", database] if database else [])]
        done = subprocess.run(cmd, capture_output=True, text=True, env=child_env(MEDPATH_HOME=str(settings.home)),
                              check=False)
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
        if done.returncode != 0 or not lines:
            why = [ln for ln in (done.stderr or done.stdout).splitlines() if ln.strip()] or [f"exit status {done.returncode}"]
            raise MedpathError(f"eval scale at {size:,} triples failed: {why[-1]}")
        p = json.loads(lines[-1])
        echo(f"{p['triples']:>9,} triples: {p['backend']}, build {p['build_s']:6.1f} s, train {p['train_s']:6.1f} s, ask median {p['ask_median_ms']:6.1f} ms, "
             f"p95 {p['ask_p95_ms']:6.1f} ms, peak RSS {p['peak_rss_mb']:,.0f} MB, Path-F1 {p['path_f1']:.3f}, "
             f"{p['answered']}/{p['asked']} answered")
        points.append(p)
    return points


@contextlib.contextmanager
def _scratch(settings: Settings, database: str, size: int, seed: int) -> Iterator[Settings]:
    """Settings whose graph goes to a fresh place: a temporary home, or a fresh database on ``database``'s server
    (dropped afterwards)."""
    with tempfile.TemporaryDirectory() as tmp:
        # embedded unless ``database``: never the URL of the environment, whose graph this would overwrite
        scratch = dataclasses.replace(settings, home=Path(tmp), database_url="")
        scratch.index_dir.mkdir(parents=True)
        if not database:
            yield scratch
            return
        name = f"medpath_scale_{size}_{seed}"
        try:
            yield dataclasses.replace(scratch, database_url=fresh_database(database, name))
        finally:
            drop_database(database, name)


def measure_size(settings: Settings, size: int, n_questions: int, seed: int, database: str = "",
                 growth: str = "entities", retrain: bool = True) -> dict[str, Any]:
    """One size, in this process: the graph build (or the load into PostgreSQL), the models trained on that graph
    as ``index build`` trains them (``retrain``; else the real graph's), then the check-half questions; with this
    process's peak RSS."""
    home = dataclasses.replace(settings, database_url="")  # the real graph's index: dense vectors, models
    res = build_services(home).resources
    nodes = load_nodes(settings.data_dir / "drugmechdb" / "nodes.tsv")
    base = [Triple(e.head, e.relation, e.tail) for e in res.kg.edges()]
    paths_file = _paths_file(settings)
    _, check = split_tune_check(load_paths(paths_file))
    records = check[:n_questions]
    if not records:
        raise ValueError("no check-half questions to ask (--questions must be at least 1)")
    syn, noise = grow(growth, nodes, base, max(0, size - len(base)), seed)
    with _scratch(settings, database, size, seed) as scratch:
        t0 = time.perf_counter()
        write_graph(scratch, [*nodes, *syn], [*base, *noise])
        kg = open_graph(scratch)
        build_s = time.perf_counter() - t0
        models, train_s = res.models, 0.0
        if retrain and noise:
            t0 = time.perf_counter()
            models = _train_apart(settings, scratch)
            train_s = time.perf_counter() - t0
        point = _ask_all(settings, with_models(res, kg, models), records)
        return point | {"requested": size, "synthetic": len(noise), "build_s": build_s, "train_s": train_s,
                        "retrained": bool(retrain and noise), "backend": backend(scratch), "growth": growth}


def _train_apart(settings: Settings, scratch: Settings) -> dict[str, Any]:
    """The models trained on ``scratch``'s graph, as ``index build`` trains them, in a process of its own (so that
    the peak RSS reported is the answering process's, as in a server that loads an index built elsewhere)."""
    out = scratch.home / "models.json"
    cmd = [sys.executable, "-m", "medpath.evaluation.scale", "--train-graph", str(scratch.home),
           "--graph-database", scratch.database_url, "--models-out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=child_env(MEDPATH_HOME=str(settings.home)), check=False)
    if done.returncode != 0 or not out.exists():
        why = [ln for ln in (done.stderr or done.stdout).splitlines() if ln.strip()] or [f"exit status {done.returncode}"]
        raise MedpathError(f"training on the grown graph failed: {why[-1]}")
    models: dict[str, Any] = json.loads(out.read_text())
    return models


def _train(settings: Settings, graph_home: Path, graph_database: str, out: Path) -> None:
    """``--train-graph``: fit the models over that graph (entity vectors from ``settings``' home) and write them."""
    home = dataclasses.replace(settings, database_url="")
    kg = open_graph(dataclasses.replace(home, home=graph_home, database_url=graph_database))
    out.write_text(json.dumps(fit_models(home, _paths_file(settings), kg)))


def _paths_file(settings: Settings) -> Path:
    """The gold paths the questions and the training come from."""
    return settings.data_dir / "drugmechdb" / "paths_dev.jsonl"


def _ask_all(settings: Settings, res: Any, records: list[Any]) -> dict[str, Any]:
    """Ask the questions on ``res``'s graph (after one warm-up); latency, Path-F1 and the process's peak RSS."""
    ctx = Context(interactive=False, resources=res, settings=settings, memory=False)
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
    return {"triples": len(res.kg), "ask_median_ms": percentile(lat, 50), "ask_p95_ms": percentile(lat, 95),
            "peak_rss_mb": peak_kb / 1024, "path_f1": sum(f1s) / len(f1s), "asked": len(records), "answered": answered}


def main() -> None:
    """``python -m medpath.evaluation.scale --size N``: one size; prints its result as one JSON line. (With
    ``--train-graph HOME --models-out FILE``: only the training on a grown graph, for :func:`measure_size`.)"""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--size", type=int, default=0)
    ap.add_argument("--questions", type=int, default=500)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--database", default="", help="A PostgreSQL server's URL: load each graph there.")
    ap.add_argument("--growth", choices=GROWTHS, default="entities", help="How the graph grows (medpath.evaluation.growth).")
    ap.add_argument("--no-retrain", action="store_true", help="Answer with the real graph's models.")
    ap.add_argument("--train-graph", type=Path, default=None, help="Only train: the models over this home's graph.")
    ap.add_argument("--graph-database", default="", help="With --train-graph: the graph's PostgreSQL database.")
    ap.add_argument("--models-out", type=Path, default=None, help="With --train-graph: where to write the models.")
    args = ap.parse_args()
    try:
        if args.train_graph and args.models_out:
            _train(Settings.from_env(), args.train_graph, args.graph_database, args.models_out)
            return
        print(json.dumps(measure_size(Settings.from_env(), args.size, args.questions, args.seed, args.database, args.growth,
                                                not args.no_retrain)))
    except (MedpathError, OSError, ValueError) as exc:  # the parent reports this line
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
