"""Benchmark: pgvector's HNSW index against FAISS Flat (exact) on the real embeddings.

The queries are the real questions of the check half, embedded by the project's embedder; the corpus is the index's
own dense rows (entity names, triples, PubMedQA sentences). For each ``hnsw.ef_search`` it reports Recall@k (the
share of FAISS's exact top k that HNSW also returns) and the median and p95 query time.

Usage: MEDPATH_DATABASE_URL=postgresql://... python bench/bench_pgvector_recall.py [--queries 300] [--k 10]
(the database loaded by ``medpath index build --database``; ``medpath stack up`` makes one). Not a pass/fail test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    """Measure and print the table."""
    import numpy as np

    from core.datasets import load_paths, split_tune_check
    from core.settings import Settings
    from memory.factory import open_vectors
    from memory.faiss_index import FaissIndex
    from memory.pg_vectors import register_vector
    from tools.embedder import make_embedder

    ap = argparse.ArgumentParser()
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--ef", default="40,100,200,400")
    args = ap.parse_args()
    settings = Settings.from_env()
    if not settings.database_url:
        sys.exit("set MEDPATH_DATABASE_URL to a database loaded by `medpath index build --database`")
    embedder = make_embedder(settings.embedder)
    exact = FaissIndex.load(settings.index_dir, embedder.model_id, embedder.dim)
    pg = open_vectors(settings, embedder.model_id, embedder.dim)
    records = split_tune_check(load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl"))[1][: args.queries]
    queries = np.asarray(embedder.embed([r.question for r in records]), dtype=np.float32)
    truth = [{i for i, _ in row} for row in exact.search(queries, args.k)]
    print(f"{len(exact.ids)} vectors (dim {exact.dim}), {len(queries)} check-half questions, k = {args.k}")
    print("| ef_search | Recall@k | median ms | p95 ms |\n|---:|---:|---:|---:|")
    for ef in [int(x) for x in args.ef.split(",")]:
        hits, times = [], []
        with pg.db.connection() as con:  # type: ignore[attr-defined]
            register_vector(con)
            con.execute(f"SET hnsw.ef_search = {ef}")
            for q, want in zip(queries, truth, strict=True):
                t0 = time.perf_counter()
                rows = con.execute("SELECT id FROM dense.vectors ORDER BY embedding <#> %s LIMIT %s", [q, args.k]).fetchall()
                times.append((time.perf_counter() - t0) * 1000)
                hits.append(len(want & {r[0] for r in rows}) / max(len(want), 1))
        times.sort()
        print(f"| {ef} | {statistics.mean(hits):.3f} | {statistics.median(times):.2f} | {times[int(0.95 * (len(times) - 1))]:.2f} |")


if __name__ == "__main__":
    main()
