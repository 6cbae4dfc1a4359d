"""Metrics on hand-made cases."""

from __future__ import annotations

import pytest

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


def test_recall_edge_cases() -> None:
    assert recall_at_k([], []) == 0.0  # no gold: nothing to recall
    assert recall_at_k([A, A, A, B], [A, B]) == 1.0  # duplicates count once, order kept
    gold = [("g", "r", str(i)) for i in range(7)]
    assert recall_at_k(gold[:3], gold) == 3 / 5
    assert hit_at_k([], [A]) == 0.0


def test_path_f1_several_chains_and_all_gold() -> None:
    gold = [A, B, C, D]
    chains = [[0, 1, 2], [3]]
    assert path_f1_best_chain([D], gold, chains) == 1.0  # matches the short chain exactly
    assert round(path_f1_best_chain([A, B], gold, chains), 3) == 0.8  # 2/2 precision, 2/3 recall
    assert round(f1([A, B], gold), 3) == round(2 * 1.0 * 0.5 / 1.5, 3)  # against all gold triples
    assert path_f1_best_chain([A], [A], []) == 1.0  # no chains: the whole gold set is the chain
    assert f1([A, D], [A]) == 2 * 0.5 * 1.0 / 1.5


def test_mean_percentile_recall_at_1() -> None:
    from medpath.metrics import mean, percentile, recall_at_1

    assert mean([]) == 0.0 and mean([1.0, 0.0]) == 0.5
    assert percentile([], 50) == 0.0 and percentile([1.0, 2.0, 3.0], 50) == 2.0
    assert recall_at_1(["a", None, "c"], ["a", "b", "x"]) == 1 / 3
    assert recall_at_1([], []) == 0.0
    assert recall_at_1([None], [None]) == 0.0  # "nothing" is never a hit (leaks are counted apart)


def test_label_accuracy() -> None:
    from medpath.metrics import label_accuracy

    overall, per = label_accuracy(["A", "A", "B", "C"], ["A", "B", "B", "A"])
    assert overall == 0.5 and per == {"A": 0.5, "B": 1.0, "C": 0.0}
    assert label_accuracy([], []) == (0.0, {})
    with pytest.raises(ValueError):
        label_accuracy(["A"], [])

