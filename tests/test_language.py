"""Questions in another language are told that medpath reads English (since stop 102): "¿cómo trata el imatinib la
leucemia mieloide crónica?" was answered with what imatinib is connected to, the disease dropped without a word, and
"comment fonctionne l'aspirine?" was NOT_FOUND, the sentence looked up as a name."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from agents.language import foreign
from agents.state import Status

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.mark.parametrize(("question", "language"), [
    ("¿cómo trata el imatinib la leucemia mieloide crónica?", "Spanish"),
    ("como funciona la metformina", "Spanish"),
    ("comment fonctionne l'aspirine?", "French"),
    ("wie wirkt ibuprofen?", "German"),
    ("阿司匹林如何起作用", "a language other than English"),
    ("How does imatinib treat CML?", ""),
    ("what is la crosse encephalitis?", ""),  # a name with "la" in an English question
    ("imatinib leucemia", ""),  # names alone: read as before
    ("hola", ""),
])
def test_the_language_a_question_reads_as(question: str, language: str) -> None:
    assert foreign(question) == language


def test_no_english_question_or_name_of_the_data_reads_as_another_language() -> None:
    """Every question of the question file and of the paraphrased check half, and every name and alias of the graph,
    reads as English (the rule would refuse them otherwise)."""
    texts = [json.loads(line)["question"] for f in ("drugmechdb/paths_dev.jsonl", "paraphrase/paths_check_paraphrased.jsonl")
             for line in (DATA / f).read_text(encoding="utf-8").splitlines() if line.strip()]
    with (DATA / "drugmechdb" / "nodes.tsv").open(encoding="utf-8") as fh:
        for row in csv.reader(fh, delimiter="\t"):
            texts += [row[1], *(row[3].split("|") if len(row) > 3 and row[3] else [])]
    assert len(texts) > 10_000
    assert [t for t in texts if foreign(t)] == []


def test_a_question_in_spanish_is_told_to_ask_in_english(run_graph) -> None:
    out, _ = run_graph({"question": "¿cómo trata el imatinib la leucemia mieloide crónica?"}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and not out["candidates"], out["answer"]
    assert "the question reads as Spanish, and medpath reads questions in English" in out["answer"], out["answer"]
    assert "\"How does imatinib work?\"" in out["answer"], out["answer"]
