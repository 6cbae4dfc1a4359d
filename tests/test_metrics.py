"""Metrics on hand-made cases."""

from __future__ import annotations

from medpath.metrics import f1, hit_at_k, path_f1_best_chain, recall_at_k

A, B, C, D = ("a", "r", "b"), ("b", "r", "c"), ("c", "r", "d"), ("x", "r", "y")


def test_recall_and_hit() -> None:
    assert recall_at_k([], [A]) == 0.0
    assert recall_at_k([A, D], [A, B]) == 0.5
    gold = [("g", "r", str(i)) for i in range(8)]
    assert recall_at_k(gold[:5] + [D], gold) == 1.0  # gold longer than 5: denominator is 5
    misses = [("m", "r", str(i)) for i in range(5)]
    assert hit_at_k([*misses, A], [A]) == 0.0  # sixth place is outside the top 5
    assert hit_at_k([D, A], [A]) == 1.0


def test_path_f1_best_chain() -> None:
    gold = [A, B, C, D]
    assert path_f1_best_chain([A, B], gold, [[0, 1], [0, 2, 3]]) == 1.0
    assert round(path_f1_best_chain([A, C], gold, [[0, 1], [0, 2, 3]]), 3) == 0.8
    assert path_f1_best_chain([], gold, [[0]]) == 0.0
    assert f1([A], []) == 0.0
