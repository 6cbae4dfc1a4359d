""""What are alternatives to ibuprofen?", "What can I use instead of aspirin?": other drugs that act on what the drug
acts on, the same way, the drug left out. They were answered with what the drug is connected to."""

from __future__ import annotations

import pytest
from conftest import in_thread

from agents.alternatives import alternatives_to
from agents.resolution import Resolution
from agents.state import DRUG_TYPES, Status
from tools.answers import acting_on


@pytest.mark.parametrize(("question", "asked"), [
    ("What are alternatives to ibuprofen?", "Which other drugs inhibit Prostaglandin G/H synthase 2?"),
    ("What can I use instead of aspirin?", "Which other drugs inhibit Prostaglandin G/H synthase 2?"),
    # the target the most statins act on, not the lipoprotein lipase atorvastatin also raises
    ("which drugs work like atorvastatin?", "Which other drugs inhibit 3-hydroxy-3-methylglutaryl-coenzyme A reductase?"),
    ("alternatives for warfarin", "Which other drugs inhibit Vitamin K epoxide reductase complex subunit 1?"),
    ("Is there a substitute for warfarin?", "Which other drugs inhibit Vitamin K epoxide reductase complex subunit 1?"),
    ("drugs similar to omeprazole", "Which other drugs inhibit Potassium-transporting ATPase alpha chain 1?"),
    ("which drugs act on the same target as clopidogrel?", "Which other drugs inhibit P2Y purinoceptor 12?"),
    ("drugs with the same target as warfarin", "Which other drugs inhibit Vitamin K epoxide reductase complex subunit 1?"),
    # these were answered with what the drug is connected to
    ("What else works like omeprazole?", "Which other drugs inhibit Potassium-transporting ATPase alpha chain 1?"),
    ("what is similar to aspirin?", "Which other drugs inhibit Prostaglandin G/H synthase 2?"),
    ("anything like ibuprofen?", "Which other drugs inhibit Prostaglandin G/H synthase 2?"),
    ("is there something similar to warfarin?", "Which other drugs inhibit Vitamin K epoxide reductase complex subunit 1?"),
    ("are there others like omeprazole?", "Which other drugs inhibit Potassium-transporting ATPase alpha chain 1?"),
])
def test_an_alternative_acts_on_the_drug_s_target_the_same_way(resources, question: str, asked: str) -> None:
    out = alternatives_to(resources, Resolution(question=question))
    assert out.question == asked
    drug = out.references[-1]["drug"]
    assert out.excluded == [drug] and out.references[-1]["how"] == "alternatives"
    assert drug in acting_on(resources.kg, out.references[-1]["entity"]["id"], ("Drug",))


@pytest.mark.parametrize(("question", "asked", "drug"), [
    ("What else could I take instead of lisinopril for high blood pressure?", "high blood pressure", "lisinopril"),
    ("alternatives to ibuprofen for pain", "pain", "ibuprofen"),
    ("other than metformin, what treats type 2 diabetes?", "type 2 diabetes", "metformin"),
    ("what can replace allopurinol in gout?", "gout", "allopurinol"),
    ("What's another option besides sertraline for depression?", "depression", "sertraline"),
])
def test_an_alternative_for_a_named_disease_is_another_drug_for_it(resources, question: str, asked: str, drug: str) -> None:
    """They were answered with the drug's own mechanism, or, for "ibuprofen for pain", with the other drugs that act
    on its target, whatever they treat."""
    out = alternatives_to(resources, Resolution(question=question))
    assert out.question == f"Which other drugs treat {asked}?"
    assert out.references[-1]["for"] == asked and out.references[-1]["drug_name"].casefold() == drug
    assert out.excluded == [out.references[-1]["drug"]]


def test_an_alternative_shares_an_effect_another_drug_has(resources) -> None:
    """Metformin's first target, ETF-QO, is acted on by metformin alone: "Which other drugs inhibit Electron transfer
    flavoprotein-ubiquinone oxidoreductase?" had no answer, and said every answer had been named in the thread."""
    for question in ("What are alternatives to metformin?", "What are alternatives to ibuprofen?"):
        out = alternatives_to(resources, Resolution(question=question))
        drug, entity = out.references[-1]["drug"], out.references[-1]["entity"]["id"]
        assert set(acting_on(resources.kg, entity, DRUG_TYPES)) - {drug}, (question, out.question)


def test_an_alternative_for_a_disease_is_answered_without_the_drug(run_graph) -> None:
    out, _ = run_graph({"question": "What else could I take instead of lisinopril for high blood pressure?"},
                       interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats", out["answer"]
    assert "Other drugs for high blood pressure, lisinopril left out." in out["answer"]
    assert out["ranked_answers"] and "lisinopril" not in [a["name"] for a in out["ranked_answers"]]


@pytest.mark.parametrize("question", ["What can I take instead of gout?", "What are alternatives to zorblaxin?",
                                      "What are the alternatives?", "How does ibuprofen treat pain?"])
def test_other_questions_are_read_as_before(resources, question: str) -> None:
    assert alternatives_to(resources, Resolution(question=question)).question == question


def test_alternatives_are_answered_without_the_drug(run_graph) -> None:
    out, _ = run_graph({"question": "What are alternatives to ibuprofen?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targeted_by", out["answer"]
    assert "Alternatives by mechanism, Ibuprofen left out." in out["answer"]
    assert "Ibuprofen" not in [a["name"] for a in out["ranked_answers"]] and len(out["ranked_answers"]) == 5


def test_alternatives_to_the_thread_s_drug(run_graph) -> None:
    run_graph({"question": "How does warfarin work?"}, thread="alt", interactive=False, memory=False)
    out, _ = run_graph({"question": "what are the alternatives to it?"}, thread="alt", interactive=False, memory=False)
    assert out["understood_as"] == "Which other drugs inhibit Vitamin K epoxide reductase complex subunit 1?", out["answer"]
    assert "warfarin" not in [a["name"] for a in out["ranked_answers"]]


@pytest.mark.parametrize("question", ["what else works like it?", "are there others like it?", "anything similar?",
                                      "any similar drugs?"])
def test_drugs_like_the_thread_s_drug(run_graph, question: str) -> None:
    """"what else works like it?" after omeprazole was NOT_FOUND ("every answer found … has already been named"),
    "are there others like it?" was told what omeprazole is connected to, and "anything similar?" was NOT_FOUND ("no
    known entity in the question")."""
    _, out = in_thread(run_graph, f"like-it-{question}", "how does omeprazole work?", question)
    assert out["understood_as"] == "Which other drugs inhibit Potassium-transporting ATPase alpha chain 1?", out["answer"]
    names = [a["name"] for a in out["ranked_answers"]]
    assert out["status"] is Status.ANSWERED and "Omeprazole" not in names and "Pantoprazole" in names, out["answer"]


@pytest.mark.parametrize("question", ["Is there a similar drug?", "are there similar medications?"])
def test_a_similar_drug_after_a_mechanism_acts_on_the_drug_s_target(run_graph, question: str) -> None:
    """After how lisinopril treats hypertension, "Is there a similar drug?" was NOT_FOUND ("no known entity in the
    question")."""
    _, out = in_thread(run_graph, f"similar-{question}", "How does lisinopril treat hypertension?", question)
    assert out["understood_as"] == "Which other drugs inhibit Angiotensin-converting enzyme?", out["answer"]
    names = [a["name"] for a in out["ranked_answers"]]
    assert out["status"] is Status.ANSWERED and names and "lisinopril" not in names, out["answer"]


def test_a_similar_drug_after_a_list_is_more_of_it(run_graph) -> None:
    """It was NOT_FOUND ("no known entity in the question")."""
    first, out = in_thread(run_graph, "similar-list", "What drugs treat asthma?", "is there a similar drug?")
    assert out["status"] is Status.ANSWERED and out["understood_as"] == "What drugs treat asthma?", out["answer"]
    listed = {a["name"] for a in first["ranked_answers"]}
    assert listed and not listed & {a["name"] for a in out["ranked_answers"]}, out["answer"]


def test_the_alternatives_after_a_mechanism_are_other_drugs_for_its_disease(run_graph) -> None:
    """It was NOT_FOUND ("no known entity in the question")."""
    run_graph({"question": "How does colchicine treat gout?"}, thread="alt2", interactive=False, memory=False)
    out, _ = run_graph({"question": "what are the alternatives?"}, thread="alt2", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == "Which other drugs treat Gout?", out["answer"]
    assert "colchicine" not in [a["name"] for a in out["ranked_answers"]]


def test_an_ordinal_after_a_patient_s_conditions_picks_a_condition(run_graph) -> None:
    """"what drugs treat the first one?" after "What conditions does PAT_003 have?" was NOT_FOUND: the answer recorded
    no list to pick from."""
    first, _ = run_graph({"question": "What conditions does PAT_003 have?"}, thread="pc", interactive=False, memory=False)
    condition = first["answer"].split("conditions: ")[1].split(",")[0]
    out, _ = run_graph({"question": "what drugs treat the first one?"}, thread="pc", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == f"What drugs treat {condition}?", out["answer"]


@pytest.mark.parametrize("question", ["is there a substitute?", "what else could I take instead?",
                                      "what could I use instead of it?", "what else can I take?"])
def test_a_substitute_asked_for_alone_is_another_drug_for_the_thread_s_disease(run_graph, question: str) -> None:
    """They were NOT_FOUND ("no known entity in the question"), or read "what else could I take" as a disease."""
    _, out = in_thread(run_graph, f"sub-{question}", "How does allopurinol treat gout?", question)
    assert out["status"] is Status.ANSWERED and out["understood_as"] == "Which other drugs treat Gout?", out["answer"]
    assert out["ranked_answers"] and "allopurinol" not in [a["name"] for a in out["ranked_answers"]]


def test_what_can_i_take_in_a_thread_about_a_disease_asks_what_treats_it(run_graph) -> None:
    _, out = in_thread(run_graph, "take", "How does allopurinol treat gout?", "what can I take?")
    assert out["status"] is Status.ANSWERED and out["understood_as"] == "What drug treats Gout?", out["answer"]


def test_the_same_target_as_a_named_drug_is_no_reference_to_the_thread(run_graph) -> None:
    """"which drugs act on the same target as imatinib?" opening a thread asked what "the same target" referred to
    (and, with no one to ask, was NOT_FOUND)."""
    out, _ = run_graph({"question": "which drugs act on the same target as imatinib?"}, thread="same-as",
                       interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targeted_by", out["answer"]
    assert out["understood_as"].startswith("Which other drugs inhibit ") and "imatinib" not in [
        a["name"] for a in out["ranked_answers"]], out["answer"]


def test_other_drugs_with_the_same_target_act_on_it(run_graph) -> None:
    """"Are there other drugs with the same target as imatinib?" told what imatinib is connected to; after its targets,
    "Which other drugs have the same target?" and "which drugs share that target?" asked what ABL1 "has" or "shares"
    and told what it is connected to."""
    out, _ = run_graph({"question": "Are there other drugs with the same target as imatinib?"}, interactive=False,
                       memory=False)
    assert out["intent"] == "targeted_by" and out["understood_as"].startswith("Which other drugs inhibit "), out["answer"]
    for q in ("Which other drugs have the same target?", "which drugs share that target?"):
        _, then = in_thread(run_graph, f"same-{q}", "What is the target of imatinib?", q)
        assert then["intent"] == "targeted_by" and then["status"] is Status.ANSWERED, then["answer"]
        assert then["understood_as"].endswith("drugs act on Tyrosine-protein kinase ABL1?"), then["understood_as"]


@pytest.mark.parametrize("question", ["is there something that works differently?", "what else works differently?",
                                      "any other drugs that work in a different way?",
                                      "is there a drug that acts through a different mechanism?"])
def test_a_drug_that_works_differently_acts_on_another_first_target(run_graph, resources, question: str) -> None:
    """They were NOT_FOUND, "no known entity in the question": after how allopurinol treats gout, the drugs for gout
    that do not act on xanthine oxidase."""
    first, out = in_thread(run_graph, f"differently-{question}", "how does allopurinol treat gout?", question)
    target = first["evidence"][0]["tail"]
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats", out["answer"]
    assert out["understood_as"] == "Which drugs treat Gout?" and f"act on {first['evidence'][0]['tail_name']}" in out["answer"]
    assert out["ranked_answers"] and first["sources"][0] not in {a["id"] for a in out["ranked_answers"]}
    acting = set(acting_on(resources.kg, target, DRUG_TYPES, 0))
    assert not acting & {a["id"] for a in out["ranked_answers"]}, out["answer"]


@pytest.mark.parametrize(("first", "question", "understood"), [
    ("How does donepezil treat Alzheimer's?", "what else is used?", "Which other drugs treat Alzheimer's disease?"),
    ("How does allopurinol treat gout?", "what else is there?", "Which other drugs treat Gout?"),
    ("How does omeprazole work?", "what else works?",
     "Which other drugs inhibit Potassium-transporting ATPase alpha chain 1?"),
])
def test_what_else_is_used_asks_for_the_other_drugs(run_graph, first: str, question: str, understood: str) -> None:
    """"what else is used?" after how donepezil treats Alzheimer's disease was NOT_FOUND, "no known entity in the
    question"."""
    before, out = in_thread(run_graph, f"else-{question}", first, question)
    assert out["understood_as"] == understood and out["status"] is Status.ANSWERED, out["answer"]
    assert before["sources"][0] not in [d["id"] for d in out["ranked_answers"]], out["answer"]


def test_anything_better_for_a_disease_lists_its_drugs(run_graph) -> None:
    """"is there a better option?" after "why is she on thalidomide?" (for Peptic ulcer) is "Is there anything better for
    Peptic ulcer?", which no rule parsed: it was told what Peptic ulcer is connected to."""
    out, _ = run_graph({"question": "is there anything better for peptic ulcer?"}, interactive=False, memory=False)
    assert out["intent"] == "treats" and out["status"] is Status.ANSWERED and out["ranked_answers"], out["answer"]
    assert "not comparisons of how well drugs work" in out["answer"], out["answer"]
    *_, better = in_thread(run_graph, "better-ulcer", "what is PAT_002 taking?", "why is she on thalidomide?", "is there a better option?")
    assert better["understood_as"] == "Is there anything better for Peptic ulcer?", better["answer"]
    assert better["ranked_answers"] and "thalidomide" not in [a["name"] for a in better["ranked_answers"]], better["answer"]


@pytest.mark.parametrize(("first", "question", "understood", "topic"), [
    ("How does aspirin prevent strokes?", "what's a safer alternative?", "Which other drugs treat Cerebrovascular accident?",
     "safety"),
    ("what drugs treat gout?", "any cheaper options?", "What drugs treat gout?", "prices"),
    ("what is omeprazole?", "is there a gentler alternative?",
     "Which other drugs inhibit Potassium-transporting ATPase alpha chain 1?", "side effects"),
    ("what is omeprazole?", "is there a better alternative?",
     "Which other drugs inhibit Potassium-transporting ATPase alpha chain 1?", "comparisons of how well drugs work"),
    ("", "what's a safer alternative to aspirin?", "Which other drugs inhibit Prostaglandin G/H synthase 2?", "safety"),
    ("", "is there a cheaper alternative to imatinib for CML?", "Which other drugs treat CML?", "prices"),
])
def test_an_alternative_better_in_a_way_the_graph_lacks_is_told_after_the_note(run_graph, first: str, question: str,
                                                                                understood: str, topic: str) -> None:
    """"what's a safer alternative?" after how aspirin prevents strokes was asked of aspirin, and told what it is
    connected to; "any cheaper options?" after a list was `NOT_FOUND`; "what's a safer alternative to aspirin?" was
    told aspirin's connections. Each is now the alternatives or more of the list, after the note on what the graph
    does not hold."""
    *_, out = in_thread(run_graph, f"better-{question}-{first}", *[q for q in (first, question) if q])
    assert out["status"] is Status.ANSWERED and out["understood_as"] == understood, out["answer"]
    assert f"The knowledge graph holds curated drug mechanisms, not {topic}. What it holds: " in out["answer"], out["answer"]
    assert out["ranked_answers"] and all(a["type"] in DRUG_TYPES for a in out["ranked_answers"])
    named = {"aspirin", "omeprazole", "imatinib"} & set(f"{first} {question}".casefold().replace("?", "").split())
    assert not named & {a["name"].casefold() for a in out["ranked_answers"]}, out["answer"]


@pytest.mark.parametrize(("question", "lead"), [
    ("what's a safer alternative to aspirin?", "Alternatives by mechanism, Aspirin left out. "),
    ("any cheaper alternatives to lisinopril for high blood pressure?", "Other drugs for high blood pressure, lisinopril left out. "),
])
def test_the_note_on_what_the_graph_lacks_comes_before_what_is_left_out(run_graph, question: str, lead: str) -> None:
    """"Alternatives by mechanism, Aspirin left out. The knowledge graph holds curated drug mechanisms, not safety.
    What it holds: …" read as if the alternatives were what the graph lacks."""
    [out] = in_thread(run_graph, f"lead-{question}", question)
    assert f"What it holds: {lead}" in out["answer"] and out["answer"].index("The knowledge graph holds") < out["answer"].index(lead), out["answer"]


@pytest.mark.parametrize(("first", "question", "drug", "caused", "target"), [
    ("why does lisinopril cause cough?", "what else could I take?", "lisinopril", "Cough", "Angiotensin-converting enzyme"),
    ("can ibuprofen cause stomach ulcers?", "what should I take instead?", "Ibuprofen", "Gastric ulcer", "Prostaglandin G/H synthase"),
])
def test_an_alternative_after_what_a_drug_causes_replaces_the_drug(run_graph, first: str, question: str, drug: str,
                                                                   caused: str, target: str) -> None:
    """What a drug causes is not what it is taken for: "what else could I take?" after "why does lisinopril cause
    cough?" was "Which other drugs treat Cough?". It asks for lisinopril's alternatives, and says they act as it does."""
    _, out = in_thread(run_graph, f"alt-caused-{first}", first, question)
    assert out["status"] is Status.ANSWERED and out["understood_as"].startswith("Which other drugs inhibit " + target), out["answer"]
    assert f"Alternatives by mechanism, {drug} left out." in out["answer"], out["answer"]
    assert out["answer"].endswith(f"They act as {drug} does; the knowledge graph does not hold whether they cause {caused} too."), \
        out["answer"]
