"""``medpath eval kg`` and ``medpath eval scale``: runs, tables, plots and report.md under traces/eval/."""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from core.datasets import PathRecord, load_paths, split_tune_check
from core.settings import Settings
from medpath.evaluation.chat import load_dialogues, run_chat_eval
from medpath.evaluation.gate import load_rows, plot_gate, score_gate
from medpath.evaluation.growth import GROWTHS
from medpath.evaluation.kg import derive_answer_questions, run_kg_eval, summarize
from medpath.evaluation.report import RunFolder, log_mlflow, plot_hops, plot_latency, plot_metrics, plot_scale, table
from medpath.evaluation.scale import run_scale
from medpath.evaluation.systems import SYSTEMS, make_system
from medpath.services import build_services
from memory.mirix import Memory
from tools.gate import ClaimGate

__all__ = ["eval_chat", "eval_gate", "eval_kg", "eval_scale", "write_kg_report"]

MAIN_COLUMNS = (("recall@5", "Recall@5"), ("hit@5", "Hit@5"), ("path_f1", "Path-F1"), ("path_f1_all", "Path-F1 all gold"),
                ("answer_hit@1_treats", "treats Hit@1"), ("answer_hit@5_treats", "treats Hit@5"),
                ("answer_mrr_treats", "treats MRR"), ("answer_hit@5_treats_new", "treats Hit@5 new drugs"),
                ("answer_mrr_treats_new", "treats MRR new drugs"), ("answer_acc_targets", "Acc targets"),
                ("latency_median_ms", "median ms"), ("latency_p95_ms", "p95 ms"), ("errors", "errors"),
                ("ratio_recall@5", "R@5 ÷ dense"), ("ratio_path_f1", "F1 ÷ dense"))
POOL_COLUMNS = (("path_f1", "returned path"), ("best@1", "best of top 1"), ("best@5", "best of top 5"),
                ("best@20", "best of top 20"), ("best@100", "best of top 100"))
"""Path-F1 of the returned path beside the best candidate among the ranker's top K (a ranking gain must not come
from a pool that shrank)."""
NAME_COLUMNS = (("recall@5_by_name", "Recall@5"), ("hit@5_by_name", "Hit@5"), ("path_f1_by_name", "Path-F1"),
                ("path_f1_all_by_name", "Path-F1 all gold"))


def _default_out() -> Path:
    return Settings.from_env().traces_dir / "eval"


def write_kg_report(run: Any, summary: dict[str, dict[str, Any]], rows: list[dict[str, Any]], command: str) -> Path:
    """metrics.json, the plots and report.md of a kg run."""

    run.write_json("metrics.json", summary)
    plots = [plot_metrics(summary, run.path / "metrics.png"), plot_latency(rows, run.path / "latency.png")]
    if "medpath" in summary:
        plots.append(plot_hops(rows, "medpath", run.path / "hops.png"))
    cfg = run.config
    nodes = {n: m["node_latency_median_ms"] for n, m in summary.items() if m.get("node_latency_median_ms")}
    node_names = sorted({k for v in nodes.values() for k in v})
    node_table = ["| system | " + " | ".join(node_names) + " |", "|---|" + "|".join("---:" for _ in node_names) + "|"]
    node_table += [f"| {n} | " + " | ".join(f"{v.get(k, 0.0):.1f}" for k in node_names) + " |" for n, v in nodes.items()]
    errors = [r for r in rows if r["error"]][:20]
    lines = [
        f"# medpath eval kg: {cfg['run_id']}",
        "",
        f"- command: `{command}`",
        (f"- questions: `{cfg['questions']}` (sha1 {cfg['questions_sha1'][:12]}), split `{cfg['split']}`, "
        f"{cfg['n_questions']} path questions, {cfg['n_answer_questions']} derived answer questions"),
        (f"- git: {cfg['git']['commit']}{' (uncommitted changes)' if cfg['git']['dirty'] else ''}; started {cfg['started']}; "
        f"{cfg.get('seconds', 0):.0f} s"),
        ("- triples match on (head id, relation, tail id); Recall@5 = |top-5 ∩ gold| / min(5, |gold|); "
        "Path-F1 against the best-matching gold chain; ratios against dense-only."),
        "",
        "## Results (ids)",
        "",
        table(summary, MAIN_COLUMNS),
        "",
        ("\"treats\" columns: \"What drug treats Y?\" scored against every drug the question file lists for Y; Hit@1, Hit@5 "
        "and MRR over the top 5 answers."),
        "",
        "## Candidate pool: the returned path beside the best candidate among the top K (Path-F1)",
        "",
        table(summary, POOL_COLUMNS),
        "",
        "## The same, ids matched through names and aliases",
        "",
        table(summary, NAME_COLUMNS),
        "",
        "## Median latency per node (ms)",
        "",
        *(node_table if node_names else ["(no graph system in this run)"]),
        "",
        "## Plots",
        "",
        *[f"![{p.stem}]({p.name})" for p in plots],
        "",
        f"## Failed questions ({sum(1 for r in rows if r['error'])})",
        "",
        *([f"- {r['system']} `{r['id']}`: {r['error']}" for r in errors] or ["none"]),
        "",
        "Per-question records: `questions.jsonl`; config: `config.json`; metrics: `metrics.json`.",
    ]
    out = run.path / "report.md"
    out.write_text("\n".join(lines) + "\n")
    return out


@click.command("kg")
@click.option("--questions", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True,
              help="JSONL in the DrugMechDB paths format: id, question, gold_triples, gold_chains.")
@click.option("--limit", type=int, default=None, help="First N questions (after the split).")
@click.option("--split", type=click.Choice(["all", "tune", "check"]), default="all", show_default=True,
              help="Half of the file by drug (tune: what medpath was fitted on; check: held out).")
@click.option("--systems", default=None, help="Comma-separated subset (default: all). no-memory = medpath.")
@click.option("--answer-questions", type=int, default=100, show_default=True,
              help="Derived 'what treats Y' and 'what does X target' questions of each kind (0 = none).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None, help="Default: MEDPATH_TRACES_DIR/eval (traces/eval).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def eval_kg(questions: Path, limit: int | None, split: str, systems: str | None, answer_questions: int, out: Path | None,
            quiet: bool) -> None:
    """Run baselines, medpath and its ablations on the same gold questions; print the table, write the report.

    Every question goes through the compiled graph that `ask` uses, memory off (except the
    with-memory variant, which uses a throw-away memory). A question that fails is a miss with
    its error recorded; the run goes on.

    Example usage:

        \b
        medpath eval kg --questions data/drugmechdb/paths_dev.jsonl --split check --limit 500
    """
    settings = Settings.from_env()
    records = _kg_questions(questions, split, limit)
    names = _kg_systems(systems)
    res = build_services(settings).resources
    every = load_paths(questions)
    learned = {drug for drug, _, _ in res.ranker.curation.chains}  # the drugs whose chains the index learned from
    aq = derive_answer_questions(records, res.kg, answer_questions, every, learned) if answer_questions > 0 else []
    command = "medpath eval kg " + " ".join(sys.argv[3:]) if sys.argv[1:3] == ["eval", "kg"] else "medpath eval kg"
    config = {"questions": str(questions), "questions_sha1": hashlib.sha1(questions.read_bytes()).hexdigest(), "split": split,
              "limit": limit, "systems": names, "n_questions": len(records), "n_answer_questions": len(aq),
              "index_dir": str(settings.index_dir), "budget": vars(settings.budget), "embedder": settings.embedder,
              "llm": settings.llm.enabled, "command": command}
    run = RunFolder(out or _default_out(), "kg", config)
    t0 = time.perf_counter()
    rows = _kg_run(run, records, aq, names, res, settings, quiet)
    run.config["seconds"] = time.perf_counter() - t0
    run.write_json("config.json", run.config)
    summary = summarize(rows)
    report = write_kg_report(run, summary, rows, command)
    flat = {f"{n}.{k}": v for n, m in summary.items() for k, v in m.items() if isinstance(v, int | float)}
    store = log_mlflow(run, flat)
    click.echo(table(summary, MAIN_COLUMNS))
    click.echo("\ncandidate pool (Path-F1 of the best among the top K):\n" + table(summary, POOL_COLUMNS))
    click.echo(f"\n{len(records)} questions, {len(aq)} answer questions, {run.config['seconds']:.0f} s; report: {report}")
    if store:
        click.echo(f"mlflow: {store}")


def _kg_questions(questions: Path, split: str, limit: int | None) -> list[PathRecord]:
    records = load_paths(questions)
    if split != "all":
        tune, check = split_tune_check(records)
        records = tune if split == "tune" else check
    if limit is not None:
        records = records[:limit]
    if not records:
        raise click.UsageError("no questions to run")
    return records


def _kg_systems(systems: str | None) -> list[str]:
    names = [s.strip() for s in systems.split(",")] if systems else list(SYSTEMS)
    unknown = [n for n in names if n not in (*SYSTEMS, "no-memory")]
    if unknown:
        raise click.BadParameter(f"unknown system(s) {', '.join(unknown)} (known: {', '.join(SYSTEMS)}, no-memory)",
                                 param_hint="--systems")
    return names


def _kg_run(run: RunFolder, records: list[PathRecord], aq: list[Any], names: list[str], res: Any, settings: Settings,
            quiet: bool) -> list[dict[str, Any]]:
    """Every system over every question, each with a throw-away memory; rows are written as they come."""
    with tempfile.TemporaryDirectory() as tmp:
        built = [make_system(n, res, Memory(Path(tmp) / "memory", settings.memory)) for n in names]
        bar = tqdm(total=len(built) * (len(records) + len(aq)), desc="eval kg", unit="q", disable=quiet)
        try:
            return run_kg_eval(records, built, res.kg, answer_questions=aq, on_row=run.add_row, tick=bar.update)
        finally:
            run.close()
            bar.close()


@click.command("scale")
@click.option("--sizes", default="100000,1000000", show_default=True, help="Total triples per graph, comma-separated.")
@click.option("--questions", "n_questions", type=click.IntRange(min=1), default=500, show_default=True,
              help="Check-half questions asked at each size, the first N (500: the questions of `make eval`; over 50, "
                   "Path-F1 moved by 0.03 between two trainings).")
@click.option("--seed", type=int, default=13, show_default=True)
@click.option("--backend", "kind", type=click.Choice(["embedded", "postgres"]), default="embedded", show_default=True,
              help="Where each size's graph lives: a DuckDB file, or a fresh database on a PostgreSQL server.")
@click.option("--database", default=None, metavar="URL",
              help="The PostgreSQL server for --backend postgres (default: MEDPATH_DATABASE_URL).")
@click.option("--growth", type=click.Choice(GROWTHS), default="entities", show_default=True,
              help="entities: new entities with the real graph's types, schema and degrees; "
                   "attach: random triples on real nodes (a density stress test).")
@click.option("--retrain/--no-retrain", default=True, show_default=True,
              help="Train the models on each grown graph, as `index build` would on it (else answer with the real graph's).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None, help="Default: MEDPATH_TRACES_DIR/eval (traces/eval).")
def eval_scale(sizes: str, n_questions: int, seed: int, kind: str, database: str | None, growth: str,
               retrain: bool, out: Path | None) -> None:
    """Grow the real graph with seeded synthetic triples; time the build and `ask` at each size.

    By default the graph grows by new entities that copy the real graph's node types, relation schema and degrees,
    so neighbourhoods do not get denser as it grows; `--growth attach` puts every new triple on a real node instead.
    The models are trained on each grown graph, as `index build` trains them on the graph it serves (the time is
    reported apart from the build); `--no-retrain` answers with the real graph's models.

    Each size runs in a process of its own and reports its graph build time, the median and p95 `ask`, its peak
    RSS, and Path-F1 of the answers to the first check-half questions against their gold chains.

    Example usage:

        \b
        medpath eval scale --sizes 10000,100000,1000000
        medpath eval scale --sizes 100000,1000000 --questions 50
        medpath eval scale --backend postgres --sizes 10000,1000000,10000000
        medpath eval scale --growth attach --sizes 10000,1000000
    """

    try:
        targets = [int(s) for s in sizes.split(",") if s.strip()]
    except ValueError as exc:
        raise click.BadParameter(f"--sizes must be integers: {sizes}") from exc
    settings = Settings.from_env()
    server = (database or settings.database_url) if kind == "postgres" else ""
    if kind == "postgres" and not server:
        raise click.UsageError("--backend postgres needs --database URL or MEDPATH_DATABASE_URL (`medpath stack up` starts one)")
    run = RunFolder(out or _default_out(), "scale", {"sizes": targets, "questions": n_questions, "seed": seed, "backend": kind,
                                                             "growth": growth, "retrain": retrain})
    run.close()
    points = run_scale(settings, targets, n_questions, seed, echo=click.echo, database=server, growth=growth,
                       retrain=retrain)
    run.write_json("metrics.json", points)
    png = plot_scale(points, run.path / "scale.png")
    models = "trained on each graph" if retrain else "the real graph's"
    lines = [f"# medpath eval scale: {run.run_id}", "",
             f"- git: {run.config['git']['commit']}, backend: {kind}, growth: {growth}, models: {models}", "",
             "| triples | graph build (s) | training (s) | ask median (ms) | ask p95 (ms) | peak RSS (MB) | Path-F1 | answered |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {p['triples']:,} | {p['build_s']:.1f} | {p['train_s']:.1f} | {p['ask_median_ms']:.1f} | {p['ask_p95_ms']:.1f} | "
              f"{p['peak_rss_mb']:,.0f} | {p['path_f1']:.3f} | {p['answered']}/{p['asked']} |" for p in points]
    lines += ["", f"![scale]({png.name})", ""]
    (run.path / "report.md").write_text("\n".join(lines))
    log_mlflow(run, {f"{p['triples']}.{k}": v for p in points for k, v in p.items() if isinstance(v, int | float)})
    click.echo("\n".join(lines[4:-2]))
    click.echo(f"report: {run.path / 'report.md'}")


@click.command("chat")
@click.option("--dialogues", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=Path("data/dialogues/chat_dev.jsonl"), show_default=True, help="Dialogue file (JSONL, docs/formats.md).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None, help="Default: MEDPATH_TRACES_DIR/eval.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def eval_chat(dialogues: Path, out: Path | None, as_json: bool, quiet: bool) -> None:
    """Run scripted multi-turn dialogues and report turn accuracy and per-turn latency.

    Each dialogue runs on its own thread with a throw-away memory; a turn marked
    "process": "new" is run by a second medpath process on the same thread. The run is
    written to traces/eval/<run_id>/ (questions.jsonl with one row per turn, metrics.json, report.md).

    \b
    Example usage:
        medpath eval chat
        medpath eval chat --dialogues my_dialogues.jsonl --json
    """


    settings = Settings.from_env()
    dlg = load_dialogues(dialogues)
    config = {"dialogues": str(dialogues), "dialogues_sha1": hashlib.sha1(dialogues.read_bytes()).hexdigest(),
              "n_dialogues": len(dlg)}
    run = RunFolder(out or settings.traces_dir / "eval", "chat", config)
    bar = None
    if not quiet and not as_json:

        bar = tqdm(total=len(dlg), desc="eval chat", unit="dialogue")
    try:
        summary = run_chat_eval(settings, dlg, run, progress=bar.update if bar else None)
    finally:
        if bar:
            bar.close()
        run.close()
    run.write_json("metrics.json", summary)
    (run.path / "report.md").write_text(_chat_report(run.config, summary))
    if as_json:
        click.echo(json.dumps(summary, indent=1))
        return
    click.echo(f"{summary['dialogues']} dialogues, {summary['turns']} turns: turn accuracy {summary['turn_accuracy']:.3f}, "
               f"dialogue accuracy {summary['dialogue_accuracy']:.3f}; per-turn median {summary['turn_ms_median']} ms, "
               f"p95 {summary['turn_ms_p95']} ms; second-process turns {summary['second_process_turns']} "
               f"(median {summary['second_process_ms_median']} ms)")
    for tag, acc in summary["by_tag"].items():
        click.echo(f"  {tag:24s} {acc:.3f}")
    for m in summary["misses"][:10]:
        click.echo(f"  miss {m['dialogue']} turn {m['turn']}: {m['input']!r}: {'; '.join(m['why'])}")
    click.echo(f"run: {run.path}")


def _chat_report(cfg: dict[str, Any], summary: dict[str, Any]) -> str:
    lines = [f"# medpath eval chat: {cfg['run_id']}", "",
             (f"- dialogues: `{cfg['dialogues']}` (sha1 {cfg['dialogues_sha1'][:12]}), {summary['dialogues']} dialogues, "
             f"{summary['turns']} turns"), f"- git: {cfg['git']['commit']}", "",
             (f"**Turn accuracy {summary['turn_accuracy']:.3f}**, dialogue accuracy {summary['dialogue_accuracy']:.3f}; "
             f"per-turn median {summary['turn_ms_median']} ms, p95 {summary['turn_ms_p95']} ms."), "",
             "| tag | turn accuracy |", "|---|---:|", *[f"| {t} | {a:.3f} |" for t, a in summary["by_tag"].items()], "",
             "## Misses", "", *([f"- {m['dialogue']} turn {m['turn']} `{m['input']}`: {'; '.join(m['why'])}"
                                 for m in summary["misses"]] or ["none"])]
    return "\n".join(lines) + "\n"


@click.command("gate")
@click.option("--file", "path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=Path("data/gate/assertions.jsonl"), show_default=True,
              help="Labelled mentions: JSONL of sentence, concept, status, relation (docs/formats.md).")
@click.option("--rules", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Assertion rules YAML (default: memory/assertion_rules.yaml).")
@click.option("--policy", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Gate policy YAML (default: memory/gate_policy.yaml).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None, help="Default: MEDPATH_TRACES_DIR/eval.")
@click.option("--json", "as_json", is_flag=True, help="Print the metrics as JSON.")
def eval_gate(path: Path, rules: Path | None, policy: Path | None, out: Path | None, as_json: bool) -> None:
    """Score the Reviewer's assertion gate: per-status accuracy, decisions, a confusion table and a plot.

    \b
    Example usage:
        medpath eval gate
        medpath eval gate --file my_corpus.jsonl --json
    """


    rows = load_rows(path)
    metrics, records = score_gate(rows, ClaimGate.load(rules, policy))
    run = RunFolder(out or Settings.from_env().traces_dir / "eval", "gate",
                    {"file": str(path), "file_sha1": hashlib.sha1(path.read_bytes()).hexdigest(), "rows": len(rows)})
    for r in records:
        run.add_row(r)
    run.close()
    run.write_json("metrics.json", metrics)
    plot_gate(metrics, run.path / "gate.png")
    if as_json:
        click.echo(json.dumps(metrics, indent=1))
        return
    click.echo(f"{metrics['rows']} mentions: status read right {metrics['status_accuracy']:.3f}, decision as the policy "
               f"asks {metrics['decision_accuracy']:.3f}, {metrics['sentences_per_s']:.0f} sentences/s")
    click.echo(f"{'gold status':14s} {'n':>4s} {'status':>7s} {'decision':>9s} {'accepted':>9s}")
    for g, m in metrics["per_status"].items():
        click.echo(f"{g:14s} {m['n']:4d} {m['status_accuracy']:7.3f} {m['decision_accuracy']:9.3f} {m['accepted']:9.3f}")
    cols = [s for s in ("affirmed", "negated", "hypothetical", "historical", "uncertain", "possible", "family", "allergy", "absent")
            if any(s in v for v in metrics["confusion"].values())]
    click.echo("confusion (rows gold, columns read): " + " ".join(f"{c[:6]:>6s}" for c in cols))
    for g, v in metrics["confusion"].items():
        click.echo(f"  {g:12s}" + " ".join(f"{v.get(c, 0):6d}" for c in cols))
    click.echo(f"run: {run.path}")
