"""Transfer from curated mechanisms: which parts of a candidate path other drugs' curated chains already use.

DrugMechDB curators reuse mechanism pieces: drugs that share a target share the continuation from it, and drugs
for one disease share the last steps into it. :class:`CurationStats` counts those pieces over the tune half's gold
chains and turns them into features of a candidate path. A question's own gold never reaches its own features:

- at training time the stats come from the other folds (by drug) of the tune half (``medpath.training``);
- at answer time every chain of the question's drug is left out (``exclude_drug``), so a question
  about a drug whose chains were counted sees exactly what training showed it, and nothing of its own.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tools.memo import Memo

__all__ = ["TRANSFER_FEATURES", "Chain", "CurationStats", "Triple"]

Triple = tuple[str, str, str]
"""``(head id, relation, tail id)``."""
Chain = tuple[str, str, tuple[Triple, ...]]
"""``(drug id, disease id, steps)``: one curated chain."""
_Coded = tuple[str, str, tuple[int, ...], tuple[Triple, ...]]
"""``(drug id, disease id, step ids, steps)``: a chain with its triples numbered."""

TRANSFER_FEATURES = (
    "t_edge_frac",
    "t_edge_log",
    "t_suffix_disease_frac",
    "t_suffix_disease",
    "t_suffix_any_frac",
    "t_suffix_any",
    "t_prefix_any",
    "t_last_disease",
    "t_target_n",
    "t_continuation_max",
    "t_continuation_mean",
    "t_nodes_disease",
    "t_node_log",
    "t_node_min",
    "t_pair_other_relation",
)
"""Columns of :meth:`CurationStats.features`, in order."""

_OWN_CACHE = 256
"""Per-drug counts kept by one stats object (small: one drug's chains)."""


class _Counts:
    """Every count the features read, over a set of chains whose steps are triple ids (``CurationStats._ids``):
    small-int keys hash far faster than nested tuples of strings, at load and for every candidate."""

    def __init__(self, chains: Sequence[_Coded]) -> None:
        """``chains``: (drug, disease, step ids, steps)."""
        self.edge: Counter[int] = Counter()
        self.node: Counter[str] = Counter()
        self.last_disease: Counter[tuple[str, int]] = Counter()
        self.nodes_disease: Counter[tuple[str, str]] = Counter()
        self.first_target: Counter[str] = Counter()
        self.continuation: Counter[tuple[str, int]] = Counter()
        self.pieces: Counter[tuple[int, ...]] = Counter()
        self.suffix_disease: Counter[tuple[str, tuple[int, ...]]] = Counter()
        self.pair: Counter[tuple[str, str]] = Counter()
        pairs: set[tuple[str, str, int]] = set()
        after: set[tuple[str, str, str, int]] = set()
        for drug, disease, steps, triples in chains:
            if not steps:
                continue
            tails = [t[2] for t in triples]
            self.edge.update(set(steps))
            pairs.update((drug, disease, e) for e in steps)
            after.update((drug, disease, triples[0][2], e) for e in steps)
            inner = set(tails[:-1])
            self.node.update(inner)
            self.last_disease[(disease, steps[-1])] += 1
            self.nodes_disease.update((disease, x) for x in inner)
            self.first_target[tails[0]] += 1
            self.continuation.update((tails[0], e) for e in set(steps[1:]))
            for i in range(len(steps)):
                for j in range(i + 1, len(steps) + 1):
                    self.pieces[steps[i:j]] += 1
                self.suffix_disease[(disease, steps[i:])] += 1
            self.pair.update((t[0], t[2]) for t in triples)
        # by mechanism (a drug and a disease), however many chains it has: the triple scorer's counts
        self.mech_edge: Counter[int] = Counter(e for _, _, e in pairs)
        self.mech_edge_disease: Counter[tuple[str, int]] = Counter((y, e) for _, y, e in pairs)
        self.mech_after_target: Counter[tuple[str, int]] = Counter((t, e) for _, _, t, e in after)


class _Mechanisms(NamedTuple):
    """The by-mechanism counts of :class:`_Counts` alone (what is left once a group of drugs is taken out)."""

    mech_edge: Counter[int]
    mech_edge_disease: Counter[tuple[str, int]]
    mech_after_target: Counter[tuple[str, int]]


_EMPTY = _Counts([])
_UNKNOWN = -1
"""The id of a triple no counted chain has: no count holds it."""


class _Seen(NamedTuple):
    """One question's counts as :meth:`CurationStats.features` reads them: ``n`` looks a key up in a table less the
    question's own drug's chains; the memos keep what each step and node gives."""

    n: Callable[[Counter[Any], Counter[Any], object], int]
    edge: Memo[int, int]
    node_log: Memo[str, float]
    node_disease: Memo[str, bool]
    pair: Memo[tuple[str, str], int]


@dataclass
class CurationStats:
    """Counts over curated chains; ``chains`` is the source, the counts are derived from it."""

    chains: list[Chain] = field(default_factory=list)
    """The counted chains."""

    def __post_init__(self) -> None:
        """Number the triples, derive the counts, and index the chains by drug."""
        self._ids: dict[Triple, int] = {}
        self._by_drug: dict[str, list[_Coded]] = defaultdict(list)
        by_disease: dict[str, set[str]] = defaultdict(set)
        coded = []
        for drug, disease, steps in self.chains:
            row = (drug, disease, tuple(self._ids.setdefault(t, len(self._ids)) for t in steps), steps)
            coded.append(row)
            self._by_drug[drug].append(row)
            by_disease[disease].add(drug)
        self._drugs = frozenset(self._by_drug)
        self._drugs_for = {y: frozenset(ds) for y, ds in by_disease.items()}
        self._diseases_of = {d: frozenset(row[1] for row in rows) for d, rows in self._by_drug.items()}
        self._all = _Counts(coded)
        self._own: dict[str, _Counts] = {}
        self._groups: dict[frozenset[str], _Mechanisms] = {}

    @classmethod
    def fit(cls, chains: Sequence[Chain]) -> CurationStats:
        """Count the given chains."""
        return cls([(d, y, tuple(tuple(s) for s in steps)) for d, y, steps in chains])  # type: ignore[misc]

    def to_json(self) -> list[list[object]]:
        """Serialisable form: the chains."""
        return [[d, y, [list(s) for s in steps]] for d, y, steps in self.chains]

    @classmethod
    def from_json(cls, rows: Sequence[Sequence[Any]]) -> CurationStats:
        """Inverse of :meth:`to_json`."""
        return cls.fit([(str(d), str(y), tuple(map(tuple, steps))) for d, y, steps in rows])

    @property
    def drugs(self) -> frozenset[str]:
        """Drugs with at least one counted chain."""
        return self._drugs

    def drugs_for(self, disease: str) -> frozenset[str]:
        """The drugs with a counted chain into ``disease``."""
        return self._drugs_for.get(disease, frozenset())

    def diseases_of(self, drug: str) -> frozenset[str]:
        """The diseases that ``drug`` has a counted chain into."""
        return self._diseases_of.get(drug, frozenset())

    def _own_counts(self, drug: str) -> _Counts:
        if drug not in self._by_drug:
            return _EMPTY
        own = self._own.get(drug)
        if own is None:
            if len(self._own) >= _OWN_CACHE:
                self._own.pop(next(iter(self._own)))
            own = self._own[drug] = _Counts(self._by_drug[drug])
        return own

    def features(self, paths: Sequence[Sequence[Triple]], disease: str, *, exclude_drug: str | None = None) -> list[list[float]]:
        """One row per path (columns as in ``TRANSFER_FEATURES``); paths run from the drug to ``disease``.

        Every chain of ``exclude_drug`` is left out of the counts (the question's own drug, at answer time).
        """
        own = self._own_counts(exclude_drug) if exclude_drug else _EMPTY
        a, subtract = self._all, own is not _EMPTY

        def n(table: Counter[Any], mine: Counter[Any], key: object) -> int:
            return table[key] - mine[key] if subtract else table[key]

        # the paths of one question share most of their steps and nodes: each one's counts are read once
        seen = _Seen(n, Memo(lambda e: n(a.edge, own.edge, e)), Memo(lambda x: math.log1p(n(a.node, own.node, x))),
                     Memo(lambda x: bool(n(a.nodes_disease, own.nodes_disease, (disease, x)))),
                     Memo(lambda pair: n(a.pair, own.pair, pair)))
        rows = []
        for p in paths:
            triples = tuple((e[0], e[1], e[2]) for e in p)
            rows.append(self._row(triples, tuple(self._ids.get(t, _UNKNOWN) for t in triples), disease, own, seen))
        return rows

    def _mechanisms_without(self, drugs: frozenset[str]) -> _Mechanisms:
        """The mechanism counts over every chain but those of ``drugs`` (kept: callers ask for a few fixed groups,
        the training folds)."""
        kept = self._groups.get(drugs)
        if kept is None:
            gone = _Counts([c for d in sorted(drugs) for c in self._by_drug.get(d, ())])
            a = self._all
            kept = self._groups[drugs] = _Mechanisms(a.mech_edge - gone.mech_edge,
                                                     a.mech_edge_disease - gone.mech_edge_disease,
                                                     a.mech_after_target - gone.mech_after_target)
        return kept

    def edge_counts(self, edge: Triple, disease: str, targets: Iterable[str], *, exclude_drug: str | None = None,
                    exclude_drugs: frozenset[str] = frozenset()) -> tuple[int, int, int]:
        """How many curated mechanisms (a drug and a disease, however many chains each has) hold ``edge`` in a
        chain: any, those for ``disease``, and the most of those whose chain starts at one of ``targets`` (the first
        targets of the candidates that hold the edge). Chains of ``exclude_drug`` are left out, as in
        :meth:`features`, and so are those of every drug of ``exclude_drugs``."""
        e = self._ids.get(edge, _UNKNOWN)
        if e == _UNKNOWN:
            return 0, 0, 0
        a = self._mechanisms_without(exclude_drugs) if exclude_drugs else self._all
        own = self._own_counts(exclude_drug) if exclude_drug and exclude_drug not in exclude_drugs else _EMPTY
        after = max((a.mech_after_target[(t, e)] - own.mech_after_target[(t, e)] for t in targets), default=0)
        return (a.mech_edge[e] - own.mech_edge[e], a.mech_edge_disease[(disease, e)] - own.mech_edge_disease[(disease, e)],
                after)

    def _row(self, triples: tuple[Triple, ...], edges: tuple[int, ...], disease: str, own: _Counts, seen: _Seen
             ) -> list[float]:
        a, n = self._all, seen.n
        k = len(edges)
        rest = edges[1:]
        inner = [e[2] for e in triples[:-1]]
        target = triples[0][2]
        suffix_disease = next((k - i for i in range(k) if n(a.suffix_disease, own.suffix_disease, (disease, edges[i:]))), 0)
        suffix_any = next((k - i for i in range(k) if n(a.pieces, own.pieces, edges[i:])), 0)
        prefix_any = next((j - 1 for j in range(k, 1, -1) if n(a.pieces, own.pieces, edges[1:j])), 0)
        n_target = n(a.first_target, own.first_target, target)
        cont = ([n(a.continuation, own.continuation, (target, e)) / n_target for e in rest]
                if n_target and rest else [0.0])
        edge_n = [seen.edge[e] for e in edges]
        node_log = [seen.node_log[x] for x in inner]
        return [
            sum(1 for c in edge_n[1:] if c) / len(rest) if rest else 1.0,
            sum(math.log1p(c) for c in edge_n[1:]) / len(rest) if rest else 0.0,
            suffix_disease / k,
            float(suffix_disease),
            suffix_any / k,
            float(suffix_any),
            prefix_any / max(k - 1, 1),
            math.log1p(n(a.last_disease, own.last_disease, (disease, edges[-1]))),
            math.log1p(n_target),
            max(cont),
            sum(cont) / len(cont),
            sum(1 for x in inner[1:] if seen.node_disease[x]) / max(len(inner) - 1, 1),
            sum(node_log) / len(node_log) if node_log else 0.0,
            min(node_log) if node_log else 0.0,
            sum(1 for e, c in zip(triples, edge_n, strict=True) if c == 0 and seen.pair[(e[0], e[2])]) / k,
        ]
