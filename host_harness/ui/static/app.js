// rs-learn ui: plain JavaScript over the JSON API of host_harness/ui/app.py. Every call carries the
// token; nothing is cached. Every POLL_MS the page asks for the store's change stamp (a cheap call)
// and reads what it shows again when the stamp moved -- a change made by the CLI or an agent, a new
// ledger line -- or FULL_MS have passed (a cited file may have changed): no reload needed, and one
// poll at a time. Text from the store only ever goes into the page as text (never as HTML).
"use strict";

const TOKEN = document.querySelector('meta[name="rs-learn-token"]').content;
const POLL_MS = 2000;
const FULL_MS = 30000;
const main = () => document.getElementById("main");
let shown = "";        // the JSON the current view last rendered (re-render only when it changes)
let busy = false;      // an edit is open or a write is on its way: polling waits
let stamp = null;      // the store's change stamp when the view was last read
let lastRead = 0;      // when (Date.now()) the view was last read
let reading = false;   // a read of the view is on its way
let cursors = [];      // the listing's pages before this one: the "next" that led to each

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function status(message, error) {
  const el = document.getElementById("status");
  el.textContent = message || "";
  el.className = error ? "error" : "";
}

async function api(path, body) {
  const options = {headers: {"X-RS-Learn-Token": TOKEN}, cache: "no-store"};
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const answer = await response.json().catch(() => ({ok: false, error: `HTTP ${response.status}`}));
  if (!answer.ok) throw new Error(answer.error);
  return answer.data;
}

const day = (ms) => new Date(ms).toISOString().slice(0, 10);
const when = (ms) => new Date(ms).toISOString().replace("T", " ").slice(0, 16) + " UTC";
const num = (value, digits = 3) => (typeof value === "number" ? value.toFixed(digits) : "?");
const badge = (kind, text) => h("span", {class: `badge ${kind}`}, text || kind);
const empty = (text) => h("p", {class: "empty"}, text);

// ---- Memories -------------------------------------------------------------------------------------

function memoryQuery() {
  const form = document.getElementById("filters");
  const params = new URLSearchParams();
  for (const [key, value] of new FormData(form)) if (value) params.set(key, value);
  return params;
}

async function memoriesPage(first) {
  if (first) {
    main().replaceChildren(h("h2", {}, "Memories"), document.getElementById("memories-form").content.cloneNode(true));
    const form = document.getElementById("filters");
    const stores = await api("api/namespaces");
    form.ns.replaceChildren(...stores.map((ns) => h("option", {value: ns}, ns)));
    form.addEventListener("submit", (event) => { event.preventDefault(); cursors = []; shown = ""; refresh(); });
    form.addEventListener("change", () => { cursors = []; shown = ""; refresh(); });
  }
  if (first) cursors = [];
  const params = memoryQuery();
  const cursor = cursors[cursors.length - 1];
  if (cursor && !params.get("q")) params.set("cursor", cursor);
  const data = await api(`api/memories?${params}`);
  if (!render(data)) return;
  const results = document.getElementById("results");
  const plural = (n) => `${n} memor${n === 1 ? "y" : "ies"}`;
  const count = plural(data.memories.length) + (data.searched ? " found by recall" : "") +
    (cursors.length ? ` (page ${cursors.length + 1})` : "") +
    (typeof data.total === "number" ? ` of ${data.total} stale` : "");
  const pager = h("div", {class: "pager"},
    cursors.length ? h("button", {class: "first-page", onclick: () => { cursors = []; shown = ""; refresh(); }}, "First page") : null,
    data.next ? h("button", {class: "next-page", onclick: () => { cursors.push(data.next); shown = ""; refresh(); }}, "Next page") : null);
  const cards = data.memories.map(memoryCard);
  const cut = data.searched ? data.memories.findIndex((m) => m.gate === "below") : -1;
  if (cut >= 0 && data.memories.slice(cut).every((m) => m.gate !== "passes")) {
    cards.splice(cut, 0, h("div", {class: "gate-cut"}, cut === 0 && data.gate && data.gate.why ?
      `relevance ends here: the hook would inject none of these (${data.gate.why})` :
      "relevance ends here: the hook's gate would not inject the memories below for these words"));
  }
  const closed = data.searched && data.gate && !data.gate.passed && cut < 0 ?
    h("div", {class: "gate-cut"}, `the hook's gate is closed for these words: ${data.gate.why}`) : null;
  results.replaceChildren(h("p", {class: "meta"}, count), ...(closed ? [closed] : []), ...(cards.length ? cards : [empty("No memories.")]), pager);
}

function fileList(memory) {
  if (!memory.files || !memory.files.length) return null;
  const changed = new Set((memory.stale && memory.stale.files) || []);
  return h("span", {}, "files: ", ...memory.files.map((file) =>
    h("span", {}, file, " ", badge(changed.has(file) ? "stale" : "fresh", changed.has(file) ? "changed since" : "unchanged"), " ")));
}

function memoryCard(memory) {
  const forgotten = memory.forgotten;
  const card = h("article", {class: `card memory${forgotten ? " forgotten" : ""}`, "data-id": memory.id});
  const links = [];
  if (memory.supersedes && memory.supersedes.length) links.push(h("span", {}, "supersedes ", memory.supersedes.join(", ")));
  if (memory.superseded_by) links.push(h("span", {}, "superseded by ", memory.superseded_by));
  card.append(
    ...(memory.context ? [h("div", {class: "context", title: "the headings it sat under in the file it was imported from"}, memory.context)] : []),
    h("div", {class: "text"}, memory.text),
    h("div", {class: "meta"},
      h("span", {class: "id"}, memory.id),
      h("span", {title: when(memory.ts)}, day(memory.ts)),
      memory.namespace !== "default" ? h("span", {}, `[${memory.namespace}]`) : null,
      typeof memory.score === "number" ? h("span", {}, `score ${num(memory.score)}`) : null,
      memory.captured ? h("span", {class: "captured"}, `captured ${memory.captured.kind || ""} in session `,
        h("span", {class: "id", title: String(memory.captured.session || "")}, String(memory.captured.session || "?").slice(0, 8)),
        typeof memory.captured.at === "number" ? ` at ${when(memory.captured.at)}` : "")
        : memory.origin ? h("span", {}, `stored by ${memory.origin}`) : null,
      memory.provenance ? h("span", {class: `provenance trust-${memory.provenance.trust}`, title: `trust: ${memory.provenance.trust}`}, `from: ${memory.provenance.label}`) : null,
      memory.provenance?.trust === "untrusted" ? badge("untrusted", "not injected until approved") : null,
      memory.gate === "passes" ? badge("injected", "passes the gate") : memory.gate === "below" ? badge("gate", "below the gate") : null,
      memory.stale ? badge("stale") : null,
      memory.quarantined ? badge("quarantined", `quarantined: ${memory.quarantined}`) : null,
      memory.superseded_by ? badge("superseded") : null,
      forgotten ? badge("forgotten", `forgotten ${day(forgotten.ts)}${forgotten.reason ? ": " + forgotten.reason : ""}`) : null,
      fileList(memory), ...links));
  const actions = h("div", {class: "actions"});
  if (memory.supersedes?.length || memory.superseded_by) actions.append(h("button", {onclick: () => showChain(card, memory)}, "Chain"));
  if (!forgotten) {
    if (memory.quarantined || memory.provenance?.trust === "untrusted") actions.append(h("button", {class: "approve", onclick: () => write("approve", {id: memory.id, namespace: memory.namespace}, `approved ${memory.id}`)}, "Approve"));
    if (!memory.superseded_by) actions.append(h("button", {class: "edit-button", onclick: () => editCard(card, memory)}, "Edit (supersede)"));
    actions.append(h("button", {class: "danger forget", onclick: () => forgetCard(card, memory)}, "Forget"));
  }
  card.append(actions);
  return card;
}

async function showChain(card, memory) {
  const old = card.querySelector(".chain");
  if (old) { old.remove(); return; }
  const data = await api(`api/memory/${encodeURIComponent(memory.id)}?ns=${encodeURIComponent(memory.namespace)}`);
  card.append(h("div", {class: "chain"}, h("b", {}, "supersede chain, oldest first"),
    ...data.chain.map((link) => h("div", {},
      h("span", {class: "id"}, link.id), " ", day(link.ts), " ", link.forgotten ? badge("forgotten") : null, " ",
      link.superseded_by ? badge("superseded") : badge("injected", "newest"), " ", link.text))));
}

function form(card, className, fields, submit) {
  busy = true;
  card.querySelector(`.${className}`)?.remove();
  const box = h("form", {class: className}, ...fields,
    h("div", {class: "actions"}, h("button", {type: "submit", class: "primary"}, "Confirm"),
      h("button", {type: "button", onclick: () => { box.remove(); busy = false; }}, "Cancel")));
  box.addEventListener("submit", (event) => { event.preventDefault(); submit(new FormData(box)); });
  card.append(box);
  box.querySelector("textarea, input")?.focus();
}

function forgetCard(card, memory) {
  form(card, "forget-form", [h("input", {name: "reason", placeholder: "why (optional; kept with the tombstone)", size: 50})],
    (data) => write("forget", {id: memory.id, namespace: memory.namespace, reason: data.get("reason") || undefined}, `forgotten ${memory.id}`));
}

function editCard(card, memory) {
  const area = h("textarea", {name: "text"});
  area.value = memory.text;
  form(card, "edit", [area],
    (data) => write("supersede", {id: memory.id, namespace: memory.namespace, text: data.get("text")}, `${memory.id} superseded`));
}

async function write(verb, body, done) {
  busy = true;
  try {
    const data = await api(`api/${verb}`, body);
    status(verb === "supersede" ? `${done} by ${data.id}` : done);
  } catch (error) {
    status(error.message, true);
  } finally {
    busy = false;
    shown = "";
    refresh();
  }
}

// ---- Prompts (the injection ledger) ---------------------------------------------------------------

const WHY_NOT = {budget: "over the token budget", gate: "below the relevance gate", limit: "beyond the hook's limit",
  quarantined: "quarantined", untrusted: "untrusted origin, not approved", seen: "already injected in this session",
  stale: "injected (may be stale)"};

async function promptsPage() {
  const data = await api("api/prompts");
  if (!render(data)) return;
  if (!data.sessions.length) {
    main().replaceChildren(h("h2", {}, "Prompts"), empty("No hook run recorded yet (.gm/logs/ledger.jsonl)."));
    return;
  }
  main().replaceChildren(h("h2", {}, "Prompts: what the hook injected, and why"),
    ...data.sessions.map((session) => h("section", {class: "session"},
      h("h3", {}, `session ${session.id}`, h("span", {class: "meta"}, ` ${session.entries.length} run${session.entries.length === 1 ? "" : "s"}, ${session.first} → ${session.last}`)),
      ...session.entries.map(run))));
}

function run(entry) {
  const box = h("div", {class: `run ${entry.outcome || ""}`});
  if (entry.event === "session-start") {
    box.append(h("div", {}, `${entry.ts} session ${entry.source}: ${entry.forgotten} injected memories may come again`));
    return box;
  }
  const prompt = entry.prompt || {};
  box.append(h("div", {}, h("b", {}, entry.ts), " ", badge(entry.outcome || "nothing", entry.outcome),
    h("span", {class: "meta"}, ` ${entry.path || ""} ${typeof entry.ms === "number" ? entry.ms + " ms" : ""}`)));
  box.append(h("div", {class: "prompt"}, typeof entry.text === "string" ?
    h("span", {class: "text"}, `“${entry.text}”`) : h("span", {}, "prompt ", h("span", {class: "id"}, prompt.sha256 || "?"), ` (${prompt.chars ?? "?"} characters; text not kept)`)));
  if (entry.query !== undefined && entry.query !== null) box.append(h("div", {class: "meta"}, `query “${entry.query}”, recalled with the ${(entry.recalled_with || []).join(" and ") || "nothing"}`));
  if (entry.injected && entry.injected.length) box.append(h("div", {}, `injected ${entry.injected.length}, ${entry.tokens || 0} tokens`));
  else box.append(h("div", {class: "meta"}, `nothing injected: ${entry.reason || "no reason recorded"}`));
  const candidates = (entry.candidates || []).filter((c) => c && typeof c === "object");
  if (candidates.length) {
    box.append(h("table", {class: "candidates"},
      h("tr", {}, ...["decision", "score", "", "memory", "cosine", "bm25", "vector", "keyword", "fused", "recency"].map((t) => h("th", {}, t))),
      ...candidates.map((c) => {
        const bar = h("span", {class: "bar"});
        bar.style.width = `${Math.max(0, Math.min(1, c.score || 0)) * 6}em`;
        return h("tr", {},
          h("td", {}, badge(c.decision, c.decision), c.decision !== "injected" && WHY_NOT[c.decision] ? h("div", {class: "meta"}, WHY_NOT[c.decision]) : null),
          h("td", {class: "num"}, num(c.score)), h("td", {}, bar),
          h("td", {}, h("div", {class: "id"}, c.id), c.excerpt ? h("div", {class: "text"}, c.excerpt) : null),
          ...["cosine", "bm25", "vector", "keyword", "fused", "recency"].map((k) => h("td", {class: "num"}, num(c[k]))));
      })));
  }
  if (entry.evidence && entry.evidence.why && !(entry.reason || "").includes(entry.evidence.why)) box.append(h("div", {class: "meta"}, `relevance gate: ${entry.evidence.why}`));
  return box;
}

// ---- Sessions: what capture kept, and what the next session start injects ------------------------

async function sessionsPage() {
  const [kept, next] = [await api("api/captured"), await api("api/next-session")];
  if (!render({kept, next})) return;
  const preview = h("section", {class: "next-session"}, h("h3", {}, `What the next session start injects (hooks' budgets: ${next.hooks.map(x => `${x.hook} ${x.budget_tokens}`).join(", ")} tokens)`),
    ...next.hooks.map((hook) => h("article", {class: "card hook"}, h("div", {}, h("b", {}, `hook ${hook.hook}`), h("span", {class: "meta"}, ` (${hook.verb})`)),
      hook.context ? h("pre", {class: "block"}, hook.context) : empty("Nothing: this hook would inject nothing now."))));
  const sessions = kept.sessions.map((session) => h("section", {class: "session captured-session"},
    h("h3", {}, "session ", h("span", {class: "id", title: session.id}, session.id.slice(0, 8)),
      h("span", {class: "meta"}, ` ${session.memories.length} kept, ${when(session.first)} → ${when(session.last)}`)),
    ...session.memories.map(memoryCard)));
  main().replaceChildren(h("h2", {}, "Sessions"), preview, h("h3", {}, "What capture kept, by session"),
    ...(sessions.length ? sessions : [empty("Capture kept nothing yet.")]),
    ...(kept.complete ? [] : [h("p", {class: "meta"}, "(older sessions not read: the listing stops after 20 pages)")]));
}

// ---- Archive, skills, structured memory (read-only) -----------------------------------------------

async function archivePage() {
  const data = await api("api/archive");
  if (!render(data)) return;
  main().replaceChildren(h("h2", {}, `Archive: ${data.total} block${data.total === 1 ? "" : "s"}`),
    ...(data.blocks.length ? data.blocks.map((block) => {
      const card = h("article", {class: "card block"}, h("div", {}, h("span", {class: "id"}, block.id), " ", h("b", {}, block.label || "")),
        h("div", {class: "text meta"}, block.excerpt || ""));
      card.append(h("div", {class: "actions"}, h("button", {onclick: async () => {
        const old = card.querySelector("pre");
        if (old) { old.remove(); return; }
        const full = await api(`api/archive/${encodeURIComponent(block.id)}`);
        card.append(h("pre", {class: "block"}, full.content ?? full.text));
      }}, "Read")));
      return card;
    }) : [empty("Nothing archived.")]));
}

async function skillsPage() {
  const rows = await api("api/skills");
  if (!render(rows)) return;
  main().replaceChildren(h("h2", {}, "Skills"), ...(rows.length ? rows.map((row) => h("article", {class: "card skill"},
    h("div", {}, h("b", {}, row.name), " ", badge(row.wins ? "injected" : "gate", row.kind), row.wins ? null : h("span", {class: "meta"}, " shadowed by an authored skill")),
    h("div", {}, row.description || ""), h("div", {class: "meta id"}, row.path),
    h("details", {}, h("summary", {}, "SKILL.md"), h("pre", {class: "block"}, row.text)))) : [empty("No skills.")]));
}

const MARKS = {pending: "[ ]", in_progress: "[~]", done: "[x]", skipped: "[-]"};

function items(list, parent) {
  const children = list.filter((item) => (item.parentId || null) === parent).sort((a, b) => a.ordinal - b.ordinal);
  if (!children.length) return null;
  return h("ul", {}, ...children.map((item) => h("li", {}, `${MARKS[item.status] || item.status} ${item.title}`, items(list, item.id))));
}

async function recordsPage() {
  const data = await api("api/records");
  if (!render(data)) return;
  const groups = {checklist: "Checklists", todo: "Todos", session_note: "Session notes"};
  const sections = Object.entries(groups).map(([kind, title]) => {
    const records = data.hits.map((hit) => hit.record).filter((record) => record.kind === kind);
    return h("section", {}, h("h3", {}, `${title} (${records.length})`),
      ...(records.length ? records.map((record) => h("article", {class: `card record ${kind}`},
        h("div", {}, h("span", {class: "id"}, record.id), " ", h("b", {}, record.title || ""), " ", badge(record.status === "done" ? "injected" : "gate", record.status)),
        record.content ? h("div", {class: "text"}, record.content) : null,
        record.description ? h("div", {class: "text"}, record.description) : null,
        h("div", {class: "meta"}, `updated ${day(record.updatedAt)}`, record.due ? ` · due ${record.due}` : "",
          record.priority ? ` · priority ${record.priority}` : "", record.tags?.length ? ` · ${record.tags.join(", ")}` : "",
          record.archivedAt ? " · archived" : ""),
        items(record.items || [], null))) : [empty("None.")]));
  });
  const hidden = data.hiddenByScope ? h("p", {class: "meta"}, `${data.hiddenByScope} records in a scope not shown (the view is unscoped: it shows unscoped and global records)`) : null;
  main().replaceChildren(h("h2", {}, "Structured memory"), ...[hidden].filter(Boolean), ...sections);
}

// ---- Overview -----------------------------------------------------------------------------------

function bytes(n) {
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1048576).toFixed(1)} MiB`;
}

function chart(ledger) {
  const sessions = ledger.sessions;
  const ns = "http://www.w3.org/2000/svg";
  const svg = (tag, attrs, ...kids) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    el.append(...kids);
    return el;
  };
  const width = 640, height = 180, left = 40, right = 40, bottom = 24, top = 10;
  const most = Math.max(1, ...sessions.map((s) => s.tokens));
  const step = (width - left - right) / Math.max(1, sessions.length);
  const y = (value) => top + (height - top - bottom) * (1 - value / most);
  const share = (s) => top + (height - top - bottom) * (1 - (s.prompts ? s.served / s.prompts : 0));
  const root = svg("svg", {width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "tokens injected per session"});
  root.append(svg("line", {class: "axis", x1: left, y1: height - bottom, x2: width - 5, y2: height - bottom}),
    svg("text", {x: 2, y: top + 8}, String(most)), svg("text", {x: 2, y: height - bottom}, "0"),
    svg("text", {x: width - 34, y: top + 8}, "100 %"), svg("text", {x: width - 22, y: height - bottom - 2}, "0 %"));
  sessions.forEach((s, i) => {
    const x = left + i * step + step * 0.15;
    const bar = svg("rect", {class: "tokens", x, y: y(s.tokens), width: Math.max(1, step * 0.7), height: height - bottom - y(s.tokens)});
    bar.append(svg("title", {}, `${s.id}: ${s.tokens} tokens, ${s.served}/${s.prompts} prompts got something`));
    root.append(bar);
    if (sessions.length <= 12) root.append(svg("text", {x, y: height - 8}, s.id.slice(0, 14)));
  });
  if (sessions.length > 1) {
    const points = sessions.map((s, i) => `${left + i * step + step / 2},${share(s)}`).join(" ");
    root.append(svg("polyline", {class: "share", points}));
  }
  return root;
}

async function overviewPage() {
  const data = await api("api/overview");
  if (!render(data)) return;
  const stat = (label, value) => h("div", {class: "stat"}, h("b", {}, value), label);
  const size = data.size.kind === "sqlite" ? `${bytes(data.size.bytes)} in ${data.size.files} SQLite file${data.size.files === 1 ? "" : "s"}`
    : `${bytes(data.size.bytes)} in ${data.size.rows} PostgreSQL rows`;
  const staleTotal = data.stores.reduce((n, s) => n + s.stale, 0);
  const ledger = data.ledger;
  main().replaceChildren(h("h2", {}, "Overview"),
    h("div", {class: "grid kinds"}, ...Object.entries(data.kinds).map(([kind, n]) => stat(kind, String(n)))),
    h("div", {class: "grid"}, stat("stale memories", String(staleTotal)),
      stat("quarantined", String(data.quarantined.memories + data.quarantined.blocks)), stat("store size", size),
      stat("prompts that got something", ledger.share === null ? "–" : `${Math.round(ledger.share * 100)} %`)),
    h("h3", {}, "By store (discipline)"),
    h("table", {class: "stores"}, h("tr", {}, ...["store", "memories", "stale", "embeddings", "keyword index"].map((t, i) => h("th", {class: i === 1 || i === 2 ? "num" : null}, t))),
      ...data.stores.map((s) => h("tr", {}, h("td", {}, s.namespace), h("td", {class: "num"}, s.memories),
        h("td", {class: "num"}, String(s.stale)),
        h("td", {}, s.embedder_current ? badge("fresh", "current") : badge("stale", "run reindex")),
        h("td", {}, s.terms_current ? badge("fresh", "current") : badge("stale", "run reindex --rebuild"))))),
    h("h3", {}, "Tokens injected per session, and the share of prompts that got something (line)"),
    ledger.sessions.length ? h("div", {class: "chart"}, chart(ledger),
      h("p", {class: "meta"}, `${ledger.served} of ${ledger.prompts} prompts got something over ${ledger.sessions.length} sessions`))
      : empty("No hook run recorded yet."));
}

// ---- routing and polling ------------------------------------------------------------------------

const PAGES = {memories: memoriesPage, prompts: promptsPage, sessions: sessionsPage, archive: archivePage,
  skills: skillsPage, records: recordsPage, overview: overviewPage};
let current = null;

function render(data) {
  const text = JSON.stringify(data);
  if (text === shown) return false;
  shown = text;
  return true;
}

async function refresh(first) {
  if (!current) return;
  reading = true;
  try {
    stamp = await api("api/stamp");
    lastRead = Date.now();
    await PAGES[current](first);
    if (!busy && document.getElementById("status").className === "error") status("");
  } catch (error) {
    status(error.message, true);
  } finally {
    reading = false;
  }
}

function route() {
  const page = (location.hash || "#memories").slice(1);
  current = PAGES[page] ? page : "memories";
  shown = "";
  busy = false;
  for (const link of document.querySelectorAll("nav a")) link.classList.toggle("active", link.dataset.page === current);
  main().replaceChildren();
  refresh(true);
}

async function poll() {
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#results form");
  try {
    if (!busy && !reading && !focused && document.visibilityState === "visible" &&
        (Date.now() - lastRead > FULL_MS || await api("api/stamp") !== stamp)) await refresh(false);
  } catch (error) {
    status(error.message, true);
  }
  setTimeout(poll, POLL_MS);
}

window.addEventListener("hashchange", route);
route();
setTimeout(poll, POLL_MS);
