// medpath chat page: plain DOM, no framework, no network beyond this server.
"use strict";

const $ = (sel) => document.querySelector(sel);
const COLOURS = { Drug: "#2a9d8f", Protein: "#457b9d", Disease: "#e76f51", BiologicalProcess: "#8d6cab",
                  GeneFamily: "#6b8f3c", Pathway: "#b5838d", ChemicalSubstance: "#c9a227", Cell: "#6d9dc5" };
const MESSAGES = {
  401: "Your token is missing, expired or not valid here. Sign in again with a fresh token.",
  403: "That is outside what your token may see.",
  429: "Too many requests. Wait a moment and try again.",
  503: "medpath cannot answer right now (a store is busy or off). Try again shortly.",
};
let state = { token: sessionStorage.getItem("medpath.token") || "", thread: sessionStorage.getItem("medpath.thread") || "" };

function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const kid of kids) if (kid) node.append(kid);
  return node;
}

function say(text) { $("#status").textContent = text || ""; }

function explain(status, detail) {
  const base = MESSAGES[status] || `The server answered ${status}.`;
  return detail && status !== 401 ? `${base} (${typeof detail === "string" ? detail : JSON.stringify(detail)})` : base;
}

async function api(method, path, body) {
  const headers = { Authorization: `Bearer ${state.token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let resp;
  try {
    resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw { status: 0, message: "The server cannot be reached." };
  }
  if (!resp.ok) {
    let detail = "";
    try { detail = (await resp.json()).detail; } catch (_) { /* not JSON */ }
    const retry = resp.headers.get("Retry-After");
    throw { status: resp.status, message: explain(resp.status, detail) + (retry ? ` Retry after ${retry} s.` : "") };
  }
  return resp;
}

function failed(err) {
  say(err.message || String(err));
  if (err.status === 401) signOut(false);
}

// -- sign-in -------------------------------------------------------------------------------------------------------
function subjectOf(token) {
  try { return JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))).sub || ""; }
  catch (_) { return ""; }
}

function signIn(token) {
  state.token = token.trim();
  sessionStorage.setItem("medpath.token", state.token);
  $("#whoami").textContent = `signed in as ${subjectOf(state.token) || "?"}`;
  $("#signin-panel").hidden = true; $("#app").hidden = false; $("#signout").hidden = false;
  say("");
  loadThreads(); loadMemory();
  if (state.thread) openThread(state.thread); else $("#question").focus();
}

function signOut(clear = true) {
  sessionStorage.removeItem("medpath.token"); sessionStorage.removeItem("medpath.thread");
  state = { token: "", thread: "" };
  $("#app").hidden = true; $("#signin-panel").hidden = false; $("#signout").hidden = true;
  $("#whoami").textContent = ""; $("#messages").replaceChildren(); $("#memory-list").replaceChildren();
  if (clear) say("");
  $("#token").focus();
}

// -- threads ---------------------------------------------------------------------------------------------------------
async function loadThreads() {
  try {
    const { threads } = await (await api("GET", "/api/v1/threads")).json();
    $("#threads").replaceChildren(...threads.map((t) => el("li", {},
      el("button", { type: "button", "data-thread": t.thread_id, "aria-current": String(t.thread_id === state.thread),
                     title: t.title, onclick: () => openThread(t.thread_id), text: t.title || t.thread_id }),
      el("button", { type: "button", class: "delete", text: "×", title: "Delete",
                     "aria-label": `Delete the conversation "${t.title || t.thread_id}"`,
                     onclick: () => deleteThread(t.thread_id, t.title || t.thread_id) }))));
  } catch (err) { failed(err); }
}

async function deleteThread(id, title) {
  if (!window.confirm(`Delete the conversation "${title}"? What medpath remembers from it stays (Forget me removes that).`)) return;
  try {
    await api("DELETE", `/api/v1/threads/${encodeURIComponent(id)}`);
    if (id === state.thread) { setThread(""); $("#messages").replaceChildren(); }
    say("Conversation deleted.");
  } catch (err) { if (err.status !== 404) failed(err); }
  loadThreads();
}

function setThread(id) {
  state.thread = id || "";
  if (id) sessionStorage.setItem("medpath.thread", id); else sessionStorage.removeItem("medpath.thread");
  for (const b of document.querySelectorAll("#threads button[data-thread]")) b.setAttribute("aria-current", String(b.dataset.thread === id));
}

async function openThread(id) {
  setThread(id);
  $("#messages").replaceChildren();
  try {
    const t = await (await api("GET", `/api/v1/threads/${encodeURIComponent(id)}`)).json();
    for (const m of t.messages) addMessage(m.role, m.content, m.status ? `${m.status}` : "");
    if (t.pending) $("#messages").append(clarifyCard(t.pending));
  } catch (err) { if (err.status === 404) setThread(""); else failed(err); }
}

// -- asking ----------------------------------------------------------------------------------------------------------
function addMessage(role, text, meta) {
  const node = el("div", { class: `msg ${role}` }, el("div", { text }), meta ? el("div", { class: "meta", text: meta }) : null);
  $("#messages").append(node);
  node.scrollIntoView({ block: "nearest" });
  return node;
}

function resetProgress() {
  for (const li of document.querySelectorAll("#progress li")) { li.className = ""; li.querySelector(".ms").textContent = ""; }
  document.querySelector('#progress li[data-node="planner"]').className = "running";
}

function progress(node, ms) {
  const li = document.querySelector(`#progress li[data-node="${node}"]`);
  if (!li) return;
  li.className = "done"; li.querySelector(".ms").textContent = `${Math.round(ms)} ms`;
  const next = li.nextElementSibling;
  if (next && !next.className) next.className = "running";
}

let queued = Promise.resolve();  // one ask at a time: a question sent while an answer streams waits for it, not lost

function send(payload) {
  // `payload` is made when the question's turn comes, so that it carries the thread the asks before it opened
  queued = queued.then(() => ask(payload()));
}

async function ask(payload) {
  say(""); resetProgress();
  $("#ask-form").setAttribute("aria-busy", "true");
  try {
    const resp = await api("POST", "/api/v1/ask/stream", payload);
    const reader = resp.body.getReader(); const decoder = new TextDecoder(); let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
      let cut;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut); buf = buf.slice(cut + 2);
        let event = "message", data = "";
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data += line.slice(5).trim();
        }
        if (!data) continue;
        const obj = JSON.parse(data);
        if (event === "started") setThread(obj.thread_id);
        else if (event === "progress") progress(obj.node, obj.ms);
        else if (event === "answer") showAnswer(obj);
        else if (event === "error") say(explain(obj.status, obj.detail));
      }
    }
  } catch (err) { failed(err); }
  finally { $("#ask-form").removeAttribute("aria-busy"); loadThreads(); loadMemory(); }
}

// -- the answer ------------------------------------------------------------------------------------------------------
function lines(name, width, most = 2) {
  // up to `most` lines of about `width` characters, cut at a space, or after a "/" or "-", when there is one
  const out = [];
  let rest = name.trim();
  while (rest.length > width && out.length < most - 1) {
    let cut = width;
    for (let i = width; i > width / 3; i--) {
      if (rest[i] === " ") { cut = i; break; }
      if ((rest[i] === "/" || rest[i] === "-") && i < width) { cut = i + 1; break; }
    }
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  out.push(rest.length > width ? rest.slice(0, width - 1) + "…" : rest);
  return out;
}

const BOX = { W: 140, H: 50, TYPE: 14, GAP: 100, ROW_GAP: 44, SIDE: 180 };

function room(indent) {
  // the width a drawing has in the conversation column: the card's padding and a list's indent taken off
  return ($("#messages").clientWidth || window.innerWidth) - 24 - indent;
}

let drawn = [];  // each drawing on the page with what it was drawn from: redrawn when the column's width changes

function pathSvg(triples, types, indent = 0) {
  // a drawing of a path that follows the width of the column
  if (!triples || !triples.length) return null;
  const holder = el("div", { class: "path" }, drawPath(triples, types, indent));
  drawn.push({ holder, triples, types, indent, width: room(indent) });
  return holder;
}

function redraw() {
  drawn = drawn.filter((d) => d.holder.isConnected);
  for (const d of drawn) {
    if (room(d.indent) === d.width) continue;
    d.width = room(d.indent);
    d.holder.replaceChildren(drawPath(d.triples, d.types, d.indent));
  }
}

let resizing = 0;
window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(redraw, 120); });

function drawPath(triples, types, indent) {
  // a chain of typed entity boxes joined by labelled arrows, wrapped into rows that fit the column at full size, so
  // that a long mechanism is never shrunk to unreadable text; one box per row on a narrow screen
  const ns = "http://www.w3.org/2000/svg";
  const nodes = [{ id: triples[0].head, name: triples[0].head_name || triples[0].head }]
    .concat(triples.map((t) => ({ id: t.tail, name: t.tail_name || t.tail })));
  const { W, H, TYPE, GAP, ROW_GAP, SIDE } = BOX;
  const space = room(indent), cols = Math.min(Math.max(1, Math.floor((space + GAP) / (W + GAP))), nodes.length);
  const rows = Math.ceil(nodes.length / cols), side = Math.max(100, Math.min(SIDE, space - W));
  const width = cols === 1 ? W + side : cols * W + (cols - 1) * GAP;
  const height = rows * (TYPE + H) + (rows - 1) * ROW_GAP + 2;
  const at = (i) => ({ x: (i % cols) * (W + GAP), y: Math.floor(i / cols) * (TYPE + H + ROW_GAP) + TYPE });
  const make = (tag, attrs, text) => {
    const n = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    return n;
  };
  const label = (rel, x, y, anchor, width) => {
    const t = make("text", { class: "relation", x, y, "text-anchor": anchor, "font-size": 11, fill: "#333" });
    lines(rel, width).forEach((line, k) => t.append(make("tspan", { x, dy: k ? 12 : 0 }, line)));
    return t;
  };
  const svg = make("svg", { viewBox: `0 0 ${width} ${height}`, width, role: "img",
                            "aria-label": nodes.map((n) => n.name).join(", then ") });
  const marker = make("marker", { id: "arrow", markerWidth: 8, markerHeight: 8, refX: 7, refY: 4, orient: "auto" });
  marker.append(make("path", { d: "M0,0 L8,4 L0,8 z", fill: "#555" }));
  svg.append(make("defs", {}), marker);
  nodes.forEach((n, i) => {
    const type = types[n.id] || "", { x, y } = at(i);
    const g = make("g", { class: "entity", "data-id": n.id, "data-type": type });
    g.append(make("title", {}, `${n.name} (${n.id}${type ? ", " + type : ""})`),
             make("rect", { x, y, width: W, height: H, rx: 8, fill: COLOURS[type] || "#7d8597" }),
             make("text", { x: x + 6, y: y - 3, fill: "#667085", "font-size": 10 }, type));
    const name = lines(n.name, 20, 3);
    name.forEach((line, k) => g.append(make("text", {
      x: x + W / 2, y: y + H / 2 + 4 + (k - (name.length - 1) / 2) * 13, "text-anchor": "middle", fill: "#fff",
      "font-size": 12 }, line)));
    svg.append(g);
    if (i === triples.length) return;
    const rel = triples[i].relation, next = at(i + 1), line = { stroke: "#555", "stroke-width": 1.5, fill: "none",
                                                                "marker-end": "url(#arrow)" };
    if (next.y === y) {  // the same row: an arrow to the right, its relation above it
      const x1 = x + W + 4, x2 = next.x - 6, ym = y + H / 2, above = lines(rel, 16).length - 1;
      svg.append(make("line", { x1, y1: ym, x2, y2: ym, ...line }),
                 label(rel, (x1 + x2) / 2, ym - 6 - 12 * above, "middle", 16));
    } else {  // down to the next row, clear of the type label at the top left of its box
      const x1 = x + W - 16, x2 = next.x + W - 16, y1 = y + H + 2, y2 = next.y - 4, ym = y + H + ROW_GAP / 2 + 2;
      svg.append(make("polyline", { points: `${x1},${y1} ${x1},${ym} ${x2},${ym} ${x2},${y2}`, ...line }),
                 cols === 1 ? label(rel, x1 + 10, ym - 2, "start", Math.floor((side - 30) / 6))
                            : label(rel, (x1 + x2) / 2, ym - 5 - 12 * (lines(rel, 40).length - 1), "middle", 40));
    }
  });
  return svg;
}

function clarifyCard(pending) {
  const card = el("div", { class: "msg assistant clarify" }, el("div", { text: pending.question || "Which one do you mean?" }));
  (pending.candidates || []).forEach((c, i) => card.append(el("button", {
    type: "button", "data-id": c.id, text: `${c.name} (${c.type || c.id})`,
    onclick: () => { addMessage("user", c.name); send(() => ({ thread_id: state.thread, resume: c.id })); card.remove(); },
    "aria-label": `Choose ${c.name}, option ${i + 1}`,
  })));
  return card;
}

function showAnswer(a) {
  if (a.status === "NEEDS_CLARIFICATION" && a.clarification) {
    const card = clarifyCard(a.clarification); $("#messages").append(card);
    const first = card.querySelector("button"); if (first) first.focus();
    return;
  }
  const card = addMessage("assistant", a.answer || a.status, "");
  card.classList.add("answer");
  const meta = card.querySelector(".meta") || el("div", { class: "meta" });
  if (a.understood_as) card.append(el("div", { class: "meta understood", text: `understood as: ${a.understood_as}` }));
  const top = (a.ranked_answers || [])[0], listed = ((top || {}).path || {}).triples || [];
  const same = listed.length === (a.evidence || []).length
    && listed.every((t, i) => ["head", "relation", "tail"].every((k) => t[k] === a.evidence[i][k]));
  if (!same) { const drawn = pathSvg(a.evidence, a.entity_types || {}); if (drawn) card.append(drawn); }  // else: drawn as the list's first
  if (a.ranked_answers && a.ranked_answers.length) {
    const list = el("ol", { class: "ranked" });
    for (const r of a.ranked_answers) {
      list.append(el("li", {}, el("strong", { text: r.name }), pathSvg((r.path || {}).triples, a.entity_types || {}, 20)));
    }
    card.append(list);
  }
  if (a.citations && a.citations.length) {
    card.append(el("ol", { class: "citations" }, ...a.citations.map((c) => el("li", {},
      el("a", { href: /^https?:\/\//.test(c.url || "") ? c.url : "#", target: "_blank", rel: "noopener noreferrer",
                text: `${c.id || c.source}: ${c.title || ""}` })))));
  }
  const route = a.route && a.route.route ? `route ${a.route.route} (rule ${a.route.classifier_rule_id})` : "";
  meta.textContent = [a.status, route].filter(Boolean).join(" · ");
  meta.classList.add("route"); card.append(meta);
  if (a.trace_id) {
    card.append(el("button", { type: "button", class: "trace", text: "Trace waterfall", onclick: () => openTrace(a.trace_id) }));
  }
  if (a.suggestions && a.suggestions.length) {
    card.append(el("div", { class: "meta", text: `Did you mean: ${a.suggestions.map((s) => s.name).join(", ")}?` }));
  }
}

async function openTrace(id) {
  try {
    const html = await (await api("GET", `/api/v1/traces/${encodeURIComponent(id)}`)).text();
    window.open(URL.createObjectURL(new Blob([html], { type: "text/html" })), "_blank");
  } catch (err) { failed(err); }
}

// -- memory ----------------------------------------------------------------------------------------------------------
async function loadMemory() {
  try {
    const { memories } = await (await api("GET", "/api/v1/memories")).json();
    const when = (t) => new Date(t * 1000).toLocaleString();
    $("#memory-list").replaceChildren(...(memories.length ? memories.map((m) => el("li", { "data-subject": m.subject },
      el("div", { text: `${m.subject_name} ${m.relation} ${m.object_name}` }),
      el("div", { class: "when", text: `first ${when(m.first_seen)}, last used ${when(m.last_used)} · ${m.uses}×` }),
      el("div", { class: "when", text: `source: ${m.source}` }))) : [el("li", { class: "empty", text: "Nothing remembered." })]));
  } catch (err) { failed(err); }
}

async function forget() {
  if (!window.confirm("Forget everything medpath remembers about you, and your conversations?")) return;
  try {
    await api("DELETE", "/api/v1/memories");
    setThread(""); $("#messages").replaceChildren(); say("Forgotten.");
    loadThreads(); loadMemory();
  } catch (err) { failed(err); }
}

// -- wiring ----------------------------------------------------------------------------------------------------------
document.addEventListener("DOMContentLoaded", () => {
  $("#signin-form").addEventListener("submit", (e) => { e.preventDefault(); signIn($("#token").value); });
  $("#signout").addEventListener("click", () => signOut());
  $("#new-thread").addEventListener("click", () => { setThread(""); $("#messages").replaceChildren(); $("#question").focus(); });
  $("#ask-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const q = $("#question").value.trim();
    if (!q) return;
    addMessage("user", q); $("#question").value = "";
    // a question typed over a clarification replaces it (or answers it: "type 2"): its options no longer apply
    document.querySelectorAll("#messages .clarify button").forEach((b) => { b.disabled = true; });
    send(() => (state.thread ? { question: q, thread_id: state.thread } : { question: q }));
  });
  $("#refresh-memory").addEventListener("click", loadMemory);
  $("#forget").addEventListener("click", forget);
  if (state.token) signIn(state.token); else $("#token").focus();
});
