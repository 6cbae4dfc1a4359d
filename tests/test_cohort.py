"""Questions about many patients ("How many patients have diabetes?") are answered from the aggregation route: counts
over the patients who allow research use, nothing for a cohort smaller than five, no patient named, and only the
caller's patients counted. "How many patients have diabetes?" was NOT_FOUND ("no known entity in the question"), and
"Which patients take metformin?" listed what metformin is connected to."""

from __future__ import annotations

import re
from typing import Any

import pytest

from agents.cohort import cohort_question
from agents.state import Status
from tests.conftest import in_thread


@pytest.mark.parametrize("question", ["How many patients have diabetes?", "Which patients take metformin?",
                                      "list all patients with gout", "What proportion of patients have asthma?",
                                      "What is the most common medication among patients with depression?",
                                      "who takes warfarin?", "who has gout?"])  # "who" was answered from the graph
def test_questions_about_many_patients(question: str) -> None:
    assert cohort_question(question)["intent"] == "cohort"


@pytest.mark.parametrize("question", ["What should patients with gout take?", "How does imatinib treat CML?",
                                      "how many drugs treat gout?", "What is PAT_001 taking?", "who discovered imatinib?",
                                      "which ones are on the list?"])
def test_other_questions_are_not(question: str) -> None:
    assert cohort_question(question) == {}


def _count(answer: str) -> int:
    m = re.search(r"\(research consent\): (\d+)", answer)
    return int(m.group(1)) if m else -1


def test_a_count_is_the_aggregation_s_and_names_no_patient(run_graph, resources: Any) -> None:
    out, _ = run_graph({"question": "How many patients are there?"}, interactive=False, memory=False)
    assert out["intent"] == "cohort" and out["status"] is Status.ANSWERED and out["hybrid"]["route"] == "aggregation"
    assert out["answer"].startswith("Patients (research consent): ") and _count(out["answer"]) >= 5, out["answer"]
    assert "PAT_" not in out["answer"] and out["answer"].endswith("no patient is named in an answer about many patients.")
    on, _ = run_graph({"question": "How many patients take amineptine?"}, interactive=False, memory=False)
    assert re.search(r"Amineptine: \d+ of \d+ patients", on["answer"]), on["answer"]
    with_pid, _ = run_graph({"question": "What is PAT_001 taking?"}, interactive=False, memory=False)
    assert with_pid["intent"] == "patient"  # one patient's record, as before


def test_only_the_caller_s_patients_are_counted(run_graph) -> None:
    everyone, _ = run_graph({"question": "How many patients are there?"}, interactive=False, memory=False)
    star, _ = run_graph({"question": "How many patients are there?", "patient_scope": ["*"]}, interactive=False, memory=False)
    two, _ = run_graph({"question": "How many patients are there?", "patient_scope": ["PAT_001", "PAT_002"]},
                       interactive=False, memory=False)
    assert _count(star["answer"]) == _count(everyone["answer"]) >= 5
    assert "too few to report (fewer than 5)" in two["answer"] and "PAT_" not in two["answer"], two["answer"]


def test_the_http_api_counts_a_clinician_s_patients_only(settings: Any, resources: Any, tmp_path) -> None:
    import asyncio

    import httpx
    from langgraph.checkpoint.memory import InMemorySaver

    from medpath.api import create_app
    from medpath.auth import issue_token
    from medpath.ratelimit import RateLimiter
    from medpath.session import Session, checkpoint_serde
    from memory.mirix import Memory

    secret = "s" * 40
    mem = Memory(tmp_path / "mem")
    session = Session(settings, checkpointer=InMemorySaver(serde=checkpoint_serde()), resources=resources, memory_store=mem)
    app = create_app(settings, session=session, limiter=RateLimiter(1000, 60.0), secret=secret)

    async def ask(token: str) -> dict[str, Any]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c:
            r = await c.post("/api/v1/ask", json={"question": "How many patients are there?"},
                             headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200, r.text
            return r.json()

    clinician = asyncio.run(ask(issue_token(secret, "dr-a", "clinician", ["PAT_001"])))
    admin = asyncio.run(ask(issue_token(secret, "root", "admin", [])))
    assert "too few to report" in clinician["answer"], clinician["answer"]
    assert _count(admin["answer"]) >= 5, admin["answer"]


def test_a_follow_up_keeps_counting(run_graph) -> None:
    """"what about gout?" after a count asked what treats gout; it asks the count again for gout, and a drug then
    counts those of that cohort who take it."""
    thread = "cohort-follow-up"
    ask = [run_graph({"question": q}, thread=thread, interactive=False, memory=False)[0]
           for q in ("How many patients have depression?", "what about gout?", "and probenecid?")]
    assert [o["understood_as"] for o in ask[1:]] == ["How many patients have Gout?", "How many patients with Gout take Probenecid?"]
    assert all(o["intent"] == "cohort" and o["status"] is Status.ANSWERED for o in ask)


def test_a_count_of_a_name_the_records_lack_says_so(run_graph) -> None:
    """"How many patients have zorblaxitis?" counted every patient by condition, as if nothing had been named."""
    out, _ = run_graph({"question": "How many patients have zorblaxitis?"}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND
    assert out["answer"] == 'No verified evidence: "zorblaxitis" names no condition, medication or lab of the patient records.'
    lab, _ = run_graph({"question": "How many patients have HbA1c above 99?"}, interactive=False, memory=False)
    assert "HbA1c > 99 (latest): 0 of " in lab["answer"], lab["answer"]  # a lab none has past it is counted 0, as a drug is


@pytest.mark.parametrize(("misspelt", "right"), [("diabtes", "diabetes"), ("hypertention", "hypertension")])
def test_a_misspelt_condition_is_counted_as_its_right_spelling(run_graph, misspelt: str, right: str) -> None:
    """"How many patients have diabtes?" was NOT_FOUND: the count matches names by their words, not through the linker."""
    out, _ = run_graph({"question": f"How many patients have {misspelt}?"}, interactive=False, memory=False)
    want, _ = run_graph({"question": f"How many patients have {right}?"}, thread="t2", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["answer"] == want["answer"], out["answer"]
    assert out["answer"].startswith("Patients with "), out["answer"]


def test_the_answer_reads_the_typed_counts_not_the_rendered_lines(run_graph) -> None:
    """The counts reach the answer as records (``RetrievalResult.cohort_counts``); the answer used to parse the
    aggregation's rendered lines ("Cohort: …", "… → Medication: …"), so a change of wording there broke it."""
    from dataclasses import replace as with_fields

    from agents.cohort import cohort_answer
    from agents.state import State

    out, _ = run_graph({"question": "How many patients take amineptine?"}, interactive=False, memory=False)
    counts = out["hybrid"]["cohort_counts"]
    assert counts and counts[0]["kind"] == "" and counts[0]["size"] >= 5 and "line" not in counts[0]
    assert [c["name"] for c in counts if c["kind"] == "medication"] == ["Amineptine"]
    hybrid = {**out["hybrid"], "context": {"graph_lines": []}}  # nothing rendered: the answer is the same
    state = with_fields(State(question="How many patients take amineptine?"), hybrid=hybrid)
    assert cohort_answer(state)["answer"] == out["answer"]
    few = {"cohort_counts": [{"cohort": "Gout", "size": 0, "too_few": True}]}
    assert cohort_answer(with_fields(state, hybrid=few))["answer"].startswith(
        "Patients with Gout (research consent): too few to report (fewer than 5).")


def test_a_drug_class_is_counted_by_its_drugs(run_graph) -> None:
    """"How many patients take statins?" was NOT_FOUND ("statins" names no medication of the records), and "… with
    hypertension take diuretics?" counted every medication of the cohort, as if the class had not been named."""
    statins, _ = run_graph({"question": "How many patients take statins?"}, interactive=False, memory=False)
    assert statins["status"] is Status.ANSWERED and re.search(r"Of them: \w*vastatin: \d+ of \d+ patients", statins["answer"])
    diuretics, _ = run_graph({"question": "how many patients with hypertension take diuretics?"}, interactive=False, memory=False)
    assert re.search(r"Of them: azosemide: \d+ of \d+ patients\.", diuretics["answer"]), diuretics["answer"]
    none, _ = run_graph({"question": "How many patients take beta blockers?"}, interactive=False, memory=False)
    assert re.search(r"Of them: beta blockers: 0 of \d+ patients\.", none["answer"]), none["answer"]


def test_a_count_s_follow_ups_count_again(run_graph) -> None:
    """After a count, "and how many have gout?" was read as "What drugs treat gout?" and "which drug is most common
    among them?" as a question about a drug ("… among Metformin?")."""
    from tests.conftest import in_thread

    _, again, most = in_thread(run_graph, "count", "How many patients take metformin?", "and how many have gout?",
                               "which drug is most common among them?")
    assert again["intent"] == "cohort" and again["understood_as"] == "How many patients have gout?", again["answer"]
    assert "Patients with Gout (research consent): " in again["answer"]
    assert most["intent"] == "cohort" and most["understood_as"] == "What is the most common medication among patients with gout?"
    assert most["answer"].split("Understood as: ")[-1].split('" ', 1)[1] == again["answer"].split('" ', 1)[1]
    other = in_thread(run_graph, "count2", "What drugs treat gout?", "and how many have gout?")[1]
    assert other["intent"] != "cohort" or other["understood_as"] != "How many patients have gout?"  # not after a count


@pytest.mark.parametrize(("first", "then", "understood"), [
    ("How many patients have diabetes?", "what about hypertension?", "How many patients have hypertension?"),
    ("How many patients have diabetes?", "and gout?", "How many patients have gout?"),
    ("How many patients have diabetes?", "what about lisinopril?", "How many patients take lisinopril?"),
])
def test_another_name_after_a_count_counts_it(run_graph, first: str, then: str, understood: str) -> None:
    """"what about hypertension?" after a count that linked no entity ("diabetes" fits several) was told what
    Hypertensive disorder is connected to: the thread held nothing to resolve against."""
    _, out = in_thread(run_graph, f"count-{then}", first, then)
    assert out["intent"] == "cohort" and out["understood_as"] == understood, out["answer"]
    assert out["status"] is Status.ANSWERED and "no patient is named" in out["answer"], out["answer"]


def test_which_drugs_do_they_take_after_a_count_is_the_cohort_s_medications(run_graph) -> None:
    """"which drugs do they take?" after "how many patients have depression?" asked what "they" referred to ("This
    conversation has not named a drug, disease or patient yet")."""
    from tests.conftest import in_thread

    counted, drugs, on = in_thread(run_graph, "their", "how many patients have depression?", "which drugs do they take?",
                                   "what medications are they on?")
    for out in (drugs, on):
        assert out["intent"] == "cohort" and out["status"] is Status.ANSWERED, out["answer"]
        assert out["understood_as"] == "What is the most common medication among patients with depression?"
        assert out["answer"].split('" ', 1)[1] == counted["answer"], out["answer"]


def test_what_they_take_for_it_after_which_patients_is_the_cohort_s_medications(run_graph) -> None:
    """"what are they taking for it?" after "Which patients have gout?" was "What are Gout taking for Gout?" (NOT_FOUND),
    and the cohort's condition was read only from "how many patients have …"."""
    from tests.conftest import in_thread

    counted, taking = in_thread(run_graph, "their-gout", "Which patients have gout?", "what are they taking for it?")
    assert taking["intent"] == "cohort" and taking["status"] is Status.ANSWERED, taking["answer"]
    assert taking["understood_as"] == "What is the most common medication among patients with gout?", taking["answer"]
    assert taking["answer"].split('" ', 1)[1] == counted["answer"], taking["answer"]


def test_other_patients_and_the_same_drug_are_counted_after_a_record(run_graph) -> None:
    """"how many patients take the same drug?" after a patient's medications asked what "the same drug" referred to,
    and "how many other patients take it?" left out "those already named" and answered with what the drug is connected
    to. Both are counts over the patients of the drug the record lists."""
    from agents.cohort import plain_count
    from tests.conftest import in_thread

    assert plain_count("how many other patients take the same drug?") == "how many patients take it?"
    assert plain_count("What does the same drug target?") == "What does the same drug target?"  # no count: as asked
    for question in ("how many patients take the same drug?", "how many other patients take it?"):
        record, counted = in_thread(run_graph, f"same-{len(question)}", "What is PAT_001 taking?", question)
        drug = record["messages"][-1]["items"][0]["name"]
        assert counted["intent"] == "cohort" and counted["understood_as"] == f"How many patients take {drug}?", counted
        assert counted["status"] is Status.ANSWERED and "Leaving out" not in counted["answer"], counted["answer"]


def test_a_count_within_the_last_count_and_no_names(run_graph) -> None:
    """"which of them also have hypertension?" after "How many patients take metformin?" was "Which of Metformin also
    have hypertension?", answered with a mechanism; "list them" after a count was "List Gout?", answered with drugs,
    and a refusal in between ended the run of counts."""
    from tests.conftest import in_thread

    _, within = in_thread(run_graph, "within", "How many patients take probenecid?", "how many of them have gout?")
    assert within["intent"] == "cohort" and within["understood_as"] == "How many patients with gout take probenecid?"
    assert "Patients with Gout (research consent): " in within["answer"] and "Probenecid: " in within["answer"]
    _, named, then, who = in_thread(run_graph, "names", "How many patients have gout?", "list them",
                                    "which of them take probenecid?", "who are they?")
    assert named["status"] is Status.NOT_FOUND and "counts them and names none" in named["answer"], named["answer"]
    assert not re.search(r"PAT_\d+", named["answer"]) and not re.search(r"PAT_\d+", who["answer"])
    assert then["intent"] == "cohort" and then["understood_as"] == "How many patients with gout take probenecid?"
    assert "counts them and names none" in who["answer"]


def test_a_name_that_heads_drugs_names_is_counted_as_a_drug(run_graph) -> None:
    """"what about insulin?" after how many patients take metformin was "How many patients with insulin take
    Metformin?": insulin is a protein in the graph, and it took the condition's place."""
    *_, out = in_thread(run_graph, "cohort-insulin", "How many patients take metformin?", "what about insulin?")
    assert out["understood_as"] == "How many patients take insulin?" and out["intent"] == "cohort", out["answer"]
    assert re.search(r"insulin \w+: \d+ of \d+ patients", out["answer"]), out["answer"]


def test_a_count_of_takers_after_a_condition_s_patients_is_within_them(run_graph) -> None:
    """"how many are on allopurinol?" after "which patients have gout?" counted every patient ("allopurinol: 0 of 38");
    a count of a condition after a count of a drug's takers stays a count of its own."""
    from tests.conftest import in_thread

    _, on, take = in_thread(run_graph, "takers", "which patients have gout?", "how many are on allopurinol?",
                            "and how many take probenecid?")
    assert on["understood_as"] == "How many patients with gout are on allopurinol?", on["answer"]
    assert take["understood_as"] == "How many patients with gout take probenecid?", take["answer"]
    cohort = re.search(r"Patients with Gout \(research consent\): (\d+)\. Of them: Probenecid: (\d+) of (\d+)", take["answer"])
    assert cohort and int(cohort[2]) <= int(cohort[3]) <= int(cohort[1]), take["answer"]
    _, have = in_thread(run_graph, "parallel", "How many patients take metformin?", "and how many have gout?")
    assert have["understood_as"] == "How many patients have gout?"


def test_the_most_common_conditions_and_medications_in_any_word_order(run_graph, resources: Any) -> None:
    """"what conditions are most common?" was NOT_FOUND ('"most common" is not in the knowledge graph', read as which
    diseases "most common" takes part in), "which medications are most commonly prescribed?" got the graph's note with
    no count, and "and medications?" after either was "How many patients have medications?", NOT_FOUND."""
    conditions, meds = in_thread(run_graph, "most-kind", "what conditions are most common?", "and medications?")
    assert conditions["intent"] == "cohort" and conditions["status"] is Status.ANSWERED, conditions["answer"]
    assert re.search(r"Of them: [^:]+: \d+ of \d+ patients", conditions["answer"]), conditions["answer"]
    assert meds["understood_as"] == "what medications are most common?" and meds["intent"] == "cohort", meds["answer"]
    prescribed, _ = run_graph({"question": "which medications are most commonly prescribed?"}, interactive=False, memory=False)
    assert prescribed["intent"] == "cohort" and _count(prescribed["answer"]) > 0, prescribed["answer"]


def test_the_most_common_conditions_of_a_condition_s_patients_are_their_others(run_graph) -> None:
    """"What are the most common conditions among patients with gout?" counted no condition (each of them has gout)."""
    out, _ = run_graph({"question": "what are the most common conditions among patients with gout?"}, interactive=False, memory=False)
    told = re.findall(r"(?:Of them: |; )([^:;]+): \d+ of \d+ patients", out["answer"])
    assert told and "Gout" not in told, out["answer"]
    _first, meds = in_thread(run_graph, "most-among", "what are the most common conditions among patients with gout?", "and medications?")
    assert meds["understood_as"] == "what are the most common medications among patients with gout?", meds["answer"]
