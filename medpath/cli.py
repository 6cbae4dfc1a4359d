"""The ``medpath`` command line: noun → verb, one clear line per error."""

from __future__ import annotations

import importlib
import json
import sys
import uuid
from typing import Any

import click

from core.errors import InputError, MedpathError, NotFoundError
from core.gc_policy import loading
from core.settings import Settings
from memory.pg_db import redact

__all__ = ["cli"]


class _Group(click.Group):
    """Turns medpath errors into one line and a non-zero exit, never a traceback.

    Commands named in ``lazy`` (name → ``module:attribute``) are imported only when they run or when help lists
    them, so `medpath ask` does not pay for importing the server, the evaluation or the memory tools.
    """

    lazy: dict[str, str]

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        """``lazy`` maps command names to ``module:attribute``."""
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Loaded and lazy commands, sorted."""
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """A loaded command, or import a lazy one."""
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, attr = self.lazy[cmd_name].split(":")
            self.add_command(getattr(importlib.import_module(module), attr), cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except MedpathError as exc:
            err = click.ClickException(f"{type(exc).__name__}: {exc}")
            err.exit_code = 2 if isinstance(exc, InputError) else 3 if isinstance(exc, NotFoundError) else 1
            raise err from exc
        except ImportError as exc:
            raise click.ClickException(f"missing dependency: {exc}") from exc
        except KeyboardInterrupt as exc:
            raise click.Abort() from exc


@click.group(cls=_Group)
@click.version_option(package_name="medpath")
def cli() -> None:
    """medpath: offline question answering over a biomedical knowledge graph."""


@cli.group()
def index() -> None:
    """Build and inspect the indexes (KG, dense, BM25, learned models)."""


@index.command("build")
@click.option("--force", is_flag=True, help="Rebuild every component even if unchanged.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--database", default=None, metavar="URL",
              help="Load the graph, vectors and texts into this PostgreSQL (default: MEDPATH_DATABASE_URL).")
def index_build(force: bool, quiet: bool, database: str | None) -> None:
    """Build what is missing or stale; skip what is unchanged (by content hash).

    With a PostgreSQL URL the graph, the vectors (pgvector, HNSW) and the texts go into that database by COPY, each
    swapped in by one transaction: running it twice is safe, and a failed load leaves the old data in use. The
    trained models stay in the home's index folder.

    Example usage:

        \b
        medpath index build
        medpath index build --database postgresql://postgres@127.0.0.1:55432/postgres
    """
    import dataclasses

    from medpath.indexing import build_index

    settings = Settings.from_env()
    if database is not None:
        settings = dataclasses.replace(settings, database_url=database)
    report = build_index(settings, force=force, show_progress=not quiet)
    for name, status in report.components.items():
        click.echo(f"{name:8s} {status.value:8s} {report.seconds.get(name, 0.0):7.2f} s")
    click.echo(f"index: {settings.index_dir}" + (f" and {redact(settings.database_url)}" if settings.database_url else ""))


@index.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def index_status_cmd(as_json: bool) -> None:
    """Say what is built, with the model id and dimension.

    Example usage:

        \b
        medpath index status
    """
    from medpath.indexing import index_status

    settings = Settings.from_env()
    status = index_status(settings)
    if as_json:
        click.echo(json.dumps(status, indent=1))
        return
    click.echo(f"index: {settings.index_dir}")
    for name, entry in status.items():
        extra = ", ".join(f"{k}={v}" for k, v in entry.items() if k != "status")
        click.echo(f"{name:8s} {entry['status']:8s} {extra}")
    if any(e["status"] != "ready" for e in status.values()):
        sys.exit(1)


def _render_step(node: str, update: dict[str, Any]) -> str:
    if node == "turn":
        return ""
    if node == "planner":
        if update.get("understood_as"):
            return f"planner    understood as: {update['understood_as']}\n" + _render_step("planner", {**update, "understood_as": ""})
        ms = [f"{m['mention']}→{m['entity']['name']} ({m['entity']['id']})" if m.get("entity") else f"{m['mention']}→?" for m in update.get("mentions", [])]
        return f"planner    intent={update.get('intent', '?')} " + "; ".join(ms)
    if node == "retriever":
        w = update.get("walk", {})
        d = update.get("dense", {})
        extra = f", dense back-off seeds={len(d.get('seeds', []))}" if d.get("triggered") else ""
        r = update.get("route", {})
        m = update.get("memory", {})
        mem = f", vault boost ×{m['boost_factor']} on {len(m['boosted'])} paths" if m.get("boosted") else ""
        h = update.get("hybrid", {})
        hyb = (f"; hybrid {h['route']} ({h['classifier_rule_id']}): {h['graph_edges_count']} graph lines, "
               f"{h['text_chunks_count']} text chunks, {h['context']['tokens'].get('total', 0)} tokens") if h.get("route") else ""
        return (f"retriever  route {r.get('rule_id')} → {'+'.join(r.get('stores', []))}; {w.get('paths_found', 0)} paths, "
                f"{w.get('expanded', 0)} nodes expanded, stop={w.get('stop')}{extra}{mem}{hyb}")
    if node == "reviewer":
        r = update.get("review", {})
        return f"reviewer   {r.get('decision')} (score {r.get('score', 0):.2f}, backend {r.get('backend')})"
    if node == "memory":
        w = update.get("memory", {}).get("write", {})
        if not w.get("written"):
            return f"memory     nothing written ({w.get('reason', 'gate closed')})"
        v = w.get("vault", {})
        return f"memory     vault +{v.get('inserted', 0)} new, {v.get('refreshed', 0)} refreshed; episodic +{w.get('episodic', 0)}"
    if node == "explainer":
        return "explainer  done"
    return node


EXIT_CODES = {"ANSWERED": 0, "ERROR": 2, "NOT_FOUND": 3, "NEEDS_CLARIFICATION": 4}
"""``medpath ask`` exit status per final status (1 is a failure of medpath itself)."""


def _print_clarification(clar: dict[str, Any]) -> None:
    click.echo(f"\n{clar['question']}")
    for i, c in enumerate(clar["candidates"], 1):
        click.echo(f"  {i}. {c['name']} ({c['id']}, {c['type']})")


def _print_result(values: dict[str, Any]) -> None:
    click.echo("")
    click.echo(f"status: {values.get('status')}")
    if values.get("understood_as"):
        click.echo(f"understood as: {values['understood_as']}")
    click.echo(f"answer: {values.get('answer')}")
    if values.get("evidence_text"):
        click.echo(f"path:   {values['evidence_text']}")
        for t in values.get("evidence", []):
            click.echo(f"        ({t['head']}, {t['relation']}, {t['tail']})")
    for a in values.get("ranked_answers", []):
        click.echo(f"{a['rank']:>5}.  {a['name']} ({a['id']}): {a['path']['text']}")
    for c in values.get("citations", []):
        click.echo(f"cite:   {c.get('title')}" + (f" <{c['url']}>" if c.get("url") else ""))
    for sug in values.get("suggestions", [])[:5]:
        click.echo(f"did you mean: {sug['name']} ({sug['id']}, {sug['type']})")
    for f in values.get("fallbacks", []):
        click.echo(f"fallback: {f.get('component')}: {f.get('reason')}")


def _echo_step(node: str, update: dict[str, Any]) -> None:
    line = _render_step(node, update)
    if line:
        click.echo(line)


@cli.command()
@click.argument("question", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (for scripts).")
@click.option("--thread", default=None, help="Thread id; reuse it to resume a clarification.")
@click.option("--resume", "choice", default=None, help="Answer to a pending clarification (number, id or name).")
@click.option("--user", default="anonymous", envvar="MEDPATH_USER", help="User id.")
@click.option("--no-clarify", is_flag=True, help="Pick the best candidate instead of asking.")
@click.option("--mode", type=click.Choice(["semantic", "session_recovery", "knowledge_lookup"]), default="semantic",
              show_default=True, help="Retrieval mode: a filter on the stores the router picked.")
@click.option("--no-memory", is_flag=True, help="Neither read nor write memory for this question.")
def ask(question: str | None, as_json: bool, thread: str | None, choice: str | None, user: str, no_clarify: bool,
        mode: str, no_memory: bool) -> None:
    """Answer a question, streaming each node's step.

    Questions on the same --thread are a conversation: "and which protein does it target?" is
    understood from the earlier turns. Exit status: 0 answered, 2 a bad question or usage,
    3 not found, 4 needs clarification (answer it with --thread and --resume), 1 an error.

    \b
    Example usage:
        medpath ask "How does imatinib treat CML (ph+)?"
        medpath ask --thread T1 "How does metformin treat diabetes?"
        medpath ask --thread T1 --resume 2
        medpath ask --thread T1 "and what does it target?"
    """
    if not question and choice is None:
        raise click.UsageError("give a QUESTION, or --thread and --resume to answer a clarification")
    if choice is not None and not thread:
        raise click.UsageError("--resume needs the --thread of the pending question")
    thread = thread or f"cli-{uuid.uuid4().hex[:12]}"
    with loading():  # imports, loading and one question: a bounded phase without collections (core.gc_policy)
        from core.tracing import start_run
        from medpath.cli_traces import new_run_id
        from medpath.session import Session

        settings = Settings.from_env()
        session = Session(settings, interactive=not no_clarify, memory=not no_memory)
        on_step = None if as_json else _echo_step
        with start_run(new_run_id("ask"), settings.traces_dir):
            if choice is not None:
                result = session.resume(thread, choice, on_step=on_step)
            else:
                result = session.ask(question or "", thread_id=thread, user_id=user, mode=mode, on_step=on_step)
    if as_json:
        click.echo(json.dumps(result, default=str))
    elif result.get("status") == "NEEDS_CLARIFICATION":
        _print_clarification(result["interrupt"])
        click.echo(f"resume with: medpath ask --thread {thread} --resume " + ("N" if result["interrupt"]["candidates"] else "NAME"))
    else:
        _print_result(result)
    sys.exit(EXIT_CODES.get(str(result.get("status")), 1))


@cli.command()
@click.option("--user", default="anonymous", envvar="MEDPATH_USER", help="User id.")
def chat(user: str) -> None:
    """A REPL that keeps one thread and answers clarifications at the prompt (an empty line, "quit" or Ctrl-D quits).

    An empty line at the ``choice>`` prompt leaves the clarification: the next question replaces it, or answers it
    when it picks an option ("type 2").

    Example usage:

        \b
        medpath chat
    """
    from core.tracing import start_run
    from medpath.cli_traces import new_run_id, write_summary
    from medpath.session import Session

    settings = Settings.from_env()
    session = Session(settings, interactive=True)
    thread = f"chat-{uuid.uuid4().hex[:12]}"
    run_id = new_run_id("chat")
    run = start_run(run_id, settings.traces_dir)
    click.echo(f"medpath chat (thread {thread}, trace run {run_id}); an empty line, \"quit\" or Ctrl-D quits")
    try:
        _chat_loop(session, thread, user)
    finally:
        run.close()
        click.echo("\n" + write_summary(settings, run_id))
    click.echo("bye")


QUIT_WORDS = frozenset({"quit", "exit", "bye", "/quit", "/exit", "/bye", ":q", "q"})
"""What ends ``medpath chat`` besides an empty line or Ctrl-D (it was asked as a question: "no known entity")."""


def _chat_loop(session: Any, thread: str, user: str) -> None:
    while True:
        try:
            line = input("you> ").strip()
        except EOFError:
            break
        if not line or line.casefold().rstrip(".!") in QUIT_WORDS:
            break
        try:
            result = session.ask(line, thread_id=thread, user_id=user)
            while result.get("status") == "NEEDS_CLARIFICATION":
                _print_clarification(result["interrupt"])
                try:
                    pick = input("choice> ").strip()
                except EOFError:
                    return
                if not pick:  # left pending: the next question replaces it, or answers it ("type 2")
                    click.echo("(left unanswered: ask another question, or name an option)")
                    break
                result = session.resume(thread, pick)
            else:
                _print_result(result)
        except MedpathError as exc:
            click.echo(f"error: {exc}", err=True)


@cli.group("eval", cls=_Group, lazy={
    "chat": "medpath.cli_eval:eval_chat",
    "classifier": "medpath.cli_service:eval_classifier",
    "gate": "medpath.cli_eval:eval_gate",
    "kg": "medpath.cli_eval:eval_kg",
    "memory": "medpath.cli_memory:eval_memory",
    "scale": "medpath.cli_eval:eval_scale",
})
def eval_group() -> None:
    """Measure medpath against gold data: KG questions, memory recall, and scale."""


cli.lazy.update({
    "mcp": "medpath.cli_service:mcp_command",
    "memory": "medpath.cli_memory:memory",
    "patients": "medpath.cli_service:patients",
    "retrieval": "medpath.cli_service:retrieval",
    "scenarios": "medpath.cli_traces:scenarios",
    "serve": "medpath.cli_service:serve",
    "stack": "medpath.cli_stack:stack",
    "threads": "medpath.cli_threads:threads",
    "token": "medpath.cli_service:token",
    "traces": "medpath.cli_traces:traces",
})


def main() -> None:
    """Console entry point."""
    cli()


if __name__ == "__main__":
    main()
