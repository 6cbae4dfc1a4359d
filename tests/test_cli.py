"""The CLI through CliRunner: JSON answers, clarification round-trip, one-line errors, help everywhere."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from medpath.cli import cli


@pytest.fixture()
def runner(settings, tmp_path, monkeypatch) -> CliRunner:
    # the index stays where it is; checkpoints go to a temporary home
    monkeypatch.setenv("MEDPATH_HOME", str(tmp_path))
    (tmp_path / "index").symlink_to(settings.index_dir)
    return CliRunner()


def test_ask_json(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["ask", "--json", "How does imatinib treat CML (ph+)?"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["status"] == "ANSWERED" and out["evidence"]


def test_ask_streams_steps(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["ask", "How does imatinib treat CML (ph+)?"])
    assert res.exit_code == 0
    lines = res.output.splitlines()
    assert [ln.split()[0] for ln in lines[:5]] == ["planner", "retriever", "reviewer", "memory", "explainer"]
    assert any(ln.startswith("path:") for ln in lines)


def test_clarification_round_trip(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["ask", "--json", "--thread", "c1", "How does insulin treat diabetes?"])
    out = json.loads(res.output)
    assert out["status"] == "NEEDS_CLARIFICATION"
    names = [c["name"] for c in out["interrupt"]["candidates"]]
    res = runner.invoke(cli, ["ask", "--json", "--thread", "c1", "--resume", "Diabetes mellitus type 1"])
    out = json.loads(res.output)
    assert out["status"] == "ANSWERED", names
    assert out["targets"][0] == "MESH:D003922"  # the chosen entity is what the walk ends at


def test_errors_are_one_line(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["ask", "--json", "--thread", "nope", "--resume", "1"])
    assert res.exit_code != 0
    assert "Traceback" not in res.output and "NotFoundError" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_index_status(runner: CliRunner) -> None:
    res = runner.invoke(cli, ["index", "status", "--json"])
    assert res.exit_code == 0
    assert all(v["status"] == "ready" for v in json.loads(res.output).values())


def _commands(group: click.Group, prefix: tuple[str, ...] = ()):
    for name, cmd in group.commands.items():
        yield (*prefix, name)
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*prefix, name))


@pytest.mark.parametrize("path", list(_commands(cli)))
def test_every_command_has_help(path) -> None:
    res = CliRunner().invoke(cli, [*path, "--help"])
    assert res.exit_code == 0 and len(res.output) > 40
