"""What a drug raises or lowers: "what does allopurinol lower?", "what does sertraline increase?", "what neurotransmitter
does sertraline affect?", "which chemicals does atorvastatin lower?" (each was told what the drug is connected to).

Answered from the graph's edges, not a walk: the chemicals whose abundance the drug changes by its own edge, or through
the protein it acts on (and at most one process, activity or pathway that protein raises or takes part in), the sign
read from the relations, and a chemical the graph's chains change both ways left out. Longer chains are left out: their signs multiply curators' choices ("sertraline decreases
activity of SERT; SERT negatively regulates serotonin uptake; serotonin uptake decreases abundance of serotonin" reads
as lowering serotonin), as ``agents.verdict`` leaves them out of a yes or no on an amount.
"""

from __future__ import annotations

import re
from typing import Any

from agents.answer_notes import listing
from agents.ellipsis import drug_named, entity_of
from agents.products import ABUNDANCE, abundance_chains
from agents.state import Intent, Status, linked_mention
from agents.what_it_is import acted_on
from tools.answers import BECOMES
from tools.linker import fold
from tools.path_ranker import effect

__all__ = ["amounts_answer", "amounts_question"]

_VERBS = {"lower": -1, "lowers": -1, "reduce": -1, "reduces": -1, "decrease": -1, "decreases": -1, "raise": 1,
          "raises": 1, "increase": 1, "increases": 1, "boost": 1, "boosts": 1, "elevate": 1, "elevates": 1, "deplete": -1,
          "depletes": -1}
"""Verbs of an amount and the direction each asks for; "affect", "change" and "alter" ask for both."""
_BOTH = r"raise or lower|lower or raise|increase or decrease|decrease or increase"
"""Both directions at once: what a follow-up about another drug asks ("and febuxostat?" after "what does allopurinol
lower?")."""
_KINDS = r"neurotransmitters?|hormones?|chemicals?|molecules?|substances?|metabolites?|messengers?|lipids?|vitamins?|minerals?|nutrients?"
_ASKED = re.compile(
    rf"^(?:and |so )?(?:what|which)(?: (?P<kind>{_KINDS}))? (?:does|do) (?P<x>.+?) (?P<v>{_BOTH}|{'|'.join(_VERBS)}|affect|change|"
    r"alter|act on|work on)(?: the (?:levels?|amounts?) of)?(?: in (?:the|your) (?:body|blood|brain))?[?.!]*$", re.IGNORECASE)
"""A question about what a drug raises or lowers; "affect" and the like only with a kind of chemical named ("what does
aspirin affect?" asks what it acts on)."""
_CHEMICALS = frozenset({"ChemicalSubstance"})
_TARGETS = frozenset({"Protein", "GeneFamily", "MacromolecularComplex"})
"""What a drug acts on for a chain to a chemical: a process it acts on directly is left out, its signs being the
loosest ("Metformin negatively regulates Intestinal D-glucose absorption; Intestinal D-glucose absorption decreases
abundance of Blood Glucose" would read as raising blood glucose)."""
SHOWN = 5
"""How many chemicals each direction names."""


def _asked(question: str, linker: Any) -> tuple[dict[str, Any], int] | None:
    """The drug and the direction asked (-1, +1, or 0 for both); None for any other question, or a name that is no
    drug."""
    m = _ASKED.match(" ".join(question.split()))
    if m is None or (m["v"].casefold() not in _VERBS and " or " not in m["v"] and not m["kind"]):
        return None
    drug = drug_named(m["x"], linker, read=True)
    return (drug, _VERBS.get(m["v"].casefold(), 0)) if drug is not None else None


def amounts_question(question: str, linker: Any) -> dict[str, Any] | None:
    """The planner's update for a question about what a drug raises or lowers: the intent and the drug in the drug slot,
    so that "how does it do that?" next is about it; None for any other question."""
    asked = _asked(question, linker)
    if asked is None:
        return None
    return {"intent": Intent.AMOUNTS.value,
            "mentions": [linked_mention("drug", asked[0])]}


def changed(kg: Any, drug: str) -> dict[str, tuple[str, int, str]]:
    """Per chemical (its folded name): its id, the sign of the drug's effect on it, and the entity it goes through
    ("" for the drug's own edge), in the graph's edge order. A chemical that two chains change in opposite directions
    is left out ("Serotonin uptake" both increases and decreases the abundance of serotonin in the graph)."""
    found: dict[str, tuple[str, int, str]] = {}
    signs: dict[str, set[int]] = {}

    def add(relations: list[str], tail: str, through: str) -> None:
        node = kg.node(tail)
        if node is not None and node.type in _CHEMICALS and (sign := effect(relations)):
            found.setdefault(fold(node.name), (tail, sign, through))
            signs.setdefault(fold(node.name), set()).add(sign)

    starts = [(drug, [])] + [(e.tail, [e.relation]) for e in kg.out_edges(drug) if e.relation in BECOMES]
    for start, before in starts:
        for e in kg.out_edges(start):
            if e.relation in ABUNDANCE:
                add([*before, e.relation], e.tail, "")
            elif e.relation not in BECOMES and (target := kg.node(e.tail)) is not None and target.type in _TARGETS:
                for chain, chemical in abundance_chains(kg, e.tail):
                    add([*before, e.relation, *(c.relation for c in chain)], chemical, target.name)
    return {k: v for k, v in found.items() if len(signs[k]) == 1}


def _named(kg: Any, found: list[tuple[str, int, str]]) -> str:
    shown = [f"{kg.name(c)}" + (f" (through {through})" if through else "") for c, _, through in found[:SHOWN]]
    return listing(shown) + (f" and {len(found) - SHOWN} more" if len(found) > SHOWN else "")


def amounts_answer(question: str, kg: Any, linker: Any) -> dict[str, Any]:
    """The chemicals the drug raises or lowers, in the direction asked (both for "affect"), as ``items``; when the
    graph records none that way, what it records the other way or what the drug acts on."""
    asked = _asked(question, linker)
    if asked is None:  # the planner routes only questions it read this way
        return {"status": Status.NOT_FOUND, "answer": "No verified evidence: no drug named in the question."}
    drug, sign = asked
    found = list(changed(kg, drug["id"]).values())
    ways = [s for s in (-1, 1) if sign in (0, s)]
    said = [f"{'lowers' if s < 0 else 'raises'} {_named(kg, kept)}" for s in ways if (kept := [f for f in found if f[1] == s])]
    name = drug["name"]
    if said:
        shown = [f for s in ways for f in [g for g in found if g[1] == s][:SHOWN]]
        items = [entity_of(n) for c, _, _ in shown if (n := kg.node(c)) is not None]
        return {"status": Status.ANSWERED, "items": items,
                "answer": f"In the knowledge graph, {name} {'; and it '.join(said)}."}
    if found:  # "what does allopurinol raise?": it lowers uric acid
        other = "lowering" if sign > 0 else "raising"
        return {"status": Status.ANSWERED, "items": [],
                "answer": f"The knowledge graph records nothing that {name} {'raises' if sign > 0 else 'lowers'}; it records "
                          f"{name} {other} {_named(kg, found)}."}
    acts = list(dict.fromkeys(kg.name(e.tail) for e in kg.out_edges(drug["id"]) if acted_on(kg, e)))
    itself = f" It records {name} acting on {listing(acts[:3])}." if acts else ""
    return {"status": Status.ANSWERED, "items": [],
            "answer": f"The knowledge graph records no chemical that {name} raises or lowers, by its own edges or those "
                      f"of the proteins it acts on.{itself}"}
