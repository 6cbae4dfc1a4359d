"""``medpath eval gate``: score the Reviewer's assertion gate on a labelled file of concept mentions.

A row is ``{"sentence": …, "concept": …, "status": …, "relation": …}`` (docs/formats.md). The gate
reads the concept's assertion status in the sentence and decides under the relation's policy. The
report gives, per gold status, how often the status was read right and how often the decision was
the one the policy asks for that status (a negated finding rejected, an affirmed one accepted), and
the confusion table of gold against read statuses.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from core.datasets import json_lines
from core.errors import DataError
from tools.assertion import PRECEDENCE
from tools.gate import ClaimGate, decide

__all__ = ["STATUSES", "load_rows", "score_gate"]

STATUSES = ("affirmed", *PRECEDENCE)
ALIASES = {"other": "family", "experiencer_other": "family", "someone_else": "family", "hearsay": "uncertain",
           "present": "affirmed", "recent": "affirmed", "absent": "negated", "hypothetic": "hypothetical"}
"""Other names a labelled file may use for a status."""


def load_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of a labelled file; DataError names the line of the first bad one."""
    rows = []
    for n, row in json_lines(path):
        if not all(isinstance(row.get(k), str) and row[k] for k in ("sentence", "concept", "status")):
            raise DataError(f"{path.name} line {n}: needs text fields sentence, concept and status")
        status = ALIASES.get(row["status"].strip().lower(), row["status"].strip().lower())
        if status not in STATUSES:
            raise DataError(f"{path.name} line {n}: unknown status {row['status']!r} (known: {', '.join(STATUSES)})")
        rows.append({**row, "status": status, "relation": str(row.get("relation") or "finding")})
    if not rows:
        raise DataError(f"{path.name}: no rows")
    return rows


def score_gate(rows: list[dict[str, Any]], gate: ClaimGate) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Metrics and one record per row (read status, cue, decision, expected decision)."""
    out = []
    t0 = time.perf_counter()
    for r in rows:
        a = gate.reader.read(r["sentence"], [r["concept"]])
        d = decide(a, r["relation"], gate.policy)
        rule = gate.policy.rule_for(r["relation"])
        expected = "accept" if r["status"] == "affirmed" or r["status"] in rule.accept else "reject"
        out.append({"sentence": r["sentence"], "concept": r["concept"], "relation": r["relation"], "gold": r["status"],
                    "read": a.status, "cue": d.reason.get("cue", ""), "decision": d.decision, "expected": expected,
                    "status_ok": a.status == r["status"], "decision_ok": d.decision == expected})
    seconds = time.perf_counter() - t0
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for o in out:
        by[o["gold"]].append(o)
    confusion = {g: dict(Counter(o["read"] for o in v)) for g, v in sorted(by.items())}
    per = {g: {"n": len(v), "status_accuracy": round(sum(o["status_ok"] for o in v) / len(v), 4),
               "decision_accuracy": round(sum(o["decision_ok"] for o in v) / len(v), 4),
               "accepted": round(sum(o["decision"] == "accept" for o in v) / len(v), 4)} for g, v in sorted(by.items())}
    metrics = {"rows": len(out), "status_accuracy": round(sum(o["status_ok"] for o in out) / len(out), 4),
               "decision_accuracy": round(sum(o["decision_ok"] for o in out) / len(out), 4), "per_status": per,
               "confusion": confusion, "sentences_per_s": round(len(out) / max(seconds, 1e-9), 1)}
    return metrics, out


def plot_gate(metrics: dict[str, Any], out: Path) -> Path:
    """Bars of status and decision accuracy per gold status."""
    from medpath.evaluation.report import _grouped_bars, _plt, _save

    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 3.5))
    groups = list(metrics["per_status"])
    _grouped_bars(ax, groups, {"status read right": [metrics["per_status"][g]["status_accuracy"] for g in groups],
                               "decision as the policy asks": [metrics["per_status"][g]["decision_accuracy"] for g in groups]})
    ax.set_ylim(0, 1.05)
    ax.set_title(f"medpath eval gate: {metrics['rows']} mentions")
    return _save(plt, fig, out)
