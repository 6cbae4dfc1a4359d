"""The per-question lookups the ranker keeps: each worked out once, and a path's nodes safe to change."""

from __future__ import annotations

from memory.protocols import Edge
from tools.memo import Memo
from tools.walker import CandidatePath


def test_a_memo_works_each_key_out_once() -> None:
    calls: list[str] = []

    def degree(x: str) -> int:
        calls.append(x)
        return len(x)

    memo: Memo[str, int] = Memo(degree)
    assert [memo[x] for x in ("ab", "abc", "ab", "ab")] == [2, 3, 2, 2]
    assert calls == ["ab", "abc"]


def test_a_paths_nodes_are_read_once_and_a_callers_copy_is_its_own() -> None:
    p = CandidatePath((Edge("D", "decreases activity of", "P"), Edge("P", "causes", "Y")), (0.9, 0.8))
    nodes = p.nodes
    assert nodes == ["D", "P", "Y"]
    nodes.append("X")  # a caller's list: the path keeps its own
    assert p.nodes == ["D", "P", "Y"] and p.hops == 2
    assert CandidatePath((), ()).nodes == []
