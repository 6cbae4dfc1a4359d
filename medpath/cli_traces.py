"""``medpath scenarios run`` and ``medpath traces list|show|summary|view``."""

from __future__ import annotations

import json
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import click

from core.errors import LLMError
from core.settings import Settings
from core.tracing import load_spans, start_run
from medpath.scenarios import run_scenarios
from medpath.trace_report import html_timeline, span_tree, summarize, summary_text
from tools.llm import LLMClient
from tools.serializer import redact_free_text

__all__ = ["scenarios", "traces"]


def new_run_id(kind: str) -> str:
    """``<kind>-YYYYmmdd-HHMMSS-<6 hex>``."""

    return f"{kind}-{datetime.now(UTC):%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:6]}"


def write_summary(settings: Settings, run_id: str) -> str:
    """Summarise a run from its spans, save ``<run_id>.summary.txt`` beside it, and return the text."""

    text = summary_text(summarize(load_spans(settings.traces_dir, run_id)))
    (settings.traces_dir / "otel" / f"{run_id}.summary.txt").write_text(text + "\n")
    return text


@click.group()
def scenarios() -> None:
    """The end-to-end scenarios S1–S7 of the design, scripted in graphs/scenarios.yaml."""


@scenarios.command("run")
@click.argument("ids", nargs=-1)
@click.option("--capture-content", is_flag=True, help="Record question text and entity names in the spans.")
def scenarios_run(ids: tuple[str, ...], capture_content: bool) -> None:
    """Run scenarios (default: all) on the real graph; PASS/FAIL each, exit 1 on any FAIL.

    Example usage:

        \b
        medpath scenarios run all
        medpath scenarios run S2 S7
    """

    settings = Settings.from_env()
    run_id = new_run_id("scenarios")
    with start_run(run_id, settings.traces_dir, capture=capture_content or None) as run:
        results = run_scenarios(settings, list(ids) or ["all"], run)
    for r in results:
        line = f"{r.id} {'PASS' if r.passed else 'FAIL'}  {r.title}"
        if not r.passed:
            line += "  — " + "; ".join(r.reasons)
        click.echo(line)
    click.echo(f"\ntrace run {run_id}: {run.path}")
    click.echo(write_summary(settings, run_id))
    if not all(r.passed for r in results):
        sys.exit(1)


@click.group()
def traces() -> None:
    """Read trace runs back: list them, print the span tree, summarise, or draw an HTML timeline."""


@traces.command("list")
@click.option("--limit", default=20, show_default=True, help="Newest runs to show.")
def traces_list(limit: int) -> None:
    """List trace runs, newest first: start time, questions, last status, duration and the first question.

    The question is shown with its content taken out (entity types, common words) unless the run
    captured content (MEDPATH_CAPTURE_CONTENT=1); then as asked, with identifier patterns redacted.

    \b
    Example usage:
        medpath traces list
        medpath traces list --limit 5
    """
    folder = Settings.from_env().traces_dir / "otel"
    files = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True) if folder.exists() else []
    if not files:
        click.echo("no trace runs")
    for p in files[:limit]:
        click.echo(_run_line(p))


def _run_line(path: Path) -> str:
    """One line per run, from its root ``medpath.question`` spans; a broken line in the file is skipped."""
    spans = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            spans.append(json.loads(line))
        except ValueError:
            continue
    roots = sorted((s for s in spans if s.get("name") == "medpath.question"), key=lambda s: s.get("start_ns") or 0)
    starts = [s["start_ns"] for s in spans if s.get("start_ns")]
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(min(starts) / 1e9)) if starts else "-" * 19
    if not roots:
        return f"{path.stem}  {when}  {len(spans)} spans"
    last = roots[-1].get("attributes", {})
    ms = sum(float(s.get("duration_ms") or 0.0) for s in roots)
    attrs = roots[0].get("attributes", {})
    # the question itself only where the run captured content; else its shape ("How does <Drug> treat <Disease>?")
    first = redact_free_text(attrs["medpath.question"]) if "medpath.question" in attrs else attrs.get("medpath.question.shape", "")
    shown = f'  "{first}"' if first else ""
    return (f"{path.stem}  {when}  {len(roots)} question{'s' if len(roots) != 1 else ''}  "
            f"{last.get('medpath.status', '?')}  {ms:.0f} ms{shown}")


@traces.command("show")
@click.argument("run_id")
@click.option("--json", "as_json", is_flag=True, help="Print the spans as JSON lines.")
def traces_show(run_id: str, as_json: bool) -> None:
    """Print a run's span tree (name, duration, status, key attributes).

    Example usage:

        \b
        medpath traces show scenarios-20261122-120000-abc123
    """

    spans = load_spans(Settings.from_env().traces_dir, run_id)
    for line in ([json.dumps(s) for s in spans] if as_json else span_tree(spans)):
        click.echo(line)


@traces.command("summary")
@click.argument("run_id")
@click.option("--llm", "use_llm", is_flag=True, help="Let the configured LLM phrase it (facts still come from the trace).")
def traces_summary(run_id: str, use_llm: bool) -> None:
    """Summarise a run: questions, statuses, accepted paths, memory writes, fallbacks, time per node.

    Example usage:

        \b
        medpath traces summary scenarios-20261122-120000-abc123
    """
    settings = Settings.from_env()
    text = write_summary(settings, run_id)
    if use_llm and settings.llm.enabled:

        try:
            text = LLMClient(settings.llm).complete(
                "Rewrite this session log as a short paragraph. Use only these facts; add nothing.\n" + text, 200).strip() or text
        except LLMError as exc:
            click.echo(f"(LLM unavailable: {exc}; plain summary below)", err=True)
    click.echo(text)


@traces.command("view")
@click.argument("run_id")
@click.option("--html", "as_html", is_flag=True, required=True, help="Write a static HTML waterfall.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Default: traces/otel/RUN_ID.html")
def traces_view(run_id: str, as_html: bool, out: Path | None) -> None:
    """Write a static HTML timeline (a waterfall of the spans) to open in a browser, no collector needed.

    Example usage:

        \b
        medpath traces view scenarios-20261122-120000-abc123 --html
    """

    settings = Settings.from_env()
    spans = load_spans(settings.traces_dir, run_id)
    path = out or settings.traces_dir / "otel" / f"{run_id}.html"
    path.write_text(html_timeline(run_id, spans))
    click.echo(str(path))
