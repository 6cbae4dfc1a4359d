"""A question that compares drugs ("compare aspirin and ibuprofen") is told what each acts on and what both do; one
about safety or interactions says first that the graph holds neither."""

from __future__ import annotations

import re

import pytest
from langgraph.types import Command

from agents.intent import out_of_scope
from agents.scope import INTERACTIONS
from agents.state import Status
from tests.conftest import in_thread

COMPARES = "The knowledge graph holds curated drug mechanisms, not comparisons of how well drugs work. What it holds: "


def test_two_compared_drugs_are_told_what_both_act_on(run_graph, resources) -> None:
    """"compare aspirin and ibuprofen" was NOT_FOUND: "no chain of relations from Aspirin to Ibuprofen"."""
    for question in ("compare aspirin and ibuprofen", "what is the difference between aspirin and ibuprofen?",
                     "how do aspirin and ibuprofen differ?", "aspirin or ibuprofen?"):
        out, _ = run_graph({"question": question}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED and out["compared"] and out["intent"] == "targets", question
        assert [resources.kg.name(x) for x in out["among"]] == ["Aspirin", "Ibuprofen"]
        both = [a["name"] for a in out["ranked_answers"] if a["path"]["features"]["class_drugs"] == 2]
        # a bare choice ("aspirin or ibuprofen?") was NOT_FOUND; how they differ asks what each acts on (no note)
        lead = COMPARES if question.startswith("compare") else ""
        assert both and out["answer"].startswith(f"{lead}Aspirin and Ibuprofen both act on: {', '.join(both)}."), out["answer"]
        assert ("how well drugs work" in out["answer"]) == bool(lead), out["answer"]


@pytest.mark.parametrize("question", ["Do ibuprofen and naproxen work the same way?", "Does ibuprofen work like naproxen?",
                                      "Does ibuprofen work the same as naproxen?", "does ibuprofen act in the same way as naproxen?"])
def test_whether_two_drugs_work_the_same_way_compares_them(run_graph, resources, question: str) -> None:
    """"Does ibuprofen work the same way as naproxen?" was NOT_FOUND: "no chain of relations from Ibuprofen to
    naproxen"."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    assert [resources.kg.name(x).casefold() for x in out["among"]] == ["ibuprofen", "naproxen"], out["among"]
    assert out["answer"].startswith("Ibuprofen and naproxen both act on: "), out["answer"]


def test_what_only_one_of_two_acts_on_is_told_as_its_own(run_graph, resources) -> None:
    """Simvastatin acts on HMG-CoA reductase through simvastatin hydroxy acid: both statins act on it."""
    out, _ = run_graph({"question": "how do atorvastatin and simvastatin differ?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["compared"]
    told = out["answer"].removeprefix(COMPARES)
    assert told.startswith("atorvastatin and Simvastatin both act on: 3-hydroxy-3-methylglutaryl-coenzyme A reductase")
    for a in out["ranked_answers"]:
        if a["path"]["features"]["class_drugs"] == 1:
            drug = resources.kg.name(a["path"]["triples"][0]["head"])
            assert f"Only {drug} acts on: " in told and a["name"] in told.split(f"Only {drug} acts on: ")[1], told


def test_more_than_two_are_counted_and_a_disease_asks_for_each_drug_s_mechanism(run_graph) -> None:
    out, _ = run_graph({"question": "compare aspirin, ibuprofen and naproxen"}, interactive=False, memory=False)
    assert out["compared"] and len(out["among"]) == 3
    assert out["answer"].startswith(f"{COMPARES}Aspirin, Ibuprofen and naproxen in the knowledge graph act on: ")
    assert "(3 of 3)" in out["answer"]
    out, _ = run_graph({"question": "aspirin vs ibuprofen for pain"}, interactive=False, memory=False)
    assert out["compared"] and out["intent"] == "treats" and not out["also_asked"]  # each drug's mechanism for pain
    out, _ = run_graph({"question": "How are codeine and morphine related?"}, interactive=False, memory=False)
    assert not out["compared"] and out["intent"] == "relation"  # no comparing word: the walk joins them


def test_two_drugs_no_chain_joins_are_related_by_what_they_act_on(run_graph, resources) -> None:
    """"how are aspirin and warfarin related?" was NOT_FOUND ("no chain of relations from Aspirin to warfarin"); codeine
    and morphine keep their walk (codeine has metabolite morphine)."""
    for question in ("how are aspirin and warfarin related?", "what is the relationship between aspirin and warfarin?"):
        out, _ = run_graph({"question": question}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED and out["compared"] and out["intent"] == "targets", out["answer"]
        assert [resources.kg.name(x) for x in out["among"]] == ["Aspirin", "warfarin"], out["among"]
        assert out["answer"].startswith("Aspirin and warfarin act on no target in common in the knowledge graph. Only "
                                        "Aspirin acts on: "), out["answer"]


def test_which_one_after_a_class_compares_its_drugs(run_graph, resources) -> None:
    """"which one is the strongest?" and "which one is the most selective?" after "What do statins target?" were
    NOT_FOUND ("no known entity in the question"): no drug had been listed. They compare the class's most connected
    drugs, and selectivity is a comparison the graph does not hold."""
    assert out_of_scope("which one is the most selective?") == out_of_scope("which one is stronger?")
    _, ranked = in_thread(run_graph, "cls", "What do statins target?", "which one is the strongest?")
    statins = [c.name for c in resources.linker.drug_class("statins")][:5]
    assert ranked["status"] is Status.ANSWERED and ranked["compared"], ranked["answer"]
    assert ranked["understood_as"] == f"Compare {', '.join(statins[:-1])} and {statins[-1]}", ranked["understood_as"]
    assert ranked["answer"].split(" What it holds: ")[0].endswith("not comparisons of how well drugs work."), ranked["answer"]


def test_the_thread_s_drug_set_against_one_named_with_it(run_graph) -> None:
    """"how is it different from aspirin?" after clopidogrel's target was answered with what aspirin is connected to,
    and "is that the same target as lisinopril?" after losartan's with "Is that Type-1 angiotensin II receptor as
    lisinopril?" (NOT_FOUND)."""
    _, differ = in_thread(run_graph, "vs1", "what's the target of clopidogrel?", "how is it different from aspirin?")
    assert differ["understood_as"] == "Compare Clopidogrel and Aspirin" and differ["compared"], differ["answer"]
    _, same = in_thread(run_graph, "vs2", "what does losartan block?", "is that the same target as lisinopril?")
    assert same["understood_as"] == "Do Losartan and lisinopril share a target?", same["answer"]
    assert same["status"] is Status.ANSWERED and "act on no target in common" in same["answer"], same["answer"]
    assert "how well drugs work" not in same["answer"]


@pytest.mark.parametrize("first, follow, understood", [
    ("what is the target of metformin?", "is that the same as for sitagliptin?", "Do Metformin and sitagliptin share a target?"),
    ("what does metformin target?", "does sitagliptin have the same target?", "Do Metformin and sitagliptin share a target?"),
    ("what does lisinopril target?", "does enalapril work the same way?", "Compare lisinopril and Enalapril"),
])
def test_another_drug_set_against_the_thread_s_in_other_words(run_graph, first: str, follow: str, understood: str) -> None:
    """"is that the same as for sitagliptin?" was read as a question about names ("Is Metformin the same as for
    sitagliptin?", NOT_FOUND), and "does sitagliptin have the same target?" as "Does sitagliptin have <metformin's
    target>?" (NOT_FOUND)."""
    _, out = in_thread(run_graph, f"vs-{follow}", first, follow)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED and out["compared"], out["answer"]


def test_a_protein_that_heads_drugs_names_is_compared_as_the_plainest_drug(run_graph, resources) -> None:
    """"compare metformin and insulin" linked the protein insulin and was NOT_FOUND ("no chain of relations from
    Metformin to insulin"). The drugs whose names "insulin" heads are the drugs meant; the plainest name stands for
    them."""
    from agents.state import DRUG_TYPES

    kg, heads = resources.kg, resources.linker.headed_by("insulin", DRUG_TYPES)
    plainest = min(heads, key=lambda d: (len(kg.name(d)), d))
    out, _ = run_graph({"question": "compare metformin and insulin"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["compared"] and plainest in out["among"], out["answer"]
    assert f"Only {kg.name(plainest)} acts on: " in out["answer"], out["answer"]


@pytest.mark.parametrize("turns", [("why is levodopa combined with carbidopa?",),
                                   ("how does levodopa work?", "why is it combined with carbidopa?"),
                                   # NOT_FOUND, '"added" is not in the knowledge graph'
                                   ("how does levodopa work?", "why is carbidopa added?")])
def test_why_two_drugs_are_given_together_compares_them(run_graph, turns: tuple[str, ...]) -> None:
    """"why is levodopa combined with carbidopa?" read "combined with carbidopa" as a disease and was NOT_FOUND ("no
    chain of relations from levodopa to carbidopa"); after levodopa, "why is it combined with carbidopa?" was answered
    with what carbidopa is connected to. The graph does not say why drugs are combined; it compares what they act on."""
    *_, out = in_thread(run_graph, f"combo-{len(turns)}", *turns)
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    assert "not why drugs are given together. What it holds: levodopa and carbidopa " in out["answer"], out["answer"]
    assert out_of_scope("why is aspirin used with clopidogrel?") == out_of_scope(turns[-1])
    assert out_of_scope("can I take aspirin with food?") == "drug interactions"


@pytest.mark.parametrize("then", ["are they the same?", "how are they related?", "are they similar?"])
def test_are_they_the_same_after_two_drugs_compares_them(run_graph, then: str) -> None:
    """"are they the same?" after turns about sumatriptan and zolmitriptan was "Are zolmitriptan the same?", and "how are
    they related?" was "How are zolmitriptan related?", told what zolmitriptan is connected to."""
    *_, out = in_thread(run_graph, f"alike-{then}", "how does sumatriptan work?", "and zolmitriptan?", then)
    assert out["understood_as"] == "Compare sumatriptan and zolmitriptan" and out["compared"], out["answer"]
    assert "sumatriptan and zolmitriptan both act on: " in out["answer"], out["answer"]


@pytest.mark.parametrize(("question", "drug"), [("Do they all work the same way?", "Febuxostat"),
                                              ("do they all act on the same target?", "Febuxostat"),
                                              ("What do they have in common?", "Febuxostat")])
def test_whether_listed_drugs_work_alike_compares_them_without_a_ranking_note(run_graph, question: str, drug: str) -> None:
    """After "What drugs treat gout?", "Do they all work the same way?" was asked of the disease ("Do Gout all work the
    same way?") and "do they all act on the same target?" was NOT_FOUND; "What do they have in common?" compared them
    but said the graph holds no comparisons of how well drugs work, which nobody asked."""
    *_, out = in_thread(run_graph, f"alike-{question}", "What drugs treat gout?", question)
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    assert out["understood_as"].startswith(f"Compare {drug}, "), out["understood_as"]
    assert "how well drugs work" not in out["answer"], out["answer"]


def test_antidotes_are_out_of_scope_and_reverse_transcriptase_is_not(run_graph) -> None:
    """"what reverses it?" after warfarin and "what is the antidote for heparin?" were answered with what the drug is
    connected to, and no word on what the graph lacks."""
    assert [out_of_scope(q) for q in ("what is the antidote for heparin?", "what reverses warfarin?",
                                      "how do you reverse heparin?", "what is reverse transcriptase?",
                                      "can metformin reverse diabetes?")] == ["antidotes or how to reverse a drug"] * 3 + [""] * 2
    _, out = in_thread(run_graph, "rev", "How does warfarin prevent blood clots?", "what reverses it?")
    assert out["answer"].split('" ', 1)[1].startswith("The knowledge graph holds curated drug mechanisms, not antidotes "
                                                      "or how to reverse a drug. What it holds: "), out["answer"]


def test_overdoses_are_out_of_scope_and_a_poisoning_the_graph_holds_is_not(run_graph) -> None:
    """"what happens if you overdose on acetaminophen?" was answered with what acetaminophen is connected to, and no
    word on what the graph lacks; "Methanol poisoning" is a disease of the graph, and cytotoxicity a process."""
    assert [out_of_scope(q) for q in ("what happens if you overdose on acetaminophen?", "what about an overdose?",
                                      "is digoxin toxicity common?", "what treats methanol poisoning?",
                                      "what is antibody-dependent cellular cytotoxicity?")] == ["overdoses"] * 3 + [""] * 2
    out, _ = run_graph({"question": "what happens if you overdose on acetaminophen?"}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not overdoses. What it holds: "
                                    "Acetaminophen"), out["answer"]


def test_generics_and_prescriptions_are_out_of_scope_and_names_are_not(run_graph) -> None:
    """"is there a generic version?" after imatinib was read as whether "there" and imatinib name one entity
    (NOT_FOUND, "there" is not in the knowledge graph)."""
    topic = "generics, brands on sale or whether drugs need a prescription"
    assert [out_of_scope(q) for q in ("is there a generic version of imatinib?", "is ibuprofen available over the counter?",
                                      "do I need a prescription for metformin?", "what is the generic name of tylenol?",
                                      "is Gleevec the generic version of imatinib?")] == [topic] * 3 + [""] * 2
    _, out = in_thread(run_graph, "generic", "How does imatinib treat CML?", "is there a generic version?")
    assert out["understood_as"] == "Is there a generic version of imatinib?", out["answer"]
    assert out["answer"].split('" ', 1)[1].startswith(f"The knowledge graph holds curated drug mechanisms, not {topic}. "
                                                      "What it holds: imatinib is connected to"), out["answer"]
    named, _ = run_graph({"question": "is Gleevec the generic version of imatinib?"}, interactive=False, memory=False)
    assert named["answer"].startswith("Yes: Gleevec and imatinib name the same entity"), named["answer"]


def test_safety_interactions_and_comparisons_are_out_of_scope() -> None:
    # "can statins be taken with grapefruit juice?" was said to ask why drugs are given together
    assert [out_of_scope(q) for q in ("which drugs should not be taken with grapefruit?",
                                      "can statins be taken with grapefruit juice?", "why is levodopa given with carbidopa?")
            ] == ["drug interactions"] * 2 + ["why drugs are given together"]
    assert [out_of_scope(q) for q in (
        "can I take ibuprofen with warfarin?", "is ibuprofen safe with warfarin?",
        "is it ok to take aspirin and ibuprofen together?", "is ibuprofen safe?", "which is the strongest?",
        "compare aspirin and ibuprofen", "what is the difference between aspirin and ibuprofen?",
        "What happens if I take too much tylenol?", "how many aspirin tablets are too many?", "what dose of metformin?",
    )] == ["drug interactions"] * 3 + ["safety"] + ["comparisons of how well drugs work"] * 2 + [""] + ["dosing"] * 3
    # how two drugs differ is what each acts on, which the graph holds: no note (it said there were no comparisons)
    # how long to take a drug was answered with what the drug is connected to, and no word on what the graph lacks
    assert [out_of_scope(q) for q in ("how long should I take it?", "for how long should I stay on warfarin?",
                                      "how long does it take for metformin to work?", "How long have patients taken imatinib?",
                                      )] == ["dosing", "dosing", "how soon drugs act", ""]
    # taking it every day was answered with what sumatriptan is connected to, and no word on what the graph lacks
    assert [out_of_scope(q) for q in ("Can I take it every day?", "is it ok to take ibuprofen daily?",
                                      "How does daily aspirin prevent heart attacks?")] == ["dosing", "dosing", ""]
    # a therapeutic range was answered with what digoxin is connected to, and no word on what the graph lacks
    assert [out_of_scope(q) for q in ("what is the therapeutic range of digoxin?", "digoxin therapeutic levels")] == ["dosing"] * 2
    # symptoms, who discovered a drug and stopping one were answered with what the graph holds, and no word on what it lacks
    assert [out_of_scope(q) for q in ("What are the symptoms of gout?", "What is the prognosis of CML?",
                                      "Who discovered imatinib?", "When was imatinib approved?",
                                      "What happens if I stop taking statins?")] == \
        ["symptoms or prognoses of diseases"] * 2 + ["who discovered drugs or when they were approved"] * 2 + ["stopping a drug"]
    # "stops", "stopped" and "discontinued" were not read as stopping a drug (answered with what the drug is connected to)
    assert [out_of_scope(q) for q in ("What happens if a patient stops taking Levothyroxine?", "what if she stops levothyroxine?",
                                      "should warfarin be discontinued before surgery?", "what if he stopped his statin?")] == \
        ["stopping a drug"] * 4
    assert [out_of_scope(q) for q in ("when patients stopped responding to imatinib, why?", "What does the stop codon do?")] \
        == ["", ""]
    assert [out_of_scope(q) for q in ("does aspirin reduce the symptoms of a cold?", "how does penicillin stop bacteria?",
                                      "What drugs treat alcohol withdrawal delirium?")] == [""] * 3
    # use in pregnancy was answered with what the drug is connected to, and no word on what the graph lacks
    assert [out_of_scope(q) for q in ("Can I take ibuprofen while pregnant?", "is aspirin ok during pregnancy?",
                                      "Can I take aspirin while breastfeeding?",
                                      # these two had no note either; "what about in pregnant women?" is a population
                                      "Can pregnant women take lisinopril?", "can nursing mothers take ibuprofen?")] == \
        ["use in pregnancy or breastfeeding"] * 5
    assert out_of_scope("What about in pregnant women?") == ""
    assert [out_of_scope(q) for q in ("How does imatinib treat CML?", "What drug treats Hyperglycemia?",
                                      "what is the best drug for gout?", "What does warfarin target?",
                                      "how dose imatinib treat CML?")] == [""] * 5  # "does", mistyped
    # "too much" of a substance is no dosing ("what diseases are caused by too much uric acid?" was said to ask it)
    assert [out_of_scope(q) for q in ("what diseases are caused by too much uric acid?", "is too much cortisol bad?",
                                      "is 4 grams too much?", "what happens if you take too many pills")
            ] == ["", "", "dosing", "dosing"]


def test_a_mistyped_does_is_read_as_does(run_graph) -> None:
    """"how dose imatinib treat CML" was a question about dosing ("imatinib is connected to: …")."""
    out, _ = run_graph({"question": "how dose imatinib treat CML"}, interactive=False, memory=False)
    assert out["intent"] == "mechanism" and out["answer"].startswith("imatinib acts on Chronic myeloid leukemia"), out["answer"]


@pytest.mark.parametrize(("question", "intent"), [("waht does metformin treat", "indications"),
                                                ("hwo does aspirin work?", "targets"), ("wich drugs treat gout", "treats")])
def test_a_mistyped_question_word_is_read_as_meant(run_graph, question: str, intent: str) -> None:
    """"waht does metformin treat" was read as keywords: "Metformin is connected to: …"."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["intent"] == intent and out["status"] is Status.ANSWERED, out["answer"]
    assert "connected to" not in out["answer"], out["answer"]


def test_how_soon_a_drug_acts_is_out_of_scope_and_is_not_part_of_its_name(run_graph) -> None:
    """"How long does it take for metformin to work?" linked "long does it take for metformin to" ("Read … as
    Metformin") and said nothing of the timing it asked for."""
    assert [out_of_scope(q) for q in ("How long does it take for metformin to work?", "how quickly does ibuprofen act",
                                      "How fast do statins work?", "which one works fastest?", "how does metformin work?")] == \
        ["how soon drugs act"] * 4 + [""]
    out, _ = run_graph({"question": "How long does it take for metformin to work?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and "Read " not in out["answer"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not how soon drugs act.")


def test_how_much_a_drug_changes_something_is_out_of_scope_and_told_the_mechanism(run_graph) -> None:
    """"How much does atorvastatin lower LDL?" told what atorvastatin is connected to, without LDL and without a word on
    amounts; "How strong is the effect of metformin on blood sugar?" was NOT_FOUND (a chain to Blood)."""
    assert [out_of_scope(q) for q in ("How much does atorvastatin lower LDL?", "How much?", "by how much?",
                                      "How strong is the effect of metformin on blood sugar?", "How much aspirin should I take?",
                                      "How much does lipitor cost?", "How much insulin is in the body?")] == \
        ["how much a drug changes something"] * 4 + ["dosing", "prices", ""]
    for q, disease in (("How much does atorvastatin lower LDL?", "Hypercholesterolemia"),
                       ("How strong is the effect of metformin on blood sugar?", "Blood Glucose")):  # "blood sugar" itself
        out, _ = run_graph({"question": q}, interactive=False, memory=False)
        assert out["intent"] == "mechanism" and out["status"] is Status.ANSWERED, out["answer"]
        assert out["evidence"][-1]["tail_name"] == disease, out["answer"]
        assert "The knowledge graph holds curated drug mechanisms, not how much a drug changes something. " in out["answer"]


def _turn(run_graph, thread: str, question: str) -> dict:
    _out, snap = run_graph({"question": question}, thread=thread, interactive=False)
    return dict(snap.values)


def test_comparing_listed_drugs_or_the_thread_s_two_drugs(run_graph) -> None:
    """"compare the first two" after a list of drugs, and "compare them" after turns about two drugs, were NOT_FOUND:
    "no known entity in the question"."""
    for i, follow in enumerate(("compare the first two", "how do the first and second differ?")):
        first = _turn(run_graph, f"cmp{i}", "What drugs treat gout?")
        a, b = (x["name"] for x in first["ranked_answers"][:2])
        out = _turn(run_graph, f"cmp{i}", follow)
        assert out["understood_as"] == f"Compare {a} and {b}" and out["compared"], follow
        lead = "" if "differ" in follow else COMPARES  # how they differ ranks nothing: no note on how well drugs work
        assert out["answer"].startswith(f'Understood as: "Compare {a} and {b}" {lead}'), out["answer"]
        assert ("how well drugs work" in out["answer"]) == bool(lead), out["answer"]
    _turn(run_graph, "cmp-two", "What does imatinib target?")
    _turn(run_graph, "cmp-two", "and dasatinib?")
    out = _turn(run_graph, "cmp-two", "compare them")
    assert out["understood_as"] == "Compare imatinib and Dasatinib" and out["compared"]
    assert "imatinib and Dasatinib both act on: Tyrosine-protein kinase ABL1" in out["answer"]
    assert "Only imatinib acts on: " in out["answer"]


def test_they_after_a_list_of_targets_are_the_listed_drugs(run_graph) -> None:
    """"how do they differ?" after "which of them are kinase inhibitors?" (all of the listed CML drugs) was "How do
    Radotinib differ?": that answer lists targets, and "they" fell back to one drug."""
    first = _turn(run_graph, "cmp-kind", "What drugs treat CML?")
    _turn(run_graph, "cmp-kind", "which of them are kinase inhibitors?")
    out = _turn(run_graph, "cmp-kind", "how do they differ?")
    names = [a["name"] for a in first["ranked_answers"]]
    assert out["understood_as"] == f"Compare {', '.join(names[:-1])} and {names[-1]}", out["answer"]
    assert out["compared"] and out["status"] == "ANSWERED"


def test_compared_drugs_that_act_on_no_protein(run_graph) -> None:
    """Pegloticase and rasburicase act on uric acid; the answer said "none of the 2 pegloticase and rasburicase has a
    verified mechanism for rasburicase"."""
    out, _ = run_graph({"question": "compare pegloticase and rasburicase"}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and out["targets"] == []
    assert out["answer"].endswith("No verified evidence was found: neither pegloticase nor rasburicase acts directly on a "
                                  "protein, gene family or macromolecular complex in the knowledge graph.")
    out, _ = run_graph({"question": "compare pegloticase and lesinurad"}, interactive=False, memory=False)
    assert "Only Lesinurad acts on: " in out["answer"], out["answer"]  # and pegloticase on no target ("none of them")
    assert "Pegloticase acts directly on no protein, gene family or macromolecular complex in the knowledge graph." \
        in out["answer"] and "none of them" not in out["answer"], out["answer"]


def test_it_after_two_compared_drugs_is_asked_about(run_graph, resources) -> None:
    """"What does it target?" right after "compare imatinib and dasatinib" was read as imatinib without a word: either
    drug fits. An interactive run asks which one and answers for it; a run that cannot ask keeps the first, and says
    how it read the question."""
    _out, snap = run_graph({"question": "compare imatinib and dasatinib"}, thread="cmp", memory=False)
    compared = snap.values["among"]
    _out, snap = run_graph({"question": "what does it target?"}, thread="cmp", memory=False)
    pending = [i.value for t in snap.tasks for i in t.interrupts]
    assert pending and pending[0]["kind"] == "followup" and pending[0]["mention"] == "it"
    assert [c["id"] for c in pending[0]["candidates"]] == compared
    _out, snap = run_graph(Command(resume="nilotinib"), thread="cmp", memory=False)  # not one of the two: asked again
    again = [i.value for t in snap.tasks for i in t.interrupts]
    assert again and again[0]["question"].startswith('"nilotinib" is not one of the options.')
    out, _ = run_graph(Command(resume=compared[1]), thread="cmp", memory=False)
    assert out["status"] is Status.ANSWERED and out["sources"] == [compared[1]], out["answer"]
    assert out["understood_as"] == f"What does {resources.kg.name(compared[1])} target?"
    later, _ = run_graph({"question": "how does it treat CML?"}, thread="cmp", memory=False)  # no longer two to choose from
    assert later["sources"] == [compared[1]] and later["status"] is Status.ANSWERED
    run_graph({"question": "compare imatinib and dasatinib"}, thread="cmp-auto", interactive=False, memory=False)
    auto, _ = run_graph({"question": "what does it target?"}, thread="cmp-auto", interactive=False, memory=False)
    assert auto["sources"] == [compared[0]] and auto["answer"].startswith("Understood as:")


def test_they_after_two_compared_drugs_are_both(run_graph) -> None:
    """"What do they target?" after "compare aspirin and ibuprofen" was understood as "What do Aspirin target?"."""
    _out, snap = run_graph({"question": "compare aspirin and ibuprofen"}, thread="they", memory=False)
    compared = snap.values["among"]
    for question in ("what do they target?", "what do they treat?"):  # the second after a question about both
        out, _ = run_graph({"question": question}, thread="they", memory=False)
        assert out["status"] is Status.ANSWERED and out["among"] == compared, (question, out["answer"])
        assert out["understood_as"] == question[0].upper() + question[1:].replace("they", "the listed drugs")


def test_a_question_that_ranks_two_drugs_is_told_what_each_acts_on(run_graph) -> None:
    """"is allopurinol better than colchicine?" was NOT_FOUND: "no chain of relations from allopurinol to colchicine"."""
    for question, names in (("is allopurinol better than colchicine?", ["allopurinol", "colchicine"]),
                            ("which is better, aspirin or ibuprofen?", ["Aspirin", "Ibuprofen"]),
                            ("which is stronger, morphine or codeine?", ["morphine", "codeine"]),
                            ("is aspirin more effective than ibuprofen?", ["Aspirin", "Ibuprofen"])):
        out, _ = run_graph({"question": question}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED and out["compared"], (question, out["answer"])
        assert out["answer"].startswith(COMPARES + f"{names[0]} and {names[1]} "), out["answer"]


def test_which_one_is_better_asks_about_the_thread_s_drugs(run_graph, resources) -> None:
    """"which one is better?" after a comparison or a list of drugs was NOT_FOUND ("no known entity in the question"),
    and "is it better than colchicine?" after a question about allopurinol answered what colchicine is connected to.
    Right after a turn about a disease, the drugs are compared for that disease."""
    _out, snap = run_graph({"question": "compare imatinib and dasatinib"}, thread="rank", memory=False)
    names = [resources.kg.name(x) for x in snap.values["among"]]
    for question in ("which one is better?", "which is more effective?"):
        out, _ = run_graph({"question": question}, thread="rank", memory=False)
        assert out["understood_as"] == f"Compare {names[0]} and {names[1]}" and out["compared"], out["answer"]
        assert out["answer"].startswith(f'Understood as: "Compare {names[0]} and {names[1]}" {COMPARES}')
    listed, _ = run_graph({"question": "What drugs treat gout?"}, thread="rank-list", memory=False)
    drugs = [a["name"] for a in listed["ranked_answers"]]
    out, _ = run_graph({"question": "which of them is best?"}, thread="rank-list", memory=False)
    assert out["understood_as"] == f"Compare {', '.join(drugs[:-1])} and {drugs[-1]} for Gout", out["answer"]
    statins, _ = run_graph({"question": "Which statins lower cholesterol?"}, thread="rank-class", memory=False)
    run_graph({"question": "how do they work?"}, thread="rank-class", memory=False)  # a list of targets comes between
    out, _ = run_graph({"question": "which one is the strongest?"}, thread="rank-class", memory=False)
    names = [a["name"] for a in statins["ranked_answers"]]
    assert out["understood_as"] == f"Compare {', '.join(names[:-1])} and {names[-1]}", out["answer"]
    run_graph({"question": "How does allopurinol treat gout?"}, thread="rank-it", memory=False)
    out, _ = run_graph({"question": "is it better than colchicine?"}, thread="rank-it", memory=False)
    assert out["understood_as"] == "Is allopurinol better than colchicine for Gout?" and out["compared"], out["answer"]
    assert [resources.kg.name(x) for x in out["among"]] == ["allopurinol", "colchicine"]


def test_advice_on_which_drug_to_take_is_out_of_scope() -> None:
    assert [out_of_scope(q) for q in ("which one should I take?", "What should I take for a headache?",
                                      "which would you recommend?", "what can I take for gout?", "How does imatinib treat CML?")
            ] == ["advice on which drug a person should take"] * 3 + ["", ""]


def test_what_should_someone_do_is_advice(run_graph) -> None:
    """"what should she do?" after a record and "what should I do about my gout?" had no note (since stop 98 they do;
    the first was NOT_FOUND alone, "no known entity in the question", and is now asked of the record: "What should
    PAT_003 do?", the records' note, then what the record holds)."""
    note = "The knowledge graph holds curated drug mechanisms, not advice on which drug a person should take."
    out, _ = run_graph({"question": "what should I do about my gout?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(f"{note} What it holds: "), out["answer"]
    run_graph({"question": "tell me about PAT_003"}, thread="advice-she", memory=False)
    out, _ = run_graph({"question": "what should she do?"}, thread="advice-she", memory=False)
    said = "The patient records hold conditions, medications and labs, not advice on what a patient should do. What they hold: PAT_003: "
    assert out["understood_as"] == "What should PAT_003 do?" and out["intent"] == "patient", out["answer"]
    assert out["status"] is Status.ANSWERED and out["answer"].split('" ', 1)[1].startswith(said), out["answer"]
    asked, _ = run_graph({"question": "what do you recommend for PAT_003?"}, interactive=False, memory=False)
    assert asked["intent"] == "patient" and asked["answer"].startswith(said), asked["answer"]
    assert out_of_scope("what should I do if it doesn't work?") != "advice on which drug a person should take"


@pytest.mark.parametrize(("question", "note"), [
    ("Is imatinib approved for CML?", "which drugs regulators have approved"),
    ("Is lisinopril recommended for hypertension?", "treatment guidelines (which drug comes first)"),
    ("Will sertraline help my depression?", "advice on which drug a person should take")])
def test_a_yes_or_no_the_graph_cannot_give_gets_its_note(run_graph, question: str, note: str) -> None:
    """The first and the last were answered "Yes: … acts on …", and the second with the mechanism alone."""
    assert out_of_scope(question) == note
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith(f"The knowledge graph holds curated drug mechanisms, not {note}. What it holds: ")
    assert "Yes" not in out["answer"]
    assert out_of_scope("How many drugs are approved for gout?") != "which drugs regulators have approved"
    assert out_of_scope("Will it help?") == "" and out_of_scope("Does it work for migraine?") == ""


def test_the_first_two_after_a_comparison_are_the_compared_drugs(run_graph) -> None:
    """"compare the first two" after "which one is the safest?" (a comparison of the five listed drugs, whose answer
    lists targets) was NOT_FOUND; and "safest" asks about safety, not how well drugs work."""
    listed, safest, two = in_thread(run_graph, "cmp", "What drugs treat asthma?", "which one is the safest?",
                                    "compare the first two")
    first = [a["name"] for a in listed["ranked_answers"][:2]]
    assert two["status"] is Status.ANSWERED and two["understood_as"] == f"Compare {first[0]} and {first[1]}", two["answer"]
    assert safest["answer"].split('" ', 1)[1].startswith("The knowledge graph holds curated drug mechanisms, not safety."), \
        safest["answer"]


def test_interactions_between_a_patient_s_medications_compare_them(run_graph) -> None:
    """"any interactions between them?" after a patient's medications asked what "them" meant, and "can she take them
    together?" asked which one "them" was."""
    meds, between, together = in_thread(run_graph, "meds", "What is PAT_002 taking?", "any interactions between them?",
                                        "can she take them together?")
    names = [i["name"] for i in meds["messages"][-1]["items"]]
    assert len(names) >= 2, meds["answer"]
    asked = f"Compare {', '.join(names[:-1])} and {names[-1]}"
    for out in (between, together):
        assert out["understood_as"] == asked and out["status"] is Status.ANSWERED, out["answer"]
        assert out["answer"].split('" ', 1)[1].startswith("The knowledge graph holds curated drug mechanisms, not drug "
                                                          "interactions. What it holds: "), out["answer"]


@pytest.mark.parametrize("question", ["is any of it risky together?", "is all of this ok together?",
                                      "are these safe to combine?"])
def test_the_whole_of_a_patient_s_medications_asked_about_together_compares_them(run_graph, question: str) -> None:
    """"is any of it risky together?" after a patient's medications asked which of her conditions "it" was, and "are
    these safe to combine?" was said to ask about safety, not interactions."""
    meds, out = in_thread(run_graph, f"meds-all-{question}", "What is PAT_003 on?", question)
    names = [i["name"] for i in meds["messages"][-1]["items"]]
    assert out["understood_as"] == f"Compare {', '.join(names[:-1])} and {names[-1]}", out["answer"]
    assert out["status"] is Status.ANSWERED and "not drug interactions" in out["answer"], out["answer"]


def test_whether_a_patient_s_medications_interact(run_graph) -> None:
    """"do they interact?" after a patient's medications asked which of her conditions "they" was, and "is it safe
    with her other meds?" read "it" as one of them; "it" could be any of her medications, so the question says so."""
    meds, interact = in_thread(run_graph, "meds-interact", "What is PAT_002 taking?", "do they interact?")
    names = [i["name"] for i in meds["messages"][-1]["items"]]
    assert interact["understood_as"] == f"Compare {', '.join(names[:-1])} and {names[-1]}", interact["answer"]
    assert interact["status"] is Status.ANSWERED and "not drug interactions" in interact["answer"], interact["answer"]
    _, safe = in_thread(run_graph, "meds-safe", "What is PAT_002 taking?", "is it safe with her other meds?")
    assert safe["status"] is Status.NOT_FOUND and f"could be any of PAT_002's {len(names)} medications" in safe["answer"], \
        safe["answer"]
    record, one = in_thread(run_graph, "meds-one", "What is PAT_001 taking?", "is it safe with her other meds?")
    (med,) = [i["name"] for i in record["messages"][-1]["items"]]  # one medication: "it" is that one
    assert one["understood_as"] == f"Is {med} safe with PAT_001's other meds?", one["answer"]


def test_how_often_drugs_are_prescribed_is_out_of_scope() -> None:
    """"what is the most common drug for hypertension?" was answered with no word that the list is not by use."""
    assert [out_of_scope(q) for q in ("what is the most common drug for hypertension?", "which is the most popular statin?",
                                      "What drugs are commonly used for gout?")] == [
        "how often drugs are prescribed or things occur"] * 2 + [""]


def test_the_most_common_target_of_a_class_is_in_scope(run_graph) -> None:
    """"what is the most common target of NSAIDs?" opened with the note that the graph does not hold how often drugs
    are prescribed, though what most of a class act on is what its answer counts."""
    assert [out_of_scope(q) for q in ("what is the most common target of NSAIDs?", "what's the most common mechanism of statins?",
                                      "what is the most commonly used NSAID?")] == ["", "", "how often drugs are prescribed or things occur"]
    out, _ = run_graph({"question": "what is the most common target of NSAIDs?"}, interactive=False, memory=False)
    assert out["answer"].startswith("NSAIDs in the knowledge graph act on: "), out["answer"]


def test_routes_of_administration_are_out_of_scope_and_inhalation_anthrax_is_not(run_graph) -> None:
    """"which of them are inhaled?" after a list was NOT_FOUND ("no known entity in the question") with no word on
    what the graph lacks."""
    topic = "routes of administration (by mouth, inhaled or injected)"
    assert [out_of_scope(q) for q in ("which of them are inhaled?", "is metformin taken by mouth?", "how is insulin given?",
                                      "does adalimumab come as an injection?",
                                      # "which of them is oral?" after the insulins was NOT_FOUND, "no known entity"
                                      "which of them is oral?", "what are the oral options for type 2 diabetes?",
                                      "what is inhalation anthrax?", "what is oral candidiasis?",
                                      "what drugs treat oral ulcers?")] == [topic] * 6 + [""] * 3
    _, out = in_thread(run_graph, "inhaled", "What drugs treat asthma?", "which of them are inhaled?")
    assert f"The knowledge graph holds curated drug mechanisms, not {topic}." in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["what do lisinopril and losartan target?",
                                      "what are the targets of lisinopril and losartan?"])
def test_what_two_drugs_target_is_what_both_and_each_act_on(run_graph, question: str) -> None:
    """"What are the targets of losartan and valsartan?" was answered for losartan alone, valsartan offered as the
    next question."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targets" and out["compared"], out["answer"]
    assert not out["also_asked"], out["also_asked"]
    assert out["answer"].startswith("lisinopril and Losartan act on no target in common in the knowledge graph. Only "
                                    "lisinopril acts on: Angiotensin-converting enzyme. Only Losartan acts on: "), out["answer"]
    three, _ = run_graph({"question": "what do imatinib, dasatinib and nilotinib target?"}, interactive=False, memory=False)
    assert "Tyrosine-protein kinase ABL1 (3 of 3)" in three["answer"], three["answer"]


@pytest.mark.parametrize("question", ["compare warfarin and apixaban", "what is the difference between warfarin and apixaban?",
                                      "warfarin vs apixaban", "how do warfarin and apixaban differ?"])
def test_a_compared_drug_the_graph_lacks_is_named(run_graph, question: str) -> None:
    """"compare warfarin and apixaban" was answered with what warfarin is connected to, apixaban dropped without a
    word (the graph holds no apixaban); so was "and how does apixaban compare?" after a turn about warfarin (NOT_FOUND,
    "no known entity in the question")."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and '"apixaban" is not in the knowledge graph' in out["answer"], out["answer"]
    _, after = in_thread(run_graph, f"apixaban-{question}", "How does warfarin work?", "and how does apixaban compare?")
    assert after["status"] is Status.NOT_FOUND and '"apixaban" is not in the knowledge graph' in after["answer"], after["answer"]
    both, _ = run_graph({"question": "warfarin vs heparin"}, interactive=False, memory=False)
    assert both["status"] is Status.ANSWERED and both["compared"], both["answer"]


def test_how_serious_a_disease_is_is_out_of_scope_and_it_is_the_thread_s_disease(run_graph) -> None:
    """"is gout serious?" had no word on what the graph lacks, and "is it serious?" after how imatinib treats CML was
    "Is imatinib serious?". "dangerous" stays a word about safety: it is said of drugs too."""
    assert [out_of_scope(q) for q in ("is gout serious?", "how serious is CML?", "is CML deadly?", "is it a serious disease?",
                                      )] == ["symptoms or prognoses of diseases"] * 4
    assert [out_of_scope(q) for q in ("is warfarin dangerous?", "is aspirin safe?")] == ["safety"] * 2
    _, out = in_thread(run_graph, "serious", "How does imatinib treat CML?", "is it serious?")
    assert out["understood_as"] == "Is Chronic myeloid leukemia serious?", out["answer"]
    assert out["answer"].split('" ', 1)[1].startswith(
        "The knowledge graph holds curated drug mechanisms, not symptoms or prognoses of diseases. What it holds: "), out["answer"]


def test_which_drug_comes_first_is_out_of_scope_and_ranks_the_listed_drugs(run_graph) -> None:
    """"which one is first line?" after a list of drugs was NOT_FOUND ("no known entity in the question"), and "What
    is the drug of choice for gout?" listed drugs with no word on what the graph lacks."""
    note = "The knowledge graph holds curated drug mechanisms, not treatment guidelines (which drug comes first)."
    assert {out_of_scope(q) for q in ("which one is first line?", "What is the drug of choice for gout?",
                                      "what do the guidelines say?")} == {"treatment guidelines (which drug comes first)"}
    listed, first = in_thread(run_graph, "first-line", "What drugs treat gout?", "which one is first line?")
    assert first["understood_as"].startswith("Compare " + listed["ranked_answers"][0]["name"]) and first["compared"], first["answer"]
    assert first["answer"].split('" ', 1)[1].startswith(note), first["answer"]
    # naming a disease, it asks what treats that one: after the drugs for asthma it compared them for hypertension
    for question, disease in (("What is the first-line treatment for hypertension?", "Hypertensive disorder"),
                              ("what is the drug of choice for migraine?", "Migraine")):
        _, other = in_thread(run_graph, f"first-line-{disease}", "What drugs treat asthma?", question)
        assert not other["compared"] and other["understood_as"] == "", other["answer"]
        assert other["answer"].startswith(f"{note} What it holds: Drugs with a verified mechanism for {disease}: "), other["answer"]


@pytest.mark.parametrize("ask", ["what do they target?", "what do both of them target?", "what do both target?"])
def test_they_after_turns_about_two_drugs_are_both(run_graph, ask: str) -> None:
    """"what do they target?" after "how does atenolol treat angina pectoris?" and "what about propranolol?" was asked
    of propranolol alone, and "what do both target?" was NOT_FOUND ('"both" is not in the knowledge graph')."""
    _, _, out = in_thread(run_graph, f"both-{ask}", "how does atenolol treat angina pectoris?", "what about propranolol?", ask)
    assert out["understood_as"] == "What do Atenolol and Propranolol target?" and out["compared"], out["answer"]
    assert "Atenolol and Propranolol both act on: Beta-1 adrenergic receptor" in out["answer"], out["answer"]


def test_asking_which_is_best_says_the_graph_holds_no_comparisons(run_graph) -> None:
    """"which is best, aspirin or ibuprofen?" and "which of them is best?" got no word that the graph holds no
    comparisons of how well drugs work ("which is better" did). "Which drug is best for gout?" asks what treats it."""
    assert {out_of_scope(q) for q in ("which is best, aspirin or ibuprofen?", "which of them is best?",
                                      "what's best: aspirin or ibuprofen?", "which is better, aspirin or ibuprofen?")} \
        == {out_of_scope("is aspirin better than ibuprofen?")}
    assert [out_of_scope(q) for q in ("which drug is best for gout?", "what is the best evidence for imatinib?")] == [""] * 2
    for q in ("which is best, aspirin or ibuprofen?",):
        out, _ = run_graph({"question": q}, thread=f"best-{q}", interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED and out["answer"].startswith(COMPARES), out["answer"]


WARFARIN_ONLY = "Only warfarin acts on: Vitamin K epoxide reductase complex subunit 1."


@pytest.mark.parametrize("turns", [("is warfarin safe with aspirin?",), ("does warfarin interact with aspirin?",),
                                   ("can warfarin and aspirin be taken together?",),
                                   ("how does warfarin work?", "is it safe with aspirin?"),
                                   ("how does warfarin work?", "can I take it with aspirin?"),
                                   ("how does warfarin work?", "should I take it with aspirin?"),
                                   ("how does warfarin work?", "should I use it with aspirin?")])
def test_whether_two_drugs_interact_compares_them(run_graph, turns: tuple[str, ...]) -> None:
    """They were NOT_FOUND ("no chain of relations from warfarin to Aspirin"); "can … be taken together?" was said to
    ask why drugs are given together; "is it safe with aspirin?" after warfarin was answered about aspirin alone, and
    so was "should I take it with aspirin?" (read as advice on which drug to take, with "it" no reference)."""
    out = in_thread(run_graph, f"interact-{'-'.join(turns)}", *turns)[-1]
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not drug interactions. What it holds: " in out["answer"]
    assert WARFARIN_ONLY in out["answer"] and "Only Aspirin acts on: " in out["answer"], out["answer"]
    if len(turns) > 1:
        assert out["understood_as"].casefold().startswith(turns[1].split(" it ")[0].casefold() + " warfarin ")


def test_whether_to_take_it_with_another_drug_after_a_disease_is_no_comparison_for_it(run_graph) -> None:
    """"Should I take it with ibuprofen?" after how aspirin prevents heart attacks was "Should I take Aspirin with
    ibuprofen for Myocardial infarction?" (which drug is better for it), which read "Aspirin with ibuprofen" as one name."""
    _, out = in_thread(run_graph, "take-with-mi", "How does aspirin prevent heart attacks?", "Should I take it with ibuprofen?")
    assert out["understood_as"] == "Should I take Aspirin with ibuprofen?" and out["compared"], out["answer"]
    assert "not drug interactions. What it holds: Aspirin and Ibuprofen both act on: " in out["answer"], out["answer"]


def test_it_before_safe_to_is_no_reference_and_a_patient_s_other_meds_keep_the_drug(run_graph) -> None:
    (alone,) = in_thread(run_graph, "interact-food", "is it safe to take ibuprofen with food?")
    assert alone["status"] is Status.ANSWERED and not alone["understood_as"], alone["answer"]
    # "her" no longer stops "it" from referring back, and "other meds" leaves no answer out
    _, meds = in_thread(run_graph, "interact-pat", "Does PAT_001 take metformin?", "is it safe with her other meds?")
    assert meds["understood_as"] == "Is Metformin safe with PAT_001's other meds?", meds["answer"]
    assert "Leaving out" not in meds["answer"] and "not drug interactions" in meds["answer"], meds["answer"]


def test_risks_with_a_patient_s_other_meds_are_interactions(run_graph) -> None:
    """"Any risks with her other meds?" after a record listed the medications with a note on prognoses dropped (the
    patient's answer keeps only safety and interactions notes) and "Leaving out those already named"."""
    assert out_of_scope("any risks with her other meds?") == out_of_scope("any dangers with my other medications?") == INTERACTIONS
    assert out_of_scope("what are the risks with diabetes?") != INTERACTIONS
    _, out = in_thread(run_graph, "risks-meds", "What does PAT_002 have?", "any risks with her other meds?")
    assert out["understood_as"] == "Any risks with PAT_002's other meds?", out["answer"]
    assert "not drug interactions. What it holds: PAT_002: medications: " in out["answer"], out["answer"]
    assert "Leaving out" not in out["answer"], out["answer"]


def test_monitoring_is_out_of_scope(run_graph) -> None:
    """"Why does warfarin need monitoring?" was NOT_FOUND with no word on what the graph lacks ('"need monitoring" is
    not in the knowledge graph'), and "how often should INR be checked on warfarin?" told what warfarin is connected to."""
    topic = "monitoring (blood tests while on a drug)"
    assert [out_of_scope(q) for q in ("Why does warfarin need monitoring?", "how often should INR be checked on warfarin?",
                                      "does lithium need to be monitored?",
                                      # no word on it: "carbonate need blood tests" was read as Blood
                                      "why does lithium need blood tests?", "do I need my levels checked on lithium?")] == [topic] * 5
    assert out_of_scope("which blood tests show diabetes?") != topic
    (out,) = in_thread(run_graph, "monitoring", "how often should INR be checked on warfarin?")
    assert out["answer"].startswith(f"The knowledge graph holds curated drug mechanisms, not {topic}. What it holds: ")
    # "why does X need monitoring?" was read as a chain from X to "need monitoring" (NOT_FOUND, after the note)
    for turns in (("Why does warfarin need monitoring?",), ("What does digoxin do?", "why does it need monitoring?")):
        why = in_thread(run_graph, f"monitoring-{turns[-1]}", *turns)[-1]
        assert why["status"] is Status.ANSWERED and why["understood_as"].endswith(" target?"), why["answer"]
        assert f"not {topic}. What it holds: " in why["answer"] and " acts on: " in why["answer"], why["answer"]


@pytest.mark.parametrize(("question", "topic"), [
    ("what should I avoid while taking warfarin?", "what to eat or avoid"),
    ("is there anything I should avoid on metformin?", "what to eat or avoid"),
    ("which drugs should I avoid with warfarin?", "drug interactions"),
    ("what medications should I avoid on warfarin?", "drug interactions"),
    ("how does aspirin avoid clots?", ""),
])
def test_what_to_avoid_is_food_or_interactions(question: str, topic: str) -> None:
    """"What should I avoid while taking warfarin?" was answered with what warfarin is connected to and no word that
    the graph holds nothing on it; the drugs to avoid with another are its interactions."""
    assert out_of_scope(question) == topic


@pytest.mark.parametrize(("question", "topic"), [("what are the risks of taking warfarin?", "safety"),
                                                 ("what are the risks?", "safety"), ("are there any dangers?", "safety"),
                                                 ("what increases the risk of gout?", ""),
                                                 ("what are the risks of gout?", "symptoms or prognoses of diseases")])
def test_the_risks_of_a_drug_are_its_safety(question: str, topic: str) -> None:
    """"what are the risks of taking warfarin?" was answered with what warfarin is connected to and no note, and "what
    are the risks?" after imatinib was NOT_FOUND ('"the risks" is not in the knowledge graph'); a disease's risk is
    what raises it, and its risks, like its complications, are its course, which the graph does not hold (the drugs
    for gout were listed with no note)."""
    assert out_of_scope(question) == topic


def test_the_risks_in_a_thread_are_the_thread_drug_s(run_graph) -> None:
    _, out = in_thread(run_graph, "risks", "how does imatinib treat CML?", "what are the risks?")
    assert out["understood_as"] == "What are the risks of imatinib?" and out["status"] is Status.ANSWERED, out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not safety. What it holds: " in out["answer"]


@pytest.mark.parametrize(("question", "topic"), [
    ("how is CML diagnosed?", "how diseases are diagnosed"), ("what tests diagnose gout?", "how diseases are diagnosed"),
    ("are there any newer options?", "who discovered drugs or when they were approved"),
    ("How is gout treated?", ""), ("what diagnoses does PAT_002 have?", ""),
])
def test_diagnosis_and_newer_options_are_out_of_scope(question: str, topic: str) -> None:
    """"how is CML diagnosed?" listed the drugs for CML with no word that the graph holds no diagnosis, and "are there
    any newer options?" repeated the list with no word that it holds no approval dates."""
    assert out_of_scope(question) == topic


def test_another_drug_beside_the_thread_s_or_the_statement_s_is_compared_with_it(run_graph) -> None:
    """"can I also take ibuprofen?" after warfarin, and "I'm on metformin. Can I also take ibuprofen?", were answered
    about ibuprofen alone (the second was NOT_FOUND, "no chain of relations from Metformin to Ibuprofen"); so was "my
    mom takes warfarin and aspirin, is that ok?"."""
    _, also = in_thread(run_graph, "also-take", "How does warfarin work?", "can I also take ibuprofen?")
    assert also["understood_as"] == "Can I take ibuprofen with warfarin?" and also["compared"], also["answer"]
    for q in ("I'm on metformin. Can I also take ibuprofen?", "my mom takes warfarin and aspirin, is that ok?"):
        (out,) = in_thread(run_graph, f"also-{q}", q)
        assert out["status"] is Status.ANSWERED and out["compared"] and len(out["among"]) == 2, out["answer"]
        answer = re.sub(r'^Understood as: "Can I take ibuprofen with metformin\?" ', "", out["answer"])  # since stop 103
        assert answer.startswith("The knowledge graph holds curated drug mechanisms, not drug interactions."), out["answer"]


def test_whether_a_drug_is_addictive_is_out_of_scope_and_never_answered_yes(run_graph) -> None:
    """"Is morphine addictive?" was answered "Yes: morphine acts on Addictive behavior …", by a chain that lowers it:
    a "Yes" that read as "it is addictive" while saying it treats addiction."""
    assert [out_of_scope(q) for q in ("Is morphine addictive?", "is codeine habit-forming?", "can you get addicted to it?",
                                      "What treats addiction?", "What drugs treat opioid addiction?")] == \
        ["whether drugs are addictive"] * 3 + ["", ""]
    out, _ = run_graph({"question": "Is morphine addictive?"}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not whether drugs are addictive. "
                                    "What it holds: "), out["answer"]
    assert "Yes" not in out["answer"], out["answer"]
    treats, _ = run_graph({"question": "Does ibuprofen help with fever?"}, interactive=False, memory=False)
    assert treats["answer"].startswith("Yes: "), treats["answer"]


def test_the_same_thing_as_the_thread_s_drug_is_its_targets(run_graph) -> None:
    """"Does ibuprofen target the same thing?" after aspirin's targets was NOT_FOUND ('"same thing" is not in the
    knowledge graph'), and "does enalapril block the same enzyme?" after lisinopril's too."""
    _, out = in_thread(run_graph, "same-thing", "What does aspirin target?", "Does ibuprofen target the same thing?")
    assert out["understood_as"] == "Do Aspirin and Ibuprofen share a target?", out["understood_as"]
    assert out["answer"].startswith('Understood as: "Do Aspirin and Ibuprofen share a target?" Aspirin and Ibuprofen both act '
                                    "on: Prostaglandin G/H synthase"), out["answer"]
    _, ace = in_thread(run_graph, "same-enzyme", "What does lisinopril target?", "does enalapril block the same enzyme?")
    assert ace["understood_as"] == "Do lisinopril and Enalapril share a target?", ace["understood_as"]


def test_which_of_two_drugs_is_more_selective_compares_them_after_their_uses(run_graph) -> None:
    """"Which one is more selective?" after what propranolol and then atenolol treat was asked as what atenolol treats
    (the ranking of a drug's uses); "which of those is the most common use?" still is that."""
    *_, out = in_thread(run_graph, "selective", "What does propranolol treat?", "And atenolol?", "Which one is more selective?")
    assert out["understood_as"] == "Compare Propranolol and Atenolol", out["understood_as"]
    assert "Only Propranolol acts on: Beta-2 adrenergic receptor" in out["answer"], out["answer"]
    *_, uses = in_thread(run_graph, "uses", "What does ibuprofen treat?", "which of those is the most common use?")
    assert uses["understood_as"] == "What does ibuprofen treat?", uses["understood_as"]


def test_it_given_with_a_named_drug_is_the_thread_s_drug(run_graph) -> None:
    """"Why is carbidopa given with it?" after how levodopa treats Parkinson's disease was asked of the disease ("Why
    is carbidopa given with Parkinson's disease?"): "it" given with a drug is a drug."""
    *_, why = in_thread(run_graph, "carbidopa", "How does levodopa treat Parkinson disease?", "Why is carbidopa given with it?")
    assert why["understood_as"] == "Why is carbidopa given with levodopa?", why["understood_as"]
    assert why["compared"] and why["status"] is Status.ANSWERED, why["answer"]


@pytest.mark.parametrize(("then", "topic"), [("which one lasts longer?", "pharmacokinetics"),
                                             ("which has a longer half-life?", "pharmacokinetics"),
                                             ("which one works faster?", "how soon drugs act"),
                                             ("which one acts faster?", "how soon drugs act")])  # "… faster of naproxen?"
def test_which_one_lasts_longer_compares_the_thread_s_two_drugs(run_graph, then: str, topic: str) -> None:
    """"which one lasts longer?" after "what's the difference between ibuprofen and naproxen?" was "Which one lasts
    longer of Ibuprofen?", about ibuprofen alone."""
    _first, out = in_thread(run_graph, f"lasts-{then}", "what's the difference between ibuprofen and naproxen?", then)
    assert out["understood_as"] == "Compare Ibuprofen and naproxen" and out["compared"], out["answer"]
    assert f"not {topic}. What it holds: Ibuprofen and naproxen" in out["answer"], out["answer"]


@pytest.mark.parametrize(("first", "then", "understood"), [
    ("what does ibuprofen treat?", "which of these do they share?", "What do Ibuprofen and naproxen treat?"),
    ("what does ibuprofen treat?", "what do they share?", "What do Ibuprofen and naproxen treat?"),
    ("what does ibuprofen treat?", "do they share a target?", "Do Ibuprofen and naproxen share a target?"),  # asked so
    ("what does ibuprofen target?", "what do they share?", "Do Ibuprofen and naproxen share a target?"),
])
def test_what_two_drugs_share_after_their_uses_is_their_uses(run_graph, first: str, then: str, understood: str) -> None:
    """"which of these do they share?" after what ibuprofen and then naproxen treat was asked as whether they share a
    target: it asks which of the diseases listed for each both treat."""
    *_, out = in_thread(run_graph, f"share-{first}-{then}", first, "and naproxen?", then)
    assert out["understood_as"] == understood, out["answer"]
    if understood.startswith("What do"):
        assert "Ibuprofen and naproxen both have a verified mechanism for: Fever" in out["answer"], out["answer"]


def test_how_two_drugs_work_together_compares_them(run_graph) -> None:
    """"how do lisinopril and metoprolol work together?" was a chain from one drug to the other (NOT_FOUND), and "how
    do they work together?" after turns about each was asked of the latest alone."""
    out, _ = run_graph({"question": "my mom takes lisinopril and metoprolol. how do they work together?"},
                       interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not why drugs are given together. "
                                    "What it holds: lisinopril and Metoprolol "), out["answer"]
    *_, then = in_thread(run_graph, "together", "what does lisinopril do?", "and metoprolol?", "how do they work together?")
    assert then["understood_as"] == "Compare lisinopril and Metoprolol", then["answer"]


@pytest.mark.parametrize("question", ["compare the mechanisms of aspirin and clopidogrel",
                                      "compare how ibuprofen and naproxen work"])
def test_a_comparison_of_mechanisms_gets_no_note_on_how_well_drugs_work(run_graph, question: str) -> None:
    """They asked what the graph holds and opened with the note on comparisons of how well drugs work (since stop 102);
    "compare aspirin and ibuprofen" keeps it."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and "not comparisons" not in out["answer"], out["answer"]
    plain, _ = run_graph({"question": "compare aspirin and ibuprofen"}, interactive=False, memory=False)
    assert plain["answer"].startswith("The knowledge graph holds curated drug mechanisms, not comparisons"), plain["answer"]


@pytest.mark.parametrize(("record", "then", "understood"), [
    ("tell me about PAT_003", "any drug interactions?", "Compare Haloprogin, Amineptine, Pirlindole and Praziquantel"),
    ("What is PAT_002 taking?", "are there any interactions?", "Compare thalidomide, Amineptine and chlorprothixene"),
    ("tell me about PAT_001", "any drug interactions?", "Any drug interactions of Vitamin E?"),
    # since stop 103: it was "Any interactions between Vitamin E?"
    ("What is PAT_001 taking?", "any interactions between them?", "Any drug interactions of Vitamin E?"),
    ("What is PAT_002 taking?", "any interactions between them?", "Compare thalidomide, Amineptine and chlorprothixene"),
])
def test_interactions_asked_of_nothing_named_are_asked_of_the_medications(run_graph, record: str, then: str,
                                                                          understood: str) -> None:
    """They were NOT_FOUND: '"any drug interactions" is not in the knowledge graph' (since stop 102)."""
    _first, out = in_thread(run_graph, f"bare-interactions-{record}", record, then)
    assert out["understood_as"] == understood, out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not drug interactions. What it holds: " in out["answer"]


def test_which_of_the_three_compares_the_thread_s_three_latest_drugs(run_graph) -> None:
    """"Which of the three is newest?" after imatinib, dasatinib and nilotinib was "Which of the three is newest of
    nilotinib?" (since stop 102)."""
    *_, out = in_thread(run_graph, "of-the-three", "how does imatinib treat CML?", "and dasatinib?", "and nilotinib?",
                        "which of the three is newest?")
    assert out["understood_as"] == "Compare imatinib, Dasatinib and nilotinib", out["answer"]
    assert "not who discovered drugs or when they were approved" in out["answer"], out["answer"]
