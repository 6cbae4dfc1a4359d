"""How much the ranking leaves on the table: top-1 vs best-of-top-K Path-F1 on the held-out slice of tune.

Usage: python bench/bench_ranking.py [--top 50]
Runs the held-out drugs of the tune half (``medpath.training.inner_split``; never the check half)
through the compiled graph with ``top_k`` candidates kept, and prints the Path-F1 of the returned path,
the best Path-F1 among the candidates (an oracle pick), and where that best candidate was ranked.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    """Run and print."""
    from graphs.context import Context
    from graphs.qa import build_graph
    from medpath.datasets import load_paths, split_tune_check
    from medpath.metrics import mean, path_f1_best_chain
    from medpath.resources import load_resources
    from medpath.settings import Settings
    from medpath.training import inner_split

    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=50)
    args = ap.parse_args()
    s = Settings.from_env()
    res = load_resources(s)
    tune, _ = split_tune_check(load_paths(s.data_dir / "drugmechdb" / "paths_dev.jsonl"))
    valid, _ = inner_split(tune)
    graph = build_graph()
    got, best, ranks = [], [], Counter()
    for r in valid:
        out = graph.invoke({"question": r.question},
                           context=Context(interactive=False, resources=res, settings=s, memory=False, top_k=args.top))
        gold = [(t.head, t.relation, t.tail) for t in r.gold_triples]
        ev = [(t["head"], t["relation"], t["tail"]) for t in out.get("evidence", [])]
        got.append(path_f1_best_chain(ev, gold, r.gold_chains))
        fs = [path_f1_best_chain([(t["head"], t["relation"], t["tail"]) for t in c["triples"]], gold, r.gold_chains)
              for c in out.get("candidates", [])]
        best.append(max(fs, default=0.0))
        if fs:
            i = fs.index(max(fs))
            ranks["1" if i == 0 else "2-5" if i < 5 else "6-10" if i < 10 else ">10"] += 1
    print(f"{len(valid)} held-out tune questions; Path-F1 returned {mean(got):.3f}, best of top {args.top} {mean(best):.3f}")
    print("rank of the best candidate:", dict(sorted(ranks.items())))


if __name__ == "__main__":
    main()
