"""``medpath eval scale``: the real graph plus seeded distractor edges on real nodes, at growing sizes.

Each size writes a fresh ``public.duckdb`` (the same writer as ``index build``) and loads it,
which is the graph build that is timed; then dev questions are asked through the compiled
graph (memory off). Distractors are synthetic entities of real types joined to real nodes
by real relation labels (10 % join two real nodes), so the walker sees many more neighbours
at every real node. The dense index and the learned models stay those of the real graph
(distractors have no text to embed).
"""

from __future__ import annotations

import dataclasses
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.context import Context
from core.datasets import Node, Triple, load_nodes, load_paths
from core.settings import Settings
from graphs.qa import build_graph
from medpath.metrics import percentile
from medpath.services import build_services
from memory.factory import open_graph, write_graph
from tools.resources import ranker_from_models

__all__ = ["distractors", "run_scale"]


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
              echo: Callable[[str], None] = print) -> list[dict[str, Any]]:
    """Build and ask at each size; one result per size."""

    res = build_services(settings).resources
    nodes = load_nodes(settings.data_dir / "drugmechdb" / "nodes.tsv")
    base = [Triple(e.head, e.relation, e.tail) for e in res.kg.edges()]
    relations = sorted({t.relation for t in base})
    questions = [r.question for r in load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl", limit=n_questions)]
    graph = build_graph()
    points = []
    for size in sizes:
        extra = max(0, size - len(base))
        syn, noise = distractors(nodes, relations, extra, seed)
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            scratch = dataclasses.replace(settings, home=Path(tmp))
            scratch.index_dir.mkdir(parents=True)
            write_graph(scratch, [*nodes, *syn], [*base, *noise])
            kg = open_graph(scratch)
            build_s = time.perf_counter() - t0
        m = res.models
        ranker = ranker_from_models(kg, m, res.priors, res.node_vector)
        big = dataclasses.replace(res, kg=kg, ranker=ranker)
        ctx = Context(interactive=False, resources=big, settings=settings, memory=False)
        graph.invoke({"question": questions[0]}, context=ctx)  # warm-up
        lat, answered = [], 0
        for q in questions:
            t0 = time.perf_counter()
            out = graph.invoke({"question": q}, context=ctx)
            lat.append((time.perf_counter() - t0) * 1000)
            answered += str(out.get("status")) == "ANSWERED"
        p = {"triples": len(kg), "requested": size, "distractors": len(noise), "build_s": build_s,
             "ask_median_ms": percentile(lat, 50), "ask_p95_ms": percentile(lat, 95), "asked": len(questions), "answered": answered}
        echo(f"{p['triples']:>9,} triples: build {build_s:6.1f} s, ask median {p['ask_median_ms']:6.1f} ms, "
             f"p95 {p['ask_p95_ms']:6.1f} ms, {answered}/{len(questions)} answered")
        points.append(p)
        del kg, big, ranker
    return points
