"""The public KG: written to ``public.duckdb``, read into a NetworkX view for walking."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path

import networkx as nx

from core.datasets import Node, Triple
from core.errors import IndexMissingError, StoreError
from memory.protocols import Edge, Entity

__all__ = ["PublicKG", "entity_names", "write_public_db"]

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
    import duckdb

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
    """Write entities, aliases, relations and triples to a fresh DuckDB file.

    Returns:
        The number of triples written.
    """
    import duckdb

    tmp = path.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    nodes = list(nodes)
    triples = list(triples)
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


class PublicKG:
    """Read-only view of ``public.duckdb`` as a NetworkX MultiDiGraph plus alias tables."""

    def __init__(
        self,
        entities: dict[str, Entity],
        aliases: dict[str, tuple[str, ...]],
        graph: nx.MultiDiGraph,
    ) -> None:
        """Wrap loaded tables; use :meth:`open` to read them from disk."""
        self.entities = entities
        self.aliases = aliases
        self.graph = graph
        self._out: dict[str, list[Edge]] = {}
        self._in: dict[str, list[Edge]] = {}
        for h, t, rel in graph.edges(keys=True):
            e = Edge(h, rel, t)
            self._out.setdefault(h, []).append(e)
            self._in.setdefault(t, []).append(e)
        self.relations = sorted({e.relation for es in self._out.values() for e in es})

    @classmethod
    def open(cls, path: Path) -> PublicKG:
        """Load the DuckDB file read-only into memory."""
        import duckdb

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
        g = nx.MultiDiGraph()
        g.add_nodes_from(entities)
        g.add_edges_from((s, o, r) for s, r, o in trs)
        return cls(entities, {k: tuple(v) for k, v in alias_map.items()}, g)

    @classmethod
    def from_data(cls, nodes: Iterable[Node], triples: Iterable[Triple]) -> PublicKG:
        """Build the view straight from loaded data (tests, scale runs)."""
        entities = {n.id: Entity(n.id, n.name, n.type) for n in nodes}
        g = nx.MultiDiGraph()
        g.add_nodes_from(entities)
        for t in triples:
            for x in (t.head, t.tail):
                if x not in entities:
                    entities[x] = Entity(x, x, "Unknown")
            g.add_edge(t.head, t.tail, t.relation)
        return cls(entities, {n.id: n.aliases for n in nodes if n.aliases}, g)

    def node(self, entity_id: str) -> Entity | None:
        """Return the entity, or None when the id is unknown."""
        return self.entities.get(entity_id)

    def out_edges(self, entity_id: str) -> Sequence[Edge]:
        """Edges leaving the entity."""
        return self._out.get(entity_id, ())

    def in_edges(self, entity_id: str) -> Sequence[Edge]:
        """Edges entering the entity."""
        return self._in.get(entity_id, ())

    def degree(self, entity_id: str) -> int:
        """In plus out degree."""
        return len(self._out.get(entity_id, ())) + len(self._in.get(entity_id, ()))

    def has_edge(self, head: str, relation: str, tail: str) -> bool:
        """True when the triple is in the graph."""
        return bool(self.graph.has_edge(head, tail, key=relation))

    def name(self, entity_id: str) -> str:
        """Display name of an entity (its id when unknown)."""
        e = self.entities.get(entity_id)
        return e.name if e else entity_id

    def __len__(self) -> int:
        """Number of triples."""
        return int(self.graph.number_of_edges())
