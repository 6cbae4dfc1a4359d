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
        ("What did we find last time about imatinib?", "past-context", ("episodic", "vault", "public")),
        ("At the previous visit, which drug was it?", "past-context", ("episodic", "vault", "public")),
        ("Is there a new study on metformin in CKD?", "recent-literature", ("dense", "public")),
        ("Any recent trial of imatinib?", "recent-literature", ("dense", "public")),
        ("How does imatinib treat CML?", "default", ("vault", "public")),
        ("Pastry and lastly", "default", ("vault", "public")),  # whole words only
    ],
)
def test_rules(router: Router, question: str, rule: str, stores: tuple[str, ...]) -> None:
    d = router.route(question)
    assert (d.rule_id, d.stores) == (rule, stores)
    assert router.route(question) == d  # deterministic


def test_router_off_consults_everything(router: Router) -> None:
    d = router.route("How does imatinib treat CML?", enabled=False)
    assert d.rule_id == "router-off" and set(d.stores) == {"episodic", "vault", "public", "dense"}


def test_modes_filter_stores(router: Router) -> None:
    q = "What did we find last time about imatinib?"
    assert router.route(q, "knowledge_lookup").stores == ("vault", "public")
    assert router.route("Any new study on metformin?", "knowledge_lookup").stores == ("public",)
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
