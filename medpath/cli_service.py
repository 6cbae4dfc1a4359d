"""CLI for the hybrid retrieval service: patients, retrieval, token, serve, mcp, eval classifier."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click

from core.settings import Settings, export_env, pin_native_threads
from core.settings import rate_limit as _rate_limit
from medpath.auth import Role
from memory.router import MODES
from tools.classifier import Route

__all__ = ["eval_classifier", "mcp_command", "patients", "retrieval", "serve", "token"]

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "classifier_test_set.json"


@click.group()
def patients() -> None:
    """Synthetic patients: a seeded patient graph with PII and consent flags."""


@patients.command("synth")
@click.option("-n", "--count", default=50, show_default=True, help="How many patients.")
@click.option("--seed", default=7, show_default=True, help="Random seed (the same seed gives the same patients).")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="File to write (default <home>/patients/patients.json).")
@click.option("--if-missing", is_flag=True, help="Do nothing when the file already exists.")
def patients_synth(count: int, seed: int, out: Path | None, if_missing: bool) -> None:
    """Write seeded synthetic patients over the KG's diseases and drugs (made up, never real people)."""
    from memory.factory import open_graph
    from memory.patients import synthesize, write_patients

    settings = Settings.from_env()
    path = out or settings.patients_path
    if if_missing and path.exists():
        click.echo(f"{path} exists; left as is")
        return
    kg = open_graph(settings)
    made = synthesize(kg, count, seed)
    write_patients(made, path, seed)  # the store's own file, or an export to --out
    facts = sum(len(p.facts) for p in made)
    click.echo(f"wrote {len(made)} patients ({facts} facts, seed {seed}) to {path}")


@patients.command("show")
@click.argument("patient_id")
@click.option("--pii", is_flag=True, help="Also print the PII fields (local use only).")
def patients_show(patient_id: str, pii: bool) -> None:
    """Print one patient's facts (consent flags shown; PII only with --pii)."""
    from memory.factory import open_patients

    p = open_patients(Settings.from_env()).get(patient_id)
    click.echo(f"{p.id}  consent: " + ", ".join(f"{k}={'yes' if v else 'no'}" for k, v in p.consent.items()))
    if pii:
        click.echo("  pii: " + json.dumps(p.pii))
    for f in p.facts:
        detail = f" {f.value:g} {f.unit}" if f.value is not None else ""
        click.echo(f"  {f.category:<11} {f.relation:<13} {f.object_name}{detail} {f.on or ''}")


@click.group()
def retrieval() -> None:
    """The hybrid retrieval service (classifier, four routes, two-tier context)."""


@retrieval.command("query")
@click.argument("query")
@click.option("--patient", "patient_id", default=None, help="Patient in scope (PAT_001, ...).")
@click.option("--depth", default=3, show_default=True, type=click.IntRange(1, 4), help="Graph depth.")
@click.option("--route", "force_route", type=click.Choice([r.value for r in Route]), default=None,
              help="Bypass the classifier.")
@click.option("--mode", type=click.Choice(MODES), default=None)
@click.option("--json", "as_json", is_flag=True, help="Print the whole RetrievalResult as JSON.")
def retrieval_query(query: str, patient_id: str | None, depth: int, force_route: str | None, mode: str | None,
                    as_json: bool) -> None:
    """Retrieve the two-tier context for a query, as the API would (local caller, audited)."""
    from medpath.services import build_services

    r = build_services().retrieval.retrieve(query, patient_id=patient_id, depth=depth, force_route=force_route,
                                                     mode=mode, actor_id="cli", auth_source="local")
    if as_json:
        click.echo(r.model_dump_json(indent=2))
        return
    click.echo(r.context.text)
    click.echo(f"\nroute {r.route} ({r.classifier_rule_id}, confidence {r.classifier_confidence:.2f}), "
               f"{r.graph_edges_count} graph lines, {r.text_chunks_count} text chunks, {r.context.tokens.get('total', 0)} tokens"
               f"{' (truncated)' if r.truncated else ''}, {r.consent_filtered_count} withheld by consent, "
               f"{r.retrieval_latency_ms:.1f} ms")
    for s in r.stores:
        if s.status != "ok":
            click.echo(f"store {s.name}: {s.status} ({s.reason})")


@click.group()
def token() -> None:
    """Bearer tokens (HS256 JWT) for the HTTP API."""


@token.command("issue")
@click.option("--sub", required=True, help="Subject: the user or service account.")
@click.option("--role", type=click.Choice([r.value for r in Role]), default="clinician", show_default=True)
@click.option("--patients", "patients_", default="", help="Comma-separated patient ids in scope, or * for all.")
@click.option("--project", "projects", multiple=True, help="Project scope for memory search (repeatable).")
@click.option("--org", default=None, help="Organisation scope for memory search.")
@click.option("--ttl", default=3600, show_default=True, help="Seconds until it expires.")
def token_issue(sub: str, role: str, patients_: str, projects: tuple[str, ...], org: str | None, ttl: int) -> None:
    """Print a signed token (secret: MEDPATH_JWT_SECRET, else <home>/jwt_secret)."""
    from medpath.auth import issue_token, load_secret

    scope = [p.strip() for p in patients_.split(",") if p.strip()]
    click.echo(issue_token(load_secret(Settings.from_env().home), sub, role, scope, ttl_s=ttl, projects=list(projects), org=org))


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8765, show_default=True)
@click.option("--rate-limit", default=None, help="Per-client limit, e.g. 100/minute (default MEDPATH_RATE_LIMIT or 100/minute).")
@click.option("--log-level", default="warning", show_default=True)
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes. They share the memory, the conversations and the vault through their files; "
                   "each keeps its own rate-limit counters.")
def serve(host: str, port: int, rate_limit: str | None, log_level: str, workers: int) -> None:
    """Run the HTTP API (FastAPI + uvicorn); the stores are loaded before the first request.

    Unless set, OMP_NUM_THREADS and OPENBLAS_NUM_THREADS are 1: the server's parallelism is its concurrent
    requests, and BLAS/OpenMP worker threads spinning beside them made dense searches miss their deadline.

    \b
    Examples:
        medpath serve
        medpath serve --port 9000 --workers 2
    """
    pin_native_threads()  # before numpy, FAISS and onnxruntime load
    import uvicorn

    from medpath.ratelimit import RateLimiter

    limit = RateLimiter.from_text(rate_limit or _rate_limit()).text  # a bad limit fails here, once
    export_env(MEDPATH_RATE_LIMIT=limit, MEDPATH_SERVE_WORKERS=str(workers))  # the workers read them
    click.echo(f"medpath API on http://{host}:{port} (docs at /docs, rate limit {limit}, {workers} worker"
               f"{'s' if workers > 1 else ''})", err=True)
    if workers == 1:
        from medpath.api import serve_app

        uvicorn.run(serve_app(), host=host, port=port, log_level=log_level, access_log=False)
    else:
        uvicorn.run("medpath.api:serve_app", factory=True, workers=workers, host=host, port=port,
                    log_level=log_level, access_log=False)


@click.command("mcp")
def mcp_command() -> None:
    """Run the MCP server on stdio (tools: memory.query, medpath.ask)."""
    from medpath.mcp_server import build_server

    build_server(Settings.from_env()).run("stdio")


@click.command("classifier")
@click.option("--fixture", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=FIXTURE, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the metrics as JSON.")
def eval_classifier(fixture: Path, as_json: bool) -> None:
    """Accuracy of the rule classifier on the labelled fixture, per route, and its latency."""
    from medpath.metrics import label_accuracy, percentile
    from medpath.services import build_services

    svc = build_services().pipeline_retrieval
    try:
        rows = json.loads(fixture.read_text())["queries"]
    except (OSError, ValueError, KeyError) as exc:
        raise click.ClickException(f"cannot read {fixture}: {exc}") from exc
    got, times = [], []
    for row in rows:
        t0 = time.perf_counter()
        got.append(svc.classify(row["query"]))
        times.append((time.perf_counter() - t0) * 1000)
    accuracy, per = label_accuracy([r["route"] for r in rows], [c.query_type for c in got])
    wrong = [{"query": r["query"], "gold": r["route"], "got": c.query_type, "rule": c.rule_id}
             for r, c in zip(rows, got, strict=True) if c.query_type != r["route"]]
    out = {"queries": len(rows), "accuracy": round(accuracy, 4), "per_route": {k: round(v, 4) for k, v in per.items()},
           "p50_ms": round(percentile(times, 50), 4), "p95_ms": round(percentile(times, 95), 4), "wrong": wrong}
    if as_json:
        click.echo(json.dumps(out, indent=2))
        return
    click.echo(f"classifier accuracy {out['accuracy']:.3f} on {len(rows)} queries ({fixture.name})")
    for k, v in out["per_route"].items():
        click.echo(f"  {k:<12} {v:.3f}")
    click.echo(f"classify (with the entity scan) p50 {out['p50_ms']:.3f} ms, p95 {out['p95_ms']:.3f} ms")
    for w in wrong:
        click.echo(f"  wrong: {w['query']!r}: gold {w['gold']}, got {w['got']} ({w['rule']})")
