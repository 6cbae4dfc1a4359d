"""Issue 13: labels, leakage, determinism of the LambdaMART path ranker and of the triple scorer, and ranked
drug-for-disease answers."""

from __future__ import annotations

import dataclasses
import math
import os
from typing import Any

import lightgbm as lgb
import numpy as np
import pytest

import tools.walker as walker_module
from core.datasets import Node, PathRecord, Triple, load_paths, split_tune_check
from core.errors import StoreError
from core.settings import Settings
from medpath import ranker_training
from medpath.ranker_training import (
    curated_chains,
    fold_of,
    label_paths,
    oof_rows,
    oof_scores,
    triple_groups,
    vocabulary,
)
from memory import factory
from memory.protocols import Edge
from tools.answers import rank_endpoints
from tools.booster import Booster
from tools.curation import TRANSFER_FEATURES, CurationStats
from tools.path_ranker import ALL_FEATURES, PathRanker, TransitionTables
from tools.ranker_fit import fit_lambdarank, fit_triple_model
from tools.ranker_models import graded_labels, load_model
from tools.triple_scorer import CATEGORICAL, TRIPLE_FEATURES, TripleScorer, Vocabulary, bagged_rows, triple_rows
from tools.walker import CandidatePath, GraphWalker, StopReason


def _path(*steps: tuple[str, str, str]) -> CandidatePath:
    return CandidatePath(tuple(Edge(h, r, t) for h, r, t in steps), tuple(0.5 for _ in steps))


def _record(rid: str, drug: str, disease: str, triples: list[tuple[str, str, str]], chains: list[list[int]]) -> PathRecord:
    return PathRecord(id=rid, question=f"How does {drug} treat {disease}?", drug=drug, drug_id=drug, disease=disease,
                      disease_id=disease, gold_triples=tuple(Triple(h, r, t) for h, r, t in triples),
                      gold_chains=tuple(tuple(c) for c in chains))


# ---------------------------------------------------------------- labels

def test_graded_labels_round_path_f1_to_quarters() -> None:
    assert graded_labels(np.array([0.0, 0.12, 0.13, 0.5, 0.74, 0.9, 1.0, 1.2])).tolist() == [0, 0, 1, 2, 3, 4, 4, 4]


def test_labels_take_the_best_matching_gold_chain() -> None:
    # two gold chains: D→P→Y and D→P→Q→Y; a candidate is scored against the one it matches best
    rec = _record("r", "D", "Y", [("D", "inhibits", "P"), ("P", "causes", "Y"), ("P", "regulates", "Q"), ("Q", "causes", "Y")],
                  [[0, 1], [0, 2, 3]])
    exact_short = _path(("D", "inhibits", "P"), ("P", "causes", "Y"))
    exact_long = _path(("D", "inhibits", "P"), ("P", "regulates", "Q"), ("Q", "causes", "Y"))
    half = _path(("D", "inhibits", "P"), ("P", "other", "Y"))             # 1 of 2 right: F1 0.5 against chain 1
    wrong_relation = _path(("D", "activates", "P"), ("P", "other", "Y"))  # right nodes, wrong relations: 0
    y = label_paths([exact_short, exact_long, half, wrong_relation], rec)
    assert y.tolist() == pytest.approx([1.0, 1.0, 0.5, 0.0])
    assert graded_labels(y).tolist() == [4, 4, 2, 0]


# ---------------------------------------------------------------- transfer features and leakage

def test_transfer_features_count_other_drugs_chains() -> None:
    chains = [("A", "Y", (("A", "inhibits", "T"), ("T", "regulates", "X"), ("X", "causes", "Y"))),
              ("B", "Y", (("B", "inhibits", "T"), ("T", "regulates", "X"), ("X", "causes", "Y")))]
    stats = CurationStats.fit(chains)
    cand = [("C", "inhibits", "T"), ("T", "regulates", "X"), ("X", "causes", "Y")]
    other = [("C", "inhibits", "T"), ("T", "binds", "Z"), ("Z", "causes", "Y")]
    row, row_other = (dict(zip(TRANSFER_FEATURES, r, strict=True)) for r in stats.features([cand, other], "Y"))
    assert row["t_edge_frac"] == 1.0 and row_other["t_edge_frac"] == 0.0
    assert row["t_suffix_disease"] == 2.0 and row_other["t_suffix_disease"] == 0.0
    assert row["t_continuation_max"] == 1.0  # both drugs acting on T continue through T→X
    assert row["t_target_n"] == pytest.approx(np.log1p(2))


def test_excluding_a_drug_equals_never_counting_it() -> None:
    mine = ("D", "Y", (("D", "inhibits", "T"), ("T", "regulates", "X"), ("X", "causes", "Y")))
    others = [("A", "Y", (("A", "inhibits", "T"), ("T", "regulates", "W"), ("W", "causes", "Y"))),
              ("B", "Z", (("B", "inhibits", "T"), ("T", "regulates", "X"), ("X", "causes", "Z")))]
    paths = [list(mine[2]), [("D", "inhibits", "T"), ("T", "regulates", "W"), ("W", "causes", "Y")]]
    with_own = CurationStats.fit([*others, mine]).features(paths, "Y", exclude_drug="D")
    without = CurationStats.fit(others).features(paths, "Y")
    assert with_own == without
    # and the own chain does matter when it is not excluded, so the test can fail
    assert CurationStats.fit([*others, mine]).features(paths, "Y") != without


def _changed_gold(r: PathRecord, kg: Any) -> PathRecord:
    """The record with its gold chain replaced by another path out of its drug (a different 'right answer')."""
    first = next(e for e in kg.out_edges(r.drug_id) if (e.head, e.relation, e.tail) not in
                 {(t.head, t.relation, t.tail) for t in r.gold_triples})
    last = kg.in_edges(r.disease_id)[0]
    triples = (Triple(first.head, first.relation, first.tail), Triple(last.head, last.relation, last.tail))
    return dataclasses.replace(r, gold_triples=triples, gold_chains=((0, 1),))


@pytest.fixture(scope="module")
def tune_sample(resources: Any) -> list[PathRecord]:
    tune, _ = split_tune_check(load_paths(resources.settings.data_dir / "drugmechdb" / "paths_dev.jsonl"))
    by_fold: dict[int, list[PathRecord]] = {}
    for r in tune:
        if len(by_fold.setdefault(fold_of(r), [])) < 8:
            by_fold[fold_of(r)].append(r)
    return [r for rs in by_fold.values() for r in rs]


def _walk(resources: Any, records: list[PathRecord]) -> dict[str, Any]:
    vecs = resources.embed_many([r.question for r in records])
    return {w.record.id: w for w in oof_rows(resources.kg, records, vecs, resources.predictor, resources.node_vector,
                                              resources.settings.budget)}


def test_training_features_never_see_the_question_s_own_gold(resources: Any, tune_sample: list[PathRecord]) -> None:
    before = _walk(resources, tune_sample)
    victim = next(r for r in tune_sample if r.id in before and len(before[r.id].paths) > 3)
    changed = [(_changed_gold(r, resources.kg) if r.id == victim.id else r) for r in tune_sample]
    after = _walk(resources, changed)
    assert [p.edges for p in after[victim.id].paths] == [p.edges for p in before[victim.id].paths]
    np.testing.assert_array_equal(after[victim.id].x, before[victim.id].x)
    assert not np.array_equal(after[victim.id].y, before[victim.id].y)  # the labels did change
    # a question of another drug in another fold does see the change (the counts are live, so the test can fail)
    moved = [r.id for r in tune_sample if fold_of(r) != fold_of(victim) and r.id in before
             and not np.array_equal(after[r.id].x, before[r.id].x)]
    assert moved


def test_answer_time_score_ignores_the_question_s_own_gold(resources: Any, tune_sample: list[PathRecord]) -> None:
    ranker = resources.ranker
    r = next(r for r in tune_sample if r.drug_id in ranker.curation.drugs)
    qv = resources.embed_one(r.question)
    paths = GraphWalker(resources.kg, resources.settings.budget).walk([r.drug_id], [r.disease_id],
                                                                      resources.predictor.conf_fn(qv)).paths
    assert paths
    altered = [c for c in ranker.curation.chains if c[0] != r.drug_id] + curated_chains([_changed_gold(r, resources.kg)])
    other = PathRanker(ranker.kg, ranker.tables, ranker.prior, ranker.node_vector, ranker.model, ranker.ppr,
                       curation=CurationStats.fit(altered))
    np.testing.assert_array_equal(other.features(paths, qv), ranker.features(paths, qv))
    np.testing.assert_array_equal(other.model.score(other.features(paths, qv)), ranker.model.score(ranker.features(paths, qv)))
    # the same change is visible to another drug's question (so the test can fail)
    probe = [Edge(x.head, x.relation, x.tail) for x in _changed_gold(r, resources.kg).gold_triples]
    stranger = _path(("SOME:DRUG", "increases activity of", probe[0].tail), (probe[1].head, probe[1].relation, probe[1].tail))
    assert not np.array_equal(other.features([stranger], qv), ranker.features([stranger], qv))


# ---------------------------------------------------------------- determinism

def test_two_builds_give_identical_rankings(resources: Any, tune_sample: list[PathRecord]) -> None:
    first, second = _walk(resources, tune_sample), _walk(resources, tune_sample)
    assert first.keys() == second.keys()
    for k in first:
        np.testing.assert_array_equal(first[k].x, second[k].x)
    groups = [(w.x, w.y) for w in first.values()]
    m1 = fit_lambdarank(groups, ALL_FEATURES, rounds=40)
    m2 = fit_lambdarank([(w.x, w.y) for w in second.values()], ALL_FEATURES, rounds=40)
    assert m1.model == m2.model
    for w in first.values():
        assert np.argsort(-m1.score(w.x), kind="stable").tolist() == np.argsort(-m2.score(w.x), kind="stable").tolist()


def test_training_walks_do_not_depend_on_the_clock(resources: Any, tune_sample: list[PathRecord],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    records = tune_sample[:10]
    calm = _walk(resources, records)
    ticks = iter(range(10**9))
    monkeypatch.setattr(walker_module.time, "perf_counter", lambda: float(next(ticks)))  # a second per reading
    busy = _walk(resources, records)
    assert calm.keys() == busy.keys()
    for k in calm:
        assert [p.edges for p in busy[k].paths] == [p.edges for p in calm[k].paths]
        np.testing.assert_array_equal(busy[k].x, calm[k].x)
    # the same clock does stop a walk of ``ask`` (so the test can fail)
    r = next(r for r in records if r.id in calm)
    conf = resources.predictor.conf_fn(resources.embed_many([r.question])[0])
    cut = GraphWalker(resources.kg, resources.settings.budget).walk([r.drug_id], [r.disease_id], conf)
    assert cut.stop == StopReason.TIME_BUDGET and len(cut.paths) < len(calm[r.id].paths)


def test_worker_processes_give_the_rows_of_one_process(resources: Any, tune_sample: list[PathRecord],
                                                     monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """The build walks the tune half in forked workers; every row, path and label is the one a single process gives."""
    vecs = resources.embed_many([r.question for r in tune_sample])
    args = (resources.kg, tune_sample, vecs, resources.predictor, resources.node_vector, resources.settings.budget)
    here = oof_rows(*args)
    monkeypatch.setattr(ranker_training, "PARALLEL_FROM", 1)  # the sample's folds are small
    walk = ranker_training._FoldWalk.run

    def walk_and_sign(job: Any, part: range) -> Any:  # each process that walks leaves its id
        (tmp_path / f"worker-{os.getpid()}").touch()
        return walk(job, part)

    monkeypatch.setattr(ranker_training._FoldWalk, "run", walk_and_sign)
    apart = oof_rows(*args, workers=2)
    workers = {int(f.name.split("-")[1]) for f in tmp_path.glob("worker-*")}
    # the walks ran in other processes (a part a worker could not give back is walked here: core.forking)
    assert workers - {os.getpid()}
    assert [w.record.id for w in apart] == [w.record.id for w in here] and here
    for a, b in zip(apart, here, strict=True):
        assert [(p.edges, p.confs) for p in a.paths] == [(p.edges, p.confs) for p in b.paths]
        np.testing.assert_array_equal(a.x, b.x)
        np.testing.assert_array_equal(a.y, b.y)


def test_the_c_library_scores_equal_lightgbm_and_refuse_bad_input() -> None:
    rng = np.random.default_rng(3)
    groups = [(rng.normal(size=(12, 5)), rng.uniform(size=12)) for _ in range(30)]
    model = fit_lambdarank(groups, [f"c{i}" for i in range(5)], rounds=20)
    rows = rng.normal(size=(50, 5))
    rows[3, 2] = np.nan  # a missing value takes the trees' default branch in both
    reference = lgb.Booster(model_str=model.model).predict(rows, num_threads=1)
    np.testing.assert_array_equal(Booster(model.model).predict(rows), reference)
    for threads in (1, 3):  # each row is scored alone: the scores do not depend on the threads
        np.testing.assert_array_equal(Booster(model.model).predict(rows, num_threads=threads), reference)
    np.testing.assert_array_equal(model.score(rows), reference)
    with pytest.raises(ValueError, match="columns"):
        Booster(model.model).predict(rows[:, :4])
    with pytest.raises(ValueError, match="LightGBM"):
        Booster("not a model")
    with pytest.raises(StoreError, match="index build"):  # a broken models.json: one clear line, no traceback
        load_model({"kind": "lambdarank", "model": "tree\nbroken", "names": ["c0"]}, ["c0"])


# ---------------------------------------------------------------- ranked drug-for-disease answers

def test_rank_endpoints_keeps_the_best_path_per_entity() -> None:
    a1 = _path(("A", "inhibits", "T"), ("T", "causes", "Y"))
    b1 = _path(("B", "inhibits", "T"), ("T", "causes", "Y"))
    a2 = _path(("A", "binds", "U"), ("U", "causes", "Y"))
    types = {"A": "Drug", "B": "Drug", "T": "Protein", "U": "Protein", "Y": "Disease"}
    got = rank_endpoints([a1, b1, a2], "start", ["Drug"], types.__getitem__)
    assert [(x, p is a1 or p is b1) for x, p in got] == [("A", True), ("B", True)]
    assert rank_endpoints([a1, b1], "start", ["Drug"], types.__getitem__, exclude=["A"])[0][0] == "B"
    names = {"A": "aspirin", "B": "Aspirin", "Y": "pain"}  # two ids, one name: one answer, the first
    assert [x for x, _ in rank_endpoints([a1, b1], "start", ["Drug"], types.__getitem__, key=lambda n: names[n].casefold())] == ["A"]
    types["A"] = "ChemicalSubstance"  # ... unless the later one's type is preferred: it takes the first one's place
    got = rank_endpoints([a1, b1], "start", ["Drug", "ChemicalSubstance"], types.__getitem__, key=lambda n: names[n].casefold())
    assert [(x, p is b1) for x, p in got] == [("B", True)]


def test_structure_counts_the_neighbours_an_edge_s_ends_share(tmp_path: Any) -> None:
    """Each edge scores log(1 + the neighbours its two ends share); the path takes the minimum and the mean. A
    triple whose ends share no neighbour (what a random triple usually is) scores 0."""
    types = {"D": "Drug", "T": "Protein", "U": "Protein", "X": "BiologicalProcess", "Y": "Disease"}
    steps = [("D", "inhibits", "T"), ("T", "regulates", "X"), ("X", "causes", "Y")]
    extra = [("D", "inhibits", "U"), ("T", "interacts with", "U"), ("U", "regulates", "X"), ("T", "causes", "Y")]

    def ranker(name: str, triples: list[tuple[str, str, str]]) -> PathRanker:
        home = dataclasses.replace(Settings.from_env(), home=tmp_path / name, database_url="")
        home.index_dir.mkdir(parents=True)
        factory.write_graph(home, [Node(k, k.lower(), v, ()) for k, v in types.items()], [Triple(*t) for t in triples])
        return PathRanker(factory.open_graph(home), TransitionTables(), lambda *a: 0.0, lambda x: None)

    other = _path(("D", "inhibits", "U"), ("U", "regulates", "X"), ("X", "causes", "Y"))
    rows = ranker("dense", steps + extra).features([_path(*steps), other], None)
    col = {n: rows[:, i].tolist() for i, n in enumerate(ALL_FEATURES)}
    # D-T share U; T-X share U and Y; X-Y share T. D-U, U-X and X-Y share T.
    assert col["s_common_min"] == pytest.approx([math.log(2), math.log(2)])
    assert col["s_common_mean"] == pytest.approx([(2 * math.log(2) + math.log(3)) / 3, math.log(2)])
    bare = ranker("chain", steps).features([_path(*steps)], None)[0]
    assert bare[ALL_FEATURES.index("s_common_min")] == bare[ALL_FEATURES.index("s_common_mean")] == 0.0


def test_a_cause_is_not_a_treatment() -> None:
    from tools.answers import lowers

    cause = _path(("U", "positively correlated with", "Y"))
    drug = _path(("B", "decreases activity of", "T"), ("T", "positively regulates", "Y"))
    unsigned = _path(("P", "participates in", "Y"))
    assert not lowers(cause) and lowers(drug) and lowers(unsigned)
    assert not lowers(_path(("P", "contraindicated for", "Y")))  # a contraindication is never a treatment
    types = {"U": "ChemicalSubstance", "B": "Drug", "T": "Protein", "Y": "Disease"}
    assert [x for x, _ in rank_endpoints([cause, drug], "start", ["Drug", "ChemicalSubstance"], types.__getitem__,
                                         keep=lowers)] == ["B"]


def test_which_drug_treats_gives_ranked_drugs_with_paths_and_citations(run_graph: Any, resources: Any) -> None:
    out, _ = run_graph({"question": "What drug treats gout?"}, interactive=False, memory=False)
    ranked = out["ranked_answers"]
    assert 2 <= len(ranked) <= 5
    assert [a["rank"] for a in ranked] == list(range(1, len(ranked) + 1))
    assert len({a["id"] for a in ranked}) == len(ranked)
    for a in ranked:
        assert resources.kg.node(a["id"]).type in ("Drug", "ChemicalSubstance")
        triples = a["path"]["triples"]
        assert triples[0]["head"] == a["id"]
        cited = {c["id"] for c in a["citations"] if "id" in c}
        assert {t["head"] for t in triples} | {t["tail"] for t in triples} <= cited
    assert "Ranked: 1. " + ranked[0]["name"] in out["answer"]


def test_drugs_are_listed_before_chemicals_and_pagerank_weighs_more() -> None:
    from tools.answers import by_type_preference, fuse

    types = {"h": "ChemicalSubstance", "a": "Drug", "p": "Protein", "b": "Drug"}
    assert by_type_preference(["h", "p", "a", "b"], ["Drug", "ChemicalSubstance"], types.__getitem__) == ["a", "b", "h", "p"]
    # path ranks a > b > c, PageRank c > b > a. Equal weights: a 1 + 1/3, b 1, c 1/3 + 1 (a tie kept in order of
    # first appearance). PageRank weighted 3: c 1/3 + 3, a 1 + 1, b 1/2 + 3/2.
    assert fuse(["a", "b", "c"], ["c", "b", "a"]) == ["a", "c", "b"]
    assert fuse(["a", "b", "c"], ["c", "b", "a"], weights=(1.0, 3.0)) == ["c", "a", "b"]


def test_an_endogenous_chemical_never_displaces_a_drug(run_graph: Any, resources: Any) -> None:
    """"Acetylated histones" reach AIDS-related Kaposi sarcoma by a path, and used to be listed among its drugs."""
    out, _ = run_graph({"question": "Which drugs treat AIDS-related Kaposi sarcoma?"}, interactive=False, memory=False)
    types = [resources.kg.node(a["id"]).type for a in out["ranked_answers"]]
    assert types and types == sorted(types, key=lambda t: t != "Drug"), types


def test_the_best_evidence_for_which_drug_treats_is_a_drug_s_path(run_graph: Any, resources: Any) -> None:
    """"Antiviral agent" (a chemical) reaches the infection by the reviewer's best path, and used to be the evidence."""
    out, _ = run_graph({"question": "What drug treats Human immunodeficiency virus infection?"}, interactive=False, memory=False)
    assert resources.kg.node(out["evidence"][0]["head"]).type == "Drug"
    assert out["answer"].split(": ", 1)[1].startswith(resources.kg.name(out["evidence"][0]["head"]))


def test_which_drug_treats_reviews_the_ranked_drugs_paths(run_graph: Any) -> None:
    """The walk's best paths to Influenza start at chemicals ("Capsid Proteins"), which the answer used to list as
    "drugs with a verified mechanism"; the reviewer now judges the ranked drugs' paths."""
    out, _ = run_graph({"question": "Which drugs treat Influenza?"}, interactive=False, memory=False)
    ranked = [a["path"]["triples"] for a in out["ranked_answers"]]
    assert ranked and [c["triples"] for c in out["candidates"][: len(ranked)]] == ranked[: len(out["candidates"])]
    assert "Capsid Proteins" not in out["answer"].split(". Ranked:")[0]


def test_which_drug_treats_asked_another_way_gives_the_same_kind_of_answer(run_graph: Any) -> None:
    plain, _ = run_graph({"question": "What drug treats gout?"}, interactive=False, memory=False)
    for question in ("What can I take for gout?", "Drugs for gout", "How do you treat gout?", "Gout: which drugs treat it?"):
        out, _ = run_graph({"question": question}, interactive=False, memory=False)
        assert out["intent"] == "treats" and out["targets"] == plain["targets"], question
        assert {a["id"] for a in out["ranked_answers"]} & {a["id"] for a in plain["ranked_answers"]}, question


# ---------------------------------------------------------------- the paraphrased check half

def _paraphraser() -> Any:
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("make_paraphrases", Path(__file__).resolve().parent.parent / "bench" / "make_paraphrases.py")
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def test_paraphrases_are_seeded_and_keep_the_entities_linkable(resources: Any) -> None:
    import random

    mod = _paraphraser()
    assert mod.uninvert("Hypertension, Pulmonary") == "Pulmonary Hypertension"
    assert mod.uninvert("Diabetes Mellitus, Type 2") == "Diabetes Mellitus, Type 2"  # digits: left alone
    rec = {"drug": "imatinib", "drug_id": "x", "disease": "Leukemia, Myeloid", "disease_id": "y",
           "question": "How does imatinib treat Leukemia, Myeloid?"}
    brands = {"imatinib": ["Gleevec"]}
    assert mod.rewrite(rec, random.Random(7), {}, brands) == mod.rewrite(rec, random.Random(7), {}, brands)
    kinds = {mod.rewrite(rec, random.Random(seed), {}, brands)[1] for seed in range(40)}
    assert kinds == {"reorder", "lower", "synonym", "brand"}
    # a brand name links to its generic drug through the brand table
    assert resources.linker.link("Gleevec").best.name.lower() == "imatinib"


def test_a_models_file_from_before_lambdamart_still_ranks() -> None:
    from tools.path_ranker import FEATURES
    from tools.ranker_models import RankerModel

    old = RankerModel.identity(FEATURES).to_json()
    old.pop("kind")  # the previous models.json had no kind
    model = load_model(old, ALL_FEATURES)
    x = np.zeros((3, len(ALL_FEATURES)))
    x[:, FEATURES.index("hops")] = [3, 1, 2]
    assert np.argsort(-model.score(x)).tolist() == [1, 2, 0]


# ---------------------------------------------------------------- the triple scorer (the retrieved triples' order)

A = [("D", "inhibits", "T"), ("T", "regulates", "X"), ("X", "causes", "Y")]
B = [("D", "inhibits", "T"), ("T", "binds", "Z"), ("Z", "causes", "Y")]
C = [("D", "activates", "U"), ("U", "causes", "Y")]
VOCAB = Vocabulary(["activates", "binds", "causes", "inhibits", "regulates"], ["Disease", "Drug", "Protein"])
TYPES = {"D": "Drug", "Y": "Disease"}
DEGREE = {"T": 9, "D": 3}


def _rows(curation: CurationStats, **kw: Any) -> tuple[list[tuple[str, str, str]], list[dict[str, float]]]:
    keys, x = triple_rows([C, A, B], np.array([0.0, 2.0, 1.0]), VOCAB, lambda n: TYPES.get(n, "Protein"),
                          lambda n: DEGREE.get(n, 1), curation, **kw)
    return keys, [dict(zip(TRIPLE_FEATURES, r, strict=True)) for r in x]


def test_triple_rows_on_a_hand_made_pool() -> None:
    other = CurationStats.fit([("E", "Y", (("E", "inhibits", "T"), ("T", "regulates", "X"), ("X", "causes", "Y")))])
    keys, rows = _rows(other)
    # the best path's triples first, then what the next paths add
    assert keys == [*A, B[1], B[2], *C]
    by = dict(zip(keys, rows, strict=True))
    first = by[A[0]]
    assert (first["is_first"], first["is_last"], first["hops_from_drug"], first["hops_to_disease"]) == (1, 0, 0, 2)
    assert first["path_share"] == pytest.approx(2 / 3) and first["in_top_path"] == 1 and first["best_path_rank"] == 0
    assert first["relation"] == VOCAB.relation("inhibits") and first["head_type"] == VOCAB.type("Drug")
    assert first["head_log_degree"] == pytest.approx(math.log1p(3)) and first["tail_log_degree"] == pytest.approx(math.log1p(9))
    z = 1 + math.exp(-2) + math.exp(-4)  # softmax at temperature 0.5 over scores 2, 1, 0
    assert by[B[1]]["mass_t0.5"] == pytest.approx(math.exp(-2) / z)
    assert first["mass_t0.5"] == pytest.approx((1 + math.exp(-2)) / z)
    assert by[B[1]]["best_path_gap"] == pytest.approx(-1.0) and by[B[1]]["in_top_path"] == 0
    assert by[C[1]]["is_last"] == 1 and by[C[1]]["best_path_rank"] == 2
    # the tail of T→X is an inner node of the best path: it carries that path's mass
    assert by[A[1]]["tail_node_mass"] == pytest.approx(1 / z)
    # the other drug's chain uses T→X for this disease after the same target; nobody uses T→Z
    reused = by[A[1]]
    assert (reused["curated_log"], reused["curated_disease_log"], reused["curated_after_target_log"]) == pytest.approx(
        (math.log1p(1), math.log1p(1), math.log1p(1)))
    assert (by[B[1]]["curated_log"], by[B[1]]["curated_disease_log"], by[B[1]]["curated_after_target_log"]) == (0, 0, 0)
    assert triple_rows([], np.zeros(0), VOCAB, str, len, other)[1].shape == (0, len(TRIPLE_FEATURES))


def test_triple_rows_leave_the_question_s_own_drug_out() -> None:
    other = ("E", "Y", (("E", "inhibits", "T"), ("T", "regulates", "X"), ("X", "causes", "Y")))
    own = ("D", "Y", tuple(B))
    with_own = _rows(CurationStats.fit([other, own]), exclude_drug=lambda drug: drug)
    assert with_own == _rows(CurationStats.fit([other]))
    assert _rows(CurationStats.fit([other, own])) != with_own  # counted, the own chain would show (the test can fail)
    # leaving a group of drugs out (a training fold, at answer time) equals never counting their chains
    third = ("F", "Y", (("F", "inhibits", "T"), ("T", "binds", "Z"), ("Z", "causes", "Y")))
    stats = CurationStats.fit([other, own, third])
    for e in [*A, *B, *C]:
        assert stats.edge_counts(e, "Y", {"T", "U"}, exclude_drug="D", exclude_drugs=frozenset({"F"})) == \
            CurationStats.fit([other]).edge_counts(e, "Y", {"T", "U"})
    assert stats.edge_counts(B[1], "Y", {"T"}, exclude_drug="D") == (1, 1, 1)  # F's chain, while it is counted


@pytest.mark.slow
def test_training_triple_rows_never_see_the_question_s_own_gold(resources: Any, tune_sample: list[PathRecord]) -> None:
    kg = resources.kg
    vocab = vocabulary(kg)
    before_w = _walk(resources, tune_sample)
    victim = next(r for r in tune_sample if r.id in before_w and len(before_w[r.id].paths) > 3)
    ws = sorted(before_w.values(), key=lambda w: w.record.id)
    scores = oof_scores(ws)
    # the path scores come from a ranker that never trained on the question's fold: its labels can change freely
    relabelled = oof_scores([dataclasses.replace(w, y=np.flip(w.y)) if w.record.id == victim.id else w for w in ws])
    np.testing.assert_array_equal(relabelled[victim.id], scores[victim.id])
    assert any(not np.array_equal(relabelled[w.record.id], scores[w.record.id]) for w in ws
               if fold_of(w.record) != fold_of(victim))  # other folds' rankers did learn from them (the test can fail)
    # given those scores, its rows read nothing of its own gold: make one of its own candidates the gold chain,
    # and only its labels move
    pick = before_w[victim.id].paths[-1].edges
    changed_victim = dataclasses.replace(victim, gold_triples=tuple(Triple(e.head, e.relation, e.tail) for e in pick),
                                         gold_chains=(tuple(range(len(pick))),))
    changed = [(changed_victim if r.id == victim.id else r) for r in tune_sample]
    after_w = sorted(_walk(resources, changed).values(), key=lambda w: w.record.id)

    def groups(walked: list[Any], records: list[PathRecord]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        return dict(zip((w.record.id for w in walked), triple_groups(kg, walked, records, vocab, scores), strict=True))

    before, after = groups(ws, tune_sample), groups(after_w, changed)
    np.testing.assert_array_equal(after[victim.id][0], before[victim.id][0])
    assert not np.array_equal(after[victim.id][1], before[victim.id][1])  # its labels did change
    # counted, that chain would show in its rows (so the test can fail)
    others = curated_chains([r for r in changed if fold_of(r) != fold_of(victim)])
    keys = [[(e.head, e.relation, e.tail) for e in p.edges] for p in before_w[victim.id].paths]

    def rows(chains: list[Any]) -> np.ndarray:
        return triple_rows(keys, scores[victim.id], vocab, lambda n: kg.node(n).type, kg.degree, CurationStats.fit(chains))[1]

    np.testing.assert_array_equal(rows(others), before[victim.id][0])
    assert not np.array_equal(rows(others + curated_chains([changed_victim])), before[victim.id][0])


def test_answer_time_triple_order_ignores_the_question_s_own_gold(resources: Any, tune_sample: list[PathRecord]) -> None:
    scorer = resources.triples
    assert scorer is not None, "the shipped index has a triple scorer"
    r = next(r for r in tune_sample if r.drug_id in scorer.curation.drugs)
    qv = resources.embed_one(r.question)
    paths = resources.ranker.rank(GraphWalker(resources.kg, resources.settings.budget).walk(
        [r.drug_id], [r.disease_id], resources.predictor.conf_fn(qv)).paths, qv)
    assert paths
    ranked = scorer.rank(paths)
    probs = [p for _, p in ranked]
    assert all(0.0 < p < 1.0 for p in probs) and probs == sorted(probs, reverse=True)
    assert {(e.head, e.relation, e.tail) for e in paths[0].edges} <= {k for k, _ in ranked}
    altered = [c for c in scorer.curation.chains if c[0] != r.drug_id] + curated_chains([_changed_gold(r, resources.kg)])
    other = TripleScorer(scorer.model, scorer.vocab, scorer.kg, CurationStats.fit(altered), scorer.folds, scorer.rankers)
    assert other.rank(paths) == ranked
    # the probability is the mean over the training folds of the probability with that fold's chains left out of the
    # counts and the paths scored by the ranker that did not see that fold (0 outside that ranker's best paths)
    assert len(scorer.folds) == len(scorer.rankers) == 5 and r.drug_id in set().union(*scorer.folds)
    triples = [[(e.head, e.relation, e.tail) for e in p.edges] for p in paths]
    x = np.vstack([p.row for p in paths])
    expected: dict[Any, float] = {}
    counts = []
    for ranker, fold in zip(scorer.rankers, scorer.folds, strict=True):
        keys, (rows,) = bagged_rows(triples, ranker.score(x), scorer.vocab, lambda n: resources.kg.node(n).type,
                                    resources.kg.degree, scorer.curation, exclude_drug=lambda drug: drug, groups=(fold,))
        for k, v in zip(keys, scorer.probabilities(rows), strict=True):
            expected[k] = expected.get(k, 0.0) + float(v) / len(scorer.folds)
        counts.append(rows[:, TRIPLE_FEATURES.index("curated_log")])
    assert dict(ranked) == pytest.approx(expected)
    # the folds' counts and rankers do differ, and the shipped ranker's own scores would give other probabilities
    assert any(len(c) != len(counts[0]) or not np.array_equal(c, counts[0]) for c in counts[1:])
    assert not np.allclose(scorer.rankers[0].score(x), scorer.rankers[1].score(x))
    without = TripleScorer(scorer.model, scorer.vocab, scorer.kg, scorer.curation, scorer.folds)
    assert dict(without.rank(paths)) != pytest.approx(expected)
    # a path that the ranker did not score (no feature row) falls back to the scores the paths carry
    bare = [dataclasses.replace(p, row=None) for p in paths]
    assert scorer.rank(bare) == without.rank(paths)


def test_two_fits_give_the_same_triple_model_and_a_broken_one_is_refused(resources: Any) -> None:
    rng = np.random.default_rng(5)
    groups = []
    for _ in range(40):
        x = rng.normal(size=(15, len(TRIPLE_FEATURES)))
        x[:, list(CATEGORICAL)] = rng.integers(0, 4, size=(15, len(CATEGORICAL)))
        groups.append((x, (x[:, 10] + rng.normal(scale=0.5, size=15) > 0.5).astype(float)))
    one = fit_triple_model(groups, TRIPLE_FEATURES, CATEGORICAL, rounds=30)
    assert one == fit_triple_model(groups, TRIPLE_FEATURES, CATEGORICAL, rounds=30)
    saved = {"kind": "triple-binary", "model": "tree\nbroken", "relations": [], "types": [], "names": list(TRIPLE_FEATURES)}
    with pytest.raises(StoreError, match="index build"):
        TripleScorer.from_json(saved, resources.kg, CurationStats())
    with pytest.raises(StoreError, match="index build"):
        TripleScorer.from_json({**saved, "model": one, "names": ["other"]}, resources.kg, CurationStats())
    with pytest.raises(ValueError, match="gold triple"):
        fit_triple_model([(g[0], np.zeros(15)) for g in groups], TRIPLE_FEATURES, CATEGORICAL)
    # the fold rankers travel with the model, one per fold; a missing one or a broken one is refused
    shipped = resources.triples
    assert shipped is not None
    again = TripleScorer.from_json(shipped.to_json(), resources.kg, shipped.curation)
    assert [r.model for r in again.rankers] == [r.model for r in shipped.rankers] and again.folds == shipped.folds
    obj = shipped.to_json()
    with pytest.raises(StoreError, match="4 fold rankers for 5 folds"):
        TripleScorer.from_json({**obj, "rankers": obj["rankers"][:4]}, resources.kg, shipped.curation)
    with pytest.raises(StoreError, match="fold ranker"):
        TripleScorer.from_json({**obj, "rankers": [{"model": "tree\nbroken", "names": list(ALL_FEATURES)}] * 5}, resources.kg, shipped.curation)
