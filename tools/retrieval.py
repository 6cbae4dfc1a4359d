"""The hybrid retrieval service: classify → fan-out → score → serialize → audit (SPEC-05).

Every consumer calls :meth:`HybridRetriever.retrieve` (or ``aretrieve``): the LangGraph pipeline's
Retriever, the HTTP API, the SDK through the API, and the MCP tool.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from core.errors import ConfigError, InputError, NotFoundError, RetrievalUnavailableError, StoreError
from core.pseudonyms import Pseudonyms, load_key
from core.settings import Settings, context_budgets, hybrid_retrieval_enabled
from core.tracing import span
from memory.audit import audit
from memory.factory import open_memory, open_patients
from memory.router import DEFAULT_RULES, load_router
from tools.aggregate import Aggregate
from tools.classifier import Classification, QueryClassifier, Route
from tools.fanout import DEFAULT_DEADLINE_S, Item, StoreOutcome, StoreStatus, fan_out, store_pool
from tools.resources import load_resources
from tools.routes import (
    ROUTE_WEIGHTS,
    BM25Store,
    DenseStore,
    KGWalk,
    MemoryStore,
    Notes,
    PatientGraph,
    RetrievalQuery,
    build_stores,
)
from tools.serializer import DEFAULT_BUDGETS, Budget, parse_budgets, serialize
from tools.tokens import TokenCounter, load_counter

__all__ = ["ContextModel", "HybridRetriever", "RetrievalResult", "StoreReport", "open_retriever"]

DEFAULT_TIMEOUTS = {"graph": 0.030, "patient": 0.010, "bm25": 0.025, "dense": 0.035, "notes": 0.010, "enrich": 0.015,
                    "episodic": 0.020, "vault": 0.010, "aggregate": 0.030}
"""Per-store timeouts (seconds), inside the overall deadline."""


class ContextModel(BaseModel):
    """The two-tier context (SPEC-05 ``AssembledContext``)."""

    text: str = Field(description="The rendered two-tier context.")
    graph_lines: list[str] = Field(default_factory=list, description="Graph-tier lines as rendered.")
    text_lines: list[str] = Field(default_factory=list, description="Text-tier lines as rendered (PII stripped).")
    tokens: dict[str, int] = Field(default_factory=dict, description="Tokens used: graph, text, total.")
    budget: dict[str, int] = Field(default_factory=dict, description="Budgets applied: graph, text, total.")
    truncated: bool = Field(False, description="True when a line was cut or dropped to fit a budget.")
    tokenizer: str = Field("whitespace", description="cl100k_base, or whitespace when tiktoken is unavailable.")


class StoreReport(BaseModel):
    """How one store did in the fan-out."""

    name: str
    status: str = Field(description="ok, timeout or error.")
    ms: float
    count: int = 0
    reason: str | None = None


class RetrievalResult(BaseModel):
    """What a retrieval returns (SPEC-05 response shape, plus the fan-out report)."""

    context: ContextModel
    query_type: str = Field(description="GRAPH, AGGREGATION, TEXT or HYBRID.")
    route: str = Field(description="graph, aggregation, text or hybrid.")
    classifier_rule_id: str
    classifier_confidence: float
    retrieval_latency_ms: float
    graph_edges_count: int
    text_chunks_count: int
    entities_referenced: list[str] = Field(description="Ids in the context. Never written to the audit log (only the count).")
    consent_filtered_count: int
    truncated: bool
    force_route_used: bool = False
    depth: int = 3
    patient_id: str | None = None
    mode: str | None = None
    partial: bool = Field(False, description="True when some store failed or was late; see stores.")
    stores: list[StoreReport] = Field(default_factory=list)
    patient_facts: list[dict[str, Any]] = Field(
        default_factory=list, description="The patient facts behind the graph lines shown (consent applied), typed.")
    cohort_counts: list[dict[str, Any]] = Field(
        default_factory=list, description="The counts over many patients behind the graph lines shown, typed (no patient).")


@dataclass
class HybridRetriever:
    """One retrieval surface for every consumer. Build it with :func:`open_retriever`."""

    settings: Settings
    """For the audit folder."""
    stores: dict[str, Callable[[RetrievalQuery], list[Item]]]
    """Available stores by name (see :mod:`tools.routes`)."""
    counter: TokenCounter
    """Token counter of the serializer."""
    mention_ids: Callable[[str], list[str]] = lambda _t: []
    """KG ids a text names (the linker's n-gram scan)."""
    budgets: dict[str, Budget] = field(default_factory=lambda: dict(DEFAULT_BUDGETS))
    """Token budgets per route."""
    deadline_s: float | None = DEFAULT_DEADLINE_S
    """Overall fan-out deadline."""
    timeouts: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_TIMEOUTS))
    """Per-store timeouts."""
    modes: Mapping[str, Any] = field(default_factory=dict)
    """Retrieval modes (router.yaml): which memory stores each keeps."""
    enabled: Callable[[], bool] = hybrid_retrieval_enabled
    """Checked on every call; False → :class:`RetrievalUnavailableError`."""
    known_patient: Callable[[str], bool] | None = None
    """Whether a patient id exists (None: not checked)."""
    memory: Any = None
    """The open memory the memory stores read (None: no memory)."""
    resources: Any = None
    """The loaded KG, linker and embedder."""
    executor: Executor = field(default_factory=store_pool, repr=False)
    """Threads of the threaded stores (one pool per service)."""
    pseudonym: Callable[[str], str] | None = field(default=None, repr=False)
    """Keyed pseudonym of the actor in audit records (``core.pseudonyms``); the home's key when None."""

    def __post_init__(self) -> None:
        """Build the classifier; key the audit pseudonyms."""
        self.classifier = QueryClassifier()
        if self.pseudonym is None:
            self.pseudonym = Pseudonyms(load_key(self.settings.home))

    def linked(self, text: str) -> list[str]:
        """KG ids a text names, without repeats (what the classifier's two-entity rule counts)."""
        return list(dict.fromkeys(self.mention_ids(text))) if text.strip() else []

    def classify(self, query: str, patient_id: str | None = None) -> Classification:
        """The classifier's route for a query (about ``patient_id``, if given), with the entity scan, as
        :meth:`aretrieve` decides it."""
        return self.classifier.classify(query, len(self.linked(query.strip())), patient=patient_id is not None)

    def retrieve(self, query: str, **kwargs: Any) -> RetrievalResult:
        """Synchronous :meth:`aretrieve`, for code with no running event loop (inside one, await ``aretrieve``)."""
        return asyncio.run(self.aretrieve(query, **kwargs))

    async def aretrieve(
        self,
        query: str,
        *,
        patient_id: str | None = None,
        depth: int = 3,
        force_route: str | None = None,
        mode: str | None = None,
        actor_id: str | None = None,
        auth_source: str | None = None,
        patient_scope: Callable[[str], bool] | None = None,
        extra_stores: Mapping[str, Callable[[RetrievalQuery], list[Item]]] | None = None,
        include: tuple[str, ...] = (),
        exclude: tuple[str, ...] = (),
        deadline_s: float | None | str = "default",
        now: float | None = None,
    ) -> RetrievalResult:
        """Classify (or take ``force_route``), fan out, serialize, audit.

        Scoring is the fan-out's fusion: per-store normalised scores × the route's store weights
        (:data:`tools.routes.ROUTE_WEIGHTS`), summed for an item several stores return.
        ``extra_stores`` replace or add stores for this call, ``include`` names stores to run whatever
        the route and ``exclude`` stores not to run (the pipeline adds its walker as ``graph`` and
        reads memory itself). ``now`` is the asker's clock (epoch seconds; None: the wall clock), for a count over
        a stretch of time ("last year"). An empty query gives an empty result. Raises :class:`InputError` for a
        bad depth, route or mode, :class:`NotFoundError` for an unknown patient, and
        :class:`RetrievalUnavailableError` when switched off or when every store failed.
        """
        t0 = time.perf_counter()
        forced = self._check(query, depth, force_route, mode, patient_id)
        call = _Call(t0, depth, patient_id, actor_id, auth_source, forced)
        if not self.enabled():
            await self._audit(call, "disabled")
            raise RetrievalUnavailableError("hybrid retrieval is disabled (HYBRID_RETRIEVAL_ENABLED=false)")
        with span("tools.retrieval.hybrid", **{"medpath.depth": depth, "medpath.force_route": bool(forced)}) as sp:
            text = query.strip()
            ids = self.linked(text)
            cls = self.classifier.classify(text, len(ids), patient=patient_id is not None)
            route = forced or cls.route
            rule_id, confidence = ("FORCED", 1.0) if forced else (cls.rule_id, cls.confidence)
            sp.set_attribute("medpath.route", route.value)
            sp.set_attribute("medpath.rule_id", rule_id)
            q = RetrievalQuery(text, patient_id, depth, tuple(ids), actor_id, in_scope=patient_scope, now=now)
            available = {**self.stores, **(extra_stores or {})}
            stores = build_stores(route, q, available, include)
            stores = {n: f for n, f in self._mode_filter(stores, mode).items() if n not in exclude}
            deadline = self.deadline_s if deadline_s == "default" else deadline_s
            fan = await fan_out(stores, q, timeouts=self.timeouts if deadline is not None else {}, deadline_s=deadline,
                                empty=not text, weights=ROUTE_WEIGHTS[route], executor=self.executor)
            for o in fan.failed:
                sp.add_event("store failed", {"medpath.store": o.name, "medpath.reason": o.reason or ""})
            if stores and text and not any(o.status is StoreStatus.OK for o in fan.outcomes):
                await self._audit(call, "stores_down", route, rule_id, confidence, fan.outcomes)
                raise RetrievalUnavailableError("every store failed: " + "; ".join(f"{o.name}: {o.reason}" for o in fan.outcomes))
            result = self._result(fan, q, route, mode, call, (rule_id, confidence))
            sp.set_attribute("medpath.partial", fan.partial)
            await self._audit(call, "success", route, rule_id, confidence, fan.outcomes, result)
            return result

    def _check(self, query: Any, depth: Any, force_route: str | None, mode: str | None, patient_id: str | None) -> Route | None:
        """Refuse a bad request before any work (InputError, or NotFoundError for an unknown patient); the forced route."""
        if not isinstance(query, str):
            raise InputError("the query must be text")
        if not isinstance(depth, int) or not 1 <= depth <= 4:
            raise InputError(f"depth must be an integer from 1 to 4, not {depth!r}")
        try:
            forced = Route.parse(force_route) if force_route else None
        except ValueError as exc:
            raise InputError(str(exc)) from exc
        if mode is not None and self.modes and mode not in self.modes:
            raise InputError(f"unknown retrieval mode {mode!r} (known: {', '.join(self.modes)})")
        if patient_id is not None and self.known_patient is not None and not self.known_patient(patient_id):
            raise NotFoundError(f"no patient {patient_id!r}")
        return forced

    def _result(self, fan: Any, q: RetrievalQuery, route: Route, mode: str | None, call: _Call,
                rule: tuple[str, float]) -> RetrievalResult:
        """The fused items serialized within the route's budget, with what was used and how long it took. The
        patient's own facts (conditions, medications, labs) come first in the graph tier: a question naming several
        drugs ("is PAT_002 taking polaprezinc, diphenidol, …?") filled the budget with the graph's edges for them, and
        the medications it asked about were cut from the context and the answer ("it lists: none")."""
        graph = [i for i in fan.items if i.tier == "graph"]
        graph = sorted(graph, key=lambda i: i.fact is None)  # the record first, each part in its fused order (stable)
        texts = [i for i in fan.items if i.tier == "text"]
        ctx = serialize(graph, texts, patient=bool(q.patient_id), budget=self.budgets[route.value], counter=self.counter)
        shown = set(ctx.graph_lines)
        entities = list(dict.fromkeys(e for i in graph if i.text in shown for e in i.entities))
        entities += [e for i in texts[: len(ctx.text_lines)] for e in i.entities if e not in entities]
        return RetrievalResult(
            context=ContextModel(**ctx.to_json()), query_type=route.query_type, route=route.value,
            classifier_rule_id=rule[0], classifier_confidence=rule[1],
            retrieval_latency_ms=round((time.perf_counter() - call.t0) * 1000, 3),
            graph_edges_count=len(ctx.graph_lines), text_chunks_count=len(ctx.text_lines),
            entities_referenced=entities, consent_filtered_count=sum(q.withheld.values()), truncated=ctx.truncated,
            force_route_used=call.forced is not None, depth=q.depth, patient_id=q.patient_id, mode=mode,
            partial=fan.partial, stores=[StoreReport(**o.to_json()) for o in fan.outcomes],
            patient_facts=[{**asdict(i.fact), "line": i.text} for i in graph if i.fact is not None and i.text in shown],
            cohort_counts=[asdict(i.count) for i in graph if i.count is not None and i.text in shown],
        )

    def _mode_filter(self, stores: dict[str, Any], mode: str | None) -> dict[str, Any]:
        spec = self.modes.get(mode) if mode else None
        if spec is None:
            return stores
        return {n: s for n, s in stores.items() if n not in spec.exclude}

    async def _audit(self, call: _Call, outcome: str, route: Route | None = None, rule_id: str | None = None,
                     confidence: float = 0.0, outcomes: list[StoreOutcome] | None = None,
                     result: RetrievalResult | None = None) -> None:
        """One ``memory.retrieval.hybrid`` record: counts only, never the entity list or the query; the actor is hashed.

        The file append runs on a worker thread, off the event loop.
        """
        payload: dict[str, Any] = {
            "query_type": route.query_type if route else None, "route": route.value if route else None,
            "classifier_rule_id": rule_id, "classifier_confidence": confidence,
            "retrieval_latency_ms": round((time.perf_counter() - call.t0) * 1000, 3),
            "depth": call.depth, "force_route_used": call.forced is not None, "outcome": outcome,
            "stores_failed": [o.name for o in outcomes or [] if o.status is not StoreStatus.OK],
        }
        if result is not None:
            payload.update(graph_edges_count=result.graph_edges_count, text_chunks_count=result.text_chunks_count,
                           total_tokens=result.context.tokens.get("total", 0),
                           consent_filtered_count=result.consent_filtered_count,
                           entities_referenced_count=len(result.entities_referenced), truncated=result.truncated)
        actor = self.pseudonym(call.actor_id) if call.actor_id else None
        record = {"action": "memory.retrieval.hybrid", "source": "medpath", "patient_id": call.patient_id,
                  "actor_hash": actor, "auth_source": call.auth_source, "outcome": outcome, "payload": payload}
        # on the service's own pool, not asyncio.to_thread: that starts the loop's default executor, which
        # asyncio.run then joins, about 0.5 ms of CPU per call
        ctx = contextvars.copy_context()
        await asyncio.get_running_loop().run_in_executor(self.executor, ctx.run, audit, self.settings, record)


@dataclass(frozen=True)
class _Call:
    """What the audit record needs to know about one call."""

    t0: float
    depth: int
    patient_id: str | None
    actor_id: str | None
    auth_source: str | None
    forced: Route | None


def open_retriever(settings: Settings, *, resources: Any = None, patients: Any = None, memory: Any = None,
                   **options: Any) -> HybridRetriever:
    """The service over the built indexes, the patients file (when there is one) and the memory.

    ``memory=None`` opens the settings' memory (when enabled); ``memory=False`` leaves the memory stores out.
    """

    res = resources or load_resources(settings)
    stores: dict[str, Callable[[RetrievalQuery], list[Item]]] = {
        "graph": KGWalk(res.kg), "enrich": KGWalk(res.kg, name="enrich", depth=1, max_edges=12),
    }
    bm25, docs = res.text_index()
    stores["bm25"] = BM25Store(bm25, docs, res.kg)
    if res.dense is not None:
        stores["dense"] = DenseStore(res.dense, res.kg, res.embed_one)
    known: Callable[[str], bool] | None = None
    if patients is None and settings.patients_path.exists():
        try:
            patients = open_patients(settings)
        except StoreError as exc:  # a broken file: the patient stores fail with the reason, so the routes report it
            stores.update(dict.fromkeys(("patient", "notes", "aggregate"), _failing(exc)))
    if patients is not None:
        def classes(text: str) -> list[tuple[str, list[str]]]:  # "How many patients take statins?": the statins
            return [(res.linker.class_name(name), [c.id for c in res.linker.drug_class(name)]) for name in res.linker.classes_in(text)]

        stores.update(patient=PatientGraph(patients, res.kg), notes=Notes(patients),
                      aggregate=Aggregate(patients, res.kg, classes=classes))
        known = patients.patients.__contains__
    if memory is False:
        memory = None
    elif memory is None and settings.memory.enabled:

        memory = open_memory(settings)
    if memory is not None:
        memory.vault.current_of([])  # load the vault's mirror now, not inside the first request's deadline
        stores.update(episodic=MemoryStore(memory, res.kg, "episodic"), vault=MemoryStore(memory, res.kg, "vault"))
    modes = load_router(str(settings.memory.router_rules or DEFAULT_RULES)).modes

    def mention_ids(text: str) -> list[str]:
        return [c[0].id for _, c in res.linker.scan(text) if c]

    counter = load_counter(settings.data_dir / "tiktoken" / "cl100k_base.tiktoken.gz", settings.home / "tiktoken")
    if "budgets" not in options and (budgets := context_budgets()):

        try:
            options["budgets"] = parse_budgets(budgets)
        except ValueError as exc:
            raise ConfigError(f"MEDPATH_CONTEXT_BUDGETS: {exc}") from exc
    return HybridRetriever(settings, stores, counter, mention_ids, modes=modes, known_patient=known, memory=memory,
                           resources=res, **options)


def _failing(exc: Exception) -> Callable[[RetrievalQuery], list[Item]]:
    """A store that always fails with ``exc`` (stands in for a store whose data could not be read)."""

    def store(_q: RetrievalQuery) -> list[Item]:
        raise exc

    store.inline = True  # type: ignore[attr-defined]
    return store
