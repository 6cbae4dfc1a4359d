"""Reading a trace run back: the span tree, an end-of-session summary, and a static HTML waterfall."""

from __future__ import annotations

import html
import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from core.tracing import children

__all__ = ["html_timeline", "span_tree", "summarize", "summary_text"]


def span_tree(spans: Sequence[dict[str, Any]]) -> list[str]:
    """Indented lines: name, duration, status and the main attributes."""
    kids = children(spans)
    ids = {s["span_id"] for s in spans}
    lines: list[str] = []

    def walk(s: dict[str, Any], depth: int) -> None:
        attrs = {k: v for k, v in s["attributes"].items() if k.startswith(("medpath.status", "medpath.route.rule_id",
                                                                            "medpath.review.decision", "medpath.interrupt",
                                                                            "medpath.fallback", "error.type", "medpath.memory.boosted"))}
        extra = " ".join(f"{k.removeprefix('medpath.')}={v}" for k, v in attrs.items())
        flag = " ERROR" if s["status"] == "ERROR" else ""
        lines.append(f"{'  ' * depth}{s['name']}  {s['duration_ms']:.1f} ms{flag}  {extra}".rstrip())
        for c in kids.get(s["span_id"], []):
            walk(c, depth + 1)

    for root in [s for s in spans if s["parent_id"] is None or s["parent_id"] not in ids]:
        walk(root, 0)
    return lines


def summarize(spans: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Facts of a session from its spans: questions, statuses, accepted paths, memory writes, fallbacks, time."""
    roots = [s for s in spans if s["name"] == "medpath.question"]
    statuses = Counter(str(s["attributes"].get("medpath.status", "?")) for s in roots)
    nodes: dict[str, float] = defaultdict(float)
    for s in spans:
        if s["name"].startswith("node."):
            nodes[s["name"][5:]] += s["duration_ms"]
    accepted = sum(1 for s in spans if s["name"] == "node.reviewer" and s["attributes"].get("medpath.review.decision") == "accept")
    writes = sum(1 for s in spans if s["name"] == "store.memory.write" and s["attributes"].get("medpath.memory.written"))
    fallbacks = Counter(c for s in spans if s["name"].startswith("node.")
                        for c in s["attributes"].get("medpath.fallback.components", []))
    errors = [s["name"] for s in spans if s["status"] == "ERROR"]
    return {"questions": len(roots), "statuses": dict(statuses), "paths_accepted": accepted, "memory_writes": writes,
            "fallbacks": dict(fallbacks), "error_spans": errors, "total_ms": round(sum(s["duration_ms"] for s in roots), 1),
            "node_ms": {k: round(v, 1) for k, v in sorted(nodes.items())}, "traces": len({s["trace_id"] for s in spans})}


def summary_text(facts: dict[str, Any]) -> str:
    """The summary as a few plain lines."""
    st = ", ".join(f"{n} {k}" for k, n in sorted(facts["statuses"].items())) or "none"
    fb = ", ".join(f"{k} ×{n}" for k, n in facts["fallbacks"].items()) or "none"
    nodes = ", ".join(f"{k} {v:.0f} ms" for k, v in facts["node_ms"].items())
    return "\n".join([
        f"{facts['questions']} question(s) in {facts['traces']} trace(s): {st}.",
        f"Paths accepted: {facts['paths_accepted']}; memory writes: {facts['memory_writes']}; fallbacks: {fb}"
        + (f"; error spans: {', '.join(facts['error_spans'])}." if facts["error_spans"] else "."),
        f"Time: {facts['total_ms']:.0f} ms in total ({nodes}).",
    ])


def html_timeline(run_id: str, spans: Sequence[dict[str, Any]]) -> str:
    """A self-contained HTML page drawing the spans as a waterfall (the page's script draws the rows)."""
    data = json.dumps([{k: s[k] for k in ("trace_id", "span_id", "parent_id", "name", "start_ns", "end_ns", "duration_ms",
                                          "status", "attributes")} for s in spans], default=str).replace("</", "<\\/")
    title = html.escape(f"medpath trace {run_id}")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font: 13px system-ui, sans-serif; margin: 16px; color: #222; }}
.row {{ display: flex; align-items: center; height: 22px; border-bottom: 1px solid #eee; }}
.label {{ width: 360px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }}
.lane {{ position: relative; flex: 1; height: 14px; background: #fafafa; }}
.bar {{ position: absolute; height: 14px; background: #4a90d9; border-radius: 2px; min-width: 2px; }}
.bar.ERROR {{ background: #d9534f; }}
.trace {{ margin-top: 14px; font-weight: 600; }}
.ms {{ width: 90px; text-align: right; color: #666; }}
</style></head>
<body><h1>{title}</h1><p id="meta"></p><div id="timeline"></div>
<script id="spans" type="application/json">{data}</script>
<script>
const spans = JSON.parse(document.getElementById('spans').textContent);
const byTrace = {{}};
for (const s of spans) (byTrace[s.trace_id] = byTrace[s.trace_id] || []).push(s);
const root = document.getElementById('timeline');
document.getElementById('meta').textContent = spans.length + ' spans in ' + Object.keys(byTrace).length + ' trace(s)';
for (const [tid, list] of Object.entries(byTrace)) {{
  const t0 = Math.min(...list.map(s => s.start_ns)), t1 = Math.max(...list.map(s => s.end_ns));
  const ids = new Set(list.map(s => s.span_id));
  const kids = {{}};
  for (const s of list) (kids[ids.has(s.parent_id) ? s.parent_id : 'root'] = kids[ids.has(s.parent_id) ? s.parent_id : 'root'] || []).push(s);
  const head = document.createElement('div'); head.className = 'trace';
  head.textContent = 'trace ' + tid.slice(0, 12) + ' (' + ((t1 - t0) / 1e6).toFixed(1) + ' ms)'; root.appendChild(head);
  const draw = (s, depth) => {{
    const row = document.createElement('div'); row.className = 'row span'; row.dataset.name = s.name;
    const label = document.createElement('div'); label.className = 'label';
    label.style.paddingLeft = (depth * 14) + 'px'; label.textContent = s.name;
    label.title = JSON.stringify(s.attributes);
    const lane = document.createElement('div'); lane.className = 'lane';
    const bar = document.createElement('div'); bar.className = 'bar ' + s.status;
    bar.style.left = (100 * (s.start_ns - t0) / Math.max(1, t1 - t0)) + '%';
    bar.style.width = (100 * (s.end_ns - s.start_ns) / Math.max(1, t1 - t0)) + '%';
    lane.appendChild(bar);
    const ms = document.createElement('div'); ms.className = 'ms'; ms.textContent = s.duration_ms.toFixed(1) + ' ms';
    row.append(label, lane, ms); root.appendChild(row);
    for (const c of (kids[s.span_id] || []).sort((a, b) => a.start_ns - b.start_ns)) draw(c, depth + 1);
  }};
  for (const r of (kids['root'] || []).sort((a, b) => a.start_ns - b.start_ns)) draw(r, 0);
}}
</script></body></html>
"""
