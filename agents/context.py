"""Per-run configuration of the QA graph (passed as ``context=``; no globals)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.settings import Settings, WalkBudget

__all__ = ["Context"]


@dataclass(kw_only=True)
class Context:
    """Run-time knobs. Every field has a default so ``langgraph dev`` can run with none."""

    interactive: bool = True
    """Ask the caller (interrupt) on an ambiguous mention; False picks the best candidate."""
    max_depth: int = 0
    """Walk depth per side; 0 takes the settings value."""
    max_nodes: int = 0
    """Nodes expanded per walk; 0 takes the settings value."""
    wall_ms: float = 0.0
    """Walk time budget in ms; 0 takes the settings value."""
    dense_backoff: bool = True
    """Inject seeds from dense search when the walk starves."""
    calibrated: bool = True
    """Use the fitted temperature T (False means T = 1)."""
    use_llm: bool = True
    """Use the configured LLM, if any, for the edge predictor, the reviewer and the explainer."""
    memory: bool = True
    """Read and write MIRIX-Slim memory (also needs the memory setting on)."""
    router: bool = True
    """Let the IMM router pick the stores; False consults every store (the ``imm-off`` ablation)."""
    now: float = 0.0
    """Clock of the run in epoch seconds; 0 takes the wall clock (set it to simulate days passing)."""
    top_k: int = 10
    """Candidate paths kept after ranking."""
    keep_pool: int = 0
    """Evaluation only: keep the triples of this many best-ranked paths in ``State.pool`` (0 keeps none)."""
    max_answer_tokens: int = 160
    """Token budget of the answer text."""
    resources: Any = field(default=None, repr=False, compare=False)
    """Preloaded ``Resources`` (in-process callers); loaded from settings when None."""
    settings: Any = field(default=None, repr=False, compare=False)
    """``Settings`` to use; read from the environment when None."""
    memory_store: Any = field(default=None, repr=False, compare=False)
    """An open ``Memory``; opened from settings when None."""
    router_rules: Any = field(default=None, repr=False, compare=False)
    """A loaded ``Router``; loaded from settings when None."""
    retrieval: Any = field(default=None, repr=False, compare=False)
    """A ``HybridRetriever``; the process's shared one when None."""

    def get_settings(self) -> Settings:
        """Settings for this run."""
        return self.settings if isinstance(self.settings, Settings) else Settings.from_env()

    def budget(self) -> WalkBudget:
        """The walk budget, with context overrides applied."""
        base = self.get_settings().budget
        return WalkBudget(
            max_depth=self.max_depth or base.max_depth,
            max_nodes=self.max_nodes or base.max_nodes,
            wall_ms=self.wall_ms or base.wall_ms,
        )

    def get_resources(self) -> Any:
        """Loaded resources (cached per index folder)."""
        if self.resources is None:
            from tools.resources import load_resources

            self.resources = load_resources(self.get_settings())
        return self.resources

    def clock(self) -> float:
        """The run's current time (epoch seconds)."""
        import time

        return self.now or time.time()

    def memory_on(self) -> bool:
        """True when memory is enabled for this run and in the settings."""
        return self.memory and self.get_settings().memory.enabled

    def get_memory(self) -> Any:
        """The open MIRIX-Slim memory (once per folder and process)."""
        if self.memory_store is None:
            from memory.mirix import open_memory

            self.memory_store = open_memory(self.get_settings())
        return self.memory_store

    def get_retrieval(self) -> Any:
        """The hybrid retrieval service (shared per index, patients file and memory folder)."""
        if self.retrieval is None:
            from tools.retrieval import shared_retriever

            self.retrieval = shared_retriever(self.get_settings(), self.get_resources())
        return self.retrieval

    def get_router(self) -> Any:
        """The IMM router (rules validated at load)."""
        if self.router_rules is None:
            from memory.router import DEFAULT_RULES, load_router

            self.router_rules = load_router(str(self.get_settings().memory.router_rules or DEFAULT_RULES))
        return self.router_rules

