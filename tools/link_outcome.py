"""What linking a mention gives: its status, and the candidates it may refer to (``tools.linker`` makes them)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Candidate", "LinkOutcome", "LinkStatus"]


class LinkStatus(StrEnum):
    """How a mention was resolved."""

    LINKED = "linked"
    AMBIGUOUS = "ambiguous"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Candidate:
    """One entity a mention may refer to."""

    id: str
    name: str
    type: str
    score: float
    method: str

    def as_dict(self) -> dict[str, object]:
        """JSON-friendly form."""
        return {"id": self.id, "name": self.name, "type": self.type, "score": round(self.score, 4), "method": self.method}


@dataclass(frozen=True)
class LinkOutcome:
    """The result of linking one mention."""

    mention: str
    status: LinkStatus
    candidates: tuple[Candidate, ...]

    @property
    def best(self) -> Candidate | None:
        """Top candidate, if any."""
        return self.candidates[0] if self.candidates else None
