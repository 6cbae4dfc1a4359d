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
                     title: t.title, onclick: () => openThread(t.thread_id), text: t.title || t.thread_id }))));
  } catch (err) { failed(err); }
}

function setThread(id) {
  state.thread = id || "";
  if (id) sessionStorage.setItem("medpath.thread", id); else sessionStorage.removeItem("medpath.thread");
  for (const b of document.querySelectorAll("#threads button")) b.setAttribute("aria-current", String(b.dataset.thread === id));
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

async function ask(payload) {
  say(""); resetProgress();
  $("#send").disabled = true;
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
  finally { $("#send").disabled = false; loadThreads(); loadMemory(); }
}

// -- the answer ------------------------------------------------------------------------------------------------------
function lines(name, width) {
  // up to two lines of about `width` characters, cut at a space when there is one
  if (name.length <= width) return [name];
  const cut = name.lastIndexOf(" ", width) > width / 2 ? name.lastIndexOf(" ", width) : width;
  const rest = name.slice(cut).trim();
  return [name.slice(0, cut), rest.length > width ? rest.slice(0, width - 1) + "…" : rest];
}

function pathSvg(triples, types) {
  // a chain of typed entity boxes joined by labelled arrows; vertical on narrow screens
  if (!triples || !triples.length) return null;
  const ns = "http://www.w3.org/2000/svg";
  const vertical = window.innerWidth < 700;
  const nodes = [{ id: triples[0].head, name: triples[0].head_name || triples[0].head }]
    .concat(triples.map((t) => ({ id: t.tail, name: t.tail_name || t.tail })));
  const W = 170, H = 50, GAP = vertical ? 44 : 120;
  const width = vertical ? W + 180 : nodes.length * W + (nodes.length - 1) * GAP;
  const height = vertical ? nodes.length * (H + 14) + (nodes.length - 1) * GAP : H + 16;
  const make = (tag, attrs, text) => {
    const n = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    return n;
  };
  const svg = make("svg", { viewBox: `0 0 ${width} ${height}`, width, role: "img",
                            "aria-label": nodes.map((n) => n.name).join(", then ") });
  const marker = make("marker", { id: "arrow", markerWidth: 8, markerHeight: 8, refX: 7, refY: 4, orient: "auto" });
  marker.append(make("path", { d: "M0,0 L8,4 L0,8 z", fill: "#555" }));
  svg.append(make("defs", {}), marker);
  nodes.forEach((n, i) => {
    const type = types[n.id] || "";
    const x = vertical ? 0 : i * (W + GAP), y = vertical ? i * (H + 14 + GAP) + 14 : 14;
    const g = make("g", { class: "entity", "data-id": n.id, "data-type": type });
    g.append(make("title", {}, `${n.name} (${n.id}${type ? ", " + type : ""})`),
             make("rect", { x, y, width: W, height: H, rx: 8, fill: COLOURS[type] || "#7d8597" }),
             make("text", { x: x + 6, y: y - 3, fill: "#667085", "font-size": 10 }, type));
    const label = lines(n.name, 24);
    label.forEach((line, k) => g.append(make("text", {
      x: x + W / 2, y: y + H / 2 + 4 + (k - (label.length - 1) / 2) * 14, "text-anchor": "middle", fill: "#fff",
      "font-size": 12 }, line)));
    svg.append(g);
    if (i < triples.length) {
      const rel = triples[i].relation;
      if (vertical) {
        const x1 = W / 2, y1 = y + H + 2, y2 = y + H + GAP + 10;
        svg.append(make("line", { x1, y1, x2: x1, y2, stroke: "#555", "stroke-width": 1.5, "marker-end": "url(#arrow)" }),
                   make("text", { class: "relation", x: x1 + 10, y: (y1 + y2) / 2 + 4, "font-size": 12, fill: "#333" }, rel));
      } else {
        const x1 = x + W + 4, x2 = x + W + GAP - 6, ym = y + H / 2;
        svg.append(make("line", { x1, y1: ym, x2, y2: ym, stroke: "#555", "stroke-width": 1.5, "marker-end": "url(#arrow)" }),
                   make("text", { class: "relation", x: (x1 + x2) / 2, y: ym - 6, "text-anchor": "middle", "font-size": 10,
                                  fill: "#333" }, rel));
      }
    }
  });
  return el("div", { class: "path" }, svg);
}

function clarifyCard(pending) {
  const card = el("div", { class: "msg assistant clarify" }, el("div", { text: pending.question || "Which one do you mean?" }));
  (pending.candidates || []).forEach((c, i) => card.append(el("button", {
    type: "button", "data-id": c.id, text: `${c.name} (${c.type || c.id})`,
    onclick: () => { addMessage("user", c.name); ask({ thread_id: state.thread, resume: c.id }); card.remove(); },
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
  const drawn = pathSvg(a.evidence, a.entity_types || {}); if (drawn) card.append(drawn);
  if (a.ranked_answers && a.ranked_answers.length) {
    const list = el("ol", { class: "ranked" });
    for (const r of a.ranked_answers) {
      list.append(el("li", {}, el("strong", { text: r.name }), pathSvg((r.path || {}).triples, a.entity_types || {})));
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
    ask(state.thread ? { question: q, thread_id: state.thread } : { question: q });
  });
  $("#refresh-memory").addEventListener("click", loadMemory);
  $("#forget").addEventListener("click", forget);
  if (state.token) signIn(state.token); else $("#token").focus();
});
