"""Wires the QA graph: Turn (reset) → Planner → Retriever → Reviewer → Memory (gated write) → Explainer."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph

from agents.context import Context
from agents.explainer import explain
from agents.memorizer import remember
from agents.planner import plan, start_turn
from agents.retriever import retrieve
from agents.reviewer import review
from agents.state import InputState, State, Status
from graphs.spans import annotate, traced_node

__all__ = ["build_graph", "builder", "graph"]


def after_planner(state: State) -> Literal["retriever", "explainer"]:
    """Skip retrieval when planning failed or found nothing to walk from."""
    if state.status in (Status.ERROR, Status.NOT_FOUND):
        return "explainer"
    return "retriever"


def after_retriever(state: State) -> Literal["reviewer", "explainer"]:
    """Skip review when no candidate path was found."""
    return "reviewer" if state.candidates else "explainer"


builder = StateGraph(State, input_schema=InputState, context_schema=Context)
builder.add_node("turn", start_turn)
builder.add_node("planner", traced_node("planner", plan, annotate("planner")))
builder.add_node("retriever", traced_node("retriever", retrieve, annotate("retriever")))
builder.add_node("reviewer", traced_node("reviewer", review, annotate("reviewer")))
builder.add_node("memory", traced_node("memory", remember, annotate("memory")))
builder.add_node("explainer", traced_node("explainer", explain, annotate("explainer")))
builder.add_edge(START, "turn")
builder.add_edge("turn", "planner")
builder.add_conditional_edges("planner", after_planner)
builder.add_conditional_edges("retriever", after_retriever)
builder.add_edge("reviewer", "memory")
builder.add_edge("memory", "explainer")
builder.add_edge("explainer", END)


def build_graph(checkpointer: Any = None, store: Any = None) -> Any:
    """Compile the graph with an optional checkpointer (threads) and store."""
    g = builder.compile(checkpointer=checkpointer, store=store)
    g.name = "medpath-qa"
    return g


graph = build_graph()
"""The compiled graph that ``langgraph.json`` names (the server supplies persistence)."""
