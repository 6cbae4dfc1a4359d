"""How the path ranker's check-half Path-F1 grows with the curated mechanisms it learns from.

Usage: python bench/bench_learning_curve.py [--shares 0.25,0.5,0.75,1] [--draws 2] [--seeds 13,7,21]

A share of the tune half's drugs is drawn (by a salted hash of the drug id, one salt per draw; every question of a
drawn drug is kept). Three ways of learning from that share are measured, each on every check-half question:

- ``all``: what is learned from gold chains comes from the share, as ``medpath index build`` would fit it on a tune
  half that small: the walk's relation priors, the transition tables, the curated-chain counts, and the ranker's
  out-of-fold training rows (``medpath.ranker_training.oof_rows``); only the walk's temperature, one number, is the
  index's;
- ``rows``: the ranker trains on the share's questions only; the rows themselves, the walk and the check half's
  features are those of the whole tune half (what ``index build`` has now);
- ``counts``: the ranker trains on every tune question; the check half's curated-chain counts (the ``transfer``
  columns and their ``relative`` copies) come from the share only.

Each row is the mean over ``--seeds`` (one LightGBM booster per seed) of the top path's Path-F1 over every
check-half question (the drug and the disease linked by their gold ids, no linking, no reviewer; a question whose
walk finds nothing scores 0), over the first 500 of them (the questions of ``medpath eval kg --limit 500``, where
linking and the reviewer put the shipped ranker about 0.005 lower), and the best candidate of the pool.

A second table splits the check half by what the tune half's curators did with the same first target and disease
(``reuse``): whether another drug's chain with that pair continues as the question's gold does, and how the ranker
trained on the whole tune half does in each group.

Nothing here is a pass/fail test and nothing is chosen with it: it says whether the ranker is limited by its data.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.datasets import PathRecord, load_paths, split_tune_check
from core.settings import Settings
from medpath.ranker_training import Walked, curated_chains, gold_chains, label_paths, oof_rows, typed_chains, types_of
from medpath.services import build_services
from medpath.training import inner_split
from tools.curation import TRANSFER_FEATURES, CurationStats
from tools.edge_predictor import EmbeddingEdgePredictor, RelationPriors
from tools.path_ranker import ALL_FEATURES, FEATURES, PathRanker, TransitionTables
from tools.ppr import PersonalizedPageRank
from tools.ranker_fit import fit_lambdarank
from tools.resources import Resources
from tools.walker import CandidatePath, GraphWalker

TRANSFER = slice(len(FEATURES), len(FEATURES) + len(TRANSFER_FEATURES))
"""Where the transfer columns sit in a row of ``ALL_FEATURES``; the last ``len(FEATURES) + len(TRANSFER_FEATURES)``
columns are the shape and transfer columns minus their best value in the pool."""


@dataclasses.dataclass
class Pool:
    """One check-half question's candidates, their feature rows and Path-F1 (empty when the walk found none)."""

    paths: list[CandidatePath]
    x: np.ndarray
    y: np.ndarray


def drawn(records: Sequence[PathRecord], share: float, draw: int) -> list[PathRecord]:
    """The records of a ``share`` of the drugs, drawn by a salted hash of the drug id (``draw`` is the salt)."""
    if share >= 1:
        return list(records)
    key = lambda r: int(hashlib.sha1(f"curve{draw}:{r.drug_id or r.id}".encode()).hexdigest(), 16) % 10_000
    return [r for r in records if key(r) < share * 10_000]


def top_path_f1(pools: Sequence[Pool], score: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """Path-F1 of the best-scored candidate of each pool (ties as ``PathRanker.rank`` breaks them; 0 for none)."""
    out = []
    for p in pools:
        if not p.paths:
            out.append(0.0)
            continue
        s = score(p.x)
        best = min(range(len(s)), key=lambda i: (-s[i], p.paths[i].hops, [e.tail for e in p.paths[i].edges]))
        out.append(float(p.y[best]))
    return np.asarray(out)


class Curve:
    """The real graph, the tune and check halves and their question vectors, and the rows every point reuses."""

    def __init__(self, settings: Settings, res: Resources, seeds: Sequence[int]) -> None:
        """Walk the whole tune half out of fold and the check half as ``ask`` would (gold ids), once."""
        self.settings, self.res, self.seeds = settings, res, list(seeds)
        self.tune, self.check = split_tune_check(load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl"))
        self.type_of = types_of(res.kg)
        self.tune_vecs = dict(zip((r.id for r in self.tune), res.embed_many([r.question for r in self.tune]), strict=True))
        self.check_vecs = res.embed_many([r.question for r in self.check])
        self.walker = GraphWalker(res.kg, dataclasses.replace(settings.budget, wall_ms=math.inf))
        self.ppr = PersonalizedPageRank(res.kg)
        self.walked = self.rows_of(self.tune)
        self.pools = self.check_pools(res.predictor, res.ranker)
        self._shipped: np.ndarray | None = None

    def rows_of(self, tune: Sequence[PathRecord]) -> list[Walked]:
        """Out-of-fold training rows of ``tune`` (the walk's priors, the tables and the counts from its other folds)."""
        return oof_rows(self.res.kg, tune, [self.tune_vecs[r.id] for r in tune], self.res.predictor, self.res.node_vector,
                        self.settings.budget)

    def check_pools(self, predictor: EmbeddingEdgePredictor, ranker: PathRanker) -> list[Pool]:
        """Every check-half question walked with ``predictor`` and featurised by ``ranker``."""
        pools = []
        for r, qv in zip(self.check, self.check_vecs, strict=True):
            paths = self.walker.walk([r.drug_id], [r.disease_id], predictor.conf_fn(qv)).paths
            pools.append(Pool(paths, ranker.features(paths, qv), label_paths(paths, r)) if paths
                         else Pool([], np.zeros((0, len(ALL_FEATURES))), np.zeros(0)))
        return pools

    def fitted_on(self, tune: Sequence[PathRecord]) -> tuple[EmbeddingEdgePredictor, PathRanker]:
        """The walk's predictor and the path ranker (features only) with every gold-derived part fitted on ``tune``: the
        relation priors on the part ``index build`` fits them on (``inner_split``), the rest on all of it. The relation
        vectors (names embedded) and the temperature (one number, calibrated on the whole tune half) are the index's."""
        base = self.res.predictor
        fit = inner_split(list(tune))[1]
        priors = RelationPriors.fit([(self.type_of(t.head), t.relation, self.type_of(t.tail)) for r in fit for t in r.gold_triples],
                                    self.res.kg.relations)
        predictor = EmbeddingEdgePredictor(base.relations, base.relation_vectors, priors, base.embed, beta=base.beta,
                                           temperature=base.temperature)
        ranker = PathRanker(self.res.kg, TransitionTables.fit(typed_chains(self.type_of, tune)), priors.get, self.res.node_vector,
                            ppr=self.ppr, curation=CurationStats.fit(curated_chains(tune)))
        return predictor, ranker

    def per_question(self, rows: Sequence[Walked], pools: Sequence[Pool]) -> np.ndarray:
        """The top path's Path-F1 on each check-half question, the mean over the seeds' boosters trained on ``rows``."""
        return np.mean([top_path_f1(pools, fit_lambdarank([(w.x, w.y) for w in rows], ALL_FEATURES,
                                                          params={"seed": seed}).score) for seed in self.seeds], axis=0)

    def shipped(self) -> np.ndarray:
        """``per_question`` with everything learned from the whole tune half, as ``index build`` learns it (once)."""
        if self._shipped is None:
            self._shipped = self.per_question(self.walked, self.pools)
        return self._shipped

    def point(self, mode: str, share: float, draw: int) -> tuple[int, float, float, float]:
        """(training questions, Path-F1 over the check half, over its first 500, best candidate) of one point; at
        share 1 every mode is the shipped setup."""
        sub = drawn(self.tune, share, draw)
        if share >= 1:
            rows, pools = self.walked, self.pools
        elif mode == "all":
            rows = self.rows_of(sub)
            pools = self.check_pools(*self.fitted_on(sub))
        elif mode == "rows":
            keep = {r.id for r in sub}
            rows, pools = [w for w in self.walked if w.record.id in keep], self.pools
        else:
            rows, pools = self.walked, self.with_counts(CurationStats.fit(curated_chains(sub)))
        f1 = self.shipped() if share >= 1 else self.per_question(rows, pools)
        return len(rows), float(f1.mean()), float(f1[:500].mean()), float(np.mean([p.y.max() if len(p.y) else 0.0 for p in pools]))

    def with_counts(self, curation: CurationStats) -> list[Pool]:
        """The check pools with their transfer columns (and relative copies) recounted over ``curation``."""
        out = []
        n_rel = len(FEATURES) + len(TRANSFER_FEATURES)
        for r, p in zip(self.check, self.pools, strict=True):
            x = p.x.copy()
            if p.paths:
                x[:, TRANSFER] = curation.features([[(e.head, e.relation, e.tail) for e in q.edges] for q in p.paths],
                                                   r.disease_id)
                x[:, -n_rel:] = x[:, :n_rel] - x[:, :n_rel].max(0)
            out.append(Pool(p.paths, x, p.y))
        return out


def reuse(tune: Sequence[PathRecord], check: Sequence[PathRecord], f1: np.ndarray) -> list[tuple[str, int, float, float]]:
    """Per group of check-half questions, (group, questions, mean Path-F1 in ``f1``, share whose most frequent tune
    continuation is gold). A question's pair is its gold chains' (first target, disease); its continuation is a gold
    chain's steps after the first. The groups: no tune chain has the pair; a tune chain with the pair has one of the
    question's continuations; tune chains have the pair but none of its continuations."""
    seen: dict[tuple[str, str], Counter[tuple[tuple[str, str, str], ...]]] = defaultdict(Counter)
    for r in tune:
        for c in gold_chains(r):
            seen[(c[0][2], r.disease_id)][c[1:]] += 1
    groups: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for r, y in zip(check, f1, strict=True):
        chains = gold_chains(r)
        known: Counter[tuple[tuple[str, str, str], ...]] = Counter()
        for c in chains:
            known.update(seen.get((c[0][2], r.disease_id), Counter()))
        rest = {c[1:] for c in chains}
        group = ("pair unseen" if not known else "pair seen, a tune continuation is gold" if rest & set(known)
                 else "pair seen, every continuation new")
        groups[group].append((float(y), float(bool(known) and known.most_common(1)[0][0] in rest)))
    return [(g, len(v), float(np.mean([a for a, _ in v])), float(np.mean([b for _, b in v]))) for g, v in groups.items()]


def main() -> None:
    """Print one table row per mode, share and draw."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--shares", default="0.25,0.5,0.75,1", help="comma-separated shares of the tune half's drugs")
    ap.add_argument("--draws", type=int, default=2, help="draws of the drugs per share below 1")
    ap.add_argument("--seeds", default="13,7,21", help="comma-separated LightGBM seeds, averaged")
    ap.add_argument("--modes", default="all,rows,counts", help="comma-separated: all, rows, counts")
    args = ap.parse_args()
    settings = dataclasses.replace(Settings.from_env(), database_url="")
    t0 = time.perf_counter()
    curve = Curve(settings, build_services(settings).resources, [int(s) for s in args.seeds.split(",")])
    print(f"{len(curve.walked)} tune questions walked, {len(curve.check)} check-half questions "
          f"({time.perf_counter() - t0:.0f} s)", flush=True)
    print("| learned from | share of tune drugs | draw | training questions | Path-F1, check half | first 500 | best candidate |")
    print("|---|---:|---:|---:|---:|---:|---:|", flush=True)
    for mode in args.modes.split(","):
        for share in (float(s) for s in args.shares.split(",")):
            for draw in range(args.draws if share < 1 else 1):
                n, f1, first, best = curve.point(mode, share, draw)
                print(f"| {mode} | {share:.2f} | {draw} | {n} | {f1:.3f} | {first:.3f} | {best:.3f} |", flush=True)
    f1 = curve.shipped()
    print("\nWhere the check half's answers fail (the whole tune half; seeds averaged):")
    print("| check-half questions | count | Path-F1 | most frequent tune continuation is gold |\n|---|---:|---:|---:|")
    for group, n, mean_f1, majority in sorted(reuse(curve.tune, curve.check, f1)):
        print(f"| {group} | {n} | {mean_f1:.3f} | {majority:.3f} |")
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
