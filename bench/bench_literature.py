"""Benchmark: how often the literature pointer (``tools.literature``) points to the right study, and to a wrong one.

Usage: python bench/bench_literature.py [--questions data/drugmechdb/paths_dev.jsonl]

- **own study**: each of the 500 bundled PubMedQA questions (an article's title) asked against all 500 abstracts.
  The share that points to its own study, to another one, or to none.
- **left out**: each question asked with its own study removed from the abstracts, as a question about a study
  medpath does not ship is asked. Any pointer is then to another study: the share that gets one is the false-pointer
  rate, and each is printed so that a reader can judge whether it is on the question's topic.
- **graph questions**: the DrugMechDB questions of ``--questions`` ("How does X treat Y?"). medpath points to the
  literature only when the graph answers nothing, and none of these should look like a study.
- **time**: the median and 95th percentile of one ``closest`` call.

Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.datasets import load_paths
from medpath.metrics import percentile
from tools.literature import Literature


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--abstracts", type=Path, default=ROOT / "data" / "pubmedqa" / "pqal_dev.json")
    ap.add_argument("--questions", type=Path, default=ROOT / "data" / "drugmechdb" / "paths_dev.jsonl")
    args = ap.parse_args()
    t0 = time.perf_counter()
    lit = Literature.load(args.abstracts)
    studies = list(lit.studies.values())
    own = other = 0
    times = []
    for s in studies:
        t = time.perf_counter()
        found = lit.closest(s.title)
        times.append((time.perf_counter() - t) * 1000)
        own += bool(found and found.study.pmid == s.pmid)
        other += bool(found and found.study.pmid != s.pmid)
    n = len(studies)
    print(f"own study: {own}/{n} = {own / n:.3f} point to it, {other} to another, {n - own - other} to none")
    wrong = []
    for s in studies:
        rest = Literature([x for x in studies if x.pmid != s.pmid])
        found = rest.closest(s.title)
        if found is not None:
            wrong.append((s.title, found.study.title))
    print(f"left out: {len(wrong)}/{n} = {len(wrong) / n:.3f} get a pointer to another study")
    for asked, got in wrong:
        print(f"  {asked[:90]!r} -> {got[:90]!r}")
    graph_qs = [r.question for r in load_paths(args.questions)]
    pointed = [q for q in graph_qs if lit.closest(q) is not None]
    print(f"graph questions: {len(pointed)}/{len(graph_qs)} would get a pointer", *pointed[:5], sep="\n  ")
    print(f"time per question: median {statistics.median(times):.2f} ms, p95 {percentile(times, 95):.2f} ms; "
          f"whole bench {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
