""""Which drugs treat hypertension by inhibiting ACE?": the disease is the disease, and the answer keeps to the drugs
that act on ACE in the asked direction (it listed the drugs that act on ACE, for ACE)."""

from __future__ import annotations

import pytest

from agents.intent import parse_question
from agents.state import DRUG_TYPES, Status
from tools.answers import TARGET_TYPES, acting_on

ACE = "UniProt:P12821"
URIC_ACID = "MESH:D014527"


@pytest.mark.parametrize("question, disease, via, sign", [
    ("Which drugs treat hypertension by inhibiting ACE?", "hypertension", "ACE", -1),
    ("Drugs for hypertension that block ACE", "hypertension", "ACE", -1),
    ("What drugs that target ACE treat hypertension?", "hypertension", "ACE", 0),
    ("What drugs that inhibit ACE treat hypertension?", "hypertension", "ACE", -1),
    ("Which drugs treat gout by lowering uric acid?", "gout", "uric acid", -1),
    ("What treats gout through xanthine oxidase?", "gout", "xanthine oxidase", 0),
    ("which medications treat asthma by activating the beta-2 adrenergic receptor", "asthma", "beta-2 adrenergic receptor", 1),
    # no way of acting named: "by" needs its verb
    ("Which drugs treat infections caused by Staphylococcus aureus?", "infections caused by Staphylococcus aureus", "", 0),
    ("What drugs treat hypertension?", "hypertension", "", 0),
    ("How does lisinopril treat hypertension by inhibiting ACE?", "hypertension", "ACE", -1),
    ("How does imatinib treat CML?", "CML", "", 0),
    # how a follow-up names the drugs a via answer kept to
    ("Which drugs that inhibit or lower Angiotensin-converting enzyme treat Congestive heart failure?",
     "Congestive heart failure", "Angiotensin-converting enzyme", -1),
    ("Which drugs treat gout by inhibiting or lowering uric acid?", "gout", "uric acid", -1),
])
def test_the_way_the_drugs_act_is_split_off_the_disease(question: str, disease: str, via: str, sign: int) -> None:
    p = parse_question(question)
    assert p is not None and p.intent.value in ("treats", "mechanism")
    assert (p.disease, p.via, p.via_sign) == (disease, via, sign)


def test_the_drugs_that_act_on_an_entity(resources) -> None:
    kg = resources.kg
    lowering = acting_on(kg, ACE, DRUG_TYPES, -1)
    assert {"lisinopril", "Enalaprilat", "Captopril"} <= {kg.name(d) for d in lowering}
    assert "Enalapril" in {kg.name(d) for d in lowering}  # through what it becomes (enalaprilat)
    assert acting_on(kg, ACE, DRUG_TYPES, 1) == []  # no drug in the graph raises ACE
    assert set(lowering) <= set(acting_on(kg, ACE, DRUG_TYPES))
    # uric acid is no target: drugs act on it through one (allopurinol → xanthine dehydrogenase → uric acid)
    assert "allopurinol" in {kg.name(d) for d in acting_on(kg, URIC_ACID, DRUG_TYPES, -1)}


def test_a_treatment_question_by_a_target_keeps_to_its_drugs(run_graph, resources) -> None:
    out, _ = run_graph({"question": "Which drugs treat hypertension by inhibiting ACE?"}, thread="via", interactive=False,
                       memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "treats"
    assert [resources.kg.name(t) for t in out["targets"]] == ["Hypertensive disorder"] and out["via"] == [ACE]
    allowed = set(acting_on(resources.kg, ACE, DRUG_TYPES, -1))
    assert out["ranked_answers"] and all(a["id"] in allowed for a in out["ranked_answers"])
    first = out["ranked_answers"][0]["path"]
    assert ACE in {t["tail"] for t in first["triples"]}, first  # the evidence goes through ACE
    assert out["answer"].startswith("Drugs that inhibit or lower Angiotensin-converting enzyme with a verified mechanism "
                                    "for Hypertensive disorder"), out["answer"]


@pytest.mark.parametrize("question, error", [
    ("Which drugs treat hypertension by activating ACE?",
     "no drugs that activate or raise Angiotensin-converting enzyme in the knowledge graph"),
    ("Which drugs treat gout by inhibiting zorblaxase?", '"zorblaxase" is not in the knowledge graph'),
])
def test_no_drug_acts_that_way(run_graph, question: str, error: str) -> None:
    out, _ = run_graph({"question": question}, thread="via-none", interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and error in out["error"], out["error"]


def test_a_mechanism_question_by_a_target_answers_for_the_disease_through_it(run_graph, resources) -> None:
    out, _ = run_graph({"question": "How does lisinopril treat hypertension by inhibiting ACE?"}, thread="via-mech",
                       interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism" and out["via"] == [ACE]
    assert [resources.kg.name(t) for t in out["targets"]] == ["Hypertensive disorder"]  # it answered lisinopril → ACE
    nodes = [t["head"] for t in out["evidence"]] + [out["evidence"][-1]["tail"]]
    assert ACE in nodes and resources.kg.name(nodes[-1]) == "Hypertensive disorder", nodes


def test_the_drugs_that_act_on_it_alone_come_first(run_graph, resources) -> None:
    """"… by blocking TNF" opened with rebamipide, lenalidomide and pomalidomide, which act on much else; the drugs
    that act on TNF alone (the anti-TNF antibodies and etanercept) come first now."""
    out, _ = run_graph({"question": "What drugs treat rheumatoid arthritis by blocking TNF?"}, thread="via-tnf",
                       interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and len(out["ranked_answers"]) == 5
    kg = resources.kg
    assert all(kg.degree(a["id"]) == 1 for a in out["ranked_answers"][:3]), [a["name"] for a in out["ranked_answers"]]
    assert all(kg.name(a["path"]["triples"][0]["tail"]) == "Tumor necrosis factor" for a in out["ranked_answers"][:3])


def test_a_kind_of_target_named_by_what_it_handles_is_that_kind(resources) -> None:
    """"sodium channels" linked to Sodium and "serotonin receptors" to Serotonin: the name inside the mention lacked
    its last word. Every name holding all its words (or the word its members are named by: 5-hydroxytryptamine) is
    linked now, the most connected first."""
    from agents.intent import SLOT_TYPES
    from tools.linker import LinkStatus

    for mention, words, wrong in [("sodium channels", (("sodium",), ("channel",)), "Sodium"),
                                  ("serotonin receptors", (("serotonin", "hydroxytryptamine"), ("receptor",)), "Serotonin")]:
        out = resources.linker.link(mention, SLOT_TYPES["via"])
        assert out.status is LinkStatus.LINKED and out.best is not None and out.best.method == "words"
        assert all(all(any(w in c.name.casefold() for w in ws) for ws in words) for c in out.candidates), out.candidates
        assert wrong not in {c.name for c in out.candidates}
    assert resources.linker.link("calcium channels").best.name == "Calcium Channels"  # an exact name is kept
    assert resources.linker.link("gout attacks", SLOT_TYPES["disease"]).best.name == "Gout"  # no kind of target


def test_drugs_that_act_on_a_kind_of_target(run_graph, resources) -> None:
    out, _ = run_graph({"question": "Which drugs treat epilepsy by blocking sodium channels?"}, thread="via-na",
                       interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and len(out["via"]) > 5  # every sodium channel the graph holds
    allowed = {d for x in out["via"] for d in acting_on(resources.kg, x, DRUG_TYPES, -1)}
    assert out["ranked_answers"] and all(a["id"] in allowed for a in out["ranked_answers"])
    assert out["answer"].startswith("Drugs that inhibit or lower sodium channels with a verified mechanism for Epilepsy")


def _of_the_kind(kg, ids: list[str], words: tuple[str, ...]) -> bool:
    """Every id is a protein, gene family or complex whose name holds every word."""
    return all(kg.node(x).type in TARGET_TYPES and all(w in kg.name(x).casefold() for w in words) for x in ids)


def test_drugs_that_block_a_kind_named_exactly_act_on_its_members(run_graph, resources) -> None:
    """"what drugs block calcium channels?" links the gene family named exactly "Calcium Channels", which two drugs act
    on (chlorzoxazone, fendiline). The calcium channel blockers act on its members, so the answer covers every target
    of that kind, the drugs acting directly on the most of them first."""
    kg = resources.kg
    out, _ = run_graph({"question": "what drugs block calcium channels?"}, interactive=False, memory=False)
    targets = out["targets"]
    assert out["status"] is Status.ANSWERED and len(targets) > 2 and _of_the_kind(kg, targets, ("calcium", "channel"))
    assert out["answer"].startswith(f"Drugs that inhibit calcium channels (any of the {len(targets)} entities whose "
                                    "names hold those words): "), out["answer"]
    reached = [len({e.tail for e in kg.out_edges(a["id"]) if e.tail in targets}) for a in out["ranked_answers"]]
    assert len(reached) >= 3 and reached == sorted(reached, reverse=True) and reached[0] > 1, reached


def test_drugs_for_a_disease_acting_on_a_kind_named_exactly(run_graph, resources) -> None:
    """"Which drugs treat hypertension by blocking calcium channels?" listed only the two drugs acting on the generic
    entry; the kind's processes are no channel either (through them, beta blockers were listed)."""
    out, _ = run_graph({"question": "Which drugs treat hypertension by blocking calcium channels?"}, interactive=False,
                       memory=False)
    assert out["status"] is Status.ANSWERED and _of_the_kind(resources.kg, out["via"], ("calcium", "channel"))
    allowed = {d for x in out["via"] for d in acting_on(resources.kg, x, DRUG_TYPES, -1)}
    assert len(out["ranked_answers"]) > 2 and all(a["id"] in allowed for a in out["ranked_answers"]), out["answer"]


def test_a_follow_up_keeps_the_way_the_drugs_act(run_graph) -> None:
    """"and for heart failure?" after a via answer asks about the same drugs; the rewritten question's "or lower"
    was read as part of the entity's name ("Read "or lower Angiotensin-converting enzyme" as …")."""
    run_graph({"question": "Which drugs treat hypertension by inhibiting ACE?"}, thread="via-next", interactive=False,
              memory=False)
    out, _ = run_graph({"question": "and for heart failure?"}, thread="via-next", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["via"] == [ACE] and out["ranked_answers"]
    assert out["answer"].startswith('Understood as: "Which drugs that inhibit or lower Angiotensin-converting enzyme treat '
                                    'Congestive heart failure?" Drugs that inhibit or lower'), out["answer"]


@pytest.mark.parametrize("question, disease, via, sign", [
    ("which gout drugs inhibit xanthine oxidase?", "gout", "xanthine oxidase", -1),
    ("What hypertension medications block ACE?", "hypertension", "ACE", -1),
    ("Which asthma drugs activate the beta-2 receptor?", "asthma", "beta-2 receptor", 1),
    # "used for" and "prescribed for" made four words or more before the verb, and nothing parsed
    ("which drugs used for gout act on xanthine oxidase?", "gout", "xanthine oxidase", 0),
    ("which medications prescribed for hypertension block ACE?", "hypertension", "ACE", -1),
])
def test_a_disease_s_drugs_that_act_on_a_target(resources, question: str, disease: str, via: str, sign: int) -> None:
    """"Which diabetes drugs act on AMPK?" listed every drug that acts on AMPK, for any disease (the words before
    "drugs" were read as a drug class the linker does not know)."""
    from agents.via import for_a_disease

    p = for_a_disease(parse_question(question), question, resources.linker)
    assert (p.intent.value, p.disease, p.via, p.via_sign, p.among) == ("treats", disease, via, sign, "")
    for kept in ("which beta blockers act on ADRB1?", "which cancer drugs target EGFR?"):  # a class; a kind of disease
        assert for_a_disease(parse_question(kept), kept, resources.linker).intent.value == "targeted_by", kept


def test_a_disease_s_drugs_that_act_on_a_target_are_answered_for_the_disease(run_graph, resources) -> None:
    out, _ = run_graph({"question": "which gout drugs inhibit xanthine oxidase?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and "with a verified mechanism for Gout" in out["answer"], out["answer"]
    xo = [m["entity"]["id"] for m in out["mentions"] if m["slot"] == "via"]
    acting = set(acting_on(resources.kg, xo[0], DRUG_TYPES, -1))
    assert out["ranked_answers"] and all(a["id"] in acting for a in out["ranked_answers"])
