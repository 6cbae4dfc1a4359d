""""how do they work?" after a patient's medications, which share no target, said "The listed drugs in the knowledge graph
act on: Sodium-dependent noradrenaline transporter (1 of 3), Tumor necrosis factor (1 of 3), …", without which drug
acts on which. Each drug is now named with what it acts on; listed drugs that share a target keep the count."""

from __future__ import annotations

import re

import pytest

from agents.state import Status
from tests.conftest import in_thread
from tools.answers import direct_chains

LEAD = 'Understood as: "How do the listed drugs work?" The listed drugs act on no target in common in the knowledge graph: '


@pytest.mark.parametrize("pid", ["PAT_002", "PAT_003"])
def test_a_patients_medications_are_told_one_by_one(run_graph, resources, pid: str) -> None:
    listed, out = in_thread(run_graph, f"each-{pid}", f"What is {pid} taking?", "how do they work?")
    meds = [e["tail"] for e in listed["evidence"]]
    assert len(meds) >= 2 and out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith(LEAD) and "(1 of " not in out["answer"], out["answer"]
    told = out["answer"][len(LEAD):].split(". Best evidence")[0].split("; ")
    assert [t.split(" acts on ")[0].split(" ")[0] for t in told] == [m.split(" ")[0] for m in meds], (told, meds)
    kg = resources.kg
    for med, part in zip(meds, told, strict=True):  # what each is said to act on is its own
        drug = resources.linker.link(med).best
        assert drug is not None and part.startswith(med), (med, part)
        if " acts on " in part:
            first = re.split(r", | and ", part.split(" acts on ", 1)[1])[0]
            assert first in {kg.name(c[-1].tail) for c in direct_chains(kg, drug.id)}, (med, part)


def test_listed_drugs_that_share_a_target_keep_the_count(run_graph) -> None:
    _listed, out = in_thread(run_graph, "each-gout", "What drugs treat gout?", "how do they work?")
    assert "The listed drugs in the knowledge graph act on: " in out["answer"], out["answer"]
    assert re.search(r"\(\d of \d\)", out["answer"]), out["answer"]
