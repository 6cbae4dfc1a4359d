"""Per-run configuration of the QA graph (passed as ``context=``; no globals)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from medpath.settings import Settings, WalkBudget

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
    top_k: int = 10
    """Candidate paths kept after ranking."""
    max_answer_tokens: int = 160
    """Token budget of the answer text."""
    resources: Any = field(default=None, repr=False, compare=False)
    """Preloaded ``Resources`` (in-process callers); loaded from settings when None."""
    settings: Any = field(default=None, repr=False, compare=False)
    """``Settings`` to use; read from the environment when None."""

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
            from medpath.resources import load_resources

            self.resources = load_resources(self.get_settings())
        return self.resources
