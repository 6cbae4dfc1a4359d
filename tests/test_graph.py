"""The compiled graph end to end on real data: answers, NOT_FOUND, errors, interrupt and resume."""

from __future__ import annotations

import itertools
import re

import pytest
from langgraph.types import Command

from agents.explainer import _template
from agents.intent import out_of_scope
from agents.reviewer import judge_features
from agents.state import Intent, State, Status
from tools.linker import GUESSED_METHODS
from tools.path_ranker import effect

IMATINIB_ID = "MESH:D000068877"
IMATINIB_GOLD = {
    ("MESH:D000068877", "decreases activity of", "UniProt:P00519"),
    ("UniProt:P00519", "causes", "MESH:D015464"),
}


def _keys(triples):
    return {(t["head"], t["relation"], t["tail"]) for t in triples}


def test_imatinib_mechanism(run_graph) -> None:
    out, _ = run_graph({"question": "How does imatinib treat CML (ph+)?"})
    assert out["status"] is Status.ANSWERED
    assert _keys(out["evidence"]) == IMATINIB_GOLD
    assert "—decreases activity of→" in out["evidence_text"]
    assert any("uniprot.org" in c.get("url", "") for c in out["citations"])
    assert out["review"]["decision"] == "accept"
    assert set(out["timings"]) == {"planner", "retriever", "reviewer", "memory", "explainer"}


def test_acetaminophen_fever_path_connects(run_graph) -> None:
    out, _ = run_graph({"question": "How does acetaminophen treat Fever?"})
    assert out["status"] is Status.ANSWERED
    ev = out["evidence"]
    assert ev[0]["head"] == "MESH:D000082" and ev[-1]["tail"] == "MESH:D005334"
    assert all(a["tail"] == b["head"] for a, b in itertools.pairwise(ev))


def test_unknown_entities_not_found(run_graph) -> None:
    out, _ = run_graph({"question": "How does zorblaxin treat glimmerpox?"})
    assert out["status"] is Status.NOT_FOUND
    assert out["answer"].startswith("No verified evidence")


def test_bad_question_is_an_error_state(run_graph) -> None:
    out, _ = run_graph({"question": "   "})
    assert out["status"] is Status.ERROR and "empty" in out["error"]


def test_interrupt_and_resume(run_graph) -> None:
    out, snap = run_graph({"question": "How does metformin treat diabetes?"}, thread="clar")
    assert "__interrupt__" in out
    payload = out["__interrupt__"][0].value
    assert payload["kind"] == "clarify" and len(payload["candidates"]) >= 2
    assert snap.next == ("planner",)
    pick = next(i for i, c in enumerate(payload["candidates"], 1) if c["id"] == "MESH:D003924")
    out, snap = run_graph(Command(resume=str(pick)), thread="clar")
    assert out["status"] is Status.ANSWERED
    assert out["evidence"][-1]["tail"] == "MESH:D003924"
    assert not snap.next


def test_insulin_is_answered_for_the_plainest_drug_and_says_so(run_graph) -> None:
    """"insulin" is the protein insulin in the graph and the first word of six drugs' names. The answer was about
    insulin glulisine, which a dense seed put in the protein's place, and never said so. The drugs that "insulin"
    heads have the same relations in the graph, so which one is meant changes nothing: no question is asked
    (tests/test_clarify_answers.py), the plainest is answered for, and the answer names the others."""
    out, _ = run_graph({"question": "How does insulin treat diabetes mellitus type 1?"}, thread="which-insulin")
    assert "__interrupt__" not in out and out["clarification"]["alike"], out
    assert out["status"] is Status.ANSWERED and out["sources"] == ["MESH:D007328"], out["answer"]
    assert out["evidence"][0]["head"] == "MESH:D007328" and out["evidence"][-1]["tail"] == "MESH:D003922"
    assert "; answered for Insulin human. Insulin human acts on Diabetes mellitus type 1" in out["answer"], out["answer"]


def test_non_interactive_picks_best(run_graph) -> None:
    out, _ = run_graph({"question": "How does metformin treat diabetes?"}, thread="auto", interactive=False)
    assert "__interrupt__" not in out and out["clarification"]["auto"] is True


def test_a_path_that_never_reaches_the_named_disease_is_no_answer(run_graph) -> None:
    """The graph has no chain from verapamil to Tourette's syndrome. The dense back-off's path to a calcium channel
    used to be accepted and told as "verapamil acts on … through a 1-step mechanism"."""
    out, _ = run_graph({"question": "How does verapamil treat Gilles de la Tourette's syndrome?"}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and not out["evidence"] and out["walk"]["chain_hops"] is None
    assert "the knowledge graph has no chain of relations from verapamil to Gilles de la Tourette's syndrome" in out["answer"]
    assert all(j["decision"] == "reject" for j in out["review"]["judgments"])
    # what it does hold is a question away ("Why is warfarin used in atrial fibrillation?" said nothing more)
    assert ('(ask "What does verapamil treat?" or "What drugs treat Gilles de la Tourette\'s syndrome?" for what it holds)'
            in out["answer"]), out["answer"]


def test_a_disease_no_chain_reaches_points_to_the_narrower_ones_a_chain_does(run_graph) -> None:
    """"How does rituximab treat lymphoma?" links the finding Lymphoma, which no chain from rituximab reaches; the
    answer said only that. It now names the narrower diseases a chain reaches, and the question it suggests is
    answered."""
    out, _ = run_graph({"question": "How does rituximab treat lymphoma?"}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and out["walk"]["chain_hops"] is None
    narrower = out["walk"]["narrower"]
    assert narrower and all(k["hops"] > 0 for k in narrower) and any("lymphoma" in k["name"] for k in narrower)
    assert [k["hops"] for k in narrower] == sorted(k["hops"] for k in narrower)
    suggested = f'How does rituximab treat {narrower[0]["name"]}?'
    assert f'(ask "{suggested}")' in out["answer"], out["answer"]
    then, _ = run_graph({"question": suggested}, interactive=False, memory=False)
    assert then["status"] is Status.ANSWERED and then["targets"] == [narrower[0]["id"]], then["answer"]
    # a target that is no disease has no narrower diseases: Blood named Hypocalcemia, an alias ending in "blood"
    blood, _ = run_graph({"question": "Does lithium need blood tests?"}, interactive=False, memory=False)
    assert blood["walk"]["chain_hops"] is None and "narrower" not in blood["walk"], blood["answer"]


def test_a_curated_chain_beyond_the_walk_is_found_as_a_shortest_chain(run_graph) -> None:
    """dapsone → … → Leprosy is curated with seven steps through hubs; the walk stops at six."""
    out, _ = run_graph({"question": "How does dapsone treat Leprosy?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and len(out["evidence"]) == 7
    assert out["evidence"][0]["head"] == "MESH:D003622" and out["evidence"][-1]["tail"] == "MESH:D007918"
    assert any(f["component"] == "walker" and "shortest chains" in f["fallback"] for f in out["fallbacks"])
    assert "A shortest chain of 7 steps" in out["answer"]


def test_a_question_about_what_the_graph_does_not_hold_is_told_so(run_graph) -> None:
    """"Side effects of ibuprofen" used to be answered with its targets as if they were its side effects."""
    from agents.intent import out_of_scope

    assert [out_of_scope(q) for q in ("What are the side effects of ibuprofen?", "How much aspirin should I take?",
                                      "Does warfarin interact with aspirin?", "How does imatinib treat CML?")] == [
        "side effects", "dosing", "drug interactions", ""]
    out, _ = run_graph({"question": "What are the side effects of ibuprofen?"}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not side effects. What it holds: ")
    out, _ = run_graph({"question": "How does imatinib treat CML (ph+)?"}, interactive=False, memory=False)
    assert out["answer"].startswith("imatinib acts on")


def test_what_a_drug_causes_is_asked_about_both_names(run_graph) -> None:
    """"Does metformin cause lactic acidosis?" answered "Metformin is connected to: Hyperglycemia; …": the free-text
    scan found metformin only, and nothing said that "lactic acidosis" is no name of the graph."""
    from agents.intent import parse_question

    parsed = parse_question("Does metformin cause lactic acidosis?")
    assert parsed is not None and (parsed.intent.value, parsed.drug, parsed.disease) == ("relation", "metformin", "lactic acidosis")
    out, _ = run_graph({"question": "Does metformin cause lactic acidosis?"}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not side effects. ")
    assert '"lactic acidosis" is not in the knowledge graph' in out["answer"]
    out, _ = run_graph({"question": "Does aspirin cause stomach ulcers?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["evidence"][-1]["tail_name"] == "Gastric ulcer"
    assert out["evidence"][0]["head_name"] == "Aspirin" and "not side effects. What it holds: " in out["answer"]
    # what the chain's signs say: aspirin takes away Prostaglandin E2, which treats the ulcer
    assert out["answer"].endswith("Along this chain Aspirin raises Gastric ulcer.")
    out, _ = run_graph({"question": "Does febuxostat cause gout?"}, interactive=False, memory=False)
    assert out["answer"].endswith("Along this chain Febuxostat lowers Gout: it treats it, rather than causes it.")


def test_whether_a_drug_worsens_a_disease_is_told_by_the_chain_direction(run_graph) -> None:
    """"Is propranolol safe in asthma?" and "can propranolol make asthma worse?" were told the chain as any mechanism
    ("Propranolol acts on Asthma through …"), though its signs say it raises asthma. The answer now says which way
    the chain goes, read from the evidence's own relations."""
    told = {1: "raises Asthma: it would worsen it.", -1: "lowers Asthma."}
    for q in ("Is propranolol safe in asthma?", "can propranolol make asthma worse?", "does propranolol worsen asthma?",
              "is propranolol bad for asthma?", "Should I avoid propranolol if I have asthma?",
              "Can people with asthma take propranolol?", "Is it ok to take propranolol with asthma?"):  # told as any mechanism
        out, _ = run_graph({"question": q}, interactive=False, memory=False)
        sign = effect([t["relation"] for t in out["evidence"]])
        assert out["status"] is Status.ANSWERED and sign in told, q
        assert out["answer"].endswith(f"Along this chain Propranolol {told[sign]}"), q
    plain, _ = run_graph({"question": "How does propranolol treat asthma?"}, interactive=False, memory=False)
    assert "Along this chain" not in plain["answer"]


def test_a_drug_taken_with_a_disease_is_a_question_of_safety_not_of_interactions(run_graph) -> None:
    """"Can I take aspirin with a stomach ulcer?" said the graph holds no drug interactions, and told the chain as any
    mechanism; its signs say aspirin takes away Prostaglandin E2, which treats the ulcer."""
    out, _ = run_graph({"question": "Can I take aspirin with a stomach ulcer?"}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not safety. What it holds: ")
    assert out["answer"].endswith("Along this chain Aspirin raises Gastric ulcer: it would worsen it."), out["answer"]
    two, _ = run_graph({"question": "Can I take ibuprofen with aspirin?"}, interactive=False, memory=False)
    assert two["answer"].startswith("The knowledge graph holds curated drug mechanisms, not drug interactions.")


def test_which_drugs_act_on_a_protein(run_graph, resources) -> None:
    """"What drugs target EGFR?" used to be read as "what is EGFR connected to" and listed diseases."""
    from agents.intent import parse_question
    from agents.state import Intent

    for q in ("What drugs target EGFR?", "Which drugs inhibit ACE?", "What binds the Beta-1 adrenergic receptor?",
              "Inhibitors of Tyrosine-protein kinase ABL1", "List drugs that act on ABL1"):
        assert parse_question(q).intent is Intent.TARGETED_BY, q
    assert parse_question("What does imatinib target?").intent is Intent.TARGETS
    out, _ = run_graph({"question": "Which drugs inhibit Tyrosine-protein kinase ABL1?"}, interactive=False, memory=False)
    assert out["intent"] == "targeted_by" and out["status"] is Status.ANSWERED
    ranked = out["ranked_answers"]
    assert "MESH:D000068877" in {a["id"] for a in ranked}  # imatinib
    for a in ranked:
        assert resources.kg.node(a["id"]).type in ("Drug", "ChemicalSubstance")
        assert a["path"]["triples"][0]["head"] == a["id"] and a["path"]["triples"][-1]["tail"] == "UniProt:P00519"
    assert out["answer"].startswith("Drugs that inhibit Tyrosine-protein kinase ABL1: ")  # the verb, kept to its direction
    # a disease there asks what treats it
    out, _ = run_graph({"question": "What drugs target gout?"}, interactive=False, memory=False)
    assert out["intent"] == "treats"


def test_what_a_drug_treats_is_a_disease_even_beyond_the_walk(run_graph, resources) -> None:
    """No disease lies within the walk's three steps of desmopressin: the dense back-off's path to its receptor was
    accepted, and the answer said "Desmopressin has a verified mechanism for: Vasopressin V2 receptor"."""
    out, _ = run_graph({"question": "What does desmopressin treat?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["ranked_answers"]
    assert {resources.kg.node(a["id"]).type for a in out["ranked_answers"]} <= {"Disease", "PhenotypicFeature"}
    assert resources.kg.node(out["evidence"][-1]["tail"]).type in ("Disease", "PhenotypicFeature")
    assert "Vasopressin V2 receptor" not in out["answer"].split(". Best evidence")[0]
    assert any(f["component"] == "walker" and "shortest chains" in f["fallback"] for f in out["fallbacks"])
    # a drug's curated mechanisms mostly lie beyond the one-sided walk: no note that "the walk joined none"
    assert "shortest chain" not in out["answer"]


def test_a_drug_class_in_a_which_drug_question_keeps_the_answer_to_its_drugs(run_graph, resources) -> None:
    """"Which statins lower cholesterol?" used to match no rule and was answered as cholesterol's neighbours."""
    out, _ = run_graph({"question": "Which statins lower cholesterol?"}, interactive=False, memory=False)
    assert out["intent"] == "treats" and out["status"] is Status.ANSWERED and out["drug_class"] == "statins"
    assert out["ranked_answers"] and all(a["name"].lower().endswith("vastatin") for a in out["ranked_answers"])
    assert all(a["path"]["triples"][0]["head"] == a["id"] for a in out["ranked_answers"])
    assert out["evidence"][0]["head"] in out["among"]
    assert out["answer"].startswith("Statins with a verified mechanism for Hypercholesterolemia: ")
    out, _ = run_graph({"question": "Which statins treat gout?"}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and out["ranked_answers"] == []
    assert f"none of the {len(out['among'])} statins in the knowledge graph" in out["error"]
    out, _ = run_graph({"question": "Which drugs treat gout?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["among"] == [] and out["drug_class"] == ""


@pytest.mark.parametrize(("question", "klass"), [("what other antibiotics treat acne?", "antibiotics"),
                                                ("which other statins lower cholesterol?", "statins")])
def test_other_members_of_a_class_are_still_the_class(run_graph, resources, question: str, klass: str) -> None:
    """"what other antibiotics treat acne?" read "other antibiotics" as no class, and listed levomefolic acid and
    tazarotene first (stop 97)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    members = {c.id for c in resources.linker.drug_class(klass)}
    assert out["status"] is Status.ANSWERED and out["drug_class"] == klass, out["answer"]
    assert out["ranked_answers"] and all(a["id"] in members for a in out["ranked_answers"]), out["ranked_answers"]


def test_lowering_a_measure_asks_about_its_high_form(run_graph, resources) -> None:
    out, _ = run_graph({"question": "How does lisinopril lower blood pressure?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED
    assert "ypertens" in resources.kg.name(out["evidence"][-1]["tail"])


def test_a_drug_class_asked_for_without_a_question_word(run_graph) -> None:
    """"Statins for high cholesterol" matched no rule; "aspirin for headache", which names no class, still connects
    the two names."""
    out, _ = run_graph({"question": "statins for high cholesterol"}, interactive=False, memory=False)
    assert out["intent"] == "treats" and out["drug_class"] == "statins" and out["status"] is Status.ANSWERED
    assert all(a["name"].lower().endswith("vastatin") for a in out["ranked_answers"])
    out, _ = run_graph({"question": "aspirin for headache"}, interactive=False, memory=False)
    assert out["intent"] == "relation" and out["drug_class"] == ""


def test_a_drug_class_as_the_subject_lists_what_most_of_its_drugs_act_on(run_graph, resources) -> None:
    """"How do beta blockers work?" asked which beta blocker was meant; the class acts on what most of its drugs act
    on directly, each counted."""
    from tools.answers import shared_targets, types_of

    out, _ = run_graph({"question": "How do beta blockers work?"}, interactive=False, memory=False)
    assert "__interrupt__" not in out and out["intent"] == "targets" and out["status"] is Status.ANSWERED
    assert out["drug_class"] == "beta blockers" and set(out["sources"]) <= set(out["among"])
    counts = [a["path"]["features"]["class_drugs"] for a in out["ranked_answers"]]
    assert counts == sorted(counts, reverse=True) and counts[0] > 1
    assert out["ranked_answers"][0]["name"] == "Beta-1 adrenergic receptor"
    assert out["answer"].startswith("Beta blockers in the knowledge graph act on: Beta-1 adrenergic receptor (")
    kg = resources.kg
    drugs = [c.id for c in resources.linker.drug_class("statins")]
    found = shared_targets(kg, drugs, ("Protein",), types_of(kg))
    for target, path in found:
        assert path.nodes[0] in drugs and path.nodes[-1] == target
        assert all(kg.has_edge(*e) for e in path.edges) and [e.relation for e in path.edges[:-1]] in ([], ["has metabolite"])
        acting = {d for d in drugs for x in kg.out_edges(d) for y in ([x] if x.tail == target else [
            y for y in (kg.out_edges(x.tail) if x.relation == "has metabolite" else []) if y.tail == target])}
        assert path.features["class_drugs"] == len(acting)
    # simvastatin and lovastatin act on HMG-CoA reductase through their hydroxy acids: every statin is counted
    assert found[0][1].features["class_drugs"] == len(drugs) == 8


def test_a_class_s_targets_are_told_in_the_order_counted_with_their_own_edges(run_graph) -> None:
    """"What do statins target?" listed "Apolipoprotein A-I (0 of 8)", the end of one statin's longer path, and the
    penicillins' targets came "(5 of 18); (9 of 18)": the list was the reviewed walk's ends, not the counted
    targets. "penicillin", singular, names the class, and the answer called it "Penicillin … act on"."""
    for q, subject in (("What do statins target?", "Statins"), ("What is the mechanism of action of penicillin?", "Penicillins"),
                       ("what do beta blocker drugs target?", "Beta blockers")):  # was NOT_FOUND: "beta blocker drugs"
        out, _ = run_graph({"question": q}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED and out["answer"].startswith(f"{subject} in the knowledge graph act on: "), q
        told = [int(n) for n in re.findall(r"\((\d+) of \d+\)", out["answer"].split(". Best evidence")[0])]
        assert told and 0 not in told and told == sorted(told, reverse=True), out["answer"]
        first = out["evidence"]  # the evidence is a counted target's own edge (or a prodrug's two)
        assert len(first) in (1, 2) and first[-1]["tail"] == out["ranked_answers"][0]["id"] and first[0]["head"] in out["among"]


def test_a_contraindication_is_not_told_as_a_mechanism(run_graph) -> None:
    """DrugMechDB curates "Paclitaxel —contraindicated for→ Hypertensive disorder"; asked how paclitaxel treats
    hypertension, the answer used to call that edge "a 1-step mechanism"."""
    out, _ = run_graph({"question": "How does paclitaxel treat hypertension?"})
    assert out["status"] is Status.ANSWERED
    assert [t["relation"] for t in out["evidence"]] == ["contraindicated for"]
    assert "mechanism:" not in out["answer"]
    assert "no mechanism by which Paclitaxel treats Hypertensive disorder" in out["answer"]
    assert "contraindicated for" in out["answer"]


def test_an_answer_lists_each_name_once(run_graph) -> None:
    """The graph has two entities named "Hyperuricemia" (MeSH and HPO); "What does pegloticase treat?" listed the
    name twice."""
    out, _ = run_graph({"question": "What does pegloticase treat?"})
    assert out["status"] is Status.ANSWERED
    listed = out["answer"].split(":", 1)[1].split(". Best evidence")[0]
    names = [n.strip().casefold() for n in listed.split(",")]
    assert "hyperuricemia" in names and len(names) == len(set(names))


def test_the_ranked_answers_hold_each_name_once(run_graph) -> None:
    """"What does metformin treat?" ranked Hyperglycemia second and third (HPO and MeSH ids, one name): the answer
    list that the API, the CLI and the web page show held four diseases in five places."""
    out, _ = run_graph({"question": "What does metformin treat?"}, interactive=False, memory=False)
    names = [a["name"].casefold() for a in out["ranked_answers"]]
    assert "hyperglycemia" in names and len(names) == len(set(names)) == 5, names
    # the name's MeSH disease, not its HPO phenotype: "What does meprobamate treat?" listed HPO "Anxiety" first, and
    # the curated indication, MeSH "Anxiety", went when the list kept one entry per name
    out, _ = run_graph({"question": "What does meprobamate treat?"}, interactive=False, memory=False)
    assert out["ranked_answers"][0]["id"] == "MESH:D001007", out["ranked_answers"][0]


def test_what_a_drug_treats_lists_the_diseases_its_paths_lower_first(run_graph) -> None:
    """"What is paracetamol used for?" opened with Gastric ulcer: Acetaminophen —decreases activity of→ PTGS1
    —increases abundance of→ Prostaglandin E2 —treats→ Gastric ulcer says it takes away what treats the ulcer."""
    from memory.protocols import Edge
    from tools.answers import lowers as path_lowers
    from tools.walker import CandidatePath

    def lowers(path: dict) -> bool:
        edges = tuple(Edge(t["head"], t["relation"], t["tail"]) for t in path["triples"])
        return path_lowers(CandidatePath(edges, (1.0,) * len(edges)))

    out, _ = run_graph({"question": "What is paracetamol used for?"}, interactive=False, memory=False)
    assert out["intent"] == "indications" and out["status"] is Status.ANSWERED and out["sources"] == ["MESH:D000082"]
    flags = [lowers(a["path"]) for a in out["ranked_answers"]]
    assert flags and flags[0] and flags == sorted(flags, reverse=True), flags
    assert lowers({"triples": out["evidence"]}) and "Gastric ulcer" not in out["answer"]


def test_a_name_read_by_a_guess_is_said_so(run_graph) -> None:
    """"How does dipyrone treat pain?" answered how Dipyridamole treats pain, with no word that "dipyrone" is in
    no name of the graph: the linker's embedding similarity had read it as the nearest drug."""
    out, _ = run_graph({"question": "How does dipyrone treat pain?"}, interactive=False, memory=False)
    drug = next(m for m in out["mentions"] if m["mention"] == "dipyrone")
    assert drug["entity"]["method"] in GUESSED_METHODS
    assert out["answer"].startswith(f"Read \"dipyrone\" as {drug['entity']['name']}: the closest name in the knowledge graph. ")
    plain, _ = run_graph({"question": "How does imatinib treat CML?"}, interactive=False, memory=False)
    assert plain["status"] is Status.ANSWERED and not plain["answer"].startswith("Read ")  # an acronym is read, not guessed


def test_equally_good_paths_to_different_answers_are_not_rivals(run_graph) -> None:
    """"What does prednisone treat?" was NOT_FOUND: its three best paths (prednisolone treats Addison disease,
    adrenal insufficiency and congenital adrenal hyperplasia) tie, so each held a third of the ranker's mass, and the
    judge read a third as doubt. Different answers of a one-sided question do not compete."""
    cands = [{"score": 0.5, "hops": 2, "features": {}, "triples": [{"head": "D", "relation": "treats", "tail": t}]}
             for t in ("Y1", "Y2", "Y3")]
    by_end = judge_features(cands, 1, ["D"], [], 0.0, lambda c: c["triples"][-1]["tail"])
    assert by_end["share"] == 1.0 and by_end["score_gap"] == 2.0
    assert judge_features(cands, 1, ["D"], [], 0.0)["share"] == 1 / 3  # a two-ended question's pool: one answer

    out, _ = run_graph({"question": "What does prednisone treat?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["review"]["decision"] == "accept"
    assert {"Addison Disease", "Adrenal Insufficiency"} <= {a["name"] for a in out["ranked_answers"]}


def test_a_listed_name_the_graph_does_not_know_is_named(run_graph) -> None:
    """"What do imatinib and foobarzumab treat?" read the pair as imatinib, "the closest name", and said nothing of
    foobarzumab: the answer now says which name the graph does not know, whichever place it has."""
    for q in ("What do imatinib and foobarzumab treat?", "What do foobarzumab and imatinib target?"):
        out, _ = run_graph({"question": q}, interactive=False, memory=False)
        assert out["status"] is Status.ANSWERED, out["answer"]
        assert out["answer"].startswith('"foobarzumab" is not a name in the knowledge graph; answered for imatinib. '), out["answer"]


def test_a_listed_name_beside_an_alias_the_graph_knows_is_named(run_graph) -> None:
    """"Which drugs target both EGFR and HER2?" said it read "both EGFR and HER2" as Epidermal growth factor receptor, by
    a guess: EGFR is that protein's alias, and HER2 is not in the graph."""
    out, _ = run_graph({"question": "which drugs target both EGFR and HER2?"}, interactive=False, memory=False)
    assert out["answer"].startswith('"HER2" is not a name in the knowledge graph; answered for Epidermal growth factor receptor. '), \
        out["answer"]


def test_a_fuzzy_link_through_a_word_of_an_alias_is_said_to_be_a_guess(run_graph) -> None:
    """"What treats mono?" listed PARP inhibitors as if "mono" named Poly [ADP-ribose] polymerase 3: the linker's
    token match found the word in one of its aliases, and only embedding and n-gram links were said to be guesses."""
    out, _ = run_graph({"question": "What treats mono?"}, interactive=False, memory=False)
    ent = next(m for m in out["mentions"] if m["mention"] == "mono")["entity"]
    assert ent["method"] == "fuzzy"
    assert out["answer"].startswith(f"Read \"mono\" as {ent['name']}: the closest name in the knowledge graph. ")
    typo, _ = run_graph({"question": "How does acetominophen treat fever?"}, interactive=False, memory=False)
    assert typo["status"] is Status.ANSWERED and typo["answer"].startswith("Acetaminophen ")


def test_what_a_drug_treats_is_found_along_a_chain_as_long_as_a_two_ended_question_searches(run_graph) -> None:
    """"What does tafamidis treat?" was NOT_FOUND: its one curated mechanism (→ Amyloidosis) has seven steps, and the
    one-sided shortest-chain search stopped at five, where a question naming both ends searches eight. "What does
    bedaquiline treat?" was NOT_FOUND too: the graph types Bedaquiline a Disease, so the search took the drug itself
    for the answer and looked no further."""
    out, _ = run_graph({"question": "What does tafamidis treat?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and "Amyloidosis" in {a["name"] for a in out["ranked_answers"]}
    assert len(out["evidence"]) > 5
    odd, _ = run_graph({"question": "What does bedaquiline treat?"}, interactive=False, memory=False)
    assert odd["status"] is Status.ANSWERED
    assert odd["ranked_answers"] and all(a["name"] != "Bedaquiline" for a in odd["ranked_answers"])


def test_what_a_drug_treats_fuses_its_paths_with_pagerank_downstream(run_graph) -> None:
    """"What does ibuprofen treat?" listed the ends of its best paths only (Fever, Common cold, Allergic rhinitis,
    Headache disorder, Arthralgia), and not Pain, which a curated mechanism of ibuprofen ends at. The diseases are
    now fused with PageRank downstream from the drug, as "which drug treats Y" fuses its drugs with PageRank upstream
    from Y; a disease that only PageRank proposes gets a walk of its own, and every listed one carries a path from
    the drug to it that lowers it."""
    out, _ = run_graph({"question": "What does ibuprofen treat?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and "Pain" in {a["name"] for a in out["ranked_answers"]}
    drug = out["sources"][0]
    for a in out["ranked_answers"]:
        triples = a["path"]["triples"]
        assert triples[0]["head"] == drug and triples[-1]["tail"] == a["id"]


def test_a_listed_name_that_holds_a_comma_is_not_read_as_two(run_graph) -> None:
    """"What does olmutinib treat?" read "…: Actinic keratosis, Chronic lymphoid leukemia, disease, Familial
    Mediterranean fever": the graph's name "Chronic lymphoid leukemia, disease" became two answers. Such a list is
    joined by semicolons. (Olmutinib's list now opens with Non-small cell lung cancer; ibrutinib's holds the name.)"""
    out, _ = run_graph({"question": "What does ibrutinib treat?"}, interactive=False, memory=False)
    names = [i["name"] for i in out["messages"][-1]["items"]]
    assert any("," in n for n in names), names  # the case this guards; the test can fail only while it holds
    assert "; ".join(names) in out["answer"]


def test_which_drugs_block_a_receptor_lists_none_that_activates_it(run_graph) -> None:
    """"Which drugs block the beta-2 adrenergic receptor?" listed labetalol and then salbutamol, pirbuterol,
    tulobuterol and salmeterol, which activate it: the verb's direction was not read. "Act on" keeps both."""
    from tools.answers import asked_sign
    from tools.path_ranker import net_sign

    assert [asked_sign(q) for q in ("Which drugs block X?", "Which antagonists bind X?", "Which drugs activate X?",
                                    "What are the agonists of X?", "Which drugs act on X?")] == [-1, -1, 1, 1, 0]

    def signs(out: dict) -> list[int]:
        return [s if n else 0 for s, n in (net_sign([t["relation"] for t in a["path"]["triples"]])
                                           for a in out["ranked_answers"])]

    both, _ = run_graph({"question": "Which drugs act on the beta-2 adrenergic receptor?"}, interactive=False, memory=False)
    assert 1 in signs(both)  # agonists are among the drugs acting on it: the pool holds what must be left out
    out, _ = run_graph({"question": "Which drugs block the beta-2 adrenergic receptor?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["ranked_answers"] and 1 not in signs(out), signs(out)
    assert all(t["relation"] not in ("positively regulates", "increases activity of") for t in out["evidence"])
    assert "Drugs that inhibit Beta-2 adrenergic receptor: " in out["answer"]  # says what they do, as asked
    assert "Drugs that act on Beta-2 adrenergic receptor: " in both["answer"]
    # a list of chemicals alone is not called drugs ("Drugs that inhibit Lipoprotein lipase: Fatty Acids")
    lpl, _ = run_graph({"question": "Which drugs inhibit lipoprotein lipase?"}, interactive=False, memory=False)
    kinds = {a["type"] for a in lpl["ranked_answers"]}
    assert kinds == {"ChemicalSubstance"} and lpl["answer"].startswith("Chemicals that inhibit Lipoprotein lipase: "), kinds


def test_a_drug_with_no_chain_to_a_target_is_told_so(run_graph) -> None:
    """"What does thiethylperazine target?" said "no candidate path was found within the walk budget", as if a larger
    budget might find one: the graph holds none (its one curated mechanism is "subclass of antiemetic"). And what a
    drug targets is near it or not at all: seven steps from Telavancin to Interleukin-6 is no target."""
    out, _ = run_graph({"question": "What does thiethylperazine target?"}, interactive=False, memory=False)
    assert out["status"] is Status.NOT_FOUND and out["walk"]["chain_hops"] is None
    assert "has no chain of relations from thiethylperazine to any protein, gene family or macromolecular complex" in out["answer"]
    far, _ = run_graph({"question": "What does telavancin target?"}, interactive=False, memory=False)
    assert far["status"] is Status.NOT_FOUND and far["walk"]["chain_hops"] > 5
    assert f"(the nearest is {far['walk']['chain_hops']} steps away)" in far["answer"]


def test_a_drug_with_no_target_says_what_it_acts_on_directly(run_graph, resources) -> None:
    """"What does pegloticase target?" said only that no chain leads to a protein: pegloticase acts on uric acid, a
    chemical. The answer now gives the drug's own edges."""
    kg = resources.kg
    out, _ = run_graph({"question": "What does pegloticase target?"}, interactive=False, memory=False)
    own = [f"{kg.name(e.head)} {e.relation} {kg.name(e.tail)}" for e in kg.out_edges(out["sources"][0])]
    assert out["status"] is Status.NOT_FOUND and own, out["answer"]
    assert out["answer"].endswith(f" What the knowledge graph records it acting on directly: {'; '.join(own[:3])}.")


def test_a_target_a_drug_has_no_chain_to_gets_what_the_drug_acts_on(run_graph, resources) -> None:
    """"Does colchicine inhibit xanthine oxidase?" gave as its nearest evidence a chain into an NADPH oxidase activator,
    which answered nothing asked; with no chain from the drug to the target, the drug's own edges are told."""
    kg = resources.kg
    for q in ("Does colchicine inhibit xanthine oxidase?", "Does aspirin inhibit ACE?"):
        out, _ = run_graph({"question": q}, interactive=False, memory=False)
        drug = kg.name(out["sources"][0])
        own = [f"{kg.name(e.head)} {e.relation} {kg.name(e.tail)}" for e in kg.out_edges(out["sources"][0])]
        assert out["status"] is Status.NOT_FOUND and out["walk"]["chain_hops"] is None and own, out["answer"]
        assert "Nearest evidence" not in out["answer"], out["answer"]
        assert out["answer"].endswith(f" What the knowledge graph records {drug} acting on directly: {'; '.join(own[:3])}.")


def test_a_drug_whose_nearest_target_is_far_says_what_it_acts_on_first(run_graph, resources) -> None:
    """"What does haloprogin target?" answered "Haloprogin acts on: Calcitonin gene-related peptide", a protein four
    steps away through the plasma membrane the drug disrupts, as if it were its target; then "from there its curated
    chains reach", as if other drugs' chains were its own. A drug with a target of its own opens as before."""
    out, _ = run_graph({"question": "What does haloprogin target?"}, interactive=False, memory=False)
    first = out["evidence"][0]
    assert out["status"] is Status.ANSWERED and len(out["evidence"]) >= 3, out["answer"]
    assert out["answer"].startswith(f"Haloprogin has no direct target in the knowledge graph: it {first['relation']} "
                                    f"{resources.kg.name(first['tail'])}. The nearest proteins on the graph's paths from there, "
                                    f"{len(out['evidence'])} steps away: "), out["answer"]
    assert "curated" not in out["answer"], out["answer"]
    near, _ = run_graph({"question": "What does imatinib target?"}, interactive=False, memory=False)
    assert near["answer"].startswith("imatinib acts on: "), near["answer"]


def test_what_an_entity_that_reaches_no_target_does_is_what_it_is_connected_to(run_graph, resources) -> None:
    """"What does cholesterol do?" asked for its targets and was NOT_FOUND ("no chain of relations from Cholesterol to
    any protein …"): cholesterol is no drug, and what the graph holds about it is what it is connected to. A drug
    (thiethylperazine, above) is still told that it reaches no target, and what does reach one keeps its targets."""
    out, _ = run_graph({"question": "What does cholesterol do?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "entity", out.get("answer")
    assert out["answer"].startswith("Cholesterol is connected to:") and out["ranked_answers"]
    dopamine, _ = run_graph({"question": "What does dopamine do?"}, interactive=False, memory=False)
    assert dopamine["status"] is Status.ANSWERED and dopamine["intent"] == "targets"  # a chemical acts on receptors


@pytest.mark.parametrize("question, disease", [("what does gout do?", "Gout"),  # NOT_FOUND: gout has no edge out
                                               ("how does gout affect the body?", "Gout"),
                                               ("What does asthma do?", "Asthma")])  # "Asthma is connected to: Cough"
def test_what_a_disease_does_is_its_signs(run_graph, resources, question: str, disease: str) -> None:
    """A disease read as the subject of "what does X do?" asked what it targets: gout, with no edge out of it, was
    NOT_FOUND ("no candidate path"), and asthma was "connected to" its one edge out. What shows a disease, its signs,
    is what the graph holds of what it does."""
    kg = resources.kg
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "signs", out.get("answer")
    did = out["targets"][0]
    signs = {kg.name(e.head) for e in kg.in_edges(did) if e.relation in ("manifestation of", "phenotype of")
             and kg.node(e.head).type in ("PhenotypicFeature", "Disease")}  # the processes are not told as signs
    assert signs and kg.name(did) == disease, signs
    assert out["answer"].startswith(f"The signs and symptoms of {disease} that the knowledge graph records: ")
    assert all(name in out["answer"] for name in signs), out["answer"]


@pytest.mark.parametrize("question, name", [("What does the liver do?", "liver"),  # it was "liver acts on: Androgen receptor"
                                            # it listed the drugs that inhibit ACE
                                            ("what happens when you block ACE?", "Angiotensin-converting enzyme")])
def test_what_a_place_does_is_what_it_is_connected_to(run_graph, question: str, name: str) -> None:
    """These answered "… acts on: Interleukin-1 family, Interleukin-6", the proteins the walk reached through the
    inflammatory response hub; what the graph holds about them is what they are connected to."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "entity", out.get("answer")
    assert out["answer"].startswith(f"{name} is connected to:"), out["answer"]


@pytest.mark.parametrize("question, name", [("What does ACE do?", "Angiotensin-converting enzyme"),
                                            ("What does TNF do?", "Tumor necrosis factor"),
                                            ("What does the serotonin transporter do?", "Sodium-dependent serotonin transporter")])
def test_what_a_protein_does_is_its_own_steps(run_graph, question: str, name: str) -> None:
    """They answered "… acts on: Interleukin-1 family, Interleukin-6", then what the protein is connected to, mostly
    the diseases its chains end in; since stop 99 its own steps and the drugs that act on it (``agents.protein_role``,
    ``tests/test_protein_role.py``)."""
    out, _ = run_graph({"question": question}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "role", out.get("answer")
    assert out["answer"].startswith(f"In the knowledge graph, {name} "), out["answer"]


def test_a_drug_where_a_treatment_question_wants_a_disease_is_asked_about(run_graph) -> None:
    """"gout treatment" asks what treats gout; "imatinib therapy" reads the same way, and a drug is no disease: it is
    answered with what the graph holds about imatinib, as "What is imatinib?" is, not NOT_FOUND."""
    gout, _ = run_graph({"question": "gout treatment"}, interactive=False, memory=False)
    assert gout["status"] is Status.ANSWERED and gout["intent"] == "treats" and gout["ranked_answers"]
    drug, _ = run_graph({"question": "imatinib therapy"}, interactive=False, memory=False)
    assert drug["status"] is Status.ANSWERED and drug["intent"] == "entity" and drug["sources"] == [IMATINIB_ID]


def test_a_comparison_is_told_that_the_graph_holds_mechanisms(run_graph) -> None:
    """"which one is better?" was NOT_FOUND with "no known entity in the question" and no word on why; "Is allopurinol
    better than febuxostat for gout?" was answered with allopurinol's mechanism as if that settled it. Asking for the
    best drug is no comparison: it asks what treats the disease."""
    assert [out_of_scope(q) for q in ("which one is better?", "Is allopurinol better than febuxostat for gout?",
                                      "What is the best drug for gout?", "What works best for gout?")] == [
        "comparisons of how well drugs work", "comparisons of how well drugs work", "", ""]
    out, _ = run_graph({"question": "Is allopurinol better than febuxostat for gout?"}, interactive=False, memory=False)
    assert out["answer"].startswith("The knowledge graph holds curated drug mechanisms, not comparisons of how well drugs work.")


def test_a_brand_name_the_free_text_scan_finds_is_no_guess(run_graph) -> None:
    """"tylenol vs advil for fever" began 'Read "tylenol" as Acetaminophen, "advil" as Ibuprofen: the closest names in
    the knowledge graph.': the scan's matches are whole names or aliases, yet were flagged as n-gram guesses."""
    out, _ = run_graph({"question": "tylenol vs advil for fever"}, interactive=False, memory=False)
    assert {m["mention"] for m in out["mentions"]} >= {"tylenol", "advil"}
    assert out["status"] is Status.ANSWERED and not out["answer"].startswith("Read ")


def test_a_mechanism_of_eight_or_eleven_steps_takes_an() -> None:
    """"Metformin acts on Gout through a 8-step mechanism": the article follows the number's sound."""
    def told(hops: int) -> str:
        nodes = [f"n{i}" for i in range(hops + 1)]
        triples = [{"head": a, "head_name": a, "relation": "positively regulates", "tail": b, "tail_name": b}
                   for a, b in itertools.pairwise(nodes)]
        return _template(State(question="How does n0 treat the disease?", intent=Intent.MECHANISM.value),
                         [{"triples": triples}])[0]
    assert [f"through {w} {n}-step" in told(n) for n, w in ((2, "a"), (8, "an"), (11, "an"), (7, "a"))] == [True] * 4


def test_a_substance_named_in_the_plural_takes_a_plural_verb(run_graph) -> None:
    """"What are steroids used for?" answered "Steroids has a verified mechanism for: …" (steroids are now a class)."""
    out, _ = run_graph({"question": "What are prostaglandins used for?"}, interactive=False, memory=False)
    assert out["answer"].startswith("Prostaglandins have a verified mechanism for: "), out["answer"]
    one, _ = run_graph({"question": "What does tafamidis treat?"}, interactive=False, memory=False)
    assert one["answer"].startswith("tafamidis has a verified mechanism for: "), one["answer"]


def test_a_chain_that_reaches_its_end_only_through_what_it_causes_says_so(run_graph) -> None:
    """"Are antibiotics effective against viruses?" was told that antibiotics act on Viruses through DNA gyrase: the
    chain ends "inflammatory response caused by Viruses", so it reaches the viruses through what they cause."""
    out, _ = run_graph({"question": "Are antibiotics effective against viruses?"}, interactive=False, memory=False)
    assert out["evidence"][-1]["relation"] == "caused by", out["answer"]
    assert out["answer"].startswith("Antibiotics reach Viruses in the knowledge graph through: "), out["answer"]
    assert out["answer"].endswith("Its last step says that Viruses cause inflammatory response: the chain reaches "
                                  "Viruses through what Viruses cause, not by acting on them."), out["answer"]
    plain, _ = run_graph({"question": "How do statins lower cholesterol?"}, interactive=False, memory=False)
    assert "act on Hypercholesterolemia" in plain["answer"] and "Its last step" not in plain["answer"]


def test_what_a_drug_reverses_is_the_disease_it_is_asked_about(run_graph) -> None:
    """"How does naloxone reverse an opioid overdose?" told what naloxone is connected to ("Naloxone treats Obesity"),
    the overdose dropped, and then that "opioid overdose" is not in the knowledge graph (NOT_FOUND). The graph holds no
    overdose: the answer says so, then what naloxone acts on, the opioid receptors among them; "How does fomepizole
    treat Methanol poisoning?" names a disease the graph has, and is asked as written."""
    out, _ = run_graph({"question": "How does naloxone reverse an opioid overdose?"}, interactive=False, memory=False)
    assert out["understood_as"] == "What does naloxone target?" and out["status"] is Status.ANSWERED, out["answer"]
    assert "not overdoses. What it holds: Naloxone acts on: " in out["answer"] and "opioid receptor" in out["answer"]
    poisoning, _ = run_graph({"question": "How does fomepizole treat Methanol poisoning?"}, interactive=False, memory=False)
    assert poisoning["intent"] == "mechanism" and not poisoning.get("understood_as"), poisoning["answer"]


def test_a_name_that_fits_several_entries_is_not_the_one_the_other_end_names(run_graph) -> None:
    """"How does HIV cause AIDS?": "HIV" fits the infection and the virus, and "AIDS" names the infection. It was
    NOT_FOUND, a chain from the infection to itself."""
    out, _ = run_graph({"question": "How does HIV cause AIDS?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED, out["answer"]
    assert [m["entity"]["type"] for m in out["mentions"]] == ["OrganismTaxon", "Disease"], out["mentions"]
    assert out["sources"] != out["targets"]
