"""The evaluation harness: scoring by id and by name, derived questions, crash survival, the CLI and the report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner

from core.datasets import PathRecord, Triple, load_paths
from medpath.cli import cli
from medpath.evaluation.kg import EntityKeys, derive_answer_questions, run_kg_eval, score_question, summarize
from medpath.evaluation.systems import PPR, SystemOutput, make_system


def _rec() -> PathRecord:
    g = (Triple("d", "r1", "p"), Triple("p", "r2", "x"), Triple("d", "r3", "x"))
    return PathRecord("q1", "How does d treat x?", g, ((0, 1), (2,)), "d", "x")


def test_score_question_by_id() -> None:
    rec = _rec()
    m = score_question(rec, [("d", "r3", "x"), ("z", "r", "z")], [("d", "r3", "x")])
    assert m["path_f1"] == 1.0 and m["recall@5"] == pytest.approx(1 / 3) and m["hit@5"] == 1.0
    assert m["path_f1_all"] == pytest.approx(0.5)
    assert m["best@1"] == m["best@100"] == 1.0  # no pool: the returned path is the pool
    empty = score_question(rec, [], [])
    assert empty == {"recall@5": 0.0, "hit@5": 0.0, "path_f1": 0.0, "path_f1_all": 0.0,
                     "best@1": 0.0, "best@5": 0.0, "best@20": 0.0, "best@100": 0.0}


def test_best_of_top_k_reads_the_pool_in_rank_order() -> None:
    rec = _rec()
    wrong, right = [("z", "r", "z")], [("d", "r3", "x")]
    m = score_question(rec, [], wrong, pool=[wrong, wrong, right])
    assert m["path_f1"] == 0.0 and m["best@1"] == 0.0 and m["best@5"] == 1.0 and m["best@100"] == 1.0


def test_answer_scores_rank_against_every_gold_drug() -> None:
    from medpath.evaluation.kg import answer_scores

    assert answer_scores(["a", "b", "c"], {"c", "z"}) == {"hit@1": 0.0, "hit@5": 1.0, "mrr": pytest.approx(1 / 3)}
    assert answer_scores(["z"], {"c", "z"}) == {"hit@1": 1.0, "hit@5": 1.0, "mrr": 1.0}
    assert answer_scores(["a", "b", "c", "d", "e", "z"], {"z"}) == {"hit@1": 0.0, "hit@5": 0.0, "mrr": 0.0}


def test_entity_keys_match_through_names_and_aliases(resources) -> None:
    keys = EntityKeys(resources.kg)
    kg = resources.kg
    # pick two distinct ids that share a folded name or alias, if the KG has any; every id maps to itself otherwise
    from tools.linker import fold

    seen: dict[str, str] = {}
    pair = None
    for eid, e in kg.entities.items():
        for label in (e.name, *kg.aliases.get(eid, ())):
            f = fold(label)
            if f in seen and seen[f] != eid:
                pair = (seen[f], eid)
                break
            seen.setdefault(f, eid)
        if pair:
            break
    assert pair is not None
    assert keys.key(pair[0]) == keys.key(pair[1])
    assert keys.key("MESH:D000068877") == keys.key(keys.key("MESH:D000068877"))


def test_derived_answer_questions(resources, settings) -> None:
    recs = load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl", limit=60)
    qs = derive_answer_questions(recs, resources.kg, 5)
    kinds = {q.intent for q in qs}
    assert kinds == {"treats", "targets"} and len(qs) <= 10
    for q in qs:
        if q.intent == "treats":
            dis = q.id.split(":", 1)[1]
            assert q.gold == {r.drug_id for r in recs if r.disease_id == dis}


class _Lister:
    name = "lister"

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers

    def run(self, question: str, intent: str | None = None) -> SystemOutput:
        return SystemOutput([], [], self.answers)


def test_new_drug_scores_leave_out_the_drugs_the_index_learned_from() -> None:
    """"What drug treats Y" on a check-half disease: a tune-half drug listed for Y is in the gold, and the index
    learned from its chains. The new-drug scores take it out of the gold and the answers (neither right nor wrong)."""
    from medpath.evaluation.kg import AnswerQuestion

    q = AnswerQuestion("treats:y", "What drug treats Y?", "treats", frozenset({"seen", "new"}), frozenset({"seen"}))
    rows = run_kg_eval([], [_Lister(["seen", "other", "new"])], kg=_TinyKG(), answer_questions=[q])
    assert rows[0]["answer_scores"] == {"hit@1": 1.0, "hit@5": 1.0, "mrr": 1.0}
    assert rows[0]["new_drug_scores"] == {"hit@1": 0.0, "hit@5": 1.0, "mrr": 0.5}
    assert summarize(rows)["lister"]["answer_mrr_treats_new"] == 0.5
    only_seen = AnswerQuestion("treats:z", "What drug treats Z?", "treats", frozenset({"seen"}), frozenset({"seen"}))
    not_check = AnswerQuestion("treats:w", "What drug treats W?", "treats", frozenset({"seen"}))
    rows = run_kg_eval([], [_Lister(["seen"])], kg=_TinyKG(), answer_questions=[only_seen, not_check])
    assert [r["new_drug_scores"] for r in rows] == [None, None]
    assert "answer_mrr_treats_new" not in summarize(rows)["lister"]


def test_derived_answer_questions_mark_the_learned_drugs(resources, settings) -> None:
    recs = load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl", limit=60)
    learned = {r.drug_id for r in recs[::2]}
    treats = [q for q in derive_answer_questions(recs, resources.kg, 5, learned=learned) if q.intent == "treats"]
    assert any(q.learned for q in treats)  # the check below is not empty
    for q in treats:
        assert q.learned == q.gold & learned
    assert all(q.learned is None for q in derive_answer_questions(recs, resources.kg, 5))


class _Crashy:
    name = "crashy"

    def run(self, question: str, intent: str | None = None) -> SystemOutput:
        if "CRASH" in question:
            raise RuntimeError("boom inside the graph")
        return SystemOutput([("d", "r3", "x")], [("d", "r3", "x")], [])


def test_a_failing_question_is_a_recorded_miss() -> None:
    good = _rec()
    bad = PathRecord("q2", "CRASH please", good.gold_triples, good.gold_chains, "d", "x")
    rows = run_kg_eval([bad, good], [_Crashy()], kg=_TinyKG())
    assert [r["id"] for r in rows] == ["q2", "q1"]
    assert rows[0]["status"] == "ERROR" and "boom" in rows[0]["error"] and rows[0]["metrics"]["path_f1"] == 0.0
    assert rows[1]["metrics"]["path_f1"] == 1.0
    s = summarize(rows)["crashy"]
    assert s["errors"] == 1 and s["path_f1"] == 0.5


class _TinyKG:
    entities: ClassVar[dict] = {}
    aliases: ClassVar[dict] = {}


def test_question_crashing_inside_the_compiled_graph(resources, monkeypatch, settings) -> None:
    import agents.retriever

    real = agents.retriever.walk_question

    def flaky(state, ctx, res, stores=("graph",)):
        if "etanercept" in state.question.lower():
            raise RuntimeError("injected failure in the walker")
        return real(state, ctx, res, stores)

    monkeypatch.setattr(agents.retriever, "walk_question", flaky)
    recs = load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl", limit=20)
    crash = next(r for r in recs if "etanercept" in r.question.lower())
    ok = next(r for r in recs if "cetuximab" in r.question.lower())
    rows = run_kg_eval([crash, ok], [make_system("medpath", resources)], resources.kg)
    assert rows[0]["status"] == "ERROR" and "injected failure" in rows[0]["error"]
    assert rows[1]["status"] == "ANSWERED" and rows[1]["metrics"]["path_f1"] > 0


def test_ppr_ranks_seed_neighbourhood(resources) -> None:
    ppr = PPR(resources)
    out = ppr.run("How does imatinib treat CML (ph+)?")
    assert out.path and out.path[0][0] == "MESH:D000068877" and out.path[-1][2] == "MESH:D015464"
    r = ppr.rank(["MESH:D000068877"])
    assert r.sum() == pytest.approx(1.0, abs=1e-6) and r.argmax() == ppr.pos["MESH:D000068877"]
    assert ppr.run("zzzz qqqq").status == "NOT_FOUND"


def test_unknown_system_is_refused(resources) -> None:
    from core.errors import InputError

    with pytest.raises(InputError):
        make_system("oracle", resources)
    assert make_system("no-memory", resources).name == "medpath"


@pytest.fixture()
def runner(settings, tmp_path, monkeypatch) -> CliRunner:
    monkeypatch.setenv("MEDPATH_HOME", str(tmp_path))
    (tmp_path / "index").symlink_to(settings.index_dir)
    return CliRunner()


def test_eval_kg_cli_writes_the_report(runner: CliRunner, tmp_path: Path, settings) -> None:
    out = tmp_path / "eval"
    res = runner.invoke(cli, ["eval", "kg", "--questions", str(settings.data_dir / "drugmechdb" / "paths_dev.jsonl"),
                              "--split", "check", "--limit", "6", "--answer-questions", "2", "--quiet", "--out", str(out),
                              "--systems", "dense-only,bm25-only,ppr,medpath,graph-only"])
    assert res.exit_code == 0, res.output
    assert "| dense-only |" in res.output and "| medpath |" in res.output and "F1 ÷ dense" in res.output
    (run,) = list(out.iterdir())
    files = {p.name for p in run.iterdir()}
    assert {"config.json", "questions.jsonl", "metrics.json", "report.md", "metrics.png", "latency.png", "hops.png"} <= files
    cfg = json.loads((run / "config.json").read_text())
    assert cfg["split"] == "check" and cfg["n_questions"] == 6 and "commit" in cfg["git"]
    rows = [json.loads(x) for x in (run / "questions.jsonl").read_text().splitlines()]
    assert len(rows) == 5 * (6 + 4)
    report = (run / "report.md").read_text()
    assert "![metrics](metrics.png)" in report and "## Results (ids)" in report
    assert (run / "metrics.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_eval_scale_cli(runner: CliRunner, tmp_path: Path) -> None:
    # --no-retrain: training on each grown graph takes minutes (measured by hand, README)
    res = runner.invoke(cli, ["eval", "scale", "--sizes", "12000,20000", "--questions", "3", "--no-retrain",
                              "--out", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    (run,) = list((tmp_path / "s").iterdir())
    points = json.loads((run / "metrics.json").read_text())
    assert [p["triples"] for p in points] == [12000, 20000] and {p["growth"] for p in points} == {"entities"}
    assert not any(p["retrained"] for p in points) and "models: the real graph's" in (run / "report.md").read_text()
    assert (run / "scale.png").exists()
    # each size ran in a process of its own, which loaded the stores: its own peak RSS; answers scored on gold
    assert all(200 < p["peak_rss_mb"] < 20_000 and 0.0 <= p["path_f1"] <= 1.0 and p["asked"] == 3 for p in points)
    assert sum(p["path_f1"] for p in points) > 0 and "Path-F1" in res.output and "peak RSS" in res.output
    bad = runner.invoke(cli, ["eval", "scale", "--sizes", "12000", "--questions", "0", "--out", str(tmp_path / "b")])
    assert bad.exit_code == 2 and "--questions" in bad.output


def test_eval_scale_reports_a_failed_size_in_one_line(settings, tmp_path: Path) -> None:
    """A size whose process fails (here: a home without an index) is one clear error, without the child's traceback."""
    import dataclasses

    from core.errors import MedpathError
    from medpath.evaluation.scale import run_scale

    empty = dataclasses.replace(settings, home=tmp_path / "empty")
    with pytest.raises(MedpathError) as err:
        run_scale(empty, [12000], 1, 13, echo=lambda _line: None)
    assert "eval scale at 12,000 triples failed:" in str(err.value) and "Traceback" not in str(err.value)
    assert len(str(err.value).splitlines()) == 1


def test_attach_growth_is_seeded_and_on_real_nodes(settings) -> None:
    from core.datasets import load_nodes
    from medpath.evaluation.growth import attach

    nodes = load_nodes(settings.data_dir / "drugmechdb" / "nodes.tsv")
    real = {n.id for n in nodes}
    _syn, edges = attach(nodes, ["r1", "r2"], 500, seed=1)
    assert len(edges) == 500 and attach(nodes, ["r1", "r2"], 500, seed=1)[1] == edges
    assert all(t.head in real or t.tail in real for t in edges)
    assert len({(t.head, t.relation, t.tail) for t in edges}) == 500


def _real_graph(settings):
    import csv

    from core.datasets import Triple, load_nodes

    nodes = load_nodes(settings.data_dir / "drugmechdb" / "nodes.tsv")
    with open(settings.data_dir / "drugmechdb" / "triples.tsv", encoding="utf-8") as fh:
        base = [Triple(r["head_id"], r["relation"], r["tail_id"]) for r in csv.DictReader(fh, delimiter="\t")]
    return nodes, base


def test_entity_growth_keeps_the_schema_and_the_real_neighbourhoods(settings) -> None:
    """New triples copy real (head type, relation, tail type) rows, are new and distinct, and the real nodes gain
    about as many triples as they had, whatever the size: the graph grows, its real neighbourhoods do not."""
    from collections import Counter

    from medpath.evaluation.growth import entities, grow

    nodes, base = _real_graph(settings)
    type_of = {n.id: n.type for n in nodes}
    commonest_real_type = Counter(type_of.values()).most_common(1)[0][0]
    schema = {(type_of[t.head], t.relation, type_of[t.tail]) for t in base}
    real_keys = {(t.head, t.relation, t.tail) for t in base}
    gained = {}
    for size in (40_000, 160_000):
        syn, edges = entities(nodes, base, size, seed=3)
        assert grow("entities", nodes, base, size, seed=3)[1] == edges  # seeded
        type_of.update({n.id: n.type for n in syn})
        keys = [(t.head, t.relation, t.tail) for t in edges]
        assert len(keys) == size == len(set(keys)) and not set(keys) & real_keys
        assert all(h != t and (type_of[h], r, type_of[t]) in schema for h, r, t in keys)
        assert abs(len(syn) / size - len(nodes) / len(base)) < 0.01  # nodes per triple as in the real graph
        gained[size] = sum(1 for h, _r, t in keys for x in (h, t) if not x.startswith("SYN:"))
        assert Counter(n.type for n in syn).most_common(1)[0][0] == commonest_real_type
    # the real endpoints gained stay near the real graph's own 2 x 10,791, not four times as many at four times the size
    assert all(0.5 * 2 * len(base) < g < 1.5 * 2 * len(base) for g in gained.values()), gained
    assert entities(nodes, base, 0, seed=3) == ([], [])
    with pytest.raises(ValueError, match="unknown growth"):
        grow("sideways", nodes, base, 10, seed=3)


def test_mlflow_is_optional(tmp_path: Path, monkeypatch) -> None:
    import builtins

    from medpath.evaluation.report import RunFolder, log_mlflow

    real_import = builtins.__import__

    def no_mlflow(name, *args, **kwargs):
        if name == "mlflow":
            raise ImportError("No module named 'mlflow'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_mlflow)
    run = RunFolder(tmp_path, "kg", {"x": 1})
    run.close()
    assert log_mlflow(run, {"a": 1.0}) is None
    assert run.run_id.startswith("kg-") and (run.path / "config.json").exists()


def test_eval_kg_broken_questions_file(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "q.jsonl"
    bad.write_text('{"id": "1", "question": "How does imatinib treat CML?", "gold_triples": [], "gold_chains": []}\n{oops\n')
    res = runner.invoke(cli, ["eval", "kg", "--questions", str(bad), "--quiet", "--out", str(tmp_path / "o")])
    assert res.exit_code != 0 and "q.jsonl:2" in res.output and "Traceback" not in res.output
    good = tmp_path / "good.jsonl"
    good.write_text(bad.read_text().splitlines()[0] + "\n")
    res = runner.invoke(cli, ["eval", "kg", "--questions", str(good), "--systems", "oracle", "--out", str(tmp_path / "o")])
    assert res.exit_code != 0 and "unknown system" in res.output
    assert not (tmp_path / "o").exists()  # refused before any run folder is made
