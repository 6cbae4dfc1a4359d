""""How do statins lower cholesterol?" is answered for the class: the routes into the disease the most of its drugs
take, each counted, and the best path of the first. It asked which statin was meant (or, with no one to ask,
answered for one of them, Rosuvastatin, through Low-density lipoprotein receptor)."""

from __future__ import annotations

from typing import Any

import pytest

from agents.state import Status
from memory.protocols import Edge
from tools.answers import PAGERANK_ALPHA, PAGERANK_EPS, class_routes, lowers
from tools.walker import CandidatePath

PROTEIN_TYPES = {"Protein", "GeneFamily", "MacromolecularComplex"}


def _path(*steps: tuple[str, str, str]) -> CandidatePath:
    return CandidatePath(tuple(Edge(h, r, t) for h, r, t in steps), (1.0,) * len(steps))


def test_routes_count_drugs_after_what_they_become_and_leave_out_rare_ones() -> None:
    y = "Y"
    paths = [
        _path(("d1", "decreases activity of", "P"), ("P", "causes", y)),
        _path(("d2", "produces", "d2-acid"), ("d2-acid", "decreases activity of", "P"), ("P", "causes", y)),
        _path(("d3", "decreases activity of", "Q"), ("Q", "causes", y)),
        _path(("d3", "decreases activity of", "P"), ("P", "causes", y)),
        _path(("d1", "increases activity of", "R"), ("R", "causes", y)),  # raises Y: no route
        _path(("d4", "treats", y)),  # one step: no route
        _path(("other", "decreases activity of", "S"), ("S", "causes", y)),  # not of the class
    ]
    paths.append(_path(("d4", "decreases activity of", "T"), ("T", "causes", "Z")))  # not into Y
    routes = class_routes(paths, {"d1", "d2", "d3", "d4"}, {y})
    assert [(t, p.features["class_drugs"]) for t, p in routes] == [("P", 3.0), ("Q", 1.0)]
    assert routes[0][1].edges == paths[0].edges and routes[1][1].edges == paths[2].edges  # the best-ranked path of each
    assert "class_drugs" not in paths[0].features  # the caller's paths are not changed
    raising = [_path(("d1", "increases activity of", "R"), ("R", "causes", y))]  # antihistamines into Allergy: no sign lowers
    assert [(t, p.features["class_drugs"]) for t, p in class_routes(raising, {"d1"}, {y})] == [("R", 1.0)]
    twins = [_path(("d1", "decreases activity of", "P1"), ("P1", "causes", y)), _path(("d2", "decreases activity of", "P2"), ("P2", "causes", y))]
    merged = class_routes(twins, {"d1", "d2"}, {y}, key=lambda x: x.rstrip("12"))  # one name, two ids: one route
    assert [(t, p.features["class_drugs"]) for t, p in merged] == [("P1", 2.0)]
    many = [_path((f"d{i}", "decreases activity of", "P"), ("P", "causes", y)) for i in range(5)]
    assert [t for t, _ in class_routes([*many, paths[2]], {f"d{i}" for i in range(5)} | {"d3"}, {y})] == ["P"]  # 1 of 5 < 1/4


def _state(run_graph: Any, question: str, thread: str = "t", **ctx: Any) -> dict[str, Any]:
    out, snap = run_graph({"question": question}, thread=thread, **ctx)
    assert "__interrupt__" not in out, out["__interrupt__"]
    return dict(snap.values)


def test_a_class_mechanism_is_answered_by_the_routes_its_drugs_take(run_graph, resources) -> None:
    kg = resources.kg
    out = _state(run_graph, "How do statins lower cholesterol?")  # interactive: nothing to ask
    assert out["status"] is Status.ANSWERED and out["intent"] == "mechanism" and out["drug_class"] == "statins"
    disease = out["targets"][0]
    assert kg.name(disease) == "Hypercholesterolemia" and out["sources"] == out["among"][: len(out["sources"])]
    routes = out["ranked_answers"]
    counts = [int(a["path"]["features"]["class_drugs"]) for a in routes]
    assert counts == sorted(counts, reverse=True) and counts[0] == len(out["sources"]) == 8
    assert routes[0]["name"] == "3-hydroxy-3-methylglutaryl-coenzyme A reductase"
    for a in routes:
        triples = a["path"]["triples"]
        assert triples[0]["head"] in out["among"] and triples[-1]["tail"] == disease
        assert a["id"] in [t["tail"] for t in triples[:2]] and kg.node(a["id"]).type in PROTEIN_TYPES
    assert out["evidence"] == routes[0]["path"]["triples"]  # the best path of the most taken route is the evidence
    assert out["answer"].startswith("Statins act on Hypercholesterolemia in the knowledge graph through: "
                                    "3-hydroxy-3-methylglutaryl-coenzyme A reductase (8 of 8)")
    beta = _state(run_graph, "How do beta blockers treat hypertension?", thread="b", interactive=False)
    walked, members = len(beta["sources"]), len(beta["among"])
    assert walked < members and f"(counted over the {walked} nearest to it, of {members})" in beta["answer"]
    # the walked drugs are those with the most PageRank mass upstream from the disease (were: the most connected)
    mass = resources.ranker.ppr.top(beta["targets"], alpha=PAGERANK_ALPHA, eps=PAGERANK_EPS, direction="in")
    rest = [d for d in beta["among"] if d not in beta["sources"]]
    assert min(mass.get(d, 0.0) for d in beta["sources"]) >= max(mass.get(d, 0.0) for d in rest)
    assert beta["sources"] != beta["among"][:walked]
    assert beta["ranked_answers"][0]["name"] == "Beta-1 adrenergic receptor"


def test_a_drug_named_like_its_class_is_the_drug(run_graph, resources) -> None:
    """"How does tetracycline treat acne vulgaris?" names the drug Tetracycline (a check-half question), not the
    tetracyclines; "How do tetracyclines treat acne?" names the class."""
    out = _state(run_graph, "How does tetracycline treat acne vulgaris?", thread="d", interactive=False)
    assert out["drug_class"] == "" and out["among"] == [] and len(out["sources"]) == 1
    assert resources.kg.name(out["sources"][0]) == "tetracycline" and out["evidence"][0]["head"] == out["sources"][0]
    out = _state(run_graph, "How do tetracyclines treat acne?", thread="c", interactive=False)
    assert out["drug_class"] == "tetracyclines" and len(out["sources"]) > 1
    names = [a["name"].casefold() for a in out["ranked_answers"]]
    assert len(names) == len(set(names)), names  # five "30S ribosomal protein S4" were listed


def test_routes_lower_the_disease_when_any_path_does(run_graph, resources) -> None:
    out = _state(run_graph, "How do SSRIs treat depression?", interactive=False)
    for a in out["ranked_answers"]:
        path = _path(*((t["head"], t["relation"], t["tail"]) for t in a["path"]["triples"]))
        assert lowers(path), a["path"]["text"]
    out = _state(run_graph, "How do antihistamines treat allergies?", thread="h", interactive=False)
    assert out["answer"].startswith("Antihistamines act on Allergy in the knowledge graph through: Histamine H1 receptor")


def test_a_class_with_no_chain_says_so_for_the_class(run_graph) -> None:
    out = _state(run_graph, "Do statins reduce mortality in heart failure?", interactive=False)
    assert out["status"] is Status.NOT_FOUND and out["ranked_answers"] == []
    assert "any of the 8 statins to Congestive heart failure" in out["answer"]


def test_follow_ups_keep_the_class(run_graph, resources) -> None:
    """"And in angina?" asks how the class treats it (it asked about one beta blocker, the evidence's), "what do they
    target?" what the class targets ("they" had nothing to refer to), and "how does the second one work?" how the
    second route acts on the disease."""
    first = _state(run_graph, "mechanism of beta blockers in hypertension", thread="f1", interactive=False)
    out = _state(run_graph, "and in angina?", thread="f1", interactive=False)
    assert out["understood_as"].startswith("How do beta blockers treat angina")
    assert out["drug_class"] == "beta blockers" and out["status"] is Status.ANSWERED
    out = _state(run_graph, "what do they target?", thread="f1", interactive=False)
    assert out["understood_as"] == "What do beta blockers target?" and out["intent"] == "targets"
    assert set(out["sources"]) <= set(first["among"])
    statins = _state(run_graph, "How do statins lower cholesterol?", thread="f2", interactive=False)
    second = statins["ranked_answers"][1]["name"]
    out = _state(run_graph, "how does the second one work?", thread="f2", interactive=False)
    assert out["understood_as"] == f"How does {second} act on Hypercholesterolemia?"
    out = _state(run_graph, "what about atorvastatin?", thread="f2", interactive=False)
    assert out["understood_as"] == "How does atorvastatin treat Hypercholesterolemia?" and out["drug_class"] == ""


def test_it_after_how_a_class_acts_on_an_organism_is_the_class(run_graph) -> None:
    """"why doesn't it work on viruses?" after "How does penicillin kill bacteria?" (answered for the penicillins) was
    "How does Bacteria treat viruses?": with no drug in the thread, "it" took the organism the class acts on."""
    _state(run_graph, "How does penicillin kill bacteria?", thread="v1", interactive=False)
    out = _state(run_graph, "why doesn't it work on viruses?", thread="v1", interactive=False)
    assert out["understood_as"] == "How do penicillins treat viruses?", out["answer"]


def test_class_names_in_free_text(resources) -> None:
    linker = resources.linker
    assert linker.classes_in("what about SSRIs and Beta-Blockers?") == ["SSRIs", "Beta-Blockers"]
    assert linker.classes_in("penicillin and syphilis") == ["penicillin"]
    assert linker.classes_in("tetracycline and acne") == []  # the drug's own name


def test_a_class_named_in_free_text_is_answered_for_the_class(run_graph) -> None:
    """"statins and gout", "penicillin and syphilis", "tell me about statins": the class's name is no entity, so
    these were answered for the disease alone ("Syphilis is connected to: Neurosyphilis …") or NOT_FOUND."""
    out = _state(run_graph, "penicillin and syphilis", thread="p", interactive=False)
    assert out["intent"] == "mechanism" and out["drug_class"] == "penicillins" and out["status"] is Status.ANSWERED
    assert out["answer"].startswith("Penicillins act on Syphilis in the knowledge graph through: ")
    out = _state(run_graph, "ACE inhibitors in heart failure", thread="a", interactive=False)
    assert out["drug_class"] == "ACE inhibitors" and out["ranked_answers"][0]["name"] == "Angiotensin-converting enzyme"
    assert [m["mention"] for m in out["mentions"]] == ["heart failure"]  # "ace" of the class's name is no mention
    out = _state(run_graph, "statins and gout", thread="g", interactive=False)
    assert out["status"] is Status.NOT_FOUND and "from any of the 8 statins to Gout" in out["answer"]
    for q in ("tell me about statins", "statins"):
        out = _state(run_graph, q, thread=q, interactive=False)
        assert out["intent"] == "targets" and out["drug_class"] == "statins", q
        assert out["answer"].startswith("Statins in the knowledge graph act on: 3-hydroxy-3-methylglutaryl"), q
    out = _state(run_graph, "statins, aspirin and stroke", thread="s", interactive=False)
    assert out["drug_class"] == ""  # a drug beside the class: about the drug, as before


def test_the_evidence_is_an_example_of_a_listed_route_or_says_it_is_not(run_graph) -> None:
    """"Diuretics act on Hypertensive disorder … through: Solute carrier family 12 member 3 (9 of 12). Best evidence:
    Bendroflumethiazide negatively regulates Carbonate dehydratase activity; …": the reviewer had rejected the
    route's path, and the answer cited another route's as if it were the example."""
    for i, q in enumerate(("How do diuretics treat hypertension?", "How do statins lower cholesterol?",
                           "How do beta blockers treat hypertension?", "How do NSAIDs relieve pain?")):
        out = _state(run_graph, q, thread=f"e{i}", interactive=False)
        routes = {a["id"] for a in out["ranked_answers"]}
        accepted = [out["candidates"][k]["triples"] for k in out["review"]["accepted"]]
        through = [p for p in accepted if routes & {t["tail"] for t in p[:2]}]
        if through:
            assert routes & {t["tail"] for t in out["evidence"][:2]}, q
        else:
            assert "The reviewer accepted no path through " in out["answer"], q


def test_kinase_inhibitors_name_the_tinib_class(run_graph) -> None:
    """"How do kinase inhibitors treat CML?" was NOT_FOUND ("kinase inhibitors" is not in the knowledge graph); the
    class had only its longer names, tyrosine kinase inhibitors and TKIs."""
    out, _ = run_graph({"question": "how do kinase inhibitors treat CML?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED
    assert out["answer"].startswith("Kinase inhibitors act on Chronic myeloid leukemia in the knowledge graph through: ")


def test_a_disease_after_what_a_class_targets_asks_how_the_class_treats_it(run_graph) -> None:
    """"and in stroke?" after "What do statins target?" listed the drugs for stroke, the statins dropped, and "what about
    in hypercholesterolemia?" after "how do statins work?" told what Hypercholesterolemia is connected to."""
    for first, follow in (("What do statins target?", "and in stroke?"),
                          ("how do statins work?", "what about in hypercholesterolemia?")):
        thread = f"class-then-disease-{follow}"
        run_graph({"question": first}, thread=thread, interactive=False, memory=False)
        out, _ = run_graph({"question": follow}, thread=thread, interactive=False, memory=False)
        assert out["understood_as"].startswith("How do statins treat "), (out["understood_as"], out["answer"])
        assert out["status"] is Status.ANSWERED and out["drug_class"] == "statins", out["answer"]
    other, _ = run_graph({"question": "and ACE inhibitors?"}, thread=thread, interactive=False, memory=False)
    assert other["understood_as"] == "How do ACE inhibitors treat Hypercholesterolemia?", other["understood_as"]


@pytest.mark.parametrize(("first", "follow", "asked"), [
    ("What do statins target?", "what about ibuprofen?", "What does Ibuprofen target?"),
    ("What do beta blockers treat?", "and aspirin?", "What does Aspirin treat?"),
    ("What does atorvastatin target?", "what about the statins?", "What do statins target?"),
    ("What does lisinopril treat?", "and ACE inhibitors?", "What do ACE inhibitors treat?"),
])
def test_a_drug_after_a_class_or_a_class_after_a_drug_is_asked_the_same(run_graph, first: str, follow: str, asked: str) -> None:
    """"what about ibuprofen?" after "What do statins target?" told what ibuprofen is connected to (so did "and
    aspirin?" after what beta blockers treat): the turn's question was dropped. "what about the statins?" after "What
    does atorvastatin target?" was understood as "What does the statins target?", and "and ACE inhibitors?" after
    "What does lisinopril treat?" as "What does ACE inhibitors treat?"."""
    thread = f"swap-{first}-{follow}"
    run_graph({"question": first}, thread=thread, interactive=False, memory=False)
    out, _ = run_graph({"question": follow}, thread=thread, interactive=False, memory=False)
    assert out["understood_as"] == asked and out["status"] is Status.ANSWERED, (out["understood_as"], out["answer"])


def test_steroids_in_a_mechanism_question_are_the_steroid_drugs(run_graph) -> None:
    """"How do steroids treat asthma?" linked MeSH's chemical class Steroids and told a chain through aldosterone."""
    out, _ = run_graph({"question": "How do steroids treat asthma?"}, interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["drug_class"] == "steroids", out["answer"]
    assert out["answer"].startswith("Steroids act on Asthma in the knowledge graph through: Glucocorticoid receptor"), out["answer"]
    assert "Aldosterone" not in out["answer"]
