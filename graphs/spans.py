"""What each node's span records: counts, decisions and reasons; content only when capture is on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from langgraph.errors import GraphInterrupt
from langgraph.runtime import Runtime
from opentelemetry.trace import Span

from agents.context import Context
from agents.state import State
from core.tracing import error, set_content, tracer

__all__ = ["SERVICE_FIELDS", "annotate", "traced_node", "with_services"]


def _planner(s: Span, u: dict[str, Any]) -> None:
    mentions = u.get("mentions", [])
    s.set_attribute("medpath.intent", str(u.get("intent", "")))
    s.set_attribute("medpath.mentions.count", len(mentions))
    s.set_attribute("medpath.mentions.linked", sum(1 for m in mentions if m.get("entity")))
    s.set_attribute("medpath.seeds.sources", len(u.get("sources", [])))
    s.set_attribute("medpath.seeds.targets", len(u.get("targets", [])))
    if u.get("status"):
        s.set_attribute("medpath.status", str(u["status"]))
    set_content(s, "medpath.mentions", [m.get("mention") for m in mentions])
    set_content(s, "medpath.entities", [m["entity"]["name"] for m in mentions if m.get("entity")])


def _retriever(s: Span, u: dict[str, Any]) -> None:
    route, walk, dense, mem = u.get("route", {}), u.get("walk", {}), u.get("dense", {}), u.get("memory", {})
    s.set_attribute("medpath.route.rule_id", route.get("rule_id", ""))
    s.set_attribute("medpath.route.stores", list(route.get("stores", [])))
    s.set_attribute("medpath.route.mode", route.get("mode", ""))
    s.set_attribute("medpath.walk.expanded", int(walk.get("expanded", 0)))
    s.set_attribute("medpath.walk.depth_reached", int(walk.get("depth_reached", 0)))
    s.set_attribute("medpath.walk.elapsed_ms", float(walk.get("elapsed_ms", 0.0)))
    s.set_attribute("medpath.walk.stop", str(walk.get("stop", "")))
    budget = walk.get("budget", {})
    for k in ("max_depth", "max_nodes", "wall_ms"):
        if k in budget:
            s.set_attribute(f"medpath.budget.{k}", budget[k])
    s.set_attribute("medpath.candidates.count", len(u.get("candidates", [])))
    s.set_attribute("medpath.retrieved.count", len(u.get("retrieved", [])))
    s.set_attribute("medpath.dense.triggered", bool(dense.get("triggered")))
    s.set_attribute("medpath.dense.seeds", len(dense.get("seeds", [])))
    s.set_attribute("medpath.memory.hits", len(mem.get("hits", [])))
    s.set_attribute("medpath.memory.boosted", len(mem.get("boosted", [])))
    if mem.get("boosted"):
        s.set_attribute("medpath.memory.boost_factor", float(mem.get("boost_factor", 1.0)))
    _fallbacks(s, u)


def _reviewer(s: Span, u: dict[str, Any]) -> None:
    r = u.get("review", {})
    s.set_attribute("medpath.review.decision", r.get("decision", ""))
    s.set_attribute("medpath.review.score", float(r.get("score", 0.0)))
    s.set_attribute("medpath.review.backend", r.get("backend", ""))
    s.set_attribute("medpath.review.accepted", len(r.get("accepted", [])))
    _fallbacks(s, u)


def _memory(s: Span, u: dict[str, Any]) -> None:
    w = u.get("memory", {}).get("write", {})
    s.set_attribute("medpath.memory.written", bool(w.get("written")))
    s.set_attribute("medpath.memory.gate", str(w.get("gate", "")))
    s.set_attribute("medpath.memory.vault_inserted", int(w.get("vault", {}).get("inserted", 0)))
    s.set_attribute("medpath.memory.vault_refreshed", int(w.get("vault", {}).get("refreshed", 0)))
    s.set_attribute("medpath.memory.episodic_rows", int(w.get("episodic", 0)))
    _fallbacks(s, u)


def _explainer(s: Span, u: dict[str, Any]) -> None:
    if u.get("status"):
        s.set_attribute("medpath.status", str(u["status"]))
    s.set_attribute("medpath.evidence.hops", len(u.get("evidence", [])))
    s.set_attribute("medpath.citations.count", len(u.get("citations", [])))
    set_content(s, "medpath.answer", u.get("answer"))
    _fallbacks(s, u)


def _fallbacks(s: Span, u: dict[str, Any]) -> None:
    fb = u.get("fallbacks", [])
    if fb:
        s.set_attribute("medpath.fallback.components", [f["component"] for f in fb])
        s.set_attribute("medpath.fallback.reasons", [f["reason"] for f in fb])


_BY_NODE: dict[str, Callable[[Span, dict[str, Any]], None]] = {
    "planner": _planner, "retriever": _retriever, "reviewer": _reviewer, "memory": _memory, "explainer": _explainer,
}


def annotate(node: str) -> Callable[[Span, dict[str, Any]], None]:
    """The attribute writer of a node."""
    return _BY_NODE.get(node, lambda s, u: None)


def traced_node(name: str, fn: Callable[..., dict[str, Any]], annotate: Callable[[Span, dict[str, Any]], None]) -> Callable[..., dict[str, Any]]:
    """Wrap a graph node in a ``node.<name>`` span; an ``interrupt()`` is recorded, not treated as an error."""
    def node(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
        with tracer().start_as_current_span(f"node.{name}", attributes={"medpath.node": name},
                                            record_exception=False, set_status_on_exception=False) as s:
            try:
                update = fn(state, runtime)
            except GraphInterrupt:
                s.set_attribute("medpath.interrupt", True)
                s.add_event("interrupt", {"medpath.status": "NEEDS_CLARIFICATION"})
                raise
            except Exception as exc:
                error(s, exc, f"{name} failed")
                raise
            annotate(s, update)
            return update

    node.__name__ = name
    node.__doc__ = fn.__doc__
    return node


SERVICE_FIELDS = ("settings", "resources", "memory_store", "router_rules", "retrieval")
"""Context fields that hold services rather than per-run knobs."""


def with_services(fn: Callable[..., dict[str, Any]], defaults: Callable[[], Context] | None) -> Callable[..., dict[str, Any]]:
    """Give a node the services of ``defaults()`` where its run's context has none (Studio sends only knobs).

    ``defaults`` is called inside the node (a worker thread), never while the graph is built: building services
    reads files, and Studio builds the graph on its event loop."""
    if defaults is None:
        return fn

    def node(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
        ctx = runtime.context or Context()
        if all(getattr(ctx, f) is not None for f in SERVICE_FIELDS):
            return fn(state, runtime)
        base = defaults()
        missing = {f: getattr(base, f) for f in SERVICE_FIELDS if getattr(ctx, f) is None}
        if missing:
            runtime = runtime.override(context=replace(ctx, **missing))
        return fn(state, runtime)

    node.__name__ = getattr(fn, "__name__", "node")
    node.__doc__ = fn.__doc__
    return node
