"""Ranked entity answers ("which drug treats Y?"): the best-ranked path per answer entity."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from tools.path_ranker import net_sign
from tools.walker import CandidatePath

__all__ = ["ANSWERS_K", "FUSE_DEPTH", "fuse", "lowers", "rank_endpoints"]

ANSWERS_K = 5
"""Answers listed per question."""
FUSE_DEPTH = 20
"""Entries of each ranking that :func:`fuse` reads."""


def rank_endpoints(paths: Sequence[CandidatePath], side: str, wanted: Collection[str], type_of: Callable[[str], str],
                   exclude: Collection[str] = (), k: int = ANSWERS_K,
                   keep: Callable[[CandidatePath], bool] = lambda _p: True) -> list[tuple[str, CandidatePath]]:
    """``(entity id, its best path)`` for the ``k`` best distinct end entities of ``wanted`` types.

    ``paths`` are ranked best first; ``side`` is ``"start"`` (the path's first node, e.g. the drug of "what treats Y")
    or ``"end"`` (its last node, e.g. the target of "what does X target"). Entities in ``exclude`` (the question's own
    seeds) are never answers; a path that ``keep`` refuses is never an entity's best path.
    """
    out: list[tuple[str, CandidatePath]] = []
    seen: set[str] = set(exclude)
    for p in paths:
        if not p.edges:
            continue
        node = p.nodes[0] if side == "start" else p.nodes[-1]
        if node in seen or type_of(node) not in wanted or not keep(p):
            continue
        seen.add(node)
        out.append((node, p))
        if len(out) >= k:
            break
    return out


def fuse(*rankings: Sequence[str], depth: int = FUSE_DEPTH) -> list[str]:
    """Reciprocal-rank fusion: ``Σ 1 / rank`` over the rankings' first ``depth`` entries, best first (ties: the
    order of first appearance). "Which drug treats Y" fuses the drugs' best mechanism paths with PageRank from Y
    (``docs/ranking.md``)."""
    score: dict[str, float] = {}
    for ranking in rankings:
        for i, x in enumerate(list(dict.fromkeys(ranking))[:depth]):
            score[x] = score.get(x, 0.0) + 1.0 / (i + 1)
    return sorted(score, key=lambda x: -score[x])


def lowers(p: CandidatePath) -> bool:
    """False for a path whose signed relations say the start *raises* the end ("uric acid —positively correlated
    with→ gout"): that is a cause, not a treatment. Paths with no signed relation pass."""
    sign, signed = net_sign([e.relation for e in p.edges])
    return not (signed and sign > 0)
