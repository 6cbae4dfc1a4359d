"""What a protein does: "what does TNF do?", "what is the function of ABL1?", "what is the role of ACE?".

Such a question was read as a name alone and told what the protein is connected to, which for most proteins is the
diseases its chains end in ("Tumor necrosis factor is connected to: Mantle cell lymphoma, Multiple myeloma"). It is
answered from the protein's own edges, not a walk: what it acts on, takes part in or changes, grouped by relation, then
the drugs that act on it. The graph holds the steps curated drug mechanisms pass through, and the answer says so.
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import and_listed, listing
from agents.ellipsis import entity_of
from agents.products import protein_asked
from agents.state import DISEASE_TYPES, DRUG_TYPES, Intent, Status, linked_mention

__all__ = ["role_answer", "role_question"]

_ASKED = re.compile(
    r"^(?:and |so |ok,? )?(?:what (?:does|do) (?P<a>.+?) (?:do|actually do)(?: in the body| in the cell| exactly)?|"
    r"what(?:'s|’s| is| are) (?:the )?(?:main |normal |biological )?(?:function|role|job)s? of (?P<b>.+?)|"
    r"what(?:'s|’s| is| are) (?P<c>.+?)(?:'s|’s) (?:main |normal |biological )?(?:function|role|job)s?)[?.!]*$", re.IGNORECASE)
"""A question about what an entity does; its name in the one group that matched."""
_PROTEINS = frozenset({"Protein", "GeneFamily", "MacromolecularComplex", "Gene"})
SHOWN = 8
"""How many of the protein's steps the answer names."""
PER_RELATION = 4
"""How many steps of one relation the answer names."""
DRUGS_SHOWN = 5
"""How many of the drugs that act on it the answer names."""


def _protein(question: str, linker: Any) -> dict[str, Any] | None:
    """The protein the question asks about, linked by its letters; None for any other question or name."""
    return protein_asked(_ASKED, question, linker, _PROTEINS, by_letters=True)  # "the serotonin transporter"


def role_question(question: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for a question about what a protein does: the intent and the protein in the target slot,
    so that "which drugs inhibit it?" next is about it; None for any other question."""
    protein = _protein(question, linker)
    return None if protein is None else {"intent": Intent.ROLE.value, "mentions": [linked_mention("target", protein)]}


def role_answer(question: str, kg: Any, linker: Any) -> dict[str, Any]:
    """The protein's own steps by relation (diseases last), then the drugs that act on it, as ``items`` the first
    steps' ends ("what does the first one do?" next)."""
    protein = _protein(question, linker)
    if protein is None:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no protein named in the question."}
    name, edges = protein["name"], list(kg.out_edges(protein["id"]))
    typed = [(e, kg.node(e.tail)) for e in edges]
    steps = [(e, n) for e, n in typed if n is not None and n.type not in DISEASE_TYPES]
    diseases = list(dict.fromkeys(n.name for e, n in typed if n is not None and n.type in DISEASE_TYPES))
    by_relation: dict[str, list[Any]] = {}
    for e, n in steps:
        if n.name not in [x.name for x in by_relation.get(e.relation, [])]:
            by_relation.setdefault(e.relation, []).append(n)
    told, shown = [], []
    for relation, ends in by_relation.items():
        kept = ends[: min(PER_RELATION, SHOWN - len(shown))]
        if kept:
            told.append(f"{relation} {listing([n.name for n in kept])}")
            shown.extend(kept)
    acting = {e.head for e in kg.in_edges(protein["id"]) if (d := kg.node(e.head)) is not None and d.type in DRUG_TYPES}
    drugs = list(dict.fromkeys(kg.name(x) for x in sorted(acting, key=lambda x: (-kg.degree(x), kg.name(x)))))  # the most
    # connected first
    parts = [f"In the knowledge graph, {name} {'; '.join(told)}." if told else
             f"The knowledge graph records no step from {name} to a process, a chemical or another protein."]
    if diseases:
        parts.append(f"Its chains lead into {and_listed(diseases[:3])}{f' and {len(diseases) - 3} more' if len(diseases) > 3 else ''}.")
    if drugs:
        more = f" and {len(drugs) - DRUGS_SHOWN} more" if len(drugs) > DRUGS_SHOWN else ""
        parts.append(f"Drugs that act on it: {', '.join(drugs[:DRUGS_SHOWN])}{more}.")
    parts.append("It records the steps curated drug mechanisms pass through, not all that the protein does.")
    return {"status": Status.ANSWERED, "answer": " ".join(parts), "items": [entity_of(n) for n in shown]}
