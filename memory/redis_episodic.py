"""The episodic scratch-pad on Redis: shared by every server process, with the same methods as ``EpisodicStore``.

Each fact is one string key (its JSON, expiring ``ttl_s`` after it was written, plus a minute), indexed by two
sorted sets scored by its creation time: one per owner and one per (owner, subject). Reads filter by the
caller's clock (``now - ttl_s``), as the SQLite tier does, so a test's clock and the server's agree; a write
sweeps the owner's expired entries. Redis is reached with ``redis-py`` and a short socket timeout: a dead Redis is
a ``StoreBusyError``, never a hang.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

from core.errors import ConfigError, StoreBusyError, StoreError
from memory.records import MemoryFact, fact_id

__all__ = ["RedisEpisodic"]

_SEP = "\x1f"


class RedisEpisodic:
    """``EpisodicTier`` on Redis."""

    def __init__(self, url: str, ttl_s: float = 1800.0, *, prefix: str = "medpath:ep", timeout_s: float = 5.0) -> None:
        """Connect (checked at once); ``prefix`` namespaces the keys."""
        try:
            import redis
        except ImportError as exc:
            raise ConfigError("the Redis episodic tier needs redis-py: pip install 'medpath[redis]'") from exc
        self._errors = (redis.exceptions.ConnectionError, redis.exceptions.RedisError)
        self.ttl_s, self.prefix = float(ttl_s), prefix
        self.r = redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s, decode_responses=True)
        self._call(self.r.ping)

    def _call(self, fn: Any, *args: Any) -> Any:
        down, failed = self._errors
        try:
            return fn(*args)
        except down as exc:
            raise StoreBusyError(f"episodic store: Redis is not answering ({exc})", retry_after=5.0) from exc
        except failed as exc:
            raise StoreError(f"episodic store failed on Redis: {exc}") from exc

    def _k(self, *parts: str) -> str:
        return _SEP.join((self.prefix, *parts))

    def _cutoff(self, now: float | None) -> float:
        return (time.time() if now is None else now) - self.ttl_s

    def add(self, facts: Iterable[MemoryFact], now: float | None = None) -> int:
        """Insert facts (id = content hash of owner, thread, triple); returns rows written."""
        ts = time.time() if now is None else now
        return self.add_many([(f, ts) for f in facts])

    def add_many(self, pairs: Iterable[tuple[MemoryFact, float]]) -> int:
        """Insert (fact, creation time) pairs in one round trip (MULTI), each with the gate's reason."""
        pairs = list(pairs)
        if not pairs:
            return 0
        pipe = self.r.pipeline(transaction=True)
        expire = int(self.ttl_s) + 60
        for f, ts in pairs:
            fid = fact_id(f.owner, f.subj, f.rel, f.obj, f.thread)
            body = {"owner": f.owner, "thread": f.thread, "subj": f.subj, "rel": f.rel, "obj": f.obj,
                    "evidence": f.evidence, "confidence": float(f.confidence), "ts": float(ts),
                    "reason": f.extra.get("reason") or ""}
            pipe.set(self._k("f", fid), json.dumps(body), ex=expire)
            pipe.zadd(self._k("o", f.owner), {fid: ts})
            pipe.zadd(self._k("s", f.owner, f.subj), {fid: ts})
            pipe.sadd(self._k("subjects", f.owner), f.subj)
            pipe.sadd(self._k("owners"), f.owner)
        newest = max(ts for _, ts in pairs)
        for owner in {f.owner for f, _ in pairs}:
            pipe.zremrangebyscore(self._k("o", owner), "-inf", f"({newest - self.ttl_s}")
        self._call(pipe.execute)
        return len(pairs)

    def _load(self, ids: list[str]) -> list[MemoryFact]:
        if not ids:
            return []
        bodies = self._call(self.r.mget, [self._k("f", i) for i in ids])
        return [self._fact(json.loads(b)) for b in bodies if b]

    def by_subject(self, owner: str, subj: str, now: float | None = None) -> list[MemoryFact]:
        """Live facts of one owner about a subject, newest first."""
        ids = self._call(self.r.zrevrangebyscore, self._k("s", owner, subj), "+inf", self._cutoff(now))
        return self._load(ids)

    def recent(self, owner: str, thread: str | None = None, limit: int = 50, now: float | None = None) -> list[MemoryFact]:
        """Live facts of one owner (optionally one thread), newest first."""
        facts = self._load(self._call(self.r.zrevrangebyscore, self._k("o", owner), "+inf", self._cutoff(now)))
        return [f for f in facts if thread is None or f.thread == thread][: int(limit)]

    def sweep(self, now: float | None = None) -> int:
        """Drop expired entries from the indexes; returns how many."""
        cut = f"({self._cutoff(now)}"
        n = 0
        for owner in self._call(self.r.smembers, self._k("owners")):
            n += int(self._call(self.r.zremrangebyscore, self._k("o", owner), "-inf", cut))
            for subj in self._call(self.r.smembers, self._k("subjects", owner)):
                self._call(self.r.zremrangebyscore, self._k("s", owner, subj), "-inf", cut)
        return n

    def forget(self, owner: str) -> int:
        """Delete every key of one owner; returns how many facts went."""
        ids = self._call(self.r.zrange, self._k("o", owner), 0, -1)
        subjects = self._call(self.r.smembers, self._k("subjects", owner))
        keys = [self._k("f", i) for i in ids] + [self._k("s", owner, s) for s in subjects]
        keys += [self._k("o", owner), self._k("subjects", owner)]
        pipe = self.r.pipeline(transaction=True)
        pipe.delete(*keys)
        pipe.srem(self._k("owners"), owner)
        self._call(pipe.execute)
        return len(ids)

    def count(self, owner: str | None = None, now: float | None = None) -> int:
        """Live rows (of one owner, or all)."""
        owners = [owner] if owner is not None else list(self._call(self.r.smembers, self._k("owners")))
        return sum(int(self._call(self.r.zcount, self._k("o", o), self._cutoff(now), "+inf")) for o in owners)

    def owners(self) -> list[str]:
        """Owners with at least one entry."""
        return sorted(self._call(self.r.smembers, self._k("owners")))

    def close(self) -> None:
        """Close the connection pool."""
        self.r.close()

    @staticmethod
    def _fact(b: dict[str, Any]) -> MemoryFact:
        ts = float(b["ts"])
        return MemoryFact(owner=b["owner"], subj=b["subj"], rel=b["rel"], obj=b["obj"], confidence=b["confidence"],
                          evidence=b["evidence"], store="episodic", first_seen=ts, last_used=ts, t_start=ts,
                          recorded_at=ts, thread=b["thread"])
