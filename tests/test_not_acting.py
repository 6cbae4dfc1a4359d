""""Which gout drugs don't act on xanthine oxidase?": the disease's drugs, leaving out those that act on it that way.
The negation was ignored: the answer listed the gout drugs with febuxostat among them."""

from __future__ import annotations

import pytest

from agents.not_acting import not_acting_on
from agents.resolution import Resolution
from agents.state import DRUG_TYPES, Status
from tools.answers import acting_on


@pytest.mark.parametrize(("question", "verb"), [
    ("Which gout drugs don't act on xanthine oxidase?", "act on"),
    ("which drugs treat gout without inhibiting xanthine oxidase?", "inhibit"),
    ("what drugs for gout do not target xanthine oxidase?", "act on"),
    # they listed the xanthine oxidase inhibitors, the negation dropped
    ("which drugs treat gout but not by inhibiting xanthine oxidase?", "inhibit"),
    ("what drugs treat gout other than by inhibiting xanthine oxidase?", "inhibit"),
])
def test_the_drugs_that_act_that_way_are_left_out(run_graph, resources, question: str, verb: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats", out["answer"]
    assert f"Leaving out the drugs that {verb} Xanthine dehydrogenase/oxidase, as asked." in out["answer"]
    xo = resources.linker.link("xanthine oxidase").best
    acting = set(acting_on(resources.kg, xo.id, DRUG_TYPES))
    names = [a["id"] for a in out["ranked_answers"]]
    assert acting and names and not acting & set(names), out["answer"]
    assert out["targets"] and resources.kg.node(out["targets"][0]).name == "Gout"


@pytest.mark.parametrize("question", ["Which gout drugs act on xanthine oxidase?", "How does allopurinol treat gout?",
                                      "how does allopurinol treat gout without side effects?",
                                      "which drugs don't treat gout?"])
def test_other_questions_are_read_as_before(resources, question: str) -> None:
    assert not_acting_on(resources, Resolution(question=question)).question == question


def test_a_listed_set_is_kept_and_the_drugs_that_act_that_way_left_out(run_graph, resources) -> None:
    """"which of those don't inhibit xanthine oxidase?" after "What drugs treat gout?" was NOT_FOUND ("no known entity")."""
    from tests.conftest import in_thread

    listed, neg, urate = in_thread(run_graph, "neg", "What drugs treat gout?", "which of those don't inhibit xanthine oxidase?",
                                   "which of them do not act on uric acid?")
    xo = resources.linker.link("xanthine oxidase").best
    acting = set(acting_on(resources.kg, xo.id, DRUG_TYPES))
    shown = {a["id"] for a in listed["ranked_answers"]}
    kept = [a["id"] for a in neg["ranked_answers"]]
    assert neg["status"] is Status.ANSWERED and neg["understood_as"] == "Which of the listed drugs treat Gout?", neg["answer"]
    assert "Leaving out the drugs that inhibit Xanthine dehydrogenase/oxidase, as asked." in neg["answer"]
    assert shown & acting and kept and set(kept) == shown - acting, neg["answer"]  # the list's others, and only them
    # pegloticase, Lesinurad and benzbromarone are left: since stop 98 the two uricosurics act on Uric Acid through urate
    # salt excretion (``tools.answers.acting_on``), so none of them is left (Lesinurad and benzbromarone were kept)
    assert urate["status"] is Status.NOT_FOUND and "Leaving out the drugs that act on Uric Acid" in urate["answer"]
    assert "every drug found with a verified mechanism is among the drugs that act on Uric Acid" in urate["answer"]
    lower = in_thread(run_graph, "neg2", "What drugs treat gout?", "which of those don't lower uric acid?")[1]
    assert "Leaving out the drugs that lower Uric Acid, as asked." in lower["answer"], lower["answer"]  # a chemical: not "inhibit"


def test_a_listed_set_that_all_act_that_way_or_has_no_disease_says_why(run_graph) -> None:
    from tests.conftest import in_thread

    statins = in_thread(run_graph, "s", "Which statins treat hypercholesterolemia?", "which of them don't inhibit HMG-CoA reductase?")[1]
    assert statins["status"] is Status.NOT_FOUND
    assert "every drug found with a verified mechanism is among the drugs that inhibit 3-hydroxy-3-methylglutaryl-coenzyme A " \
           "reductase, which the question leaves out" in statins["answer"], statins["answer"]
    egfr = in_thread(run_graph, "e", "What drugs target EGFR?", "which of those don't inhibit EGFR?")[1]
    assert egfr["status"] is Status.NOT_FOUND and 'ask "Which of them inhibit EGFR?"' in egfr["answer"], egfr["answer"]


@pytest.mark.parametrize("question", ["which drugs do not act on COX?", "what drugs don't inhibit ACE?"])
def test_drugs_not_acting_on_a_target_with_no_disease_are_not_those_that_do(run_graph, question: str) -> None:
    """"which drugs do not act on COX?" dropped the negation and listed the drugs that act on it. With no disease to
    choose from, it asks for most of the graph's drugs: the answer says so and how to ask."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    target = question.split(" on ")[-1].split(" inhibit ")[-1].rstrip("?")
    assert out["status"] is Status.NOT_FOUND and not out["ranked_answers"], out["answer"]
    assert (f"the knowledge graph records what drugs act on, and most of its drugs do not act on {target}; name a disease"
            in out["answer"]), out["answer"]
    kept, _ = run_graph({"question": "which gout drugs don't act on xanthine oxidase?"}, interactive=False, memory=False)
    assert kept["status"] is Status.ANSWERED and kept["answer"].startswith("Leaving out"), kept["answer"]  # as before


def test_a_drug_acting_on_a_chemical_through_a_process_acts_on_it(run_graph, resources) -> None:
    """"Which drugs treat gout but not by lowering uric acid?" listed Lesinurad: it acts on URAT1, which lowers urate
    salt excretion, which lowers uric acid, one step more than the answer read for a chemical. A process few targets
    act on counts (since stop 98); "positively correlated with" does not, nor does a process most drugs reach."""
    uric = next(c for c in resources.linker.link("uric acid").candidates if c.name == "Uric Acid")
    lowering = {resources.kg.name(d) for d in acting_on(resources.kg, uric.id, DRUG_TYPES, -1)}
    assert {"Lesinurad", "Probenecid", "benzbromarone", "allopurinol", "Febuxostat"} <= lowering, lowering
    out, _ = run_graph({"question": "which drugs treat gout but not by lowering uric acid?"}, interactive=False, memory=False)
    names = {a["name"] for a in out["ranked_answers"]}
    assert out["status"] is Status.ANSWERED and names and not names & lowering, out["answer"]
    ach = next(c for c in resources.linker.link("acetylcholine").candidates if c.name == "Acetylcholine")
    raising = {resources.kg.name(d) for d in acting_on(resources.kg, ach.id, DRUG_TYPES, 1)}
    assert "donepezil" in raising and "Atropine" not in raising, sorted(raising)  # an antagonist does not raise it
