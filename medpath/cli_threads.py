"""``medpath threads``: the conversations the CLI, the API and the other clients keep (list, show, delete), and the
retention of their checkpoints."""

from __future__ import annotations

import time

import click

from core.errors import NotFoundError
from core.settings import Settings, checkpoint_ttl_days
from medpath.forgetting import forget_thread
from medpath.session import Session
from medpath.threads import list_threads, open_checkpoints, prune_threads

__all__ = ["threads"]


@click.group()
def threads() -> None:
    """Conversation threads (LangGraph checkpoints in <home>/checkpoints.sqlite)."""


@threads.command("prune")
@click.option("--older-than-days", type=float, default=None,
              help="Delete threads unused for longer than this (default MEDPATH_CHECKPOINT_TTL_DAYS, 30).")
def threads_prune(older_than_days: float | None) -> None:
    """Delete the conversations nobody has used for a while, and scrub their bytes from the file.

    Example usage:

        \b
        medpath threads prune
        medpath threads prune --older-than-days 7
    """
    days = checkpoint_ttl_days() if older_than_days is None else older_than_days
    if days < 0:
        raise click.BadParameter("must be 0 or more", param_hint="--older-than-days")
    gone = prune_threads(open_checkpoints(Settings.from_env()), days * 86400.0)
    click.echo(f"deleted {len(gone)} thread(s) unused for more than {days:g} days")


@threads.command("list")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True, help="Show at most this many.")
def threads_list(limit: int) -> None:
    """List the conversations, the latest first: id, questions, last use and the first question.

    A thread of the HTTP API is shown as <caller>:<thread id>.

    Example usage:

        \b
        medpath threads list
        medpath threads list --limit 5
    """
    rows = list_threads(open_checkpoints(Settings.from_env()), "")
    if not rows:
        click.echo("no threads")
    for r in rows[:limit]:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(r["updated"]))
        click.echo(f"{r['thread_id']}  {r['turns']} question(s)  {when}  {r['title']}")
    if len(rows) > limit:
        click.echo(f"… and {len(rows) - limit} more (--limit)")


@threads.command("show")
@click.argument("thread_id")
def threads_show(thread_id: str) -> None:
    """Print one conversation: each question, how it was understood, and the answer; then a pending clarification.

    Example usage:

        \b
        medpath threads show T1
        medpath ask --thread T1 "and what does it target?"   # go on with it
    """
    values = Session(Settings.from_env(), interactive=True).history(thread_id)
    for m in values["messages"]:
        if m.get("role") == "user":
            click.echo(f"you> {m.get('content', '')}")
        else:
            click.echo(f"medpath [{m.get('status', '')}]> {m.get('content', '')}\n")
    if values.get("interrupt"):
        click.echo(f"pending: {values['interrupt']['question']} (answer with: medpath ask --thread {thread_id} --resume …)")


@threads.command("delete")
@click.argument("thread_id")
def threads_delete(thread_id: str) -> None:
    """Delete one conversation: scrub its bytes from the file and drop the traces of its questions.

    Example usage:

        \b
        medpath threads delete T1
    """
    settings = Settings.from_env()
    if forget_thread(settings, open_checkpoints(settings), thread_id) is None:
        raise NotFoundError(f"no thread {thread_id!r}")
    click.echo(f"deleted thread {thread_id}")
