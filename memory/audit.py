"""Audit events: one structured record per retrieval, with counts only (no names, no question text, no PHI).

Records are appended to ``<traces>/audit/audit.jsonl`` (``MEDPATH_TRACES_DIR``, default ``traces/``);
each carries the current trace id so it can be matched with the spans.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from opentelemetry import trace

from core.settings import Settings

__all__ = ["AUDIT_FIELDS", "audit"]

AUDIT_FIELDS = ("ts", "trace_id", "action", "source", "actor_hash", "auth_source", "patient_id", "route", "rule_id", "mode",
                "force_route", "latency_ms", "counts", "payload", "outcome", "fallbacks", "decisions")
"""Every field an audit record may hold; nothing else is written."""


def audit(settings: Settings, record: dict[str, Any]) -> None:
    """Append one audit record (unknown keys are dropped; a failing write never breaks the question)."""
    ctx = trace.get_current_span().get_span_context()
    row = {"ts": round(time.time(), 3), "trace_id": f"{ctx.trace_id:032x}" if ctx.is_valid else None, **record}
    row = {k: row[k] for k in AUDIT_FIELDS if k in row}
    folder = settings.traces_dir / "audit"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / "audit.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, (json.dumps(row) + "\n").encode())
        finally:
            os.close(fd)
    except OSError:
        import logging

        logging.getLogger("memory.audit").warning("audit write failed in %s", folder)
