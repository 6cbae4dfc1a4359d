""""How many drugs target EGFR?", "How many targets does imatinib have?", "How many statins are there?": counted from
the graph's edges and the class table (they were answered with what the entity is connected to, and no number)."""

from __future__ import annotations

import csv
import re

import pytest

from agents.counts import COUNT_SHOWN, count_question
from agents.intent import parse_question
from agents.state import DRUG_TYPES, Intent, Status
from tests.conftest import in_thread
from tools.answers import TARGET_TYPES, acting_on


def _id(resources, name: str) -> str:
    return resources.linker.link(name).candidates[0].id


def _count(answer: str) -> int:
    m = re.search(r"(\d[\d,]*) (?:drugs?|proteins?|statins|beta blockers)", answer)
    assert m is not None, answer
    return int(m[1].replace(",", ""))


def test_drugs_acting_on_a_target_are_counted(run_graph, resources) -> None:
    kg, egfr = resources.kg, _id(resources, "EGFR")
    direct = {e.head for e in kg.in_edges(egfr) if kg.node(e.head).type in DRUG_TYPES}
    out, _ = run_graph({"question": "How many drugs target EGFR?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "count", out["answer"]
    assert _count(out["answer"]) >= len(direct) > 0, out["answer"]
    assert all(kg.name(d) in out["answer"] for d in list(direct)[:3] if _count(out["answer"]) <= COUNT_SHOWN), out["answer"]
    assert "connected to" not in out["answer"] and not out.get("retrieved"), out["answer"]


@pytest.mark.parametrize("words", ["calcium channels", "sodium channels"])
def test_a_kind_of_target_counts_its_channels_not_its_processes(run_graph, resources, words: str) -> None:
    """"how many drugs block calcium channels?" counted the two drugs of the gene family named exactly so; every
    channel of the kind counts now. A process of those words is no channel, and the drugs reaching one through some
    other target are not counted (three sodium channel "blockers" came in that way)."""
    kg = resources.kg
    out, _ = run_graph({"question": f"how many drugs block {words}?"}, interactive=False, memory=False)
    kind = [c.id for c in resources.linker.family(words, []) if c.type in TARGET_TYPES]
    kind += [resources.linker.link(words).best.id]
    blocking = {d for x in kind for d in acting_on(kg, x, DRUG_TYPES, -1)}
    assert out["status"] is Status.ANSWERED and _count(out["answer"]) == len(blocking) > 10, out["answer"]


def test_a_direction_is_counted_apart(run_graph) -> None:
    both, up = in_thread(run_graph, "b2", "how many drugs act on the beta-2 adrenergic receptor?",
                         "how many drugs activate the beta-2 adrenergic receptor?")
    m = re.search(r"\((\d+) inhibit it, (\d+) activate it\)", both["answer"])
    assert m is not None, both["answer"]
    assert _count(up["answer"]) == int(m[2]) < _count(both["answer"]), (both["answer"], up["answer"])


def test_a_drug_s_targets_and_a_follow_up_on_them(run_graph, resources) -> None:
    kg, imatinib = resources.kg, _id(resources, "imatinib")
    direct = {e.tail for e in kg.out_edges(imatinib) if kg.node(e.tail).type in ("Protein", "GeneFamily")}
    _, count, second = in_thread(run_graph, "t", "How does imatinib treat CML?", "how many targets does it have?",
                                 "the second one")
    assert count["understood_as"] == "How many targets does imatinib have?", count["answer"]
    assert _count(count["answer"]) >= len(direct) > 1 and all(kg.name(x) in count["answer"] for x in direct), count["answer"]
    listed = count["answer"].rsplit(": ", 1)[1].split(", ")
    assert listed[1].rstrip(".") in second["understood_as"], (count["answer"], second["understood_as"])


def test_a_class_and_the_whole_graph_are_counted(run_graph, resources) -> None:
    statins, _ = run_graph({"question": "how many statins are there?"}, interactive=False, memory=False)
    assert _count(statins["answer"]) == len(resources.linker.drug_class("statins")) > 1, statins["answer"]
    total, _ = run_graph({"question": "how many drugs are in the knowledge graph?"}, thread="t2", interactive=False,
                         memory=False)
    with open("data/drugmechdb/nodes.tsv", encoding="utf-8") as f:
        drugs = sum(1 for row in csv.DictReader(f, delimiter="\t") if row["type"] == "Drug")
    assert total["answer"] == f"The knowledge graph (DrugMechDB) holds {drugs:,} drugs.", total["answer"]


def test_counts_the_graph_does_not_hold_say_so(run_graph) -> None:
    out, _ = run_graph({"question": "how many drugs treat gout?"}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not counts of a disease's drugs"), out["answer"]
    assert out["intent"] == "treats" and out["ranked_answers"], out["answer"]
    treated, _ = run_graph({"question": "how many diseases does imatinib treat?"}, thread="t2", interactive=False, memory=False)
    assert treated["intent"] == "indications" and "Chronic myeloid leukemia" in treated["answer"], treated["answer"]

    # "in the graph" between the noun and the verb: answered with what Asthma is connected to ("graph" read as a name)
    within, _ = run_graph({"question": "how many drugs in the graph treat asthma?"}, thread="t3", interactive=False,
                          memory=False)
    assert within["intent"] == "treats" and within["ranked_answers"], within["answer"]
    assert within["answer"].startswith("The knowledge graph holds curated drug mechanisms, not counts of a disease's drugs")
    assert parse_question("which drugs in the knowledge graph treat gout?").intent is Intent.TREATS
    assert getattr(parse_question("what drugs are in the graph"), "intent", None) is not Intent.TREATS

@pytest.mark.parametrize("question", ["How many patients have gout?", "What drugs target EGFR?", "how many drugs target qwzx?",
                                      "How does imatinib treat CML?"])
def test_other_questions_are_no_count(resources, question: str) -> None:
    assert count_question(question, resources) is None
