""""How does ampicillin kill bacteria?" is a mechanism question: it was read as a question about Bacteria alone
("Bacteria is connected to: Hepatic encephalopathy, …")."""

from __future__ import annotations

import pytest

from agents.intent import parse_question
from agents.state import Intent, Status


@pytest.mark.parametrize(("question", "drug", "disease"), [
    ("how does ampicillin kill bacteria?", "ampicillin", "bacteria"),
    ("does ampicillin kill Streptococcus pneumoniae?", "ampicillin", "Streptococcus pneumoniae"),
    ("how does imatinib stop CML?", "imatinib", "CML"),
    ("how does metformin slow diabetes?", "metformin", "diabetes"),
    ("why does rifampin clear tuberculosis?", "rifampin", "tuberculosis"),
    # the target a drug treats a disease through: they were read as a chain to "Blood pressure" (NOT_FOUND) or as the
    # drugs for the disease
    ("through which receptor does losartan lower blood pressure?", "losartan", "high blood pressure"),
    ("via which target does imatinib treat CML?", "imatinib", "CML"),
    ("what target does losartan act on to lower blood pressure?", "losartan", "high blood pressure"),
    ("which enzyme does aspirin block to prevent heart attacks?", "aspirin", "heart attacks"),
    # read whole: "taking metformin" was the drug, "treat Diabetes mellitus type 2", "propionate effective against
    # Atopic dermatitis" or "prevent strokes" the disease (the answer began "Read … as …: the closest name", or NOT_FOUND)
    ("How does taking metformin improve type 2 diabetes?", "metformin", "type 2 diabetes"),
    ("What does evogliptin do to treat Diabetes mellitus type 2?", "evogliptin", "Diabetes mellitus type 2"),
    ("Why is ulobetasol propionate effective against Atopic dermatitis?", "ulobetasol propionate", "Atopic dermatitis"),
    ("how does aspirin help prevent strokes?", "aspirin", "strokes"),
    # "why is X used in Y": the verb ends the name ("valproic" was the drug and "acid used in epilepsy" the disease,
    # answered as Gastric Acid; "folic acid prescribed to" was the drug)
    ("why is valproic acid used in epilepsy", "valproic acid", "epilepsy"),
    ("why is potassium iodide given in common cold", "potassium iodide", "common cold"),
    ("Why is insulin glargine given for diabetes?", "insulin glargine", "diabetes"),
    ("why is folic acid prescribed to treat anemia", "folic acid", "anemia"),
    ("why is aspirin used to relieve pain", "aspirin", "pain"),
    ("why are statins commonly used in heart disease?", "statins", "heart disease"),
    # "could X be used for Y?" had no rule: the free-text scan read "polycystic ovary syndrome" as the ovary
    ("could metformin be used for polycystic ovary syndrome?", "metformin", "polycystic ovary syndrome"),
    ("can aspirin be given for fever", "aspirin", "fever"),
    # "exactly" was read into a name ("exactly does lisinopril", "high blood pressure exactly")
    ("how exactly does lisinopril lower blood pressure?", "lisinopril", "high blood pressure"),
    ("how does lisinopril lower blood pressure exactly?", "lisinopril", "high blood pressure"),
    # "protect" had no rule: "How does losartan protect the kidneys in diabetes?" was told what losartan is connected to
    ("How does losartan protect the kidneys in diabetes?", "losartan", "kidneys in diabetes"),
    ("how does aspirin protect against heart attacks?", "aspirin", "heart attacks"),
])
def test_verbs_that_act_against_a_disease_or_an_organism(question: str, drug: str, disease: str) -> None:
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.MECHANISM
    assert (parsed.drug, parsed.disease) == (drug, disease)


@pytest.mark.parametrize(("question", "intent", "drug", "disease"), [
    ("How will metformin help my diabetes?", Intent.MECHANISM, "metformin", "diabetes"),
    ("what will imatinib do for CML?", Intent.MECHANISM, "imatinib", "CML"),
    ("how will imatinib work?", Intent.TARGETS, "imatinib", ""),
])
def test_will_asks_as_does_does(question: str, intent: Intent, drug: str, disease: str) -> None:
    """"How will metformin help my diabetes?" linked "will metformin" by spelling ('Read "will metformin" as
    Metformin'): no pattern asked with "will"."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is intent, parsed
    assert (parsed.drug, parsed.disease) == (drug, disease)


def test_how_a_drug_kills_bacteria_walks_from_the_drug(run_graph, resources) -> None:
    out, _ = run_graph({"question": "how does ampicillin kill bacteria?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism"
    kg = resources.kg
    assert kg.name(out["evidence"][0]["head"]) == "ampicillin" and kg.name(out["evidence"][-1]["tail"]) == "Bacteria"


def test_how_something_works_without_does_and_a_slot_that_opens_with_both(run_graph) -> None:
    """"explain how statins work" was NOT_FOUND ("no known entity"), and "both gout and hypertension" was read as
    one name, Hypertensive disorder. (The drugs that treat both: tests/test_both_diseases.py.)"""
    parsed = parse_question("explain how statins work")
    assert parsed is not None and parsed.intent is Intent.TARGETS and parsed.drug == "statins"
    out, _ = run_graph({"question": "what drugs treat both gout and hypertension?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED
    assert [m["mention"] for m in out["mentions"]] == ["gout", "hypertension"]  # two names, not one


def test_a_name_answered_without_asking_says_which_entity_it_was_read_as(run_graph) -> None:
    """With no one to ask, "interferon" was answered for Interferon beta-1a, and "diabetes" for Diabetes mellitus,
    without a word. (A drug class such as "penicillin" is answered for the class: tests/test_class_mechanism.py.)"""
    out, _ = run_graph({"question": "How does interferon treat multiple sclerosis?"}, interactive=False, memory=False)
    drug = next(m for m in out["mentions"] if m["mention"] == "interferon")
    others = [c["name"] for c in drug["candidates"] if c["name"] != drug["entity"]["name"]][:3]
    assert f"\"interferon\" fits several entries; answered for {drug['entity']['name']} (others: {', '.join(others)}" \
        in out["answer"], out["answer"]
    out, _ = run_graph({"question": "What drugs treat diabetes?"}, interactive=False, memory=False)
    assert out["answer"].startswith('"diabetes" fits several entries; answered for Diabetes mellitus (others: ')
    out, _ = run_graph({"question": "How does imatinib treat CML?"}, interactive=False, memory=False)
    assert out["answer"].startswith("imatinib acts on")  # one entity fits: nothing to say


@pytest.mark.parametrize(("question", "drug", "disease"), [
    ("How does atorvastatin work to reduce cholesterol?", "atorvastatin", "high cholesterol"),
    ("how does aspirin work to prevent heart attacks", "aspirin", "heart attacks"),
    ("Describe the pathway by which lisinopril lowers blood pressure", "lisinopril", "high blood pressure"),
    ("what is the mechanism through which metformin benefits type 2 diabetes", "metformin", "type 2 diabetes"),
    ("By what mechanism does omeprazole heal peptic ulcers?", "omeprazole", "peptic ulcers"),
])
def test_work_to_by_which_and_heal(question: str, drug: str, disease: str) -> None:
    """"How does atorvastatin work to reduce cholesterol?" linked "atorvastatin work to" (answered, with "Read
    'atorvastatin work to' as atorvastatin"); "the pathway by which lisinopril lowers blood pressure" and "omeprazole
    heal peptic ulcers" matched no rule, and the free-text scan walked to Blood pressure (NOT_FOUND) or to no disease."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.MECHANISM
    assert (parsed.drug, parsed.disease) == (drug, disease)


def test_the_pathway_by_which_a_drug_lowers_blood_pressure_ends_at_hypertension(run_graph, resources) -> None:
    out, _ = run_graph({"question": "Describe the pathway by which lisinopril lowers blood pressure"}, interactive=False,
                       memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism"
    kg = resources.kg
    assert kg.name(out["evidence"][0]["head"]) == "lisinopril"
    assert kg.name(out["evidence"][-1]["tail"]) in {"Hypertension", "Hypertensive disorder"}


def test_type_2_diabetes_is_read_in_free_text(run_graph, resources) -> None:
    """Words that no rule reads are scanned for names; "type 2 diabetes" was not one (the graph says "Diabetes
    mellitus type 2"), so "metformin type 2 diabetes mechanism" was answered for metformin alone."""
    out, _ = run_graph({"question": "metformin type 2 diabetes mechanism"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED
    assert resources.kg.name(out["evidence"][-1]["tail"]) == "Diabetes mellitus type 2"


@pytest.mark.parametrize("question", [
    "How is imatinib able to treat CML?",
    "How can imatinib be used to treat CML?",
    "What molecular targets mediate imatinib's effect on CML?",
])
def test_able_to_be_used_to_and_what_mediates_a_drugs_effect(question: str) -> None:
    """"How is imatinib able to treat CML?" and "How can imatinib be used to treat CML?" linked "imatinib able to" and
    "imatinib be" (answered, with a "Read … as imatinib" note); "what molecular targets mediate imatinib's effect on
    CML?" was read as "which drugs target …" and listed Bosutinib, Radotinib and nilotinib."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.MECHANISM
    assert (parsed.drug, parsed.disease) == ("imatinib", "CML")


@pytest.mark.parametrize(("question", "intent", "drug", "disease"), [
    ("what are the targets of tamoxifen in breast cancer?", Intent.MECHANISM, "tamoxifen", "breast cancer"),
    ("what is the target of aspirin for pain?", Intent.MECHANISM, "aspirin", "pain"),
    ("what are the targets of imatinib?", Intent.TARGETS, "imatinib", ""),
    ("What pathway does warfarin inhibit?", Intent.TARGETS, "warfarin", ""),
])
def test_targets_in_a_disease_and_a_pathway_a_drug_inhibits(question: str, intent: Intent, drug: str, disease: str) -> None:
    """"What are the targets of tamoxifen in breast cancer?" linked "tamoxifen in breast cancer" as one name (NOT_FOUND),
    and "What pathway does warfarin inhibit?" was a bare mention of warfarin ("warfarin is connected to: …")."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is intent and (parsed.drug, parsed.disease) == (drug, disease)


@pytest.mark.parametrize("question", ["What targets does warfarin have?", "which receptors does propranolol have?",
                                      "what known targets does imatinib have?"])
def test_what_targets_a_drug_has_is_what_it_targets(question: str) -> None:
    """"What targets does warfarin have?" linked "does warfarin have" as warfarin and found no path (NOT_FOUND)."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.TARGETS, parsed
    assert parsed.drug == question.split(" does ")[1].removesuffix(" have?")


def test_what_targets_warfarin_has_is_answered_with_its_target(run_graph, resources) -> None:
    out, _ = run_graph({"question": "What targets does warfarin have?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targets", out["answer"]
    assert not out["answer"].startswith("Read "), out["answer"]
    assert resources.kg.name(out["evidence"][0]["head"]) == "warfarin"


@pytest.mark.parametrize(("question", "intent"), [("how does aspirin thin the blood?", Intent.MECHANISM),
                                                  ("which drugs thin the blood?", Intent.TREATS),
                                                  ("does clopidogrel thin your blood?", Intent.MECHANISM)])
def test_thinning_the_blood_is_preventing_blood_clots(question: str, intent: Intent) -> None:
    """"How does aspirin thin the blood?" linked Blood and found no chain of relations to it."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is intent and parsed.disease == "blood clots", parsed


def test_how_aspirin_thins_the_blood_reaches_thrombosis(run_graph, resources) -> None:
    out, _ = run_graph({"question": "how does aspirin thin the blood?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert resources.kg.name(out["evidence"][-1]["tail"]) == "Thrombosis", out["answer"]


def test_what_happens_when_you_take_a_drug_is_what_it_acts_on() -> None:
    parsed = parse_question("what happens if you take aspirin?")
    assert parsed is not None and parsed.intent is Intent.TARGETS and parsed.drug == "aspirin", parsed
    assert parse_question("what happens when you take too much acetaminophen?") is None  # dosing: said out of scope


def test_a_target_asked_for_one_way_that_none_is_acted_on_says_so(run_graph) -> None:
    """"what enzyme does metformin activate?" listed the flavoprotein metformin inhibits, as if it were the answer."""
    out, _ = run_graph({"question": "what enzyme does metformin activate?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith("The knowledge graph records no target that Metformin activates; Metformin acts on: ")
    blocked, _ = run_graph({"question": "which receptor does propranolol block?"}, interactive=False, memory=False)
    assert blocked["answer"].startswith("Propranolol acts on: "), blocked["answer"]


@pytest.mark.parametrize("question", ["how does metformin lower glucose?",
                                      "what is the mechanism by which metformin lowers glucose"])
def test_lowering_glucose_is_high_blood_glucose(run_graph, resources, question: str) -> None:
    """"lowers glucose" asked which of the graph's glucose entries was meant (the drug or the chemical), as if the drug
    treated glucose; it asks about high blood glucose, as "lowers blood glucose" does."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism", out["answer"]
    assert resources.kg.name(out["evidence"][-1]["tail"]) == "Hyperglycemia", out["evidence"]


def test_glucose_tablets_are_no_remedy_for_high_glucose() -> None:
    """Only the verb makes "glucose" a measure to lower: "glucose tablets" are not read as pills for high glucose."""
    parsed = parse_question("what are glucose tablets for?")
    assert parsed is None or "high" not in (parsed.drug + parsed.disease), parsed


@pytest.mark.parametrize(("question", "disease"), [
    ("what's the mechanism behind dronedarone in treating Atrial fibrillation", "MESH:D001281"),
    ("dronedarone and Atrial fibrillation: what's the link?", "MESH:D001281"),
    ("what is it about diazepam that helps Muscle Spasticity?", "MESH:D009128"),  # the disease's alias, HP's own name
])
def test_a_disease_named_like_a_phenotype_is_the_disease(run_graph, question: str, disease: str) -> None:
    """Both took the phenotype Atrial fibrillation (HP:0005110), which one name also gives the disease (MeSH): the first
    matched no rule ("mechanism behind … in treating …") and the names were read as free text, whose scan took the
    first of equal entries by its id."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["targets"] == [disease], (out["targets"], out["answer"])
    parsed = parse_question(question)
    assert not question.startswith("what's") or (parsed is not None and parsed.intent is Intent.MECHANISM), parsed


@pytest.mark.parametrize(("question", "disease"), [("which drugs dissolve clots?", "clots"),
                                                    ("what drugs break up clots?", "clots"),
                                                    ("which drugs kill bacteria?", "bacteria")])
def test_more_verbs_of_treating_ask_which_drugs(question: str, disease: str) -> None:
    """No rule read them: "which drugs dissolve clots?" told what Thrombosis is connected to."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.TREATS and parsed.disease == disease, parsed


def test_clots_are_thrombosis(run_graph) -> None:
    """"how does heparin prevent clots?" asked which "clots" was meant (Thrombosis or Deep venous thrombosis), where
    "blood clots" was already Thrombosis."""
    out, snap = run_graph({"question": "how does heparin prevent clots?"}, thread="clots", memory=False)
    assert not snap.next and out["status"] is Status.ANSWERED and out["targets"] == ["MESH:D013927"], out["answer"]


def test_why_a_two_word_drug_is_used_in_a_disease_links_both(run_graph, resources) -> None:
    """'Read "acid used in epilepsy" as Gastric Acid': the chain ran from valproic acid to stomach acid."""
    out, _ = run_graph({"question": "why is valproic acid used in epilepsy"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism"
    kg = resources.kg
    assert kg.name(out["evidence"][0]["head"]).casefold() == "valproic acid"
    assert kg.name(out["evidence"][-1]["tail"]) == "Epilepsy" and "Gastric" not in out["answer"]


def test_whether_a_drug_should_be_used_is_no_yes_no_mechanism() -> None:
    """"should ibuprofen be used in asthma?" asks for advice (NSAIDs can worsen asthma), not whether a chain lowers it:
    the "could … be used for …" rule leaves "should" and "may" alone."""
    for question in ("should ibuprofen be used in asthma?", "may ibuprofen be used in asthma?"):
        parsed = parse_question(question)
        assert parsed is None or parsed.intent is not Intent.MECHANISM, parsed


def test_a_trailing_specifically_is_no_name() -> None:
    """"what does imatinib target specifically?" asked which drugs target "specifically"."""
    parsed = parse_question("what does imatinib target specifically?")
    assert parsed is not None and (parsed.intent, parsed.drug) == (Intent.TARGETS, "imatinib"), parsed


@pytest.mark.parametrize("question", ["How does losartan protect the kidneys in diabetes?",
                                      "How does losartan treat diabetic kidney disease?",
                                      "how does losartan treat diabetic nephropathy?"])
def test_kidney_disease_in_diabetes_is_diabetic_renal_disease(run_graph, question: str) -> None:
    """The graph's Diabetic renal disease had no everyday name (``memory/lay_terms.tsv``): "diabetic kidney disease"
    asked which entity was meant, and the first question was told what losartan is connected to."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith("Losartan acts on Diabetic renal disease through a "), out["answer"]


def test_nerve_pain_is_neuralgia(run_graph) -> None:
    """"How does gabapentin help nerve pain?" was read as Pain ('Read "nerve pain" as Pain: the closest name'); the
    graph's Neuralgia had no everyday name (stop 97)."""
    out, _ = run_graph({"question": "How does gabapentin help nerve pain?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith("Gabapentin acts on Neuralgia through a "), out["answer"]
