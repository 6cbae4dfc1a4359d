"""Run folders under ``traces/eval/<run_id>/``: per-question JSONL, config snapshot, metrics, PNG plots, report.md."""

from __future__ import annotations

import hashlib
import json
import math
import platform
import subprocess
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.settings import project_root

__all__ = ["RunFolder", "git_commit", "log_mlflow", "plot_hops", "plot_latency", "plot_memory", "plot_metrics", "plot_scale", "table"]


def git_commit() -> dict[str, Any]:
    """The checkout's commit and whether it has uncommitted changes (None outside git)."""
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=project_root(), capture_output=True, text=True, timeout=5, check=False).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=project_root(),
                               capture_output=True, text=True, timeout=5, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": sha or None, "dirty": bool(dirty)}


class RunFolder:
    """One evaluation run's output folder; the id is the UTC time plus a hash of the config."""

    def __init__(self, root: Path, kind: str, config: dict[str, Any]) -> None:
        """Create ``root/<run_id>`` and write ``config.json``."""
        now = datetime.now(UTC)
        digest = hashlib.sha1(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:8]
        self.run_id = f"{kind}-{now:%Y%m%d-%H%M%S}-{digest}"
        self.path = root / self.run_id
        self.path.mkdir(parents=True, exist_ok=False)
        self.config = {"run_id": self.run_id, "kind": kind, "started": now.isoformat(timespec="seconds"),
                       "git": git_commit(), "python": platform.python_version(), **config}
        self.write_json("config.json", self.config)
        self._rows = (self.path / "questions.jsonl").open("w")

    def add_row(self, row: dict[str, Any]) -> None:
        """Append one per-question record (flushed, so a crash keeps what was done)."""
        self._rows.write(json.dumps(row, default=str) + "\n")
        self._rows.flush()

    def write_json(self, name: str, obj: Any) -> Path:
        """Write a JSON file in the run folder."""
        p = self.path / name
        p.write_text(json.dumps(obj, indent=1, default=str))
        return p

    def close(self) -> None:
        """Close the per-question file."""
        self._rows.close()


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return "nan" if math.isnan(v) else f"{v:.3f}"
    return str(v)


def table(summary: dict[str, dict[str, Any]], columns: Sequence[tuple[str, str]]) -> str:
    """A Markdown table, one row per system."""
    head = "| system | " + " | ".join(c[1] for c in columns) + " |"
    sep = "|---|" + "|".join("---:" for _ in columns) + "|"
    rows = [f"| {name} | " + " | ".join(_fmt(m.get(c[0], "")) for c in columns) + " |" for name, m in summary.items()]
    return "\n".join([head, sep, *rows])


def _plt():
    try:
        import matplotlib
    except ImportError as exc:
        raise ImportError("plots need matplotlib: pip install 'medpath' (it is a core dependency) or pip install matplotlib") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt: Any, fig: Any, out: Path) -> Path:
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def _grouped_bars(ax: Any, groups: Sequence[str], series: dict[str, list[float]]) -> None:
    """One bar per (group, series), series side by side within each group."""
    w = 0.8 / max(1, len(series))
    for i, (label, vals) in enumerate(series.items()):
        ax.bar([j + (i - (len(series) - 1) / 2) * w for j in range(len(groups))], vals, width=w, label=label)


def plot_metrics(summary: dict[str, dict[str, Any]], out: Path) -> Path:
    """Grouped bars: Recall@5, Hit@5, Path-F1 (chain and all gold) per system."""
    plt = _plt()
    metrics = [("recall@5", "Recall@5"), ("hit@5", "Hit@5"), ("path_f1", "Path-F1 (chain)"), ("path_f1_all", "Path-F1 (all gold)")]
    names = list(summary)
    fig, ax = plt.subplots(figsize=(max(7, 1.3 * len(names)), 4))
    _grouped_bars(ax, names, {label: [summary[n].get(key, 0.0) for n in names] for key, label in metrics})
    ax.set_xticks(range(len(names)), names, rotation=20, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("score")
    ax.set_title("Retrieval and path quality per system")
    ax.legend(fontsize=8, ncol=2)
    ax.grid(axis="y", alpha=0.3)
    return _save(plt, fig, out)


def plot_latency(rows: Sequence[dict[str, Any]], out: Path) -> Path:
    """Box plot of per-question latency per system (log scale)."""
    plt = _plt()
    names = list(dict.fromkeys(r["system"] for r in rows))
    data = [[max(r["latency_ms"], 0.01) for r in rows if r["system"] == n and r["kind"] == "path"] for n in names]
    fig, ax = plt.subplots(figsize=(max(7, 1.3 * len(names)), 4))
    ax.boxplot(data, showfliers=True)
    ax.set_xticks(range(1, len(names) + 1), names, rotation=20, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("latency per question (ms, log)")
    ax.set_title("Latency distribution")
    ax.grid(axis="y", alpha=0.3)
    return _save(plt, fig, out)


def plot_hops(rows: Sequence[dict[str, Any]], system: str, out: Path) -> Path:
    """Histogram of hops of the returned path vs the shortest gold chain, for one system."""
    plt = _plt()
    rs = [r for r in rows if r["system"] == system and r["kind"] == "path"]
    found = [r["hops_found"] for r in rs if r["hops_found"]]
    gold = [r["hops_gold"] for r in rs]
    top = max([*found, *gold, 1])
    bins = [x - 0.5 for x in range(top + 2)]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.hist([gold, found], bins=bins, label=["gold (shortest chain)", f"{system} (returned path)"])
    ax.set_xlabel("hops")
    ax.set_ylabel("questions")
    ax.set_title(f"Path length: {system} vs gold ({len(rs) - len(found)} with no path)")
    ax.legend()
    return _save(plt, fig, out)


def plot_scale(points: Sequence[dict[str, Any]], out: Path) -> Path:
    """Median and p95 ask latency, and build time, against graph size."""
    plt = _plt()
    xs = [p["triples"] for p in points]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(xs, [p["ask_median_ms"] for p in points], "o-", label="ask median")
    ax.plot(xs, [p["ask_p95_ms"] for p in points], "s--", label="ask p95")
    ax.set_xscale("log")
    ax.set_xlabel("triples in the graph (log)")
    ax.set_ylabel("ms per question")
    ax2 = ax.twinx()
    ax2.plot(xs, [p["build_s"] for p in points], "^:", color="gray", label="graph build (s)")
    ax2.set_ylabel("graph build (s)")
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="upper left")
    for p in points:
        ax.annotate(f"F1 {p['path_f1']:.2f}, {p['peak_rss_mb']:,.0f} MB", (p["triples"], p["ask_median_ms"]),
                    textcoords="offset points", xytext=(4, 6), fontsize=8)
    ax.set_title("Latency, build time, Path-F1 and peak RSS against graph size")
    ax.grid(alpha=0.3)
    return _save(plt, fig, out)


def plot_memory(systems: dict[str, dict[str, Any]], out: Path) -> Path:
    """Recall@1 by probe kind, memory vs no-memory."""
    plt = _plt()
    kinds = sorted({k for m in systems.values() for k in m["by_kind"]})
    cols = ["day 7", *kinds]
    fig, ax = plt.subplots(figsize=(7, 4))
    _grouped_bars(ax, cols, {name: [m["recall@1_day7"], *(m["by_kind"].get(k, 0.0) for k in kinds)]
                             for name, m in systems.items()})
    ax.set_xticks(range(len(cols)), cols)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("Memory Recall@1")
    ax.set_title("Memory Recall@1: at day 7 and by probe kind")
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    return _save(plt, fig, out)


def log_mlflow(run: RunFolder, metrics: dict[str, float]) -> str | None:
    """Log the run to a local MLflow file store (``traces/mlruns``) when mlflow is installed; else None."""
    try:
        import mlflow
    except ImportError:
        return None
    store = run.path.parent.parent / "mlruns"
    mlflow.set_tracking_uri(store.resolve().as_uri())
    mlflow.set_experiment(f"medpath-{run.config['kind']}")
    with mlflow.start_run(run_name=run.run_id):
        mlflow.log_params({k: str(v)[:250] for k, v in run.config.items() if not isinstance(v, dict | list)})
        mlflow.log_metrics({k.replace("@", "_at_"): float(v) for k, v in metrics.items() if not math.isnan(float(v))})
        mlflow.log_artifacts(str(run.path))
    return str(store)
