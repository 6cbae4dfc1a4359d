"""Loaders on the shipped data and on broken files."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.datasets import load_nodes, load_passages, load_paths, load_triples, split_tune_check
from core.errors import DataError


def test_real_data_loads(settings) -> None:
    dm = settings.data_dir / "drugmechdb"
    nodes = load_nodes(dm / "nodes.tsv")
    triples = load_triples(dm / "triples.tsv")
    assert len(nodes) == 5128
    assert len(triples) == 10791
    records = load_paths(dm / "paths_dev.jsonl", limit=10)
    assert len(records) == 10 and all(r.gold_chains for r in records)
    assert load_passages(settings.data_dir / "pubmedqa" / "pqal_dev.json")


def test_split_is_grouped_by_drug(settings) -> None:
    records = load_paths(settings.data_dir / "drugmechdb" / "paths_dev.jsonl")
    tune, check = split_tune_check(records)
    assert tune and check and len(tune) + len(check) == len(records)
    assert not {r.drug_id for r in tune} & {r.drug_id for r in check}


def test_broken_files_name_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "triples.tsv"
    bad.write_text("head_id\thead_name\thead_type\trelation\ttail_id\ttail_name\ttail_type\nA\ta\tDrug\n")
    with pytest.raises(DataError, match=r"triples.tsv:2"):
        load_triples(bad)
    paths = tmp_path / "p.jsonl"
    paths.write_text('{"id": "x", "question": "q", "gold_triples": []}\n{not json\n')
    with pytest.raises(DataError, match=r"p.jsonl:2"):
        load_paths(paths)
    with pytest.raises(DataError, match="cannot read"):
        load_nodes(tmp_path / "missing.tsv")
