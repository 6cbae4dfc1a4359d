"""core.forking: parts spread over forked workers come back in order, and a worker that dies or hangs costs
nothing but time: its parts are run in this process (CI once hung for an hour on a worker that segfaulted)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from core import forking
from core.forking import map_in_forks

pytestmark = pytest.mark.skipif(not forking.can_fork(), reason="this system does not fork")


def _square_and_sign(folder: Path):
    def run(x: int) -> tuple[int, int]:
        (folder / f"{os.getpid()}-{x}").touch()
        return x * x, os.getpid()
    return run


def test_the_parts_come_back_in_order_from_other_processes(tmp_path: Path) -> None:
    out = map_in_forks(_square_and_sign(tmp_path), list(range(12)), 2)
    assert [v for v, _ in out] == [x * x for x in range(12)]
    assert os.getpid() not in {pid for _, pid in out} and len({pid for _, pid in out}) >= 1


def test_one_worker_or_one_part_runs_here(tmp_path: Path) -> None:
    for parts, workers in (([1, 2, 3], 1), ([4], 2), ([], 2)):
        out = map_in_forks(_square_and_sign(tmp_path), parts, workers)
        assert out == [(x * x, os.getpid()) for x in parts]


@pytest.mark.timeout(120)
def test_a_worker_that_dies_loses_no_part_and_does_not_hang() -> None:
    parent = os.getpid()

    def run(x: int) -> int:
        if os.getpid() != parent and x == 3:
            os.kill(os.getpid(), signal.SIGKILL)  # dies at once, as the CI worker did (of a SIGSEGV)
        return x + 100

    started = time.monotonic()
    assert map_in_forks(run, list(range(8)), 2, stall_s=60) == [x + 100 for x in range(8)]
    assert time.monotonic() - started < 30  # the death is seen at once, not after the stall wait


@pytest.mark.timeout(120)
def test_a_worker_that_hangs_is_ended_and_its_part_run_here() -> None:
    parent = os.getpid()

    def run(x: int) -> int:
        if os.getpid() != parent:
            time.sleep(3600)  # a deadlock, as a lock inherited held would give
        return -x

    started = time.monotonic()
    assert map_in_forks(run, list(range(4)), 2, stall_s=2) == [0, -1, -2, -3]
    assert time.monotonic() - started < 30


def test_a_part_that_raises_raises_here_too() -> None:
    def run(x: int) -> int:
        if x == 2:
            raise ValueError("part 2 is bad")
        return x

    with pytest.raises(ValueError, match="part 2"):
        map_in_forks(run, list(range(4)), 2)
