"""``medpath threads``: the retention of conversation checkpoints."""

from __future__ import annotations

import click

from core.settings import Settings, checkpoint_ttl_days
from medpath.threads import open_checkpoints, prune_threads

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
