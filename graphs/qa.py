"""Wires the QA graph: Turn (reset) → Planner → Retriever → Reviewer → Memory (gated write) → Explainer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from langgraph.graph import END, START, StateGraph

from agents.context import Context
from agents.explainer import explain
from agents.memorizer import remember
from agents.planner import plan, start_turn
from agents.retriever import retrieve
from agents.reviewer import review
from agents.state import InputState, Intent, State, Status
from graphs.spans import annotate, traced_node, with_services

__all__ = ["build_graph", "make_builder"]


THREAD_ANSWERED = (Intent.HISTORY.value, Intent.SMALL_TALK.value, Intent.CLASS_MEMBER.value, Intent.NAMES.value,
                   Intent.COUNT.value, Intent.DISEASES.value, Intent.DISEASES_OF.value, Intent.METABOLITES.value,
                   Intent.PRODUCTS.value, Intent.AMOUNTS.value, Intent.SELECTIVE.value,
                   Intent.SIMILAR.value, Intent.GLOSSARY.value, Intent.DISEASE_KINDS.value, Intent.ROLE.value)
"""Intents the explainer answers without a walk: from the thread's messages, as small talk, from the class table, from
the linker's names, or from the graph (a count, two diseases compared, the diseases an entity takes part in, what a
drug becomes, what a protein makes or does, what a drug raises or lowers, a class's selective drugs, the diseases like one, a
disease's kinds), or from the glossary."""


def after_planner(state: State) -> Literal["retriever", "explainer"]:
    """Skip retrieval when planning failed or found nothing to walk from, or the question needs no walk
    (:data:`THREAD_ANSWERED`)."""
    if state.status in (Status.ERROR, Status.NOT_FOUND) or state.intent in THREAD_ANSWERED:
        return "explainer"
    return "retriever"


def after_retriever(state: State) -> Literal["reviewer", "explainer"]:
    """Skip review when no candidate path was found."""
    return "reviewer" if state.candidates else "explainer"


def make_builder(defaults: Callable[[], Context] | None = None) -> StateGraph[State, Context, InputState, State]:
    """The QA graph's nodes and edges (not compiled). ``defaults`` supplies the services a run's context lacks."""
    builder = StateGraph(State, input_schema=InputState, context_schema=Context)
    builder.add_node("turn", start_turn)
    for name, fn in (("planner", plan), ("retriever", retrieve), ("reviewer", review), ("memory", remember),
                     ("explainer", explain)):
        builder.add_node(name, with_services(traced_node(name, fn, annotate(name)), defaults))
    builder.add_edge(START, "turn")
    builder.add_edge("turn", "planner")
    builder.add_conditional_edges("planner", after_planner)
    builder.add_conditional_edges("retriever", after_retriever)
    builder.add_edge("reviewer", "memory")
    builder.add_edge("memory", "explainer")
    builder.add_edge("explainer", END)
    return builder


def build_graph(checkpointer: Any = None, store: Any = None, *, defaults: Callable[[], Context] | None = None) -> Any:
    """Compile the graph with an optional checkpointer (threads) and store; see :func:`make_builder`."""
    g = make_builder(defaults).compile(checkpointer=checkpointer, store=store)
    g.name = "medpath-qa"
    return g
