""""What is the best painkiller?", "how do gout drugs work?": everyday words for what drugs do, read in the graph's
terms."""

from __future__ import annotations

import pytest

from agents.everyday import everyday
from agents.intent import parse_question
from agents.preamble import having_conditions
from agents.state import Intent, Status
from agents.two_questions import two_questions
from tests.conftest import in_thread


@pytest.mark.parametrize(("question", "read"), [
    ("What is the best painkiller?", "What is the best drug for pain?"),
    ("pain killers", "drugs for pain"),
    ("any good pain relievers?", "any good drugs for pain?"),
    ("which sleeping pills work best?", "which drugs for insomnia work best?"),
    ("does aspirin thin the blood?", "does aspirin prevent blood clots?"),
    ("How does imatinib treat CML?", "How does imatinib treat CML?"),
    # "you lose weight" was looked up as a name (NOT_FOUND); causing weight loss is an effect, not a treatment
    ("Does metformin help you lose weight?", "Does metformin help with obesity?"),
    ("what are the best drugs for weight loss?", "what are the best drugs for obesity?"),
    ("How does Metformin treat weight loss?", "How does Metformin treat obesity?"),  # "and for weight loss?" after metformin
    ("Does metformin cause weight loss?", "Does metformin cause weight loss?"),
    ("how does aspirin work as a blood thinner?", "how does aspirin prevent blood clots?"),  # both looked for a chain
    ("aspirin's blood-thinning effect", "aspirin's effect on blood clots"),  # to Blood
    # a side effect to spare: the drugs for the disease (a chain from Blood pressure to Cough; a name "… that don't …")
    ("Which blood pressure drugs don't cause cough?", "What are the blood pressure drugs?"),
    ("What are the drugs for high blood pressure that don't cause cough?", "What are the drugs for high blood pressure?"),
    ("which asthma drugs won't give me a dry cough?", "What are the asthma drugs?"),
    ("Which other drugs don't cause cough?", "Which other drugs don't cause cough?"),  # no disease named
    ("What drugs that don't cause drowsiness treat allergies?", "What drugs that don't cause drowsiness treat allergies?"),
    # how much: how (an effect size, out of scope); it told what atorvastatin is connected to
    ("How much does atorvastatin lower LDL?", "how does atorvastatin lower LDL?"),
    ("How much does lipitor cost?", "How much does lipitor cost?"),
    # an effect that ends no mechanism: how the drug works (it told what caffeine, or Bacteria, is connected to)
    ("How does caffeine keep you awake?", "How does caffeine work?"),
    ("How do stimulants keep people alert?", "How do stimulants work?"),
    # drugs as a subject: the drugs for it ('"drugs" is not in the knowledge graph')
    ("How do drugs lower it?", "What drugs lower it?"), ("how do doctors treat gout?", "What drugs treat gout?"),
    # a sentence asking how: a class's name is found in a question, not in a sentence (it told what Bacteria is)
    ("Explain how penicillin kills bacteria", "How does penicillin kill bacteria"),
    ("tell me how statins lower cholesterol?", "How do statins lower cholesterol?"),
    ("explain how metformin works", "How does metformin work"),
    ("tell me how many patients take aspirin", "tell me how many patients take aspirin"),
    ("how does ampicillin kill bacteria?", "how does ampicillin kill bacteria?"),
    ("does caffeine keep you awake?", "does caffeine keep you awake?"),
    # sleep: it read "you sleep" as Sleep and listed modafinil; quitting smoking was NOT_FOUND
    ("What drug helps you sleep?", "What drug helps with insomnia?"),
    ("What helps quit smoking?", "What helps with nicotine dependence?"),
    ("How does varenicline help you stop smoking?", "How does varenicline help with nicotine dependence?"),
    ("drugs for smoking cessation", "drugs for nicotine dependence"),
    ("Does smoking cause cancer?", "Does smoking cause cancer?"),  # smoking itself is no dependence
    # "effective" was read as Bipolar disorder ("affective"); with a disease, the question is as before
    ("Is imatinib effective?", "What does imatinib treat?"),
    ("Is imatinib effective for CML?", "Is imatinib effective for CML?"),
    # why a drug does not work: how it acts on the disease ("Why don't antibiotics work on viruses?" told what Viruses
    # is connected to), after the note that the graph does not hold why
    ("Why don't antibiotics work on viruses?", "How do antibiotics treat viruses?"),
    ("Why doesn't aspirin treat gout?", "How does aspirin treat gout?"),
    ("Why isn't metformin used for type 1 diabetes?", "How does metformin treat type 1 diabetes?"),
    ("Why is colchicine not used for hyperuricemia?", "How does colchicine treat hyperuricemia?"),  # since stop 100
    ("why are statins not used for gout?", "How do statins treat gout?"),
    # what two drugs treat: "imatinib and dasatinib both" and "same diseases" were looked up as names
    ("What do imatinib and dasatinib both treat?", "What do imatinib and dasatinib treat?"),
    ("Do imatinib and dasatinib treat the same diseases?", "What do imatinib and dasatinib treat?"),
    # what two named drugs share (since stop 100): "the same target" was asked about as a reference to an earlier turn,
    # "same targets" looked up as a name, and "… as ibuprofen" read as a chain from aspirin to ibuprofen
    ("do omeprazole and ranitidine treat the same disease?", "What do omeprazole and ranitidine treat?"),
    ("do aspirin and ibuprofen hit the same target?", "Do aspirin and ibuprofen share a target?"),
    ("Do aspirin and ibuprofen act on the same targets?", "Do aspirin and ibuprofen share a target?"),
    ("does aspirin have the same target as ibuprofen?", "Do aspirin and ibuprofen share a target?"),
    ("does omeprazole treat the same diseases as ranitidine?", "What do omeprazole and ranitidine treat?"),
    # the organ was read as a third name to compare (Gastric Acid), or the question as a chain to the stomach
    ("is celecoxib easier on the stomach than ibuprofen?", "is celecoxib better tolerated than ibuprofen?"),
    ("is naproxen harder on the kidneys than ibuprofen?", "is naproxen worse tolerated than ibuprofen?"),
    ("What drugs treat both gout and hypertension?", "What drugs treat both gout and hypertension?"),
])
def test_everyday_words_are_read_in_the_graph_s_terms(question: str, read: str) -> None:
    assert everyday(question) == read


def test_the_best_painkiller_asks_what_treats_pain(run_graph) -> None:
    """It was NOT_FOUND: '"the best painkiller" is not in the knowledge graph'."""
    parsed = parse_question("What is the best painkiller?")
    assert parsed is not None and parsed.intent is Intent.TREATS and parsed.disease == "pain"
    (out,) = in_thread(run_graph, "painkiller", "What is the best painkiller?")
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats" and out["ranked_answers"], out["answer"]


@pytest.mark.parametrize(("question", "disease"), [("what sleeping pills are there?", "insomnia"),
                                                   ("which painkillers are there?", "pain"),
                                                   ("what drugs for gout are available?", "gout"),
                                                   ("which medicines for asthma are safe?", "asthma")])
def test_which_drugs_for_a_disease_there_are_asks_what_treats_it(question: str, disease: str) -> None:
    """The first two were NOT_FOUND ("no known entity in the question"); "what drugs for insomnia are there?" and the
    last two were told what the disease is connected to."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.TREATS and parsed.disease == disease


def test_which_painkillers_are_safe_in_pregnancy_lists_what_treats_pain(run_graph) -> None:
    """It was NOT_FOUND ("no known entity in the question"), after the notes on pregnancy."""
    (out,) = in_thread(run_graph, "painkillers-pregnancy", "which painkillers are safe in pregnancy?")
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats" and out["ranked_answers"], out["answer"]
    assert "not use in pregnancy or breastfeeding" in out["answer"]


@pytest.mark.parametrize(("question", "disease"), [("how do gout drugs work?", "gout"),
                                                   ("how do drugs for gout work?", "gout"),
                                                   ("how do painkillers work?", "pain")])
def test_how_a_disease_s_drugs_work_is_two_questions(question: str, disease: str) -> None:
    """They were NOT_FOUND: "gout drugs" was read as gout, and a walk from gout found no target."""
    assert two_questions(question) == (f"What drugs treat {disease}?", ["What do they target?"])
    assert two_questions("how do statin drugs work?", lambda c: c == "statin")[1] == []  # a class asks as before


def test_being_overweight_is_obesity(resources) -> None:
    out = resources.linker.link("overweight")  # a lay name of it, read (it was a guess by embedding, asked about)
    assert (out.status.value, out.best.name, out.best.method) == ("linked", "Obesity", "exact"), out


@pytest.mark.parametrize("question", ["What's the mechanism behind aspirin's blood-thinning effect?",
                                      "how does aspirin work as a blood thinner?"])
def test_a_blood_thinning_effect_is_how_a_drug_prevents_clots(run_graph, question: str) -> None:
    """Both were NOT_FOUND: "no chain of relations from Aspirin to Blood" (no rule parses the first; the free-text scan
    read the raw words)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith("Aspirin acts on Thrombosis"), out["answer"]


@pytest.mark.parametrize("question", ["Which blood pressure drugs don't cause cough?",
                                      "What are the drugs for high blood pressure that don't cause cough?"])
def test_drugs_that_do_not_cause_a_side_effect_are_the_disease_s_drugs_with_a_note(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["intent"] == "treats" and out["status"] is Status.ANSWERED, out["answer"]
    assert out["targets"] == ["MESH:D006973"], out["targets"]  # Hypertensive disorder
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not side effects. What it holds: ")


def test_what_helps_you_sleep_or_quit_smoking_lists_the_drugs_for_it(run_graph) -> None:
    for q, disease in (("What drug helps you sleep?", "MESH:D007319"), ("What helps quit smoking?", "MESH:D014029")):
        out, _ = run_graph({"question": q}, interactive=False, memory=False)
        assert out["intent"] == "treats" and out["targets"] == [disease], (q, out["answer"])
        assert out["status"] is Status.ANSWERED and not out["answer"].startswith("Read "), out["answer"]
    drowsy, _ = run_graph({"question": "Why does Benadryl make you drowsy?"}, interactive=False, memory=False)
    assert drowsy["answer"].startswith("The knowledge graph holds curated drug mechanisms, not side effects."), drowsy["answer"]


def test_whether_a_drug_is_effective_lists_what_it_treats_with_a_note(run_graph) -> None:
    out, _ = run_graph({"question": "Is imatinib effective?"}, interactive=False, memory=False)
    assert out["intent"] == "indications" and out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not how well drugs work. "), out["answer"]


def test_why_a_drug_does_not_work_says_what_the_graph_holds(run_graph) -> None:
    out, _ = run_graph({"question": "Why doesn't warfarin treat atrial fibrillation?"}, thread="why-not", interactive=False,
                       memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not why a drug does not work. "
                                    "No verified evidence was found: the knowledge graph has no chain of relations from "
                                    "warfarin to Atrial fibrillation"), out["answer"]
    # in the same thread: antibiotics, not "How does warfarin act on Viruses?" (read before the thread is)
    held, _ = run_graph({"question": "Why don't antibiotics work on viruses?"}, thread="why-not", interactive=False,
                        memory=False)
    assert held["status"] is Status.ANSWERED and held["drug_class"] == "antibiotics", held["answer"]
    assert "not why a drug does not work. What it holds: Antibiotics reach Viruses" in held["answer"], held["answer"]


def test_what_two_drugs_treat_says_what_both_have_and_what_one_has_alone(run_graph) -> None:
    """"What do imatinib and dasatinib both treat?" was answered for imatinib alone, "What does dasatinib treat?"
    offered next; "both" was not said. It now lists the diseases both have a lowering path into, then each one's own,
    and every disease that "What does imatinib treat?" lists is among them, on the side the paths say."""
    out, _ = run_graph({"question": "What do imatinib and dasatinib both treat?"}, interactive=False, memory=False)
    assert out["answer"].startswith("Imatinib and Dasatinib both have a verified mechanism for: Chronic myeloid leukemia"), out["answer"]
    assert "You also asked" not in out["answer"] and out["compared"], out["answer"]
    ids = {m["entity"]["name"].casefold(): m["entity"]["id"] for m in out["mentions"]}
    assert set(out["among"]) == {ids["imatinib"], ids["dasatinib"]}, out["mentions"]
    for a in out["ranked_answers"]:  # each listed disease with the path of a drug that has one into it
        t = a["path"]["triples"]
        assert t[0]["head"] in out["among"] and t[-1]["tail"] == a["id"], a
    both = [a["name"] for a in out["ranked_answers"] if a["path"]["features"]["class_drugs"] == 2]
    alone = [a for a in out["ranked_answers"] if a["path"]["features"]["class_drugs"] == 1]
    assert "Chronic myeloid leukemia" in both and out["ranked_answers"][0]["name"] in both, out["answer"]
    for a in alone:
        name = "imatinib" if a["path"]["triples"][0]["head"] == ids["imatinib"] else "Dasatinib"
        assert f"Listed for {name} alone: " in out["answer"] and a["name"] in out["answer"].split(f"Listed for {name}")[1], out["answer"]
    one, _ = run_graph({"question": "What does imatinib treat?"}, interactive=False, memory=False)
    listed = {a["name"] for a in out["ranked_answers"]}
    assert {a["name"] for a in one["ranked_answers"]} <= listed, (one["answer"], out["answer"])
    same, _ = run_graph({"question": "Do imatinib and dasatinib treat the same diseases?"}, interactive=False, memory=False)
    assert same["answer"] == out["answer"], same["answer"]
    classes, _ = run_graph({"question": "What do statins and fibrates treat?"}, interactive=False, memory=False)
    assert classes["answer"].endswith('You also asked: "What do fibrates treat?" Ask it next.'), classes["answer"]


def test_two_drugs_with_no_disease_in_common_are_said_to_have_none(run_graph) -> None:
    """"What do omeprazole and levothyroxine both treat?" told omeprazole's diseases and offered levothyroxine's
    question."""
    out, _ = run_graph({"question": "What do omeprazole and levothyroxine both treat?"}, interactive=False, memory=False)
    assert out["answer"].startswith("Omeprazole and Levothyroxine share none of the diseases listed for them. "
                                    "Omeprazole has a verified mechanism for: "), out["answer"]
    assert "Levothyroxine has a verified mechanism for: " in out["answer"] and "Hypothyroidism" in out["answer"], out["answer"]
    assert all(a["path"]["features"]["class_drugs"] == 1 for a in out["ranked_answers"]), out["ranked_answers"]


def test_a_disease_two_drugs_share_is_in_each_one_s_own_list(run_graph) -> None:
    """"What do metformin and lisinopril both treat?" said both had a verified mechanism for cystic fibrosis and
    hypocalcemia: two of metformin's diseases that lisinopril reached by a 4- to 6-step walk of its own. A disease
    is theirs in common only when "What does X treat?" lists it for each of them."""
    out, _ = run_graph({"question": "What do metformin and lisinopril both treat?"}, interactive=False, memory=False)
    assert out["answer"].startswith("Metformin and lisinopril share none of the diseases listed for them."), out["answer"]
    for pair in (("imatinib", "dasatinib"), ("atorvastatin", "simvastatin")):
        both, _ = run_graph({"question": f"What do {pair[0]} and {pair[1]} treat?"}, interactive=False, memory=False)
        own = [{a["name"] for a in run_graph({"question": f"What does {d} treat?"}, interactive=False, memory=False)[0]
                ["ranked_answers"]} for d in pair]
        shared = {a["name"] for a in both["ranked_answers"] if a["path"]["features"]["class_drugs"] == 2}
        assert shared and shared <= own[0] & own[1], (shared, own)
        assert own[0] & own[1] <= shared, (shared, own)


def test_what_two_drugs_are_for_lists_each_one_s_diseases_first(run_graph) -> None:
    """"My mom takes lisinopril and metformin. What are they for?" looked for a chain from lisinopril to metformin
    (NOT_FOUND). Asked without "both", each drug's diseases come as "What does X treat?" lists them, those both have
    marked, not a list of what they share first."""
    out, _ = run_graph({"question": "My mom takes lisinopril and metformin. What are they for?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    one, _ = run_graph({"question": "What does metformin treat?"}, interactive=False, memory=False)
    own = out["answer"].split("Metformin has a verified mechanism for: ")[1].split(". Best evidence")[0]
    assert [n.removesuffix(" (both)") for n in own.split(", ")] == [a["name"] for a in one["ranked_answers"]], (own, one["answer"])
    assert out["answer"].startswith("Lisinopril has a verified mechanism for: Hypertensive disorder"), out["answer"]
    both = {a["name"] for a in out["ranked_answers"] if a["path"]["features"]["class_drugs"] == 2}
    assert all((f"{n} (both)" in out["answer"]) for n in both), out["answer"]




def test_an_effect_that_ends_no_mechanism_is_asked_as_how_the_drug_works(run_graph) -> None:  # and a sentence
    """"How does caffeine keep you awake?" told what caffeine is connected to (a leukemia among them); "explain how
    penicillin kills bacteria" told what Bacteria is connected to; "How do proton pump inhibitors reduce acid?" looked
    for a chain to Acetic Acid."""
    out, _ = run_graph({"question": "How does caffeine keep you awake?"}, interactive=False, memory=False)
    assert out["intent"] == Intent.TARGETS.value and out["answer"].startswith("caffeine acts on: "), out["answer"]
    pen, _ = run_graph({"question": "Explain how penicillin kills bacteria"}, interactive=False, memory=False)
    assert pen["answer"].startswith("Penicillins act on Bacteria in the knowledge graph through: Penicillin-binding"), pen["answer"]
    acid, _ = run_graph({"question": "How do proton pump inhibitors reduce acid?"}, interactive=False, memory=False)
    assert acid["status"] is Status.ANSWERED and "Gastric Acid" in acid["answer"] and "Acetic" not in acid["answer"], acid["answer"]


def test_two_drugs_that_share_every_listed_disease_are_told_so_once(run_graph) -> None:
    """"What do pegloticase and allopurinol treat?" listed the same four diseases twice, each marked "(both)"."""
    out, _ = run_graph({"question": "What do pegloticase and allopurinol treat?"}, interactive=False, memory=False)
    assert all(a["path"]["features"]["class_drugs"] == 2 for a in out["ranked_answers"]), out["ranked_answers"]
    assert out["answer"].startswith("Pegloticase and allopurinol both have a verified mechanism for: "), out["answer"]
    assert "(both)" not in out["answer"] and out["answer"].count("Gout;") == 1, out["answer"]


def test_the_second_one_that_works_after_what_two_drugs_treat_is_the_second_drug(run_graph) -> None:
    """"How does the second one work?" after "What do metformin and glipizide treat?" was asked of the second disease
    listed ("How does Hyperglycemia work?"); "what drugs treat the first one?" is still the first disease."""
    first, out = in_thread(run_graph, "second", "What do metformin and glipizide treat?", "How does the second one work?")
    assert out["understood_as"] == "How does glipizide work?", out["understood_as"]
    told = first["answer"].split("Metformin has a verified mechanism for: ")[1].split(" (both)")[0]
    _, disease = in_thread(run_graph, "first", "What do metformin and glipizide treat?", "What drugs treat the first one?")
    assert disease["understood_as"] == f"What drugs treat {told}?", (told, disease["understood_as"])


@pytest.mark.parametrize(("question", "drug"), [
    ("Why do people take aspirin every day?", "aspirin"),
    ("What is metformin taken daily for?", "metformin"),
    ("What is lisinopril prescribed for?", "lisinopril"),
    ("What happens if you stop taking levothyroxine?", "levothyroxine"),
])
def test_how_a_drug_is_taken_is_not_part_of_its_name(run_graph, question: str, drug: str) -> None:
    """"Why do people take aspirin every day?" read "aspirin every day" as Aspirin, "the closest name", "What is
    metformin taken daily for?" read "metformin taken", and "What happens if you stop taking levothyroxine?" read
    "taking levothyroxine"."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.drug == drug, parsed
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and "closest name" not in out["answer"], out["answer"]


def test_a_statement_of_two_conditions_asks_what_treats_them(run_graph) -> None:
    """"I have high blood pressure and diabetes." told what hypertension is connected to, and "I have gout and
    hypertension." looked for a chain from gout to hypertension (NOT_FOUND); "what drug treats both?" then was NOT_FOUND,
    '"both" is not in the knowledge graph'. The statement now asks what treats the first, offering the second, and
    "both" is both of them, a name that fits several entries ("diabetes") as written."""
    first, both = in_thread(run_graph, "two conditions", "I have high blood pressure and diabetes.", "what drug treats both?")
    assert first["answer"].startswith("Drugs with a verified mechanism for Hypertensive disorder: "), first["answer"]
    assert first["answer"].endswith('You also asked: "What drug treats diabetes?" Ask it next.'), first["answer"]
    assert both["understood_as"] == "What drug treats both Hypertensive disorder and diabetes?", both["understood_as"]
    assert len(both["targets"]) == 2, both["answer"]  # no drug found for each: said so (it listed drugs for one)
    assert both["status"] is Status.ANSWERED or "no drug in the knowledge graph has a verified mechanism for each of " \
        "Hypertensive disorder, Diabetes mellitus" in both["answer"], both["answer"]
    gout, = in_thread(run_graph, "gout and hypertension", "I have gout and hypertension.")
    assert gout["status"] is Status.ANSWERED and gout["intent"] == Intent.TREATS.value, gout["answer"]


@pytest.mark.parametrize(("message", "asked"), [
    ("I have gout and high blood pressure.", "What can I take for gout and high blood pressure?"),
    ("My dad has been diagnosed with asthma and COPD", "What can I take for asthma and COPD?"),
    ("she has gout, asthma and diabetes", "What can I take for gout, asthma and diabetes?"),
    ("I have gout.", ""),
    ("I have a question about aspirin and ibuprofen.", ""),
    ("I have aspirin and ibuprofen at home.", ""),
])
def test_a_statement_of_conditions_is_read_only_when_each_is_a_disease(resources, message: str, asked: str) -> None:
    assert having_conditions(message, resources.linker) == asked


@pytest.mark.parametrize(("question", "disease"), [
    ("Which drug is best for migraine prevention?", "migraine"),
    ("What drugs are used for stroke prevention?", "stroke"),
    ("What is used for malaria prophylaxis?", "malaria"),
])
def test_prevention_after_a_disease_is_not_part_of_its_name(run_graph, question: str, disease: str) -> None:
    """"Which drug is best for migraine prevention?" read "migraine prevention" as Migraine, "the closest name"."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.TREATS and parsed.disease == disease, parsed
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and "closest name" not in out["answer"], out["answer"]


def test_weight_loss_after_how_a_drug_treats_a_disease_is_obesity(run_graph) -> None:
    """"and for weight loss?" after how metformin treats type 2 diabetes was NOT_FOUND ('"weight loss" is not in the
    knowledge graph; did you mean Obesity?'): obesity is linked, and the answer is about the chain to it."""
    _, out = in_thread(run_graph, "weight-loss-followup", "how does metformin treat type 2 diabetes?", "and for weight loss?")
    assert [m["entity"]["name"] for m in out["mentions"] if m["slot"] == "disease"] == ["Obesity"], out["mentions"]
    assert "not in the knowledge graph" not in out["answer"], out["answer"]


@pytest.mark.parametrize("question", ["What drugs for gout were approved in 2020?", "Which gout drugs were approved recently?"])
def test_when_drugs_were_approved_is_said_not_held_and_the_drugs_are_listed(run_graph, question: str) -> None:
    """The first read "gout were approved in 2020" as Gout by a guess, and neither said that the graph holds no
    approvals: the list looked like an answer to when they were approved."""
    out, _ = run_graph({"question": question}, thread=question, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats", out["answer"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not which drugs regulators have "
                                    "approved. What it holds: Drugs with a verified mechanism for Gout: "), out["answer"]


@pytest.mark.parametrize(("question", "disease"), [("Which diabetes drugs are there?", "diabetes"),
                                                   ("which cancer medications exist?", "cancer")])
def test_which_disease_drugs_there_are_asks_what_treats_it(question: str, disease: str) -> None:
    """They were `NOT_FOUND`, "no known entity in the question": no rule read them, and the free-text scan drops a name
    that fits several ("Which gout drugs are there?" was answered, gout being one name)."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.TREATS and parsed.disease == disease


def test_the_drugs_most_prescribed_for_a_disease_are_its_drugs(run_graph) -> None:
    """"which drugs are most prescribed for asthma?" was told what Asthma is connected to: no rule read "most
    prescribed"."""
    out, _ = run_graph({"question": "which drugs are most prescribed for asthma?"}, interactive=False, memory=False)
    assert out["intent"] == "treats" and out["ranked_answers"], out["answer"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not how often drugs are prescribed"), out["answer"]


@pytest.mark.parametrize("then", ["which ones do both treat?", "which diseases do both treat?"])
def test_which_ones_both_treat_after_two_drugs_is_what_they_treat(run_graph, then: str) -> None:
    """"which ones do both treat?" after what amoxicillin and then ciprofloxacin treat was NOT_FOUND ("no known entity in
    the question"): no rule read "which ones do X treat?" (since stop 99)."""
    *_, out = in_thread(run_graph, f"both-ones-{then}", "what does amoxicillin treat?", "what about ciprofloxacin?", then)
    assert out["status"] is Status.ANSWERED and out["intent"] == "indications" and out["compared"], out["answer"]
    assert "Amoxicillin and ciprofloxacin" in out["answer"], out["answer"]


def test_two_named_drugs_and_the_same_target_are_compared_not_asked_about(run_graph) -> None:
    """"Do aspirin and ibuprofen hit the same target?", the first question of a thread, asked what "the same target"
    referred to: the thread had named nothing (since stop 100)."""
    (out,) = in_thread(run_graph, "same-target", "do aspirin and ibuprofen hit the same target?")
    assert out["status"] is Status.ANSWERED, out
    assert out["answer"].startswith("Aspirin and Ibuprofen both act on: Prostaglandin G/H synthase"), out["answer"]


def test_which_ones_a_named_drug_treats_after_a_list_is_what_it_treats(run_graph) -> None:
    """"which ones does allopurinol treat?" after the drugs for gout was "Which of the listed drugs does allopurinol
    treat?", answered with allopurinol's targets: the listed drugs were taken for what allopurinol treats (since stop
    100)."""
    *_, out = in_thread(run_graph, "ones-allopurinol", "what drugs treat gout?", "which ones does allopurinol treat?")
    assert out["status"] is Status.ANSWERED and out["intent"] == "indications", out["answer"]
    assert out["answer"].startswith("allopurinol has a verified mechanism for: "), out["answer"]
    assert "Gout" in out["answer"].split(". ")[0], out["answer"]


@pytest.mark.parametrize("then", ["which one is easier on the stomach?", "which is gentler on the stomach?",
                                  "which is better tolerated?", "which one is better tolerated?"])
def test_which_of_two_drugs_is_easier_on_the_stomach_compares_them(run_graph, then: str) -> None:
    """It was "Which of the listed drugs is easier on the stomach?", answered with what the stomach is connected to
    (since stop 100); "which is better tolerated?" got the note on comparisons of how well drugs work, its "which is
    better" read first (since stop 101)."""
    _first, out = in_thread(run_graph, f"stomach-{then}", "what's the difference between ibuprofen and naproxen?", then)
    assert out["understood_as"] == "Compare Ibuprofen and naproxen", out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not side effects. What it holds: Ibuprofen and naproxen both act on" \
        in out["answer"], out["answer"]


def test_one_drug_easier_on_the_stomach_than_another_compares_the_two(run_graph) -> None:
    """It compared celecoxib, Gastric Acid and ibuprofen, "stomach" read as the acid (since stop 100)."""
    out, _ = run_graph({"question": "is celecoxib easier on the stomach than ibuprofen?"}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not side effects. What it holds: "
                                    "celecoxib and Ibuprofen both act on: Prostaglandin G/H synthase 2."), out["answer"]


def test_why_a_drug_is_not_used_with_the_negation_after_it_gets_the_note(run_graph) -> None:
    """"Why is it not used for hyperuricemia?" after colchicine read "colchicine not" as colchicine by a guess, with no
    note that the graph does not hold why a drug does not work (since stop 100)."""
    _first, out = in_thread(run_graph, "why-is-not", "how does colchicine work in gout?", "why is it not used for hyperuricemia?")
    assert out["understood_as"] == "How does colchicine treat hyperuricemia?", out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not why a drug does not work." in out["answer"], out["answer"]
    assert "Read " not in out["answer"], out["answer"]


@pytest.mark.parametrize(("question", "opens"), [
    ("why does my doctor want me on a statin?", "Statins in the knowledge graph have verified mechanisms for: "),
    ("why did the doctor put my mom on warfarin?", "warfarin has a verified mechanism for: "),
    ("explain how ssri's work", "SSRIs in the knowledge graph act on: "),
])
def test_why_a_doctor_chose_a_drug_and_a_class_written_with_an_apostrophe(run_graph, question: str, opens: str) -> None:
    """The first two were `NOT_FOUND` ('"my", "doctor want me on a statin" are not in the knowledge graph'), the last
    said '"ssri's" is not in the knowledge graph' (since stop 101)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"].startswith(opens), out["answer"]


@pytest.mark.parametrize(("first", "then", "understood", "opens"), [
    ("what's omeprazole", "what condition is it for?", "What condition is Omeprazole for?", "Omeprazole has a verified mechanism for: "),
    ("what's omeprazole", "what disease is it usually given for?", "What disease is Omeprazole usually given for?",
     "Omeprazole has a verified mechanism for: "),
    ("what do statins target?", "which illnesses are they used for?", "Which illnesses are statins used for?",
     "Statins in the knowledge graph have verified mechanisms for: "),
])
def test_which_condition_a_drug_is_for(run_graph, first: str, then: str, understood: str, opens: str) -> None:
    """"What condition is it for?" read "condition" as Cardiac conduction abnormality; "which illnesses are statins used
    for?" was NOT_FOUND, '"statins used for" is not in the knowledge graph' (since stop 102)."""
    _first, out = in_thread(run_graph, f"for-{then}", first, then)
    assert out["intent"] == "indications", out["answer"]
    assert out["answer"].startswith(f"Understood as: \"{understood}\" {opens}"), out["answer"]


@pytest.mark.parametrize("question", ["which illnesses are statins used for?", "what conditions are beta blockers for?"])
def test_which_illnesses_a_class_is_for(run_graph, question: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "indications" and out["drug_class"], out["answer"]


def test_any_of_them_for_a_disease_asks_which_listed_drugs_treat_it(run_graph) -> None:
    """"Any of them for diabetes?" after a list of drugs was refused: 'medpath knows no drug class named "of them for
    diabetes"'; after one medication the answer said "none of the 1 listed drugs" (since stop 102)."""
    _first, out = in_thread(run_graph, "any-for", "name some statins", "any of them for heart attacks?")
    assert out["understood_as"] == "Which of the listed drugs treat heart attacks?", out["answer"]
    assert out["drug_class"] == "listed drugs" and len(out["among"]) >= 2, out["answer"]
    _first, one = in_thread(run_graph, "any-for-one", "What is PAT_001 taking?", "any of them for diabetes?")
    assert one["understood_as"] == "Which of the listed drugs treat diabetes?", one["answer"]
    assert len(one["among"]) == 1 and "none of the 1" not in one["answer"], one["answer"]
    assert "the one listed drug, Vitamin E, has no verified mechanism for Diabetes mellitus" in one["answer"], one["answer"]


def test_which_one_is_least_likely_to_after_a_side_effect_gets_the_side_effects_note(run_graph) -> None:
    """It got the note on comparisons of how well drugs work (since stop 102)."""
    _first, out = in_thread(run_graph, "least-likely", "do statins cause muscle pain?", "which one is least likely to?")
    assert "not side effects" in out["answer"] and "not comparisons" not in out["answer"], out["answer"]


@pytest.mark.parametrize(("first", "then"), [("do antihistamines cause drowsiness?", "which ones don't?"),
                                             ("do statins cause muscle pain?", "which ones do?")])
def test_which_ones_do_after_a_side_effect_gets_the_side_effects_note(run_graph, first: str, then: str) -> None:
    """It told the class's targets with no word on side effects (since stop 105)."""
    _first, out = in_thread(run_graph, f"which-do-{first}", first, then)
    assert out["status"] is Status.ANSWERED and "The knowledge graph holds curated drug mechanisms, not side effects." in out["answer"], \
        out["answer"]


def test_is_it_safe_after_a_list_of_drugs_asks_of_a_drug(run_graph) -> None:
    """"Is it safe long term?" after the drugs for arthritis was "Is Arthritis safe long term?" (since stop 102)."""
    listed, out = in_thread(run_graph, "safe-after-list", "what drugs treat arthritis?", "is it safe long term?")
    first = listed["ranked_answers"][0]["name"]
    assert out["understood_as"] == f"Is {first} safe long term?", out["answer"]
    assert "not safety" in out["answer"], out["answer"]


def test_how_long_a_drug_lasts_gets_the_note_on_pharmacokinetics(run_graph) -> None:
    """"And how long does it last?" after aspirin was told what aspirin is connected to, with no note; how long a
    disease's symptoms last is no question about a drug (since stop 102)."""
    _first, out = in_thread(run_graph, "lasts", "How does aspirin prevent heart attacks?", "and how long does it last?")
    assert "The knowledge graph holds curated drug mechanisms, not pharmacokinetics." in out["answer"], out["answer"]
    flu, _ = run_graph({"question": "how long do symptoms of flu last?"}, interactive=False, memory=False)
    assert "pharmacokinetics" not in flu["answer"], flu["answer"]


def test_which_ones_don_t_after_a_disease_s_drugs_asks_which_do_not_treat_it(run_graph) -> None:
    """It was NOT_FOUND, "no known entity in the question" (since stop 105)."""
    _first, out = in_thread(run_graph, "which-dont-gout", "which drugs treat gout?", "which ones don't?")
    assert out["status"] is Status.ANSWERED and out["understood_as"] == "Which drugs don't treat Gout?", out["answer"]
    assert "not which drugs do not treat a disease" in out["answer"], out["answer"]


@pytest.mark.parametrize(("first", "then", "understood"), [
    ("compare ibuprofen and naproxen", "and in children?", "Compare Ibuprofen and naproxen in children?"),
    ("what drugs are used for epilepsy?", "which is safest?", ""),  # the comparison "which is safest?" was read as
])
def test_a_population_after_a_comparison_compares_the_drugs_again(run_graph, first: str, then: str, understood: str) -> None:
    """"and in children?" after a comparison was asked of the first drug alone ("What does Ibuprofen target in
    children?"; since stop 105)."""
    outs = in_thread(run_graph, f"compared-in-{first}", first, then, *(["and in pregnancy?"] if "safest" in then else []))
    out, understood = outs[-1], understood or outs[1]["understood_as"] + " in pregnancy?"
    assert understood.startswith("Compare ") and out["status"] is Status.ANSWERED and out["understood_as"] == understood, out["answer"]
    assert "DrugMechDB does not distinguish" in out["answer"] and len(out["among"]) >= 2, out["answer"]


WHEN = "The knowledge graph holds curated drug mechanisms, not when to take a drug (on an empty stomach, before or after meals, at what time of day)."


@pytest.mark.parametrize("turns", [("Should I take levothyroxine on an empty stomach?",),
                                   ("how does levothyroxine work?", "should I take it on an empty stomach?"),
                                   ("is it better to take atorvastatin at night?",),
                                   ("what time of day should I take lisinopril?",)])
def test_when_to_take_a_drug_gets_its_own_note(run_graph, turns: tuple[str, ...]) -> None:
    """The first was NOT_FOUND, a chain looked for from levothyroxine to the stomach, after the note on advice on which drug
    to take; the others had that note, or none (since stop 105)."""
    out = in_thread(run_graph, f"when-{turns[-1]}", *turns)[-1]
    assert out["status"] is Status.ANSWERED and WHEN + " What it holds: " in out["answer"], out["answer"]
    assert "stomach" not in {(m.get("entity") or {}).get("name", "").casefold() for m in out["mentions"]}, out["mentions"]
