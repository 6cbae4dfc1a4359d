"""Follow-ups about the last answer itself, and "that" as a subject.

- "show me the sources", "where does that come from?" and "can you explain the second step?" were NOT_FOUND ("no
  known entity in the question"). A request for sources asks the last question again and lists the citations in the
  text; a step is asked about on its own.
- "how does that treat diabetes?" after "What does metformin target?" was NOT_FOUND ("that" is not in the graph).
- "does dasatinib do that?" after "What does imatinib target?" was answered with what dasatinib is connected to.
"""

from __future__ import annotations

import pytest
from conftest import in_thread

from agents.state import Status


@pytest.mark.parametrize("ask", ["show me the sources", "where does that come from?", "What are your sources?",
                                 "citations please", "how do you know that?",
                                 # these were NOT_FOUND ("no known entity in the question")
                                 "can you cite your sources?", "what is that based on?",
                                 # since stop 98; NOT_FOUND before, and the last two opened "Yes: "
                                 "what studies support that?", "any references?", "is there a paper on that?",
                                 "are there studies about it?"])
def test_a_request_for_sources_asks_the_last_question_again_and_lists_them(run_graph, ask: str) -> None:
    first, again = in_thread(run_graph, f"src-{ask}", "How does lisinopril treat hypertension?", ask)
    assert again["status"] is Status.ANSWERED, again["answer"]
    assert again["understood_as"] == first["messages"][-1]["question"]
    assert again["evidence"] == first["evidence"]
    assert " Sources: " in again["answer"] and "UniProt:P12821" in again["answer"]  # angiotensin-converting enzyme
    assert [c.get("id") for c in again["citations"]] == [c.get("id") for c in first["citations"]]
    assert not again["answer"].split('" ', 1)[-1].startswith("Yes"), again["answer"]  # no yes or no was asked


@pytest.mark.parametrize("ask", ["are you sure?", "is that correct?", "can I trust that?", "really?"])
def test_whether_the_last_answer_is_right_says_what_it_rests_on(run_graph, ask: str) -> None:
    """They were NOT_FOUND ("no known entity in the question", or '"are you sure" is not in the knowledge graph')."""
    first, sure = in_thread(run_graph, f"sure-{ask}", "How does lisinopril treat hypertension?", ask)
    assert sure["status"] is Status.ANSWERED and sure["evidence"] == first["evidence"], sure["answer"]
    assert " It rests on these curated DrugMechDB relations, which the Reviewer checked against the graph; they are not " \
           "a clinical judgement. Sources: " in sure["answer"] and "UniProt:P12821" in sure["answer"], sure["answer"]


def test_sources_with_nothing_asked_before_are_asked_about() -> None:
    from agents.followup import resolve_followup

    res = resolve_followup("show me the sources", [], linker=None)  # no turn to read: the linker is never asked
    assert res.missing == "the sources"


@pytest.mark.parametrize("question", ["What is the evidence that vitamin D prevents fractures?",
                                      "what is the proof that statins prevent strokes?"])
def test_a_question_that_opens_with_the_word_evidence_is_a_question_of_its_own(question: str) -> None:
    """It was read as a request for the sources of an answer not yet given: "nothing earlier in this conversation for
    "the sources" to refer to"."""
    from agents.followup import resolve_followup

    res = resolve_followup(question, [], linker=None)
    assert res.missing == "" and not res.references


@pytest.mark.parametrize(("ask", "k"), [("can you explain the second step?", 1), ("what is step 3?", 2),
                                        ("explain the first step", 0), ("and the last step?", -1)])
def test_a_step_of_the_last_path_is_asked_about_on_its_own(run_graph, ask: str, k: int) -> None:
    first, step = in_thread(run_graph, f"step-{ask}", "How does lisinopril treat hypertension?", ask)
    asked = first["evidence"][k]
    assert step["status"] is Status.ANSWERED, step["answer"]
    assert step["understood_as"] == f"How does {asked['head_name']} act on {asked['tail_name']}?"
    assert (step["evidence"][0]["head"], step["evidence"][-1]["tail"]) == (asked["head"], asked["tail"])
    assert {c.get("id") for c in step["citations"]} >= {asked["head"], asked["tail"]}


def test_a_step_past_the_end_of_the_path_says_how_many_there_are(run_graph) -> None:
    first, step = in_thread(run_graph, "past", "How does lisinopril treat hypertension?", "explain step 9")
    n = len(first["evidence"])
    assert step["status"] is Status.NOT_FOUND
    assert f"the last answer's path has {n} steps" in step["answer"]


@pytest.mark.parametrize("ask", ["how does that treat diabetes?", "how does this help with type 2 diabetes?"])
def test_that_as_a_subject_is_the_thread_s_drug(run_graph, ask: str) -> None:
    _, out = in_thread(run_graph, f"that-{ask}", "What does metformin target?", ask)
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism", out["answer"]
    assert out["understood_as"].startswith("How does Metformin ")
    assert out["evidence"][0]["head_name"] == "Metformin"


def test_that_after_a_verb_of_its_own_is_no_reference(run_graph) -> None:
    _, out = in_thread(run_graph, "mean", "What does metformin target?", "what does that mean?")
    assert not out["understood_as"].startswith("What does Metformin")


@pytest.mark.parametrize(("first", "ask", "asked"), [
    ("What does imatinib target?", "does dasatinib do that?", "What does Dasatinib target?"),
    ("What does ibuprofen treat?", "does naproxen do that too?", "What does naproxen treat?"),
])
def test_doing_that_after_what_a_drug_targets_or_treats_asks_it_of_the_named_drug(run_graph, first, ask, asked) -> None:
    _, out = in_thread(run_graph, f"do-{ask}", first, ask)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == asked, out["answer"]


def test_tell_me_more_about_a_listed_drug_asks_how_it_treats_the_thread_s_disease(run_graph) -> None:
    """It was "Tell me more about pegloticase?", answered with what pegloticase is connected to."""
    first, more = in_thread(run_graph, "more", "What drugs treat gout?", "tell me more about the first one")
    drug = first["ranked_answers"][0]["name"]
    assert more["status"] is Status.ANSWERED and more["understood_as"] == f"How does {drug} treat Gout?", more["answer"]


@pytest.mark.parametrize(("questions", "asked"), [
    (("How does allopurinol treat gout?", "what's the difference with febuxostat?"), "Compare allopurinol and Febuxostat"),
    (("How does allopurinol treat gout?", "how does febuxostat compare?"), "Compare allopurinol and Febuxostat"),
    (("How does imatinib treat CML?", "and nilotinib?", "which of these is more specific?"), "Compare imatinib and nilotinib"),
])
def test_setting_a_drug_against_the_thread_s_drug_compares_them(run_graph, questions: tuple[str, ...], asked: str) -> None:
    """The first was answered with what febuxostat is connected to; the last was NOT_FOUND ("no known entity")."""
    out = in_thread(run_graph, f"vs-{questions[-1]}", *questions)[-1]
    assert out["status"] is Status.ANSWERED and out["understood_as"] == asked, out["answer"]
    assert out["intent"] == "targets" and len(out["among"]) == 2


def test_steps_after_a_step_still_count_along_the_first_path(run_graph) -> None:
    """"what does the third step mean?" after "explain step two" asked about the one-step answer to step two."""
    first, two, three = in_thread(run_graph, "steps2", "How does lisinopril treat hypertension?", "explain step two",
                                "what does the third step mean?")
    for out, k in ((two, 1), (three, 2)):
        asked = first["evidence"][k]
        assert out["understood_as"] == f"How does {asked['head_name']} act on {asked['tail_name']}?", out["answer"]


def test_a_failed_turn_does_not_hide_the_last_path_or_question(run_graph) -> None:
    first, failed, step, sources = in_thread(run_graph, "steps3", "How does lisinopril treat hypertension?",
                                           "How does zorblaxin treat gout?", "explain the first step",
                                           "is there a source for this?")
    assert failed["status"] is Status.NOT_FOUND
    asked = first["evidence"][0]
    assert step["understood_as"] == f"How does {asked['head_name']} act on {asked['tail_name']}?", step["answer"]
    assert sources["understood_as"] == step["understood_as"] and " Sources: " in sources["answer"]


@pytest.mark.parametrize("ask", ["is that the only mechanism?", "are there other paths?", "any other mechanisms?",
                                 "how else does it work?", "are there other ways it does that?", "is that all?"])
@pytest.mark.parametrize("first_q", ["How does colchicine treat gout?", "How does lisinopril lower blood pressure?"])
def test_other_paths_ask_the_last_question_again_and_list_the_accepted_ones(run_graph, first_q: str, ask: str) -> None:
    """"is that the only mechanism?" and "are there other paths?" after an answer were NOT_FOUND ("no known entity in
    the question"). The other paths are other routes, through other entities: after how lisinopril lowers blood
    pressure they were the answer's own route with another relation on its last step, and "is that the only
    mechanism?" opened "Yes: "; "are there other ways it does that?" and "is that all?" were NOT_FOUND."""
    first, again = in_thread(run_graph, f"paths-{first_q}-{ask}", first_q, ask)
    assert again["status"] is Status.ANSWERED and again["understood_as"] == first["messages"][-1]["question"], again["answer"]
    assert again["evidence"] == first["evidence"] and not again["excluded"]  # "other" leaves nothing out here
    assert "Yes: " not in again["answer"], again["answer"]
    accepted = [again["candidates"][i] for i in again["review"]["accepted"]]
    route = [accepted[0]["triples"][0]["head"], *(t["tail"] for t in accepted[0]["triples"])]
    others = [p for p in accepted[1:] if [p["triples"][0]["head"], *(t["tail"] for t in p["triples"])] != route]
    if others:
        assert " Other routes the Reviewer accepted" in again["answer"] and f"2. {others[0]['text']}." in again["answer"]
        shown = again["answer"].split(" Other routes the Reviewer accepted")[1]
        assert all(p["text"] not in shown for p in accepted[1:] if p not in others), shown  # no variant of the answer's route
    else:
        assert " The Reviewer accepted no other route for this question." in again["answer"], again["answer"]
    if first_q.startswith("How does lisinopril"):
        assert others, again["answer"]
    assert "Leaving out" not in again["answer"]


@pytest.mark.parametrize("asked", ["list drugs that inhibit EGFR", "can you name the drugs that inhibit EGFR?"])
def test_how_many_after_a_request_to_list_counts_it(run_graph, asked: str) -> None:
    """"how many are there?" after "list drugs that inhibit EGFR" was NOT_FOUND: only "what/which drugs …" was counted."""
    _, count = in_thread(run_graph, f"count-{asked}", asked, "how many are there?")
    assert count["understood_as"] == "How many drugs inhibit EGFR?", count["answer"]
    assert count["intent"] == "count" and " drugs in the knowledge graph inhibit Epidermal growth factor receptor" in count["answer"]


def test_that_after_a_drug_s_indications_is_the_first_disease_listed(run_graph) -> None:
    """"how does it work for that?" after "what is it used for?" in a thread that began with warfarin's target was read
    as the target ("How does warfarin act on Vitamin K epoxide reductase …?"): it is the first disease the answer
    listed."""
    *_, used, how = in_thread(run_graph, "for-that", "what does warfarin do?", "what is it used for?", "how does it work for that?")
    first = used["messages"][-1]["items"][0]["name"]
    assert how["understood_as"] == f"How does warfarin treat {first}?", how["answer"]


@pytest.mark.parametrize("ask", ["how many are there?", "how many?", "and how many of them are there in total?"])
def test_how_many_after_a_list_counts_it(run_graph, ask: str) -> None:
    """"how many are there?" after "What drugs target EGFR?" was NOT_FOUND ("no known entity in the question")."""
    _, count = in_thread(run_graph, "count", "What drugs target EGFR?", ask)
    assert count["understood_as"] == "How many drugs target EGFR?", count["answer"]
    assert count["intent"] == "count" and " drugs in the knowledge graph act on Epidermal growth factor receptor" in count["answer"]
    _, statins = in_thread(run_graph, "count2", "which drugs are statins?", ask)
    assert statins["understood_as"] == "How many drugs are statins?" and "lists 8 statins" in statins["answer"], statins["answer"]


def test_which_receptor_that_is_asks_what_the_drug_acts_on(run_graph) -> None:
    """"what receptor is that?" after "How does montelukast treat asthma?" was NOT_FOUND ("no known entity in the
    question")."""
    mechanism, out = in_thread(run_graph, "which-receptor", "How does montelukast treat asthma?", "what receptor is that?")
    assert out["understood_as"] == "Which receptor does Montelukast act on?" and out["intent"] == "targets", out["answer"]
    assert out["status"] is Status.ANSWERED and out["evidence"][0] == mechanism["evidence"][0], out["answer"]


@pytest.mark.parametrize("ask", ["give me an example", "for example?", "can you name one?"])
def test_an_example_after_a_class_answer_is_the_drug_its_evidence_starts_from(run_graph, ask: str) -> None:
    """"give me an example" after "How do SSRIs treat depression?" was NOT_FOUND ("no known entity in the question")."""
    by_class, example = in_thread(run_graph, f"example-{ask}", "How do SSRIs treat depression?", ask)
    drug = by_class["messages"][-1]["steps"][0]["head_name"]
    assert example["understood_as"] == f"How does {drug} treat Depressive disorder?", example["answer"]
    assert example["status"] is Status.ANSWERED, example["answer"]
    assert example["evidence"][0]["head"] == by_class["evidence"][0]["head"], example["answer"]
    indications, one = in_thread(run_graph, f"example2-{ask}", "What do beta blockers treat?", ask)
    named = indications["messages"][-1]["steps"][0]["head_name"]
    assert one["understood_as"] == f"What does {named} treat?", one["answer"]
    _, none = in_thread(run_graph, f"example3-{ask}", "How does imatinib treat CML?", ask)
    assert none["status"] is Status.NOT_FOUND, none["answer"]  # no class to take an example of


def test_it_and_it_are_the_thread_s_drug_and_what_it_acts_on(run_graph) -> None:
    """"does it cure it?" after how donepezil treats Alzheimer's disease was "Does it cure donepezil?", and "does it
    block it?" after salbutamol's receptor "Does it block Salbutamol?": both answered with what the drug is connected
    to."""
    _, cure = in_thread(run_graph, "it-it", "How does donepezil treat Alzheimer's disease?", "does it cure it?")
    assert cure["understood_as"] == "Does donepezil cure Alzheimer's disease?", cure["answer"]
    assert "not whether it cures it" in cure["answer"], cure["answer"]
    *_, later = in_thread(run_graph, "it-it-later", "How does donepezil treat Alzheimer's disease?",  # turns since about
                          "are there other drugs like donepezil?", "does it cure it?")  # its target: the thread's disease
    assert later["understood_as"] == "Does donepezil cure Alzheimer's disease?", later["answer"]
    _, block = in_thread(run_graph, "it-it2", "Which receptor does salbutamol act on?", "does it block it?")
    assert block["understood_as"] == "Does Salbutamol block Beta-2 adrenergic receptor?", block["answer"]
    assert block["answer"].split('" ', 1)[1].startswith("No: in the knowledge graph Salbutamol activates"), block["answer"]


def test_after_a_step_the_thread_stays_on_its_drug_and_disease(run_graph) -> None:
    """After "explain the second step" of how allopurinol treats gout, "is it safe with colchicine?", "what are the
    symptoms?" and "what causes it?" were about the step's protein, Xanthine dehydrogenase/oxidase ("What causes
    Xanthine dehydrogenase/oxidase?", NOT_FOUND); so were they after the drugs acting on that protein."""
    turns = in_thread(run_graph, "after-step", "How does allopurinol treat gout?", "explain the second step",
                      "is it safe with colchicine?", "what else works that way?", "what are the symptoms?", "what causes it?")
    assert turns[2]["understood_as"] == "Is allopurinol safe with colchicine?", turns[2]["answer"]
    assert turns[3]["understood_as"].endswith("Xanthine dehydrogenase/oxidase?") and "allopurinol left out" in turns[3]["answer"]
    assert [t["understood_as"] for t in turns[4:]] == ["What are the symptoms of Gout?", "What causes Gout?"]
    assert all(t["status"] is Status.ANSWERED for t in turns), [t["answer"] for t in turns]


@pytest.mark.parametrize("then", ["which step is the most important?", "what's the key step?", "which step matters most?"])
def test_the_most_important_step_is_the_first_with_the_note(run_graph, then: str) -> None:
    """It was NOT_FOUND, "no known entity in the question". The graph does not weigh steps: the note says so, and the
    first step, where the drug acts, is explained."""
    _first, out = in_thread(run_graph, f"key-step-{then}", "How does metformin treat type 2 diabetes?", then)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"].startswith("How does Metformin act on "), out["answer"]
    assert "not which step of a mechanism matters most" in out["answer"], out["answer"]


def test_which_one_is_the_most_important_after_a_list_is_no_step(run_graph) -> None:
    """A guard: after a list of drugs, "which one is the most important?" is about the listed drugs, as before."""
    _first, out = in_thread(run_graph, "key-one", "What drugs treat gout?", "which one is the most important?")
    assert out["understood_as"].startswith("Compare "), out["answer"]
