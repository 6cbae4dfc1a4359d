""""What does atorvastatin target?" opened with lipoprotein lipase, which no other statin acts on: a drug's targets
that the most of its class (by its name, ``memory/drug_classes.tsv``) act on come first."""

from __future__ import annotations

from agents.state import Status
from tools.answers import class_share

HMGCR = "3-hydroxy-3-methylglutaryl-coenzyme A reductase"


def _id(kg, name: str) -> str:
    return next(e.id for e in kg.entities.values() if e.name == name)


def test_a_drug_s_classmates_are_the_other_drugs_of_its_classes(resources) -> None:
    kg, linker = resources.kg, resources.linker
    atorvastatin = _id(kg, "atorvastatin")
    mates = {kg.name(m) for m in linker.classmates(atorvastatin)}
    assert "atorvastatin" not in mates and {"Simvastatin", "Pravastatin"} <= mates
    assert linker.classmates(_id(kg, "Hypertensive disorder")) == []


def test_what_a_class_shares_is_counted_over_its_drugs(resources) -> None:
    kg, linker = resources.kg, resources.linker
    shared = class_share(kg, linker.classmates(_id(kg, "atorvastatin")))
    assert shared[_id(kg, HMGCR)] >= 5 > shared[_id(kg, "Lipoprotein lipase")]
    assert class_share(kg, []) == {}


def test_the_target_a_drug_s_class_shares_comes_first(run_graph) -> None:
    out, _ = run_graph({"question": "What does atorvastatin target?"}, thread="order", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targets"
    names = [a["name"] for a in out["ranked_answers"]]
    assert names[0] == HMGCR and "Lipoprotein lipase" in names, names
    out, _ = run_graph({"question": "What does propranolol target?"}, thread="order2", interactive=False, memory=False)
    assert [a["name"] for a in out["ranked_answers"][:2]] == ["Beta-1 adrenergic receptor", "Beta-2 adrenergic receptor"]


def test_what_a_drug_acts_on_directly_comes_before_what_it_reaches_further(run_graph, resources) -> None:
    """"What does bortezomib target?" opened with C-reactive protein, three steps away, before the proteasome subunits
    it inhibits (and "What does Calcium acetate target?" with parathyroid hormone before the calcium-sensing receptor)."""
    out, _ = run_graph({"question": "What does Bortezomib target?"}, thread="direct", interactive=False, memory=False)
    assert {a["name"] for a in out["ranked_answers"][:2]} == {"Proteasome subunit beta type-1", "Proteasome subunit beta type-5"}
    kg = resources.kg
    targets = {"Protein", "GeneFamily", "MacromolecularComplex"}
    drugs = sorted(e.id for e in kg.entities.values() if e.type == "Drug" and kg.degree(e.id) >= 4)[::20][:40]
    checked = 0
    for drug in drugs:
        direct = {e.tail for e in kg.out_edges(drug) if kg.entities[e.tail].type in targets}
        direct |= {x.tail for e in kg.out_edges(drug) if e.relation in ("has metabolite", "produces") for x in kg.out_edges(e.tail)}
        if not direct:
            continue
        out, _ = run_graph({"question": f"What does {kg.name(drug)} target?"}, thread=f"direct-{drug}", interactive=False, memory=False)
        if out["intent"] == "targets" and out["ranked_answers"]:
            checked += 1
            assert out["ranked_answers"][0]["id"] in direct, (kg.name(drug), out["ranked_answers"][0]["name"])
    assert checked >= 5


def test_what_a_drug_produces_counts_as_acting_directly_as_a_metabolite_does(resources) -> None:
    """`direct_chains` followed "has metabolite" only, while the target order reads "direct" as either way of becoming
    something (`tools.answers.BECOMES`)."""
    from tools.answers import BECOMES, direct_chains

    kg = resources.kg
    drugs = [e.head for n in kg.entities.values() for e in kg.out_edges(n.id)
             if e.relation == "produces" and kg.out_edges(e.tail) and n.type == "Drug"]
    assert drugs
    for drug in drugs:
        chains = direct_chains(kg, drug)
        assert any(len(c) == 2 and c[0].relation == "produces" for c in chains), drug
        assert all(len(c) == 1 or c[0].relation in BECOMES for c in chains)
