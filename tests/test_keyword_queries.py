"""Keyword queries, typed as into a search box rather than as a sentence.

- "imatinib mechanism of action", "imatinib MOA" and "mechanism imatinib" matched no rule. The free-text scan found
  the drug alone and answered what the graph holds about it ("imatinib is connected to: …"), not what it acts on, as
  "what is the mechanism of action of imatinib?" does.
- "metformin diabetes", "imatinib for leukemia" and "tamoxifen cancer" name a disease only in part. The scan matches
  whole names, so it found the drug alone and the disease was dropped: "Metformin is connected to: Hyperglycemia; …".
  The words beside the drug now fill the disease slot, and are linked as a slot is: the diseases they fit, nearest
  the drug first, and a clarification when interactive.
"""

from __future__ import annotations

import pytest

from agents.intent import out_of_scope, parse_question
from agents.state import Status


@pytest.mark.parametrize("question", [
    "imatinib mechanism of action", "imatinib MOA", "mechanism imatinib", "aspirin: mechanism?",
])
def test_a_drug_beside_a_mechanism_word_asks_what_it_acts_on(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targets", out["answer"]
    assert " acts on: " in out["answer"]


@pytest.mark.parametrize("question", ["explain imatinib", "tell me about imatinib", "imatinib dose",
                                      "What's imatinib?"])  # its "what s" was read as a disease, Burkitt's lymphoma
def test_a_drug_beside_other_words_is_still_about_the_drug(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "entity", out["answer"]
    assert out["targets"] == []


@pytest.mark.parametrize(("question", "disease"), [
    ("imatinib for leukemia", "Chronic myeloid leukemia"),
    ("imatinib leukemia", "Chronic myeloid leukemia"),
    ("tamoxifen cancer", "Breast Neoplasms"),
    ("metformin diabetes mechanism", None),
])
def test_words_that_name_a_disease_in_part_are_the_disease(run_graph, resources, question: str, disease: str | None) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism", out["answer"]
    assert len(out["targets"]) == 1 and out["clarification"]["auto"] is True
    name = resources.kg.name(out["targets"][0])
    assert name == disease if disease else name.startswith("Diabetes mellitus")
    assert resources.kg.name(out["evidence"][-1]["tail"]) == name


@pytest.mark.parametrize("question", ["what does the research say about aspirin for preventing cancer?",
                                      "What do studies show about aspirin for cancer prevention?",
                                      "aspirin for preventing cancer"])
def test_what_is_known_of_a_drug_for_a_disease_named_in_part_asks_which(run_graph, question: str) -> None:
    """The first was told what aspirin is connected to, "cancer" dropped without a word ("How does aspirin prevent
    cancer?" asked which cancer)."""
    out, _ = run_graph({"question": question}, thread=question)
    assert "__interrupt__" in out, out.get("answer")
    ask = out["__interrupt__"][0].value
    assert ask["slot"] == "disease" and ask["mention"] == "cancer"
    assert {"Breast Neoplasms", "Malignant tumor of colon"} <= {c["name"] for c in ask["candidates"]}


@pytest.mark.parametrize(("question", "drug"), [("alopurinol for gout", "allopurinol"), ("alopurinol gout", "allopurinol"),
                                               ("gout colchicin", "colchicine")])
def test_a_misspelt_drug_beside_a_disease_is_the_drug(run_graph, resources, question: str, drug: str) -> None:
    """"alopurinol for gout" listed the drugs for gout: the scan found the disease alone, the drug's name misspelt."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism", out["answer"]
    assert [resources.kg.name(s) for s in out["sources"]] == [drug] and resources.kg.name(out["targets"][0]) == "Gout"


@pytest.mark.parametrize("question", ["best pills for gout", "gout medications", "natural remedies for gout"])
def test_words_beside_a_disease_that_ask_for_its_drugs_are_no_drug(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["intent"] != "mechanism", out["answer"]


def test_an_interactive_keyword_query_asks_which_disease(run_graph) -> None:
    out, _ = run_graph({"question": "metformin diabetes"}, thread="kw")
    assert "__interrupt__" in out
    names = [c["name"] for c in out["__interrupt__"][0].value["candidates"]]
    assert {"Diabetes mellitus type 1", "Diabetes mellitus type 2"} <= set(names)


@pytest.mark.parametrize(("question", "disease"), [
    ("asthma medications", "asthma"),
    ("hypertension drugs", "hypertension"),
    ("What is the best diabetes treatment?", "diabetes"),
    ("list gout pills", "gout"),
    ("What are common migraine medications?", "migraine"),
    # a measure before a remedy is what treats it when high (it was "Blood pressure is connected to: Hypotension")
    ("blood pressure medications", "high blood pressure"),
    ("cholesterol drugs", "high cholesterol"),
    ("drugs that lower blood pressure", "high blood pressure"),
    ("medications to reduce cholesterol", "high cholesterol"),
])
def test_a_disease_before_a_remedy_noun_asks_what_treats_it(question: str, disease: str) -> None:
    """"asthma medications" was answered "Asthma is connected to: Cough", and "What is the best diabetes treatment?"
    NOT_FOUND ("What is the best diabetes" is not in the knowledge graph)."""
    p = parse_question(question)
    assert p is not None and (p.intent.value, p.disease) == ("treats", disease)


@pytest.mark.parametrize("question", ["what are the drugs?", "which is the treatment?", "what are some medications?",
                                      "show me my medications", "tell me more about drugs"])
def test_a_remedy_noun_alone_names_no_disease(question: str) -> None:
    p = parse_question(question)
    assert p is None or p.intent.value != "treats", p


def test_a_keyword_query_for_a_disease_s_drugs_lists_them(run_graph, resources) -> None:
    out, _ = run_graph({"question": "hypertension drugs"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats", out["answer"]
    assert [resources.kg.name(t) for t in out["targets"]] == ["Hypertensive disorder"]
    assert len(out["ranked_answers"]) == 5


def test_the_disease_before_treatment_is_the_disease() -> None:
    """"Is metformin used in diabetes treatment?" was NOT_FOUND ("diabetes treatment" is not in the knowledge graph)."""
    p = parse_question("Is metformin used in diabetes treatment?")
    assert p is not None and (p.intent.value, p.drug, p.disease) == ("mechanism", "metformin", "diabetes")


@pytest.mark.parametrize("question", ["statin therapy", "beta blocker drugs", "What are the best statin drugs?"])
def test_a_drug_class_before_a_remedy_noun_asks_what_the_class_acts_on(run_graph, question: str) -> None:
    """It was answered for one of the class's drugs ("'statin' names a drug class; answered for Rosuvastatin")."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targets", out["answer"]
    assert out["drug_class"] and " in the knowledge graph act on: " in out["answer"]


@pytest.mark.parametrize("question", ["What kind of disease is gout?", "gout info please", "anything on gout?"])
def test_a_disease_asked_about_in_other_words_is_answered_with_what_treats_it(run_graph, resources, question: str) -> None:
    """They were NOT_FOUND: "no candidate path was found within the walk budget" (gout leads nowhere in the graph)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats", out["answer"]
    assert [resources.kg.name(t) for t in out["targets"]] == ["Gout"]


def test_a_kind_of_target_before_the_verb_asks_what_the_drug_acts_on() -> None:
    p = parse_question("What type of receptor does propranolol block?")
    assert p is not None and (p.intent.value, p.drug) == ("targets", "propranolol")


@pytest.mark.parametrize("question", ["Why is metformin first line for diabetes?",
                                      "Is metformin the first-line treatment for diabetes?"])
def test_first_line_before_the_disease_is_not_part_of_its_name(question: str) -> None:
    """The first was NOT_FOUND: "first line for diabetes" is not in the knowledge graph."""
    p = parse_question(question)
    assert p is not None and (p.intent.value, p.drug, p.disease) == ("mechanism", "metformin", "diabetes")


@pytest.mark.parametrize(("question", "disease"), [("what is the mechanism of aspirin in preventing stroke?", "stroke"),
                                                  ("Why is aspirin used after a heart attack?", "heart attack"),
                                                  ("what is the role of metformin in treating diabetes?", "diabetes")])
def test_a_verb_before_the_disease_is_not_part_of_its_name(question: str, disease: str) -> None:
    """"preventing stroke" and "used after a heart attack" were read as the disease's name: "Read "preventing stroke" as
    Cerebrovascular accident: the closest name"."""
    p = parse_question(question)
    assert p is not None and (p.intent.value, p.disease) == ("mechanism", disease)


@pytest.mark.parametrize("question", ["Does aspirin reduce the risk of heart attack?",
                                      "Does aspirin lower your chances of heart attack?",
                                      "Does aspirin reduce heart attack risk?",
                                      "Can aspirin prevent the recurrence of heart attack?"])
def test_the_risk_of_a_disease_is_read_as_the_disease(question: str) -> None:
    """"risk of colorectal cancer" was looked up as a name ("is not in the knowledge graph"), and "risk of heart attack"
    reached Myocardial infarction only as the closest name by spelling."""
    p = parse_question(question)
    assert p is not None and (p.drug, p.disease) == ("aspirin", "heart attack")


def test_pharmacokinetics_is_said_to_be_out_of_scope() -> None:
    from agents.intent import out_of_scope

    assert [out_of_scope(q) for q in ("What is the half-life of amiodarone?", "How long does ibuprofen stay in your system?",
                                      "What is the bioavailability of oral morphine?", "How does amiodarone act?",
                                      # these were told what the names are connected to
                                      "how is metformin excreted?", "which drugs are metabolized by the liver?",
                                      "how is metformin cleared from the body?",
                                      "what is prednisone metabolized to?", "how does metformin affect glucose metabolism?",
                                      "how does ampicillin clear an infection?")] == [
        "pharmacokinetics", "pharmacokinetics", "pharmacokinetics", "", "pharmacokinetics", "pharmacokinetics",
        "pharmacokinetics", "", "", ""]


@pytest.mark.parametrize(("question", "scope"), [
    # these were answered as chains to the organ, or NOT_FOUND, with no word on what the graph does not hold
    ("does ibuprofen cross the blood brain barrier?", "pharmacokinetics"), ("does sertraline cross the placenta?", "pharmacokinetics"),
    ("how is metformin absorbed?", "pharmacokinetics"), ("does lithium pass into breast milk?", "pharmacokinetics"),
    ("how does ibuprofen get into the brain?", "pharmacokinetics"), ("is warfarin highly protein bound?", ""),
    ("what does ibuprofen do in the brain?", ""), ("how does imatinib get into cancer cells?", "pharmacokinetics"),
    ("how does levodopa cross into the brain?", ""), ("does a BBB-penetrant drug treat glioma?", "pharmacokinetics"),
    # which enzymes break a drug down were told what it is connected to, its target
    ("what enzymes metabolize warfarin?", "pharmacokinetics"), ("which enzyme metabolizes clopidogrel?", "pharmacokinetics"),
    ("what are the metabolizing enzymes of codeine?", "pharmacokinetics"), ("what is codeine metabolized to?", "")])
def test_where_a_drug_goes_in_the_body_is_pharmacokinetics(question: str, scope: str) -> None:
    assert out_of_scope(question) == scope


@pytest.mark.parametrize("question", ["does metformin damage the kidneys?", "is acetaminophen hepatotoxic?",
                                      "what drugs are bad for the kidneys?", "does ibuprofen hurt your stomach?"])
def test_harm_to_an_organ_is_a_side_effect(question: str) -> None:
    """"does metformin damage the kidneys?" was told what metformin is connected to, as if that answered it."""
    from agents.intent import out_of_scope

    assert out_of_scope(question) == "side effects"


def test_what_protects_an_organ_is_no_side_effect() -> None:
    from agents.intent import out_of_scope

    assert out_of_scope("how does lisinopril protect the kidneys?") == ""


def test_whether_a_disease_is_inherited_or_catching_is_said_to_be_out_of_scope() -> None:
    """"is gout genetic?" was answered with the drugs for gout alone, as if that were the answer."""
    from agents.intent import out_of_scope

    topic = "whether a disease is inherited or catching"
    assert [out_of_scope(q) for q in ("is gout genetic?", "Is tuberculosis contagious?", "does diabetes run in families?",
                                      "can you catch psoriasis?")] == [topic] * 4
    assert out_of_scope("is imatinib an infectious disease drug?") == out_of_scope("which infectious diseases does penicillin treat?") == ""


@pytest.mark.parametrize(("question", "disease"), [("is tuberculosis contagious?", "Pulmonary tuberculosis"),
                                                  ("does diabetes run in families?", "Diabetes mellitus"),
                                                  ("is gout genetic?", "Gout")])
def test_whether_a_disease_is_catching_is_answered_with_what_the_graph_holds(run_graph, question: str, disease: str) -> None:
    """"is tuberculosis contagious?" added "no known entity in the question": "tuberculosis" fits several names, and the
    free-text scan takes whole names only. It is now linked as in "What is tuberculosis?"."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats", out["answer"]
    assert "not whether a disease is inherited or catching. What it holds:" in out["answer"]
    assert "not descriptions" not in out["answer"]  # one note on what the graph does not hold, not two
    assert f"Drugs with a verified mechanism for {disease}:" in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["why do doctors prescribe furosemide?", "why would you take furosemide?",
                                      "Why do people use furosemide?"])
def test_why_doctors_prescribe_a_drug_asks_what_it_treats(question: str) -> None:
    """"doctors" was looked up as a name (NOT_FOUND)."""
    p = parse_question(question)
    assert p is not None and (p.intent.value, p.drug) == ("indications", "furosemide")


@pytest.mark.parametrize("question", ["Is there any drug that blocks TNF alpha?", "Are there drugs that target EGFR?",
                                      "Do any drugs inhibit COX-2?", "Is there a medicine that binds to ABL1?"])
def test_a_yes_no_request_for_drugs_acting_on_a_protein_lists_them(question: str) -> None:
    """They were answered with what the protein is connected to, and "drugs that target EGFR" read "that target" as a
    reference to an earlier turn (NOT_FOUND, "nothing earlier in this conversation")."""
    from agents.followup import resolve_followup

    p = parse_question(question)
    assert p is not None and p.intent.value == "targeted_by" and not p.drug, p
    assert resolve_followup(question, [], linker=None).references == []


def test_other_drugs_that_target_it_is_about_the_thread_target(run_graph) -> None:
    """After "How does aspirin work?" it asked which drugs target aspirin."""
    thread = "other-drugs-that-target-it"
    run_graph({"question": "How does aspirin work?"}, thread=thread, interactive=False, memory=False)
    out, _ = run_graph({"question": "are there other drugs that target it?"}, thread=thread, interactive=False, memory=False)
    assert out["understood_as"] == "Are there other drugs that target Prostaglandin G/H synthase 2?"
    assert out["status"] is Status.ANSWERED and "Aspirin" not in out["answer"].split("Drugs that act on")[1]


@pytest.mark.parametrize("question", ["What does metformin do in the body?", "How does metformin work in the human body?",
                                      "how does metformin affect the body?", "what does metformin do to your body?"])
def test_in_the_body_names_nothing(question: str) -> None:
    """"body" was read as Increased body weight, and the answer was NOT_FOUND (the last two until 2026-11-29)."""
    p = parse_question(question)
    assert p is not None and (p.intent.value, p.drug, p.disease) == ("targets", "metformin", "")


def test_filler_after_a_name_several_diseases_fit_asks_which(run_graph) -> None:
    """"diabetes info please" was NOT_FOUND ('"diabetes info please" is not in the knowledge graph'): the words after
    the name were read as part of it; "gout info please" got no word on what the graph holds."""
    _out, snap = run_graph({"question": "diabetes info please"}, thread="filler", interactive=True, memory=False)
    pending = [i.value for t in snap.tasks for i in t.interrupts]
    assert pending and pending[0]["mention"] == "diabetes", pending
    gout, _ = run_graph({"question": "gout info please"}, interactive=False, memory=False)
    assert "not descriptions of diseases" in gout["answer"], gout["answer"]


@pytest.mark.parametrize(("question", "intent"), [("whats lipitor for", "indications"), ("hows gout treated", "treats"),
                                                  ("whats the target of imatinib", "targets")])
def test_a_contraction_typed_without_its_apostrophe(question: str, intent: str) -> None:
    """"whats lipitor for" was answered with what atorvastatin is connected to."""
    p = parse_question(question)
    assert p is not None and p.intent.value == intent


def test_a_request_for_a_number_of_drugs_asks_what_treats_it() -> None:
    """"list 10 drugs for hypertension" was answered with what hypertension is connected to."""
    p = parse_question("list 10 drugs for hypertension")
    assert p is not None and (p.intent.value, p.disease) == ("treats", "hypertension")


@pytest.mark.parametrize("question", ["what drugs cause gout?", "which medications can cause gout?"])
def test_drugs_that_cause_a_disease_ask_what_raises_it(run_graph, question: str) -> None:
    """They listed the drugs that treat gout, the opposite of what was asked."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "causes", out["answer"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not side effects. What it holds: "
                                    "What the knowledge graph links to Gout as raising it: "), out["answer"]
    assert "Febuxostat" not in out["answer"], out["answer"]


def test_drugs_that_do_not_treat_a_disease_are_said_not_held(run_graph) -> None:
    """"what drugs don't treat gout?" listed the drugs that do, with no word on it."""
    out, _ = run_graph({"question": "what drugs don't treat gout?"}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not which drugs do not treat a "
                                    "disease. What it holds: Drugs with a verified mechanism for Gout: "), out["answer"]
    plain, _ = run_graph({"question": "what drugs treat gout?"}, interactive=False, memory=False)
    assert plain["answer"].startswith("Drugs with a verified mechanism for Gout: "), plain["answer"]


@pytest.mark.parametrize(("question", "disease"), [("what worsens gout?", "Gout"),  # listed the drugs for gout
                                                   ("what makes asthma worse?", "Asthma"),  # "Asthma is connected to: Cough"
                                                   ("what can make gout worse?", "Gout")])
def test_what_makes_a_disease_worse_is_what_raises_it(run_graph, question: str, disease: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "causes", out["answer"]
    assert out["answer"].startswith(f"What the knowledge graph links to {disease} as raising it: "), out["answer"]


def test_drugs_or_foods_that_worsen_a_disease_are_said_not_held(run_graph) -> None:
    """"which drugs make depression worse?" listed drugs for depression; "what foods trigger gout?" gout's drugs, no word."""
    from agents.intent import out_of_scope

    assert out_of_scope("which drugs make depression worse?") == "side effects"
    assert out_of_scope("what foods trigger gout?") == "what to eat or avoid"
    out, _ = run_graph({"question": "which drugs make depression worse?"}, interactive=False, memory=False)
    assert out["intent"] == "causes" and "Methamphetamine" not in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["what should I not take with gout?",  # listed the drugs for gout, no word
                                      "which drugs should be avoided in asthma?"])  # "Asthma is connected to: Cough"
def test_what_to_avoid_is_said_not_held(question: str) -> None:
    from agents.intent import out_of_scope

    assert out_of_scope(question) == "which drugs to avoid (contraindications and interactions)"
