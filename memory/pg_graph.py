"""The public KG on PostgreSQL: loaded with COPY, read by batched one-hop queries, the same answers as embedded.

Tables live in the ``kg`` schema: ``entities`` (with each one's degree and its place in the fixed order),
``aliases``, and ``edges`` numbered in the embedded store's fixed order (``memory.public_kg``) with an index for
each direction, so that the walker's tie-breaks and PageRank's sums come out the same on both backends.
A build loads a new schema and swaps it in with one transaction: a failed load leaves the old graph as it was,
and building twice is safe. A reader keeps entities in memory (the linker needs every name) and fetches edges
per hop, one round trip for a whole frontier (``neighbours``), keeping what it fetched in a bounded cache.
Each node's edge list in each direction is also stored packed into one text value (``adj_out``, ``adj_in``, built
from ``edges`` at load), so a hub's few hundred edges come back as one row, not a few hundred.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence

from core.datasets import Node, Triple
from core.errors import IndexMissingError, InputError
from core.text import fold
from memory.pg_db import PgDatabase
from memory.protocols import Edge, Entity
from memory.public_kg import PublicKG, breadth_first, name_index

__all__ = ["PgGraph", "write_pg_graph"]

_SCHEMA = """
CREATE SCHEMA {s};
CREATE TABLE {s}.entities (id TEXT PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, ord INTEGER NOT NULL,
                           deg INTEGER NOT NULL);
CREATE TABLE {s}.aliases (pos INTEGER NOT NULL, entity_id TEXT NOT NULL, alias TEXT NOT NULL);
CREATE TABLE {s}.edges (seq BIGINT PRIMARY KEY, head TEXT NOT NULL, rel TEXT NOT NULL, tail TEXT NOT NULL);
CREATE TABLE {s}.relations (name TEXT PRIMARY KEY, n_triples BIGINT NOT NULL);
"""
UNIT, RECORD = "\x1f", "\x1e"
"""Separators inside a packed edge list: relation UNIT other end, one RECORD per edge (no id or relation holds them)."""
_PACKED = f"""
CREATE TABLE {{s}}.adj_{{d}} (id TEXT PRIMARY KEY, packed TEXT NOT NULL);
ALTER TABLE {{s}}.adj_{{d}} ALTER COLUMN packed SET STORAGE EXTERNAL;
INSERT INTO {{s}}.adj_{{d}} SELECT {{key}}, string_agg(rel || chr({ord(UNIT)}) || {{other}}, chr({ord(RECORD)}) ORDER BY seq)
FROM {{s}}.edges GROUP BY {{key}};
"""
_INDEXES = """
CREATE UNIQUE INDEX ON {s}.edges (head, rel, tail);
"""
"""Edges are read by their ``seq`` (``edges``) or packed per node (``adj_out``, ``adj_in``, keyed by id): no index by
head or tail."""
CACHE_NODES = 20_000
"""How many nodes' edge lists (each direction) a reader keeps. Each edge is an object the cyclic collector walks
in its full collections: at 1M triples (about 200 edges a node) this bound keeps those pauses short."""


def write_pg_graph(db: PgDatabase, nodes: Iterable[Node], triples: Iterable[Triple],
                   progress: Callable[[int], None] | None = None) -> int:
    """Replace the graph with these nodes and triples (a repeated triple once); returns the number of triples.

    The rows go into ``kg_load`` by COPY; one transaction then renames it to ``kg``. ``progress`` is called with
    the rows copied so far."""
    nodes = list(nodes)
    unique: dict[str, Triple] = {}
    for t in triples:
        unique.setdefault(t.id, t)
    ordered = [unique[k] for k in sorted(unique)]  # the embedded store reads its triples by id
    bad = next((x for t in ordered for x in (t.head, t.relation, t.tail) if UNIT in x or RECORD in x), None)
    if bad is not None:
        raise InputError(f"an id or relation holds a control character (\\x1e or \\x1f): {bad!r}")
    known = {n.id for n in nodes}
    entities = {n.id: Entity(n.id, n.name, n.type) for n in nodes}
    for x in sorted({x for t in ordered for x in (t.head, t.tail)} - known):
        entities[x] = Entity(x, x, "Unknown")
    view = PublicKG(entities, {n.id: n.aliases for n in nodes if n.aliases},
                    (Edge(t.head, t.relation, t.tail) for t in ordered))
    with db.connection() as con:
        con.execute("DROP SCHEMA IF EXISTS kg_load CASCADE")
        con.execute(_SCHEMA.format(s="kg_load"))
        copied = 0
        with con.cursor() as cur:
            with cur.copy("COPY kg_load.entities (id, name, type, ord, deg) FROM STDIN") as copy:
                for i, ent in enumerate(view.entities.values()):
                    copy.write_row((ent.id, ent.name, ent.type, i, view.degree(ent.id)))
            with cur.copy("COPY kg_load.aliases (pos, entity_id, alias) FROM STDIN") as copy:
                for pos, (eid, alias) in enumerate((n.id, a) for n in nodes for a in n.aliases):
                    copy.write_row((pos, eid, alias))
            with cur.copy("COPY kg_load.edges (seq, head, rel, tail) FROM STDIN") as copy:
                for i, e in enumerate(view.edges()):
                    copy.write_row((i, e.head, e.relation, e.tail))
                    copied += 1
                    if progress and copied % 50_000 == 0:
                        progress(copied)
            with cur.copy("COPY kg_load.relations (name, n_triples) FROM STDIN") as copy:
                for rel, n in sorted(Counter(e.relation for e in view.edges()).items()):
                    copy.write_row((rel, n))
        con.execute(_INDEXES.format(s="kg_load"))
        for d, key, other in (("out", "head", "tail"), ("in", "tail", "head")):
            con.execute(_PACKED.format(s="kg_load", d=d, key=key, other=other))
        con.execute("ANALYZE kg_load.edges")
        with con.transaction():
            con.execute("DROP SCHEMA IF EXISTS kg CASCADE")
            con.execute("ALTER SCHEMA kg_load RENAME TO kg")
    if progress:
        progress(copied)
    return len(view)


def _unpack(node: str, packed: str, direction: str) -> tuple[Edge, ...]:
    """The edges of one packed row (``_PACKED``), in their stored order."""
    if not packed:
        return ()
    pairs = (rec.split(UNIT, 1) for rec in packed.split(RECORD))
    if direction == "out":
        return tuple(Edge(node, r, t) for r, t in pairs)
    return tuple(Edge(h, r, node) for r, h in pairs)


class PgGraph:
    """``GraphStore`` over the ``kg`` schema."""

    def __init__(self, db: PgDatabase) -> None:
        """Read the entities and aliases (``IndexMissingError`` when no graph was loaded into this database)."""
        self.db = db
        if not db.query("SELECT 1 FROM information_schema.tables WHERE table_schema = 'kg' AND table_name = 'adj_in'"):
            raise IndexMissingError("no graph in this database, or one loaded by an older medpath; "
                                    "run `medpath index build --database URL`")
        rows = db.query("SELECT id, name, type, deg FROM kg.entities ORDER BY ord")
        self.entities: dict[str, Entity] = {i: Entity(i, n, t) for i, n, t, _ in rows}
        self._deg = {i: int(d) for i, _, _, d in rows}
        alias_map: dict[str, list[str]] = {}
        for eid, alias in db.query("SELECT entity_id, alias FROM kg.aliases ORDER BY pos"):
            alias_map.setdefault(eid, []).append(alias)
        self.aliases: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in alias_map.items()}
        counts = db.query("SELECT name, n_triples FROM kg.relations ORDER BY name")  # kept at load: no scan of edges
        self.relations = [r for r, _ in counts]
        self._size = sum(int(n) for _, n in counts)
        self._cache: dict[str, OrderedDict[str, tuple[Edge, ...]]] = {"out": OrderedDict(), "in": OrderedDict()}
        self._by_name: dict[str, list[str]] | None = None

    def neighbours(self, entity_ids: Iterable[str], direction: str = "out") -> dict[str, Sequence[Edge]]:
        """One hop for a batch of entities in one query, one packed row each (cached ones not asked again)."""
        if direction not in ("out", "in"):
            raise InputError(f"direction must be 'out' or 'in', not {direction!r}")
        ids = list(dict.fromkeys(entity_ids))
        cache = self._cache[direction]
        missing = [i for i in ids if i not in cache and self._deg.get(i)]
        if missing:
            packed = dict(self.db.query(f"SELECT id, packed FROM kg.adj_{direction} WHERE id = ANY(%s)", [missing]))
            for i in missing:
                cache[i] = _unpack(i, packed.get(i, ""), direction)
            while len(cache) > CACHE_NODES:
                cache.popitem(last=False)
        return {i: cache.get(i, ()) for i in ids}

    def out_edges(self, entity_id: str) -> Sequence[Edge]:
        """Edges leaving the entity."""
        return self.neighbours([entity_id], "out")[entity_id]

    def in_edges(self, entity_id: str) -> Sequence[Edge]:
        """Edges entering the entity."""
        return self.neighbours([entity_id], "in")[entity_id]

    def subgraph(self, seeds: Iterable[str], hops: int, max_edges: int = 10_000) -> list[Edge]:
        """Edges within ``hops`` of the seeds (both directions), breadth first, at most ``max_edges``; two queries
        per hop."""
        def both_ways(frontier: list[str]) -> dict[str, tuple[Edge, ...]]:
            outs, ins = self.neighbours(frontier, "out"), self.neighbours(frontier, "in")
            return {n: (*outs[n], *ins[n]) for n in frontier}

        return breadth_first(both_ways, seeds, hops, max_edges)

    def node(self, entity_id: str) -> Entity | None:
        """Return the entity, or None when the id is unknown."""
        return self.entities.get(entity_id)

    def degree(self, entity_id: str) -> int:
        """In plus out degree."""
        return self._deg.get(entity_id, 0)

    def has_edge(self, head: str, relation: str, tail: str) -> bool:
        """True when the triple is in the graph."""
        return any(e.relation == relation and e.tail == tail for e in self.out_edges(head))

    def name(self, entity_id: str) -> str:
        """Display name of an entity (its id when unknown)."""
        e = self.entities.get(entity_id)
        return e.name if e else entity_id

    def lookup(self, text: str) -> list[Entity]:
        """Entities whose id, name or alias is ``text`` (folded), as the embedded store."""
        if text in self.entities:
            return [self.entities[text]]
        if self._by_name is None:
            self._by_name = name_index(self.entities, self.aliases)
        return [self.entities[i] for i in dict.fromkeys(self._by_name.get(fold(text), ()))]

    def entity_ids(self) -> list[str]:
        """Every entity id, in the fixed order."""
        return list(self.entities)

    def edges(self) -> Iterator[Edge]:
        """Every triple once, in the fixed order (streamed from a server-side cursor)."""
        with self.db.connection() as con, con.transaction(), con.cursor(name="medpath_edges") as cur:
            cur.itersize = 50_000
            cur.execute("SELECT head, rel, tail FROM kg.edges ORDER BY seq")
            for h, r, t in cur:
                yield Edge(h, r, t)

    def __len__(self) -> int:
        """Number of triples."""
        return self._size
