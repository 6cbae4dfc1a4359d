"""The hand-written name tables the linker reads beside the graph's own names: brand names, other generic names,
everyday terms and drug classes (``memory/*.tsv``). A missing table or a malformed line adds nothing: the tables are a
convenience, never a failure."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from pathlib import Path

from core.datasets import DRUG_TYPES
from core.text import fold
from memory.protocols import Entity

__all__ = ["BRAND_NAMES", "DRUG_CLASSES", "DRUG_NAMES", "GENE_SYMBOLS", "LAY_TERMS", "read_brands", "read_drug_classes", "with_brand_names",
           "with_drug_names", "with_gene_symbols", "with_lay_terms"]

BRAND_NAMES = Path(__file__).resolve().parent.parent / "memory" / "brand_names.tsv"
"""The hand-written brand-name table (generic TAB brands)."""
DRUG_NAMES = Path(__file__).resolve().parent.parent / "memory" / "drug_names.tsv"
"""The hand-written table of a drug's other generic names (the graph's name TAB US, international or older names)."""
DRUG_CLASSES = Path(__file__).resolve().parent.parent / "memory" / "drug_classes.tsv"
"""The hand-written table of drug classes by their members' name stems (class names TAB stems)."""
LAY_TERMS = Path(__file__).resolve().parent.parent / "memory" / "lay_terms.tsv"
"""The hand-written table of everyday names of diseases and symptoms (the graph's name TAB terms)."""
GENE_SYMBOLS = Path(__file__).resolve().parent.parent / "memory" / "gene_symbols.tsv"
"""The hand-written table of drug targets' gene symbols and short names (the graph's protein name TAB symbols)."""


def with_brand_names(entities: dict[str, Entity], aliases: dict[str, tuple[str, ...]],
                     path: Path = BRAND_NAMES) -> dict[str, tuple[str, ...]]:
    """``aliases`` plus each brand name of ``path`` on every drug whose name or alias is its generic name.

    A missing table adds nothing; a malformed line is skipped (the table is a convenience, never a failure).
    """
    return _with_table(entities, aliases, path, DRUG_TYPES)


def with_drug_names(entities: dict[str, Entity], aliases: dict[str, tuple[str, ...]],
                    path: Path = DRUG_NAMES) -> dict[str, tuple[str, ...]]:
    """``aliases`` plus each drug's other generic names of ``path`` ("albuterol" on Salbutamol, "paracetamol" on
    Acetaminophen). Like the brand names, a missing table or line adds nothing."""
    return _with_table(entities, aliases, path, DRUG_TYPES)


def with_lay_terms(entities: dict[str, Entity], aliases: dict[str, tuple[str, ...]],
                   path: Path = LAY_TERMS) -> dict[str, tuple[str, ...]]:
    """``aliases`` plus each everyday term of ``path`` ("high blood pressure", "heart attack") on every entity whose
    name or alias is the graph's name it stands for. Like the brand names, a missing table or line adds nothing."""
    return _with_table(entities, aliases, path, None)


def with_gene_symbols(entities: dict[str, Entity], aliases: dict[str, tuple[str, ...]],
                      path: Path = GENE_SYMBOLS) -> dict[str, tuple[str, ...]]:
    """``aliases`` plus each target's gene symbols and short names of ``path`` ("IL-6", "IL6" on Interleukin-6;
    "PD-L1" on Programmed cell death 1 ligand 1), on proteins only: the graph's UniProt names carry none, and "IL-6"
    linked to IL-10 by its embedding. By the protein's name only: the graph gives Alpha-2A adrenergic receptor the
    alias "Tumor necrosis factor". Like the brand names, a missing table or line adds nothing."""
    return _with_table(entities, aliases, path, ("Protein",), by_alias=False)


def read_brands(path: Path = BRAND_NAMES) -> dict[str, str]:
    """Each brand name of the table, folded, → its generic name as written ("ozempic" → "semaglutide"), whether the
    graph holds the generic or not. A missing table or a malformed line adds nothing."""
    return {fold(b): generic.strip() for generic, brands in _rows(path) for b in brands if fold(b)}


def read_drug_classes(path: Path = DRUG_CLASSES) -> dict[str, tuple[str, ...]]:
    """Class name, as the table writes it, → the stems of its members' names ("statins" → ``statin``; "^cef" is a
    beginning, "=sertraline" a whole name, for a class without a shared stem). The names of one line come in the
    table's order, its first name first. A missing table or a malformed line adds nothing."""
    return {" ".join(name.split()): tuple(x.casefold() for x in stems) for names, stems in _rows(path)
            for name in names.split(",") if fold(name)}


def _rows(path: Path) -> Iterator[tuple[str, list[str]]]:
    """The ``name<TAB>term, term`` lines of a table: the name, and its terms stripped, empty ones dropped; comments,
    blank and malformed lines skipped, nothing for a missing table."""
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#") and "\t" in line:
                name, terms = line.split("\t", 1)
                yield name, [t.strip() for t in terms.split(",") if t.strip()]


def _with_table(entities: dict[str, Entity], aliases: dict[str, tuple[str, ...]], path: Path,
                types: Collection[str] | None, *, by_alias: bool = True) -> dict[str, tuple[str, ...]]:
    """``aliases`` plus the terms of a ``name<TAB>term, term`` table on the entities (of ``types``; None: any) that
    have that name or (``by_alias``) alias."""
    if not path.exists():
        return aliases
    by_name: dict[str, list[str]] = {}
    for e in entities.values():
        if types is None or e.type in types:
            for text in (e.name, *(aliases.get(e.id, ()) if by_alias else ())):
                by_name.setdefault(fold(text), []).append(e.id)
    out = dict(aliases)
    for name, extra in _rows(path):
        for eid in dict.fromkeys(by_name.get(fold(name), [])):
            out[eid] = (*out.get(eid, ()), *(b for b in extra if b not in out.get(eid, ())))
    return out
