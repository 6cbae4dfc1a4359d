"""Settings read from the environment (``MEDPATH_*``), split into small typed groups."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from core.errors import ConfigError

__all__ = ["LLMSettings", "MemorySettings", "Settings", "WalkBudget", "audit_key", "checkpoint_ttl_days", "child_env", "context_budgets", "hybrid_retrieval_enabled",
           "jwt_secret", "max_body_bytes", "pin_native_threads", "project_root", "rate_limit",
           "token_max_ttl_s"]


def project_root() -> Path:
    """Return the source checkout that holds ``data/`` (the parent of this package)."""
    return Path(__file__).resolve().parent.parent


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


@dataclass(frozen=True)
class WalkBudget:
    """Budgets of one graph walk (design §5.2)."""

    max_depth: int = 3
    """Hops per side of the walk; a joined path can be up to twice as long."""
    max_nodes: int = 300
    """Nodes expanded, both sides together."""
    wall_ms: float = 800.0
    """Wall-clock budget of the walk in milliseconds."""
    max_edges_per_node: int = 0
    """Edges taken from one expanded node (its likeliest by the edge predictor's relation scores); 0 takes all.
    Hubs, not the graph's size, set the walk's cost on a big graph; on DrugMechDB a cap of 64 cost 0.02 Path-F1
    once the ranker was retrained on capped walks, so it is off by default (the ranker trains with the same cap:
    it is part of the models' build key)."""

    def __post_init__(self) -> None:
        """Refuse budgets that cannot run."""
        if self.max_depth < 1 or self.max_nodes < 1 or self.wall_ms <= 0 or self.max_edges_per_node < 0:
            raise ConfigError(f"walk budget must be positive: {self}")


@dataclass(frozen=True)
class LLMSettings:
    """An optional OpenAI-compatible LLM; unset ``base_url`` means none."""

    base_url: str = ""
    """Base URL such as ``http://127.0.0.1:8080/v1``; empty disables the LLM."""
    api_key: str = ""
    """API key; local servers usually accept any value."""
    model: str = "gpt-4o-mini"
    """Model name sent with each request."""
    timeout_s: float = 10.0
    """Per-request timeout in seconds."""
    max_retries: int = 1
    """Retries of the openai client before the fallback is taken."""

    @property
    def enabled(self) -> bool:
        """True when a base URL is configured."""
        return bool(self.base_url)


@dataclass(frozen=True)
class MemorySettings:
    """MIRIX-Slim memory (design §5.3) and the IMM router (§5.4)."""

    enabled: bool = True
    """Read and write memory during ``ask``."""
    ttl_s: float = 1800.0
    """Episodic time-to-live in seconds (30 minutes)."""
    vault_max_rows: int = 100_000
    """LRU cap of the vault (0 = no cap)."""
    boost: float = 1.15
    """Factor applied to a candidate path whose edge matches a current vault fact."""
    half_life_days: float = 7.0
    """Half-life of the salience decay since a fact was last used."""
    router_rules: Path | None = None
    """Router YAML; None uses the shipped ``memory/router.yaml``."""
    wait_s: float = 10.0
    """How long a write waits for a memory file another process holds (an ingest), ``MEDPATH_STORE_WAIT_S``;
    past it the write fails with ``StoreBusyError`` (503 + Retry-After in the API) instead of hanging."""

    def __post_init__(self) -> None:
        """Refuse values that cannot work."""
        if self.ttl_s <= 0 or self.boost <= 0 or self.half_life_days <= 0 or self.vault_max_rows < 0 or self.wait_s < 0:
            raise ConfigError(f"invalid memory settings: {self}")


@dataclass(frozen=True)
class Settings:
    """Where medpath keeps its data and indexes, and the knobs of a run."""

    home: Path = field(default_factory=lambda: project_root() / ".medpath")
    """State folder: indexes, checkpoints, caches."""
    data_dir: Path = field(default_factory=lambda: project_root() / "data")
    """Folder holding ``drugmechdb/`` and ``pubmedqa/``."""
    embedder: str = "onnx"
    """Embedding backend: ``onnx`` (default, int8 MiniLM) or ``sentence-transformers``."""
    budget: WalkBudget = field(default_factory=WalkBudget)
    """Walker budgets."""
    llm: LLMSettings = field(default_factory=LLMSettings)
    """Optional LLM."""
    memory: MemorySettings = field(default_factory=MemorySettings)
    """Memory tiers and router."""
    traces_dir: Path = field(default_factory=lambda: project_root() / "traces")
    """Run outputs: OpenTelemetry span files (``otel/``), audit records (``audit/``), eval runs (``eval/``)."""
    database_url: str = ""
    """Where the stores live (``MEDPATH_DATABASE_URL``); empty means the embedded stores under ``home``."""
    redis_url: str = ""
    """Redis for the episodic tier shared by every process (``MEDPATH_REDIS_URL``); empty means its SQLite file."""

    @property
    def index_dir(self) -> Path:
        """Folder of the built indexes."""
        return self.home / "index"

    @property
    def checkpoint_db(self) -> Path:
        """SQLite file of LangGraph thread checkpoints."""
        return self.home / "checkpoints.sqlite"

    @property
    def memory_dir(self) -> Path:
        """Folder of the episodic store, the vault and mem_index."""
        return self.home / "memory"

    @property
    def patients_path(self) -> Path:
        """Synthetic patients file (``medpath patients synth``)."""
        return self.home / "patients" / "patients.json"

    @property
    def edge_cache(self) -> Path:
        """JSONL cache of LLM edge-predictor answers."""
        return self.home / "edge_cache.jsonl"

    @classmethod
    def from_env(cls) -> Settings:
        """Build settings from ``MEDPATH_*`` variables (read and validated by pydantic-settings), defaults for the rest."""
        try:
            env = _Env()
        except ValidationError as exc:
            first = exc.errors()[0]
            name = "MEDPATH_" + str(first["loc"][0]).upper() if first.get("loc") else "a MEDPATH_ variable"
            raise ConfigError(f"{name}: {first['msg']} (got {first.get('input')!r})") from exc
        if env.redis_url and not env.redis_url.startswith(("redis://", "rediss://", "unix://")):
            raise ConfigError(f"MEDPATH_REDIS_URL must be a redis:// URL, not {env.redis_url!r}")
        root = project_root()
        budget = WalkBudget(max_depth=env.max_depth, max_nodes=env.max_nodes, wall_ms=env.wall_ms,
                            max_edges_per_node=env.max_edges_per_node)
        llm = LLMSettings(base_url=env.llm_base_url, api_key=env.llm_api_key, model=env.llm_model,
                          timeout_s=env.llm_timeout, max_retries=env.llm_max_retries)
        memory = MemorySettings(
            enabled=env.memory.strip().lower() not in ("0", "off", "false", "no"),
            ttl_s=env.episodic_ttl_s,
            vault_max_rows=env.vault_max_rows,
            boost=env.vault_boost,
            half_life_days=env.salience_half_life_days,
            router_rules=Path(env.router_rules).expanduser() if env.router_rules else None,
            wait_s=env.store_wait_s,
        )
        return cls(home=Path(env.home or root / ".medpath").expanduser(), data_dir=Path(env.data_dir or root / "data").expanduser(),
                   embedder=env.embedder, budget=budget, llm=llm, memory=memory,
                   traces_dir=Path(env.traces_dir or root / "traces").expanduser(), database_url=env.database_url,
                   redis_url=env.redis_url)


class _Env(BaseSettings):
    """Every ``MEDPATH_*`` variable ``Settings`` reads, with its type and default (an empty value means unset)."""

    model_config = SettingsConfigDict(env_prefix="MEDPATH_", case_sensitive=False, extra="ignore",
                                      env_ignore_empty=True)

    home: str = ""
    data_dir: str = ""
    traces_dir: str = ""
    embedder: str = "onnx"
    database_url: str = ""
    redis_url: str = ""
    max_depth: int = 3
    max_nodes: int = 300
    wall_ms: float = 800.0
    max_edges_per_node: int = 0
    llm_base_url: str = ""
    llm_api_key: str = "not-needed"
    llm_model: str = "gpt-4o-mini"
    llm_timeout: float = 10.0
    llm_max_retries: int = 1
    memory: str = "on"
    episodic_ttl_s: float = 1800.0
    vault_max_rows: int = 100_000
    vault_boost: float = 1.15
    salience_half_life_days: float = 7.0
    router_rules: str = ""
    store_wait_s: float = 10.0


# -- variables read at the moment they are used --------------------------------------------------------
# Every environment read of medpath happens in this module. These are read on each call rather than once into
# ``Settings``: the kill switch must work without a restart, and the server's secret and limits are read when the
# app is made.


def hybrid_retrieval_enabled() -> bool:
    """``HYBRID_RETRIEVAL_ENABLED`` (default true), read on every call: the retrieval kill switch."""
    return _env("HYBRID_RETRIEVAL_ENABLED", "true").strip().lower() not in ("0", "false", "no", "off")


def context_budgets() -> str:
    """``MEDPATH_CONTEXT_BUDGETS`` (e.g. ``graph=60,notes=40``); empty means the shipped budgets."""
    return _env("MEDPATH_CONTEXT_BUDGETS", "")


def jwt_secret() -> str:
    """``MEDPATH_JWT_SECRET``; empty means the local secret file."""
    return _env("MEDPATH_JWT_SECRET", "")


def audit_key() -> str:
    """``MEDPATH_AUDIT_KEY``: the key of the audit pseudonyms; empty means a key file in the home."""
    return _env("MEDPATH_AUDIT_KEY", "")


def checkpoint_ttl_days() -> float:
    """``MEDPATH_CHECKPOINT_TTL_DAYS``: how long an unused conversation is kept (default 30 days)."""
    return _number("MEDPATH_CHECKPOINT_TTL_DAYS", 30.0, "days")


def token_max_ttl_s() -> int:
    """``MEDPATH_TOKEN_MAX_TTL_S``: the longest bearer-token lifetime accepted (default 24 h)."""
    return int(_number("MEDPATH_TOKEN_MAX_TTL_S", 86400, "seconds", int))


def max_body_bytes() -> int:
    """``MEDPATH_MAX_BODY_BYTES``: the largest HTTP request body read (default 1 MB), checked before auth."""
    return int(_number("MEDPATH_MAX_BODY_BYTES", 1024 * 1024, "bytes", int))


def _number(name: str, default: float, unit: str, cast: Callable[[str], float] = float) -> float:
    raw = _env(name, "")
    if not raw.strip():
        return default
    try:
        return cast(raw)
    except ValueError as exc:
        raise ConfigError(f"{name} must be a number of {unit}, got {raw!r}") from exc


def export_env(**values: str) -> None:
    """Set variables for this process and the processes it starts (``medpath serve --workers`` passes its options
    to the workers this way)."""
    os.environ.update(values)


def serve_workers() -> int:
    """``MEDPATH_SERVE_WORKERS``: how many server processes ``medpath serve --workers N`` started (1 when unset)."""
    try:
        return max(1, int(_env("MEDPATH_SERVE_WORKERS", "1")))
    except ValueError:
        return 1


def rate_limit() -> str:
    """``MEDPATH_RATE_LIMIT`` per client, e.g. ``100/minute`` (the default)."""
    return _env("MEDPATH_RATE_LIMIT", "100/minute")


def rate_limit_storage() -> str:
    """Where rate-limit counts live: ``MEDPATH_REDIS_URL`` (``redis://host:port``), shared by every server process
    that uses it; unset: each process counts its own (``memory://``)."""
    url = _env("MEDPATH_REDIS_URL", "").strip()
    if url and not url.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigError(f"MEDPATH_REDIS_URL must be a redis:// URL, not {url!r}")
    return url or "memory://"


def child_env(**overrides: str) -> dict[str, str]:
    """This process's environment with ``overrides``, for a child ``medpath`` process."""
    return {**os.environ, **overrides}


def pin_native_threads() -> None:
    """Unless set, one OpenMP/BLAS thread: a server's parallelism is its requests (call before numpy loads)."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(var, "1")
