"""Per-run configuration of the QA graph (passed as ``context=``; no globals)."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

from core.settings import Settings, WalkBudget
from memory.factory import open_memory
from memory.mirix import Memory
from memory.router import DEFAULT_RULES, Router, load_router
from tools.resources import Resources, load_resources
from tools.retrieval import HybridRetriever, open_retriever

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
    resources: Resources | None = field(default=None, repr=False, compare=False)
    """Loaded ``Resources`` (the app's services container gives them); loaded from settings when None."""
    settings: Settings | None = field(default=None, repr=False, compare=False)
    """``Settings`` to use; read from the environment when None."""
    memory_store: Memory | None = field(default=None, repr=False, compare=False)
    """An open ``Memory``; opened from settings when None."""
    router_rules: Router | None = field(default=None, repr=False, compare=False)
    """A loaded IMM ``Router``; loaded from settings when None."""
    retrieval: HybridRetriever | None = field(default=None, repr=False, compare=False)
    """The hybrid retrieval service the Retriever consults (without the memory stores); opened when None."""

    # A field left None is built on first use and kept on this context: a caller that reuses its context (a
    # session) builds it once; one-off contexts (LangGraph Studio's) build it per run. Nothing is cached per process.

    def get_settings(self) -> Settings:
        """Settings for this run."""
        if self.settings is None:
            self.settings = Settings.from_env()
        return self.settings

    def budget(self) -> WalkBudget:
        """The walk budget, with context overrides applied."""
        base = self.get_settings().budget
        return dataclasses.replace(base, max_depth=self.max_depth or base.max_depth,
                                   max_nodes=self.max_nodes or base.max_nodes, wall_ms=self.wall_ms or base.wall_ms)

    def get_resources(self) -> Resources:
        """The loaded KG, linker, embedder and models."""
        if self.resources is None:
            self.resources = load_resources(self.get_settings())
        return self.resources

    def clock(self) -> float:
        """The run's current time (epoch seconds)."""
        return self.now or time.time()

    def memory_on(self) -> bool:
        """True when memory is enabled for this run and in the settings."""
        return self.memory and self.get_settings().memory.enabled

    def get_memory(self) -> Memory:
        """The open MIRIX-Slim memory."""
        if self.memory_store is None:
            self.memory_store = open_memory(self.get_settings())
        return self.memory_store

    def get_retrieval(self) -> HybridRetriever:
        """The hybrid retrieval service, without its memory stores (the Retriever reads memory itself)."""
        if self.retrieval is None:
            self.retrieval = open_retriever(self.get_settings(), resources=self.get_resources(), memory=False)
        return self.retrieval

    def get_router(self) -> Router:
        """The IMM router (rules validated at load)."""
        if self.router_rules is None:
            self.router_rules = load_router(str(self.get_settings().memory.router_rules or DEFAULT_RULES))
        return self.router_rules
