""""Which of those is a kinase inhibitor?" after a list of drugs asks which of the listed drugs the class has. It was
read as what the whole class acts on ("Kinase inhibitors in the knowledge graph act on: Epidermal growth factor
receptor (5 of 21), …"), listed or not, and the answer never said which listed drugs are kinase inhibitors."""

from __future__ import annotations

from typing import Any

import pytest

from agents.followup import resolve_followup
from agents.state import Status
from core.text import fold
from tests.conftest import in_thread


def _turn(run_graph: Any, thread: str, question: str) -> dict[str, Any]:
    _out, snap = run_graph({"question": question}, thread=thread, interactive=False)
    return dict(snap.values)


def test_the_listed_members_of_a_class_and_what_they_act_on(run_graph) -> None:
    listed = _turn(run_graph, "m1", "What drugs treat chronic myeloid leukemia?")["messages"][-1]["items"]
    out = _turn(run_graph, "m1", "which of those is a kinase inhibitor?")
    members = [i for i in listed if i["name"].casefold().endswith("tinib")]
    assert members and out["status"] == Status.ANSWERED and out["intent"] == "targets", out["answer"]
    assert out["understood_as"] == "What do the listed kinase inhibitors target?"
    assert out["among"] == [i["id"] for i in members] and set(out["sources"]) <= {i["id"] for i in members}
    count = f"All {len(listed)} listed drugs are" if len(members) == len(listed) else f"of the {len(listed)} listed drugs"
    assert count in out["answer"] and ", ".join(i["name"] for i in members) in out["answer"]


def test_a_class_with_none_of_the_listed_drugs_says_so(run_graph) -> None:
    listed = _turn(run_graph, "m2", "What drugs treat gout?")["messages"][-1]["items"]
    out = _turn(run_graph, "m2", "which of them are statins?")
    # the class table's "No", as when the drugs are named (it was NOT_FOUND, "none of the 5 listed drugs …")
    names = [i["name"] for i in listed]
    assert out["status"] == Status.ANSWERED and out["sources"] == [], out["answer"]
    assert out["understood_as"] == f"Are {', '.join(names[:-1])} and {names[-1]} statins?", out["answer"]
    assert out["answer"].split('" ', 1)[1].startswith(f"No: none of {', '.join(names[:-1])} and {names[-1]} is among "
                                                      "the statins"), out["answer"]
    assert out["answer"].endswith('Ask "Which statins treat Gout?" for those.'), out["answer"]


def test_which_ones_after_a_list_is_about_the_listed_drugs(run_graph, resources) -> None:
    """"which ones are triptans?" after "what drugs treat migraine?" listed every triptan the class table knows, as if
    the list were not there; it is about the listed drugs, and when none is one, says which question lists them. With
    no list, it still lists the class."""
    listed = _turn(run_graph, "ones", "what drugs treat migraine?")["messages"][-1]["items"]
    triptans = {c.id for c in resources.linker.drug_class("triptans")}
    out = _turn(run_graph, "ones", "which ones are triptans?")
    if any(i["id"] in triptans for i in listed):
        assert out["status"] == Status.ANSWERED and set(out["among"]) <= triptans, out["answer"]
    else:
        assert out["status"] == Status.ANSWERED and "is among the triptans" in out["answer"], out["answer"]
        assert out["answer"].endswith('Ask "Which triptans treat Migraine?" for those.'), out["answer"]
    alone = _turn(run_graph, "ones-alone", "which ones are triptans?")
    assert alone["answer"].startswith(f"The class table lists {len(triptans)} triptans"), alone["answer"]


def test_how_many_of_them_asks_which_of_them(run_graph) -> None:
    """"how many of them are SSRIs?" was read as "How many of Depressive disorder are SSRIs?"."""
    listed = _turn(run_graph, "m3", "What drugs treat chronic myeloid leukemia?")["messages"][-1]["items"]
    out = _turn(run_graph, "m3", "how many of those are kinase inhibitors?")
    members = [i for i in listed if i["name"].casefold().endswith("tinib")]
    assert out["understood_as"] == "What do the listed kinase inhibitors target?", out["answer"]
    assert out["among"] == [i["id"] for i in members], out["answer"]
    _turn(run_graph, "m4", "What drugs treat gout?")
    none = _turn(run_graph, "m4", "how many of them are statins?")
    assert none["status"] == Status.ANSWERED and "No: none of " in none["answer"], none["answer"]


def test_other_members_of_a_class_leave_the_thread_s_drug_out(run_graph) -> None:
    """"what other NSAIDs are there?" after aspirin listed what the NSAIDs act on; "is it an NSAID?" was read so too
    ("NSAID" links to a chemical, so "it" was taken to point inside the question)."""
    _turn(run_graph, "m5", "What does aspirin do?")
    member = _turn(run_graph, "m5", "is it an NSAID?")
    assert member["understood_as"] == "Is Aspirin an NSAID?" and member["answer"].split('" ', 1)[1].startswith("Yes: "), \
        member["answer"]
    others = _turn(run_graph, "m5", "what other NSAIDs are there?")
    assert others["understood_as"] == "Which drugs besides Aspirin are NSAIDs?", others["answer"]
    named = others["answer"].split("first: ", 1)[1].split(", ")
    assert "Aspirin" not in named and len(named) == len(set(named)), others["answer"]  # the table has two "Sulindac"
    alone = _turn(run_graph, "m6", "what statins are there?")
    assert alone["understood_as"] == "Which drugs are statins?" and "lists 8 statins" in alone["answer"], alone["answer"]


def test_some_of_the_listed_drugs(resources) -> None:
    """A hand-made list: one beta blocker among three drugs."""
    items = [{**resources.linker.link(name).best.as_dict(), "type": "Drug"} for name in ("metoprolol", "Amlodipine", "Losartan")]
    messages = [{"role": "user", "content": "What drugs treat hypertension?"},
                {"role": "assistant", "intent": "treats", "question": "What drugs treat hypertension?", "items": items,
                 "disease": {"id": "MESH:D006973", "name": "Hypertensive disorder", "type": "Disease"}}]
    res = resolve_followup("are any of them beta-blockers?", messages, resources.linker)
    assert res.understood == "What do the listed beta-blockers target?" and res.among == [items[0]["id"]]
    assert res.references[-1]["note"] == f"1 of the 3 listed drugs is one of the beta-blockers: {items[0]['name']}."
    res = resolve_followup("which are calcium channel blockers?", messages, resources.linker)
    assert res.among == [items[1]["id"]] and not res.refused
    # no class, and nothing the graph holds: what they act on, after the note (it was "no known entity")
    res = resolve_followup("which of them is the cheapest?", messages, resources.linker)
    assert res.understood == "How do the listed drugs work?" and res.among == [i["id"] for i in items]


def test_a_question_about_the_listed_drugs_keeps_its_verb(resources) -> None:
    """"Are any of them safe in pregnancy?" was understood as "Which of the listed drugs safe in pregnancy?"."""
    items = [{**resources.linker.link("metoprolol").best.as_dict(), "type": "Drug"}]
    messages = [{"role": "assistant", "intent": "treats", "question": "What drugs treat hypertension?", "items": items}]
    for asked, understood in (("can any of them be crushed?", "Which of the listed drugs can be crushed?"),
                              # since stop 103 asked of each listed drug, by its chain that raises it
                              ("do any of them cause drowsiness?", f"Does {items[0]['name']} cause drowsiness?")):
        assert resolve_followup(asked, messages, resources.linker).understood == understood, asked
    # what the graph does not hold: what they act on, said after the note
    for asked in ("are any of them safe in pregnancy?", "is any of them sold over the counter?"):
        assert resolve_followup(asked, messages, resources.linker).question == "How do the listed drugs work?", asked


def test_antibodies_among_the_listed_drugs(run_graph, resources) -> None:
    """"which of them are antibodies?" after "what drugs target TNF?" was NOT_FOUND: 'medpath knows no drug class named
    "antibodies"'. The monoclonal antibodies are in the class table (-mab)."""
    listed = _turn(run_graph, "mab", "what drugs target TNF?")["messages"][-1]["items"]
    mabs = {c.id for c in resources.linker.drug_class("antibodies")}
    out = _turn(run_graph, "mab", "which of them are antibodies?")
    inside = [i["id"] for i in listed if i["id"] in mabs]
    assert inside and out["status"] == Status.ANSWERED and out["among"] == inside, out["answer"]


def test_another_class_after_a_class_s_question_asks_the_same_of_it(run_graph) -> None:
    """"and ACE inhibitors?" after "What do beta blockers treat?" was answered with what ACE inhibitors target (a class
    alone), and "and fibrates?" after "what do statins target?" was NOT_FOUND: the class table had no fibrates."""
    from tests.conftest import in_thread

    _, ace, statins = in_thread(run_graph, "cls-ell", "What do beta blockers treat?", "and ACE inhibitors?",
                                "what about statins?")
    assert ace["understood_as"] == "What do ACE inhibitors treat?" and ace["intent"] == "indications", ace["answer"]
    assert "\" ACE inhibitors in the knowledge graph have verified mechanisms for: " in ace["answer"], ace["answer"]
    assert statins["understood_as"] == "What do statins treat?", statins["answer"]
    _, fibrates = in_thread(run_graph, "cls-ell2", "what do statins target?", "and fibrates?")
    assert fibrates["understood_as"] == "What do fibrates target?", fibrates["answer"]
    assert "Peroxisome proliferator-activated receptor alpha (" in fibrates["answer"], fibrates["answer"]


@pytest.mark.parametrize(("question", "opening"), [
    ("What are the mechanisms of antidepressants?", "Antidepressants in the knowledge graph act on: Sodium-dependent serotonin transporter ("),
    ("how do antipsychotics treat schizophrenia?", "Antipsychotics act on Schizophrenia in the knowledge graph through: D(2) dopamine receptor ("),
    ("which drugs are MAOIs?", "The class table lists 7 MAOIs in the knowledge graph"),
])
def test_antidepressants_antipsychotics_and_maois_are_classes(run_graph, question: str, opening: str) -> None:
    """"What are the mechanisms of antidepressants?" was NOT_FOUND ('"antidepressants" is not in the knowledge graph'):
    the class table had SSRIs, SNRIs and tricyclics, but no antidepressants, antipsychotics or MAOIs."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(opening), out["answer"]


def test_are_they_all_of_a_class_after_a_list_asks_which_of_them_are(run_graph) -> None:
    """"are they all statins?" after "What drugs target HMG-CoA reductase?" was "Are 3-hydroxy-3-methylglutaryl-coenzyme
    A reductase all statins?", answered with what the enzyme is connected to."""
    from tests.conftest import in_thread

    listed, out = in_thread(run_graph, "all-statins", "What drugs target HMG-CoA reductase?", "are they all statins?")
    names = [a["name"] for a in listed["ranked_answers"]]
    assert out["understood_as"] == "What do the listed statins target?", out["answer"]
    assert out["answer"].split('" ', 1)[1].startswith(f"All {len(names)} listed drugs are statins: {', '.join(names)}."), out["answer"]


@pytest.mark.parametrize(("klass", "member", "not_member"), [
    ("sulfonylureas", "glibenclamide", "Metformin"), ("GLP-1 agonists", "Liraglutide", "teduglutide"),
    ("PDE5 inhibitors", "Sildenafil", "Theophylline"), ("alpha blockers", "Tamsulosin", "Propranolol"),
    ("5-alpha reductase inhibitors", "Finasteride", "Tamsulosin"), ("low molecular weight heparin", "Enoxaparin", "Heparin"),
    ("cholinesterase inhibitors", "donepezil", "levodopa"), ("dopamine agonists", "pramipexole", "levodopa"),
    ("beta agonists", "Salbutamol", "Dihydrotachysterol"),
    # "are any of them antibiotics?" after the acne drugs said none was, oxytetracycline among them
    ("antibiotics", "oxytetracycline", "tazarotene"), ("antibiotics", "Tigecycline", "Benzoyl peroxide"),
])
def test_more_classes_by_name(resources, klass: str, member: str, not_member: str) -> None:
    """"and low molecular weight heparin?" after heparin's mechanism was answered for heparin without a word, and
    "is tamsulosin an alpha blocker?" with what tamsulosin is connected to: these classes were not in the table. A stem
    must not catch another kind (teduglutide is a GLP-2 analogue, dihydrotachysterol a vitamin D analogue)."""
    names = {fold(c.name) for c in resources.linker.drug_class(klass)}
    assert fold(member) in names and fold(not_member) not in names, (klass, sorted(names))


def test_a_class_after_and_is_the_class(run_graph) -> None:
    from tests.conftest import in_thread

    _, lmwh = in_thread(run_graph, "lmwh", "What is the mechanism of heparin?", "and low molecular weight heparin?")
    assert lmwh["understood_as"] == "What do low molecular weight heparins target?", lmwh["answer"]
    assert "Low molecular weight heparins in the knowledge graph act on: " in lmwh["answer"], lmwh["answer"]


def test_biguanides_and_glitazones_are_classes(run_graph, resources) -> None:
    """"which of them is a biguanide?" after the drugs for type 2 diabetes was NOT_FOUND ("no known entity in the
    question"): the class table had no biguanides and no glitazones, the diabetes classes beside the sulfonylureas."""
    linker = resources.linker
    assert {fold(c.name) for c in linker.drug_class("biguanides")} >= {"metformin", "buformin"}
    assert {fold(c.name) for c in linker.drug_class("TZDs")} >= {"pioglitazone", "troglitazone"}
    listed = _turn(run_graph, "m-big", "What drugs treat type 2 diabetes?")["messages"][-1]["items"]
    out = _turn(run_graph, "m-big", "which of them is a biguanide?")
    members = [i["name"] for i in listed if i["name"].casefold().endswith("formin")]
    assert members and f"of the {len(listed)} listed drugs is one of the biguanides: {', '.join(members)}" in out["answer"], out["answer"]
    assert str(out["status"]) == "ANSWERED", out["answer"]  # the membership is the answer, though buformin has no target


def test_one_member_left_is_told_in_the_singular(run_graph) -> None:
    """"what else is in that class?" after metformin, a biguanide, said "The class table lists 1 biguanides besides
    Metformin …, the most connected first: buformin"."""
    _turn(run_graph, "m-one", "is metformin a biguanide?")
    out = _turn(run_graph, "m-one", "what else is in that class?")
    assert out["answer"].endswith("The class table lists one of the biguanides besides Metformin in the knowledge "
                                    "graph (by the stem of its name): buformin. For how it acts, ask \"What does buformin target?\"."), out["answer"]


def test_drugs_named_after_a_word_among_the_listed_drugs(resources) -> None:
    """"which of these is an insulin?" after the drugs for type 1 diabetes told what the protein insulin is connected
    to ("insulin is connected to: Hyperglycemia"), and "are any of them insulins?" said that medpath knows no class
    named "insulins"."""
    items = [{**resources.linker.link(name).best.as_dict(), "type": "Drug"}
             for name in ("Glucagon", "insulin glulisine", "Pioglitazone", "Insulin Glargine")]
    messages = [{"role": "user", "content": "What drugs treat type 1 diabetes?"},
                {"role": "assistant", "intent": "treats", "question": "What drugs treat type 1 diabetes?", "items": items,
                 "disease": {"id": "MESH:D003922", "name": "Diabetes mellitus type 1", "type": "Disease"}}]
    for q in ("which of these is an insulin?", "are any of them insulins?"):
        res = resolve_followup(q, messages, resources.linker)
        assert res.understood == "What do the listed insulins target?" and res.among == [items[1]["id"], items[3]["id"]], q
        assert res.references[-1]["note"].startswith("2 of the 4 listed drugs are insulins: "), q
    res = resolve_followup("which of them is an insulin?", messages[:1] + [{**messages[1], "items": items[::2]}], resources.linker)
    assert res.refused == "none of the 2 listed drugs (Glucagon, Pioglitazone) is named after insulin"


def test_which_listed_drugs_are_of_a_class_after_how_they_work(run_graph) -> None:
    """"Which of them is a biologic?" after "What drugs treat rheumatoid arthritis?" and "How do they work?" (whose
    answer lists targets) told what every biologic acts on, listed or not."""
    first, _, out = in_thread(run_graph, "biologic", "What drugs treat rheumatoid arthritis?", "How do they work?",
                              "Which of them is a biologic?")
    listed = {a["id"] for a in first["ranked_answers"]}
    assert out["understood_as"] == "What do the listed biologics target?", out["understood_as"]
    assert out["among"] and set(out["among"]) <= listed, (out["among"], listed)
    assert "of the 5 listed drugs" in out["answer"] and "Biologics in the knowledge graph" not in out["answer"], out["answer"]


@pytest.mark.parametrize(("question", "answer"), [
    ("are aspirin and ibuprofen both NSAIDs?", "Yes, both: Aspirin and Ibuprofen are NSAIDs by their names"),
    ("are metformin and aspirin NSAIDs?", "Only Aspirin is one of the NSAIDs by its name; Metformin is not"),
    ("are metformin and warfarin NSAIDs?", "No: neither Metformin nor warfarin is among the NSAIDs"),
    ("are atorvastatin, simvastatin and metformin statins?", "Only atorvastatin and Simvastatin are statins by their names; Metformin is not"),
    ("are atorvastatin, simvastatin or lovastatin statins?", "Yes, all 3: atorvastatin, Simvastatin and lovastatin are statins"),
])
def test_whether_each_of_several_drugs_is_of_a_class(run_graph, question: str, answer: str) -> None:
    """Each was read as a chain from the first drug to the second (NOT_FOUND, "no chain of relations from Aspirin to
    Ibuprofen"); the verdict is the class table's for each drug, as "is aspirin an NSAID?" has it for one."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(answer), out["answer"]


def test_how_do_they_work_after_several_drugs_of_a_class_is_about_those_drugs(run_graph) -> None:
    _first, out = in_thread(run_graph, "several-nsaids", "are aspirin and ibuprofen NSAIDs?", "how do they work?")
    assert out["understood_as"] == "How do the listed drugs work?", out["answer"]
    assert "Prostaglandin G/H synthase 1 (2 of 2)" in out["answer"], out["answer"]


@pytest.mark.parametrize("then", ["name a few", "can you name some?", "which ones are there?", "give me examples",
                                  "any examples?", "what are some examples?",
                                  "which ones are in the graph?", "which ones do you have?"])  # since stop 99
def test_a_request_for_some_after_a_class_lists_its_drugs(run_graph, then: str) -> None:
    """They were NOT_FOUND ('"name a few" is not in the knowledge graph')."""
    _first, out = in_thread(run_graph, f"name-some-{then}", "how do SSRIs work?", then)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == "Which drugs are SSRIs?", out["answer"]
    assert "The class table lists 6 SSRIs in the knowledge graph" in out["answer"], out["answer"]


@pytest.mark.parametrize(("first", "then", "understood", "says"), [
    ("How do statins lower cholesterol?", "what are their side effects?", "What are the side effects of statins?",
     "not side effects. What it holds: Statins in the knowledge graph act on: "),
    ("How do triptans work?", "what are their side effects?", "What are the side effects of triptans?",
     "not side effects. What it holds: Triptans in the knowledge graph act on: "),
    ("How do SSRIs work?", "what are their uses?", "What are the uses of SSRIs?",
     "SSRIs in the knowledge graph have verified mechanisms for: "),
    ("What drugs treat gout?", "what are their side effects?", "What do the listed drugs target?",  # a list of drugs
     "not side effects. What it holds: The listed drugs in the knowledge graph act on: "),
    ("What drugs treat gout?", "what are their other uses?", "What do the listed drugs treat?",
     "The listed drugs in the knowledge graph have verified mechanisms for: "),
])
def test_their_noun_after_a_class_is_the_class_s(run_graph, first: str, then: str, understood: str, says: str) -> None:
    """"What are their side effects?" after a class was NOT_FOUND ('"their side effects" is not in the knowledge
    graph'), or, after "How do triptans work?", listed the triptans; after a list of drugs it was NOT_FOUND too."""
    _first, out = in_thread(run_graph, f"their-{first}-{then}", first, then)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == understood, out["answer"]
    assert says in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["what drug classes treat hypertension?", "what classes of drugs treat asthma?"])
def test_a_question_for_drug_classes_names_the_classes_of_the_listed_drugs(run_graph, resources, question: str) -> None:
    """It was told the drugs alone; each listed drug is now put under the classes the table gives it."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    classes = {c for a in out["ranked_answers"] for c in resources.linker.classes_of(a["id"])}
    assert out["status"] is Status.ANSWERED and classes, out["answer"]
    note = out["answer"].split(" By class (the class table lists a class's drugs by the stems of their names): ", 1)[1]
    assert {part.split(": ")[0] for part in note.rstrip(".").split("; ")} == classes, note
    plain, _ = run_graph({"question": "what drugs treat hypertension?"}, interactive=False, memory=False)
    assert "By class" not in plain["answer"], plain["answer"]


@pytest.mark.parametrize(("first", "then", "understood", "verdict"), [
    ("is ibuprofen an NSAID?", "what about naproxen?", "Is naproxen one of the NSAIDs?", "Yes: "),
    ("is atorvastatin a statin?", "and ezetimibe?", "Is ezetimibe one of the statins?", "No: "),
])
def test_another_drug_after_a_class_question_asks_the_same_of_it(run_graph, first: str, then: str, understood: str,
                                                                 verdict: str) -> None:
    """"what about naproxen?" after "is ibuprofen an NSAID?" was asked as what naproxen targets."""
    _, out = in_thread(run_graph, f"member-{first}", first, then)
    assert out["understood_as"] == understood, out["answer"]
    assert out["answer"].split('" ', 1)[1].startswith(verdict), out["answer"]


def test_any_of_that_after_one_medication_asks_of_it(run_graph) -> None:
    """"is any of that a statin?" after PAT_001's one medication told what statins act on; and with one listed drug the
    answer said "none of the 1 listed drugs". It is the class table's "No" about that drug (it was NOT_FOUND)."""
    _, out = in_thread(run_graph, "any-of-that", "What is PAT_001 taking?", "is any of that a statin?")
    assert out["status"] is Status.ANSWERED and out["understood_as"] == "Is Vitamin E one of the statins?", out["answer"]
    assert "No: Vitamin E is not among the statins" in out["answer"], out["answer"]


def test_a_class_asked_of_compared_drugs_is_asked_of_them(run_graph) -> None:
    """After a comparison ("compare them", "any interactions between them?"), "which of them is an NSAID?" told what
    every NSAID acts on, and "is either of them a blood thinner?" was "Is either of Aspirin a blood thinner?"."""
    *_, which = in_thread(run_graph, "cmp1", "What drugs treat pain?", "compare them", "which of them is an NSAID?")
    assert which["answer"].removeprefix(f'Understood as: "{which["understood_as"]}" ').startswith("No: none of "), which["answer"]
    assert "NSAIDs in the knowledge graph act on" not in which["answer"]
    _, either = in_thread(run_graph, "cmp2", "compare aspirin and warfarin", "is either of them a blood thinner?")
    assert "Both listed drugs are blood thinners: Aspirin, warfarin." in either["answer"], either["answer"]


@pytest.mark.parametrize(("question", "said", "classes"), [
    ("Is adalimumab an immunosuppressant?", "immunosuppressant", "adalimumab is one of the monoclonal antibodies and the biologics"),
    ("is metformin an antidiabetic?", "antidiabetic", "Metformin is one of the biguanides"),
])
def test_a_class_the_table_lacks_is_said_to_be_missing(run_graph, question: str, said: str, classes: str) -> None:
    """It was told what the drug is connected to, with no word on the class asked about (since stop 105)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith(f'The class table has no class named "{said}". {classes} by its name'), out["answer"]


def test_a_class_word_that_names_a_graph_entry_is_read_as_before(run_graph) -> None:
    out, _ = run_graph({"question": "is ibuprofen an anti-inflammatory?"}, interactive=False, memory=False)
    assert "class table" not in out["answer"] and "inflammatory response" in out["answer"], out["answer"]
