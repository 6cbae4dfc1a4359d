"""PET-style path judges: a cloze pattern with a yes/no verbalizer, scored by an LLM or an embedded model."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = ["CLAIM_PATTERN", "JUDGE_FEATURES", "PATTERNS", "VERBALIZER", "EmbeddedJudge", "LLMJudge", "fit_logistic", "verbalize_path"]

PATTERNS = (
    "Question: {question}\nEvidence: {path}\nDoes this evidence answer the question? ___",
    "{path}. Is that how the answer to \"{question}\" goes? ___",
)
"""Cloze patterns; ``___`` is the slot the verbalizer fills."""

VERBALIZER = {"accept": "yes", "reject": "no"}
"""Label words of the two decisions."""

JUDGE_FEATURES = ("share", "score_gap", "mean_log_conf", "hops", "connects", "question_sim", "type_loglik")


def verbalize_path(names: Sequence[str], relations: Sequence[str]) -> str:
    """``a —rel→ b —rel→ c``."""
    out = [names[0]]
    for rel, name in zip(relations, names[1:], strict=True):
        out.append(f"—{rel}→ {name}")
    return " ".join(out)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, x))))


@dataclass
class EmbeddedJudge:
    """Logistic model over path features; the probability of the ``yes`` verbalizer."""

    weights: list[float] = field(default_factory=lambda: [2.0, 0.5, 0.5, -0.2, 1.0, 1.0, 0.2])
    bias: float = -1.0
    mean: list[float] = field(default_factory=lambda: [0.0] * len(JUDGE_FEATURES))
    std: list[float] = field(default_factory=lambda: [1.0] * len(JUDGE_FEATURES))
    threshold: float = 0.5
    name: str = "embedded"

    def probability(self, features: dict[str, float]) -> float:
        """P(yes | pattern, path)."""
        x = np.array([features.get(f, 0.0) for f in JUDGE_FEATURES])
        z = (x - np.asarray(self.mean)) / np.asarray(self.std)
        return _sigmoid(float(z @ np.asarray(self.weights)) + self.bias)

    def to_json(self) -> dict[str, object]:
        """Serialisable form."""
        return {"weights": self.weights, "bias": self.bias, "mean": self.mean, "std": self.std, "threshold": self.threshold}

    @classmethod
    def from_json(cls, obj: dict[str, object]) -> EmbeddedJudge:
        """Inverse of :meth:`to_json`."""
        return cls(list(obj["weights"]), float(obj["bias"]), list(obj["mean"]), list(obj["std"]), float(obj["threshold"]))  # type: ignore[arg-type]


class LLMJudge:
    """Asks an OpenAI-compatible model each pattern and averages P(yes)."""

    name = "llm"

    def __init__(self, llm: object, threshold: float = 0.5) -> None:
        """Bind the client."""
        self.llm = llm
        self.threshold = threshold

    def probability(self, question: str, path_text: str) -> float:
        """Mean P(yes) over the patterns."""
        probs = [
            self.llm.yes_probability(p.replace("___", "").format(question=question, path=path_text))  # type: ignore[attr-defined]
            for p in PATTERNS
        ]
        return float(sum(probs) / len(probs))


def fit_logistic(x: np.ndarray, y: np.ndarray, epochs: int = 600, lr: float = 0.2, l2: float = 1e-3) -> EmbeddedJudge:
    """Fit an EmbeddedJudge by gradient descent on standardised features."""
    mean = x.mean(0)
    std = x.std(0)
    std[std < 1e-9] = 1.0
    z = (x - mean) / std
    w = np.zeros(x.shape[1])
    b = 0.0
    for _ in range(epochs):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        g = p - y
        w -= lr * (z.T @ g / len(y) + l2 * w)
        b -= lr * float(g.mean())
    return EmbeddedJudge(w.tolist(), b, mean.tolist(), std.tolist())


CLAIM_PATTERN = "Evidence: {evidence}\nClaim: {claim}\nDoes the evidence support the claim? ___"
"""Cloze pattern for a single remembered claim (memory ingest)."""
