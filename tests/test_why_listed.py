""""why isn't allopurinol listed?" and "why is pegloticase first?" after "Which drugs treat gout?": the drug's place in
the list, what the list ranks by, and the drug's mechanism for the disease. The first was answered with what
allopurinol is connected to, and "why is febuxostat on the list?" was NOT_FOUND ("on the list" is not in the
knowledge graph)."""

from __future__ import annotations

import pytest

from agents.state import Intent, State, Status
from agents.why_none import why_none
from tests.conftest import in_thread

_ORDINAL = ["first", "second", "third", "fourth", "fifth"]


@pytest.mark.parametrize("place, wording", [(0, "why is {} first?"), (2, "why is {} on the list?"),
                                            (4, "why did you list {}?"),
                                            (1, "why {}?")])  # it told the mechanism alone (since stop 102)
def test_a_listed_drug_s_place_and_mechanism(run_graph, place: int, wording: str) -> None:
    listed = run_graph({"question": "Which drugs treat gout?"}, thread=f"why-{place}", interactive=False, memory=False)[0]
    items = listed["messages"][-1]["items"]
    name, disease = items[place]["name"], listed["messages"][-1]["disease"]["name"]
    out = run_graph({"question": wording.format(name)}, thread=f"why-{place}", interactive=False, memory=False)[0]
    assert out["understood_as"] == f"How does {name} treat {disease}?", out["answer"]
    assert out["status"] is Status.ANSWERED and out["evidence"][0]["head"] == items[place]["id"], out["answer"]
    lead = f"{name[:1].upper()}{name[1:]} is {_ORDINAL[place]} of the {len(items)} drugs listed for {disease}: the list ranks"
    assert lead in out["answer"], out["answer"]


@pytest.mark.parametrize("ask", ["why that one?", "why is that first?", "how come this one?"])
def test_why_that_one_right_after_a_list_is_about_its_first_drug(run_graph, ask: str) -> None:
    """"why that one?" after "what's the best treatment for high blood pressure?" was "Why Hypertensive disorder?",
    answered with what the disease is connected to."""
    listed, out = in_thread(run_graph, f"why-that-{ask}", "what's the best treatment for gout?", ask)
    first, disease = listed["messages"][-1]["items"][0], listed["messages"][-1]["disease"]["name"]
    assert out["understood_as"] == f"How does {first['name']} treat {disease}?", out["answer"]
    assert f"is first of the {len(listed['messages'][-1]['items'])} drugs listed for {disease}" in out["answer"], out["answer"]
    _, after = in_thread(run_graph, f"why-that2-{ask}", "How does colchicine treat gout?", ask)
    assert "is first of" not in after["answer"], after["answer"]  # no list to be first in


def test_a_drug_left_off_the_list_says_so(run_graph) -> None:
    listed, out = in_thread(run_graph, "why-not", "Which drugs treat gout?", "why isn't colchicine listed?")
    items, disease = listed["messages"][-1]["items"], listed["messages"][-1]["disease"]["name"]
    assert "colchicine" not in [i["name"].casefold() for i in items]
    assert out["understood_as"] == f"How does colchicine treat {disease}?", out["answer"]
    assert f"Colchicine was not among the {len(items)} drugs listed for {disease}: " in out["answer"], out["answer"]
    assert out["status"] is Status.ANSWERED and out["evidence"][-1]["tail"] == listed["messages"][-1]["disease"]["id"]


def test_why_not_a_drug_the_list_lacks_says_so(run_graph) -> None:
    """"why not colchicine?" after the drugs for gout told its mechanism alone; a drug that is on the list is not what
    "why not" asks about (since stop 102)."""
    listed, out = in_thread(run_graph, "why-not-bare", "Which drugs treat gout?", "why not colchicine?")
    items, disease = listed["messages"][-1]["items"], listed["messages"][-1]["disease"]["name"]
    assert out["understood_as"] == f"How does colchicine treat {disease}?", out["answer"]
    assert f"Colchicine was not among the {len(items)} drugs listed for {disease}: " in out["answer"], out["answer"]
    _, on = in_thread(run_graph, "why-not-on", "Which drugs treat gout?", f"why not {items[0]['name']}?")
    assert "drugs listed for" not in on["answer"], on["answer"]
    _, other = in_thread(run_graph, "why-bare-off", "Which drugs treat gout?", "why colchicine?")
    assert "drugs listed for" not in other["answer"], other["answer"]  # "why X?" is about a drug the list has


def test_without_a_list_of_drugs_for_a_disease_it_is_read_as_before(run_graph) -> None:
    out = run_graph({"question": "why isn't allopurinol listed?"}, thread="why-alone", interactive=False, memory=False)[0]
    assert "not among" not in out["answer"] and not out.get("understood_as", "").startswith("How does"), out["answer"]
    _, after = in_thread(run_graph, "why-targets", "What does allopurinol target?", "why is febuxostat on the list?")
    assert "drugs listed for" not in after["answer"], after["answer"]


@pytest.mark.parametrize("wording", ["is {} one of them?", "is {} on the list?", "was {} listed?", "is {} among them?"])
def test_whether_a_drug_is_on_the_list_is_answered_yes_or_no(run_graph, wording: str) -> None:
    """"is atorvastatin one of them?" after a list was answered with what atorvastatin acts on, not whether it was
    listed."""
    thread = f"is-listed-{wording.split()[-2]}"
    listed = run_graph({"question": "Which drugs treat gout?"}, thread=thread, interactive=False, memory=False)[0]
    items, disease = listed["messages"][-1]["items"], listed["messages"][-1]["disease"]["name"]
    second = run_graph({"question": wording.format(items[1]["name"])}, thread=thread, interactive=False, memory=False)[0]
    assert f"Yes: {items[1]['name']} is second of the {len(items)} drugs listed for {disease}" in second["answer"]
    assert "Its mechanism: Yes:" not in second["answer"], second["answer"]  # the yes is the lead's, said once
    # the list stays the gout list after that turn about one of its drugs, and after one about no disease
    _, out = in_thread(run_graph, thread, "how does probenecid work?", wording.format("colchicine"))
    assert out["understood_as"] == f"How does colchicine treat {disease}?", out["answer"]
    assert f"No: colchicine was not among the {len(items)} drugs listed for {disease}: " in out["answer"], out["answer"]


def test_a_drug_with_no_path_is_not_on_the_list_either(run_graph) -> None:
    _, asthma, out = in_thread(run_graph, "is-listed-asthma", "Which drugs treat gout?", "Which drugs treat asthma?",
                               "is allopurinol one of them?")
    n, disease = len(asthma["messages"][-1]["items"]), asthma["messages"][-1]["disease"]["name"]
    assert out["status"] is Status.NOT_FOUND, out["answer"]
    assert f"No: allopurinol was not among the {n} drugs listed for {disease}. No verified evidence" in out["answer"]


def test_none_of_the_listed_drugs_acting_on_a_kind_of_target_names_the_kind() -> None:
    """"which of them block sodium channels?" after a list with no sodium-channel blocker said that none "has a verified
    mechanism for Sodium channel protein type 5 subunit alpha", the first of the 17 channels it had looked for."""
    state = State(question="which of them block sodium channels?", intent=Intent.TARGETED_BY.value,
                  drug_class="listed drugs", among=["d1", "d2"], targets=["n1", "n2", "n3"],
                  mentions=[{"mention": "sodium channels", "slot": "target", "entity": {"id": "n1"}}])
    names = {"n1": "Sodium channel protein type 5 subunit alpha"}
    reason, _ = why_none(state, names.get)
    assert reason == ("none of the 2 listed drugs in the knowledge graph acts on sodium channels (any of the 3 entities"
                      " whose names hold those words)")
    one = State(question="which of them block ACE?", intent=Intent.TARGETED_BY.value, drug_class="listed drugs",
                among=["d1", "d2"], targets=["n1"])
    assert why_none(one, names.get)[0] == ("none of the 2 listed drugs in the knowledge graph acts on Sodium channel"
                                           " protein type 5 subunit alpha")


def test_whether_a_drug_is_on_a_target_s_list_is_answered_yes_or_no(run_graph) -> None:
    """"is allopurinol one of them?" after "Which drugs inhibit xanthine oxidase?" was told what allopurinol is
    connected to, and "is colchicine on the list?" what colchicine is connected to, with no yes or no."""
    listed, first, other = in_thread(run_graph, "target-list", "Which drugs inhibit xanthine oxidase?",
                                     "is allopurinol one of them?", "is colchicine on the list?")
    items, target = listed["messages"][-1]["items"], listed["messages"][-1]["target"]["name"]
    assert items[0]["name"] == "allopurinol", items
    assert first["understood_as"] == f"How does allopurinol act on {target}?", first["answer"]
    assert f"Yes: allopurinol is first of the {len(items)} drugs listed for {target}: the list ranks drugs by how " \
           "directly they act on it" in first["answer"] and "Its mechanism: Yes:" not in first["answer"], first["answer"]
    assert f"No: colchicine was not among the {len(items)} drugs listed for {target}" in other["answer"], other["answer"]
