""""What does atorvastatin target?" opened with lipoprotein lipase, which no other statin acts on: a drug's targets
that the most of its class (by its name, ``memory/drug_classes.tsv``) act on come first."""

from __future__ import annotations

from agents.state import Status
from tools.answers import class_share

HMGCR = "3-hydroxy-3-methylglutaryl-coenzyme A reductase"


def _id(kg, name: str) -> str:
    return next(e.id for e in kg.entities.values() if e.name == name)


def test_a_drug_s_classmates_are_the_other_drugs_of_its_classes(resources) -> None:
    kg, linker = resources.kg, resources.linker
    atorvastatin = _id(kg, "atorvastatin")
    mates = {kg.name(m) for m in linker.classmates(atorvastatin)}
    assert "atorvastatin" not in mates and {"Simvastatin", "Pravastatin"} <= mates
    assert linker.classmates(_id(kg, "Hypertensive disorder")) == []


def test_what_a_class_shares_is_counted_over_its_drugs(resources) -> None:
    kg, linker = resources.kg, resources.linker
    shared = class_share(kg, linker.classmates(_id(kg, "atorvastatin")))
    assert shared[_id(kg, HMGCR)] >= 5 > shared[_id(kg, "Lipoprotein lipase")]
    assert class_share(kg, []) == {}


def test_the_target_a_drug_s_class_shares_comes_first(run_graph) -> None:
    out, _ = run_graph({"question": "What does atorvastatin target?"}, thread="order", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targets"
    names = [a["name"] for a in out["ranked_answers"]]
    assert names[0] == HMGCR and "Lipoprotein lipase" in names, names
    out, _ = run_graph({"question": "What does propranolol target?"}, thread="order2", interactive=False, memory=False)
    assert [a["name"] for a in out["ranked_answers"][:2]] == ["Beta-1 adrenergic receptor", "Beta-2 adrenergic receptor"]
