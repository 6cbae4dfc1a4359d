"""Drugs compared for one disease ("which is better for pain, ibuprofen or acetaminophen?") are told each drug's own
mechanism for it, in the order the question named them, and the steps they share. Such a question was answered for
the first drug, the second offered as the question to ask next."""

from __future__ import annotations

import re

import pytest
from langgraph.types import Command

from agents.answer_notes import for_one_disease
from agents.state import State, Status
from tests.conftest import in_thread
from tools.path_ranker import effect

COMPARES = "The knowledge graph holds curated drug mechanisms, not comparisons of how well drugs work. What it holds: "


def _told(answer: str, name: str, disease: str) -> str:
    """The sentence that tells ``name``'s mechanism for ``disease``, alone or shared with other drugs whose mechanism
    is the same after the drug ("X and Y act on D through the same 3-step mechanism (shown for X): …")."""
    cap = f"{name[:1].upper()}{name[1:]}"
    lead = f"{cap} acts on {disease} through a"
    if lead in answer:
        return answer.split(lead, 1)[1].split(". ", 1)[0]
    same = re.search(rf"(?:^|\. |: )[^.:]*\b(?i:{re.escape(name)})\b[^.:]* act on {re.escape(disease)} through the same "
                     rf"(\d+-step mechanism) \(shown for [^)]+\): ([^.]*)", answer)
    assert same, answer
    return f" {same[1]}: {same[2]}"


@pytest.mark.parametrize(("question", "drugs", "disease"), [
    ("which is better for pain, ibuprofen or acetaminophen?", ["Ibuprofen", "Acetaminophen"], "Pain"),
    ("compare ibuprofen and acetaminophen for pain", ["Ibuprofen", "Acetaminophen"], "Pain"),
    ("is tylenol or advil better for fever?", ["Acetaminophen", "Ibuprofen"], "Fever"),
    ("is allopurinol better than colchicine for gout?", ["allopurinol", "colchicine"], "Gout"),
    ("which works better for gout: allopurinol, febuxostat or colchicine?", ["allopurinol", "Febuxostat", "colchicine"], "Gout"),
    # a why-question around a comparison was how rizatriptan treats "better than zolmitriptan for migraine", NOT_FOUND
    ("why is rizatriptan better than zolmitriptan for migraine?", ["Rizatriptan", "zolmitriptan"], "Migraine"),
    # "insulin" fits several drugs, and was dropped without a word; "preferred over" compared nothing
    ("is metformin better than insulin for type 2 diabetes?", ["Metformin", "Insulin human"], "Diabetes mellitus type 2"),
    ("why is metformin preferred over insulin for type 2 diabetes?", ["Metformin", "Insulin human"], "Diabetes mellitus type 2"),
])
def test_each_compared_drug_is_told_its_own_mechanism(run_graph, resources, question: str, drugs: list[str],
                                                      disease: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    kg = resources.kg
    assert out["status"] is Status.ANSWERED and out["compared"] and out["intent"] == "treats", out["answer"]
    assert [kg.name(x) for x in out["among"]] == drugs and [kg.name(y) for y in out["targets"]] == [disease]
    assert out["answer"].startswith(COMPARES) and not out["also_asked"], out["answer"]
    assert "Ranked:" not in out["answer"] and "You also asked" not in out["answer"]
    paths = {a["id"]: a["path"]["triples"] for a in out["ranked_answers"]}
    assert set(paths) == set(out["among"])
    places = []
    for drug in out["among"]:
        triples = paths[drug]
        assert triples[0]["head"] == drug and triples[-1]["tail"] == out["targets"][0]
        told = _told(out["answer"], kg.name(drug), disease)
        assert told.startswith((f" {len(triples)}-step mechanism: ", f"n {len(triples)}-step mechanism: "))
        assert triples[-1]["head_name"] in told
        places.append(out["answer"].index(kg.name(drug)[1:], len(COMPARES)))  # the first line that names it
    assert places == sorted(places)  # in the order the question named them


@pytest.mark.parametrize("question", [
    "is pegloticase better than colchicine for gout?",
    "which is better for pain, ibuprofen or acetaminophen?",
    "compare allopurinol, febuxostat and colchicine for gout",
])
def test_each_compared_drug_is_told_the_mechanism_its_own_question_tells(run_graph, resources, question: str) -> None:
    """"How does pegloticase treat Gout?" told a 3-step mechanism, and right after it "is it better than colchicine?"
    told a 2-step one: one walk from both drugs ranked each drug's paths among the other's. Each drug's path is now the
    evidence of "How does X treat Y?" asked alone."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    kg, disease = resources.kg, out["targets"][0]
    paths = {a["id"]: a["path"]["triples"] for a in out["ranked_answers"]}
    assert len(paths) >= 2, out["answer"]
    for drug, triples in paths.items():
        alone, _ = run_graph({"question": f"How does {kg.name(drug)} treat {kg.name(disease)}?"}, thread=drug,
                             interactive=False, memory=False)
        assert alone["targets"] == [disease], alone["answer"]
        told = alone["answer"].split(" mechanism: ", 1)[1].split(". ", 1)[0]
        assert told.rstrip(".") == "; ".join(f"{t['head_name']} {t['relation']} {t['tail_name']}" for t in triples), (
            drug, told, triples)


def test_the_steps_all_compared_drugs_pass_through_are_named(run_graph) -> None:
    out, _ = run_graph({"question": "how does sildenafil compare to tadalafil for erectile dysfunction?"},
                       interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    inner = [[t["tail_name"] for t in a["path"]["triples"][:-1]] for a in out["ranked_answers"]]
    shared = [n for n in inner[0] if n in inner[1]]
    assert shared, inner
    separator = "; " if any("," in n for n in shared) else ", "
    assert out["answer"].endswith(f"Both pass through: {separator.join(shared)}."), out["answer"]


def test_drugs_without_a_mechanism_for_the_disease_are_said_to_have_none(run_graph, resources) -> None:
    out, _ = run_graph({"question": "is pegloticase or rasburicase better for asthma?"}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and out["compared"], out["answer"]
    assert ("neither pegloticase nor rasburicase has a verified mechanism for Asthma in the knowledge graph"
            in out["answer"]), out["answer"]


def test_a_drug_without_a_path_is_named_and_only_the_others_share_steps() -> None:
    """Told from the state alone: the drug the walk found no path for has none, and with one path left nothing is
    shared."""
    path = {"triples": [{"head": "d1", "head_name": "alpha", "relation": "inhibits", "tail": "p", "tail_name": "P1"},
                        {"head": "p", "head_name": "P1", "relation": "causes", "tail": "y", "tail_name": "Gout"}]}
    mentions = [{"slot": "drug", "mention": m, "entity": {"id": i, "name": n, "type": "Drug"}}
                for m, i, n in (("alpha", "d1", "alpha"), ("beta", "d2", "beta"))]
    mentions.append({"slot": "disease", "mention": "gout", "entity": {"id": "y", "name": "Gout", "type": "Disease"}})
    state = State(question="alpha or beta for gout?", intent="treats", among=["d1", "d2"], targets=["y"], compared=True,
                  mentions=mentions, ranked_answers=[{"id": "d1", "name": "alpha", "path": path}])
    text, items = for_one_disease(state)
    assert text == ("Alpha acts on Gout through a 2-step mechanism: alpha inhibits P1; P1 causes Gout. "
                    "Beta has no chain in the knowledge graph that lowers Gout.")
    assert items == [{"id": "d1", "name": "alpha"}]
    # a chain into gout that does not lower it (its signs raise it) is said to be there: the mechanism question told it
    raising = {"triples": [{**path["triples"][0], "head": "d2", "head_name": "beta", "relation": "increases activity of"},
                           path["triples"][1]]}
    state.candidates = [raising]
    assert for_one_disease(state)[0].endswith(
        "Beta reaches Gout in the knowledge graph only by chains whose signs do not lower it (ask \"How does Beta treat "
        "Gout?\" for the best of them).")


def _compared(names: list[str], paths: dict[str, list[tuple[str, str, str]]]) -> State:
    """Drugs d1, d2, … named ``names`` compared for Gout (y), with the paths given by (head, relation, tail) ids."""
    ids = [f"d{i}" for i in range(1, len(names) + 1)]
    label = {**dict(zip(ids, names, strict=True)), "p": "P1", "q": "Q1", "y": "Gout"}
    mentions = [{"slot": "drug", "mention": n, "entity": {"id": i, "name": n, "type": "Drug"}} for i, n in zip(ids, names, strict=True)]
    mentions.append({"slot": "disease", "mention": "gout", "entity": {"id": "y", "name": "Gout", "type": "Disease"}})
    ranked = [{"id": d, "name": label[d], "path": {"triples": [{"head": h, "head_name": label[h], "relation": r, "tail": t,
                                                                 "tail_name": label[t]} for h, r, t in p]}}
              for d, p in paths.items()]
    return State(question="which is best for gout?", intent="treats", among=ids, targets=["y"], compared=True,
                 mentions=mentions, ranked_answers=ranked)


def test_drugs_whose_mechanisms_are_the_same_after_the_drug_are_told_it_once() -> None:
    """Ten beta blockers compared for migraine were each told the same four steps through the Beta-1 receptor; the
    drugs with none were told one sentence each."""
    same = {d: [(d, "inhibits", "p"), ("p", "causes", "y")] for d in ("d1", "d3", "d4")}
    state = _compared(["alpha", "beta", "gamma", "delta", "eps"], {**same, "d4": [("d4", "inhibits", "q"), ("q", "causes", "y")]})
    text, items = for_one_disease(state)
    assert text == ("Alpha and gamma act on Gout through the same 2-step mechanism (shown for Alpha): alpha inhibits P1; "
                    "P1 causes Gout. Beta and eps have no chain in the knowledge graph that lowers Gout. Delta acts on "
                    "Gout through a 2-step mechanism: delta inhibits Q1; Q1 causes Gout. Their mechanisms share no step in "
                    "between."), text
    assert [i["id"] for i in items] == ["d1", "d3", "d4"]
    # the same relation to another target is another mechanism
    other = _compared(["alpha", "beta"], {"d1": [("d1", "inhibits", "p"), ("p", "causes", "y")],
                                           "d2": [("d2", "activates", "p"), ("p", "causes", "y")]})
    assert "the same" not in for_one_disease(other)[0]
    # when all of them are the same, no line on the steps they share
    alike = _compared(["alpha", "beta"], {"d1": same["d1"], "d2": [("d2", "inhibits", "p"), ("p", "causes", "y")]})
    assert for_one_disease(alike)[0] == ("Alpha and beta act on Gout through the same 2-step mechanism (shown for Alpha): "
                                         "alpha inhibits P1; P1 causes Gout.")


def test_them_after_a_comparison_are_the_compared_drugs(run_graph, resources) -> None:
    """"which of them treat pain?" after "compare ibuprofen and acetaminophen" was read as "Which Ibuprofen and
    Acetaminophen treat pain?", a class medpath does not know, and listed citric acid, sodium aurothiomalate …"""
    first, out = in_thread(run_graph, "them-compared", "compare ibuprofen and acetaminophen", "which of them treat pain?")
    assert first["compared"] and out["status"] is Status.ANSWERED, out["answer"]
    assert sorted(out["among"]) == sorted(first["among"])
    assert out["ranked_answers"] and {a["id"] for a in out["ranked_answers"]} <= set(first["among"]), out["answer"]


def test_the_second_one_after_drugs_compared_for_a_disease_is_the_second_named(run_graph, resources) -> None:
    first, out = in_thread(run_graph, "second-compared", "is lisinopril better than losartan for high blood pressure?",
                           "what does the second one target?")
    assert first["compared"] and out["status"] is Status.ANSWERED, out["answer"]
    assert out["sources"] == [first["among"][1]], out["answer"]


def test_a_disease_several_entries_fit_is_asked_about_before_comparing(run_graph, resources) -> None:
    """"is metformin or glipizide better for diabetes?" found no disease in its words (the free-text scan takes no name
    that several entries hold) and compared what the two drugs target; the words after "for" are now asked about."""
    _, snap = run_graph({"question": "is metformin or glipizide better for diabetes?"}, thread="which-diabetes", memory=False)
    asked = [i.value for t in snap.tasks for i in t.interrupts]
    assert asked and asked[0]["mention"] == "diabetes", asked
    names = [c["name"] for c in asked[0]["candidates"]]
    out, _ = run_graph(Command(resume="Diabetes mellitus type 2"), thread="which-diabetes", memory=False)
    assert "Diabetes mellitus type 2" in names and out["compared"] and out["intent"] == "treats", out["answer"]
    assert [resources.kg.name(y) for y in out["targets"]] == ["Diabetes mellitus type 2"]
    assert out["answer"].startswith(COMPARES + "Metformin "), out["answer"]


@pytest.mark.parametrize(("question", "drugs", "disease", "note"), [
    ("which treats gout better, allopurinol or colchicine?", ["allopurinol", "colchicine"], "Gout", True),
    ("which drug treats gout: allopurinol or colchicine?", ["allopurinol", "colchicine"], "Gout", False),
    ("for gout, allopurinol or colchicine?", ["allopurinol", "colchicine"], "Gout", False),
    ("sertraline or fluoxetine for depression?", ["sertraline", "fluoxetine"], "Depressive disorder", False),
])
def test_a_choice_between_named_drugs_for_a_disease_compares_them_for_it(run_graph, resources, question: str,
                                                                         drugs: list[str], disease: str, note: bool) -> None:
    """"which treats gout better, allopurinol or colchicine?" read "gout better, allopurinol or colchicine" as
    allopurinol and told what it is connected to; "for gout, allopurinol or colchicine?" and "sertraline or fluoxetine
    for depression?" were answered for the first drug, the second offered as the next question. The note that the
    graph holds no comparison opens the answer when the question asks which works better."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    kg = resources.kg
    assert out["status"] is Status.ANSWERED and out["compared"] and out["intent"] == "treats", out["answer"]
    assert [kg.name(x) for x in out["among"]] == drugs and [kg.name(y) for y in out["targets"]] == [disease]
    assert not out["also_asked"] and out["answer"].startswith(COMPARES) == note, out["answer"]
    for drug in out["among"]:
        _told(out["answer"], kg.name(drug), disease)


def test_which_is_better_right_after_a_turn_about_a_disease_is_asked_for_that_disease(run_graph, resources) -> None:
    """"is it better than colchicine?" after "How does allopurinol treat gout?", and "which of them is best?" after
    "What drugs treat gout?", compared what the drugs target, gout left out; "is the second better than the first?"
    after that was "Is the second better than Xanthine dehydrogenase/oxidase?", the first target of that answer. Each
    now compares the drugs for gout, each drug with its own mechanism."""
    _, better = in_thread(run_graph, "better-it", "How does allopurinol treat gout?", "is it better than colchicine?")
    assert better["understood_as"] == "Is allopurinol better than colchicine for Gout?", better["answer"]
    assert better["compared"] and better["intent"] == "treats" and [resources.kg.name(y) for y in better["targets"]] == ["Gout"]
    assert [resources.kg.name(x) for x in better["among"]] == ["allopurinol", "colchicine"]
    assert better["answer"].startswith(f'Understood as: "{better["understood_as"]}" {COMPARES}Allopurinol acts on Gout')
    _, that = in_thread(run_graph, "better-that", "How does allopurinol treat gout?", "is it better than colchicine for that?")
    assert that["understood_as"] == "Is allopurinol better than colchicine for Gout?", that["answer"]  # it was "… for
    # that for Gout?" (since stop 101)
    _, other = in_thread(run_graph, "better-for-it", "How does allopurinol treat gout?", "is febuxostat better for it?")
    assert other["understood_as"] == "Compare allopurinol and Febuxostat for Gout", other["answer"]  # it told what
    # febuxostat is connected to (since stop 101)
    listed, best, second = in_thread(run_graph, "better-list", "What drugs treat gout?", "which of them is best?",
                                     "is the second better than the first?")
    names = [a["name"] for a in listed["ranked_answers"]]
    assert best["understood_as"] == f"Compare {', '.join(names[:-1])} and {names[-1]} for Gout", best["answer"]
    assert best["compared"] and best["targets"] == listed["targets"]
    told = [i["id"] for i in best["messages"][-1]["items"]]
    assert second["among"] == [told[1], told[0]] and second["targets"] == listed["targets"], second["answer"]
    assert second["understood_as"] == f"Compare {resources.kg.name(told[1])} and {resources.kg.name(told[0])} for Gout"


def test_a_comparison_that_asks_about_targets_or_names_its_own_disease_is_not_moved(run_graph, resources) -> None:
    """Only "better" and its kin are asked for the thread's disease: "which of them is more selective?" compares what
    the drugs act on, and a follow-up that names a disease keeps it. (A list from an earlier turn is not moved either:
    ``tests/test_conversation.py::test_resolver_rewrites``, "which one should I take?".)"""
    listed, selective = in_thread(run_graph, "selective", "What drugs treat gout?", "which of them is more selective?")
    names = [a["name"] for a in listed["ranked_answers"]]
    assert selective["understood_as"] == f"Compare {', '.join(names[:-1])} and {names[-1]}", selective["answer"]
    _, pain = in_thread(run_graph, "own-disease", "How does allopurinol treat gout?", "is it better than colchicine for pain?")
    assert pain["understood_as"] == "Is allopurinol better than colchicine for pain?", pain["answer"]
    assert [resources.kg.name(y) for y in pain["targets"]] == ["Pain"] and pain["compared"]



def test_the_compared_drugs_asked_about_for_a_disease_are_compared_for_it(run_graph, resources) -> None:
    """"which is better for gout?" after "compare allopurinol and colchicine" listed the drugs that treat gout, and
    "and for hyperuricemia?" after the two were compared for gout was read as a class named "allopurinol and
    colchicine" ("Which allopurinol and colchicine treat hyperuricemia?") and listed Lesinurad, FYX-051 … Both now
    compare the same two drugs for the disease the follow-up names."""
    kg = resources.kg
    first, better = in_thread(run_graph, "again-for", "compare allopurinol and colchicine", "which is better for gout?")
    assert better["understood_as"] == "Compare allopurinol and colchicine for gout", better["answer"]
    assert better["compared"] and better["among"] == first["among"] and [kg.name(y) for y in better["targets"]] == ["Gout"]
    assert better["answer"].startswith(f'Understood as: "{better["understood_as"]}" {COMPARES}Allopurinol acts on Gout')
    compared, other = in_thread(run_graph, "other-disease", "is allopurinol better than colchicine for gout?",
                                "and for hyperuricemia?")
    assert other["understood_as"].casefold() == "compare allopurinol and colchicine for hyperuricemia", other["answer"]
    assert other["compared"] and other["among"] == compared["among"] and other["intent"] == "treats"
    assert [kg.name(y) for y in other["targets"]] == ["Hyperuricemia"] and not other["ranked_answers"][2:]


@pytest.mark.parametrize(("question", "unknown"), [
    ("is warfarin or apixaban better for atrial fibrillation?", "apixaban"),
    ("is allopurinol or qwzx better for gout?", "qwzx"),
])
def test_a_compared_drug_the_graph_lacks_is_named(run_graph, question: str, unknown: str) -> None:
    """The name no entry holds was dropped without a word, and the other drug answered alone ("no chain of relations
    from warfarin to Atrial fibrillation"), as "compare warfarin and apixaban" already said."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and f'"{unknown}" is not in the knowledge graph' in out["answer"], out["answer"]


def test_words_beside_a_drug_that_name_no_drug_are_not_asked_about(run_graph) -> None:
    out, _ = run_graph({"question": "is allopurinol or something else better for gout?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and "is not in the knowledge graph" not in out["answer"], out["answer"]


def test_a_new_disease_after_a_whole_list_was_ranked_asks_which_drug_is_best_for_it(run_graph, resources) -> None:
    """"and for migraine?" after "what drugs treat gout?" and "which one is best?" compared the five gout drugs for
    migraine, and found none with a mechanism for it (NOT_FOUND). It asks which drug is best for migraine, as that
    question asked alone is answered."""
    listed, ranked, other = in_thread(run_graph, "best-elsewhere", "what drugs treat gout?", "which one is best?",
                                      "and for migraine?")
    assert ranked["compared"] and sorted(ranked["among"]) == sorted(a["id"] for a in listed["ranked_answers"])
    assert other["understood_as"] == "Which drug is best for Migraine?", other["answer"]
    assert other["status"] is Status.ANSWERED and other["intent"] == "treats" and not other["compared"], other["answer"]
    alone, _ = run_graph({"question": "which drug is best for migraine?"}, interactive=False, memory=False)
    assert [a["id"] for a in other["ranked_answers"]] == [a["id"] for a in alone["ranked_answers"]]
    *_, several = in_thread(run_graph, "best-elsewhere-2", "what drugs treat gout?", "which one is best?", "and for diabetes?")
    assert several["understood_as"] == "Which drug is best for diabetes?", several["answer"]  # a name several diseases hold


@pytest.mark.parametrize(("questions", "understood"), [
    (("what drugs treat gout?", "compare the first two", "and for migraine?"), "compare {0} and {1} for migraine"),
    (("compare aspirin and ibuprofen", "what about for fever?"), "compare aspirin and ibuprofen for fever"),
])
def test_a_disease_after_drugs_compared_for_none_compares_them_for_it(run_graph, questions, understood) -> None:
    """After two drugs compared by what they act on, a disease alone asked how one of them treats it ("How does
    Lesinurad treat Migraine?", "How does Aspirin treat fever?"), the other dropped without a word."""
    first, *_, out = in_thread(run_graph, f"pair-for-{questions[-1]}", *questions)
    understood = understood.format(*(a["name"].casefold() for a in first.get("ranked_answers", [])))
    assert out["understood_as"].casefold() == understood and out["compared"] and len(out["among"]) == 2, out["answer"]


@pytest.mark.parametrize("questions", [
    ("what drugs treat asthma?", "tell me more about the second one", "how does it compare to the first one?"),
    ("what drugs treat asthma?", "tell me more about the second one", "how does it compare to the first?"),
    ("what drugs treat asthma?", "how does the second compare to the first?"),
])
def test_an_ordinal_a_drug_is_compared_to_is_the_listed_drug(run_graph, resources, questions) -> None:
    """"how does it compare to the first one?" after the second of a list was NOT_FOUND ('"first one" is not in the
    knowledge graph'), and "how does the second compare to the first?" too ('"second compare" …')."""
    listed, *_, out = in_thread(run_graph, f"ordinal-against-{len(questions)}-{questions[-1]}", *questions)
    first, second = (a["id"] for a in listed["ranked_answers"][:2])
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    assert out["among"] == [second, first], out["answer"]
    assert out["understood_as"] == f"How does {resources.kg.name(second)} compare to {resources.kg.name(first)}?"


@pytest.mark.parametrize(("questions", "count"), [
    (("how do SSRIs treat depression?", "which one has the fewest side effects?"), 5),
    (("compare ibuprofen and naproxen", "which one causes more side effects?"), 2),
])
def test_which_has_fewer_side_effects_compares_the_thread_s_drugs(run_graph, questions, count) -> None:
    """They were NOT_FOUND ("no known entity in the question"), where "which of them is safest?" compares the drugs."""
    *_, out = in_thread(run_graph, f"side-effects-{questions[0]}", *questions)
    assert out["compared"] and len(out["among"]) == count and out["status"] is Status.ANSWERED, out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not side effects. What it holds: " in out["answer"]


@pytest.mark.parametrize("questions", [("compare metformin and glipizide", "which one causes less weight gain?"),
                                       ("compare ibuprofen and naproxen", "which causes fewer stomach problems?")])
def test_which_causes_less_of_an_effect_compares_the_thread_s_drugs(run_graph, questions) -> None:
    """The first was NOT_FOUND ("no known entity in the question"); the second told what the stomach is connected to."""
    *_, out = in_thread(run_graph, f"less-effect-{questions[1]}", *questions)
    assert out["compared"] and len(out["among"]) == 2 and out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"].startswith("Compare "), out["answer"]


def test_which_one_to_avoid_compares_the_listed_drugs(run_graph) -> None:
    """"which one should I avoid?" after a list compares the listed drugs, as "which one should I take?" does, while
    "what should I avoid?", which names no choice, is no longer read as one."""
    listed, out = in_thread(run_graph, "avoid-which", "what drugs treat gout?", "which one should I avoid?")
    assert out["compared"] and out["among"] == [a["id"] for a in listed["ranked_answers"]], out["answer"]
    assert out["status"] is Status.ANSWERED and out["understood_as"].startswith("Compare "), out["answer"]


@pytest.mark.parametrize("questions", [("what drugs treat gout?", "which has the most evidence?"),
                                       ("how do SSRIs treat depression?", "which one is backed by more research?")])
def test_which_has_the_most_evidence_compares_the_thread_s_drugs(run_graph, questions) -> None:
    """Both were NOT_FOUND ("no known entity in the question"); the graph holds mechanisms, not how well each is studied."""
    *_, out = in_thread(run_graph, f"evidence-{questions[1]}", *questions)
    assert out["compared"] and len(out["among"]) >= 2 and out["status"] is Status.ANSWERED, out["answer"]
    assert "not comparisons of how well drugs work. What it holds: " in out["answer"], out["answer"]


def test_a_ranking_for_an_organ_compares_the_thread_s_drugs(run_graph) -> None:
    """"Which is safer for the stomach?" after aspirin and ibuprofen told what the stomach is connected to."""
    *_, out = in_thread(run_graph, "organ-safer", "What's the difference between aspirin and ibuprofen?",
                        "Which is safer for the stomach?")
    assert out["compared"] and len(out["among"]) == 2 and out["status"] is Status.ANSWERED, out["answer"]
    assert out["understood_as"] == "Compare Aspirin and Ibuprofen", out["understood_as"]


def test_which_of_those_is_selective_compares_the_listed_drugs(run_graph) -> None:
    """It was NOT_FOUND ("no known entity in the question"); "which of them is more selective?" compared them."""
    listed, out = in_thread(run_graph, "selective", "Which drugs block COX-2?", "Which of those is selective?")
    assert out["compared"] and out["among"] == [a["id"] for a in listed["ranked_answers"]], out["answer"]
    assert out["status"] is Status.ANSWERED and "not comparisons of how well drugs work" in out["answer"]


def test_which_of_them_are_selective_for_a_target_says_what_they_act_on(run_graph) -> None:
    """"Which ones are selective for COX-2?" after aspirin, ibuprofen and naproxen were compared was "Which of the listed
    drugs are selective for COX-2?", answered with what COX-2 is connected to. Selectivity is not in the graph: the note,
    then what the listed drugs act on."""
    _compared, out = in_thread(run_graph, "selective-for", "compare aspirin, ibuprofen and naproxen",
                               "which ones are selective for COX-2?")
    assert out["understood_as"] == "How do the listed drugs work?", out["answer"]
    assert "not comparisons of how well drugs work" in out["answer"], out["answer"]
    assert "Prostaglandin G/H synthase 1 (3 of 3)" in out["answer"], out["answer"]


@pytest.mark.parametrize(("question", "drugs", "disease"), [
    ("Compare how atorvastatin and rosuvastatin lower cholesterol", ["Atorvastatin", "Rosuvastatin"], "Hypercholesterolemia"),
    ("compare how lisinopril and losartan lower blood pressure", ["Lisinopril", "Losartan"], "Hypertensive disorder"),
    ("compare how ibuprofen and acetaminophen work for pain", ["Ibuprofen", "Acetaminophen"], "Pain"),
])
def test_compare_how_two_drugs_lower_a_measure_is_a_comparison_for_its_disease(run_graph, question, drugs, disease) -> None:
    """"Compare how atorvastatin and rosuvastatin lower cholesterol" compared three drugs, cholesterol the third, by
    their targets; what they lower is the disease of its being high."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats", out["answer"]
    assert "Cholesterol in the knowledge graph act on" not in out["answer"]
    for name in drugs:
        assert _told(out["answer"], name, disease)


@pytest.mark.parametrize("then", ["is tylenol or advil better for it?", "which is better for that, tylenol or advil?"])
def test_two_drugs_compared_for_it_are_compared_for_the_thread_s_disease(run_graph, resources, then: str) -> None:
    """After the drugs for headache, "is tylenol or advil better for it?" compared what the two target, "it" dropped,
    and "which is better for that, tylenol or advil?" said '"that" is not in the knowledge graph' (since stop 102)."""
    first, out = in_thread(run_graph, f"for-it-{then}", "whats good for a headache", then)
    disease = resources.kg.name(first["targets"][0])
    assert out["compared"] and [resources.kg.name(y) for y in out["targets"]] == [disease], out["answer"]
    assert out["understood_as"].endswith((f"better for {disease}?", f"better for {disease}, tylenol or advil?")), out["answer"]
    assert out["answer"].startswith(f"Understood as: \"{out['understood_as']}\" {COMPARES}"), out["answer"]


def _raises(triples: list[dict[str, str]]) -> bool:
    return effect([t["relation"] for t in triples]) > 0


@pytest.mark.parametrize("question", ["do lisinopril and losartan cause cough?",
                                      "can aspirin or ibuprofen cause stomach ulcers?"])
def test_whether_each_named_drug_causes_a_disease_is_told_by_chains_that_raise_it(run_graph, question: str) -> None:
    """It was answered for the first drug, the second offered as the next question."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["compared"] and len(out["among"]) == 2, out["answer"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not side effects. What it holds: "
                                    "Yes, both: "), out["answer"]
    assert not out["also_asked"] and len(out["ranked_answers"]) == 2
    assert all(_raises(a["path"]["triples"]) for a in out["ranked_answers"]), out["answer"]


@pytest.mark.parametrize(("first", "then"), [
    ("compare lisinopril and losartan", "which one causes cough?"),
    ("what drugs treat hypertension?", "which of them cause cough?"),
])
def test_which_of_the_drugs_causes_a_disease_asks_each_of_them(run_graph, first: str, then: str) -> None:
    """They were "Which of the listed drugs causes cough?", answered with what Cough is connected to (Common cold)."""
    before, out = in_thread(run_graph, f"cause-{first}", first, then)
    drugs = before["among"] if before["compared"] else [a["id"] for a in before["ranked_answers"]]
    assert out["status"] is Status.ANSWERED and out["compared"] and out["among"] == drugs[: len(out["among"])], out["answer"]
    assert len(out["among"]) >= 2 and out["understood_as"].endswith(" cause cough?"), out["answer"]
    assert "not side effects. What it holds: " in out["answer"] and "Common cold" not in out["answer"], out["answer"]
    paths = {a["id"]: a["path"]["triples"] for a in out["ranked_answers"]}
    assert paths and all(_raises(t) and t[-1]["tail_name"] == "Cough" for t in paths.values()), out["answer"]
    told = out["answer"].split("What it holds: ", 1)[1]
    assert told.startswith("Yes, " if len(paths) == len(out["among"]) else "Only "), told
