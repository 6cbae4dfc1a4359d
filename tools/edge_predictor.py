"""0-hop edge predictor (design §5.1): which relations to follow from a node, with calibrated confidence."""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from core.errors import LLMError
from memory.protocols import Entity
from tools.calibration import calibrate

__all__ = [
    "Direction",
    "EdgePredictor",
    "EmbeddingEdgePredictor",
    "LLMEdgePredictor",
    "RelationPriors",
    "edge_prompt",
]

Direction = str  # "out" (forward from a drug) or "in" (backward from a disease)


@dataclass
class RelationPriors:
    """log P(relation | node type, direction), learned from gold triples of the tune half."""

    logp: dict[str, dict[str, float]] = field(default_factory=dict)
    """``"out|Drug" -> {relation: log prob}``."""
    default: float = math.log(1e-4)
    """Log prob of an unseen relation."""

    def get(self, node_type: str, direction: Direction, relation: str) -> float:
        """Log prior of a relation at a node type and direction."""
        table = self.logp.get(f"{direction}|{node_type}") or self.logp.get(f"{direction}|*", {})
        return table.get(relation, self.default)

    @classmethod
    def fit(cls, triples: Sequence[tuple[str, str, str]], relations: Sequence[str], alpha: float = 0.5) -> RelationPriors:
        """Fit from ``(head_type, relation, tail_type)`` rows with add-alpha smoothing."""
        counts: dict[str, dict[str, float]] = {}
        for ht, rel, tt in triples:
            for key in (f"out|{ht}", f"in|{tt}", "out|*", "in|*"):
                counts.setdefault(key, {}).setdefault(rel, 0.0)
                counts[key][rel] += 1
        logp = {}
        for key, c in counts.items():
            total = sum(c.values()) + alpha * len(relations)
            logp[key] = {r: math.log((c.get(r, 0.0) + alpha) / total) for r in relations}
        return cls(logp, math.log(alpha / (len(triples) + alpha * max(1, len(relations)))))

    def to_json(self) -> dict[str, object]:
        """Serialisable form."""
        return {"logp": self.logp, "default": self.default}

    @classmethod
    def from_json(cls, obj: dict[str, object]) -> RelationPriors:
        """Inverse of :meth:`to_json`."""
        return cls(obj["logp"], float(obj["default"]))  # type: ignore[arg-type]


class EdgePredictor(Protocol):
    """Scores relations to follow from a node for a question."""

    name: str
    temperature: float

    def predict(self, question: str, node: Entity, direction: Direction) -> list[dict[str, float | str]]:
        """``[{relation, prob}]`` (raw, before calibration), best first."""
        ...


def _softmax(x: np.ndarray) -> np.ndarray:
    z = np.exp(x - x.max())
    return z / z.sum()  # type: ignore[no-any-return]


class EmbeddingEdgePredictor:
    """Embedded default: relation prior by node type plus question-relation embedding similarity."""

    name = "embedding"

    def __init__(
        self,
        relations: Sequence[str],
        relation_vectors: np.ndarray,
        priors: RelationPriors,
        embed: Callable[[str], np.ndarray],
        *,
        beta: float = 4.0,
        temperature: float = 1.0,
    ) -> None:
        """Keep the vocabulary, its vectors (unit rows) and the priors."""
        self.relations = list(relations)
        self.relation_vectors = relation_vectors
        self.priors = priors
        self.embed = embed
        self.beta = beta
        self.temperature = temperature

    def raw(self, question_vec: np.ndarray, node_type: str, direction: Direction) -> np.ndarray:
        """Raw probability per relation (softmax over the vocabulary)."""
        prior = np.array([self.priors.get(node_type, direction, r) for r in self.relations])
        return _softmax(prior + self.beta * (self.relation_vectors @ question_vec))

    def predict(self, question: str, node: Entity, direction: Direction) -> list[dict[str, float | str]]:
        """``[{relation, prob}]``, best first."""
        p = self.raw(self.embed(question), node.type, direction)
        order = np.argsort(-p)
        return [{"relation": self.relations[i], "prob": float(p[i])} for i in order]

    def conf_fn(self, question_vec: np.ndarray, temperature: float | None = None) -> Callable[[str, Direction], dict[str, float]]:
        """A cached ``(node_type, direction) -> {relation: calibrated conf}`` for one question."""
        t = self.temperature if temperature is None else temperature
        cache: dict[tuple[str, str], dict[str, float]] = {}

        def fn(node_type: str, direction: Direction) -> dict[str, float]:
            key = (node_type, direction)
            if key not in cache:
                conf = calibrate(self.raw(question_vec, node_type, direction), t)
                cache[key] = dict(zip(self.relations, (float(c) for c in conf), strict=True))  # type: ignore[union-attr]
            return cache[key]

        return fn


def edge_prompt(question: str, node: Entity, direction: Direction, relations: Sequence[str]) -> str:
    """The prompt of the LLM backend: question, current node and edge vocabulary."""
    way = "leaving" if direction == "out" else "entering"
    return (
        "You help walk a biomedical knowledge graph to answer a question.\n"
        f"Question: {question}\n"
        f"Current node: {node.name} (type {node.type}).\n"
        f"Which relations {way} this node most likely lead toward the answer?\n"
        f"Edge vocabulary: {', '.join(relations)}\n"
        'Answer with JSON only: [{"relation": "...", "prob": 0.0}, ...] with probabilities in [0, 1].'
    )


class LLMEdgePredictor:
    """Prompts an OpenAI-compatible model for JSON; answers are cached in ``edge_cache.jsonl``."""

    name = "llm"

    def __init__(self, llm: object, relations: Sequence[str], cache_path: Path, temperature: float = 1.0) -> None:
        """Keep the client, the vocabulary and the cache file."""
        self.llm = llm
        self.relations = list(relations)
        self.cache_path = cache_path
        self.temperature = temperature
        self._lock = threading.Lock()
        self._cache: dict[str, list[dict[str, float | str]]] = {}
        if cache_path.exists():
            for line in cache_path.read_text(encoding="utf-8").splitlines():
                try:
                    row = json.loads(line)
                    self._cache[row["key"]] = row["answer"]
                except (ValueError, KeyError):
                    continue  # a torn line from a crash: skip it, keep the rest

    def predict(self, question: str, node: Entity, direction: Direction) -> list[dict[str, float | str]]:
        """``[{relation, prob}]`` from the model (or the cache); raises LLMError on a bad answer."""
        prompt = edge_prompt(question, node, direction, self.relations)
        key = hashlib.sha256(prompt.encode()).hexdigest()
        if key in self._cache:
            return self._cache[key]
        text = self.llm.complete(prompt)  # type: ignore[attr-defined]
        answer = parse_edge_json(text, self.relations)
        with self._lock:
            self._cache[key] = answer
            self.cache_path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.cache_path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"key": key, "answer": answer}) + "\n")
        return answer


def parse_edge_json(text: str, relations: Sequence[str]) -> list[dict[str, float | str]]:
    """Parse the model's JSON list, keeping known relations and clipping probabilities."""
    start, end = text.find("["), text.rfind("]")
    if start < 0 or end <= start:
        raise LLMError("edge predictor: the model answered without a JSON list")
    try:
        rows = json.loads(text[start : end + 1])
    except json.JSONDecodeError as exc:
        raise LLMError(f"edge predictor: invalid JSON from the model ({exc.msg})") from exc
    known = set(relations)
    out: dict[str, float] = {}
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, dict) and row.get("relation") in known:
            try:
                out[row["relation"]] = min(1.0, max(0.0, float(row.get("prob", 0.0))))
            except (TypeError, ValueError):
                continue
    if not out:
        raise LLMError("edge predictor: the model named no known relation")
    return [{"relation": r, "prob": p} for r, p in sorted(out.items(), key=lambda kv: -kv[1])]
