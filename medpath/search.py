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
from typing import Any

import numpy as np

from memory.records import SCORE_WEIGHTS, composite_score

__all__ = ["SCOPES", "owner_for", "search_memories"]

SCOPES = ("user", "project", "org")
def owner_for(scope: str, scope_id: str) -> str:
    """The memory owner of a scope: the user id itself, ``project:<id>`` or ``org:<id>``."""
    return scope_id if scope == "user" else f"{scope}:{scope_id}"


def search_memories(memory: Any, res: Any, owner: str, query: str, *, limit: int = 10,
                    weights: tuple[float, float, float] = SCORE_WEIGHTS, now: float | None = None) -> dict[str, Any]:
    """Ranked current facts of ``owner`` for ``query``."""
    now = time.time() if now is None else now
    facts = memory.vault.current_of([owner], as_of=now)
    seen = {f.key for f in facts}
    closed = {f.key for f in memory.vault.history(owner, limit=100_000) if f.t_end is not None and f.t_end <= now} - seen
    facts += [f for f in memory.episodic.recent(owner, limit=500, now=now) if f.key not in seen and f.key not in closed]
    linked = [c[0].id for _, c in res.linker.scan(query) if c] if query.strip() else []
    if linked:
        bound = set(linked)
        for e in linked:
            bound |= {x.tail for x in res.kg.out_edges(e)} | {x.head for x in res.kg.in_edges(e)}
        facts = [f for f in facts if f.subj in bound or f.obj in bound]
    hits = []
    if facts and query.strip():
        qv = res.embed_one(query)
        texts = [f"{res.kg.name(f.subj)} {f.rel} {res.kg.name(f.obj)}" for f in facts[:500]]
        vecs = res.embed_many(texts)
        sims = np.clip(vecs @ qv, 0.0, 1.0)
        for f, s, text in zip(facts[:500], sims, texts, strict=True):
            sal = memory.salience(f.last_used, f.use_count, now)
            hits.append({"subj": f.subj, "subj_name": res.kg.name(f.subj), "rel": f.rel, "obj": f.obj,
                         "obj_name": res.kg.name(f.obj), "text": text, "store": f.store,
                         "score": round(composite_score(float(s), sal, f.confidence, weights), 4),
                         "similarity": round(float(s), 4), "salience": round(sal, 4), "confidence": round(f.confidence, 4),
                         "t_start": f.t_start})
        hits.sort(key=lambda h: (-h["score"], h["subj"], h["rel"], h["obj"]))
    return {"owner_scoped": True, "graph_filter": {"entities": len(linked), "applied": bool(linked)},
            "weights": list(weights), "superseded_hidden": len(closed), "results": hits[:limit]}
