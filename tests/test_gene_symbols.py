"""Gene symbols and short names of drug targets (``memory/gene_symbols.tsv``): the graph's UniProt names carry none,
so "IL-6" linked to IL-10 by its embedding, "PD-L1" to Non-small cell lung cancer and "IL-1 beta" to insulin lispro,
and "PD-1", "PPAR-gamma" and "TNFa" linked to nothing."""

from __future__ import annotations

import pytest

from agents.intent import SLOT_TYPES
from agents.state import Status
from core.text import fold
from tools.linker import LinkStatus
from tools.name_tables import GENE_SYMBOLS, with_gene_symbols


def _rows() -> list[tuple[str, list[str]]]:
    return [(name, [x.strip() for x in symbols.split(",")])
            for name, symbols in (ln.split("\t") for ln in GENE_SYMBOLS.read_text(encoding="utf-8").splitlines()
                                  if ln.strip() and not ln.startswith("#"))]


def test_every_row_names_a_protein_and_takes_no_other_entity_s_name(resources) -> None:
    kg = resources.kg
    rows = _rows()
    assert len(rows) >= 80
    own = {fold(x) for e in kg.entities.values() for x in (e.name, *kg.aliases.get(e.id, ()))}
    for name, symbols in rows:
        assert any(c.type == "Protein" for c in resources.linker.exact(name)), name
        for symbol in symbols:
            assert fold(symbol) not in own, symbol  # a symbol never takes a name or an alias another entity has


@pytest.mark.parametrize("mention, name", [
    ("IL-6", "Interleukin-6"), ("IL6", "Interleukin-6"), ("IL-1β", "Interleukin-1 beta"),
    ("IL-1 beta", "Interleukin-1 beta"), ("PD-1", "Programmed cell death protein 1"),
    ("PD-L1", "Programmed cell death 1 ligand 1"), ("PPAR-gamma", "Peroxisome proliferator-activated receptor gamma"),
    ("TNFa", "Tumor necrosis factor"), ("VEGF-A", "Vascular endothelial growth factor A"),
    ("hERG", "Potassium voltage-gated channel subfamily H member 2"), ("MAO-B", "Amine oxidase [flavin-containing] B"),
    # by the protein's name only: the graph gives Beta-1 adrenergic receptor the alias "Beta-2 adrenergic receptor"
    ("beta-2 receptor", "Beta-2 adrenergic receptor"),
    # "which drugs inhibit CYP3A4?" was NOT_FOUND, '"CYP3A4" is not in the knowledge graph' (stop 97)
    ("CYP3A4", "Cytochrome P450 3A4"), ("CYP2C9", "Cytochrome P450 2C9"), ("CYP1A2", "Cytochrome P450 1A2"),
])
def test_a_gene_symbol_links_to_its_protein(resources, mention: str, name: str) -> None:
    out = resources.linker.link(mention, SLOT_TYPES["target"])
    assert out.status is LinkStatus.LINKED and out.best.name == name, (mention, out.candidates[:3])


def test_symbols_go_on_proteins_of_that_name_only(resources, tmp_path) -> None:
    kg = resources.kg
    table = tmp_path / "symbols.tsv"
    table.write_text("Interleukin-6\tIL-6\nTumor necrosis factor\tTNFa\nNo such protein\tNSP1\n", encoding="utf-8")
    out = with_gene_symbols(kg.entities, {}, table)
    named = {kg.entities[eid].name: (kg.entities[eid].type, extra) for eid, extra in out.items()}
    assert named == {"Interleukin-6": ("Protein", ("IL-6",)), "Tumor necrosis factor": ("Protein", ("TNFa",))}
    assert with_gene_symbols(kg.entities, {}, tmp_path / "missing.tsv") == {}


def test_a_question_by_a_symbol_answers_for_the_protein(run_graph, resources) -> None:
    out, _ = run_graph({"question": "What drugs inhibit PD-L1?"}, thread="sym", interactive=False, memory=False)
    assert out["status"] is Status.ANSWERED and out["intent"] == "targeted_by"
    assert [resources.kg.name(t) for t in out["targets"]] == ["Programmed cell death 1 ligand 1"]
    assert {"Atezolizumab", "Durvalumab"} <= {a["name"] for a in out["ranked_answers"]}
