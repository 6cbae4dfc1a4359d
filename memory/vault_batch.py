"""Batched vault writes: supersession resolved in memory over the touched slots, then one write.

``apply_writes`` replays writes (each a batch of accepted facts, then the facts an answer used), in
arrival order, over the current rows of the (owner, subj, rel) slots they touch, with exactly the
per-fact rules of ``Vault.add`` (refresh, re-open, supersede, a late value closed at once) and each
write's own counts. The vault then writes those slots' changed rows in one transaction, instead of a
transaction and half a dozen queries per fact: for one ``add_batch`` and for the group of asks a
group commit runs together (``memory.vault_group``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from memory.records import MemoryFact

__all__ = ["BatchItem", "Row", "VaultWrite", "apply_writes", "slot_key"]

Row = dict[str, object]
"""One vault row by column name."""


@dataclass(frozen=True)
class BatchItem:
    """One accepted fact of a batch, with its own supersede flag and clock."""

    fact: MemoryFact
    supersede: bool
    ts: float


def slot_key(owner: str, subj: str, rel: str) -> str:
    """The text key of an (owner, subj, rel) slot (unit separators between the parts)."""
    return f"{owner}\x1f{subj}\x1f{rel}"


def _supersede(slot: dict[str, Row], obj: str, start: float) -> tuple[float | None, int]:
    """Close the slot's other open values that started by ``start``; the end a late value gets, and how many closed."""
    later = [float(r["t_start"]) for o, r in slot.items()  # type: ignore[arg-type]
             if o != obj and float(r["t_start"]) > start and r["t_end"] is None]  # type: ignore[arg-type]
    closed = 0
    for o, r in slot.items():
        end = r["t_end"]
        if o != obj and float(r["t_start"]) <= start and (end is None or float(end) > start):  # type: ignore[arg-type]
            r["t_end"] = start
            closed += 1
    return (min(later) if later else None), closed


@dataclass(frozen=True)
class VaultWrite:
    """One ask's vault write: its accepted facts, then the facts its answer used (``touch``)."""

    items: tuple[BatchItem, ...]
    owner: str = ""
    """Owner of the touched facts."""
    touch: tuple[tuple[str, str, str], ...] = ()
    """(subj, rel, obj) of facts to mark as used."""
    now: float = 0.0
    """Clock of the touch."""

    def slots(self) -> set[str]:
        """Slot keys this write reads and rewrites."""
        return ({slot_key(i.fact.owner, i.fact.subj, i.fact.rel) for i in self.items}
                | {slot_key(self.owner, s, r) for s, r, _ in self.touch})


def _slots(rows: Iterable[Row]) -> dict[str, dict[str, Row]]:
    slots: dict[str, dict[str, Row]] = {}
    for r in rows:
        slots.setdefault(slot_key(str(r["owner"]), str(r["subj"]), str(r["rel"])), {})[str(r["obj"])] = dict(r)
    return slots


def _apply(slots: dict[str, dict[str, Row]], items: Sequence[BatchItem], touched: set[str]) -> dict[str, int]:
    """Replay ``items`` over ``slots`` (in place); the counts; the keys of the slots written go into ``touched``."""
    counts = {"inserted": 0, "refreshed": 0, "superseded": 0}
    for item in items:
        f, ts = item.fact, item.ts
        key = slot_key(f.owner, f.subj, f.rel)
        touched.add(key)
        slot = slots.setdefault(key, {})
        start = f.t_start or ts
        end: float | None = None
        if item.supersede:
            end, closed = _supersede(slot, f.obj, start)
            counts["superseded"] += closed
        row = slot.get(f.obj)
        if row is None:
            slot[f.obj] = {"owner": f.owner, "subj": f.subj, "rel": f.rel, "obj": f.obj, "first_seen": ts, "last_used": ts,
                           "use_count": 1, "quality": 1, "confidence": float(f.confidence), "evidence": f.evidence,
                           "t_start": start, "t_end": end, "recorded_at": ts}
            counts["inserted"] += 1
            continue
        reopen = item.supersede and row["t_end"] is not None and start >= float(row["t_end"])  # type: ignore[arg-type]
        row.update(last_used=ts, use_count=int(row["use_count"]) + 1,  # type: ignore[call-overload]
                   confidence=max(float(row["confidence"]), float(f.confidence)))  # type: ignore[arg-type]
        if reopen:
            row.update(t_start=start, t_end=end, recorded_at=ts)
        counts["refreshed"] += 1
    return counts


def apply_writes(rows: Iterable[Row], writes: Sequence[VaultWrite]) -> tuple[list[Row], list[tuple[dict[str, int], int]]]:
    """Every slot's rows after the writes (``rows``: the current rows of every ``VaultWrite.slots``), and per write
    its counts and how many facts its touch found (a touch raises ``use_count`` and ``last_used``, as
    ``Vault.touch``)."""
    slots = _slots(rows)
    out: list[tuple[dict[str, int], int]] = []
    for w in writes:
        counts = _apply(slots, w.items, set())
        used = 0
        for subj, rel, obj in sorted(set(w.touch)):
            row = slots.get(slot_key(w.owner, subj, rel), {}).get(obj)
            if row is not None:
                row.update(last_used=w.now, use_count=int(row["use_count"]) + 1)  # type: ignore[call-overload]
                used += 1
        out.append((counts, used))
    return [r for slot in slots.values() for r in slot.values()], out
