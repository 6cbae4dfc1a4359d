"""MIRIX-Slim: the episodic scratch-pad, the vault and mem_index behind one small facade.

Writes pass the Reviewer gate: ``commit`` takes the Reviewer's ``GateDecision`` and writes
nothing unless it says ``accept``. Reads rank hits by the composite score
``w_sim·similarity + w_sal·salience + w_conf·confidence``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.settings import MemorySettings
from memory.episodic import EpisodicStore
from memory.gate_log import GateLog
from memory.index import MemIndex
from memory.patients import patient_ids_in
from memory.protocols import EpisodicTier
from memory.records import SCORE_WEIGHTS, GateDecision, MemoryFact, Salience, composite_score
from memory.vault import Vault, WriteReport
from memory.vault_batch import BatchItem

__all__ = ["CommitReport", "Memory"]


@dataclass
class CommitReport:
    """What a commit wrote."""

    written: bool
    """False when the gate stayed shut."""
    reason: str = ""
    """Why nothing was written, if so."""
    episodic: int = 0
    """Episodic rows written."""
    vault: WriteReport = field(default_factory=WriteReport)
    """Vault write details."""
    indexed: int = 0
    """mem_index keys registered."""
    touched: int = 0
    """Vault facts the answer used whose use count was raised (``touch``)."""

    def to_json(self) -> dict[str, Any]:
        """Plain dictionary."""
        return {"written": self.written, "reason": self.reason, "episodic": self.episodic, "indexed": self.indexed,
                "vault": vars(self.vault).copy(), "touched": self.touched}


class Memory:
    """The two memory tiers and their index in one folder."""

    def __init__(self, folder: Path | str, settings: MemorySettings | None = None,
                 pseudonym: Callable[[str], str] | None = None, *, episodic: EpisodicTier | None = None,
                 vault: Any = None, index: Any = None, gate_log: Any = None) -> None:
        """Open (or create) ``episodic.sqlite``, ``vault.duckdb``, ``mem_index.sqlite`` and ``gate_log.sqlite`` in
        ``folder``; a tier given here (a scale-out backend, ``memory.factory``) is used instead of its file."""
        self.settings = settings or MemorySettings()
        self.folder = Path(folder)
        wait = self.settings.wait_s  # how long a write waits for a file another process holds (MEDPATH_STORE_WAIT_S)
        self.episodic = episodic or EpisodicStore(self.folder / "episodic.sqlite", self.settings.ttl_s, wait)
        self.vault = vault or Vault(self.folder / "vault.duckdb", self.settings.vault_max_rows, pseudonym, wait_s=wait)
        self.index = index or MemIndex(self.folder / "mem_index.sqlite", wait)
        self.gate_log = gate_log or GateLog(self.folder / "gate_log.sqlite", wait_s=wait)
        self.salience = Salience(self.settings.half_life_days * 86400.0)

    def commit(
        self,
        decision: GateDecision,
        facts: Sequence[MemoryFact],
        *,
        supersede: bool = False,
        aliases: dict[str, Iterable[str]] | None = None,
        vectors: dict[str, np.ndarray] | None = None,
        now: float | None = None,
        owner: str = "",
        touch: Iterable[tuple[str, str, str]] = (),
    ) -> CommitReport:
        """Write accepted facts to the vault, the episodic store and the index; a reject writes nothing.

        ``touch`` lists (subj, rel, obj) of ``owner``'s vault facts that the answer used: their use count is raised
        whatever the gate said. The vault part goes first, in a group commit shared with this process's concurrent
        writers (``Vault.write``); when it fails, nothing else is written.
        """
        ts = time.time() if now is None else now
        keep = decision.accepted and bool(facts)
        for f in facts if keep else ():
            f.confidence = float(decision.score)
            f.quality = 1
            f.t_start = f.t_start or ts
        items = [BatchItem(f, supersede, ts) for f in facts] if keep else []
        vault, used = self.vault.write(items, owner=owner, touch=touch, now=ts)
        if not decision.accepted:
            return CommitReport(written=False, reason=f"reviewer said {decision.decision} (score {decision.score:.2f})",
                                touched=used)
        if not facts:
            return CommitReport(written=False, reason="nothing to write", touched=used)
        rep = CommitReport(written=True, vault=vault, touched=used)
        rep.episodic = self.episodic.add(facts, now=ts)
        aliases = aliases or {}
        vectors = vectors or {}
        rep.indexed = self.index.register_many(
            (owner, subj, aliases.get(subj, ()), vectors.get(subj)) for owner, subj in dict.fromkeys((f.owner, f.subj) for f in facts)
        )
        return rep

    def commit_batch(self, items: Sequence[tuple[GateDecision, MemoryFact, bool, Iterable[str]]]) -> WriteReport:
        """Log every decision with its reason, then write the accepted facts in one go per tier.

        Each item is (decision, fact, supersede, subject aliases); the fact's ``t_start`` is its clock.
        The result equals ``commit`` called item by item in this order.
        """
        self.gate_log.add((f.t_start, f.owner, f.subj, f.rel, f.obj, d.decision, float(d.score), d.backend, d.reason)
                          for d, f, _, _ in items)
        accepted = [(d, f, sup, al) for d, f, sup, al in items if d.accepted]
        for d, f, _, _ in accepted:
            f.confidence, f.quality = float(d.score), 1
            f.extra["reason"] = d.reason
        self.episodic.add_many((f, f.t_start) for _, f, _, _ in accepted)
        rep = self.vault.add_batch([BatchItem(f, sup, f.t_start) for _, f, sup, _ in accepted])
        aliases: dict[tuple[str, str], list[str]] = {}
        for _, f, _, al in accepted:
            aliases.setdefault((f.owner, f.subj), []).extend(al)
        self.index.register_many((o, s, al, None) for (o, s), al in aliases.items())
        return rep

    def resolve(self, owners: Sequence[str], text: str) -> list[str]:
        """Subjects an id or alias points at (mem_index)."""
        return self.index.lookup(owners, text)

    def recall(
        self,
        owners: Sequence[str],
        subjects: str | Sequence[str] | None = None,
        rel: str | None = None,
        *,
        stores: Sequence[str] = ("episodic", "vault"),
        as_of: float | None = None,
        weights: tuple[float, float, float] = SCORE_WEIGHTS,
        similarity: Callable[[Sequence[MemoryFact]], Sequence[float]] | None = None,
        keep: Callable[[MemoryFact], bool] | None = None,
        episodic_limit: int = 500,
        max_scored: int | None = None,
        patients: Callable[[str], bool] | None = None,
    ) -> list[MemoryFact]:
        """The one memory reader: current facts of ``owners``, ranked by the composite score (best first).

        ``subjects`` picks the facts about those subjects (one id or several); None takes every current fact of the
        owners, where an episodic fact whose slot the vault has closed (a superseded version) is left out. ``keep``
        filters before scoring, ``max_scored`` caps how many kept facts are scored (vault first, newest first), and
        ``similarity`` scores them in one batch (1.0 each without it). ``patients`` is the caller's patient scope:
        a fact that names a patient outside it (as subject, object or in its evidence) is never returned."""
        now = time.time() if as_of is None else as_of
        found = self._current(owners, subjects, rel, stores, now, episodic_limit)
        out = [f for f in found if (patients is None or _in_scope(f, patients)) and (keep is None or keep(f))][:max_scored]
        sims = list(similarity(out)) if similarity and out else [1.0] * len(out)
        for f, s in zip(out, sims, strict=True):
            f.similarity = float(s)
            f.score = composite_score(f.similarity, self.salience(f.last_used, f.use_count, now), f.confidence, weights)
        out.sort(key=lambda f: (-f.score, -f.t_start, f.obj))
        return out

    def _current(self, owners: Sequence[str], subjects: str | Sequence[str] | None, rel: str | None,
                 stores: Sequence[str], now: float, episodic_limit: int) -> list[MemoryFact]:
        hits: dict[tuple[str, str, str, str], MemoryFact] = {}
        if subjects is None:
            vault = self.vault.current_of(owners, as_of=now) if "vault" in stores else []
            for f in vault:
                hits.setdefault((f.owner, *f.key), f)
            if "episodic" in stores:
                shadowed = {f.key for f in vault} | self.vault.closed_of(owners, as_of=now)
                for o in owners:
                    for f in self.episodic.recent(o, limit=episodic_limit, now=now):
                        if f.key not in shadowed and (rel is None or f.rel == rel):
                            hits.setdefault((f.owner, *f.key), f)
            return list(hits.values())
        for subj in [subjects] if isinstance(subjects, str) else subjects:
            for store in stores:
                if store == "vault":
                    found = self.vault.current(owners, subj, rel, as_of=now)
                elif store == "episodic":
                    found = [f for o in owners for f in self.episodic.by_subject(o, subj, now=now) if rel is None or f.rel == rel]
                else:
                    continue
                for f in found:
                    hits.setdefault((f.owner, *f.key), f)
        return list(hits.values())

    def vault_matches(self, owners: Sequence[str], edges: Iterable[tuple[str, str, str]], as_of: float | None = None) -> set[tuple[str, str, str]]:
        """The edges that match a current vault fact of these owners."""
        edges = set(edges)
        subjects = {h for h, _, _ in edges}
        current = {f.key for s in subjects for f in self.vault.current(owners, s, as_of=as_of)}
        return edges & current

    def forget(self, owner: str) -> dict[str, int]:
        """Delete one owner's memory everywhere; returns rows removed per tier."""
        return {"vault": self.vault.forget(owner), "episodic": self.episodic.forget(owner), "mem_index": self.index.forget(owner),
                "gate_log": self.gate_log.forget(owner)}

    def stats(self, now: float | None = None) -> dict[str, Any]:
        """Counts per tier."""
        return {"folder": str(self.folder), "vault": self.vault.stats(), "episodic_live": self.episodic.count(now=now),
                "mem_index_keys": self.index.count(), "ttl_s": self.settings.ttl_s}


def _in_scope(f: MemoryFact, patients: Callable[[str], bool]) -> bool:
    """True when every patient the fact names is in the scope."""
    return all(patients(pid) for pid in patient_ids_in(f"{f.subj} {f.obj} {f.evidence}"))
