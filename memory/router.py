"""IMM router (design §5.4): deterministic YAML rules pick the stores a question consults.

Every decision names the rule that fired. Retrieval modes (``semantic``, ``session_recovery``,
``knowledge_lookup``) then filter and order the stores and set the composite-score weights.
An invalid rules file is refused when it is loaded, with the line at fault.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from core.errors import ConfigError
from core.text import fold
from memory.records import SCORE_WEIGHTS
from memory.stores import ALIASES, ROUTABLE

__all__ = ["DEFAULT_RULES", "MODES", "STORES", "ModeSpec", "RouteDecision", "Router", "Rule", "load_router"]

STORES: tuple[str, ...] = tuple(s.value for s in ROUTABLE)
"""Stores the router can pick (``memory.stores``: the one vocabulary of the retrieval stack)."""
MODES = ("semantic", "session_recovery", "knowledge_lookup")
"""Retrieval modes."""
DEFAULT_RULES = Path(__file__).with_name("router.yaml")
"""The rules shipped with medpath."""


@dataclass(frozen=True)
class Rule:
    """One routing rule."""

    id: str
    """Stable rule id, recorded with every decision."""
    stores: tuple[str, ...]
    """Stores consulted when it fires."""
    match: tuple[str, ...] = ()
    """Phrases (whole words, case-folded); empty for the default rule."""
    default: bool = False
    """True for the catch-all rule."""
    patterns: tuple[re.Pattern[str], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class ModeSpec:
    """What a retrieval mode does to the routed stores."""

    name: str
    include: tuple[str, ...] = ()
    """Stores added even when the rule did not pick them."""
    exclude: tuple[str, ...] = ()
    """Stores removed."""
    first: tuple[str, ...] = ()
    """Stores moved to the front (consulted and listed first)."""
    weights: tuple[float, float, float] = SCORE_WEIGHTS
    """Composite score weights: similarity, salience, confidence."""


@dataclass(frozen=True)
class RouteDecision:
    """Which stores to consult and why."""

    stores: tuple[str, ...]
    """Stores, in the order to consult them."""
    rule_id: str
    """The rule that fired (``router-off`` when routing is disabled)."""
    matched: str = ""
    """The phrase that matched, if any."""
    mode: str = "semantic"
    """The retrieval mode applied."""
    weights: tuple[float, float, float] = SCORE_WEIGHTS
    """Composite score weights of the mode."""

    def to_json(self) -> dict[str, Any]:
        """Plain dictionary for the state and traces."""
        return {"stores": list(self.stores), "rule_id": self.rule_id, "matched": self.matched, "mode": self.mode,
                "weights": list(self.weights)}


def _fail(path: Path, node: Any, msg: str) -> ConfigError:
    line = node.start_mark.line + 1 if node is not None and getattr(node, "start_mark", None) else 0
    return ConfigError(f"{path.name} line {line}: {msg}")


def _mapping(node: Any) -> dict[str, Any]:
    return {k.value: v for k, v in node.value}


def _str_list(path: Path, node: Any, what: str, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    if not isinstance(node, yaml.SequenceNode):
        raise _fail(path, node, f"{what} must be a list")
    out = []
    for item in node.value:
        if not isinstance(item, yaml.ScalarNode) or not str(item.value).strip():
            raise _fail(path, item, f"{what} must hold non-empty strings")
        value = str(ALIASES.get(str(item.value), item.value)) if allowed is not None else str(item.value)
        if allowed is not None and value not in allowed:
            raise _fail(path, item, f"unknown store {item.value!r} in {what} (known: {', '.join(allowed)})")
        out.append(value)
    return tuple(out)


class Router:
    """Ordered rules and mode specs, validated at load."""

    def __init__(self, rules: list[Rule], modes: dict[str, ModeSpec]) -> None:
        """Use :meth:`load` to read a file."""
        self.rules = rules
        self.modes = modes

    @classmethod
    def load(cls, path: Path | str = DEFAULT_RULES) -> Router:
        """Read and validate a rules file; a broken file raises ConfigError naming the line."""
        path = Path(path)
        try:
            root = yaml.compose(path.read_text())
        except OSError as exc:
            raise ConfigError(f"cannot read router rules {path}: {exc}") from exc
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{path.name}: not UTF-8 text (byte {exc.start})") from exc
        except yaml.MarkedYAMLError as exc:
            line = exc.problem_mark.line + 1 if exc.problem_mark else 0
            raise ConfigError(f"{path.name} line {line}: invalid YAML: {exc.problem}") from exc
        if not isinstance(root, yaml.MappingNode):
            raise _fail(path, root, "the file must be a mapping with `rules:`")
        top = _mapping(root)
        if "rules" not in top:
            raise _fail(path, root, "missing `rules:`")
        rnode = top["rules"]
        if not isinstance(rnode, yaml.SequenceNode) or not rnode.value:
            raise _fail(path, rnode, "`rules:` must be a non-empty list")
        rules: list[Rule] = []
        seen: set[str] = set()
        for item in rnode.value:
            if not isinstance(item, yaml.MappingNode):
                raise _fail(path, item, "each rule must be a mapping with id and stores")
            m = _mapping(item)
            unknown = set(m) - {"id", "match", "stores", "default"}
            if unknown:
                raise _fail(path, item, f"unknown key(s) {sorted(unknown)} in rule")
            if "id" not in m or not isinstance(m["id"], yaml.ScalarNode) or not m["id"].value:
                raise _fail(path, item, "rule without an `id`")
            rid = str(m["id"].value)
            if rid in seen:
                raise _fail(path, m["id"], f"duplicate rule id {rid!r}")
            seen.add(rid)
            if "stores" not in m:
                raise _fail(path, item, f"rule {rid!r} has no `stores`")
            stores = _str_list(path, m["stores"], f"stores of rule {rid!r}", STORES)
            if not stores:
                raise _fail(path, m["stores"], f"rule {rid!r} picks no store")
            default = "default" in m and str(m["default"].value).lower() == "true"
            match = _str_list(path, m["match"], f"match of rule {rid!r}") if "match" in m else ()
            if default == bool(match):
                raise _fail(path, item, f"rule {rid!r} needs either `match:` phrases or `default: true`")
            if rules and rules[-1].default:
                raise _fail(path, item, "the default rule must be the last one")
            pats = tuple(re.compile(rf"(?<!\w){re.escape(fold(p))}(?!\w)") for p in match)
            rules.append(Rule(rid, stores, tuple(fold(p) for p in match), default, pats))
        if not rules[-1].default:
            raise _fail(path, rnode, "the last rule must be `default: true`")
        modes = {name: ModeSpec(name) for name in MODES}
        if "modes" in top:
            mnode = top["modes"]
            if not isinstance(mnode, yaml.MappingNode):
                raise _fail(path, mnode, "`modes:` must be a mapping")
            for k, v in mnode.value:
                if k.value not in MODES:
                    raise _fail(path, k, f"unknown mode {k.value!r} (known: {', '.join(MODES)})")
                modes[k.value] = cls._mode(path, k.value, v)
        return cls(rules, modes)

    @staticmethod
    def _mode(path: Path, name: str, node: Any) -> ModeSpec:
        if not isinstance(node, yaml.MappingNode):
            raise _fail(path, node, f"mode {name!r} must be a mapping")
        m = _mapping(node)
        lists = {k: _str_list(path, m[k], f"{k} of mode {name!r}", STORES) if k in m else () for k in ("include", "exclude", "first")}
        weights = SCORE_WEIGHTS
        if "weights" in m:
            w = m["weights"]
            if not isinstance(w, yaml.MappingNode):
                raise _fail(path, w, f"weights of mode {name!r} must be a mapping")
            wm = _mapping(w)
            try:
                weights = tuple(float(wm[k].value) for k in ("similarity", "salience", "confidence"))  # type: ignore[assignment]
            except (KeyError, ValueError) as exc:
                raise _fail(path, w, f"weights of mode {name!r} need numeric similarity, salience and confidence") from exc
            if any(x < 0 for x in weights) or sum(weights) <= 0:
                raise _fail(path, w, f"weights of mode {name!r} must be non-negative and not all zero")
        return ModeSpec(name, lists["include"], lists["exclude"], lists["first"], weights)

    def route(self, question: str, mode: str = "semantic", *, enabled: bool = True) -> RouteDecision:
        """The stores for a question under a mode; ``enabled=False`` (IMM off) consults every store."""
        if mode not in self.modes:
            from core.errors import InputError

            raise InputError(f"unknown retrieval mode {mode!r} (known: {', '.join(MODES)})")
        spec = self.modes[mode]
        stores: tuple[str, ...]
        if not enabled:
            rule_id, matched, stores = "router-off", "", STORES
        else:
            q = fold(question)
            rule_id, matched, stores = self.rules[-1].id, "", self.rules[-1].stores
            for rule in self.rules:
                hit = next((p for p, pat in zip(rule.match, rule.patterns, strict=True) if pat.search(q)), None)
                if hit is not None:
                    rule_id, matched, stores = rule.id, hit, rule.stores
                    break
        picked = [s for s in (*stores, *spec.include) if s not in spec.exclude]
        picked = list(dict.fromkeys(picked))
        picked.sort(key=lambda s: 0 if s in spec.first else 1)
        return RouteDecision(tuple(picked), rule_id, matched, mode, spec.weights)


def load_router(path: str) -> Router:
    """Load and validate a rules file."""
    return Router.load(path)
