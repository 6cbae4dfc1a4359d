"""The public KG: written to ``public.duckdb``, read into memory as adjacency lists for walking."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

import duckdb

from core.datasets import Node, Triple
from core.errors import IndexMissingError, InputError, StoreError
from core.text import fold
from memory.protocols import Edge, Entity

__all__ = ["PublicKG", "breadth_first", "entity_names", "name_index", "write_public_db"]

_SCHEMA = """
CREATE TABLE entities (id VARCHAR PRIMARY KEY, name VARCHAR NOT NULL, type VARCHAR NOT NULL);
CREATE TABLE aliases (entity_id VARCHAR NOT NULL, alias VARCHAR NOT NULL);
CREATE TABLE relations (name VARCHAR PRIMARY KEY, n_triples INTEGER NOT NULL);
CREATE TABLE triples (id VARCHAR PRIMARY KEY, subj VARCHAR NOT NULL, rel VARCHAR NOT NULL, obj VARCHAR NOT NULL);
CREATE INDEX triples_subj_rel ON triples (subj, rel);
CREATE INDEX triples_obj_rel ON triples (obj, rel);
CREATE INDEX aliases_alias ON aliases (alias);
"""


def entity_names(path: Path, ids: Iterable[str]) -> dict[str, str]:
    """Names of the given entity ids from ``public.duckdb`` (read-only, without loading the graph);
    ids that are not entities, or a missing file, are left out."""

    wanted = sorted(set(ids))
    if not wanted or not path.exists():
        return {}
    try:
        con = duckdb.connect(str(path), read_only=True)
        try:
            rows = con.execute("SELECT id, name FROM entities WHERE id IN (SELECT unnest(?))", [wanted]).fetchall()
        finally:
            con.close()
    except duckdb.Error:
        return {}
    return {str(i): str(n) for i, n in rows if n and n != i}


def write_public_db(path: Path, nodes: Iterable[Node], triples: Iterable[Triple]) -> int:
    """Write entities, aliases, relations and triples to a fresh DuckDB file (a repeated triple is written once).

    Returns:
        The number of triples written.
    """

    tmp = path.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    nodes = list(nodes)
    unique: dict[str, Triple] = {}
    for t in triples:
        unique.setdefault(t.id, t)  # a triple once, where it first occurs
    triples = list(unique.values())
    known = {n.id for n in nodes}
    rel_counts: dict[str, int] = {}
    for t in triples:
        rel_counts[t.relation] = rel_counts.get(t.relation, 0) + 1
    try:
        con = duckdb.connect(str(tmp))
        try:
            con.execute(_SCHEMA)

            def insert(sql: str, rows: list[tuple[object, ...]]) -> None:
                # executemany is slow in DuckDB; bulk-load the rows through a CSV file instead
                if not rows:
                    return
                table = sql.split()[2]
                src = tmp.with_suffix(f".{table}.csv")
                with open(src, "w", encoding="utf-8", newline="") as fh:
                    csv.writer(fh).writerows(r if "'Unknown'" not in sql else (*r, "Unknown") for r in rows)
                try:
                    con.execute(
                        f"COPY {table} FROM '{src}' (FORMAT csv, HEADER false, QUOTE '\"', ESCAPE '\"', "
                        "AUTO_DETECT false)"
                    )
                finally:
                    src.unlink(missing_ok=True)

            insert("INSERT INTO entities VALUES (?, ?, ?)", [(n.id, n.name, n.type) for n in nodes])
            # Endpoints missing from nodes.tsv still become entities, named by their id.
            extra = sorted({x for t in triples for x in (t.head, t.tail)} - known)
            insert("INSERT INTO entities VALUES (?, ?, 'Unknown')", [(x, x) for x in extra])
            insert(
                "INSERT INTO aliases VALUES (?, ?)", [(n.id, a) for n in nodes for a in n.aliases]
            )
            insert("INSERT INTO relations VALUES (?, ?)", sorted(rel_counts.items()))
            insert(
                "INSERT INTO triples VALUES (?, ?, ?, ?)",
                [(t.id, t.head, t.relation, t.tail) for t in triples],
            )
        finally:
            con.close()
    except duckdb.Error as exc:
        raise StoreError(f"cannot write {path}: {exc}") from exc
    tmp.replace(path)
    return len(triples)


def name_index(entities: Mapping[str, Entity], aliases: Mapping[str, tuple[str, ...]]) -> dict[str, list[str]]:
    """Entity ids by folded name and alias (names first, in entity order): the lookup of every graph store."""
    index: dict[str, list[str]] = {}
    for e in entities.values():
        index.setdefault(fold(e.name), []).append(e.id)
    for eid, names in aliases.items():
        for a in names:
            index.setdefault(fold(a), []).append(eid)
    return index


def breadth_first(expand: Callable[[list[str]], Mapping[str, Sequence[Edge]]], seeds: Iterable[str], hops: int,
                  max_edges: int) -> list[Edge]:
    """Edges within ``hops`` of the seeds, breadth first, at most ``max_edges``: the subgraph of every graph store.
    ``expand`` gives each node of a frontier its edges both ways (one batch per hop on a remote store)."""
    if hops < 0 or max_edges < 0:
        raise InputError("hops and max_edges must be non-negative")
    seen_nodes = set(seeds)
    frontier = list(dict.fromkeys(seeds))
    out: list[Edge] = []
    seen: set[Edge] = set()
    for _ in range(hops):
        edges = expand(frontier)
        nxt: list[str] = []
        for n in frontier:
            for e in edges[n]:
                if e in seen:
                    continue
                if len(out) >= max_edges:
                    return out
                seen.add(e)
                out.append(e)
                for x in (e.head, e.tail):
                    if x not in seen_nodes:
                        seen_nodes.add(x)
                        nxt.append(x)
        frontier = nxt
    return out


class PublicKG:
    """Read-only view of ``public.duckdb`` in memory: entities, aliases and adjacency lists both ways."""

    def __init__(self, entities: dict[str, Entity], aliases: dict[str, tuple[str, ...]], triples: Iterable[Edge]) -> None:
        """Wrap loaded tables (triples in their stored order); use :meth:`open` to read them from disk.

        Edges are kept in one fixed order, by head in entity order, then by tail in first-seen order, then in stored
        order; the walker's tie-breaks and PageRank's sums follow it, so answers do not depend on load details."""
        self.entities = entities
        self.aliases = aliases
        self._set: set[tuple[str, str, str]] = set()
        by_head: dict[str, dict[str, list[Edge]]] = {}
        for e in triples:
            key = (e.head, e.relation, e.tail)
            if key in self._set:
                continue  # a triple is stored once
            self._set.add(key)
            for x in (e.head, e.tail):
                if x not in self.entities:
                    self.entities[x] = Entity(x, x, "Unknown")
            by_head.setdefault(e.head, {}).setdefault(e.tail, []).append(e)
        self._edges: list[Edge] = [e for h in self.entities for group in by_head.get(h, {}).values() for e in group]
        self._out: dict[str, list[Edge]] = {}
        self._in: dict[str, list[Edge]] = {}
        for e in self._edges:
            self._out.setdefault(e.head, []).append(e)
            self._in.setdefault(e.tail, []).append(e)
        self.relations = sorted({e.relation for e in self._edges})
        self._by_name: dict[str, list[str]] | None = None

    @classmethod
    def open(cls, path: Path) -> PublicKG:
        """Load the DuckDB file read-only into memory."""
        if not path.exists():
            raise IndexMissingError(f"{path} is missing; run `medpath index build`")
        try:
            con = duckdb.connect(str(path), read_only=True)
            try:
                ents = con.execute("SELECT id, name, type FROM entities").fetchall()
                als = con.execute("SELECT entity_id, alias FROM aliases").fetchall()
                trs = con.execute("SELECT subj, rel, obj FROM triples ORDER BY id").fetchall()
            finally:
                con.close()
        except duckdb.Error as exc:
            raise StoreError(f"cannot read {path}: {exc}") from exc
        entities = {i: Entity(i, n, t) for i, n, t in ents}
        alias_map: dict[str, list[str]] = {}
        for eid, alias in als:
            alias_map.setdefault(eid, []).append(alias)
        return cls(entities, {k: tuple(v) for k, v in alias_map.items()}, (Edge(s, r, o) for s, r, o in trs))

    @classmethod
    def from_data(cls, nodes: Iterable[Node], triples: Iterable[Triple]) -> PublicKG:
        """Build the view straight from loaded data (tests, scale runs)."""
        nodes = list(nodes)
        entities = {n.id: Entity(n.id, n.name, n.type) for n in nodes}
        return cls(entities, {n.id: n.aliases for n in nodes if n.aliases},
                   (Edge(t.head, t.relation, t.tail) for t in triples))

    # -- GraphStore ------------------------------------------------------------------------------------------
    def node(self, entity_id: str) -> Entity | None:
        """Return the entity, or None when the id is unknown."""
        return self.entities.get(entity_id)

    def out_edges(self, entity_id: str) -> Sequence[Edge]:
        """Edges leaving the entity."""
        return self._out.get(entity_id, ())

    def in_edges(self, entity_id: str) -> Sequence[Edge]:
        """Edges entering the entity."""
        return self._in.get(entity_id, ())

    def neighbours(self, entity_ids: Iterable[str], direction: str = "out") -> dict[str, Sequence[Edge]]:
        """One hop for a batch of entities: ``direction`` is ``out`` or ``in``."""
        if direction not in ("out", "in"):
            raise InputError(f"direction must be 'out' or 'in', not {direction!r}")
        side = self._out if direction == "out" else self._in
        return {i: side.get(i, ()) for i in dict.fromkeys(entity_ids)}

    def subgraph(self, seeds: Iterable[str], hops: int, max_edges: int = 10_000) -> list[Edge]:
        """Edges within ``hops`` of the seeds (both directions), breadth first, at most ``max_edges``."""
        return breadth_first(lambda frontier: {n: (*self._out.get(n, ()), *self._in.get(n, ())) for n in frontier},
                             seeds, hops, max_edges)

    def degree(self, entity_id: str) -> int:
        """In plus out degree."""
        return len(self._out.get(entity_id, ())) + len(self._in.get(entity_id, ()))

    def has_edge(self, head: str, relation: str, tail: str) -> bool:
        """True when the triple is in the graph."""
        return (head, relation, tail) in self._set

    def name(self, entity_id: str) -> str:
        """Display name of an entity (its id when unknown)."""
        e = self.entities.get(entity_id)
        return e.name if e else entity_id

    def lookup(self, text: str) -> list[Entity]:
        """Entities whose id, name or alias is ``text`` (case- and punctuation-folded for names and aliases)."""
        if text in self.entities:
            return [self.entities[text]]
        if self._by_name is None:
            self._by_name = name_index(self.entities, self.aliases)
        return [self.entities[i] for i in dict.fromkeys(self._by_name.get(fold(text), ()))]

    def entity_ids(self) -> list[str]:
        """Every entity id, in load order."""
        return list(self.entities)

    def edges(self) -> Iterator[Edge]:
        """Every triple once, in the store's fixed order (see the constructor)."""
        return iter(self._edges)

    def __len__(self) -> int:
        """Number of triples."""
        return len(self._set)
