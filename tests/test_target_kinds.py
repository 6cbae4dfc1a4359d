""""Which receptor does propranolol block?": what a drug acts on, of the kind and in the direction asked, first."""

from __future__ import annotations

import pytest

from agents.intent import parse_question
from agents.kinds import target_kind
from agents.state import Intent
from tools.answers import of_target_kind


@pytest.mark.parametrize("question, kind", [
    ("Which receptor does propranolol block?", "receptor"),
    ("what enzymes does atorvastatin inhibit?", "enzyme"),
    ("which channel does amlodipine block?", "channel"),
    ("What pump does omeprazole inhibit?", "transporter"),
    ("what does propranolol target?", ""),
])
def test_the_kind_of_target_asked_for(question: str, kind: str) -> None:
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.TARGETS and target_kind(question) == kind


def test_target_names_say_their_kind() -> None:
    assert of_target_kind("Beta-1 adrenergic receptor", "receptor")
    assert not of_target_kind("Vascular endothelial growth factor A", "receptor")
    assert of_target_kind("3-hydroxy-3-methylglutaryl-coenzyme A reductase", "enzyme")
    assert of_target_kind("Potassium-transporting ATPase alpha chain 1", "transporter")
    assert of_target_kind("anything", "")


def test_targets_of_the_asked_kind_and_direction_come_first(run_graph) -> None:
    out, _ = run_graph({"question": "Which receptor does propranolol block?"}, interactive=False, memory=False)
    names = [a["name"] for a in out["ranked_answers"]]
    assert names[:2] == ["Beta-1 adrenergic receptor", "Beta-2 adrenergic receptor"], names  # VEGF-A came second
    assert "Vascular endothelial growth factor A" in names  # listed after them, not dropped
    out, _ = run_graph({"question": "what enzymes does atorvastatin inhibit?"}, interactive=False, memory=False)
    assert out["ranked_answers"][0]["name"] == "3-hydroxy-3-methylglutaryl-coenzyme A reductase"
    assert out["evidence"][-1]["tail_name"] == "3-hydroxy-3-methylglutaryl-coenzyme A reductase"  # not the lipase it raises
    assert out["answer"].startswith("atorvastatin acts on: 3-hydroxy-3-methylglutaryl-coenzyme A reductase, Lipoprotein")


def test_a_target_not_of_the_asked_kind_is_said_apart(run_graph) -> None:
    """"what receptor does propranolol block?" listed Vascular endothelial growth factor A, a ligand, among the
    receptors. The answer lists the receptors, then says what else the drug acts on. A kind that names need not carry
    (a kinase: imatinib's KIT is a receptor tyrosine kinase) is listed first, with the others after it."""
    out, _ = run_graph({"question": "what receptor does propranolol block?"}, interactive=False, memory=False)
    assert out["answer"].startswith("Propranolol acts on: Beta-1 adrenergic receptor, Beta-2 adrenergic receptor. "
                                    "Best evidence: "), out["answer"]
    assert out["answer"].endswith(" Propranolol also acts on Vascular endothelial growth factor A, which its name does "
                                  "not call a receptor."), out["answer"]
    out, _ = run_graph({"question": "what kinase does imatinib inhibit?"}, interactive=False, memory=False)
    assert out["answer"].startswith("imatinib acts on: Tyrosine-protein kinase ABL1, Mast/stem cell growth factor "
                                    "receptor Kit"), out["answer"]
    assert "also acts on" not in out["answer"], out["answer"]
    plain, _ = run_graph({"question": "what does propranolol target?"}, interactive=False, memory=False)  # no kind asked
    assert "Vascular endothelial growth factor A" in plain["answer"].split(". Best evidence")[0], plain["answer"]
