"""IMM router rules and retrieval modes."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import ConfigError, InputError
from memory.router import DEFAULT_RULES, Router


@pytest.fixture(scope="module")
def router() -> Router:
    return Router.load(DEFAULT_RULES)


@pytest.mark.parametrize(
    ("question", "rule", "stores"),
    [
        ("What did we find last time about imatinib?", "past-context", ("episodic", "vault", "graph")),
        ("At the previous visit, which drug was it?", "past-context", ("episodic", "vault", "graph")),
        ("Is there a new study on metformin in CKD?", "recent-literature", ("dense", "graph")),
        ("Any recent trial of imatinib?", "recent-literature", ("dense", "graph")),
        ("How does imatinib treat CML?", "default", ("vault", "graph")),
        ("Pastry and lastly", "default", ("vault", "graph")),  # whole words only
    ],
)
def test_rules(router: Router, question: str, rule: str, stores: tuple[str, ...]) -> None:
    d = router.route(question)
    assert (d.rule_id, d.stores) == (rule, stores)
    assert router.route(question) == d  # deterministic


def test_router_off_consults_everything(router: Router) -> None:
    d = router.route("How does imatinib treat CML?", enabled=False)
    assert d.rule_id == "router-off" and set(d.stores) == {"episodic", "vault", "graph", "dense"}


def test_modes_filter_stores(router: Router) -> None:
    q = "What did we find last time about imatinib?"
    assert router.route(q, "knowledge_lookup").stores == ("vault", "graph")
    assert router.route("Any new study on metformin?", "knowledge_lookup").stores == ("graph",)
    rec = router.route("How does imatinib treat CML?", "session_recovery")
    assert rec.stores[0] == "episodic" and "dense" not in rec.stores
    assert router.route(q, "semantic").weights == (0.5, 0.3, 0.2)
    assert router.route(q, "knowledge_lookup").weights != router.route(q, "semantic").weights
    with pytest.raises(InputError):
        router.route(q, "telepathy")


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("rules:\n  - id: a\n    stores: [vault\n", 4, "invalid YAML"),
        ("rules:\n  - id: a\n    match: [x]\n    stores: [vault, s3]\n  - id: d\n    default: true\n    stores: [vault]\n", 4, "unknown store"),
        ("rules:\n  - id: d\n    default: true\n    stores: [vault]\n  - id: a\n    match: [x]\n    stores: [vault]\n", 5, "last"),
        ("rules:\n  - id: a\n    match: [x]\n    stores: [vault]\n", 2, "default"),
        ("rules:\n  - id: a\n    stores: [vault]\n", 2, "either"),
        ("rules:\n  - id: d\n    default: true\n    stores: [vault]\nmodes:\n  dreamy: {}\n", 6, "unknown mode"),
    ],
)
def test_broken_rules_are_refused_with_the_line(tmp_path: Path, text: str, line: int, words: str) -> None:
    p = tmp_path / "router.yaml"
    p.write_text(text)
    with pytest.raises(ConfigError) as err:
        Router.load(p)
    assert f"line {line}" in str(err.value) and words in str(err.value)


def test_missing_rules_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        Router.load(tmp_path / "nope.yaml")


def test_one_store_vocabulary_and_the_old_public_name(tmp_path) -> None:
    """The router picks from the same store names the retrieval routes use; `public` in an older file means graph."""
    from memory.router import STORES, Router
    from memory.stores import StoreName
    from tools.routes import ROUTE_STORES

    assert set(STORES) <= {s.value for s in StoreName} and {s for v in ROUTE_STORES.values() for s in v} <= set(StoreName)
    old = tmp_path / "old.yaml"
    old.write_text("version: 1\nrules:\n  - id: default\n    default: true\n    stores: [vault, public]\n")
    assert Router.load(old).route("How does imatinib treat CML?").stores == ("vault", "graph")
