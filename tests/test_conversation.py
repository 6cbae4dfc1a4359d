"""Conversations: per-turn state, follow-ups, clarification that resumes the right thing, useful failures."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from conftest import _FakeOpenAI
from langgraph.types import Command

from agents.followup import resolve_followup
from agents.intent import parse_question
from agents.state import PER_TURN_DEFAULTS, Intent, Status
from core.settings import LLMSettings
from tests.conftest import in_thread

IMATINIB, CML, GOUT = "MESH:D000068877", "MESH:D015464", "MESH:D006073"


def _turn(run_graph: Any, thread: str, payload: Any, **ctx: Any) -> dict[str, Any]:
    _out, snap = run_graph(payload, thread=thread, **ctx)
    values = dict(snap.values)
    pending = [i for t in snap.tasks for i in t.interrupts]
    values["status"] = "NEEDS_CLARIFICATION" if pending else str(values["status"])
    values["interrupt"] = pending[0].value if pending else None
    return values


def test_a_failed_turn_does_not_poison_the_thread(run_graph) -> None:
    bad = _turn(run_graph, "mid", {"question": "How does zorblaxin treat fever?"})
    assert bad["status"] == "NOT_FOUND" and not bad["evidence"] and not bad["citations"]
    good = _turn(run_graph, "mid", {"question": "How does imatinib treat CML (ph+)?"})
    assert good["status"] == "ANSWERED", good["error"]
    assert good["error"] == "" and good["evidence"][0]["head"] == IMATINIB
    again = _turn(run_graph, "mid", {"question": "How does zorblaxin treat fever?"})
    assert again["status"] == "NOT_FOUND"
    assert not again["evidence"] and not again["citations"] and not again["evidence_text"]  # nothing stale
    roles = [m["role"] for m in again["messages"]]
    assert roles == ["user", "assistant"] * 3  # the history is kept, one record per side per turn


def test_a_clarification_shows_a_clean_turn(run_graph) -> None:
    _turn(run_graph, "clean", {"question": "How does imatinib treat CML (ph+)?"})
    pending = _turn(run_graph, "clean", {"question": "How does metformin treat diabetes?"})
    assert pending["status"] == "NEEDS_CLARIFICATION"
    for key in ("answer", "evidence", "citations", "candidates", "error"):
        assert pending[key] == PER_TURN_DEFAULTS[key], key


def test_followups_through_the_graph(run_graph) -> None:
    _turn(run_graph, "fu", {"question": "How does imatinib treat CML (ph+)?"})
    targets = _turn(run_graph, "fu", {"question": "and which protein does it target?"})
    assert targets["status"] == "ANSWERED" and targets["intent"] == "targets"
    assert targets["sources"] == [IMATINIB] and "imatinib" in targets["understood_as"]
    assert targets["answer"].startswith("Understood as:")
    gout = _turn(run_graph, "fu", {"question": "what about gout?"})
    assert gout["intent"] == "mechanism" and gout["sources"] == [IMATINIB] and gout["targets"] == [GOUT]


def test_a_reference_with_nothing_to_refer_to_is_asked(run_graph) -> None:
    first = _turn(run_graph, "noctx", {"question": "does it work?"})
    assert first["status"] == "NEEDS_CLARIFICATION"
    assert first["interrupt"]["mention"] == "it" and '"it"' in first["interrupt"]["question"]
    done = _turn(run_graph, "noctx", Command(resume="imatinib"))
    assert IMATINIB in done["sources"] and done["understood_as"] == "does imatinib work?"
    auto = _turn(run_graph, "noctx-auto", {"question": "does it work?"}, interactive=False)
    assert auto["status"] == "NOT_FOUND" and '"it"' in auto["error"]



def test_the_noun_that_its_own_words_define_is_no_reference(run_graph, resources) -> None:
    """"What is the target of imatinib?" and "What is the drug of choice for gout?" were NOT_FOUND as the first
    question of a thread ("nothing earlier in this conversation for "the target" to refer to"): "the target" was read
    as the thread's target, even with "of imatinib" after it. With no thread they are plain questions; in a thread
    they are not rewritten; and "What is the drug used for?" still refers."""
    target = _turn(run_graph, "defined", {"question": "What is the target of imatinib?"}, interactive=False)
    assert target["status"] == "ANSWERED" and target["intent"] == "targets" and target["sources"] == [IMATINIB]
    choice = _turn(run_graph, "defined-2", {"question": "What is the drug of choice for gout?"}, interactive=False)
    assert choice["status"] == "ANSWERED" and choice["intent"] == "treats" and choice["targets"] == [GOUT]
    enzyme = _turn(run_graph, "defined-2", {"question": "What is the enzyme that aspirin inhibits?"}, interactive=False)
    assert enzyme["status"] == "ANSWERED" and enzyme["intent"] == "targets" and not enzyme["understood_as"]
    ref = resolve_followup("What is the drug used for?", target["messages"], resources.linker)
    assert ref.understood == "What is imatinib used for?"
    named = _turn(run_graph, "defined-2", {"question": "How does the drug imatinib treat CML?"}, interactive=False)
    assert named["status"] == "ANSWERED" and named["sources"] == [IMATINIB] and not named["understood_as"]
    assert not named["answer"].startswith("Read ")  # "drug imatinib" is not a guess at a name


def test_it_after_a_list_of_drugs_is_the_first_and_doing_that_after_targets_is_acting_on_the_target(run_graph) -> None:
    """After "What is the drug of choice for gout?", "how does it work?" was NOT_FOUND (no drug in the thread for
    "it"); it is the first drug listed. After "What does lesinurad target?", "are there other drugs that do that?"
    was NOT_FOUND ("no known entity"); it asks which other drugs act on that target. "tell me more about the third"
    (an ordinal with no "one" after it) was NOT_FOUND too."""
    migraine = _turn(run_graph, "third", {"question": "What drugs treat migraine?"}, interactive=False)
    third = _turn(run_graph, "third", {"question": "tell me more about the third"}, interactive=False)  # no "one"
    assert third["status"] == "ANSWERED" and third["sources"] == [migraine["ranked_answers"][2]["id"]]
    listed = _turn(run_graph, "it-list", {"question": "What is the drug of choice for gout?"}, interactive=False)
    first = listed["ranked_answers"][0]
    how = _turn(run_graph, "it-list", {"question": "how does it work?"}, interactive=False)
    assert how["status"] == "ANSWERED" and how["understood_as"] == f"How does {first['name']} treat Gout?"
    assert how["sources"] == [first["id"]] and how["targets"] == [GOUT]
    targets = _turn(run_graph, "do-that", {"question": "What does lesinurad target?"}, interactive=False)
    target = targets["messages"][-1]["target"]
    same = _turn(run_graph, "do-that", {"question": "are there other drugs that do that?"}, interactive=False)
    assert same["intent"] == "targeted_by" and same["targets"] == [target["id"]]
    assert same["understood_as"] == f"Which other drugs act on {target['name']}?"
    assert targets["sources"][0] not in [a["id"] for a in same["ranked_answers"]]

@pytest.fixture()
def focus_messages() -> list[dict[str, Any]]:
    drug = {"id": IMATINIB, "name": "imatinib", "type": "Drug"}
    return [
        {"role": "user", "content": "What drug treats Hyperglycemia?"},
        {"role": "assistant", "intent": "treats", "drug": None, "disease": {"id": "MESH:D006943", "name": "Hyperglycemia", "type": "Disease"},
         "items": [{"id": "MESH:C030163", "name": "buformin", "type": "Drug"}, {"id": "MESH:D008687", "name": "Metformin", "type": "Drug"}]},
        {"role": "user", "content": "How does imatinib treat CML (ph+)?"},
        {"role": "assistant", "intent": "mechanism", "drug": drug,
         "disease": {"id": CML, "name": "Chronic myeloid leukemia", "type": "Disease"}, "items": []},
    ]


@pytest.mark.parametrize(("question", "expected"), [
    ("how does it treat gout?", "how does imatinib treat gout?"),
    ("what are its targets?", "What are the targets of imatinib?"),
    ("what are its other uses?", "What are the other uses of imatinib?"),  # was "what are its other" unknown
    ("and what are its side effects?", "What are the side effects of imatinib?"),
    ("what is its dose?", "What is the dose of imatinib?"),
    ("what is its therapeutic range?", "What is the therapeutic range of imatinib?"),  # these were NOT_FOUND,
    ("what's its half-life?", "What's the half-life of imatinib?"),  # "no known entity in the question"
    ("what about gout?", "How does imatinib treat Gout?"),
    # a protein whose name heads drugs' names is asked about as the drugs named so, linked as a direct question
    # links them ("How does imatinib act on insulin?", then "How does insulin act on …?", the protein)
    ("what about insulin?", "How does insulin treat Chronic myeloid leukemia?"),
    ("what about ABL1?", "How does imatinib act on Tyrosine-protein kinase ABL1?"),
    ("how does that one work?", "How does imatinib treat Chronic myeloid leukemia?"),  # was "… imatinib one work?"
    ("and strokes?", "How does imatinib treat Cerebrovascular accident?"),  # a plural of a name: was NOT_FOUND
    ("and prasugrel?", "How does Prasugrel Hydrochloride treat Chronic myeloid leukemia?"),  # a name's first word: NOT_FOUND
    ("what's the first-line drug?", "What drug treats Chronic myeloid leukemia?"),  # "what's": was NOT_FOUND
    ("which one works fastest?", "Compare buformin and Metformin"),  # the latest list, ranked: was NOT_FOUND
    ("which one should I take?", "Compare buformin and Metformin"),  # was NOT_FOUND
    ("is that the same for dasatinib?", "How does Dasatinib treat Chronic myeloid leukemia?"),  # these three were
    ("does that apply to gout?", "How does imatinib treat Gout?"),  # answered with what the name is connected to
    ("would it be any different in asthma?", "How does imatinib treat Asthma?"),
    ("and in children?", "How does imatinib treat Chronic myeloid leukemia in children?"),
    ("how does the second one work?", "How does Metformin treat Chronic myeloid leukemia?"),
    ("and the second?", "How does Metformin treat Chronic myeloid leukemia?"),
    ("what about the first one?", "How does buformin treat Chronic myeloid leukemia?"),
    ("what does this drug target?", "What does imatinib target?"),
    ("why?", "How does imatinib treat Chronic myeloid leukemia?"),
    ("why not?", "How does imatinib treat Chronic myeloid leukemia?"),  # after a yes or no: it was NOT_FOUND
    ("Can you explain that again?", "How does imatinib treat Chronic myeloid leukemia?"),
    ("How does aspirin treat pain?", "How does aspirin treat pain?"),
])
def test_resolver_rewrites(resources, focus_messages, question, expected) -> None:
    res = resolve_followup(question, focus_messages, resources.linker)
    assert res.understood.casefold() == expected.casefold()
    assert res.rewritten == (question != expected)


def test_an_unknown_name_after_in_or_for_is_the_disease_of_a_drug_question(resources) -> None:
    """"what about in PCOS?" after "How does metformin work?" was read as "What does PCOS target?"."""
    messages = [{"role": "user", "content": "How does metformin work?"},
                {"role": "assistant", "intent": "targets", "drug": {"id": "MESH:D008687", "name": "Metformin",
                                                                   "type": "Drug"}, "disease": None, "items": []}]
    for question, expected in (("what about in PCOS?", "How does Metformin treat PCOS?"),
                               ("and for blorpitis?", "How does Metformin treat blorpitis?"),
                               ("what about qwzx?", "What does qwzx target?")):
        assert resolve_followup(question, messages, resources.linker).understood == expected, question


def test_a_name_that_fits_several_stays_as_written_so_that_the_planner_asks(run_graph, resources) -> None:
    """"what about cancer?" after how methotrexate treats rheumatoid arthritis was asked of Breast Neoplasms, the
    first of the diseases "cancer" fits, without a word; "and cancer?" was NOT_FOUND ("no known entity"). The words
    now stay, and an interactive run asks which cancer is meant."""
    messages = [{"role": "user", "content": "How does methotrexate treat rheumatoid arthritis?"},
                {"role": "assistant", "intent": "mechanism", "drug": {"id": "MESH:D008727", "name": "methotrexate", "type": "Drug"},
                 "disease": {"id": "MESH:D001172", "name": "Rheumatoid arthritis", "type": "Disease"}, "items": []}]
    assert resources.linker.link("cancer").status.value == "ambiguous"
    for q in ("what about cancer?", "and cancer?", "and diabetes?"):
        res = resolve_followup(q, messages, resources.linker)
        assert res.understood == f"How does methotrexate treat {q.split()[-1].rstrip('?')}?", q
    _turn(run_graph, "which-cancer", {"question": "How does methotrexate treat rheumatoid arthritis?"}, interactive=True)
    asked = _turn(run_graph, "which-cancer", {"question": "and cancer?"}, interactive=True)
    assert asked["status"] == "NEEDS_CLARIFICATION" and asked["interrupt"]["mention"] == "cancer", asked["interrupt"]
    assert len(asked["interrupt"]["candidates"]) > 1


def test_a_modifier_alone_changes_the_thread_disease(resources) -> None:
    """"and type 2?" after type 1 diabetes was NOT_FOUND ("no known entity in the question"), and "what about acute?"
    after chronic myeloid leukemia was read as Acute abdomen. The modifier replaces its counterpart in the disease's
    name; a value the graph holds no name for ("type 3") is not read as a misspelling of another."""
    def after(drug: str, disease: dict[str, str]) -> list[dict[str, Any]]:
        return [{"role": "user", "content": f"How does {drug} treat {disease['name']}?"},
                {"role": "assistant", "intent": "mechanism", "drug": {"id": "MESH:D008687", "name": drug, "type": "Drug"},
                 "disease": disease, "items": []}]
    t1 = after("Metformin", {"id": "MESH:D003922", "name": "Diabetes mellitus type 1", "type": "Disease"})
    cml = after("Metformin", {"id": CML, "name": "Chronic myeloid leukemia", "type": "Disease"})
    for question, messages, expected in (("and type 2?", t1, "How does Metformin treat Diabetes mellitus type 2?"),
                                         ("what about type 2?", t1, "How does Metformin treat Diabetes mellitus type 2?"),
                                         ("and acute?", cml, "How does Metformin treat Acute myeloid leukemia, disease?"),
                                         ("what about acute?", cml, "How does Metformin treat Acute myeloid leukemia, disease?")):
        assert resolve_followup(question, messages, resources.linker).understood == expected, question
    assert not resolve_followup("and type 3?", t1, resources.linker).rewritten
    # a modifier the thread's disease does not name is added to it: "and type 1?" after Diabetes mellitus was NOT_FOUND
    dm = after("Metformin", {"id": "MESH:D003920", "name": "Diabetes mellitus", "type": "Disease"})
    assert resolve_followup("and type 1?", dm, resources.linker).understood == "How does Metformin treat Diabetes mellitus type 1?"
    assert not resolve_followup("and type 3?", dm, resources.linker).understood.endswith("Diabetes mellitus type 3?")


@pytest.mark.parametrize(("question", "topic", "expected"), [
    ("Gout: which drugs treat it?", "Gout", "Which drugs treat Gout?"),
    ("Angina Pectoris, Variant - what treats it?", "Angina Pectoris, Variant", "What treats Angina Pectoris, Variant?"),
    ("As for gout, what treats it?", "gout", "What treats gout?"),
])
def test_a_pronoun_can_point_at_the_topic_the_question_opens_with(resources, focus_messages, question, topic, expected) -> None:
    # in a thread about imatinib and CML, and in none: "it" is the entity the question opens with
    for messages in (focus_messages, []):
        res = resolve_followup(question, messages, resources.linker)
        assert res.understood == expected and not res.missing
        assert res.references == [{"text": "it", "how": "topic", "topic": topic}]


def test_a_topic_is_a_name_and_nothing_more(resources) -> None:
    # a drug and a disease before the dash: the pronoun is the drug, and the question stays as asked
    res = resolve_followup("imatinib for CML - how does it work?", [], resources.linker)
    assert not res.rewritten and not res.missing
    assert parse_question(res.question).intent is Intent.MECHANISM
    # an opening of several words that names nothing is no topic: "it" still has nothing to refer to
    assert resolve_followup("Quick question: what treats it?", [], resources.linker).missing == "it"


def test_an_unknown_one_word_topic_is_named_as_unknown(run_graph, resources, focus_messages) -> None:
    out = _turn(run_graph, "topic-unknown", {"question": "Blorptazine: what treats it?"}, interactive=False)
    assert out["status"] == "NOT_FOUND" and out["error"].startswith('"Blorptazine" is not in the knowledge graph')
    # in a thread, an unknown opening word is not taken over the thread's entity
    res = resolve_followup("Blorptazine: what treats it?", focus_messages, resources.linker)
    assert not any(r["how"] == "topic" for r in res.references)


def test_resolver_with_nothing_to_resolve_against(resources) -> None:
    for q in ("does it work?", "what are its targets?", "how does the second one work?", "and the third?"):
        res = resolve_followup(q, [], resources.linker)
        assert res.missing and not res.rewritten, q


def test_the_picked_candidate_is_the_one_answered(run_graph, resources) -> None:
    pending = _turn(run_graph, "pick", {"question": "How does metformin treat diabetes?"})
    options = pending["interrupt"]["candidates"]
    pick = next(i for i, c in enumerate(options, 1) if c["id"] == "MESH:D003922")
    done = _turn(run_graph, "pick", Command(resume=str(pick)))
    assert done["targets"] == ["MESH:D003922"]
    assert done["status"] in ("ANSWERED", "NOT_FOUND")
    diseases = ("Disease", "PhenotypicFeature")
    ends = {c["triples"][-1]["tail"] for c in done["candidates"]}
    # never a path to another disease (the dense back-off used to add Hyperglycemia as a target)
    assert not {e for e in ends if e != "MESH:D003922" and resources.kg.node(e).type in diseases}, ends
    if done["status"] == "ANSWERED":  # a rescue path to an intermediate is kept only when none reaches the disease
        assert done["evidence"][-1]["tail"] == "MESH:D003922", done["evidence_text"]
    other = _turn(run_graph, "pick2", {"question": "How does Chlorambucil treat leukemia?"})
    assert other["status"] == "NEEDS_CLARIFICATION"
    outside = _turn(run_graph, "pick2", Command(resume="MESH:D015451"))  # named exactly, though not among the options
    assert outside["targets"] == ["MESH:D015451"]



def test_a_chosen_candidate_is_not_told_as_a_guess(run_graph) -> None:
    """After "How does metformin treat diabetes?" and the choice of type 1, the answer opened "Read "diabetes" as
    Diabetes mellitus type 1: the closest name in the knowledge graph", as if the caller had not chosen it."""
    pending = _turn(run_graph, "chosen", {"question": "How does metformin treat diabetes?"})
    pick = next(i for i, c in enumerate(pending["interrupt"]["candidates"], 1) if c["id"] == "MESH:D003922")
    done = _turn(run_graph, "chosen", Command(resume=str(pick)))
    assert done["targets"] == ["MESH:D003922"] and "closest name" not in done["answer"], done["answer"]
    assert done["answer"].startswith("Metformin acts on Diabetes mellitus type 1") or done["status"] == "NOT_FOUND"


def test_unknown_term_comes_first_with_suggestions(run_graph) -> None:
    out = _turn(run_graph, "unk", {"question": "How does zorblaxin treat cancer?"})
    assert out["status"] == "NOT_FOUND"  # not "which cancer?"
    assert out["error"].startswith('"zorblaxin" is not in the knowledge graph')


def test_not_found_suggests_only_names_that_fit_the_mention_and_its_slot(run_graph) -> None:
    out = _turn(run_graph, "near", {"question": "How does prednisone treat lupus nephritis?"})
    assert out["status"] == "NOT_FOUND" and out["suggestions"][0]["name"] == "Lupus Erythematosus, Systemic"
    assert "did you mean Lupus Erythematosus, Systemic" in out["answer"]
    assert all(s["type"] in ("Disease", "PhenotypicFeature") for s in out["suggestions"]), out["suggestions"]
    # nothing in the graph is spelled like it or shares a word with it: no look-alikes (it offered Posaconazole)
    out = _turn(run_graph, "none", {"question": "How does imatinib treat PCOS?"})
    assert out["status"] == "NOT_FOUND" and out["suggestions"] == [] and "did you mean" not in out["answer"]


def test_suggestions_find_misspellings(resources) -> None:
    assert resources.linker.suggest("imatinab")[0].id == IMATINIB
    assert resources.linker.suggest("asprin")[0].name == "Aspirin"


def test_llm_rewrites_followups_and_falls_back_on_garbage(fake_llm, run_graph, resources) -> None:
    url, _ = fake_llm
    llm = LLMSettings(base_url=url, api_key="k", model="local", timeout_s=2.0, max_retries=0)
    res = replace(resources, settings=replace(resources.settings, llm=llm))
    _turn(run_graph, "llm", {"question": "How does imatinib treat CML (ph+)?"}, resources=res)
    out = _turn(run_graph, "llm", {"question": "and the proteins?"}, resources=res)
    assert out["understood_as"] == "What does imatinib target?" and out["intent"] == "targets"
    assert not [f for f in out["fallbacks"] if f["component"] == "planner.rewrite.llm"]
    _FakeOpenAI.rewrite = "yes"
    out = _turn(run_graph, "llm", {"question": "what about gout?"}, resources=res)
    assert any(f["component"] == "planner.rewrite.llm" for f in out["fallbacks"])
    assert out["targets"] == [GOUT] and out["sources"] == [IMATINIB]  # the embedded resolver answered


def test_a_new_question_replaces_a_pending_clarification(run_graph) -> None:
    assert _turn(run_graph, "skip", {"question": "How does metformin treat diabetes?"})["status"] == "NEEDS_CLARIFICATION"
    out = _turn(run_graph, "skip", {"question": "How does imatinib treat CML (ph+)?"})
    assert out["status"] == Status.ANSWERED.value and out["interrupt"] is None


def test_follow_ups_retrieve_with_the_question_as_understood(run_graph) -> None:
    """The walk, the hybrid query and the reviewer read ``understood_as``: with the raw "And in the elderly?" the
    edge predictor steered the walk by that text and it found nothing."""
    first = _turn(run_graph, "asked", {"question": "How does dapsone treat Leprosy?"})
    assert first["status"] == "ANSWERED"
    for q in ("What about in pregnant women?", "And in the elderly?"):
        out = _turn(run_graph, "asked", {"question": q})
        assert out["status"] == "ANSWERED" and out["understood_as"].startswith("How does dapsone treat Leprosy in"), q
        assert out["hybrid"].get("route") and out["candidates"]


def test_a_drug_picked_from_a_list_of_a_protein_s_drugs_is_asked_how_it_acts_on_it(run_graph) -> None:
    """After "Which drugs inhibit ABL1?", "how does the second one work?" used to become "How does imatinib treat
    Tyrosine-protein kinase ABL1?": a protein is acted on, not treated."""
    first = _turn(run_graph, "tb", {"question": "Which drugs inhibit Tyrosine-protein kinase ABL1?"}, interactive=False)
    second = first["ranked_answers"][1]["name"]
    picked = _turn(run_graph, "tb", {"question": "how does the second one work?"}, interactive=False)
    assert picked["understood_as"] == f"How does {second} act on Tyrosine-protein kinase ABL1?"
    assert picked["status"] == "ANSWERED" and picked["intent"] == "mechanism"


def test_that_target_is_the_target_the_thread_was_about_and_other_drugs_leave_its_drug_out(run_graph, resources) -> None:
    """After "How does imatinib treat CML?", "which other drugs act on that target?" was NOT_FOUND ("that target" is
    not in the knowledge graph). It now asks about the first step's protein, and "other" leaves imatinib out."""
    abl1 = "UniProt:P00519"
    first = _turn(run_graph, "tgt", {"question": "How does imatinib treat CML (ph+)?"}, interactive=False)
    assert first["messages"][-1]["target"]["id"] == abl1
    others = _turn(run_graph, "tgt", {"question": "which other drugs act on that target?"}, interactive=False)
    assert others["status"] == "ANSWERED" and others["intent"] == "targeted_by" and others["targets"] == [abl1]
    assert others["understood_as"] == "Which other drugs act on Tyrosine-protein kinase ABL1?"
    listed = [a["id"] for a in others["ranked_answers"]]
    assert len(listed) >= 3 and IMATINIB not in listed
    # without "other", the thread's drug may be listed: it acts on ABL1 too
    plain = _turn(run_graph, "tgt", {"question": "which drugs act on that target?"}, interactive=False)
    assert IMATINIB in [a["id"] for a in plain["ranked_answers"]]
    res = resolve_followup("what else does it treat?", first["messages"], resources.linker)
    assert res.understood == "What else does imatinib treat?" and set(res.excluded) == {IMATINIB, CML, abl1}


def test_asking_for_other_drugs_leaves_out_every_drug_the_thread_listed(run_graph, resources) -> None:
    """"Which other drugs treat gout?" after "What drugs treat gout?" gave the same five drugs (no pronoun, so nothing
    was left out), "What else treats gout?" after it gave the first five again, and "any other options?" was
    NOT_FOUND."""
    first = _turn(run_graph, "more", {"question": "What drugs treat gout?"}, interactive=False)
    seen = {a["id"] for a in first["ranked_answers"]}
    assert len(seen) == 5 and not first["excluded"]
    for q in ("Which other drugs treat gout?", "What else treats gout?", "any other options?"):
        out = _turn(run_graph, "more", {"question": q}, interactive=False)
        now = {a["id"] for a in out["ranked_answers"]}
        assert out["status"] == "ANSWERED" and out["intent"] == "treats" and out["targets"] == [GOUT], q
        assert now and not now & seen, q
        assert "Leaving out those already named in this conversation. Drugs with" in out["answer"], q
        seen |= now
    assert out["understood_as"] == "What else treats gout?"  # the last question, asked again
    # after a mechanism there is no list to continue: "any other options?" asks which other drugs treat the disease
    mech = _turn(run_graph, "mech", {"question": "How does imatinib treat CML (ph+)?"}, interactive=False)
    res = resolve_followup("any other options?", mech["messages"], resources.linker)
    assert res.understood == "Which other drugs treat Chronic myeloid leukemia?" and IMATINIB in res.excluded


def test_the_next_items_of_a_list(run_graph, resources) -> None:
    """"show me more", "the next five" and "keep going" after a list were NOT_FOUND ("no known entity in the question"),
    and "more" retold the first item's mechanism; after a mechanism "more" and "show me more" still retell it."""
    first = _turn(run_graph, "next", {"question": "What drugs treat gout?"}, interactive=False)
    seen = {a["id"] for a in first["ranked_answers"]}
    for q in ("show me more", "the next five", "more", "keep going"):
        out = _turn(run_graph, "next", {"question": q}, interactive=False)
        now = {a["id"] for a in out["ranked_answers"]}
        assert out["understood_as"] == "What drugs treat gout?" and out["status"] == "ANSWERED", (q, out["answer"])
        assert now and not now & seen, q
        seen |= now
    mech = _turn(run_graph, "next-mech", {"question": "How does imatinib treat CML (ph+)?"}, interactive=False)
    for q in ("more", "show me more"):
        res = resolve_followup(q, mech["messages"], resources.linker)
        assert res.understood == "How does imatinib treat Chronic myeloid leukemia?" and not res.excluded, q


def test_that_it_and_do_that_refer_to_what_the_last_answer_was_about(run_graph, resources) -> None:
    """Three follow-ups that failed: "how does it work for that?" after a list of diseases ("that" is not in the
    knowledge graph), "what other drugs target it?" after a drug's targets (nothing for "it" to refer to) and "which
    other drugs do that?" after a mechanism (no known entity)."""
    uses = _turn(run_graph, "that", {"question": "What does pegloticase treat?"}, interactive=False)
    first = uses["messages"][-1]["items"][0]
    res = resolve_followup("and how does it work for that?", uses["messages"], resources.linker)
    assert res.understood == f"How does pegloticase treat {first['name']}?"
    targets = _turn(run_graph, "it", {"question": "What does imatinib target?"}, interactive=False)
    target = targets["messages"][-1]["target"]
    assert target and target["id"] == targets["messages"][-1]["items"][0]["id"]
    res = resolve_followup("what other drugs target it?", targets["messages"], resources.linker)
    assert res.understood == f"What other drugs target {target['name']}?" and IMATINIB in res.excluded
    mech = _turn(run_graph, "do", {"question": "How does colchicine treat gout?"}, interactive=False)
    res = resolve_followup("which other drugs do that?", mech["messages"], resources.linker)
    assert res.understood == "Which other drugs treat Gout?" and {GOUT} < set(res.excluded)
    assert resolve_followup("which drugs do that?", mech["messages"], resources.linker).excluded == []
    # "that" as a determiner is left to the noun-phrase rule, and "that" alone with no slot is not a name
    assert not resolve_followup("what do you mean by that?", mech["messages"], resources.linker).rewritten


def test_what_else_a_drug_treats_leaves_out_a_listed_name_under_another_id(run_graph) -> None:
    """After "What does pegloticase treat?" (Podagra, Hyperuricemia), "what else does it treat?" listed Hyperuricemia
    again: MeSH's, where the first answer had listed HPO's, and a path to Podagra was still the evidence."""
    first = _turn(run_graph, "else", {"question": "What does pegloticase treat?"}, interactive=False)
    names = {i["name"].casefold() for i in first["messages"][-1]["items"]}
    assert names
    out = _turn(run_graph, "else", {"question": "what else does it treat?"}, interactive=False)
    assert out["understood_as"] == "What else does pegloticase treat?"
    assert not names & {a["name"].casefold() for a in out["ranked_answers"]}
    assert out["status"] == "ANSWERED" and not names & {i["name"].casefold() for i in out["messages"][-1]["items"]}
    # when every answer found has been named, the answer says so (it said that no chain was found at all)
    for _ in range(4):
        out = _turn(run_graph, "else", {"question": "anything else?"}, interactive=False)
        if out["status"] != "ANSWERED":
            break
    assert out["status"] == "NOT_FOUND"
    assert out["error"] == "every answer found with a verified mechanism has already been named in this conversation"


def test_a_drug_class_is_kept_or_replaced_in_follow_ups(run_graph) -> None:
    """After "Which beta blockers treat hypertension?", "what about ACE inhibitors?" became "How does Enalapril treat
    Hypertensive disorder?" (the class read as one of its drugs), and the class was lost on "and heart failure?"."""
    first = _turn(run_graph, "cls", {"question": "Which beta blockers treat hypertension?"}, interactive=False)
    disease = first["targets"][0]
    ace = _turn(run_graph, "cls", {"question": "what about ACE inhibitors?"}, interactive=False)
    assert ace["intent"] == "treats" and ace["drug_class"] == "ACE inhibitors" and ace["targets"] == [disease]
    assert ace["understood_as"].startswith("Which ACE inhibitors treat ")
    hf = _turn(run_graph, "cls", {"question": "and heart failure?"}, interactive=False)
    assert hf["intent"] == "treats" and hf["drug_class"] == "ACE inhibitors" and hf["targets"] != [disease]
    assert all(a["id"] in hf["among"] for a in hf["ranked_answers"])
    drug = _turn(run_graph, "cls", {"question": "what about enalapril?"}, interactive=False)
    assert drug["intent"] == "mechanism" and drug["understood_as"].startswith("How does Enalapril treat ")
    arbs = _turn(run_graph, "cls-lower", {"question": "how do ace inhibitors lower blood pressure?"}, interactive=False)
    arbs = _turn(run_graph, "cls-lower", {"question": "what about arbs?"}, interactive=False)
    assert arbs["understood_as"].startswith("How do ARBs treat "), arbs["understood_as"]  # as written: "How do arbs …"


def test_which_of_them_asks_about_the_drugs_just_listed(run_graph) -> None:
    """"Which of them treat heart failure?" read "them" as the last disease: "Which of Hypertensive disorder treat
    heart failure?"."""
    from agents.intent import out_of_scope

    _turn(run_graph, "them", {"question": "Which beta blockers treat hypertension?"}, interactive=False)
    hf = _turn(run_graph, "them", {"question": "which of them treat heart failure?"}, interactive=False)
    assert hf["understood_as"] == "Which beta blockers treat heart failure?" and hf["drug_class"] == "beta blockers"
    listed = _turn(run_graph, "them2", {"question": "What drug treats gout?"}, interactive=False)
    ids = [a["id"] for a in listed["ranked_answers"]]
    any_ = _turn(run_graph, "them2", {"question": "do any of them also treat hyperuricemia?"}, interactive=False)
    assert any_["understood_as"] == "Which of the listed drugs treat hyperuricemia?" and any_["intent"] == "treats"
    assert any_["drug_class"] == "listed drugs" and set(any_["among"]) <= set(ids) and any_["among"]
    assert {a["id"] for a in any_["ranked_answers"]} <= set(ids)
    assert out_of_scope("which of them is the cheapest?") == "prices"
    cheap = _turn(run_graph, "them2", {"question": "which of them is the cheapest?"}, interactive=False)
    assert cheap["understood_as"] == "How do the listed drugs work?" and str(cheap["status"]) == "ANSWERED", cheap["answer"]
    assert "not prices. What it holds: The listed drugs in the knowledge graph act on: " in cheap["answer"], cheap["answer"]
    # "which of those is an injection?" ended "No verified evidence: no known entity in the question", with no note
    shot = _turn(run_graph, "them2", {"question": "which of those is an injection?"}, interactive=False)
    assert "not routes of administration" in shot["answer"] and str(shot["status"]) == "ANSWERED", shot["answer"]


def test_which_of_them_acts_on_a_target_is_kept_to_the_listed_drugs(run_graph) -> None:
    """"Which of those targets AMPK?" after a list of drugs was read as "Which of the listed drugs targets AMPK?" but
    answered for any drug (Thiamine, primaquine …); and "which of them …" after a question about the listed drugs was
    read as "Which listed drugs …", a class medpath does not know, its answer not kept to them either."""
    listed = _turn(run_graph, "ampk", {"question": "What drugs treat hyperglycemia?"}, interactive=False)
    ids = [a["id"] for a in listed["ranked_answers"]]
    ampk = _turn(run_graph, "ampk", {"question": "which of those targets AMPK?"}, interactive=False)
    assert ampk["understood_as"] == "Which of the listed drugs target AMPK?" and ampk["intent"] == "targeted_by"
    assert ampk["among"] == ids and ampk["ranked_answers"], ampk["answer"]
    assert {a["id"] for a in ampk["ranked_answers"]} <= set(ids)
    then = _turn(run_graph, "ampk", {"question": "which of them treat type 2 diabetes?"}, interactive=False)
    assert then["understood_as"].startswith("Which of the listed drugs treat ")
    assert then["among"] == [a["id"] for a in ampk["ranked_answers"]]  # those the last answer listed


def test_which_of_them_after_how_they_work_is_still_about_the_listed_drugs(run_graph) -> None:
    """After "Which drugs treat seizures?" and "how do they work?" (whose answer lists targets), "which of them block
    sodium channels?" was answered for any drug (Flecainide, Lidocaine …): the targets' list held no drug."""
    listed = _turn(run_graph, "epi", {"question": "Which drugs treat seizures?"}, interactive=False)
    ids = [a["id"] for a in listed["ranked_answers"]]
    how = _turn(run_graph, "epi", {"question": "how do they work?"}, interactive=False)
    assert how["understood_as"] == "How do the listed drugs work?"
    them = _turn(run_graph, "epi", {"question": "which of them block sodium channels?"}, interactive=False)
    assert them["understood_as"] == "Which of the listed drugs block sodium channels?" and them["among"] == ids
    assert {a["id"] for a in them["ranked_answers"]} <= set(ids), them["answer"]
    # every sodium channel, as "which epilepsy drugs block sodium channels?" reads them: it was the most connected
    # one alone, which none of the listed drugs acts on (NOT_FOUND, though one acts on another sodium channel)
    assert them["status"] == "ANSWERED" and them["ranked_answers"], them["answer"]
    assert len(them["targets"]) > 5 and all(
        {t["tail"] for t in a["path"]["triples"]} & set(them["targets"]) for a in them["ranked_answers"])
    every = _turn(run_graph, "epi-all", {"question": "Which drugs block sodium channels?"}, interactive=False)
    assert len(every["targets"]) == 1  # about every drug: the most connected channel, whose drugs a reader expects
    # "work on" keeps to them too: it was answered with every drug acting on one sodium channel (Flecainide, …)
    work = _turn(run_graph, "epi", {"question": "which of them work on sodium channels?"}, interactive=False)
    assert work["among"] and set(work["among"]) <= set(ids), work["answer"]  # the last list: those that block one
    assert work["ranked_answers"] and {a["id"] for a in work["ranked_answers"]} <= set(work["among"]), work["answer"]


def test_after_a_kind_of_target_the_first_one_is_asked_about_the_thread_s_disease(run_graph) -> None:
    """"Which of them block sodium channels?" reads the kind as its 17 entities; the one its words link to was kept as
    the turn's disease, and "how does the first one work?" asked how pramocaine acts on Sodium channel protein type 5
    subunit alpha (NOT_FOUND: it acts on another sodium channel). It is asked how it treats the seizures instead, and
    the same after a NOT_FOUND turn of that kind about the drugs for epilepsy."""
    _turn(run_graph, "kind", {"question": "Which drugs treat seizures?"}, interactive=False)
    them = _turn(run_graph, "kind", {"question": "which of them block sodium channels?"}, interactive=False)
    assert len(them["targets"]) > 5 and them["ranked_answers"], them["answer"]
    first = them["ranked_answers"][0]["name"]
    how = _turn(run_graph, "kind", {"question": "how does the first one work?"}, interactive=False)
    assert how["understood_as"] == f"How does {first} treat Seizures?" and how["status"] == "ANSWERED", how["answer"]
    listed = _turn(run_graph, "kind-none", {"question": "what drugs treat epilepsy?"}, interactive=False)
    none = _turn(run_graph, "kind-none", {"question": "which of them block sodium channels?"}, interactive=False)
    assert none["status"] == "NOT_FOUND" and len(none["targets"]) > 5, none["answer"]
    again = _turn(run_graph, "kind-none", {"question": "how does the first one work?"}, interactive=False)
    assert again["understood_as"] == f"How does {listed['ranked_answers'][0]['name']} treat Epilepsy?", again["answer"]
    # "that target" is still the one the words link to, as "Which drugs block sodium channels?" reads them
    _turn(run_graph, "kind-that", {"question": "what drugs treat epilepsy?"}, interactive=False)
    _turn(run_graph, "kind-that", {"question": "which of them block sodium channels?"}, interactive=False)
    that = _turn(run_graph, "kind-that", {"question": "which drugs act on that target?"}, interactive=False)
    assert that["understood_as"] == "Which drugs act on Sodium channel protein type 5 subunit alpha?", that["answer"]


@pytest.mark.parametrize("question, disease", [("Are there other drugs for gout?", "gout"),
                                               ("any other treatments for CML?", "CML"),
                                               ("alternative medications for asthma", "asthma")])
def test_asking_for_other_drugs_for_a_disease_is_a_request_for_what_treats_it(question: str, disease: str) -> None:
    """"Are there other drugs for gout?" was read as the bare name "gout" ("no candidate path was found")."""
    parsed = parse_question(question)
    assert parsed is not None and parsed.intent is Intent.TREATS and parsed.disease == disease and not parsed.drug


def test_other_drugs_for_it_after_a_mechanism_are_for_its_disease(run_graph) -> None:
    """"are there other drugs for it?" after "How does imatinib treat GIST?" was "Are there other drugs for imatinib?"."""
    _turn(run_graph, "other-it", {"question": "How does imatinib treat GIST?"}, interactive=False)
    out = _turn(run_graph, "other-it", {"question": "are there other drugs for it?"}, interactive=False)
    assert out["understood_as"] == "Are there other drugs for Gastrointestinal stromal tumor?", out["answer"]
    assert out["intent"] == "treats" and out["ranked_answers"] and IMATINIB in out["excluded"]
    assert IMATINIB not in {a["id"] for a in out["ranked_answers"]}


def test_an_ordinal_in_the_drug_slot_picks_from_the_latest_list_of_drugs(run_graph) -> None:
    """"How does the second one treat lung cancer?" after "Which drugs target EGFR?" and "what cancers do they treat?"
    picked the second cancer ("How does Chronic lymphoid leukemia, disease treat lung cancer?")."""
    drugs = _turn(run_graph, "ord", {"question": "Which drugs target EGFR?"}, interactive=False)["ranked_answers"]
    cancers = _turn(run_graph, "ord", {"question": "what cancers do they treat?"}, interactive=False)
    assert len(cancers["ranked_answers"]) > 1 and all(a["id"] != drugs[1]["id"] for a in cancers["ranked_answers"])
    out = _turn(run_graph, "ord", {"question": "how does the second one treat lung cancer?"}, interactive=False)
    assert out["understood_as"] == f"How does {drugs[1]['name']} treat lung cancer?", out["answer"]
    disease = _turn(run_graph, "ord", {"question": "which drugs treat the second disease?"}, interactive=False)
    assert disease["understood_as"] == f"Which drugs treat {cancers['ranked_answers'][1]['name']}?"


def test_what_the_graph_does_not_hold_naming_nothing_is_about_the_thread_s_drug(run_graph) -> None:
    """"What are the side effects?" after "How does imatinib treat CML?" was NOT_FOUND ("no known entity in the
    question"); it is asked about imatinib, and told first that the graph holds no side effects."""
    _turn(run_graph, "se", {"question": "How does imatinib treat CML?"}, interactive=False)
    for question, topic in (("what are the side effects?", "side effects"), ("what is the dose?", "dosing")):
        out = _turn(run_graph, "se", {"question": question}, interactive=False)
        assert out["understood_as"] == question[0].upper() + question[1:-1] + " of imatinib?", out["answer"]
        assert out["sources"] == [IMATINIB] and f"The knowledge graph holds curated drug mechanisms, not {topic}." in out["answer"]
    alone = _turn(run_graph, "se-alone", {"question": "what are the side effects?"}, interactive=False)
    assert alone["status"] == "NOT_FOUND" and not alone["understood_as"]


@pytest.mark.parametrize(("first", "question", "understood"), [
    ("what drugs treat gout?", "what are the symptoms?", "What are the symptoms of Gout?"),
    ("how does allopurinol treat gout?", "what are the symptoms?", "What are the symptoms of Gout?"),
    ("what drugs treat gout?", "what diet helps?", "What diet helps with Gout?"),
])
def test_what_the_graph_does_not_hold_about_a_disease_is_about_the_thread_s_disease(run_graph, first: str, question: str,
                                                                                      understood: str) -> None:
    """"what are the symptoms?" after "what drugs treat gout?" was read as the disease "symptoms" fits by spelling,
    Pharyngitis (its alias "Sore throat symptom"), and answered with the drugs for it; "what diet helps?" was
    NOT_FOUND."""
    _turn(run_graph, f"disease-scope-{first}-{question}", {"question": first}, interactive=False)
    out = _turn(run_graph, f"disease-scope-{first}-{question}", {"question": question}, interactive=False)
    assert out["understood_as"] == understood and out["status"] == "ANSWERED", out["answer"]
    assert "Pharyngitis" not in out["answer"] and "Gout" in out["answer"], out["answer"]


@pytest.mark.parametrize(("question", "understood"), [
    ("what foods should I avoid?", "What foods should I avoid with warfarin?"),
    ("can i eat spinach?", "Can i eat spinach with warfarin?"),
    ("what should I avoid?", "What should I avoid with warfarin?"),
    ("what should I avoid while taking it?", "What should I avoid while taking warfarin?"),
    ("anything else to avoid?", "Anything else to avoid with warfarin?"),
])
def test_what_to_eat_with_the_thread_s_drug_is_said_to_be_outside_the_graph(run_graph, question: str, understood: str) -> None:
    """"what foods should I avoid?" after "how does warfarin work?" was NOT_FOUND ("no known entity in the question").
    So were "what should I avoid?", refused as a ranking of the thread's drugs ("sets two or more drugs side by side"),
    and "anything else to avoid?", whose "else" left warfarin out of its own answer."""
    _turn(run_graph, f"food-{question}", {"question": "how does warfarin work?"}, interactive=False)
    out = _turn(run_graph, f"food-{question}", {"question": question}, interactive=False)
    assert out["understood_as"] == understood and out["status"] == "ANSWERED", out["answer"]
    assert "The knowledge graph holds curated drug mechanisms, not what to eat or avoid. What it holds: " in out["answer"]


def test_ordinals_with_why_of_those_and_a_new_disease(run_graph) -> None:
    """After a list of drugs: "why the first one?" was "Why theophylline?" (what it is connected to), "what about the
    second one for COPD?" dropped the ordinal (the treats question again, for COPD), and "the second of those" was
    linked as a name. With no list at all, the question asked said that the thread had named nothing."""
    listed = _turn(run_graph, "ordw", {"question": "What drugs treat asthma?"}, interactive=False)["ranked_answers"]
    why = _turn(run_graph, "ordw", {"question": "why the first one?"}, interactive=False)
    assert why["understood_as"] == f"How does {listed[0]['name']} treat Asthma?", why["answer"]
    copd = _turn(run_graph, "ordw", {"question": "what about the second one for COPD?"}, interactive=False)
    assert copd["sources"] == [listed[1]["id"]] and copd["intent"] in ("mechanism", "relation"), copd["answer"]
    assert copd["understood_as"] == f"What about {listed[1]['name']} for COPD?"
    drugs = _turn(run_graph, "ordo", {"question": "Which drugs inhibit ABL1?"}, interactive=False)["ranked_answers"]
    second = _turn(run_graph, "ordo", {"question": "how does the second of those treat CML?"}, interactive=False)
    assert second["understood_as"] == f"How does {drugs[1]['name']} treat CML?", second["answer"]
    _turn(run_graph, "ordn", {"question": "How does imatinib treat CML?"})
    asked = _turn(run_graph, "ordn", {"question": "what about the second one?"})
    assert asked["status"] == "NEEDS_CLARIFICATION" and "lists anything it could pick" in asked["interrupt"]["question"]


def test_every_wording_of_a_mechanism_question_gets_the_same_evidence(run_graph) -> None:
    """"Is imatinib used for GIST?" answered through PDGFRA and "How does imatinib treat GIST?" through KIT: the
    question's embedding steers the walk and the ranker, and the extra words moved it. A mechanism question naming one
    drug and one disease is now embedded as the plain template with the graph's names."""
    evidence = []
    for i, q in enumerate(("How does imatinib treat GIST?", "Is imatinib used for GIST?", "does imatinib work for GIST?",
                           "Why would a doctor give imatinib to someone with a gastrointestinal stromal tumor?",
                           "What is the pathway from imatinib to gastrointestinal stromal tumor?")):
        out = _turn(run_graph, f"w{i}", {"question": q}, interactive=False, memory=False)
        assert out["status"] == "ANSWERED" and out["intent"] == ("relation" if "pathway" in q else "mechanism"), q
        evidence.append([(t["head"], t["relation"], t["tail"]) for t in out["evidence"]])
    assert all(e == evidence[0] for e in evidence), evidence


def test_a_question_listing_two_drugs_or_diseases_answers_the_first_and_names_the_rest(run_graph, resources) -> None:
    """"How does imatinib and dasatinib treat CML?" answered for dasatinib alone, and "how does imatinib treat CML and
    GIST?" for GIST alone, each without a word about the other name: the slot's whole text was linked by fuzzy match."""
    out = _turn(run_graph, "and", {"question": "How does imatinib and dasatinib treat CML (ph+)?"}, interactive=False)
    assert out["status"] == "ANSWERED" and out["sources"] == [IMATINIB] and out["targets"] == [CML]
    assert out["also_asked"] == ["How does dasatinib treat CML (ph+)?"]
    assert out["answer"].endswith(' You also asked: "How does dasatinib treat CML (ph+)?" Ask it next.')
    out = _turn(run_graph, "and2", {"question": "How does imatinib treat CML (ph+), GIST or gout?"}, interactive=False)
    assert out["targets"] == [CML] and out["also_asked"] == ["How does imatinib treat GIST?", "How does imatinib treat gout?"]
    for q in ("Compare imatinib and dasatinib for CML (ph+)", "How do imatinib and dasatinib differ in CML (ph+)?"):
        out = _turn(run_graph, "cmp", {"question": q}, interactive=False)  # compared: each drug's mechanism
        assert out["among"][0] == IMATINIB and len(out["among"]) == 2 and out["targets"] == [CML], q
        assert out["compared"] and out["also_asked"] == [], q
    # a name that holds a comma is one name, and a plain question asks nothing more
    for q in ("How does ribavirin treat Hepatitis C, Chronic?", "How does imatinib treat CML (ph+)?"):
        assert _turn(run_graph, "one", {"question": q}, interactive=False)["also_asked"] == [], q


def test_free_text_naming_two_drugs_and_a_disease_answers_the_first_and_names_the_other(run_graph, resources) -> None:
    """"tylenol vs advil for fever" (no rule reads it) walked from acetaminophen to ibuprofen and fever both, and
    said nothing of advil; a comparison got no word that the graph holds none. It now compares both drugs for fever
    (``tests/test_compare_for.py``), and so does "X or Y for Z", a choice between them; listing them with "and" and no
    comparing word still answers the first."""
    out = _turn(run_graph, "vs", {"question": "tylenol vs advil for fever"}, interactive=False, memory=False)
    assert out["status"] == "ANSWERED" and out["among"] == [resources.linker.link("acetaminophen").best.id,
                                                            resources.linker.link("ibuprofen").best.id]
    assert [resources.kg.name(y) for y in out["targets"]] == ["Fever"] and out["also_asked"] == [] and out["compared"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not comparisons")
    out = _turn(run_graph, "or", {"question": "Aspirin or ibuprofen for CML?"}, interactive=False, memory=False)
    assert out["also_asked"] == [] and out["compared"] and [resources.kg.name(y) for y in out["targets"]] == ["Chronic myeloid leukemia"]
    out = _turn(run_graph, "and", {"question": "Aspirin and ibuprofen for CML?"}, interactive=False, memory=False)
    assert out["also_asked"] == ["How does ibuprofen treat CML?"]
    # one drug and two diseases is still a question about how they relate, with nothing more to ask
    out = _turn(run_graph, "two", {"question": "tylenol, fever and pain"}, interactive=False, memory=False)
    assert out["also_asked"] == [] and len(out["targets"]) == 2



def test_a_patient_s_medication_picked_from_the_list_is_asked_about_its_condition(run_graph) -> None:
    """After "What medications is PAT_003 on?", "how does the second one work?" was NOT_FOUND: the patient answer
    listed nothing that "the second one" could pick. It now asks how that medication treats what it is taken for."""
    first = _turn(run_graph, "pat", {"question": "What medications is PAT_003 on?"}, interactive=False)
    items = first["messages"][-1]["items"]
    assert first["status"] == "ANSWERED" and len(items) >= 2 and all(i["for"] for i in items[:2])
    assert [i["name"] for i in items] == [e["tail"] for e in first["evidence"]]  # the answer's order
    second = _turn(run_graph, "pat", {"question": "how does the second one work?"}, interactive=False)
    assert second["understood_as"] == f"How does {items[1]['name']} treat {items[1]['for']['name']}?"
    assert second["status"] == "ANSWERED" and second["sources"] == [items[1]["id"]]
    # "and the first?" keeps to the first medication's own condition, not the second's
    again = _turn(run_graph, "pat", {"question": "and the first?"}, interactive=False)
    assert again["understood_as"] == f"How does {items[0]['name']} treat {items[0]['for']['name']}?"


def test_what_is_a_disease_answers_what_the_graph_holds_about_it(run_graph) -> None:
    """"What is gout?" and "Tell me about gout" were NOT_FOUND ("no candidate path was found within the walk
    budget"): the walk went forward from the disease. The graph holds mechanisms, so they are read as "What drugs
    treat Gout?", and the answer says so. ("What causes gout?" has an answer of its own: tests/test_causes.py.)"""
    for i, q in enumerate(("What is gout?", "Tell me about gout", "what's a heart attack")):
        out = _turn(run_graph, f"about{i}", {"question": q}, interactive=False)
        assert out["status"] == "ANSWERED" and out["intent"] == "treats" and out["ranked_answers"], q
        assert out["understood_as"].startswith("What drugs treat ") and "not descriptions of diseases" in out["answer"], q
    gout = _turn(run_graph, "about0", {"question": "What is gout?"}, interactive=False)
    assert gout["targets"] == [GOUT]
    # what else the graph links into it is offered ("the graph holds no causes" was said, and "What causes gout?" answers)
    assert '(ask "What causes Gout?" or "What are the symptoms of Gout?" for what it links into it)' in gout["answer"]
    # a name that fits several diseases is asked about; a question that names a drug too is left as it was
    assert _turn(run_graph, "about-dm", {"question": "What is diabetes?"})["status"] == "NEEDS_CLARIFICATION"
    pathway = _turn(run_graph, "about-path", {"question": "What is the pathway from imatinib to GIST?"}, interactive=False)
    assert pathway["intent"] == "relation" and not pathway["understood_as"]
    drug = _turn(run_graph, "about-drug", {"question": "What is imatinib?"}, interactive=False)
    assert drug["intent"] == "entity" and not drug["understood_as"]  # a drug is described by what it acts on


def test_they_after_a_list_of_drugs_is_all_of_them(run_graph, resources) -> None:
    """After "Which drugs target EGFR?", "what do they treat?" was read as "What do olmutinib treat?" (the first
    drug), "what cancers do they treat?" as a question about EGFR, and "which diseases do these drugs treat?" was
    NOT_FOUND ("these drugs" is not in the knowledge graph). A plural reference in the drug slot of a question about
    what drugs treat or target is every listed drug, the subject as a drug class is ("what do statins treat?")."""
    first = _turn(run_graph, "they", {"question": "Which drugs target EGFR?"}, interactive=False, memory=False)
    listed = [i["id"] for i in first["messages"][-1]["items"]]
    assert len(listed) >= 2
    for q, asked in (("what do they treat?", "What do the listed drugs treat?"),
                     ("which diseases do these drugs treat?", "Which diseases do the listed drugs treat?"),
                     ("what do they target?", "What do the listed drugs target?")):
        out = _turn(run_graph, "they", {"question": q}, interactive=False, memory=False)
        assert out["understood_as"] == asked and out["status"] == "ANSWERED", q
        assert out["drug_class"] == "listed drugs" and set(out["sources"]) <= set(out["among"]), q
        assert set(listed) <= set(out["among"]), q
    assert "The listed drugs in the knowledge graph act on: " in out["answer"]
    statins = _turn(run_graph, "class", {"question": "What do statins treat?"}, interactive=False, memory=False)
    assert statins["drug_class"] == "statins" and len(statins["sources"]) > 1 and statins["intent"] == "indications"
    assert "Statins in the knowledge graph have verified mechanisms for: " in statins["answer"]


def test_which_of_them_after_what_the_listed_drugs_treat_is_of_the_drugs(run_graph) -> None:
    """"which of them treat schizophrenia?" after "what do they treat?" about the drugs for the D2 receptor was "Which
    of D(2) dopamine receptor treat schizophrenia?": that turn listed diseases, and named neither a drug nor a disease."""
    first = _turn(run_graph, "of-listed", {"question": "which drugs target the dopamine D2 receptor?"}, interactive=False,
                  memory=False)
    listed = [i["id"] for i in first["messages"][-1]["items"]]
    _turn(run_graph, "of-listed", {"question": "what do they treat?"}, interactive=False, memory=False)
    out = _turn(run_graph, "of-listed", {"question": "which of them treat schizophrenia?"}, interactive=False, memory=False)
    assert out["understood_as"] == "Which of the listed drugs treat schizophrenia?", out["answer"]
    assert out["status"] == "ANSWERED" and out["ranked_answers"], out["answer"]
    assert {d["id"] for d in out["ranked_answers"]} <= set(listed), out["answer"]


def test_that_target_is_the_one_the_drug_acts_on_as_the_verb_says(run_graph) -> None:
    """After "What does atorvastatin target?" (lipoprotein lipase, which it activates, then HMG-CoA reductase, which
    it inhibits), "which drugs also inhibit that?" was read as about lipoprotein lipase, the first one listed."""
    first = _turn(run_graph, "sign", {"question": "What does atorvastatin target?"}, interactive=False, memory=False)
    items = first["messages"][-1]["items"]
    assert {i.get("sign") for i in items} >= {-1, 1}, items  # both directions are listed: the case this guards
    inhibited = next(i["name"] for i in items if i["sign"] == -1)
    activated = next(i["name"] for i in items if i["sign"] == 1)
    for i, (q, name) in enumerate((("which drugs also inhibit that?", inhibited), ("which drugs activate it?", activated),
                                   ("which other drugs block that target?", inhibited))):
        _turn(run_graph, f"sign{i}", {"question": "What does atorvastatin target?"}, interactive=False, memory=False)
        out = _turn(run_graph, f"sign{i}", {"question": q}, interactive=False, memory=False)
        assert name in out["understood_as"], (q, out["understood_as"])


def test_which_drugs_also_act_leaves_out_the_thread_s_drug(run_graph) -> None:
    """"Which drugs also inhibit it?" after "What does allopurinol target?" listed allopurinol first."""
    first, _ = run_graph({"question": "What does allopurinol target?"}, thread="also", interactive=False)
    drug = first["sources"][0]
    out, _ = run_graph({"question": "which drugs also inhibit it?"}, thread="also", interactive=False)
    assert out["understood_as"] == "Which drugs also inhibit Xanthine dehydrogenase/oxidase?"
    assert out["excluded"] == [drug] and out["ranked_answers"]
    assert drug not in {a["id"] for a in out["ranked_answers"]}


def test_do_they_share_a_target_compares_the_thread_s_two_drugs(run_graph) -> None:
    """"do they share a target?" after sertraline and fluoxetine was "Do fluoxetine share a target?", answered with what
    fluoxetine is connected to; named, the two were walked from one to the other (NOT_FOUND, "no chain of relations")."""
    _turn(run_graph, "share", {"question": "How does sertraline treat depression?"}, interactive=False)
    _turn(run_graph, "share", {"question": "what about fluoxetine?"}, interactive=False)
    out = _turn(run_graph, "share", {"question": "do they share a target?"}, interactive=False)
    assert out["understood_as"] == "Do sertraline and fluoxetine share a target?", out["answer"]
    assert "sertraline and fluoxetine both act on: Sodium-dependent serotonin transporter" in out["answer"]
    assert "not comparisons" not in out["answer"]
    named = _turn(run_graph, "share2", {"question": "do sertraline and fluoxetine share a target?"}, interactive=False)
    assert named["status"] == "ANSWERED" and named["compared"], named["answer"]
    other = _turn(run_graph, "share3", {"question": "which drugs share a target with imatinib?"}, interactive=False)
    assert other["understood_as"] == "Which other drugs inhibit Tyrosine-protein kinase ABL1?", other["answer"]


def test_a_refused_follow_up_about_the_listed_drugs_points_to_no_study(run_graph) -> None:
    """"which of those are beta blockers?" after drugs for heart failure, none of them one, ended with a pointer to a
    study of beta-blocker therapy: the refusal is about the listed drugs."""
    _turn(run_graph, "hf-beta", {"question": "What drugs treat heart failure?"}, interactive=False)
    out = _turn(run_graph, "hf-beta", {"question": "which of those are beta blockers?"}, interactive=False)
    assert out["status"] == "ANSWERED" and "is among the beta blockers" in out["answer"], out["answer"]
    assert "PubMedQA" not in out["answer"] and not out["citations"]


def test_a_kind_of_drug_the_class_table_lacks_is_said_to_be_unknown(run_graph) -> None:
    """"are any of them vaccines?" after a list of drugs was NOT_FOUND with "no known entity in the question"."""
    _turn(run_graph, "bio", {"question": "What drugs treat psoriasis?"}, interactive=False)
    out = _turn(run_graph, "bio", {"question": "are any of them vaccines?"}, interactive=False)
    assert out["status"] == "NOT_FOUND" and 'medpath knows no drug class named "vaccines"' in out["answer"], out["answer"]
    other = _turn(run_graph, "bio", {"question": "which of them are effective?"}, interactive=False)
    assert "no drug class named" not in other["answer"]  # no kind of drug: read as before


def test_a_class_asked_for_alone_after_a_disease_s_drugs_is_kept_to_the_disease(run_graph) -> None:
    """"any biologics?" after "What drugs treat psoriasis?" listed what every biologic in the graph acts on, and "are
    there any biologics?" listed the class's drugs: both now ask "Which biologics treat Psoriasis?". A question about
    the listed drugs ("are any of them biologics?") is still about them, and "what other NSAIDs are there?" still
    lists the class."""
    for i, q in enumerate(("any biologics?", "are there any biologics?")):
        _turn(run_graph, f"any-bio{i}", {"question": "What drugs treat psoriasis?"}, interactive=False)
        out = _turn(run_graph, f"any-bio{i}", {"question": q}, interactive=False)
        assert out["understood_as"] == "Which biologics treat Psoriasis?", (q, out["answer"])
        assert out["status"] == "ANSWERED" and out["drug_class"] == "biologics" and out["ranked_answers"], out["answer"]
    listed = _turn(run_graph, "any-bio2", {"question": "What drugs treat psoriasis?"}, interactive=False)["messages"][-1]["items"]
    them = _turn(run_graph, "any-bio2", {"question": "are any of them biologics?"}, interactive=False)
    assert them["understood_as"] != "Which biologics treat Psoriasis?", them["answer"]
    assert all(i["name"] in them["understood_as"] for i in listed), them["answer"]
    _turn(run_graph, "any-nsaid", {"question": "What drugs treat pain?"}, interactive=False)
    other = _turn(run_graph, "any-nsaid", {"question": "what other NSAIDs are there?"}, interactive=False)
    assert other["understood_as"] == "Which drugs are NSAIDs?", other["answer"]


def test_a_pronoun_before_a_chemical_still_refers_back(resources) -> None:
    """"does it lower uric acid?" after how allopurinol treats gout was asked of uric acid alone ("Uric Acid is
    connected to …"): a chemical named after the pronoun was taken for what "it" points at inside the question."""
    messages = [{"role": "user", "content": "How does allopurinol treat gout?"},
                {"role": "assistant", "intent": "mechanism", "drug": {"id": "MESH:D000493", "name": "allopurinol", "type": "Drug"},
                 "disease": {"id": "MESH:D006073", "name": "Gout", "type": "Disease"}, "items": []}]
    for q, expected in (("does it lower uric acid?", "Does allopurinol lower uric acid?"),
                        ("does it reduce histamine?", "Does allopurinol reduce histamine?"),
                        ("Cetirizine for colds - how does it work?", "Cetirizine for colds - how does it work?"),
                        ("how long does it take for metformin to work?", "how long does it take for metformin to work?")):
        assert resolve_followup(q, messages, resources.linker).understood == expected, q


def test_a_question_joined_by_and_is_parsed_as_itself() -> None:
    """"and what else targets TNF?" after what adalimumab targets was read as a name alone (what TNF is connected to)."""
    for q, plain in (("and what else targets TNF?", "what else targets TNF?"), ("so how does imatinib work?", "how does imatinib work?"),
                     ("And which drugs treat gout?", "which drugs treat gout?")):
        assert parse_question(q) == parse_question(plain) is not None, q
    assert parse_question("and gout?") is None


def test_a_kind_named_by_its_target_asks_which_listed_drugs_act_on_it(run_graph) -> None:
    """"which of these are xanthine oxidase inhibitors?" after a list of drugs was NOT_FOUND: 'medpath knows no drug class
    named "xanthine oxidase inhibitors"'. A kind the class table lacks that names a target it now asks which of the
    listed drugs act on it, as "which of them inhibit xanthine oxidase?" does."""
    listed = _turn(run_graph, "xo", {"question": "what drugs lower uric acid?"}, interactive=False)
    out = _turn(run_graph, "xo", {"question": "which of these are xanthine oxidase inhibitors?"}, interactive=False)
    assert out["status"] == "ANSWERED" and out["understood_as"] == "Which of the listed drugs inhibit xanthine oxidase?", out
    names = {a["name"] for a in listed["ranked_answers"]}
    assert out["ranked_answers"] and {a["name"] for a in out["ranked_answers"]} <= names, out["answer"]
    assert all(a["path"]["triples"][-1]["tail_name"] == "Xanthine dehydrogenase/oxidase" for a in out["ranked_answers"])
    other = _turn(run_graph, "bio2", {"question": "What drugs treat psoriasis?"}, interactive=False)
    other = _turn(run_graph, "bio2", {"question": "are any of them qwzx inhibitors?"}, interactive=False)
    assert out["understood_as"] != other["understood_as"] and "no drug class named" in other["answer"], other["answer"]


def test_and_a_class_repeats_the_last_question_with_it(run_graph) -> None:
    """"and beta blockers?" after "how do ACE inhibitors lower blood pressure?" was asked what beta blockers target (a
    class is no entity, so the bare name after "and" was not read as "what about beta blockers?")."""
    _, then = in_thread(run_graph, "and-class", "how do ACE inhibitors lower blood pressure?", "and beta blockers?")
    assert then["understood_as"] == "How do beta blockers treat Hypertensive disorder?", then["answer"]
    assert then["status"] == "ANSWERED" and then["answer"].split('" ', 1)[1].startswith("Beta blockers act on Hypertensive")


def test_what_else_works_that_way_asks_for_the_thread_drug_s_alternatives(run_graph) -> None:
    """"what else works that way?" after "How does sertraline work?" was NOT_FOUND ("no known entity in the question")."""
    _, same = in_thread(run_graph, "alike", "How does sertraline work?", "what else works that way?")
    assert same["understood_as"] == "Which other drugs inhibit Sodium-dependent serotonin transporter?", same["answer"]
    assert same["status"] == "ANSWERED" and "sertraline" not in {a["name"] for a in same["ranked_answers"]}
    _, others = in_thread(run_graph, "alike2", "How does omeprazole treat GERD?", "are there others like that?")
    assert others["understood_as"].startswith("Which other drugs inhibit "), others["answer"]


def test_a_question_out_of_scope_that_names_a_class_is_not_about_the_thread_s_drug(run_graph) -> None:
    """"What happens if I stop taking statins?" after a question about imatinib was "… statins of imatinib?"."""
    _turn(run_graph, "stop", {"question": "How does imatinib treat CML?"}, interactive=False)
    out = _turn(run_graph, "stop", {"question": "What happens if I stop taking statins?"}, interactive=False)
    assert "imatinib" not in out["understood_as"] and "imatinib" not in out["answer"], out["answer"]
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not stopping a drug."), out["answer"]
    # "can I stop it suddenly?" was told what sertraline is connected to, with no note (since stop 102)
    _turn(run_graph, "stop-now", {"question": "how does sertraline help anxiety"}, interactive=False)
    now = _turn(run_graph, "stop-now", {"question": "can I stop it suddenly?"}, interactive=False)
    assert "The knowledge graph holds curated drug mechanisms, not stopping a drug." in now["answer"], now["answer"]


def test_it_after_a_question_about_a_protein_is_the_protein(run_graph) -> None:
    """"what does it do?" after "What is EGFR?" asked what "it" meant: the drug slot took only drugs."""
    _turn(run_graph, "egfr", {"question": "What is EGFR?"}, interactive=False)
    out = _turn(run_graph, "egfr", {"question": "what does it do?"}, interactive=False)
    assert out["understood_as"] == "What does Epidermal growth factor receptor do?", out["answer"]
    listed = _turn(run_graph, "egfr2", {"question": "Which drugs block EGFR?"}, interactive=False)
    how = _turn(run_graph, "egfr2", {"question": "how does it work?"}, interactive=False)
    assert how["understood_as"].startswith(f"How does {listed['ranked_answers'][0]['name']} ")  # a listed drug first


def test_it_wanted_as_a_target_after_a_question_about_a_protein_is_the_protein(run_graph) -> None:
    """"which drugs inhibit it?" after "what does ABL1 do?" was "Which drugs inhibit Chronic myeloid leukemia?": the
    first item the answer listed."""
    _turn(run_graph, "abl1-it", {"question": "what does ABL1 do?"}, interactive=False)
    out = _turn(run_graph, "abl1-it", {"question": "which drugs inhibit it?"}, interactive=False)
    assert out["understood_as"] == "Which drugs inhibit Tyrosine-protein kinase ABL1?", out["answer"]
    assert out["status"] == Status.ANSWERED.value and "imatinib" in [a["name"] for a in out["ranked_answers"]], out["answer"]


def test_it_in_a_question_of_where_it_is_expressed_is_a_protein(run_graph) -> None:
    """"what cells express it?" right after rituximab's target asked where rituximab is expressed, and "where is it
    expressed?" after how imatinib treats CML asked it of the disease: what is expressed is a gene or a protein."""
    _turn(run_graph, "cd20", {"question": "What is rituximab's target?"}, interactive=False)
    out = _turn(run_graph, "cd20", {"question": "what cells express it?"}, interactive=False)
    assert out["understood_as"] == "What cells express B-lymphocyte antigen CD20?", out["answer"]
    assert "Where the knowledge graph places B-lymphocyte antigen CD20: B cell." in out["answer"], out["answer"]
    _turn(run_graph, "abl1-where", {"question": "How does imatinib treat CML?"}, interactive=False)
    where = _turn(run_graph, "abl1-where", {"question": "where is it expressed?"}, interactive=False)
    assert where["understood_as"] == "Where is Tyrosine-protein kinase ABL1 expressed?", where["answer"]


def test_what_it_is_used_for_after_a_protein_s_cells_is_the_thread_s_drug(run_graph) -> None:
    """"what is it used for?" after rituximab's target and the cells that express it was "What is B-lymphocyte antigen
    CD20 used for?": a protein is not used for anything; the thread's drug is."""
    _turn(run_graph, "cd20-use", {"question": "What is rituximab's target?"}, interactive=False)
    _turn(run_graph, "cd20-use", {"question": "what cells express it?"}, interactive=False)
    for asked in ("what is it used for?", "what diseases is it used for?"):
        out = _turn(run_graph, "cd20-use", {"question": asked}, interactive=False)
        assert out["understood_as"].startswith("What ") and out["understood_as"].endswith(" is rituximab used for?"), out["answer"]
        assert out["intent"] == "indications", out["answer"]
    where = _turn(run_graph, "cd20-use", {"question": "where is it expressed?"}, interactive=False)
    assert where["understood_as"] == "Where is B-lymphocyte antigen CD20 expressed?", where["answer"]  # still the protein


def test_which_drugs_raise_it_after_a_substance_s_role_in_a_disease_is_the_substance(run_graph) -> None:
    """"Which drugs raise it?" after "What is the role of dopamine in Parkinson's?" asked which drugs raise the
    disease; a substance the thread was about is what drugs raise or block."""
    _turn(run_graph, "dopamine-raise", {"question": "What is the role of dopamine in Parkinson's?"}, interactive=False)
    out = _turn(run_graph, "dopamine-raise", {"question": "Which drugs raise it?"}, interactive=False)
    assert out["understood_as"] == "Which drugs raise Dopamine?" and out["status"] == Status.ANSWERED.value, out["answer"]
    _turn(run_graph, "abl1-raise", {"question": "How does imatinib treat CML?"}, interactive=False)
    drug = _turn(run_graph, "abl1-raise", {"question": "Which other drugs inhibit it?"}, interactive=False)
    assert "Chronic myeloid leukemia" in drug["understood_as"], drug["understood_as"]  # a drug is no substance here


@pytest.mark.parametrize("ask", ["for what disease?", "and for which conditions?"])
def test_which_diseases_after_a_drug_s_mechanism_asks_what_it_treats(run_graph, ask: str) -> None:
    """"for what disease?" after "What's the mechanism of donepezil?" was "How does donepezil treat what disease?",
    NOT_FOUND ('"what disease" is not in the knowledge graph')."""
    _turn(run_graph, f"for-what-{ask}", {"question": "What's the mechanism of donepezil?"}, interactive=False)
    out = _turn(run_graph, f"for-what-{ask}", {"question": ask}, interactive=False)
    assert out["understood_as"] == "What does donepezil treat?" and out["intent"] == "indications", out["answer"]
    assert out["status"] == Status.ANSWERED.value, out["answer"]


def test_an_ordinal_with_no_noun_before_a_verb_picks_from_the_list(run_graph) -> None:
    """"how does the first work?" after a list of drugs was NOT_FOUND ('"first" is not in the knowledge graph'), and
    "what does the second target?" was "What does valganciclovir?": "target" read as the noun of "the second target"."""
    listed = _turn(run_graph, "ord-verb", {"question": "What drugs treat HIV?"}, interactive=False)
    first, second = (a["name"] for a in listed["ranked_answers"][:2])
    how = _turn(run_graph, "ord-verb", {"question": "how does the first work?"}, interactive=False)
    assert how["understood_as"] == f"How does {first} treat Human immunodeficiency virus infection?", how["answer"]
    targets = _turn(run_graph, "ord-verb", {"question": "what does the second target?"}, interactive=False)
    assert targets["understood_as"] == f"What does {second} target?" and targets["intent"] == "targets", targets["answer"]


def test_a_class_named_in_the_singular_in_a_follow_up_is_the_class(run_graph) -> None:
    """"what about statin?" after "What does aspirin target?" was understood as "What does nystatin target?"."""
    _turn(run_graph, "statin", {"question": "What does aspirin target?"}, memory=False)
    out = _turn(run_graph, "statin", {"question": "what about statin?"}, memory=False)
    assert out["status"] == "ANSWERED" and "nystatin" not in out["answer"].lower(), out["answer"]
    assert "Statins in the knowledge graph act on: 3-hydroxy-3-methylglutaryl-coenzyme A reductase" in out["answer"]


@pytest.mark.parametrize(("first", "correction", "understood"), [
    ("how does imatinib treat CML?", "no, I meant dasatinib", "How does Dasatinib treat Chronic myeloid leukemia?"),
    ("what does aspirin target?", "sorry, I meant ibuprofen", "What does Ibuprofen target?"),
    ("what drugs treat gout?", "actually I meant asthma", "What drug treats Asthma?"),
])
def test_a_correction_puts_the_name_in_the_last_question(run_graph, first: str, correction: str, understood: str) -> None:
    """"no, I meant dasatinib" after how imatinib treats CML was answered with what dasatinib is connected to, CML
    dropped; "actually I meant pseudogout" was NOT_FOUND, "no known entity in the question"."""
    _turn(run_graph, f"correct-{correction}", {"question": first}, interactive=False)
    out = _turn(run_graph, f"correct-{correction}", {"question": correction}, interactive=False)
    assert out["understood_as"] == understood and out["status"] == "ANSWERED", out["answer"]


def test_i_mean_before_a_question_is_left_out(run_graph) -> None:
    out = _turn(run_graph, "i-mean", {"question": "I mean, how does aspirin work?"}, interactive=False)
    assert out["intent"] == "targets" and out["status"] == "ANSWERED" and not out["understood_as"], out["answer"]
    alone = _turn(run_graph, "i-meant", {"question": "I meant imatinib"}, interactive=False)
    assert alone["status"] == "ANSWERED" and alone["sources"] == [IMATINIB], alone["answer"]


def test_what_about_it_is_the_thread_s_entity(run_graph) -> None:
    """"what about it?" after "gout" was "What drug treats it?", NOT_FOUND ('"it" is not in the knowledge graph')."""
    _turn(run_graph, "about-it", {"question": "gout"}, interactive=False)
    out = _turn(run_graph, "about-it", {"question": "what about it?"}, interactive=False)
    assert out["status"] == "ANSWERED" and out["targets"] == [GOUT] and "Gout" in out["understood_as"], out["answer"]
