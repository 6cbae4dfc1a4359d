"""Where two drugs' mechanisms meet: the node that both act on within a few steps downstream ("Can I take aspirin
with warfarin?": both reach blood coagulation, aspirin through Prostaglandin G/H synthase 1, warfarin through Vitamin K
epoxide reductase complex subunit 1). A shared direct target is not a meeting: the answer names those already."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memory.protocols import Edge, GraphStore
from tools.path_ranker import effect

__all__ = ["MEETING_HOPS", "MEETING_MAX_DEGREE", "Meeting", "meeting_of"]

MEETING_HOPS = 2
"""The most steps from each drug to where they meet: further, nearly any two drugs meet at some broad process."""
MEETING_MAX_DEGREE = 150
"""The most edges a meeting node may have: "inflammatory response" (461 edges) joins drugs that share nothing
particular; "vasoconstriction" (122) and "blood coagulation" (40) are what two drugs' effects can add up at."""


@dataclass(frozen=True)
class Meeting:
    """A node both drugs reach, with each drug's chain to it."""

    node: str
    """The node where the chains meet."""
    first: tuple[Edge, ...]
    """The first drug's chain to it."""
    second: tuple[Edge, ...]
    """The second drug's chain to it."""

    def signs(self) -> tuple[int, int]:
        """How each chain acts on the node: -1 lowers, +1 raises, 0 unsigned (``tools.path_ranker.effect``)."""
        return effect([e.relation for e in self.first]), effect([e.relation for e in self.second])


def _chains(kg: GraphStore, source: str, hops: int) -> dict[str, tuple[Edge, ...]]:
    """The first-found shortest chain from ``source`` to each node within ``hops`` steps downstream."""
    found: dict[str, tuple[Edge, ...]] = {source: ()}
    frontier = [source]
    for _ in range(hops):
        nxt = []
        for node in frontier:
            for e in kg.out_edges(node):
                if e.tail not in found:
                    found[e.tail] = (*found[node], e)
                    nxt.append(e.tail)
        frontier = nxt
    return found


def meeting_of(kg: GraphStore, drugs: Sequence[str], *, hops: int = MEETING_HOPS,
               max_degree: int = MEETING_MAX_DEGREE) -> Meeting | None:
    """Where the two ``drugs`` meet: of the nodes both reach within ``hops`` steps, more than one step from at least
    one of them, with at most ``max_degree`` edges, and reached by chains that share no node before it (past a target
    both act on, they meet there), the fewest steps in all, then the fewest edges, then by id; None when there is
    none."""
    a, b = drugs
    from_a, from_b = _chains(kg, a, hops), _chains(kg, b, hops)
    met = [(len(from_a[n]) + len(from_b[n]), kg.degree(n), n) for n in from_a.keys() & from_b.keys()
           if n not in (a, b) and len(from_a[n]) + len(from_b[n]) > 2 and kg.degree(n) <= max_degree
           and not {e.tail for e in from_a[n][:-1]} & {e.tail for e in from_b[n][:-1]}]  # not past a shared target
    if not met:
        return None
    node = min(met)[2]
    return Meeting(node, from_a[node], from_b[node])
