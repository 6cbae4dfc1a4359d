""""How does Gleevec work in leukemia?": of the diseases an ambiguous name fits, those the fewest steps from the
question's drug come first. It was answered for Acute lymphoblastic leukemia, the most connected leukemia, three
steps from imatinib; Chronic myeloid leukemia is two."""

from __future__ import annotations

from agents.state import Status
from tools.walker import hops_between


def test_an_ambiguous_disease_is_read_nearest_to_the_drug_first(run_graph, resources) -> None:
    kg = resources.kg
    out, _ = run_graph({"question": "how does Gleevec work in leukemia"}, thread="g", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and kg.name(out["targets"][0]) == "Chronic myeloid leukemia"
    disease = next(m for m in out["mentions"] if m["slot"] == "disease")
    drug = out["sources"][0]
    steps = [hops_between(kg, [drug], [c["id"]]) for c in disease["candidates"]]
    known = [s for s in steps if s is not None]
    assert known == sorted(known) and steps[0] == 2, steps  # nearest first; none farther than the first
    out, _ = run_graph({"question": "how does Gleevec work in leukemia"}, thread="i")  # interactive: the offer's order
    payload = out["__interrupt__"][0].value
    assert payload["candidates"][0]["name"] == "Chronic myeloid leukemia"


def test_a_disease_name_without_a_drug_keeps_the_linker_order(run_graph) -> None:
    out, _ = run_graph({"question": "What drugs treat leukemia?"}, thread="t", interactive=False, memory=False)
    disease = next(m for m in out["mentions"] if m["slot"] == "disease")
    assert disease["entity"]["name"] == "Acute lymphoblastic leukemia"  # the most connected, as before
