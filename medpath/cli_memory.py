"""``medpath memory …`` and ``medpath eval memory``: inspect, feed, prune and measure MIRIX-Slim."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from core.settings import Settings
from medpath.evaluation.memory import run_memory_eval
from medpath.evaluation.report import RunFolder, log_mlflow, plot_memory
from medpath.forgetting import forget_user
from medpath.ingest import BATCH, YIELD_S, ingest_events, read_jsonl, review_events
from medpath.services import build_services
from memory import factory
from memory.mirix import Memory
from memory.router import DEFAULT_RULES, Router
from memory.synth import StreamSpec, iso, parse_ts, synth_stream, write_stream

__all__ = ["eval_memory", "memory"]


def _memory() -> Memory:
    """The memory of the settings' backend (files under the home, or the scale-out database and Redis)."""
    return factory.open_memory(Settings.from_env())


def _when(ts: float | None) -> str:

    return "-" if ts is None else iso(ts)


@click.group()
def memory() -> None:
    """Inspect and manage MIRIX-Slim memory (episodic scratch-pad, vault, mem_index)."""


@memory.command("list")
def memory_list() -> None:
    """List the owners with memory and their row counts.

    Example usage:

        \b
        medpath memory list
    """
    mem = _memory()
    owners = dict(mem.vault.owners())
    for o in mem.episodic.owners():
        owners.setdefault(o, 0)
    if not owners:
        click.echo("memory is empty")
        return
    click.echo(f"{'owner':24s} {'vault':>7s} {'episodic':>9s}")
    for o in sorted(owners):
        click.echo(f"{o:24s} {owners[o]:7d} {mem.episodic.count(o):9d}")


@memory.command("show")
@click.argument("owner")
@click.option("--subject", default=None, help="Only facts about this subject (id or alias).")
@click.option("--as-of", "as_of", default=None, help="Valid and known at this time (ISO 8601 or epoch seconds).")
@click.option("--all", "show_all", is_flag=True, help="History: superseded rows too.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON lines.")
@click.option("--why", is_flag=True, help="The Reviewer gate's recent decisions for the owner, with reasons (rejections too).")
def memory_show(owner: str, subject: str | None, as_of: str | None, show_all: bool, as_json: bool, why: bool) -> None:
    """Show one owner's facts: current ones, as of a time, or the whole history.

    With --why, show the gate's decisions instead: status, cue and policy rule of each
    candidate, accepted or rejected ("negated, cue 'denies', rule current_medication").

    \b
    Example usage:
        medpath memory show alice --subject imatinib
        medpath memory show u07 --subject PAT_0012 --as-of 2026-01-07T12:00:00Z
        medpath memory show u07 --subject PAT_0012 --why
    """

    mem = _memory()
    if why:
        _show_why(mem, owner, subject, as_json)
        return
    subjects = (mem.resolve([owner], subject) or [subject]) if subject else None
    if show_all:
        facts = [f for s in (subjects or [None]) for f in mem.vault.history(owner, s)]
    else:
        t = parse_ts(as_of) if as_of else None
        if subjects is None:
            subjects = sorted({f.subj for f in mem.vault.history(owner)})
        facts = [f for s in subjects for f in mem.vault.current([owner], s, as_of=t)]
    names = factory.entity_names(Settings.from_env(), [x for f in facts for x in (f.subj, f.obj)])
    for f in facts:
        if as_json:
            click.echo(json.dumps({**f.to_json(), "subj_name": names.get(f.subj, f.subj), "obj_name": names.get(f.obj, f.obj)}))
        else:
            click.echo(f"{_named(f.subj, names)}  {f.rel}  {_named(f.obj, names)}  valid {_when(f.t_start)} → {_when(f.t_end)}  "
                       f"conf {f.confidence:.2f}  used {f.use_count}×, last {_when(f.last_used)}")
    if not facts and not as_json:
        click.echo("no facts")


def _show_why(mem: Any, owner: str, subject: str | None, as_json: bool) -> None:
    subj = (mem.resolve([owner], subject) or [subject])[0] if subject else None
    rows = mem.gate_log.recent(owner, subject=subj, limit=50)
    for r in rows:
        if as_json:
            click.echo(json.dumps(r))
            continue
        reason = r["reason"]
        cue = f", cue \"{reason['cue']}\"" if reason.get("cue") else ""
        fits = f"; would fit {reason['fits']}" if reason.get("fits") else ""
        click.echo(f"{_when(r['ts'])}  {r['decision']:6s}  {r['subj']}  {r['rel']}  {r['obj']}  "
                   f"[{reason.get('status', '?')}{cue}, rule {reason.get('rule', '?')}{fits}]")
    if not rows and not as_json:
        click.echo("no gate decisions recorded")


def _named(entity_id: str, names: dict[str, str]) -> str:
    """``Name (id)`` for a KG entity; other subjects (patients, lab names) as they are."""
    return f"{names[entity_id]} ({entity_id})" if entity_id in names else entity_id


@memory.command("forget")
@click.argument("owner")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def memory_forget(owner: str, yes: bool) -> None:
    """Delete one owner's memory completely (vault, episodic, mem_index, gate log), the conversations they took part
    in, and the spans of their questions; the files are scrubbed, so no byte of it is left behind.

    Example usage:

        \b
        medpath memory forget alice --yes
    """
    if not owner.strip():
        raise click.BadParameter("give the owner whose memory to delete (see `medpath memory list`)", param_hint="OWNER")
    if not yes:
        click.confirm(f"Delete all memory of {owner!r}?", abort=True)
    gone = forget_user(build_services(Settings.from_env()), owner)
    click.echo(f"forgot {owner}: {sum(gone.get(k, 0) for k in ('vault', 'episodic', 'mem_index', 'gate_log'))} rows "
               f"(vault {gone.get('vault', 0)}, episodic {gone.get('episodic', 0)}, mem_index {gone.get('mem_index', 0)}, "
               f"gate log {gone.get('gate_log', 0)}), {gone['threads']} conversations, {gone['spans']} spans")


@memory.command("prune")
@click.option("--max-rows", type=int, default=None, help="Vault cap for this prune (default: the configured cap).")
def memory_prune(max_rows: int | None) -> None:
    """Sweep expired episodic rows and LRU-prune the vault above its row cap (logged).

    Example usage:

        \b
        medpath memory prune --max-rows 50000
    """
    mem = _memory()
    swept = mem.episodic.sweep()
    pruned = mem.vault.prune(max_rows)
    click.echo(f"episodic: {swept} expired rows swept; vault: {pruned} least recently used rows pruned")


@memory.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def memory_stats(as_json: bool) -> None:
    """Row counts per tier, superseded rows, and the prune/forget log.

    Example usage:

        \b
        medpath memory stats
    """
    st = _memory().stats()
    if as_json:
        click.echo(json.dumps(st, indent=1))
        return
    v = st["vault"]
    click.echo(f"folder:   {st['folder']}")
    click.echo(f"vault:    {v['rows']} rows ({v['current']} current, {v['superseded']} superseded), {v['owners']} owners, cap {v['max_rows']}")
    click.echo(f"episodic: {st['episodic_live']} live rows (TTL {st['ttl_s']:.0f} s)")
    click.echo(f"mem_index: {st['mem_index_keys']} keys")
    for action, e in v["log"].items():
        click.echo(f"log:      {action}: {e['events']} events, {e['rows']} rows")


@memory.command("ingest")
@click.argument("events", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--batch", default=BATCH, show_default=True, type=click.IntRange(1), help="Events per committed batch.")
@click.option("--acks", is_flag=True, help="Print `committed N` on stderr after each batch is durable.")
def memory_ingest(events: Path, quiet: bool, batch: int, acks: bool) -> None:
    """Write an event stream (docs/formats.md) into memory through the Reviewer's gate.

    It commits batch by batch and releases the memory files in between, so a running server keeps answering
    and writing; a batch that was committed survives a crash (`--acks` says which).

    Example usage:

        \b
        medpath memory ingest traces/stream/events.jsonl
        medpath memory ingest --quiet --acks --batch 500 events.jsonl
    """

    settings = Settings.from_env()
    t0 = time.perf_counter()
    rows = read_jsonl(events, ("ts", "owner", "subj", "rel", "obj", "evidence"))
    res = build_services(settings).resources
    decisions = review_events(rows, res.gate(), settings.llm, res.kg)
    mem = _memory()
    bar = None
    if not quiet:

        bar = tqdm(total=len(rows), desc="ingest", unit="ev")
    rep = ingest_events(mem, rows, decisions, (lambda _n: bar.update(1)) if bar else None, settings=settings,
                        batch=batch, pause_s=YIELD_S,
                        on_commit=(lambda n: click.echo(f"committed {n}", err=True)) if acks else None)
    if bar:
        bar.close()
    seconds = time.perf_counter() - t0
    click.echo(f"{rep.events} events: {rep.accepted} accepted, {rep.rejected} rejected by the reviewer; vault "
               f"{rep.inserted} new, {rep.refreshed} refreshed, {rep.superseded} superseded, {rep.pruned} pruned")
    click.echo(f"{seconds:.1f} s, {rep.events / max(seconds, 1e-9):.0f} events/s (reading, the gate and the writes)")


@memory.command("synth")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("traces/stream"), show_default=True)
@click.option("--seed", type=int, default=7, show_default=True)
@click.option("--users", type=int, default=30, show_default=True)
@click.option("--patients", type=int, default=300, show_default=True)
@click.option("--days", type=int, default=7, show_default=True)
def memory_synth(out: Path, seed: int, users: int, patients: int, days: int) -> None:
    """Generate a seeded synthetic stream: events.jsonl and probes.jsonl (docs/formats.md).

    Example usage:

        \b
        medpath memory synth --out traces/stream --seed 7
    """

    if min(users, patients, days) < 1 or users < 2:
        raise click.BadParameter("need at least 2 users, 1 patient and 1 day")
    events, probes = synth_stream(StreamSpec(seed, users, patients, days), Settings.from_env().data_dir)
    e, p = write_stream(events, probes, out)
    click.echo(f"{len(events)} events → {e}\n{len(probes)} probes → {p}")


@memory.command("route")
@click.argument("question")
@click.option("--mode", default="semantic", show_default=True, help="semantic, session_recovery or knowledge_lookup.")
def memory_route(question: str, mode: str) -> None:
    """Show which stores the IMM router picks for a question, and the rule that fired.

    Example usage:

        \b
        medpath memory route "What did we find last time about imatinib?"
    """

    s = Settings.from_env()
    d = Router.load(s.memory.router_rules or DEFAULT_RULES).route(question, mode)
    click.echo(f"rule {d.rule_id}{' (matched ' + repr(d.matched) + ')' if d.matched else ''}: stores {', '.join(d.stores)}; "
               f"mode {d.mode}, weights {d.weights}")


@click.command("memory")
@click.option("--events", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True)
@click.option("--probes", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the metrics as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None, help="Default: MEDPATH_TRACES_DIR/eval (traces/eval).")
def eval_memory(events: Path, probes: Path, as_json: bool, quiet: bool, out_dir: Path | None) -> None:
    """Memory Recall@1 at day 7 with memory and without, on an event stream and its probes.

    The stream is ingested into a fresh temporary memory (your own memory is not touched).
    The run is written to traces/eval/<run_id>/ (per-probe JSONL, metrics, plot, report.md).

    Example usage:

        \b
        medpath memory synth --out traces/stream
        medpath eval memory --events traces/stream/events.jsonl --probes traces/stream/probes.jsonl
    """
    settings = Settings.from_env()
    res = build_services(settings).resources
    run = RunFolder(out_dir or settings.traces_dir / "eval", "memory",
                    {"events": str(events), "probes": str(probes), "events_sha1": hashlib.sha1(events.read_bytes()).hexdigest(),
                     "probes_sha1": hashlib.sha1(probes.read_bytes()).hexdigest(), "llm": settings.llm.enabled,
                     "ttl_s": settings.memory.ttl_s, "half_life_days": settings.memory.half_life_days})
    t0 = time.perf_counter()
    try:
        out = run_memory_eval(events, probes, settings, kg=res.kg, gate=res.gate(), progress=not quiet)
        for row in out.pop("rows"):
            run.add_row(row)
    finally:
        run.close()
    out["seconds"] = round(time.perf_counter() - t0, 1)
    run.write_json("metrics.json", out)
    png = plot_memory(out["systems"], run.path / "memory.png")
    lines = [f"# medpath eval memory: {run.run_id}", "", f"- events `{events}`, probes `{probes}`; git {run.config['git']['commit']}",
             (f"- {out['events']} events ({out['ingest']['accepted']} accepted, {out['ingest']['rejected']} rejected), "
             f"{out['probes']} probes, {out['seconds']} s"), "",
             "| system | Recall@1 day 7 | all probes | leaks |", "|---|---:|---:|---:|"]
    lines += [f"| {n} | {m['recall@1_day7']:.3f} | {m['recall@1_all']:.3f} | {m['leaks']}/{m['leak_probes']} |"
              for n, m in out["systems"].items()]
    lines += ["", "Reviewer gate per event label (accepted / rejected):", ""]
    lines += [f"- {k}: {v['accepted']} / {v['rejected']}" for k, v in sorted(out["ingest"]["by_label"].items())]
    lines += ["", f"![memory]({png.name})", ""]
    (run.path / "report.md").write_text("\n".join(lines))
    log_mlflow(run, {f"{n}.{k}": v for n, m in out["systems"].items() for k, v in m.items() if isinstance(v, int | float)})
    if as_json:
        click.echo(json.dumps(out, indent=1))
        return
    ing = out["ingest"]
    click.echo(f"{out['events']} events ({ing['accepted']} accepted, {ing['rejected']} rejected), {out['probes']} probes, "
               f"{out['seconds']} s")
    click.echo(f"{'system':10s} {'Recall@1 day 7':>15s} {'all probes':>11s} {'leaks':>6s}  by kind")
    for name, m in out["systems"].items():
        kinds = ", ".join(f"{k} {v:.3f}" for k, v in m["by_kind"].items())
        click.echo(f"{name:10s} {m['recall@1_day7']:15.3f} {m['recall@1_all']:11.3f} {m['leaks']:>3d}/{m['leak_probes']:<3d} {kinds}")
    click.echo(f"report: {run.path / 'report.md'}")
