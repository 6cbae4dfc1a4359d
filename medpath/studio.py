"""LangGraph Studio's entry point (``langgraph.json``): the QA graph with this process's services.

``langgraph dev`` calls :func:`graph` for every run. The services are built once for the Studio process, here at the
top of the app, and the run's context gets them when Studio's context (plain JSON knobs) leaves them out.
"""

from __future__ import annotations

import threading
from typing import Any

from langchain_core.runnables import RunnableConfig

from agents.context import Context
from graphs.qa import build_graph
from medpath.services import Services, build_services

__all__ = ["graph"]

_lock = threading.Lock()
_services: list[Services] = []  # the Studio process's one container (filled on the first run)


def _studio_services() -> Services:
    with _lock:
        if not _services:
            _services.append(build_services())
        return _services[0]


def _studio_context() -> Context:
    return _studio_services().context()


def graph(config: RunnableConfig) -> Any:
    """The compiled QA graph for one Studio run (the server supplies persistence)."""
    del config  # every run gets the same graph; the services are the process's
    return build_graph(defaults=_studio_context)
