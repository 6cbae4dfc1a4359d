"""The services container: every store, model and index of one process, built once from settings.

The CLI, the HTTP API, the MCP server, the evaluation and the benches take their stores from here, and the QA
graph receives them through LangGraph's runtime context (:meth:`Services.context`). Nothing below ``medpath/``
caches anything per process; this container is where sharing happens, and it is passed along explicitly.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from agents.context import Context
from core.pseudonyms import Pseudonyms, load_key
from core.settings import Settings
from memory.factory import open_memory
from memory.mirix import Memory
from memory.router import DEFAULT_RULES, Router, load_router
from tools.resources import Resources, load_resources
from tools.retrieval import HybridRetriever, open_retriever

__all__ = ["Services", "build_services"]

T = TypeVar("T")


@dataclass
class Services:
    """One process's stores, built on first use and then shared (thread-safe)."""

    settings: Settings
    """Where the indexes, memory and traces live."""
    _built: dict[str, Any] = field(default_factory=dict, repr=False)
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    def _once(self, name: str, build: Callable[[], T]) -> T:
        with self._lock:
            if name not in self._built:
                self._built[name] = build()
            return self._built[name]  # type: ignore[no-any-return]

    @property
    def resources(self) -> Resources:
        """The KG, linker, embedder, dense index and learned models."""
        return self._once("resources", lambda: load_resources(self.settings))

    @property
    def memory(self) -> Memory | None:
        """MIRIX-Slim memory, or None when the settings turn memory off."""
        return self._once("memory", lambda: open_memory(self.settings, self.pseudonyms) if self.settings.memory.enabled else None)

    @property
    def router(self) -> Router:
        """The IMM router's rules."""
        return self._once("router", lambda: load_router(str(self.settings.memory.router_rules or DEFAULT_RULES)))

    @property
    def pseudonyms(self) -> Pseudonyms:
        """The keyed pseudonyms of users in audit records and traces (the key is read once)."""
        return self._once("pseudonyms", lambda: Pseudonyms(load_key(self.settings.home)))

    @property
    def retrieval(self) -> HybridRetriever:
        """The hybrid retrieval service with the memory stores (the API, the SDK and MCP)."""
        return self._once("retrieval", lambda: open_retriever(self.settings, resources=self.resources,
                                                             memory=self.memory or False, pseudonym=self.pseudonyms))

    @property
    def pipeline_retrieval(self) -> HybridRetriever:
        """The same service without the memory stores: the Retriever node reads memory itself."""
        return self._once("pipeline_retrieval", lambda: open_retriever(self.settings, resources=self.resources,
                                                                      memory=False, pseudonym=self.pseudonyms))

    def context(self, **knobs: Any) -> Context:
        """A run context for the QA graph carrying these services; ``knobs`` are Context's per-run fields (and may
        replace a service, e.g. a throw-away ``memory_store``)."""
        fields: dict[str, Any] = {"settings": self.settings, "resources": self.resources, "memory_store": self.memory,
                                  "router_rules": self.router, "retrieval": self.pipeline_retrieval}
        return Context(**{**fields, **knobs})


def build_services(settings: Settings | None = None) -> Services:
    """The container for ``settings`` (from the environment when None); stores load on first use."""
    return Services(settings or Settings.from_env())
