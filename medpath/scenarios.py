"""Scripted end-to-end scenarios (``graphs/scenarios.yaml``) on the real graph, each in its own trace."""

from __future__ import annotations

import copy
import dataclasses
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from core.errors import ConfigError, InputError
from core.settings import Settings, project_root
from medpath.services import build_services
from medpath.session import Session, checkpoint_serde
from memory.mirix import Memory

__all__ = ["SCENARIOS_FILE", "ScenarioResult", "load_scenarios", "run_scenarios"]

SCENARIOS_FILE = project_root() / "graphs" / "scenarios.yaml"
DAY = 86400.0
T0 = 1_767_600_000.0
"""Day 0 of the scenario clock (a fixed time, so runs are repeatable)."""


@dataclass
class ScenarioResult:
    """Outcome of one scenario."""

    id: str
    title: str
    passed: bool
    reasons: list[str] = field(default_factory=list)
    """Why it failed (empty when it passed)."""
    trace_ids: list[str] = field(default_factory=list)
    """One trace per question the scenario asked."""
    values: dict[str, Any] = field(default_factory=dict)
    """Final state of the last question."""
    spans: list[dict[str, Any]] = field(default_factory=list)
    """Spans of the scenario's questions (the ``before`` questions excluded)."""


def load_scenarios(path: Path = SCENARIOS_FILE) -> list[dict[str, Any]]:
    """Read and check the scenario file."""
    try:
        data = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read scenarios {path}: {exc}") from exc
    if not isinstance(data, list) or not all(isinstance(s, dict) and "id" in s and "question" in s for s in data):
        raise ConfigError(f"{path}: expected a list of scenarios with id and question")
    return data


def _check(sc: dict[str, Any], first: dict[str, Any], out: dict[str, Any], spans: list[dict[str, Any]]) -> list[str]:
    exp = sc.get("expect", {})
    why: list[str] = []
    hops = len(out.get("evidence", []))
    walk = out.get("walk", {})
    if "status" in exp and out.get("status") != exp["status"]:
        why.append(f"status {out.get('status')} != {exp['status']} ({out.get('error', '')})")
    if "first_status" in exp and first.get("status") != exp["first_status"]:
        why.append(f"first status {first.get('status')} != {exp['first_status']}")
    if "min_hops" in exp and hops < exp["min_hops"]:
        why.append(f"path has {hops} hops < {exp['min_hops']}")
    if "max_hops" in exp and not 1 <= hops <= exp["max_hops"]:
        why.append(f"path has {hops} hops, want 1..{exp['max_hops']}")
    if exp.get("within_budget"):
        b = walk.get("budget", {})
        if not (walk.get("expanded", 1e9) <= b.get("max_nodes", 0) and walk.get("elapsed_ms", 1e9) <= b.get("wall_ms", 0) * 1.05
                and walk.get("depth_reached", 1e9) <= b.get("max_depth", 0)):
            why.append(f"walk over budget: {walk}")
    if exp.get("dense_seeds") and not out.get("dense", {}).get("seeds"):
        why.append("no dense seed was injected")
    if "stop" in exp and walk.get("stop") != exp["stop"]:
        why.append(f"walk stopped on {walk.get('stop')}, want {exp['stop']}")
    if "answer_contains" in exp and exp["answer_contains"] not in str(out.get("answer", "")):
        why.append(f"answer lacks {exp['answer_contains']!r}")
    if exp.get("vault_write") and not out.get("memory", {}).get("write", {}).get("vault", {}).get("inserted"):
        why.append("nothing was written to the vault")
    if "boost" in exp:
        boosted = out.get("memory", {}).get("boosted", [])
        if not boosted or abs(boosted[0]["weight_ratio"] - exp["boost"]) > 1e-3:
            why.append(f"no ×{exp['boost']} vault boost (boosted: {boosted})")
    if "fallback" in exp and not any(f["component"] == exp["fallback"] for f in out.get("fallbacks", [])):
        why.append(f"no {exp['fallback']} fallback recorded")
    if "error_span" in exp and not any(s["name"] == exp["error_span"] and s["status"] == "ERROR" for s in spans):
        why.append(f"no error span {exp['error_span']}")
    if exp.get("interrupt_span") and not any(s["attributes"].get("medpath.interrupt") for s in spans):
        why.append("no span records the interrupt")
    return why


def run_scenarios(settings: Settings, ids: list[str], run: Any, res: Any = None) -> list[ScenarioResult]:
    """Run the chosen scenarios (``all`` for every one); spans go to the open trace ``run``."""
    from langgraph.checkpoint.memory import InMemorySaver


    scenarios = load_scenarios()
    known = {s["id"] for s in scenarios}
    if ids and ids != ["all"]:
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise InputError(f"unknown scenario(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        scenarios = [s for s in scenarios if s["id"] in ids]
    res = res or build_services(settings).resources
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for sc in scenarios:
            base = res
            if sc.get("faults", {}).get("dense") and res.dense is not None:
                faulty = copy.copy(res.dense)
                faulty.fault = RuntimeError(str(sc["faults"]["dense"]))
                base = dataclasses.replace(res, dense=faulty)
            budget = sc.get("budget", {})
            session = Session(settings, interactive=bool(sc.get("interactive", False)),
                              checkpointer=InMemorySaver(serde=checkpoint_serde()), resources=base,
                              memory_store=Memory(Path(tmp) / sc["id"], settings.memory),
                              dense_backoff=bool(sc.get("dense_backoff", True)), **budget)
            start = len(run.spans)
            user = sc.get("user", f"scenario-{sc['id'].lower()}")
            for i, pre in enumerate(sc.get("before", [])):
                session.context.now = T0 + float(pre.get("clock_days", 0)) * DAY
                session.ask(pre["question"], thread_id=f"{sc['id']}-before-{i}", user_id=user)
            session.context.now = T0 + float(sc.get("clock_days", 0)) * DAY
            mark = len(run.spans)
            first = session.ask(sc["question"], thread_id=sc["id"], user_id=user)
            out = first
            if first.get("status") == "NEEDS_CLARIFICATION" and "resume" in sc:
                out = session.resume(sc["id"], sc["resume"])
            spans = run.spans[mark:]
            reasons = _check(sc, first, out, spans)
            traces = list(dict.fromkeys(s["trace_id"] for s in run.spans[start:]))
            results.append(ScenarioResult(sc["id"], sc.get("title", ""), not reasons, reasons, traces, out, list(spans)))
    return results
