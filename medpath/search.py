"""Memory search within a scope: graph filtering, then semantic ranking, then the composite score (design 001).

1. Graph filtering: the scope (a user, ``project:<id>`` or ``org:<id>``) gives the owner; when the query
   names KG entities, only facts about them or their 1-hop KG neighbours stay (the structural boundary).
2. Semantic ranking: cosine between the query and each fact's text.
3. Re-ranking: ``similarity·w₁ + salience·w₂ + confidence·w₃`` (0.5/0.3/0.2, or the mode's weights).

Versions: a fact that a SUPERSEDES write closed is not current, so only the latest version of a
(subject, relation) slot is returned; ``superseded_hidden`` counts what was left out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core.errors import InputError
from memory.records import SCORE_WEIGHTS

__all__ = ["SCOPES", "owner_for", "search_memories"]

SCOPES = ("user", "project", "org")
def owner_for(scope: str, scope_id: str) -> str:
    """The memory owner of a scope: the user id itself, ``project:<id>`` or ``org:<id>``. A user id may not hold
    ':', so no user can name a project or an organisation (tokens refuse such subjects too)."""
    if scope == "user" and ":" in scope_id:
        raise InputError(f"a user id may not contain ':': {scope_id!r}")
    return scope_id if scope == "user" else f"{scope}:{scope_id}"


def search_memories(memory: Any, res: Any, owner: str, query: str, *, limit: int = 10,
                    weights: tuple[float, float, float] = SCORE_WEIGHTS, now: float | None = None,
                    patients: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """Ranked current facts of ``owner`` for ``query`` (read through ``Memory.recall``, the one memory reader)."""
    now = time.time() if now is None else now
    linked = [c[0].id for _, c in res.linker.scan(query) if c] if query.strip() else []
    bound: set[str] = set(linked)
    for e in linked:
        bound |= {x.tail for x in res.kg.out_edges(e)} | {x.head for x in res.kg.in_edges(e)}

    def text(f: Any) -> str:
        return f"{res.kg.name(f.subj)} {f.rel} {res.kg.name(f.obj)}"

    def similarity(facts: Sequence[Any]) -> Sequence[float]:
        qv = res.embed_one(query)
        return [float(s) for s in np.clip(res.embed_many([text(f) for f in facts]) @ qv, 0.0, 1.0)]

    hits = []
    if query.strip():
        found = memory.recall([owner], None, as_of=now, weights=weights, similarity=similarity,
                              keep=(lambda f: f.subj in bound or f.obj in bound) if linked else None, max_scored=500,
                              patients=patients)
        for f in found:
            sal = memory.salience(f.last_used, f.use_count, now)
            hits.append({"subj": f.subj, "subj_name": res.kg.name(f.subj), "rel": f.rel, "obj": f.obj,
                         "obj_name": res.kg.name(f.obj), "text": text(f), "store": f.store, "score": round(f.score, 4),
                         "similarity": round(f.similarity, 4), "salience": round(sal, 4), "confidence": round(f.confidence, 4),
                         "t_start": f.t_start})
        hits.sort(key=lambda h: (-h["score"], h["subj"], h["rel"], h["obj"]))
    return {"owner_scoped": True, "graph_filter": {"entities": len(linked), "applied": bool(linked)},
            "weights": list(weights), "superseded_hidden": len(memory.vault.closed_of([owner], as_of=now)), "results": hits[:limit]}
