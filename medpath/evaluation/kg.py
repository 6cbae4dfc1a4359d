"""``medpath eval kg``: every system on the same gold questions, metrics by id and by name, failures recorded."""

from __future__ import annotations

import time
import traceback
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.datasets import PathRecord
from medpath.evaluation.systems import TARGET_TYPES
from medpath.metrics import (
    TripleKey,
    f1,
    hit_at_k,
    mean,
    path_f1_best_chain,
    percentile,
    recall_at_k,
)
from tools.linker import fold

__all__ = ["AnswerQuestion", "EntityKeys", "derive_answer_questions", "run_kg_eval", "score_question", "summarize"]


class EntityKeys:
    """Matches ids through the name and alias tables: ids sharing a folded name or alias get one key (union-find)."""

    def __init__(self, kg: Any) -> None:
        """Group every entity by its folded name and aliases."""

        parent: dict[str, str] = {}

        def find(x: str) -> str:
            while parent.get(x, x) != x:
                parent[x] = parent.get(parent[x], parent[x])
                x = parent[x]
            return x

        owner: dict[str, str] = {}
        for eid, ent in kg.entities.items():
            for label in (ent.name, *kg.aliases.get(eid, ())):
                key = fold(label)
                if not key:
                    continue
                if key in owner:
                    a, b = find(owner[key]), find(eid)
                    if a != b:
                        parent[max(a, b)] = min(a, b)
                else:
                    owner[key] = eid
        self._find = find

    def key(self, eid: str) -> str:
        """Canonical representative of an id."""
        return self._find(eid)

    def triples(self, ts: Sequence[TripleKey]) -> list[TripleKey]:
        """Triples with both ends mapped to their representatives."""
        return [(self.key(h), r, self.key(t)) for h, r, t in ts]


@dataclass(frozen=True)
class AnswerQuestion:
    """A question with an entity answer, derived from the gold paths (evaluation only)."""

    id: str
    question: str
    intent: str
    gold: frozenset[str]
    learned: frozenset[str] | None = None
    """The gold drugs whose curated chains the index learned from (the tune half's drugs; None: not known). The "new
    drugs" scores leave them out of the gold and of the answers: the never-seen question sets ask about drugs that
    nothing learned from."""


def derive_answer_questions(records: Sequence[PathRecord], kg: Any, limit: int = 100,
                            every: Sequence[PathRecord] = (), learned: Collection[str] | None = None) -> list[AnswerQuestion]:
    """"What drug treats Y?" for the diseases of ``records`` (gold: the drug of every record of ``every``, the
    whole question file, with disease Y) and "What does X target?" (gold: proteins the records' gold triples say
    drug X acts on directly), ``limit`` of each. ``learned``: the drugs whose chains the index learned from."""

    by_disease: dict[str, set[str]] = defaultdict(set)
    targets: dict[str, set[str]] = defaultdict(set)
    asked = {r.disease_id for r in records if r.drug_id and r.disease_id}
    for r in [*records, *every]:
        if r.drug_id and r.disease_id in asked:
            by_disease[r.disease_id].add(r.drug_id)
    for r in records:
        for t in r.gold_triples:
            if t.head == r.drug_id and (e := kg.node(t.tail)) is not None and e.type in TARGET_TYPES:
                targets[r.drug_id].add(t.tail)
    out: list[AnswerQuestion] = []
    for dis in sorted(by_disease)[:limit]:
        if kg.node(dis):
            gold = frozenset(by_disease[dis])
            out.append(AnswerQuestion(f"treats:{dis}", f"What drug treats {kg.name(dis)}?", "treats", gold,
                                      None if learned is None else gold & frozenset(learned)))
    for drug in sorted(targets)[:limit]:
        if kg.node(drug):
            out.append(AnswerQuestion(f"targets:{drug}", f"What does {kg.name(drug)} target?", "targets", frozenset(targets[drug])))
    return out


BEST_OF = (1, 5, 20, 100)
"""K of the best-of-top-K Path-F1 columns (the candidate pool's quality)."""
PATH_METRICS = ("recall@5", "hit@5", "path_f1", "path_f1_all", *(f"best@{k}" for k in BEST_OF))


def score_question(rec: PathRecord, retrieved: Sequence[TripleKey], path: Sequence[TripleKey], keys: EntityKeys | None = None,
                   pool: Sequence[Sequence[TripleKey]] = ()) -> dict[str, float]:
    """Recall@5, Hit@5, Path-F1 (best chain and all gold) and the best Path-F1 among the top K candidates of
    ``pool`` (the returned path alone when there is no pool) for one question; by name when ``keys`` is given."""
    gold = [(t.head, t.relation, t.tail) for t in rec.gold_triples]
    if keys is not None:
        gold, retrieved, path = keys.triples(gold), keys.triples(retrieved), keys.triples(path)
        pool = [keys.triples(p) for p in pool]
    chain_f1 = path_f1_best_chain(path, gold, rec.gold_chains)
    pool_f1 = [path_f1_best_chain(p, gold, rec.gold_chains) for p in pool] if pool else [chain_f1]
    return {
        "recall@5": recall_at_k(retrieved, gold, 5),
        "hit@5": hit_at_k(retrieved, gold, 5),
        "path_f1": chain_f1,
        "path_f1_all": f1(path, gold),
        **{f"best@{k}": max(pool_f1[:k]) for k in BEST_OF},
    }


def answer_scores(answers: Sequence[str], gold: Collection[str], k: int = 5) -> dict[str, float]:
    """Hit@1, Hit@5 and reciprocal rank of the first correct answer among the top ``k`` (0 when none)."""
    top = list(dict.fromkeys(answers))[:k]
    rank = next((i + 1 for i, a in enumerate(top) if a in gold), 0)
    return {"hit@1": 1.0 if rank == 1 else 0.0, "hit@5": 1.0 if rank else 0.0, "mrr": 1.0 / rank if rank else 0.0}


def _run_one(system: Any, question: str, intent: str | None) -> tuple[Any, float, str]:
    t0 = time.perf_counter()
    try:
        out = system.run(question, intent)
        err = ""
    except Exception as exc:  # noqa: BLE001 - a failing question is a miss, recorded, and the run goes on
        out = None
        where = traceback.extract_tb(exc.__traceback__)[-1]
        err = f"{type(exc).__name__}: {exc} (at {Path(where.filename).name}:{where.lineno} in {where.name})"
    return out, (time.perf_counter() - t0) * 1000, err


def run_kg_eval(
    records: Sequence[PathRecord],
    systems: Sequence[Any],
    kg: Any,
    *,
    answer_questions: Sequence[AnswerQuestion] = (),
    on_row: Callable[[dict[str, Any]], None] | None = None,
    tick: Callable[[], None] | None = None,
) -> list[dict[str, Any]]:
    """Run every system on every question; returns one row per (system, question)."""
    keys = EntityKeys(kg)
    rows: list[dict[str, Any]] = []
    for system in systems:
        for rec in records:
            out, ms, err = _run_one(system, rec.question, None)
            row: dict[str, Any] = {"system": system.name, "kind": "path", "id": rec.id, "question": rec.question,
                                   "latency_ms": round(ms, 2), "error": err}
            if out is None:
                row.update({"status": "ERROR", "metrics": dict.fromkeys(PATH_METRICS, 0.0),
                            "metrics_by_name": dict.fromkeys(PATH_METRICS, 0.0),
                            "retrieved": [], "path": [], "timings": {}})
            else:
                row.update({"status": out.status, "metrics": score_question(rec, out.retrieved, out.path, pool=out.pool),
                            "metrics_by_name": score_question(rec, out.retrieved, out.path, keys, out.pool),
                            "retrieved": [list(t) for t in out.retrieved[:5]], "path": [list(t) for t in out.path],
                            "timings": {k: round(v, 2) for k, v in out.timings.items()}})
            row["hops_found"] = len(row["path"])
            row["hops_gold"] = min((len(c) for c in rec.gold_chains), default=len(rec.gold_triples))
            rows.append(row)
            if on_row:
                on_row(row)
            if tick:
                tick()
        for q in answer_questions:
            out, ms, err = _run_one(system, q.question, q.intent)
            answers = out.answers[:5] if out is not None else []
            scores = answer_scores(answers, q.gold)
            new_drugs = None
            if q.learned is not None and (new := q.gold - q.learned):
                new_drugs = answer_scores([a for a in answers if a not in q.learned], new)
            row = {"new_drug_scores": new_drugs,
                   "system": system.name, "kind": q.intent, "id": q.id, "question": q.question, "latency_ms": round(ms, 2),
                   "error": err, "status": "ERROR" if out is None else out.status, "answer": answers[0] if answers else None,
                   "answers": answers, "correct": scores["hit@1"], "answer_scores": scores, "gold": sorted(q.gold)}
            rows.append(row)
            if on_row:
                on_row(row)
            if tick:
                tick()
    return rows


def summarize(rows: Sequence[dict[str, Any]], baseline: str = "dense-only") -> dict[str, dict[str, Any]]:
    """Per-system means, answer accuracy, latency and error counts, and ratios against ``baseline``."""
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by[r["system"]].append(r)
    out: dict[str, dict[str, Any]] = {}
    for name, rs in by.items():
        paths = [r for r in rs if r["kind"] == "path"]
        m: dict[str, Any] = {"questions": len(paths), "errors": sum(1 for r in rs if r["error"])}
        for metric in PATH_METRICS:
            m[metric] = mean([r["metrics"][metric] for r in paths])
            m[f"{metric}_by_name"] = mean([r["metrics_by_name"][metric] for r in paths])
        for kind in ("treats", "targets"):
            ans = [r["correct"] for r in rs if r["kind"] == kind]
            m[f"answer_acc_{kind}"] = mean(ans)
            m[f"answer_questions_{kind}"] = len(ans)
            new = [r["new_drug_scores"] for r in rs if r["kind"] == kind and r.get("new_drug_scores")]
            for metric in ("hit@1", "hit@5", "mrr"):
                m[f"answer_{metric}_{kind}"] = mean([r["answer_scores"][metric] for r in rs if r["kind"] == kind])
                if new:  # some gold drug is one the index never learned from
                    m[f"answer_{metric}_{kind}_new"] = mean([s[metric] for s in new])
        lat = [r["latency_ms"] for r in paths]
        m["latency_median_ms"] = percentile(lat, 50)
        m["latency_p95_ms"] = percentile(lat, 95)
        nodes: dict[str, list[float]] = defaultdict(list)
        for r in paths:
            for node, v in r.get("timings", {}).items():
                nodes[node].append(v)
        m["node_latency_median_ms"] = {k: percentile(v, 50) for k, v in sorted(nodes.items())}
        statuses: dict[str, int] = defaultdict(int)
        for r in paths:
            statuses[r["status"]] += 1
        m["statuses"] = dict(statuses)
        out[name] = m
    base = out.get(baseline)
    for m in out.values():
        if base:
            m["ratio_recall@5"] = m["recall@5"] / base["recall@5"] if base["recall@5"] else float("nan")
            m["ratio_path_f1"] = m["path_f1"] / base["path_f1"] if base["path_f1"] else float("nan")
    return out
