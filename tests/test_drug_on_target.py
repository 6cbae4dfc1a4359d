""""Does imatinib inhibit ABL1?" asks how the drug acts on the protein: it was read as a question about imatinib alone
("imatinib is connected to: …"), its second name never linked. The answer says yes, or that the graph has the drug
acting the other way."""

from __future__ import annotations

import pytest

from agents.intent import parse_question
from agents.state import Intent, State, Status
from agents.verdict import verdict
from tests.conftest import in_thread


def test_the_wordings_that_ask_whether_a_drug_acts_on_a_protein() -> None:
    for q, x, y in (("Does imatinib inhibit ABL1?", "imatinib", "ABL1"), ("does salbutamol activate the beta-2 receptor", "salbutamol",
                                                                         "beta-2 receptor"),
                    ("Can aspirin block COX-1?", "aspirin", "COX-1"), ("is losartan an antagonist of AT1 receptor?", "losartan", "AT1 receptor"),
                    ("does sildenafil bind to PDE5?", "sildenafil", "PDE5")):
        parsed = parse_question(q)
        assert parsed is not None and parsed.intent is Intent.RELATION and (parsed.drug, parsed.disease, parsed.y_slot) == (x, y, "target"), q
    parsed = parse_question("does metformin cause lactic acidosis?")
    assert parsed is not None and parsed.y_slot == ""  # a disease, as before


def test_yes_or_the_other_way(run_graph, resources) -> None:
    out, _ = run_graph({"question": "Does atorvastatin inhibit HMG-CoA reductase?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and resources.kg.name(out["targets"][0]) == "3-hydroxy-3-methylglutaryl-coenzyme A reductase"
    assert [m["slot"] for m in out["mentions"]] == ["drug", "target"]
    assert out["answer"].startswith("Yes: atorvastatin acts on 3-hydroxy-3-methylglutaryl-coenzyme A reductase through a 1-step")
    out, _ = run_graph({"question": "does salbutamol block the beta-2 adrenergic receptor?"}, interactive=False, memory=False)
    assert out["answer"].startswith("No: in the knowledge graph Salbutamol activates Beta-2 adrenergic receptor, the opposite")
    out, _ = run_graph({"question": "How does imatinib treat CML?"}, interactive=False, memory=False)
    assert out["answer"].startswith("imatinib acts on")  # no verdict for a mechanism question


def test_two_names_neither_a_drug_are_linked_not_a_mechanism(run_graph) -> None:
    out, _ = run_graph({"question": "What is the connection between gout and uric acid?"}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph links Uric Acid to Gout in 1 step: "), out["answer"]


def test_yes_when_a_drug_s_path_lowers_the_disease_asked_about(run_graph) -> None:
    """"Does ibuprofen help with fever?" was told the path alone, with no yes; a question that is no yes/no is not."""
    out, _ = run_graph({"question": "Does ibuprofen help with fever?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith("Yes: Ibuprofen acts on Fever through a "), out["answer"]
    how, _ = run_graph({"question": "How does ibuprofen treat fever?"}, thread="t2", interactive=False, memory=False)
    assert how["answer"].startswith("Ibuprofen acts on Fever through a "), how["answer"]


@pytest.mark.parametrize(("first", "then", "opening"), [
    ("how does aspirin treat pain?", "does it help with fever?", "Yes: Aspirin acts on Fever"),
    ("what does montelukast do?", "could it help with allergies?", "Yes: Montelukast acts on Allergy"),
    ("how does aspirin treat pain?", "how does it treat fever?", "Aspirin acts on Fever"),
    ("how does prednisone reduce inflammation?", "is that why it's used for asthma?", "prednisone acts on Asthma"),
])
def test_a_yes_or_no_follow_up_is_answered_yes(run_graph, first: str, then: str, opening: str) -> None:
    """"does it help with fever?" after aspirin is understood as how aspirin treats fever, and was told the path with
    no yes, as the question asked alone was before; a follow-up that asks how gets no verdict, nor one that asks whether
    the last answer is why (its chain into asthma need not pass through inflammation)."""
    _first, out = in_thread(run_graph, f"yes-{then}", first, then)
    assert out["understood_as"].startswith(("How does ", "Why is ")), out["answer"]
    assert out["status"] is Status.ANSWERED and out["answer"].split('" ', 1)[1].startswith(opening), out["answer"]


def test_a_cure_is_not_answered_yes(run_graph) -> None:
    """"Does donepezil cure Alzheimer's?" was answered "Yes: " for a path that lowers the disease: the graph records how
    a drug acts, not whether it cures."""
    out, _ = run_graph({"question": "Does donepezil cure Alzheimer's disease?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and not out["answer"].startswith("Yes"), out["answer"]
    assert out["answer"].startswith("The knowledge graph records how it lowers the disease, not whether it cures it: "
                                    "donepezil acts on Alzheimer's disease through a "), out["answer"]


@pytest.mark.parametrize(("question", "then"), [
    ("Does donepezil slow the progression of Alzheimer's disease?", None),
    ("How does donepezil treat Alzheimer's?", "does it slow the disease?"),
])
def test_a_slowed_course_is_not_answered_yes(run_graph, question: str, then: str | None) -> None:
    """"Does donepezil slow Alzheimer's disease?" was answered "Yes: " for a chain through acetylcholine, which says
    nothing of the disease's course; "does metoprolol slow the heart rate?" still has its yes."""
    out = in_thread(run_graph, f"slow-{question}", question, then)[-1] if then else \
        run_graph({"question": question}, interactive=False, memory=False)[0]
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].split('" ', 1)[-1].startswith("The knowledge graph records how it lowers the disease, not whether "
                                                      "it slows its course: donepezil acts on "), out["answer"]
    rate, _ = run_graph({"question": "Does metoprolol slow the heart rate?"}, interactive=False, memory=False)
    assert rate["answer"].startswith("Yes: "), rate["answer"]


def test_a_target_before_inhibitor_asks_whether_the_drug_acts_on_it(run_graph) -> None:
    """"is aspirin a COX inhibitor?" matched no rule and was answered without a yes or no. A class the class table
    knows ("is losartan an ACE inhibitor?") is still a question of membership."""
    parsed = parse_question("is ibuprofen a COX-2 inhibitor?")
    assert parsed is not None and (parsed.intent, parsed.drug, parsed.disease, parsed.y_slot) == (
        Intent.RELATION, "ibuprofen", "COX-2", "target")
    out, _ = run_graph({"question": "is aspirin a COX inhibitor?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith("Yes: Aspirin acts on Prostaglandin G/H synthase")
    ace, _ = run_graph({"question": "is losartan an ACE inhibitor?"}, thread="ace", interactive=False, memory=False)
    assert ace["answer"].startswith("No: Losartan is not among the ACE inhibitors"), ace["answer"]


@pytest.mark.parametrize(("question", "drug", "target"), [("is KIT a target of imatinib?", "imatinib", "KIT"),
                                                          ("is ABL1 targeted by imatinib?", "imatinib", "ABL1"),
                                                          ("is PDGFRA one of the targets of imatinib?", "imatinib", "PDGFRA")])
def test_a_target_named_first_asks_whether_the_drug_acts_on_it(question: str, drug: str, target: str) -> None:
    """"is KIT a target of imatinib?" was told what imatinib is connected to."""
    parsed = parse_question(question)
    assert parsed is not None and (parsed.intent, parsed.drug, parsed.disease, parsed.y_slot) == (
        Intent.RELATION, drug, target, "target"), parsed


@pytest.mark.parametrize(("question", "opening"), [
    ("does imatinib target PDGFRA?", "Yes: imatinib acts on Platelet-derived growth factor receptor alpha through a 1-step"),
    ("is ABL1 targeted by imatinib?", "Yes: imatinib acts on Tyrosine-protein kinase ABL1 through a 1-step"),
    ("does enalapril target ACE?", "Yes: Enalapril acts on Angiotensin-converting enzyme through a 2-step"),  # enalaprilat
])
def test_whether_a_drug_targets_a_protein_is_answered_yes(run_graph, question: str, opening: str) -> None:
    """A question whether a drug targets or binds a protein, in no direction, was answered with the path alone."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(opening), out["answer"]


def test_a_chain_to_the_protein_is_not_directly() -> None:
    """A drug that reaches the protein through other steps is not said to target it: "Not directly: "."""
    state = State(question="does metformin target X?", intent=Intent.RELATION.value,
                  mentions=[{"slot": "drug"}, {"slot": "target"}])
    step = {"head_name": "a", "relation": "decreases activity of", "tail_name": "b"}
    assert verdict(state, [step]) == "Yes: "
    assert verdict(state, [step, {**step, "relation": "positively regulates"}]) == "Not directly: "
    assert verdict(state, [{**step, "relation": "has metabolite"}, step]) == "Yes: "
    assert verdict(State(question="is there a link between a and b?",
                         intent=Intent.RELATION.value, mentions=[{"slot": "drug"}, {"slot": "target"}]), [step]) == ""


def test_a_mechanism_question_ending_at_a_protein_s_activity_gets_a_verdict(run_graph) -> None:
    """"Does metformin act on AMPK?" is read as a mechanism whose end is AMPK's activity (a molecular activity, not a
    disease): it got no yes or no, because the chain raises that activity and only a lowered disease said "Yes"."""
    state = State(question="does metformin act on AMPK?", intent=Intent.MECHANISM.value,
                  mentions=[{"slot": "drug", "entity": {"type": "Drug"}},
                            {"slot": "disease", "entity": {"type": "MolecularActivity"}}])
    step = {"head_name": "a", "relation": "decreases activity of", "tail_name": "b"}
    chain = [step, {**step, "relation": "positively regulates"}]
    assert verdict(state, chain) == "Not directly: "
    assert verdict(state, [{**step, "relation": "increases activity of"}]) == "Yes: "
    disease = State(question="does ibuprofen act on fever?", intent=Intent.MECHANISM.value,
                    mentions=[{"slot": "drug", "entity": {"type": "Drug"}}, {"slot": "disease", "entity": {"type": "Disease"}}])
    raised = [{**step, "relation": "increases activity of"}, {**step, "relation": "positively regulates"}]
    assert verdict(disease, raised) == ""  # a disease the chain raises is no "Yes", and a disease is no target
    out, _ = run_graph({"question": "Does metformin act on AMPK?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED
    assert out["answer"].startswith(("Not directly: Metformin acts on AMP-activated protein kinase", "Yes: Metformin acts on AMP")), out["answer"]
