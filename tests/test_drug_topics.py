"""Questions about a drug on something the graph does not hold, whose words were read as a name: "is clopidogrel
reversible?" linked Reversible airflow obstruction, "what are the symptoms of digoxin toxicity?" linked the drug as
the disease whose signs were asked for, "what are the risks of long term prednisone use?" was read as a disease's
complications, and "is lithium toxicity dangerous?" found no known entity. Each now says what the graph lacks and
then what it holds on the drug."""

from __future__ import annotations

import pytest

from agents.intent import SLOT_TYPES, parse_question
from agents.scope import PROGNOSES, SAFETY, out_of_scope
from agents.state import Intent, Status
from tests.conftest import in_thread
from tools.linker import LinkStatus

BINDING = "how drugs bind (reversibly or not, how tightly)"
NOTE = "The knowledge graph holds curated drug mechanisms, not "


@pytest.mark.parametrize(("question", "topic"), [
    ("is clopidogrel reversible?", BINDING),
    ("is it reversible?", BINDING),
    ("is omeprazole an irreversible inhibitor?", BINDING),
    ("does aspirin bind irreversibly to COX-1?", BINDING),
    ("does it bind covalently?", BINDING),
    ("what is its binding affinity for ABL1?", BINDING),
    ("what are the symptoms of digoxin toxicity?", "overdoses"),
    ("what are the signs and symptoms of lithium toxicity?", "overdoses"),
    ("what are the risks of long term prednisone use?", SAFETY),
    ("what are the risks of long-term use?", SAFETY),
    # guards: names and a disease's course stay as they were
    ("what drugs treat reversible airflow obstruction?", ""),
    ("what are the symptoms of gout?", PROGNOSES),
    ("what are the signs and symptoms of gout?", PROGNOSES),
    ("what are the complications of diabetes?", PROGNOSES),
    ("what are the risks of taking aspirin?", SAFETY),
])
def test_the_topic_of_a_drug_question(question: str, topic: str) -> None:
    assert out_of_scope(question) == topic


def test_too_much_of_a_drug_or_its_long_use_is_no_disease_s_signs_or_course() -> None:
    assert parse_question("what are the symptoms of digoxin toxicity?") is None
    assert parse_question("what are the risks of long term prednisone use?") is None
    assert parse_question("what are the symptoms of gout?").intent is Intent.SIGNS  # guard
    signs = parse_question("what are the symptoms of methanol poisoning?")  # a disease of the graph
    assert signs is not None and signs.intent is Intent.SIGNS and signs.disease == "methanol poisoning"
    bound = parse_question("does aspirin bind irreversibly to COX-1?")
    assert bound is not None and (bound.drug, bound.disease) == ("aspirin", "COX-1"), bound


@pytest.mark.parametrize(("question", "drug"), [
    ("is clopidogrel reversible?", "Clopidogrel"),
    ("what are the symptoms of digoxin toxicity?", "digoxin"),
    ("what are the risks of long term prednisone use?", "prednisone"),
    ("is lithium toxicity dangerous?", "Lithium carbonate"),
])
def test_the_note_then_what_the_graph_holds_on_the_drug(run_graph, question: str, drug: str) -> None:
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert out["answer"].startswith(f"{NOTE}{out_of_scope(question)}. What it holds: {drug} "), out["answer"]


def test_how_a_drug_binds_its_target_is_answered_for_the_target(run_graph) -> None:
    """"does aspirin bind irreversibly to COX-1?" read "irreversibly to COX-1" as the target's name, by a guess."""
    out, _ = run_graph({"question": "does aspirin bind irreversibly to COX-1?"}, interactive=False, memory=False)
    assert out["answer"].startswith(f"{NOTE}{BINDING}. What it holds: Aspirin acts on Prostaglandin G/H synthase 1"), \
        out["answer"]


@pytest.mark.parametrize(("name", "generic"), [
    ("Keflex", "cefalexin"), ("Celebrex", "celecoxib"), ("Voltaren", "Diclofenac"), ("Mobic", "Meloxicam"),
    ("Procardia", "Nifedipine"), ("Nitrostat", "glyceryl trinitrate"), ("Imuran", "Azathioprine"),
    ("Brilinta", "Ticagrelor"), ("Lovenox", "Enoxaparin"), ("Humalog", "insulin lispro"), ("Valtrex", "valaciclovir"),
    ("Flexeril", "cyclobenzaprine"), ("Sudafed", "Pseudoephedrine"), ("Antivert", "meclozine"),
    ("lithium", "Lithium carbonate"), ("valacyclovir", "valaciclovir"), ("meclizine", "meclozine"),
])
def test_common_brands_and_plain_names_link_to_their_drug(resources, name: str, generic: str) -> None:
    """They were unknown, or read by a guess as something else (Keflex as reflex, Flexeril as Shigella flexneri,
    Celebrex asked between celecoxib and two cephalosporins, lithium by its letters)."""
    out = resources.linker.link(name, SLOT_TYPES["drug"])
    assert out.status is LinkStatus.LINKED and out.best is not None and out.best.name == generic, out
    assert out.best.method == "exact", out


@pytest.mark.parametrize(("slot", "name", "entity"), [
    ("disease", "OA", "Osteoarthritis"),  # opioid addiction, by its initials
    ("disease", "high BP", "Hypertensive disorder"),  # Bordetella pertussis, by a word
    ("disease", "vitamin B12 deficiency", "Cobalamin deficiency"),  # the drug cyanocobalamin, by a word
    ("disease", "HF", "Congestive heart failure"), ("disease", "HCC", "Hepatocellular Carcinoma"),
    ("disease", "PAD", "Peripheral vascular disease"), ("disease", "HCV", "Chronic hepatitis C"),
    ("disease", "ED", "Impotence"), ("disease", "GAD", "Anxiety disorder"),
    ("drug", "ASA", "Aspirin"), ("drug", "vit D", "Colecalciferol"), ("drug", "vit B12", "cyanocobalamin"),
])
def test_everyday_abbreviations_link_to_what_they_mean(resources, slot: str, name: str, entity: str) -> None:
    out = resources.linker.link(name, SLOT_TYPES[slot])
    assert out.status is LinkStatus.LINKED and out.best is not None and out.best.name == entity, out


@pytest.mark.parametrize(("then", "understood"), [
    ("for how long can you take it?", "For how long can you take Omeprazole?"),
    ("and for how long?", "How long for Omeprazole?"),
    ("for how long?", "How long for Omeprazole?"),
])
def test_how_long_after_a_drug_is_its_dosing(run_graph, then: str, understood: str) -> None:
    """"For how long can you take it?" after how omeprazole works was read as an ellipsis, "How long can you take it of
    Omeprazole?", and "and for how long?" as "How does Omeprazole act on how long?" (NOT_FOUND). The first is asked as
    written with the drug for "it", and both say the graph holds no dosing, then what it holds on the drug."""
    _first, out = in_thread(run_graph, f"how-long-{then}", "how does omeprazole work?", then)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    assert f"{NOTE}dosing" in out["answer"], out["answer"]
    assert out_of_scope("how long does it take to work?") != "dosing"  # how soon it acts is another topic


@pytest.mark.parametrize(("then", "understood"), [
    ("how often?", "How often should Metformin be taken?"),
    ("and how many times a day?", "How many times a day should Metformin be taken?"),
])
def test_how_often_after_a_drug_is_its_dosing(run_graph, then: str, understood: str) -> None:
    """"How often?" after "what dose of metformin should I take?" was NOT_FOUND ("no known entity in the question"),
    and "how many times a day?" was asked as "How many times a day of Metformin?". Both are asked of the drug, with the
    note that the graph holds no dosing; after a patient's lab, "how often?" is not made a question about a drug."""
    _first, out = in_thread(run_graph, f"how-often-{then}", "what dose of metformin should I take?", then)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    assert f"{NOTE}dosing" in out["answer"], out["answer"]
    _lab, after_lab = in_thread(run_graph, f"how-often-lab-{then}", "what was PAT_001's last HbA1c?", "how often?")
    assert "dosing" not in after_lab["answer"] and "should" not in (after_lab.get("understood_as") or ""), after_lab


@pytest.mark.parametrize(("question", "understood", "topic"), [
    ("how does alcohol affect metformin?", "Does metformin interact with alcohol?", "drug interactions"),
    ("can grapefruit juice interfere with atorvastatin?", "Does atorvastatin interact with grapefruit juice?", "drug interactions"),
    ("does coffee affect gout?", "Is coffee bad for gout?", "what to eat or avoid"),
])
def test_food_named_before_a_drug_or_a_disease_is_asked_after_it(run_graph, question: str, understood: str, topic: str) -> None:
    """"How does alcohol affect metformin?" linked "alcohol" to Benzyl alcohol and looked for a chain from it to
    metformin (NOT_FOUND)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    assert f"{NOTE}{topic}. What it holds: " in out["answer"] and "Benzyl" not in out["answer"], out["answer"]


@pytest.mark.parametrize("turns", [("how does aspirin affect warfarin?",), ("does vitamin K affect warfarin?",),
                                   ("tell me about warfarin", "how does vitamin K affect it?")])
def test_a_drug_named_before_another_drug_is_asked_whether_they_interact(run_graph, turns: tuple[str, ...]) -> None:
    """"How does aspirin affect warfarin?" looked for a chain from aspirin to warfarin (NOT_FOUND); "how does vitamin K
    affect it?" after warfarin asked how vitamin K affects warfarin's one target (NOT_FOUND). Both ask whether the
    two interact: the note, then what each acts on."""
    out = in_thread(run_graph, f"drug-on-drug-{'-'.join(turns)}", *turns)[-1]
    other = "vitamin K" if "vitamin" in turns[-1] else "aspirin"
    assert out["understood_as"] == f"Does warfarin interact with {other}?", out["answer"]
    assert out["status"] is Status.ANSWERED and out["compared"], out["answer"]
    assert f"{NOTE}drug interactions. What it holds: " in out["answer"], out["answer"]


@pytest.mark.parametrize(("turns", "understood"), [
    (("how does levodopa affect dopamine?",), ""),  # a drug on a chemical of the body: how it acts
    (("what does warfarin target?", "how does vitamin K affect it?"),  # "it" may be the target just named
     "How does vitamin K affect Vitamin K epoxide reductase complex subunit 1?"),
])
def test_a_drug_on_a_chemical_or_on_a_target_just_named_is_no_interaction(run_graph, turns: tuple[str, ...],
                                                                          understood: str) -> None:
    out = in_thread(run_graph, f"drug-on-chem-{'-'.join(turns)}", *turns)[-1]
    assert out.get("understood_as", "") == understood, out["answer"]


def test_whether_a_food_is_bad_for_a_disease_says_diets_are_not_held() -> None:
    """"Is alcohol bad for gout?" listed gout's drugs with no word on it."""
    assert out_of_scope("is alcohol bad for gout?") == out_of_scope("is coffee good for diabetes?") == "what to eat or avoid"


@pytest.mark.parametrize(("question", "drug"), [("Does lisinopril have other uses?", "lisinopril"),
                                                ("does metformin have any other uses?", "Metformin"),
                                                ("what is aspirin mostly used for?", "Aspirin")])
def test_what_a_drug_is_used_for_with_words_around_it_links_the_drug_alone(run_graph, question: str, drug: str) -> None:
    """They were answered with 'Read "Does lisinopril have other" as lisinopril: the closest name …'."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["intent"] == "indications" and out["answer"].startswith(f"{drug} has a verified mechanism for: "), out["answer"]


@pytest.mark.parametrize("turns", [("What is metformin used for?", "Is that the main use?"),
                                   ("how does metformin treat type 2 diabetes?", "is that its main use?"),
                                   ("What is metformin used for?", "which is the main one?"),
                                   ("What is metformin?", "what is it mostly used for?"),
                                   ("how does metformin treat type 2 diabetes?", "what is it best for?")])
def test_whether_a_use_is_the_main_one_says_how_often_is_not_held(run_graph, turns: tuple[str, ...]) -> None:
    """"Is that the main use?" after metformin's uses was NOT_FOUND ("no known entity in the question"). It is asked as
    the main use of the drug: the note that the graph does not hold how often drugs are used for what, then its uses.
    "What is the main one?" after a drug's targets is not read so."""
    out = in_thread(run_graph, f"main-use-{'-'.join(turns)}", *turns)[-1]
    assert out["understood_as"] == "What is the main use of Metformin?", out["answer"]
    assert f"{NOTE}how often drugs are prescribed or things occur. What it holds: Metformin has a verified mechanism" \
        in out["answer"], out["answer"]
    targets = in_thread(run_graph, "main-one-targets", "What does metformin target?", "what is the main one?")[-1]
    assert "main use" not in targets.get("understood_as", ""), targets["answer"]


@pytest.mark.parametrize(("first", "then", "understood", "end"), [
    ("How does levodopa treat Parkinson's?", "what happens to dopamine?", "How does levodopa affect dopamine?", "Dopamine"),
    ("how does allopurinol work?", "what happens to uric acid then?", "How does allopurinol affect uric acid?", "Uric Acid"),
])
def test_what_happens_to_a_chemical_after_a_drug_is_how_the_drug_affects_it(run_graph, first: str, then: str,
                                                                            understood: str, end: str) -> None:
    """"What happens to dopamine?" after how levodopa treats Parkinson's disease told what dopamine is connected to,
    levodopa left out; it is how the thread's drug affects it, a chain from the drug to it."""
    _, out = in_thread(run_graph, f"happens-{then}", first, then)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    assert out["evidence"][0]["head"] == out["sources"][0] and out["evidence"][-1]["tail_name"] == end, out["evidence"]


@pytest.mark.parametrize(("then", "understood"), [("is it working?", "Is Metformin working?"), ("does it work?", "Does Metformin work?")])
def test_whether_a_drug_works_after_how_it_works_says_how_well_is_not_held(run_graph, then: str, understood: str) -> None:
    """"Is it working?" and "does it work?" after how metformin works told what metformin is connected to, with no word
    that the graph does not hold how well drugs work; they are read as "Is metformin effective?" is. After a turn about
    a disease, "does it work?" still asks whether the drug treats it (``tests/test_do_that_followups.py``)."""
    _, out = in_thread(run_graph, f"working-{then}", "how does metformin work?", then)
    assert out["understood_as"] == understood and out["intent"] == "indications", out["answer"]
    assert f"{NOTE}how well drugs work. What it holds: Metformin has a verified mechanism for: " in out["answer"], out["answer"]


@pytest.mark.parametrize("turns", [("What are signs of toxicity of digoxin?",), ("What does digoxin do?", "what are signs of toxicity?")])
def test_signs_of_toxicity_of_a_drug_are_its_overdose(run_graph, turns: tuple[str, ...]) -> None:
    """"What are signs of toxicity of digoxin?" and, after digoxin, "what are signs of toxicity?" were read as the
    signs of a disease named "toxicity of digoxin" (NOT_FOUND); they are asked as "What are the symptoms of digoxin
    toxicity?" is: overdoses are not held, then what digoxin is connected to."""
    out = in_thread(run_graph, f"toxicity-{turns[-1]}", *turns)[-1]
    assert out["understood_as"] == "What are the symptoms of digoxin toxicity?" and out["status"] is Status.ANSWERED, out["answer"]
    assert f"{NOTE}overdoses. What it holds: digoxin is connected to: " in out["answer"], out["answer"]
