"""What an enzyme or other protein makes: "what does xanthine oxidase make?" (it was NOT_FOUND, "no known entity in the
question"), "what does COX-2 produce?", "what is made by HMG-CoA reductase?" (told what the protein is connected to).

Answered from the graph's edges, not a walk: the chemicals whose abundance the protein raises, by its own edge or
through one process, activity or pathway it takes part in or raises ("Xanthine dehydrogenase/oxidase participates in
Purine catabolism; Purine catabolism increases abundance of uric acid"). The graph holds what curated mechanisms pass
through, so the answer says what is recorded, not every product the enzyme has.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any

from agents.answer_notes import listing
from agents.ellipsis import entity_of
from agents.intent import SLOT_TYPES
from agents.state import Intent, Status, linked_mention
from core.text import drop_article
from memory.protocols import Edge
from tools.linker import GUESSED_METHODS, LinkStatus, fold

__all__ = ["ABUNDANCE", "abundance_chains", "products_answer", "products_question", "protein_asked"]

_ASKED = re.compile(
    r"^(?:and |so )?(?:what (?:does|do) (?P<a>.+?) (?:make|produce|synthesi[sz]e|generate|create|form)|what (?:is|are) "
    r"(?:made|produced|synthesi[sz]ed|generated|formed) by (?P<b>.+?)|what (?:is|are) (?:the )?products? of (?P<c>.+?))"
    r"[?.!]*$", re.IGNORECASE)
"""A question about what a protein makes; its name in the one group that matched."""
_MAKERS = frozenset({"Protein", "GeneFamily", "MacromolecularComplex"})
"""What makes a product (a drug's metabolites are ``agents.metabolites``'; "what does the liver make?" is no protein)."""
_RAISES = "increases abundance of"
ABUNDANCE = ("increases abundance of", "decreases abundance of")
"""The relations that change how much there is of a chemical."""
_THROUGH = frozenset({"participates in", "positively regulates", "increases activity of", "part of"})
"""A protein's relations to a process, activity or pathway that carry on to what that one raises."""
_STEPS = frozenset({"BiologicalProcess", "MolecularActivity", "Pathway"})
_PRODUCTS = frozenset({"ChemicalSubstance", "Drug"})
SHOWN = 6
"""How many products the answer names."""


def protein_asked(asked: re.Pattern[str], question: str, linker: Any, types: Collection[str], *,
                  by_letters: bool = False) -> dict[str, Any] | None:
    """The entity of one of ``types`` that the one group of ``asked`` that matched names, linked in the target slot;
    with ``by_letters``, a leading article dropped and no guess taken ("what does the serotonin transporter do?",
    ``agents.protein_role``). None for any other question, or a name that links to none of them."""
    m = asked.match(" ".join(question.split()))
    name = next((g for g in (m.groups() if m else ()) if g), None)
    if not name:
        return None
    out = linker.link(drop_article(name.strip()) if by_letters else name, SLOT_TYPES["target"])
    best = out.best if out.status is LinkStatus.LINKED else None
    if best is None or best.type not in types or by_letters and best.method in GUESSED_METHODS:
        return None
    return entity_of(best)


def _maker(question: str, linker: Any) -> dict[str, Any] | None:
    """The protein the question asks about; None for any other question, or a name that links to no protein."""
    return protein_asked(_ASKED, question, linker, _MAKERS)


def products_question(question: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for a question about what a protein makes: the intent and the protein in the target slot,
    so that "which drugs inhibit it?" next is about it; None for any other question."""
    maker = _maker(question, linker)
    if maker is None:
        return None
    return {"intent": Intent.PRODUCTS.value,
            "mentions": [linked_mention("target", maker)]}


def _made(kg: Any, protein: str) -> dict[str, tuple[str, list[str]]]:
    """Per product (its folded name): its id and how the protein raises it ("" for its own edge, else the step's
    name), in the graph's edge order."""
    made: dict[str, tuple[str, list[str]]] = {}

    def add(entity: str, how: str) -> None:
        node = kg.node(entity)
        if node is not None and node.type in _PRODUCTS:
            ways = made.setdefault(fold(node.name), (entity, []))[1]
            if how not in ways:
                ways.append(how)

    for chain, product in abundance_chains(kg, protein, (_RAISES,)):
        add(product, kg.name(chain[0].tail) if len(chain) > 1 else "")
    return made


def abundance_chains(kg: Any, entity: str, ends: Collection[str] = ABUNDANCE) -> Iterator[tuple[list[Edge], str]]:
    """Every chain from ``entity`` whose last relation is one of ``ends`` (a change of abundance): its own edge, or one
    through a process, activity or pathway it takes part in or raises; each with the id it ends at, in the graph's edge
    order (what a protein makes; what a drug changes through what it acts on, ``agents.amounts``)."""
    for e in kg.out_edges(entity):
        if e.relation in ends:
            yield [e], e.tail
        elif e.relation in _THROUGH and (step := kg.node(e.tail)) is not None and step.type in _STEPS:
            yield from (([e, e2], e2.tail) for e2 in kg.out_edges(e.tail) if e2.relation in ends)


def _how(ways: list[str]) -> str:
    """"directly", "through Purine catabolism", "directly and through …"."""
    through = [w for w in ways if w]
    said = (["directly"] if "" in ways else []) + ([f"through {listing(through[:2])}"] if through else [])
    return " and ".join(said)


def products_answer(question: str, kg: Any, linker: Any) -> dict[str, Any]:
    """What the protein raises by the graph's edges, each with how, as ``items`` ("what does the first one do?" next);
    when the graph records none, that it records none."""
    maker = _maker(question, linker)
    if maker is None:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no protein named in the question."}
    made = _made(kg, maker["id"])
    if not made:
        return {"status": Status.ANSWERED, "items": [],
                "answer": f"The knowledge graph records nothing whose abundance {maker['name']} raises."}
    shown = list(made.values())[:SHOWN]
    more = f" and {len(made) - SHOWN} more" if len(made) > SHOWN else ""
    told = "; ".join(f"{kg.name(i)} ({_how(ways)})" for i, ways in shown)
    items = [entity_of(n) for i, _ in shown if (n := kg.node(i)) is not None]
    return {"status": Status.ANSWERED, "items": items,
            "answer": f"In the knowledge graph, {maker['name']} raises the abundance of {told}{more}. It records what "
                      "curated drug mechanisms pass through, not everything it makes."}
