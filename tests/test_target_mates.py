""""Which drug treats Y" learns from other drugs: a drug acting on a target, in the direction that the curated
drugs for Y act on it, is lifted by them (``tools.answers.target_mates``), and never by its own chain."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from memory.protocols import Edge, Entity
from memory.public_kg import PublicKG
from tools.answers import disease_mates, target_mates
from tools.curation import CurationStats


def _kg() -> PublicKG:
    """Curated drugs c1, c2 block T (c1 treats Y); c3 activates T; d1 blocks T, d2 activates it, d3 blocks U, which
    no curated drug for Y acts on; P is a process, not a target."""
    types = {"c1": "Drug", "c2": "Drug", "c3": "Drug", "d1": "Drug", "d2": "Drug", "d3": "Drug", "h": "ChemicalSubstance",
             "T": "Protein", "U": "Protein", "P": "BiologicalProcess", "Y": "Disease"}
    edges = [Edge("c1", "decreases activity of", "T"), Edge("c2", "decreases activity of", "T"),
             Edge("c3", "increases activity of", "T"), Edge("d1", "decreases activity of", "T"),
             Edge("d2", "increases activity of", "T"), Edge("d3", "decreases activity of", "U"),
             Edge("h", "decreases activity of", "T"), Edge("c1", "negatively regulates", "P"),
             Edge("d3", "negatively regulates", "P"), Edge("T", "causes", "Y"), Edge("P", "causes", "Y")]
    return PublicKG({x: Entity(x, x, t) for x, t in types.items()}, {}, edges)


def test_drugs_acting_on_a_curated_drug_s_target_the_same_way_come_first() -> None:
    kg = _kg()
    learned, treating = {"c1", "c2", "c3"}, {"c1"}
    # T blocked: learned c1, c2, of which c1 treats Y: d1 and c2 score 1/3 each (c2's own chains never among the k),
    # c1 0 (c2 does not treat Y). Activating T (c3) and blocking U (d3) learn nothing; P is no target.
    assert target_mates(kg, learned, treating, ["Drug"]) == ["c2", "d1"]
    assert target_mates(kg, learned, treating, ["Drug", "ChemicalSubstance"]) == ["c2", "d1", "h"]
    assert target_mates(kg, learned, set(), ["Drug"]) == []


def test_a_learned_drug_curated_for_other_diseases_does_not_outrank_an_unlearned_one() -> None:
    """Learned c1 and c4 block T and treat Y; learned c2 blocks T and treats another disease; a1 blocks T and was
    not learned. Both see two of three learned drugs treating Y: 2/4 each, a tie (broken by id). Counting only the
    others for c2 gave it 2/3, ahead of a1 (azelastine before famotidine for reflux)."""
    kg = PublicKG({x: Entity(x, x, t) for x, t in {"a1": "Drug", "c1": "Drug", "c2": "Drug", "c4": "Drug",
                                                  "T": "Protein", "Y": "Disease"}.items()}, {},
                  [Edge(d, "decreases activity of", "T") for d in ("a1", "c1", "c2", "c4")] + [Edge("T", "causes", "Y")])
    assert target_mates(kg, {"c1", "c2", "c4"}, {"c1", "c4"}, ["Drug"])[:2] == ["a1", "c2"]


def test_a_drug_s_own_chain_never_lifts_it() -> None:
    """c1 is the only curated drug for Y: whether its chain is counted or not, its own score stays 0, and d1's
    comes from c1 alone."""
    kg = _kg()
    assert "c1" not in target_mates(kg, {"c1", "c2"}, {"c1"}, ["Drug"])
    curation = CurationStats.fit([("c1", "Y", (("c1", "decreases activity of", "T"), ("T", "causes", "Y"))),
                                  ("c2", "Z", (("c2", "decreases activity of", "T"), ("T", "causes", "Z")))])
    assert curation.drugs_for("Y") == {"c1"} and curation.drugs_for("Q") == frozenset()
    assert target_mates(kg, curation.drugs, curation.drugs_for("Y"), ["Drug"]) == ["c2", "d1"]


def test_what_a_drug_treats_is_learnt_from_the_drugs_acting_on_its_targets_alike() -> None:
    """d1 blocks T as the curated c1 (Y, Z) and c2 (Z) do: Z is held by both of the two (2/3), Y by one (1/3). d2
    activates T as c3 (W) does (1/2). The drug's own chains never count: c1 learns only from c2."""
    kg = _kg()
    diseases = {"c1": {"Y", "Z"}, "c2": {"Z"}, "c3": {"W"}}
    learned = set(diseases)
    assert disease_mates(kg, "d1", learned, lambda d: diseases.get(d, ())) == ["Z", "Y"]
    assert disease_mates(kg, "d2", learned, lambda d: diseases.get(d, ())) == ["W"]
    assert disease_mates(kg, "c1", learned, lambda d: diseases.get(d, ())) == ["Z"]
    assert disease_mates(kg, "d3", learned, lambda d: diseases.get(d, ())) == []  # no curated drug acts on U
    curation = CurationStats.fit([("c1", "Y", (("c1", "decreases activity of", "T"), ("T", "causes", "Y"))),
                                  ("c1", "Z", (("c1", "decreases activity of", "T"), ("T", "causes", "Z")))])
    assert curation.diseases_of("c1") == {"Y", "Z"} and curation.diseases_of("d1") == frozenset()


def test_which_drug_treats_migraine_lists_a_triptan(run_graph: Any, resources: Any) -> None:
    """The triptans reach Migraine by three or four steps, and the walk and PageRank listed camphor, an antibiotic
    and bismuth before them; the curated triptans of the tune half now lift the drugs that act on their receptors."""
    out, _ = run_graph({"question": "What drugs treat migraine?"}, interactive=False, memory=False)
    names = [a["name"].casefold() for a in out["ranked_answers"]]
    assert any(n.endswith("triptan") for n in names[:3]), names


def test_what_omeprazole_treats_includes_reflux(run_graph: Any) -> None:
    """Omeprazole's paths lower Peptic ulcer, Zollinger-Ellison syndrome and Gastritis; the curated proton-pump
    inhibitors that block its target also treat reflux, which now comes among its first three."""
    out, _ = run_graph({"question": "What does omeprazole treat?"}, interactive=False, memory=False)
    names = [a["name"] for a in out["ranked_answers"]]
    assert "Gastroesophageal reflux disease" in names[:3], names


@pytest.mark.slow
def test_the_lists_do_not_depend_on_string_hashing() -> None:
    """The targets were read in set order, so sums of equal shares came out in a different order, and ties between
    drugs broke differently, from one process to the next."""
    script = ("import dataclasses\n"
              "from core.settings import Settings\n"
              "from medpath.services import build_services\n"
              "from tools.answers import disease_mates, target_mates\n"
              "res = build_services(dataclasses.replace(Settings.from_env(), database_url='')).resources\n"
              "c = res.ranker.curation\n"
              "diseases = sorted({y for d in c.drugs for y in c.diseases_of(d)})[:150]\n"
              "print([target_mates(res.kg, c.drugs, c.drugs_for(y), ['Drug'])[:20] for y in diseases])\n"
              "print([disease_mates(res.kg, d, c.drugs, c.diseases_of)[:20] for d in sorted(c.drugs)[:150]])\n")
    outs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(outs) == 1


def test_what_a_drug_becomes_acts_for_it_in_what_it_treats() -> None:
    """p —has metabolite→ m —increases activity of→ G; the curated q becomes r, which activates G too, and treats
    Asthma; the curated s activates G itself and treats Rash. p shares both through what it and they become: it had
    no target at all ("does prednisone treat asthma?" found none of the glucocorticoids for it; since stop 101).
    "Which drug treats Y" still reads direct edges alone (``target_mates``): there the same measured worse."""
    types = {"p": "Drug", "m": "Drug", "q": "Drug", "r": "ChemicalSubstance", "s": "Drug", "G": "Protein",
             "Asthma": "Disease", "Rash": "Disease"}
    edges = [Edge("p", "has metabolite", "m"), Edge("m", "increases activity of", "G"), Edge("q", "produces", "r"),
             Edge("r", "increases activity of", "G"), Edge("s", "increases activity of", "G")]
    kg = PublicKG({x: Entity(x, x, t) for x, t in types.items()}, {}, edges)
    diseases = {"q": {"Asthma"}, "s": {"Rash"}}
    assert sorted(disease_mates(kg, "p", set(diseases), lambda d: diseases.get(d, ()))) == ["Asthma", "Rash"]
    assert disease_mates(kg, "s", set(diseases), lambda d: diseases.get(d, ())) == ["Asthma"]
    assert target_mates(kg, set(diseases), {"q"}, ["Drug"]) == []  # q's own edge is to r, no target
