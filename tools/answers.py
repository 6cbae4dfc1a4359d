"""Ranked entity answers ("which drug treats Y?"): the best-ranked path per answer entity."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from tools.walker import CandidatePath

__all__ = ["ANSWERS_K", "rank_endpoints"]

ANSWERS_K = 5
"""Answers listed per question."""


def rank_endpoints(paths: Sequence[CandidatePath], side: str, wanted: Collection[str], type_of: Callable[[str], str],
                   exclude: Collection[str] = (), k: int = ANSWERS_K) -> list[tuple[str, CandidatePath]]:
    """``(entity id, its best path)`` for the ``k`` best distinct end entities of ``wanted`` types.

    ``paths`` are ranked best first; ``side`` is ``"start"`` (the path's first node, e.g. the drug of "what treats Y")
    or ``"end"`` (its last node, e.g. the target of "what does X target"). Entities in ``exclude`` (the question's own
    seeds) are never answers.
    """
    out: list[tuple[str, CandidatePath]] = []
    seen: set[str] = set(exclude)
    for p in paths:
        if not p.edges:
            continue
        node = p.nodes[0] if side == "start" else p.nodes[-1]
        if node in seen or type_of(node) not in wanted:
            continue
        seen.add(node)
        out.append((node, p))
        if len(out) >= k:
            break
    return out
