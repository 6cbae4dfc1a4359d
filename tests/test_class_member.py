""""Is atorvastatin a statin?": answered from the class table (it was what the drug is connected to, or NOT_FOUND)."""

from __future__ import annotations

import pytest

from agents.class_member import class_drugs, class_membership
from agents.preamble import kind_acting
from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize("question, drug, cls, member", [
    ("Is atorvastatin a statin?", "atorvastatin", "statins", True),
    ("is aspirin an NSAID?", "Aspirin", "NSAIDs", True),
    ("Is metoprolol a beta blocker?", "Metoprolol", "beta blockers", True),
    ("is ibuprofen a statin?", "Ibuprofen", "statins", False),
    # everyday class names: "blood thinners" holds the anticoagulants and the antiplatelets
    ("Is aspirin a blood thinner?", "Aspirin", "blood thinners", True),
    ("is warfarin a blood thinner?", "warfarin", "blood thinners", True),
    ("Is ibuprofen a blood thinner?", "Ibuprofen", "blood thinners", False),
    ("Is clopidogrel an antiplatelet?", "Clopidogrel", "antiplatelets", True),
    ("Is heparin an anticoagulant?", "Heparin", "anticoagulants", True),
    ("Is aspirin an anticoagulant?", "Aspirin", "anticoagulants", False),
    ("Is amitriptyline a tricyclic antidepressant?", "Amitriptyline", "tricyclic antidepressants", True),
    # biologics by their stems (-mab, -cept, -kinra); "is it a biologic?" was answered with what the drug is connected to
    ("is etanercept a biologic?", "Etanercept", "biologics", True),
    ("Is adalimumab a biologic?", "adalimumab", "biologics", True),
    ("is adapalene a biologic?", "Adapalene", "biologics", False),
    ("is infliximab a monoclonal antibody?", "Infliximab", "monoclonal antibodies", True),
    # bronchodilators: beta-2 agonists, antimuscarinics and xanthines ("is it a bronchodilator?" told its connections)
    ("Is albuterol a bronchodilator?", "Salbutamol", "bronchodilators", True),
    ("is tiotropium a bronchodilator?", "tiotropium bromide", "bronchodilators", True),
    ("Is theophylline a bronchodilator?", "theophylline", "bronchodilators", True),
    ("Is dihydrotachysterol a bronchodilator?", "Dihydrotachysterol", "bronchodilators", False),  # a "-terol" vitamin D
    ("Is aspirin a bronchodilator?", "Aspirin", "bronchodilators", False),
    # a chemical the table names whole ("=morphine"): "Is morphine an opioid?" said no, morphine being no Drug here
    ("Is morphine an opioid?", "morphine", "opioids", True),
    ("Is fexofenadine an antihistamine?", "fexofenadine", "antihistamines", True),
    ("Is caffeine an opioid?", "caffeine", "opioids", False),
    # a mass noun needs no article ("is methotrexate chemotherapy?" told what methotrexate is connected to)
    ("Is methotrexate chemotherapy?", "methotrexate", "chemotherapy drugs", True),
    # "steroids" is the class's, not MeSH's chemical class Steroids ("Is prednisone a steroid?" told its connections)
    ("Is prednisone a steroid?", "prednisone", "steroids", True),
    ("Is testosterone a steroid?", "Testosterone", "steroids", True),
    ("Is metformin a steroid?", "Metformin", "steroids", False),
    # a drug named in two words ("Is Lithium carbonate a mood stabilizer?" after "it" was read as "Lithium", and the
    # class as "carbonate a mood stabilizer"); mood stabilizers and hormone therapies are rows of the table
    ("Is Lithium carbonate a mood stabilizer?", "Lithium carbonate", "mood stabilizers", True),
    ("Is valproic acid a mood stabilizer?", "valproic acid", "mood stabilizers", True),
    ("Is Lithium carbonate a statin?", "Lithium carbonate", "statins", False),
    ("Is tamoxifen a hormone therapy?", "Tamoxifen", "hormone therapies", True),
])
def test_a_drug_s_class_by_the_class_table(resources, question: str, drug: str, cls: str, member: bool) -> None:
    check = class_membership(question, resources.linker)
    assert check is not None and (check["drug"]["name"], check["class"], check["member"]) == (drug, cls, member)


@pytest.mark.parametrize("question", ["is aspirin an inhibitor of COX-1?", "Is metformin a good treatment for diabetes?",
                                      "is zorblaxin a statin?", "Is gout a statin?"])
def test_other_is_a_questions_are_read_as_before(resources, question: str) -> None:
    assert class_membership(question, resources.linker) is None


def test_class_membership_is_answered_and_the_drug_is_the_thread_s(run_graph) -> None:
    out, _ = run_graph({"question": "is aspirin an NSAID?"}, thread="cls", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "class_member"
    assert out["answer"].startswith("Yes: Aspirin is one of the NSAIDs by its name"), out["answer"]
    out, _ = run_graph({"question": "is ibuprofen a statin?"}, thread="cls", interactive=False, memory=False)
    assert out["answer"].startswith("No: Ibuprofen is not among the statins")
    out, _ = run_graph({"question": "what does it target?"}, thread="cls", interactive=False, memory=False)
    assert out["understood_as"] == "What does Ibuprofen target?" and out["status"] is Status.ANSWERED


@pytest.mark.parametrize("question, drug, classes", [
    ("What class of drug is lisinopril?", "lisinopril", ["ACE inhibitors"]),
    ("what kind of drug is aspirin", "Aspirin", ["NSAIDs", "antiplatelets", "blood thinners"]),
    ("Which class does sertraline belong to?", "sertraline", ["SSRIs", "antidepressants"]),
    ("What is warfarin's drug class?", "warfarin", ["anticoagulants", "blood thinners"]),
    ("what type of medication is metformin?", "Metformin", ["biguanides"]),
    ("what type of medication is allopurinol?", "allopurinol", []),
])
def test_a_drug_s_classes_by_the_class_table(resources, question: str, drug: str, classes: list[str]) -> None:
    """They were answered with what the drug is connected to."""
    check = class_membership(question, resources.linker)
    assert check is not None and (check["drug"]["name"], check["classes"]) == (drug, classes)


def test_a_drug_s_classes_are_answered_each_by_its_first_name(run_graph) -> None:
    out, _ = run_graph({"question": "what kind of drug is aspirin?"}, thread="kind", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "class_member"
    assert out["answer"].startswith("Aspirin is one of the NSAIDs, the antiplatelets and the blood thinners by its name")
    out, _ = run_graph({"question": "What class of drug is allopurinol?"}, thread="kind2", interactive=False, memory=False)
    assert out["answer"].startswith("The class table names no class for allopurinol")


@pytest.mark.parametrize("question", ["What kind of disease is gout?", "what type of drug treats gout?"])
def test_a_kind_of_disease_or_a_kind_that_treats_is_no_class_question(resources, question: str) -> None:
    assert class_membership(question, resources.linker) is None


@pytest.mark.parametrize("question, inner, cls", [
    ("is penicillin an antibiotic?", "penicillins", "antibiotics"),
    ("are statins blood thinners?", "statins", "blood thinners"),
    ("are statins NSAIDs?", "statins", "NSAIDs"),
    ("Are anticoagulants blood thinners?", "anticoagulants", "blood thinners"),
])
def test_a_class_within_a_class_counts_its_drugs_in_the_other(resources, question: str, inner: str, cls: str) -> None:
    """"is penicillin an antibiotic?" was NOT_FOUND ("no known entity in the question"): a class is no drug. "are
    statins blood thinners?" was not read at all (a plural takes no article) and answered about "Blood"."""
    check = class_membership(question, resources.linker)
    assert check is not None and (check["inner_class"], check["class"]) == (inner, cls)
    members = {c.id for c in resources.linker.drug_class(inner)}
    assert check["of"] == len(members) and check["shared"] == len(members & {c.id for c in resources.linker.drug_class(cls)})


def test_a_class_within_a_class_is_answered_in_words(run_graph) -> None:
    out, _ = run_graph({"question": "is penicillin an antibiotic?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "class_member"
    assert out["answer"].startswith("Yes: all ") and " penicillins that the class table lists are among the antibiotics" \
        in out["answer"], out["answer"]
    out, _ = run_graph({"question": "are statins blood thinners?"}, thread="t2", interactive=False, memory=False)
    assert out["answer"].startswith("No: none of the ") and "statins that the class table lists is among the blood thinners" \
        in out["answer"], out["answer"]
    out, _ = run_graph({"question": "are statins effective?"}, thread="t3", interactive=False, memory=False)
    assert out["intent"] != "class_member"


def test_a_follow_up_that_asks_about_the_thread_s_drug_is_answered_from_the_class_table(run_graph) -> None:
    """"is it a kinase inhibitor?" after "How does imatinib treat CML?" was understood as "Is imatinib a kinase
    inhibitor?", then answered with what imatinib is connected to: the membership check read the question as typed."""
    from tests.conftest import in_thread

    _, out, then = in_thread(run_graph, "kin", "How does imatinib treat CML?", "is it a kinase inhibitor?", "what does it target?")
    assert out["intent"] == "class_member" and out["understood_as"] == "Is imatinib a kinase inhibitor?"
    assert out["answer"].startswith('Understood as: "Is imatinib a kinase inhibitor?" Yes: imatinib is one of the kinase '
                                    "inhibitors by its name"), out["answer"]
    assert then["understood_as"] == "What does imatinib target?"


def test_they_after_a_class_within_a_class_is_the_first_class(run_graph) -> None:
    """"how do they work?" after "is penicillin an antibiotic?" asked what "they" meant: the turn recorded no drug."""
    from tests.conftest import in_thread

    _, work = in_thread(run_graph, "cls", "is penicillin an antibiotic?", "how do they work?")
    assert work["status"] is Status.ANSWERED and work["understood_as"] == "How do penicillins work?", work["answer"]
    assert work["answer"].startswith('Understood as: "How do penicillins work?" Penicillins in the knowledge graph act on'), \
        work["answer"]
    _, target = in_thread(run_graph, "cls2", "are statins blood thinners?", "what do they target?")
    assert target["understood_as"] == "What do statins target?", target["answer"]


def test_it_for_a_class_takes_a_plural_verb(run_graph) -> None:
    """"what does it treat?" after "is penicillin an antibiotic?" was "What does penicillins treat?"."""
    from tests.conftest import in_thread

    _, treat, used = in_thread(run_graph, "cls", "is penicillin an antibiotic?", "what does it treat?",
                               "are they used for pneumonia?")
    assert treat["understood_as"] == "What do penicillins treat?", treat["answer"]
    assert used["understood_as"] == "Are penicillins used for pneumonia?", used["answer"]  # it asked what "they" meant
    _, work, treats = in_thread(run_graph, "cls2", "What do statins target?", "how do they work?", "what does it treat?")
    assert (work["understood_as"], treats["understood_as"]) == ("How do statins work?", "What do statins treat?")
    _, listed = in_thread(run_graph, "cls3", "which statins lower cholesterol?", "what do they target?")
    assert listed["understood_as"] == "What do the listed drugs target?", listed["answer"]  # the listed ones, as before


@pytest.mark.parametrize("question, cls", [("Which drugs are statins?", "statins"), ("list the blood thinners", "blood thinners"),
                                           ("name some ACE inhibitors", "ACE inhibitors"),
                                           # these two were answered with what the NSAIDs act on
                                           ("what are some NSAIDs?", "NSAIDs"), ("give me examples of NSAIDs", "NSAIDs")])
def test_a_request_for_a_class_s_drugs_lists_them(run_graph, resources, question: str, cls: str) -> None:
    """"Which drugs are statins?" was answered with what the statins act on, and no statin named."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    members = [c.name for c in class_drugs(resources.linker, cls)]  # one per name: the NSAIDs hold two "Sulindac"
    assert out["status"] is Status.ANSWERED and out["intent"] == "class_member", out["answer"]
    assert out["answer"].startswith(f"The class table lists {len(members)} {cls} in the knowledge graph"), out["answer"]
    assert ", ".join(members[:3]) in out["answer"]
    assert [i["name"] for i in out["messages"][-1]["items"]] == members[:10]  # "the second one" picks from them


def test_that_class_and_they_after_a_drug_s_class_are_the_class(run_graph, resources) -> None:
    """"what else is in that class?" after "is warfarin a blood thinner?" was NOT_FOUND ("no known entity"), and "how do
    they work?" was "How do warfarin work?"."""
    from tests.conftest import in_thread

    _, _, others = in_thread(run_graph, "that-class", "What does warfarin do?", "is it a blood thinner?",
                             "what else is in that class?")
    assert others["understood_as"] == "Which drugs besides warfarin are blood thinners?", others["answer"]
    n = len(resources.linker.drug_class("blood thinners"))
    assert f"The class table lists {n - 1} blood thinners besides warfarin" in others["answer"], others["answer"]
    assert "warfarin" not in [i["name"] for i in others["messages"][-1]["items"]]
    _, they = in_thread(run_graph, "that-class2", "is warfarin a blood thinner?", "how do they work?")
    assert they["understood_as"] == "How do blood thinners work?", they["answer"]
    _, it = in_thread(run_graph, "that-class3", "is warfarin a blood thinner?", "how does it work?")
    assert it["understood_as"] == "How does warfarin work?", it["answer"]
    _, ace = in_thread(run_graph, "that-class4", "What class of drug is lisinopril?", "what other drugs are in that class?")
    assert ace["understood_as"] == "Which drugs besides lisinopril are ACE inhibitors?", ace["answer"]


@pytest.mark.parametrize("ask, follow", [("how does omeprazole work?", "what other drugs are in the same class?"),
                                         ("what does aspirin target?", "any others in that class?")])
def test_the_same_class_after_a_drug_is_the_drug_s_class(run_graph, resources, ask: str, follow: str) -> None:
    """"what other drugs are in the same class?" after a turn about omeprazole, with no class named, was NOT_FOUND
    ("no known entity in the question"): it is the drug's first class in the table, the drug left out."""
    from tests.conftest import in_thread

    first, others = in_thread(run_graph, f"same-class-{ask}", ask, follow)
    drug = first["messages"][-1]["drug"]
    cls = resources.linker.classes_of(drug["id"])[0]
    assert others["understood_as"] == f"Which drugs besides {drug['name']} are {cls}?", others["answer"]
    assert others["status"] is Status.ANSWERED and drug["name"] not in [i["name"] for i in others["messages"][-1]["items"]]


def test_the_same_class_after_a_drug_of_no_class_says_so(run_graph, resources) -> None:
    from tests.conftest import in_thread

    first, others = in_thread(run_graph, "same-class-none", "what does pegloticase treat?", "what else is in that class?")
    drug = first["messages"][-1]["drug"]
    assert resources.linker.classes_of(drug["id"]) == []
    assert others["understood_as"] == f"What class is {drug['name']}?", others["answer"]
    assert f"The class table names no class for {drug['name']}" in others["answer"], others["answer"]


def test_a_drug_in_longer_words_is_no_class_question(resources) -> None:
    """"Is ezetimibe better combined with a statin?" was answered "No: ezetimibe is not among the statins": the words
    before "a statin" linked to ezetimibe by one word of them."""
    linker = resources.linker
    assert class_membership("Is ezetimibe better combined with a statin?", linker) is None
    for q in ("Is ezetimibe a statin?", "is Gleevec a kinase inhibitor?", "is atorvastatine a statin?"):
        assert class_membership(q, linker) is not None, q


def test_a_drug_s_class_by_a_mass_noun_reads_as_drugs(run_graph) -> None:
    """"What is methotrexate?" said it was "one of the chemotherapy"."""
    out, _ = run_graph({"question": "What is methotrexate?"}, interactive=False, memory=False)
    assert "methotrexate is a drug (MESH:D008727), one of the chemotherapy drugs." in out["answer"], out["answer"]


def test_whether_two_drugs_are_of_one_class_reads_the_class_table(run_graph) -> None:
    """"Are amlodipine and nifedipine in the same class?" and "Is amlodipine in the same class as lisinopril?" looked for
    a chain from one drug to the other (NOT_FOUND); "are they in the same class?" after turns about the two was asked of
    the latest alone ("Are Nifedipine in the same class?")."""
    out, _ = run_graph({"question": "Are amlodipine and nifedipine in the same class?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(
        "Yes: Amlodipine and Nifedipine are both calcium channel blockers by their names"), out["answer"]
    other, _ = run_graph({"question": "Is amlodipine in the same class as lisinopril?"}, interactive=False, memory=False)
    assert other["answer"].startswith("No: the class table puts Amlodipine and lisinopril in no class together"), other["answer"]
    assert "Amlodipine is one of the calcium channel blockers; lisinopril is one of the ACE inhibitors" in other["answer"]
    *_, they, how = in_thread(run_graph, "same class", "What does amlodipine do?", "What about nifedipine?",
                              "Are they in the same class?", "How do they work?")
    assert they["understood_as"] == "Are Amlodipine and Nifedipine in the same class?", they["understood_as"]
    assert they["answer"].removeprefix(f'Understood as: "{they["understood_as"]}" ').startswith("Yes: "), they["answer"]
    assert set(how["among"]) == {m["entity"]["id"] for m in out["mentions"]}, how["answer"]
    # without "in": "are they the same class?" was "Are Pantoprazole the same class?"
    *_, same = in_thread(run_graph, "same class 2", "What does omeprazole target?", "and pantoprazole?", "are they the same class?")
    assert same["understood_as"] == "Are Omeprazole and Pantoprazole in the same class?", same["answer"]
    assert same["answer"].removeprefix(f'Understood as: "{same["understood_as"]}" ').startswith("Yes: "), same["answer"]


def test_are_they_both_of_a_class_asks_it_of_the_thread_s_two_drugs(run_graph) -> None:
    """"are they both statins?" after Lipitor and then Zocor was "Are Simvastatin both statins?", told what simvastatin
    is connected to."""
    *_, both = in_thread(run_graph, "both statins", "what does Lipitor do", "and Zocor?", "are they both statins?")
    assert both["understood_as"] == "Are atorvastatin and Simvastatin statins?", both["answer"]
    assert both["answer"].removeprefix(f'Understood as: "{both["understood_as"]}" ').startswith("Yes, both: "), both["answer"]
    *_, safe = in_thread(run_graph, "both safe", "what does Lipitor do", "and Zocor?", "are they both safe?")
    assert "and Simvastatin" not in safe["understood_as"], safe["answer"]  # no class: not this question


def test_it_in_a_class_question_after_a_list_of_drugs_is_the_first_drug(run_graph) -> None:
    """"Is it an antibiotic?" after "What treats acne?" was asked of the disease ("Is Acne vulgaris an antibiotic?", and
    told what antibiotics act on in it): a drug class is asked of a drug, the first the list named."""
    first, it = in_thread(run_graph, "acne", "What treats acne?", "Is it an antibiotic?")
    drug = first["ranked_answers"][0]["name"]
    assert it["understood_as"] == f"Is {drug} an antibiotic?", it["understood_as"]
    assert it["intent"] == "class_member" and it["status"] is Status.ANSWERED, it["answer"]


def test_is_x_one_after_a_class_asks_whether_it_is_of_that_class(run_graph) -> None:
    """"Is alendronate one?" after "How do bisphosphonates work?" was NOT_FOUND ("no known entity in the question"), and
    "Is alendronate a bisphosphonate?" told what the bisphosphonates act on: "alendronate" linked to no drug (the graph
    names it alendronic acid, ``tools.word_forms.salts``)."""
    _, one = in_thread(run_graph, "one", "How do bisphosphonates work?", "Is alendronate one?")
    assert one["understood_as"] == "Is alendronate one of the bisphosphonates?", one["understood_as"]
    assert one["answer"].removeprefix(f'Understood as: "{one["understood_as"]}" ').startswith(
        "Yes: alendronic acid is one of the bisphosphonates by its name"), one["answer"]
    _, too = in_thread(run_graph, "too", "Is warfarin a blood thinner?", "is aspirin one too?")
    assert too["understood_as"] == "Is aspirin one of the blood thinners?", too["understood_as"]


@pytest.mark.parametrize(("question", "understood"), [
    ("Which drugs are PD-1 inhibitors?", "What drugs inhibit PD-1?"),
    ("list some TNF blockers", "What drugs block TNF?"),
    ("which medications are COX-2 inhibitors", "What drugs inhibit COX-2?"),
    # a class the table knows is listed as one; a ligand's antagonists act on its receptors, not on it
    ("Which drugs are ACE inhibitors?", "Which drugs are ACE inhibitors?"),
    ("which drugs are dopamine antagonists?", "which drugs are dopamine antagonists?"),
])
def test_drugs_of_a_kind_no_class_names_are_the_drugs_acting_on_its_target(resources, question: str, understood: str) -> None:
    assert kind_acting(question, resources.linker) == understood


def test_drugs_of_a_kind_are_listed_by_what_acts_on_the_target(run_graph) -> None:
    """"Which drugs are PD-1 inhibitors?" was told what PD-1 is connected to (arthritis, dermatitis), no drug named."""
    out, _ = run_graph({"question": "Which drugs are PD-1 inhibitors?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targeted_by", out["answer"]
    assert {"pembrolizumab", "nivolumab"} <= {d["name"].casefold() for d in out["ranked_answers"]}, out["answer"]


@pytest.mark.parametrize(("question", "opens"), [
    ("is fluoxetine an SSRI or an SNRI?", "Fluoxetine is one of the SSRIs, not the SNRIs, by its name"),
    ("is venlafaxine an SSRI or SNRI?", "Venlafaxine is one of the SNRIs, not the SSRIs, by its name"),
    ("is aspirin a statin or a beta blocker?", "Aspirin is among neither the statins nor the beta blockers"),
])
def test_a_choice_between_two_classes_says_which_one(run_graph, question: str, opens: str) -> None:
    """It told what fluoxetine is connected to, and what it was asked went unanswered (since stop 102)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(opens + " (the class table lists"), out["answer"]


@pytest.mark.parametrize(("first", "then", "understood", "cls"), [
    ("how do antibiotics work?", "which of them treat pneumonia?", "Which antibiotics treat pneumonia?", "antibiotics"),
    ("how do antibiotics work?", "which ones are used for pneumonia?", "Which antibiotics are used for pneumonia?", "antibiotics"),
    ("what do statins target?", "which ones treat stroke?", "Which statins treat stroke?", "statins"),
])
def test_which_of_them_after_how_a_class_works_keeps_to_the_class(run_graph, first: str, then: str, understood: str,
                                                                 cls: str) -> None:
    """"Which of them treat pneumonia?" after "how do antibiotics work?" was "Which of antibiotics treat pneumonia?",
    and listed acetylcysteine; "which ones …?" listed every drug for the disease (since stop 102)."""
    _first, out = in_thread(run_graph, f"class-ones-{then}-{cls}", first, then)
    assert out["understood_as"] == understood and out["drug_class"] == cls, out["answer"]
    assert out["ranked_answers"] and {a["id"] for a in out["ranked_answers"]} <= set(out["among"]), out["answer"]
