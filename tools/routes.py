"""The stores behind the four routes (SPEC-05), as callables for the fan-out.

=============  =====================================================================
route          stores
=============  =====================================================================
GRAPH          ``graph`` (KG walk ≤ depth from the named entities), ``patient`` (the
               patient's graph, consent applied), ``episodic``, ``vault``
AGGREGATION    ``aggregate``: match conditions by name or taxonomy word, 1-hop to
               medications or labs, count patients, sort by count
TEXT           ``bm25`` (passages), ``dense``, ``notes`` (the patient's, PII listed),
               ``enrich`` (1-hop KG edges of the named entities)
HYBRID         ``graph`` ∪ ``bm25`` (limit 15), plus ``patient``, ``notes``, ``episodic``, ``vault``
=============  =====================================================================

A store is used only when it can answer: ``patient`` and ``notes`` need a patient id, the memory
tiers need an actor. Graph items from different stores share ids (``kg:<hash of the triple>``), so
the merge removes an edge that the walk, BM25 and the vault all returned.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from memory.records import PatientFactView
from memory.stores import StoreName
from tools.classifier import Route
from tools.fanout import Item

__all__ = ["ROUTE_STORES", "ROUTE_WEIGHTS", "RetrievalQuery", "build_stores", "edge_id", "edge_item"]

S = StoreName
ROUTE_STORES: dict[Route, tuple[str, ...]] = {
    Route.GRAPH: (S.GRAPH, S.PATIENT, S.EPISODIC, S.VAULT),
    Route.AGGREGATION: (S.AGGREGATE,),
    Route.TEXT: (S.BM25, S.DENSE, S.NOTES, S.ENRICH),
    Route.HYBRID: (S.GRAPH, S.PATIENT, S.BM25, S.NOTES, S.EPISODIC, S.VAULT),
}
"""The stores each route consults (names from ``memory.stores``, the vocabulary the IMM router uses too)."""
ROUTE_WEIGHTS: dict[Route, dict[str, float]] = {
    Route.GRAPH: {S.GRAPH: 1.0, S.PATIENT: 1.0, S.EPISODIC: 0.9, S.VAULT: 0.9},
    Route.AGGREGATION: {S.AGGREGATE: 1.0},
    Route.TEXT: {S.BM25: 1.0, S.DENSE: 0.9, S.NOTES: 1.0, S.ENRICH: 0.6},
    Route.HYBRID: {S.GRAPH: 1.0, S.PATIENT: 1.0, S.BM25: 0.7, S.NOTES: 0.8, S.EPISODIC: 0.9, S.VAULT: 0.9},
}
"""How much each store counts in the fused score, per route (hand-set: the route's own kind of store leads)."""
NEEDS_PATIENT = frozenset({S.PATIENT, S.NOTES})
NEEDS_ACTOR = frozenset({S.EPISODIC, S.VAULT})
BM25_LIMIT = 15
MIN_COHORT = 5
"""Aggregations report a cohort only when it holds at least this many patients (k-anonymity)."""


@dataclass
class RetrievalQuery:
    """What every store is asked."""

    text: str
    """The query."""
    patient_id: str | None = None
    """Patient in scope, if any."""
    depth: int = 3
    """Walk depth (1-4)."""
    entities: tuple[str, ...] = ()
    """KG ids the query names (the linker's n-gram scan)."""
    actor: str | None = None
    """Whose memory the episodic and vault stores read."""
    withheld: dict[str, int] = field(default_factory=dict)
    """Per store, facts the consent filter withheld (each store writes its own key)."""
    in_scope: Callable[[str], bool] | None = None
    """The caller's patient scope (None: every patient, for an admin or a local user); aggregations count only these."""
    now: float | None = None
    """The asker's clock in epoch seconds, for a count over a stretch of time ("last year"); None: the wall clock."""


def edge_id(head: str, rel: str, tail: str) -> str:
    """Id of a KG edge item, shared by every store that returns the edge."""
    return "kg:" + hashlib.sha1(f"{head}\x1f{rel}\x1f{tail}".encode()).hexdigest()[:16]


def _label(kg: Any, eid: str) -> str:
    ent = kg.node(eid)
    return f"{ent.type}: {ent.name}" if ent is not None else eid


def edge_item(kg: Any, head: str, rel: str, tail: str, score: float, source: str, prefix: str = "") -> Item:
    """A graph-tier item for a KG edge, rendered ``Type: name → relation → Type: name``."""
    return Item(edge_id(head, rel, tail), "graph", f"{prefix}{_label(kg, head)} → {rel} → {_label(kg, tail)}", score, source,
                (head, tail))


class KGWalk:
    """Breadth-first walk from the named entities, up to ``depth`` hops, both directions, bounded."""

    inline = True
    """In-memory and fast: the fan-out runs it on the event loop."""

    def __init__(self, kg: Any, *, fanout: int = 8, max_edges: int = 40, hub: int = 60, name: str = "graph",
                 depth: int | None = None) -> None:
        """``fanout`` edges per node, ``max_edges`` in all; nodes above ``hub`` edges are not expanded."""
        self.kg, self.fanout, self.max_edges, self.hub, self.name, self.depth = kg, fanout, max_edges, hub, name, depth

    def __call__(self, q: RetrievalQuery) -> list[Item]:
        """Edges near the query's entities, nearer and entity-linking edges first."""
        depth = min(self.depth or q.depth, 4)
        targets = set(q.entities)
        seen = set(q.entities)
        frontier = [e for e in q.entities if self.kg.node(e) is not None]
        out: dict[str, Item] = {}
        for hop in range(1, depth + 1):
            nxt = []
            for node in frontier:
                edges = sorted([*self.kg.out_edges(node), *self.kg.in_edges(node)], key=lambda e: (e.relation, e.head, e.tail))
                for e in edges[: self.fanout]:
                    other = e.tail if e.head == node else e.head
                    bonus = 1.0 if other in targets and other != node else 0.0
                    item = edge_item(self.kg, e.head, e.relation, e.tail, 1.0 / hop + bonus, self.name)
                    out.setdefault(item.id, item)
                    if other not in seen and self.kg.degree(other) <= self.hub:
                        seen.add(other)
                        nxt.append(other)
                    if len(out) >= self.max_edges:
                        return list(out.values())
            frontier = nxt
        return list(out.values())


class PatientGraph:
    """The patient's graph: conditions, medications for them, labs over time; deeper hops reach the KG."""

    inline = True
    """In-memory and fast: the fan-out runs it on the event loop."""

    def __init__(self, patients: Any, kg: Any, per_drug: int = 3) -> None:
        """Bind the patient store and the KG."""
        self.patients, self.kg, self.per_drug = patients, kg, per_drug

    def __call__(self, q: RetrievalQuery) -> list[Item]:
        """Chains from the patient, up to ``q.depth`` hops; consent-withheld facts are counted."""
        facts, withheld = self.patients.visible(q.patient_id, ("conditions", "medications", "labs"))
        q.withheld["patient"] = withheld
        pid = q.patient_id
        names = {f.object_id: f.object_name for f in facts if f.relation == "has_condition"}
        items: list[Item] = []
        latest: dict[str, Any] = {}
        for f in facts:
            if f.relation == "has_lab" and (f.object_id not in latest or (f.on or "") > (latest[f.object_id].on or "")):
                latest[f.object_id] = f
        for f in facts:
            if f.relation == "has_condition":
                items.append(Item(f.id, "graph", f"Patient: {pid} → Condition: {f.object_name}", 1.0, "patient", (pid, f.object_id),
                                  fact=PatientFactView(pid, "condition", f.object_name, on=f.on, object_id=f.object_id)))
            elif f.relation == "takes":
                via = names.get(f.via or "") if q.depth >= 2 else None
                chain = f"Patient: {pid} → Condition: {via} → Medication: {f.object_name}" if via else \
                    f"Patient: {pid} → Medication: {f.object_name}"
                items.append(Item(f.id, "graph", chain, 0.95, "patient", (pid, f.object_id),
                                  fact=PatientFactView(pid, "medication", f.object_name, for_condition=via, on=f.on,
                                                       object_id=f.object_id, for_condition_id=(f.via or "") if via else "")))
                if q.depth >= 3:
                    for e in list(self.kg.out_edges(f.object_id))[: self.per_drug]:
                        items.append(edge_item(self.kg, e.head, e.relation, e.tail, 0.5, "patient", prefix=f"Patient: {pid} → "))
            elif f.relation == "has_lab":
                mark = " (latest)" if latest.get(f.object_id) is f else ""
                items.append(Item(f.id, "graph", f"Patient: {pid} → Lab: {f.object_name} ({f.value:g} {f.unit}, {f.on}){mark}",
                                  0.9 if mark else 0.6, "patient", (pid,),
                                  fact=PatientFactView(pid, "lab", f.object_name, value=f.value, unit=f.unit, on=f.on,
                                                       latest=bool(mark))))
        return items




class Notes:
    """The patient's clinical notes, by word overlap; each item carries its PII values for stripping."""

    inline = True
    """In-memory and fast: the fan-out runs it on the event loop."""

    def __init__(self, patients: Any, k: int = 5) -> None:
        """Bind the patient store."""
        self.patients, self.k = patients, k

    def __call__(self, q: RetrievalQuery) -> list[Item]:
        """Top notes (consent applied, withheld ones counted)."""
        hits, withheld = self.patients.note_hits(q.patient_id, q.text, self.k)
        q.withheld["notes"] = withheld
        pii = self.patients.get(q.patient_id).pii
        return [Item(f.id, "text", f.text or "", 0.5 + s, "notes", (q.patient_id,),
                     pii={k: pii[k] for k in f.pii_fields if k in pii}, cite=f"note {f.on}") for f, s in hits]


class BM25Store:
    """BM25 over PubMedQA sentences and textualized triples; triples become graph items."""

    inline = True
    """In-memory (bm25s sparse matrix, 1-7 ms): a thread would only wait for the GIL."""

    def __init__(self, bm25: Any, docs: dict[str, dict[str, Any]], kg: Any, limit: int = BM25_LIMIT) -> None:
        """Bind the index and its documents."""
        self.bm25, self.docs, self.kg, self.limit = bm25, docs, kg, limit

    def __call__(self, q: RetrievalQuery) -> list[Item]:
        """Top ``limit`` hits."""
        return [_doc_item(self.kg, doc_id, self.docs.get(doc_id), s, "bm25") for doc_id, s in self.bm25.search(q.text, self.limit)
                if doc_id in self.docs]


class DenseStore:
    """FAISS search over the same documents (the question is embedded once per process and text)."""

    def __init__(self, dense: Any, kg: Any, embed: Callable[[str], Any], k: int = 8) -> None:
        """Bind the dense search."""
        self.dense, self.kg, self.embed, self.k = dense, kg, embed, k

    def __call__(self, q: RetrievalQuery) -> list[Item]:
        """Top ``k`` sentences and triples."""
        hits = self.dense.search(self.embed(q.text), k=self.k, kinds=("sentence", "triple"))
        return [_doc_item(self.kg, h.id, h.meta, h.score, "dense") for h in hits]


def _doc_item(kg: Any, doc_id: str, doc: dict[str, Any] | None, score: float, source: str) -> Item:
    doc = doc or {}
    if doc.get("kind") == "triple":
        return edge_item(kg, doc["head"], doc["rel"], doc["tail"], score, source)
    return Item("doc:" + doc_id, "text", doc.get("text", ""), score, source, (), cite=f"PMID {doc['pmid']}" if doc.get("pmid") else None)


class MemoryStore:
    """The actor's remembered facts about the named entities (episodic or vault)."""

    def __init__(self, memory: Any, kg: Any, tier: str) -> None:
        """Bind the memory and pick the tier; the vault reads its in-memory mirror, so it runs inline."""
        self.memory, self.kg, self.tier = memory, kg, tier
        self.inline = tier == "vault"

    def __call__(self, q: RetrievalQuery) -> list[Item]:
        """Current facts, best composite score first."""
        facts = self.memory.recall([q.actor], list(q.entities), stores=(self.tier,)) if q.entities else []
        return [edge_item(self.kg, f.subj, f.rel, f.obj, f.score, self.tier, prefix=f"Memory ({self.tier}): ") for f in facts]


def build_stores(route: Route, q: RetrievalQuery, available: dict[str, Callable[[RetrievalQuery], list[Item]]],
                 include: tuple[str, ...] = ()) -> dict[str, Callable[[RetrievalQuery], list[Item]]]:
    """The stores of ``route`` (plus ``include``) that can answer ``q`` and are available."""
    out = {}
    for name in dict.fromkeys((*ROUTE_STORES[route], *include)):
        if name in NEEDS_PATIENT and not q.patient_id:
            continue
        if name in NEEDS_ACTOR and not q.actor:
            continue
        if name in ("graph", "enrich") and not q.entities and name not in include:
            continue
        if name in available:
            out[name] = available[name]
    return out
