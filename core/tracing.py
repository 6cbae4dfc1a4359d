"""OpenTelemetry traces: one trace per question, a span per graph node and per tool call.

Spans go to ``traces/otel/<run_id>.jsonl`` (one JSON object per finished span) while a run is
open, and to an OTLP/HTTP collector when ``MEDPATH_OTLP_ENDPOINT`` (or
``OTEL_EXPORTER_OTLP_ENDPOINT``) is set; a collector that is not listening only costs a
logged export error, never a hang. Question text, entity names and LLM prompts are recorded
only when content capture is on (``MEDPATH_CAPTURE_CONTENT=1``, or
``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true``), as in OTel's GenAI conventions.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.trace import Span, Status, StatusCode

from core.errors import DataError, NotFoundError

__all__ = ["TraceRun", "capture_content", "error", "inject_context", "joined", "load_spans", "set_content", "span", "start_run",
           "tracer"]

_lock = threading.Lock()
_state: dict[str, Any] = {"installed": False, "run": None, "capture": None}


def capture_content() -> bool:
    """True when question text, entity names and prompts may go into spans (off by default)."""
    if _state["capture"] is not None:
        return bool(_state["capture"])
    flag = os.environ.get("MEDPATH_CAPTURE_CONTENT") or os.environ.get("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "")
    return flag.lower() in ("1", "true", "yes", "on")


_NEVER_KEPT = frozenset({"url.query", "url.full"})
"""Attributes no span file keeps: an HTTP server span's query string carries what a user searched for."""


def span_record(s: ReadableSpan) -> dict[str, Any]:
    """A finished span as a JSON-able dictionary (without the attributes in ``_NEVER_KEPT``)."""
    ctx = s.get_span_context()
    parent = s.parent
    if ctx is None:
        raise ValueError(f"span {s.name!r} has no context")
    return {
        "trace_id": f"{ctx.trace_id:032x}",
        "span_id": f"{ctx.span_id:016x}",
        "parent_id": f"{parent.span_id:016x}" if parent else None,
        "name": s.name,
        "start_ns": s.start_time,
        "end_ns": s.end_time,
        "duration_ms": round(((s.end_time or 0) - (s.start_time or 0)) / 1e6, 3),
        "status": s.status.status_code.name,
        "status_description": s.status.description or "",
        "attributes": {k: (list(v) if isinstance(v, tuple) else v) for k, v in (s.attributes or {}).items()
                       if k not in _NEVER_KEPT},
        "events": [{"name": e.name, "attributes": dict(e.attributes or {})} for e in s.events],
    }


PENDING_SPANS = 256
"""Finished spans a run holds back at most before writing them (it writes at the end of every trace anyway)."""


class TraceRun:
    """An open run: finished spans are appended to its JSONL file and, when ``keep``, kept in memory."""

    def __init__(self, run_id: str, path: Path, keep: bool = True) -> None:
        """Use :func:`start_run`."""
        self.run_id = run_id
        self.path = path
        self.keep = keep
        """Keep the spans in :attr:`spans` too (a server's run lasts as long as the process: it keeps none)."""
        self.spans: list[dict[str, Any]] = []
        self._fh = path.open("a+")  # read too: whether the file ends mid-line (:meth:`_write_pending`)
        self._lock = threading.Lock()
        self._pending: list[str] = []

    def add(self, record: dict[str, Any], *, trace_done: bool = True) -> None:
        """Take one finished span; it is written with the spans before it when ``trace_done`` (the span that ends a
        trace in this process), or once ``PENDING_SPANS`` wait: one locked write per question, not one per span."""
        with self._lock:
            if self.keep:
                self.spans.append(record)
            self._pending.append(json.dumps(record, default=str) + "\n")
            if trace_done or len(self._pending) >= PENDING_SPANS:
                self._write_pending()

    def _write_pending(self) -> None:
        """Append the waiting spans (under the file's lock: a forget may be rewriting the file in place), on a line of
        their own: a process killed while writing leaves its last line torn, and the next span appended to it was
        unreadable too."""
        if not self._pending or self._fh.closed:
            return
        fd = self._fh.fileno()
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            size = os.fstat(fd).st_size
            torn = size > 0 and os.pread(fd, 1, size - 1) != b"\n"
            self._fh.write("\n" * torn + "".join(self._pending))
            self._fh.flush()
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
        self._pending.clear()

    def close(self) -> None:
        """Write what waits and stop recording (idempotent); the run's content-capture choice ends with it."""
        with _lock:
            if _state["run"] is self:
                _state["run"] = None
                _state["capture"] = None
        with self._lock:
            if not self._fh.closed:
                self._write_pending()
                self._fh.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _RunProcessor(SpanProcessor):
    """Sends finished spans to the open run, if any."""

    def on_end(self, span: ReadableSpan) -> None:
        run = _state["run"]
        if run is not None:  # a span without a parent here (none, or a remote caller's) ends its trace in this process
            run.add(span_record(span), trace_done=span.parent is None or span.parent.is_remote)

    def shutdown(self) -> None:
        pass

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True


def _install() -> None:
    if _state["installed"]:  # every span passes here: no lock once installed
        return
    with _lock:
        if _state["installed"]:
            return
        provider = TracerProvider(resource=Resource.create({"service.name": "medpath"}))
        provider.add_span_processor(_RunProcessor())
        endpoint = os.environ.get("MEDPATH_OTLP_ENDPOINT") or os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
        if endpoint:
            try:
                from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
                from opentelemetry.sdk.trace.export import BatchSpanProcessor
            except ImportError as exc:  # pragma: no cover - the exporter is a dependency
                raise ImportError("OTLP export needs opentelemetry-exporter-otlp-proto-http") from exc
            url = endpoint.rstrip("/") + ("" if endpoint.rstrip("/").endswith("/v1/traces") else "/v1/traces")
            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=url, timeout=2), export_timeout_millis=3000))
        trace.set_tracer_provider(provider)
        _state["installed"] = True


def tracer() -> trace.Tracer:
    """The medpath tracer (installs the provider on first use)."""
    _install()
    return trace.get_tracer("medpath")


def start_run(run_id: str, traces_dir: Path, *, capture: bool | None = None, keep: bool = True) -> TraceRun:
    """Open ``traces_dir/otel/<run_id>.jsonl``; spans finished until ``close()`` go there (and stay in
    ``run.spans`` too unless ``keep`` is False: a server or MCP process, whose run never ends, passes False)."""
    _install()
    folder = traces_dir / "otel"
    folder.mkdir(parents=True, exist_ok=True)
    run = TraceRun(run_id, folder / f"{run_id}.jsonl", keep)
    with _lock:
        old = _state["run"]
        _state["run"] = run
        _state["capture"] = capture
    if old is not None and old is not run:
        old.close()
    return run


@contextmanager
def span(name: str, **attributes: Any) -> Iterator[Span]:
    """A child span of the current one, with attributes (None values are skipped)."""
    with tracer().start_as_current_span(name, attributes={k: v for k, v in attributes.items() if v is not None}) as s:
        yield s


def set_content(s: Span, key: str, value: Any) -> None:
    """Set an attribute that carries user content, only when content capture is on."""
    if capture_content() and value is not None:
        s.set_attribute(key, value if isinstance(value, str | int | float | bool) else json.dumps(value, default=str))


def error(s: Span, exc: BaseException, reason: str) -> None:
    """Mark a span as failed (OTel ``error.type`` plus the exception event)."""
    s.set_status(Status(StatusCode.ERROR, reason))
    s.set_attribute("error.type", type(exc).__name__)
    s.record_exception(exc)


def load_spans(traces_dir: Path, run_id: str) -> list[dict[str, Any]]:
    """The spans of a run, in file order; NotFoundError when there is no such run."""

    path = traces_dir / "otel" / f"{run_id}.jsonl"
    if not path.exists():
        raise NotFoundError(f"no trace run {run_id!r} in {path.parent}")
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                out.append(json.loads(line))
            except ValueError as exc:
                raise DataError(f"{path}:{n}: not JSON") from exc
    return out


def children(spans: Sequence[dict[str, Any]]) -> dict[str | None, list[dict[str, Any]]]:
    """Parent span id → child spans, ordered by start."""
    out: dict[str | None, list[dict[str, Any]]] = {}
    for s in sorted(spans, key=lambda s: s["start_ns"] or 0):
        out.setdefault(s["parent_id"], []).append(s)
    return out


def inject_context() -> dict[str, str]:
    """W3C ``traceparent`` headers of the current span, for a call that should join this trace (e.g. an MCP tool)."""
    from opentelemetry.propagate import inject

    _install()
    carrier: dict[str, str] = {}
    inject(carrier)
    return carrier


@contextmanager
def joined(carrier: dict[str, str], name: str, **attributes: Any) -> Iterator[Span]:
    """A span that continues the trace described by ``carrier`` (the receiving side of :func:`inject_context`)."""
    from opentelemetry.propagate import extract

    ctx = extract(carrier)
    with tracer().start_as_current_span(name, context=ctx, attributes={k: v for k, v in attributes.items() if v is not None}) as s:
        yield s
