// The simctl lab page: a plain ES module, no framework, no build step. It
// talks only to this server's /api/ (docs/serve.md). Text from the server is
// always put into the page as text (textContent), never as markup.

const $ = (sel) => document.querySelector(sel);
const editor = $("#editor");
const gutter = $("#gutter");

// state the end-to-end test reads: the first side's interval width after
// each interim result, and the last finished job's counts.
const lab = { kind: "run", file: "scenario.yaml", originalFile: "scenario.yaml", job: null, source: null, widths: [], interimWidths: [], counts: null, checks: 0 };
window.simctlLab = lab;

// ---- small helpers --------------------------------------------------------

async function api(path, opts = {}) {
  const init = { method: opts.method || "GET", headers: {} };
  if (opts.body !== undefined) {
    init.method = opts.method || "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(opts.body);
  }
  const res = await fetch(path, init);
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.data = data;
    throw err;
  }
  return data;
}

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "text") e.textContent = v;
    else if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
}

function table(caption, head, rows, id) {
  const t = el("table", { class: "table", id });
  if (caption) t.append(el("caption", { text: caption }));
  const tr = el("tr");
  for (const h of head) tr.append(el("th", { scope: "col", text: h }));
  t.append(el("thead", {}, tr));
  const tb = el("tbody");
  for (const r of rows) {
    const row = el("tr");
    r.forEach((c) => row.append(el("td", { text: c })));
    tb.append(row);
  }
  t.append(tb);
  return el("div", { class: "scroll" }, t);
}

const pct = (f) => (100 * f).toFixed(2) + "%";
const ci = (c) => `[${pct(c[0])}, ${pct(c[1])}]`;
const ci2 = (c) => `[${num(c[0])}, ${num(c[1])}]`;
const num = (f, d = 2) => (typeof f === "number" ? f.toFixed(d) : String(f));
const thousands = (n) => Number(n).toLocaleString("en-US");
// poss is a name's possessive: "heroes' win rate", "Orc's options".
const poss = (name) => (/s$/i.test(name) ? `${name}'` : `${name}'s`);

// parseCount reads 100000, 100k, 1e6, 2.5M, 1_000_000 as simctl -n does.
function parseCount(s) {
  s = String(s).trim().replace(/_/g, "");
  const m = /^(\d+(?:\.\d+)?(?:e\d+)?)([kKmMgG]?)$/.exec(s);
  if (!m) return NaN;
  const mult = { "": 1, k: 1e3, K: 1e3, m: 1e6, M: 1e6, g: 1e9, G: 1e9 }[m[2]];
  const v = Number(m[1]) * mult;
  return Number.isInteger(v) ? v : NaN;
}

function lines(s) {
  return s.split("\n").map((l) => l.trim()).filter((l) => l !== "");
}

// "name: a=1; b=2" -> {name, sets}
function namedSets(text) {
  return lines(text).map((l) => {
    const i = l.indexOf(":");
    const name = (i < 0 ? l : l.slice(0, i)).trim();
    const rest = i < 0 ? "" : l.slice(i + 1);
    return { name, sets: rest.split(";").map((x) => x.trim()).filter((x) => x !== "") };
  });
}
const unNamed = (ns) => (ns || []).map((o) => `${o.name}:${o.sets && o.sets.length ? " " + o.sets.join("; ") : ""}`).join("\n");

function setBanner(text) {
  const b = $("#banner");
  b.hidden = !text;
  b.textContent = text || "";
}

// ---- the editor -----------------------------------------------------------

let marks = new Map(); // line -> {cls, title}

function drawGutter() {
  const n = editor.value.split("\n").length;
  const frag = document.createDocumentFragment();
  for (let i = 1; i <= n; i++) {
    const m = marks.get(i);
    const s = el("span", { "data-line": i, class: m ? m.cls : null, title: m ? m.title : null, text: String(i) });
    frag.append(s);
  }
  gutter.replaceChildren(frag);
  gutter.scrollTop = editor.scrollTop;
}

editor.addEventListener("scroll", () => { gutter.scrollTop = editor.scrollTop; });
editor.addEventListener("keydown", (e) => {
  if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey) {
    // Two spaces, as YAML wants; Escape then Tab leaves the editor.
    if (lab.escaped) { lab.escaped = false; return; }
    e.preventDefault();
    editor.setRangeText("  ", editor.selectionStart, editor.selectionEnd, "end");
    editor.dispatchEvent(new Event("input"));
  } else if (e.key === "Escape") {
    lab.escaped = true;
    $("#completions").hidden = true;
  } else if (e.key === " " && e.ctrlKey) {
    e.preventDefault();
    complete();
  }
});

// ---- completion from the JSON Schema --------------------------------------

let schema = null;

// context finds what the caret's line is a field of: the nearest line above
// with less indentation that is a bare "key:" names the container.
function fieldContext(text, caret) {
  const before = text.slice(0, caret).split("\n");
  const cur = before[before.length - 1];
  let indent = cur.match(/^(\s*(?:-\s+)?)/)[1].length;
  for (let i = before.length - 2; i >= 0; i--) {
    const l = before[i];
    if (/^\s*(#|$)/.test(l)) continue;
    const ind = l.match(/^(\s*(?:-\s+)?)/)[1].length;
    if (ind >= indent) continue;
    const m = /^\s*(?:-\s+)?([A-Za-z_][A-Za-z0-9_]*):\s*(#.*)?$/.exec(l);
    if (m) return m[1];
    indent = ind;
  }
  return "";
}

// presentKeys lists the keys already written in the caret's block: the
// lines at the caret's indentation between the lines that open and close
// it (completion does not offer them again).
function presentKeys(text, caret) {
  const all = text.split("\n");
  const at = text.slice(0, caret).split("\n").length - 1;
  const ind = (l) => l.match(/^(\s*(?:-\s+)?)/)[1].length;
  const indent = ind(all[at]);
  const keys = new Set();
  const take = (l) => { const m = /^\s*(?:-\s+)?([A-Za-z_][A-Za-z0-9_]*):/.exec(l); if (m && ind(l) === indent) keys.add(m[1]); };
  for (let i = at; i >= 0; i--) {
    const l = all[i];
    if (/^\s*(#|$)/.test(l)) continue;
    if (ind(l) < indent) break;
    take(l);
    if (/^\s*-\s/.test(l) && ind(l) === indent) break; // the list item starts here
  }
  for (let i = at + 1; i < all.length; i++) {
    const l = all[i];
    if (/^\s*(#|$)/.test(l)) continue;
    if (ind(l) < indent || (/^\s*-\s/.test(l) && ind(l) <= indent)) break;
    take(l);
  }
  return keys;
}

// tacticsWords reads simctl policies RULESET's listing (the reference
// panel's text): the facts a when: may test, the decisions a do: may
// name (their TRIGGER words included), and the targets.
function tacticsWords(text) {
  const out = { when: [], do: [], target: [] };
  let sec = null;
  for (const l of (text || "").split("\n")) {
    if (/^facts .*\(when:\):/.test(l)) { sec = "when"; continue; }
    if (/^decisions \(do:\):/.test(l)) { sec = "do"; continue; }
    const t = /^targets \(target:\):\s*(.*)$/.exec(l);
    if (t) { out.target = t[1].split(/,\s*(?:or\s+)?/).map((x) => x.trim()).filter((x) => /^[a-z_]+$/.test(x)); sec = null; continue; }
    if (/^\S/.test(l)) { sec = null; continue; }
    if (!sec) continue;
    const m = sec === "when" ? /^\s{2}(\S+)\s{2,}(\S+)\s+(.*)$/.exec(l) : /^\s{2}(\S.*)$/.exec(l);
    if (m) out[sec].push(sec === "when" ? { word: m[1], doc: m[2] + ": " + m[3] } : { word: m[1].trim(), doc: "" });
  }
  return out;
}

function offer(title, words, insert) {
  const box = $("#completions");
  const list = $("#completions-list");
  list.replaceChildren();
  $("#completions-title").textContent = title;
  for (const w of words) {
    const b = el("button", { type: "button", title: w.doc || "", "data-field": w.word, text: w.word });
    b.addEventListener("click", () => {
      const pos = editor.selectionStart;
      editor.focus();
      editor.setSelectionRange(pos, pos);
      editor.setRangeText(insert(w.word), pos, pos, "end");
      box.hidden = true;
      editor.dispatchEvent(new Event("input"));
    });
    list.append(b);
  }
  box.hidden = false;
}

function complete() {
  if (!schema) return;
  const ruleset = (/^\s*ruleset:\s*([A-Za-z0-9_]+)/m.exec(editor.value) || [])[1] || "d20";
  const caretLine = editor.value.slice(0, editor.selectionStart).split("\n").pop();
  const tw = /^\s*(?:-\s+)?(when|do|target):/.exec(caretLine);
  if (tw) {
    // A tactics rule's value: the ruleset's declared facts, decisions
    // and targets (simctl policies RULESET).
    const words = tacticsWords((docCache[ruleset] || {}).text)[tw[1]];
    if (words && words.length) {
      const pre = /:\s*$/.test(caretLine) ? " " : "";
      offer(`${{ when: "Facts a when: may test", do: "Decisions", target: "Targets" }[tw[1]]} (${ruleset}): click to insert`, words, (w) => pre + w);
      return;
    }
  }
  const key = fieldContext(editor.value, editor.selectionStart);
  const defs = schema.definitions || schema.$defs || {};
  const where = { sides: "side", combatants: "combatant", options: "options" }[key];
  const props = where ? (defs[`${where}.${ruleset}`] || {}).properties : key === "" ? schema.properties : null;
  const box = $("#completions");
  const list = $("#completions-list");
  list.replaceChildren();
  if (!props) {
    $("#completions-title").textContent = `No field list for the contents of ${key}: (see the reference panel).`;
    box.hidden = false;
    return;
  }
  $("#completions-title").textContent = `Fields of ${where ? where + " (" + ruleset + ")" : "the scenario"}: click to insert`;
  const have = presentKeys(editor.value, editor.selectionStart);
  for (const [name, p] of Object.entries(props)) {
    if (have.has(name)) continue;
    const b = el("button", { type: "button", title: (p && p.description) || "", "data-field": name, text: name });
    b.addEventListener("click", () => {
      const pos = editor.selectionStart;
      editor.focus();
      editor.setSelectionRange(pos, pos);
      editor.setRangeText(name + ": ", pos, pos, "end");
      box.hidden = true;
      editor.dispatchEvent(new Event("input"));
    });
    list.append(b);
  }
  box.hidden = false;
}

function goToLine(line, col) {
  const ls = editor.value.split("\n");
  let pos = 0;
  for (let i = 0; i < line - 1 && i < ls.length; i++) pos += ls[i].length + 1;
  pos += Math.max(0, (col || 1) - 1);
  editor.focus();
  editor.setSelectionRange(pos, pos);
  editor.scrollTop = Math.max(0, (line - 5) * 18);
}

let checkTimer = null;
let checkSeq = 0;
editor.addEventListener("input", () => {
  drawGutter();
  if (lab.originalFile.startsWith("builtin:")) {
    // An edited built-in is no longer the built-in: results must not
    // name it (its command line would replay the unedited one).
    const edited = editor.value !== lab.original;
    lab.file = edited ? lab.originalFile.replace(/^builtin:.*\//, "") : lab.originalFile;
    $("#file-name").textContent = lab.file + (edited ? " (edited)" : "");
  }
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 300);
});

async function check() {
  const seq = ++checkSeq;
  const status = $("#check-status");
  let res;
  try {
    res = await api("/api/check", { body: { file: lab.file, text: editor.value, sets: lines($("#sets").value) } });
  } catch (e) {
    if (seq !== checkSeq) return;
    status.className = "check bad";
    status.textContent = e.message;
    return;
  }
  if (seq !== checkSeq) return; // a newer check is on its way
  lab.checks++;
  marks = new Map();
  const list = $("#problems");
  list.replaceChildren();
  const add = (p, cls) => {
    const where = p.line ? `line ${p.line}${p.col ? ", col " + p.col : ""}` : "overrides";
    const text = `${where}: ${p.field ? p.field + ": " : ""}${p.message}`;
    if (p.line) {
      const old = marks.get(p.line);
      marks.set(p.line, { cls: old && old.cls === "err" ? "err" : cls, title: (old ? old.title + "\n" : "") + text });
    }
    const li = el("li", { class: cls === "warn" ? "warn" : null, "data-line": p.line || 0, tabindex: 0, text: (cls === "warn" ? "warning: " : "") + text });
    li.addEventListener("click", () => p.line && goToLine(p.line, p.col));
    li.addEventListener("keydown", (e) => { if (e.key === "Enter" && p.line) goToLine(p.line, p.col); });
    list.append(li);
  };
  res.errors.forEach((p) => add(p, "err"));
  (res.warnings || []).forEach((p) => add(p, "warn"));
  if (res.ok) {
    const s = res.summary;
    status.className = "check ok";
    status.textContent = `✓ valid: ${s.name} (${s.ruleset}), ${s.combatants} combatants, ${s.sides.join(" vs ")}`;
    showDocs(s.ruleset);
  } else {
    status.className = "check bad";
    status.textContent = `✗ ${res.errors.length} problem(s); nothing runs until they are fixed`;
    const m = /^\s*ruleset:\s*([A-Za-z0-9_]+)/m.exec(editor.value);
    if (m) showDocs(m[1]);
  }
  drawGutter();
}

// ---- scenarios, templates, docs ------------------------------------------

async function loadList() {
  const sel = $("#scenario-pick");
  const data = await api("/api/scenarios");
  sel.replaceChildren();
  const groups = { builtin: el("optgroup", { label: "Built-in scenarios" }), dir: el("optgroup", { label: "Scenario folder (--dir)" }),
    tpl: el("optgroup", { label: "simctl init templates" }) };
  for (const s of data.scenarios) {
    const label = s.problem ? `${s.file} (invalid)` : `${s.id.replace(/^(builtin|dir):/, "")} — ${s.name}`;
    groups[s.id.startsWith("dir:") ? "dir" : "builtin"].append(el("option", { value: s.id, text: label }));
  }
  for (const r of data.templates) groups.tpl.append(el("option", { value: "template:" + r, text: `init ${r}: a starter ${r} scenario` }));
  for (const g of Object.values(groups)) if (g.children.length) sel.append(g);
  $("#save").hidden = !data.save;
}

// dirty: the editor holds edits that Load, Open or leaving would lose.
const dirty = () => editor.value !== lab.original;
const discardOK = () => !dirty() || confirm(`Discard your edits to ${lab.file}? (Download or Save keeps them.)`);
window.addEventListener("beforeunload", (e) => { if (dirty()) { e.preventDefault(); e.returnValue = ""; } });

// prefill asks the server for Compare, Matrix, Sweep and Value settings
// made from this scenario's own sides, combatants and tactics parameters.
async function prefill() {
  try {
    const sg = await api("/api/suggest", { body: { file: lab.file, text: editor.value } });
    $("#options").value = unNamed(sg.options);
    $("#rows").value = unNamed(sg.rows);
    $("#cols").value = unNamed(sg.cols);
    $("#side").value = "";
    $("#value-side").value = "";
    $("#vary1").value = sg.vary || "";
    $("#vary2").value = "";
    $("#sets").placeholder = (sg.params[0] || "PATH") + "=VALUE";
    $("#t-options").value = unNamed(sg.tournament || sg.options);
    $("#t-side").value = "";
    $("#o-vary").value = (sg.search || []).join("\n");
    $("#o-where").value = "";
    $("#o-side").value = "";
    $("#where").value = `side("${sg.sides[0]}").won and rounds >= 5`;
    lab.suggested = sg;
  } catch (e) { /* an invalid scenario: the check shows why */ }
}

async function sha256(text) {
  try {
    const h = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return [...new Uint8Array(h)].map((b) => b.toString(16).padStart(2, "0")).join("");
  } catch { return ""; }
}

async function loadScenario(id) {
  let d;
  if (id.startsWith("template:")) d = await api("/api/template?ruleset=" + encodeURIComponent(id.slice(9)));
  else d = await api("/api/scenario?id=" + encodeURIComponent(id));
  setEditor(d.text, d.file);
  lab.source = id;
  lab.base = id.startsWith("dir:") ? await sha256(d.text) : "";
  lab.saveName = id.startsWith("dir:") ? d.file : "";
  await prefill();
}

function setEditor(text, file) {
  editor.value = text;
  lab.original = text;
  lab.file = lab.originalFile = file || "scenario.yaml";
  $("#file-name").textContent = lab.file;
  editor.scrollTop = 0;
  drawGutter();
  check();
}

const docCache = {};
let docsShown = "";
async function showDocs(ruleset) {
  if (!ruleset || ruleset === docsShown) return;
  docsShown = ruleset;
  $("#docs-ruleset").textContent = ruleset;
  try {
    lab.rulesets = lab.rulesets || (await api("/api/rulesets")).rulesets;
    docCache[ruleset] = docCache[ruleset] || await api("/api/policies?ruleset=" + encodeURIComponent(ruleset));
    const d = lab.rulesets.find((r) => r.Name === ruleset);
    if (!d) throw new Error(`unknown ruleset ${ruleset}`);
    $("#doc-rules").replaceChildren(rulesDoc(d));
    $("#doc-policies").textContent = docCache[ruleset].text;
  } catch (e) {
    $("#doc-rules").textContent = e.message;
    docsShown = "";
  }
}

// rulesDoc is simctl rules NAME as HTML: the ruleset's own documentation.
function rulesDoc(d) {
  const f = document.createDocumentFragment();
  f.append(el("p", {}, el("strong", { text: `${d.Name}: ${d.Title}` })), el("p", { class: "muted", text: "Source: " + d.Source }), el("p", { text: d.Summary }));
  if (d.Options && d.Options.length) {
    f.append(el("h3", { text: "options: (the default first)" }));
    const dl = el("dl");
    for (const o of d.Options) dl.append(el("dt", { text: `${o.Name}: ${o.Default}` }), el("dd", {}, el("div", { class: "valid", text: "valid: " + o.Valid }), o.Doc));
    f.append(dl);
  }
  const section = (title, fs) => {
    if (!fs || !fs.length) return;
    f.append(el("h3", { text: title }));
    const dl = el("dl");
    for (const x of fs) dl.append(el("dt", { text: x.Name }), el("dd", { text: x.Doc }));
    f.append(dl);
  };
  section("combatant fields of this ruleset", d.Fields);
  section("policies", d.Policies);
  section("actions and rules", d.Actions);
  section("counters", d.Counters);
  return f;
}

async function loadSchema() {
  try {
    const s = await api("/api/schema");
    schema = s;
    const box = $("#doc-fields");
    box.replaceChildren();
    const walk = (title, props) => {
      if (!props) return;
      box.append(el("h3", { text: title }));
      const dl = el("dl");
      for (const [k, v] of Object.entries(props)) {
        dl.append(el("dt", {}, el("code", { text: k })), el("dd", { text: (v && v.description) || "" }));
      }
      box.append(dl);
    };
    walk("top level", s.properties);
    const defs = s.$defs || s.definitions || {};
    for (const [name, d] of Object.entries(defs)) if (d && d.properties) walk(name, d.properties);
  } catch (e) {
    $("#doc-fields").textContent = e.message;
  }
}

// ---- the experiment form --------------------------------------------------

function selectKind(kind) {
  if (kind !== lab.kind) {
    $("#permalink").value = "";
    if (/^(Opened a permalink|Permalink)/.test($("#banner").textContent)) setBanner("");
    if (/(^|&)p=/.test(location.hash.slice(1))) history.replaceState(null, "", location.pathname);
  }
  lab.kind = kind;
  document.querySelectorAll(".tabs button").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.kind === kind)));
  for (const k of ["sweep", "compare", "matrix", "value", "tournament", "optimize", "find"]) document.querySelector(".kind-" + k).hidden = k !== kind;
  $("#run").textContent = { run: "Run", sweep: "Sweep", compare: "Compare", matrix: "Play the matrix", value: "Value the parameters",
    tournament: "Hold the tournament", optimize: "Optimize", find: "Find" }[kind];
}
document.querySelectorAll(".tabs button").forEach((b) => b.addEventListener("click", () => selectKind(b.dataset.kind)));
document.querySelector(".tabs").addEventListener("keydown", (e) => {
  const kinds = ["run", "sweep", "compare", "matrix", "value", "tournament", "optimize", "find"];
  const i = kinds.indexOf(lab.kind);
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    const k = kinds[(i + (e.key === "ArrowRight" ? 1 : kinds.length - 1)) % kinds.length];
    selectKind(k);
    document.querySelector(`.tabs [data-kind="${k}"]`).focus();
  }
});

function buildRequest() {
  const req = { kind: lab.kind, file: lab.file, text: editor.value, n: parseCount($("#n").value), seed: Number($("#seed").value.trim() || "0") };
  const sets = lines($("#sets").value);
  if (sets.length) req.sets = sets;
  if (lab.kind === "sweep") req.vary = [$("#vary1").value.trim(), $("#vary2").value.trim()].filter((v) => v !== "");
  if (lab.kind === "compare") req.options = namedSets($("#options").value);
  if (lab.kind === "matrix") {
    req.rows = namedSets($("#rows").value);
    req.cols = namedSets($("#cols").value);
    if ($("#side").value.trim()) req.side = $("#side").value.trim();
  }
  if (lab.kind === "value") {
    req.params = $("#params").value.trim();
    if ($("#value-side").value.trim()) req.side = $("#value-side").value.trim();
  }
  if (lab.kind === "tournament") {
    req.options = namedSets($("#t-options").value);
    if ($("#t-side").value.trim()) req.side = $("#t-side").value.trim();
  }
  if (lab.kind === "optimize") {
    req.vary = lines($("#o-vary").value);
    if ($("#o-where").value.trim()) req.where = $("#o-where").value.trim();
    if ($("#o-side").value.trim()) req.side = $("#o-side").value.trim();
  }
  if (lab.kind === "find") req.where = $("#where").value.trim();
  return req;
}

function fillForm(req) {
  selectKind(req.kind || "run");
  $("#n").value = String(req.n);
  $("#seed").value = String(req.seed);
  $("#sets").value = (req.sets || []).join("\n");
  $("#vary1").value = req.kind === "sweep" ? (req.vary || [])[0] || "" : $("#vary1").value;
  $("#vary2").value = req.kind === "sweep" ? (req.vary || [])[1] || "" : $("#vary2").value;
  if (req.options) $("#options").value = unNamed(req.options);
  if (req.rows) $("#rows").value = unNamed(req.rows);
  if (req.cols) $("#cols").value = unNamed(req.cols);
  $("#side").value = req.kind === "matrix" ? req.side || "" : "";
  $("#value-side").value = req.kind === "value" ? req.side || "" : "";
  if (req.params) $("#params").value = req.params;
  if (req.kind === "tournament") { $("#t-options").value = unNamed(req.options); $("#t-side").value = req.side || ""; }
  if (req.kind === "optimize") { $("#o-vary").value = (req.vary || []).join("\n"); $("#o-where").value = req.where || ""; $("#o-side").value = req.side || ""; }
  if (req.kind === "find") $("#where").value = req.where || "";
  setEditor(req.text, req.file);
}

$("#sets").addEventListener("input", () => { clearTimeout(checkTimer); checkTimer = setTimeout(check, 400); });

// ---- jobs -----------------------------------------------------------------

let stream = null;

$("#lab-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const req = buildRequest();
  const status = $("#job-status");
  if (!Number.isFinite(req.n) || req.n < 1) {
    status.textContent = `Encounters "${$("#n").value}": a whole number such as 100000, 100k or 1e6.`;
    return;
  }
  if (!Number.isSafeInteger(req.seed) || req.seed < 0) {
    status.textContent = `Seed "${$("#seed").value}": a whole number from 0 to 2^53.`;
    return;
  }
  if (stream) stream.close();
  $("#results").replaceChildren();
  lab.widths = [];
  lab.interimWidths = [];
  lab.counts = null;
  lab.series = [];
  $("#live").hidden = true;
  $("#conv").hidden = true;
  let acc;
  try {
    acc = await api("/api/jobs", { body: req });
  } catch (err) {
    status.textContent = err.message;
    status.className = "error-box";
    if (err.data && err.data.errors && err.data.errors.length) check();
    return;
  }
  status.className = "muted";
  lab.job = { id: acc.id, req };
  $("#cancel").disabled = false;
  $("#run").disabled = true;
  status.textContent = acc.queue_position ? `Queued: position ${acc.queue_position}.` : "Starting…";
  listen(acc.id, req);
});

function listen(id, req) {
  const es = new EventSource(`/api/jobs/${id}/events`);
  stream = es;
  const status = $("#job-status");
  const bar = $("#job-bar");
  const t0 = performance.now();
  es.addEventListener("queued", (e) => { status.textContent = `Queued: position ${JSON.parse(e.data).position} (other jobs are running).`; });
  es.addEventListener("started", () => { status.textContent = "Running…"; });
  es.addEventListener("progress", (e) => {
    const p = JSON.parse(e.data);
    if (p.encounters !== undefined) {
      bar.hidden = false;
      bar.max = p.encounters_total;
      bar.value = p.encounters;
      status.textContent = `${thousands(p.encounters)} of ${thousands(p.encounters_total)} encounters, ${num(p.elapsed_seconds, 1)} s`;
      status.dataset.encounters = p.encounters;
      if (p.sides) liveTable(p);
    } else {
      bar.hidden = true;
      status.textContent = `Running ${thousands(p.encounters_total)} encounters in all… ${num(p.elapsed_seconds, 1)} s`;
    }
  });
  // A sweep's finished points, a comparison's, matrix's or value run's
  // estimates so far: the result tables, drawn as they narrow.
  es.addEventListener("interim", (e) => renderInterim({ id, kind: req.kind, figures: [] }, JSON.parse(e.data).result, req));
  const end = async (state, e) => {
    es.close();
    stream = null;
    $("#cancel").disabled = true;
    $("#run").disabled = false;
    const d = JSON.parse(e.data);
    if (state === "done") {
      status.textContent = `Done in ${num((performance.now() - t0) / 1000, 1)} s.`;
      const job = await api(`/api/jobs/${id}`);
      renderResult(job, req);
      addHistory(job, req);
    } else if (state === "cancelled") {
      status.textContent = "Cancelled" + (d.error ? `: ${d.error}` : ".");
      const note = $("#interim-note");
      if (note) note.textContent = "Cancelled: these were the last interim results; a cancelled job keeps none.";
    } else {
      status.textContent = "Failed: " + (d.error || "unknown error");
      status.className = "error-box";
    }
    status.dataset.state = state;
  };
  for (const s of ["done", "cancelled", "failed"]) es.addEventListener(s, (e) => end(s, e));
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED && stream === es) status.textContent = "Lost the connection to the server.";
  };
  status.dataset.state = "running";
}

$("#cancel").addEventListener("click", async () => {
  if (!lab.job) return;
  $("#cancel").disabled = true;
  try { await api(`/api/jobs/${lab.job.id}/cancel`, { method: "POST", body: {} }); } catch (e) { $("#job-status").textContent = e.message; }
});

function liveTable(p) {
  const t = $("#live");
  t.hidden = false;
  const tb = t.querySelector("tbody");
  tb.replaceChildren();
  for (const s of p.sides) {
    tb.append(el("tr", {}, el("td", { text: s.name }), el("td", { text: thousands(s.wins) }), el("td", { text: pct(s.win_rate) }),
      el("td", { text: ci(s.win_ci95) }), el("td", { class: "width", text: (100 * (s.win_ci95[1] - s.win_ci95[0])).toFixed(2) + " pp" })));
  }
  tb.append(el("tr", {}, el("td", { text: "draws" }), el("td", { text: thousands(p.draws) }), el("td", { text: pct(p.draws / Math.max(1, p.encounters)) }), el("td"), el("td")));
  const s0 = p.sides[0];
  lab.widths.push(s0.win_ci95[1] - s0.win_ci95[0]);
  lab.series.push({ n: p.encounters, est: s0.win_rate, lo: s0.win_ci95[0], hi: s0.win_ci95[1] });
  convPlot(lab.series, s0.name);
}

// convPlot draws the estimate and its interval against encounters played
// (log scale: batches grow geometrically).
function convPlot(series, side) {
  $("#conv").hidden = false;
  const W = 460, H = 170, L = 46, R = 10, T = 10, B = 28;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${poss(side)} win rate and 95% interval against encounters played`);
  const x0 = Math.log10(Math.max(1, series[0].n)), x1 = Math.log10(Math.max(series[series.length - 1].n, series[0].n * 10));
  let y0 = Math.min(...series.map((p) => p.lo)), y1 = Math.max(...series.map((p) => p.hi));
  const pad = Math.max(0.01, (y1 - y0) * 0.08);
  y0 = Math.max(0, y0 - pad); y1 = Math.min(1, y1 + pad);
  const X = (n) => L + ((Math.log10(Math.max(1, n)) - x0) / (x1 - x0 || 1)) * (W - L - R);
  const Y = (v) => T + (1 - (v - y0) / (y1 - y0 || 1)) * (H - T - B);
  const mk = (tag, attrs) => { const e = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); return e; };
  const up = series.map((p) => `${X(p.n).toFixed(1)},${Y(p.hi).toFixed(1)}`);
  const down = series.map((p) => `${X(p.n).toFixed(1)},${Y(p.lo).toFixed(1)}`).reverse();
  svg.append(mk("path", { class: "band", d: `M${up.join("L")}L${down.join("L")}Z` }));
  svg.append(mk("path", { class: "est", d: "M" + series.map((p) => `${X(p.n).toFixed(1)},${Y(p.est).toFixed(1)}`).join("L") }));
  svg.append(mk("line", { class: "axis", x1: L, y1: H - B, x2: W - R, y2: H - B }));
  svg.append(mk("line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }));
  for (const v of [y0, (y0 + y1) / 2, y1]) {
    const t = mk("text", { x: L - 4, y: Y(v) + 3, "text-anchor": "end" });
    t.textContent = (100 * v).toFixed(1) + "%";
    svg.append(t);
  }
  for (let e = Math.ceil(x0); e <= Math.floor(x1); e++) {
    const t = mk("text", { x: X(10 ** e), y: H - B + 14, "text-anchor": "middle" });
    t.textContent = thousands(10 ** e);
    svg.append(t);
    svg.append(mk("line", { class: "axis", x1: X(10 ** e), y1: H - B, x2: X(10 ** e), y2: H - B + 3 }));
  }
  const lab2 = mk("text", { x: (L + W - R) / 2, y: H - 2, "text-anchor": "middle" });
  lab2.textContent = "encounters played (log scale)";
  svg.append(lab2);
  $("#conv-plot").replaceChildren(svg);
}

// ---- results --------------------------------------------------------------

// figure is one of the job's SVG figures, inline in the page rather than
// an <img>: gonum/plot laid its text out in Liberation Sans, and only an
// inline SVG uses the page's @font-face (style.css, the font the lab
// serves), so labels are the width they were measured at even where
// Liberation is not installed. The figure's style attributes become CSSOM
// properties (the Content-Security-Policy refuses inline style markup).
function figure(id, name, caption) {
  const src = `/api/jobs/${id}/figures/${name}.svg`;
  const fig = el("figure", { "data-figure": name }, el("figcaption", { text: caption }));
  fetch(src).then((res) => (res.ok ? res.text() : Promise.reject(new Error(`HTTP ${res.status}`)))).then((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const svg = doc.documentElement;
    if (!svg || svg.localName !== "svg" || doc.querySelector("parsererror")) throw new Error("not an SVG");
    for (const e of [svg, ...svg.querySelectorAll("*")]) {
      if (["script", "foreignObject", "style"].includes(e.localName)) { e.remove(); continue; }
      for (const a of [...e.attributes]) if (a.name.startsWith("on") || /^\s*javascript:/i.test(a.value)) e.removeAttribute(a.name);
    }
    const styled = [...svg.querySelectorAll("[style]")].map((e) => [e, e.getAttribute("style")]);
    for (const [e] of styled) e.removeAttribute("style");
    const node = document.importNode(svg, true);
    const copies = [node, ...node.querySelectorAll("*")];
    const originals = [svg, ...svg.querySelectorAll("*")];
    const at = new Map(originals.map((e, i) => [e, copies[i]]));
    for (const [e, style] of styled) {
      const c = at.get(e);
      for (const decl of style.split(";")) {
        const k = decl.indexOf(":");
        if (k > 0) c.style.setProperty(decl.slice(0, k).trim(), decl.slice(k + 1).trim());
      }
    }
    node.removeAttribute("width");
    node.removeAttribute("height");
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", caption);
    node.dataset.ready = "1";
    fig.prepend(node);
  }).catch((err) => {
    fig.prepend(el("p", { class: "muted", text: `The figure could not be shown (${err.message}); ` }, el("a", { href: src, text: "open it" })));
  });
  return fig;
}

function downloads(job) {
  const box = el("div", { class: "downloads" });
  if (!["tournament", "optimize", "find"].includes(job.kind)) box.append(el("a", { class: "button", id: "dl-zip", href: `/api/jobs/${job.id}/report.zip`, download: "", text: "Download report (.zip)" }));
  if (!["tournament", "optimize", "find"].includes(job.kind)) box.append(el("a", { class: "button", href: `/api/jobs/${job.id}/report.tar.gz`, download: "", text: "(.tar.gz)" }));
  const blob = new Blob([JSON.stringify(job.result, null, 2)], { type: "application/json" });
  box.append(el("a", { class: "button", href: URL.createObjectURL(blob), download: `simctl-${job.kind}.json`, text: "Result JSON" }));
  return box;
}

function renderResult(job, req) {
  const out = $("#results");
  out.replaceChildren();
  const r = job.result;
  out.append(el("h3", { text: "Results" }));
  if (job.warnings) job.warnings.forEach((w) => out.append(el("p", { class: "muted", text: "warning: " + w })));
  out.append(el("p", { class: "muted", text: r.command || "" }));
  renderers[job.kind](out, job, r, req);
  out.append(downloads(job));
  // The kept result: this job's stored document, opened without a re-run
  // for as long as the server keeps it (simctl serve --job-ttl).
  out.querySelector(".downloads").append(el("a", { class: "button", id: "keep-link", href: `${location.pathname}#job=${job.id}`, target: "_blank", rel: "noopener",
    text: "Link to this result (kept, not re-run)" }));
}

// ---- history: the runs since the page opened, two side by side -------------

lab.history = [];
function addHistory(job, req) {
  if (lab.history.some((h) => h.id === job.id)) return;
  const r = job.result || {};
  const head = job.kind === "run" && r.sides ? r.sides.map((x) => `${x.name} ${pct(x.win_rate)}`).join(", ") :
    job.kind === "compare" && r.options ? r.options.map((o) => `${o.name} ${pct(o.result.sides[0].win_rate)}`).join(", ") : "";
  const h = { id: job.id, kind: job.kind, label: `${job.kind} · ${req ? req.file : r.file || ""} · ${thousands(r.encounters || (req && req.n) || 0)} encounters · seed ${r.seed ?? (req && req.seed)}`, head, at: new Date() };
  lab.history.unshift(h);
  const box = el("input", { type: "checkbox", "data-job": h.id, "aria-label": "compare " + h.label });
  box.addEventListener("change", sideBySide);
  const li = el("li", { "data-job": h.id }, el("label", {}, box, " ", el("strong", { text: h.at.toLocaleTimeString("en-GB") }), " ", h.label),
    h.head ? el("div", { class: "muted", text: h.head }) : null,
    el("a", { href: `${location.pathname}#job=${h.id}`, target: "_blank", rel: "noopener", text: "open" }));
  $("#history").prepend(li);
}

async function sideBySide() {
  const picked = [...document.querySelectorAll("#history input:checked")].map((b) => b.dataset.job);
  const box = $("#side-by-side");
  if (picked.length < 2) { box.hidden = true; box.replaceChildren(); return; }
  const cols = [];
  for (const id of picked.slice(0, 2)) {
    const col = el("div", { class: "sbs-col", "data-job": id });
    try {
      const job = await api(`/api/jobs/${id}`);
      const h = lab.history.find((x) => x.id === id);
      col.append(el("h4", { text: h ? h.label : id }), el("p", { class: "muted", text: (job.result && job.result.command) || "" }));
      const keep = lab.counts;
      renderers[job.kind](col, job, job.result);
      lab.counts = keep;
    } catch (e) { col.append(el("p", { class: "error-box", text: e.message })); }
    // Copies of the result tables: no ids (the main result keeps them),
    // no trace viewer.
    col.querySelectorAll(".trace-box").forEach((x) => x.remove());
    col.querySelectorAll("[id]").forEach((x) => x.removeAttribute("id"));
    cols.push(col);
  }
  box.replaceChildren(...cols);
  box.hidden = false;
}

// ---- the round-by-round timeline of a trace ---------------------------------

// traceTimeline reads a trace's text (simctl trace): the combatants and
// their sides from its header, the rounds, each turn in initiative order
// with its count, and each delay, ready and interrupt where it happened.
function traceTimeline(text) {
  const sideOf = {};
  const rounds = [];
  let cur = null, end = "";
  for (const line of text.split("\n")) {
    let m;
    if ((m = /^(\S.*?) \(([^)]+)\) hp /.exec(line)) && !rounds.length) sideOf[m[1]] = m[2];
    else if ((m = /^-- round (\d+)/.exec(line))) rounds.push(cur = { n: Number(m[1]), marks: [] });
    else if (!cur || end) continue;
    else if ((m = /^(\S.*?)'s turn \(count (-?\d+)(?:, hp (-?\d+))?/.exec(line))) cur.marks.push({ kind: "turn", who: m[1], text: `${m[1]} ${m[2]}`, title: line });
    else if (/^\s+\S+: \w+=/.test(line)) continue; // a side's counters at the end
    else if ((m = /^\s*(\S.*?) (delays|readies|interrupts|takes its (?:delayed|readied)) ?(.*)$/.exec(line))) {
      const kind = m[2].startsWith("delay") ? "delay" : m[2] === "readies" ? "ready" : m[2] === "interrupts" ? "interrupt" : m[2].includes("readied") ? "ready-fires" : "resume";
      cur.marks.push({ kind, who: m[1], text: `${m[1]} ${m[2]} ${m[3]}`.trim(), title: line.trim() });
    } else if ((m = /^(\S.*?) is (dead|out|unconscious|dying|down)/.exec(line))) cur.marks.push({ kind: "down", who: m[1], text: `${m[1]} ${m[2]}`, title: line });
    else if ((m = /^== (.*)$/.exec(line))) end = m[1];
  }
  const sides = [...new Set(Object.values(sideOf))];
  const box = el("div", { class: "timeline", id: "timeline", role: "list", "aria-label": "round-by-round timeline" });
  const icon = { turn: "", delay: "", ready: "", "ready-fires": "", interrupt: "", resume: "", down: "✖ " };
  for (const r of rounds) {
    const row = el("div", { class: "tl-round", role: "listitem", "data-round": r.n }, el("span", { class: "tl-label", text: `round ${r.n}` }));
    for (const mk of r.marks) {
      const base = mk.who.replace(/#\d+$/, "");
      const side = sideOf[mk.who] ?? sideOf[base];
      row.append(el("span", { class: `tl-mark tl-${mk.kind} tl-side${Math.max(0, sides.indexOf(side))}`, "data-kind": mk.kind, title: mk.title, text: icon[mk.kind] + mk.text }));
    }
    box.append(row);
  }
  if (end) box.append(el("p", { class: "muted", text: end }));
  const chip = (kind, text, side = 0) => el("span", { class: `tl-mark tl-${kind} tl-side${side}`, text });
  const key = el("p", { class: "muted tl-key" }, "Each round's turns in initiative order (name and count), and where they happened: ",
    chip("delay", "a delay"), " ", chip("resume", "the delayed action"), " ", chip("ready", "a ready"), " ", chip("interrupt", "an interrupt or readied action firing"), " ", chip("down", "✖ out"),
    ". Sides: ", ...sides.flatMap((x, i) => [chip("turn", x, i), " "]));
  return el("div", {}, key, box);
}

// renderInterim shows a partial document with the final renderers (no
// figures, no downloads: they come with the result). lab.interimWidths
// records the first interval the table shows, for the tests.
function renderInterim(job, r, req) {
  const out = $("#results");
  out.replaceChildren();
  const what = {
    sweep: () => `${r.points.filter((p) => !p.unfinished).length} of ${r.points.length} points finished`,
    compare: () => `${thousands(r.encounters)} encounters per option so far`,
    matrix: () => `${thousands(r.encounters)} encounters per pairing so far`,
    value: () => `${thousands(r.encounters)} encounters per game so far`,
    optimize: () => `${thousands((r.search && r.search.encounters) || 0)} encounters spent so far; the incumbent after each stage`,
  }[job.kind];
  out.append(el("h3", { text: "Interim results" }), el("p", { class: "muted", id: "interim-note", text: `${what ? what() : ""}: the intervals narrow as the job plays on.` }));
  renderers[job.kind](out, job, r, req);
  const first = { compare: () => r.options[0].result.sides[0].win_ci95, matrix: () => r.ci95[0][0], value: () => (r.effects[0] || {}).ci95,
    optimize: () => { const s = r.search && r.search.selection; const c = s && s.candidates && s.candidates[s.leader]; return c && (c.win_ci95 || c.ci95); } }[job.kind];
  const c = first && first();
  if (c) lab.interimWidths.push(c[1] - c[0]);
  out.dataset.interim = String(lab.interimWidths.length);
}

function renderRun(out, job, r) {
  lab.counts = { encounters: r.encounters, wins: r.sides.map((s) => s.wins), draws: r.draws };
  out.append(el("p", { id: "counts", "data-counts": JSON.stringify(lab.counts),
    text: `${thousands(r.encounters)} encounters, seed ${r.seed}: ` + r.sides.map((s) => `${s.name} ${thousands(s.wins)} wins`).join(", ") + `, ${thousands(r.draws)} draws` }));
  out.append(table("Win rates (95% Wilson interval)", ["side", "wins", "win rate", "95% interval", "survivors", "any death"],
    r.sides.map((s) => [s.name, thousands(s.wins), pct(s.win_rate), ci(s.win_ci95), num(s.survivors_mean), pct(s.any_death_rate)])));
  out.append(el("p", { text: `Draws ${thousands(r.draws)} (${pct(r.draw_rate)}); rounds: mean ${num(r.rounds.mean)}, median ${r.rounds.p50}, p90 ${r.rounds.p90}, max ${r.rounds.max}.` }));
  if (r.combatants && r.combatants.length) {
    out.append(table("Per combatant (means per encounter)", ["combatant", "side", "death", "out", "damage dealt", "taken", "kills", "turns", "acts first"],
      r.combatants.map((c) => [c.name, c.side, pct(c.death_rate), pct(c.out_rate), num(c.damage_dealt_mean), num(c.damage_taken_mean), num(c.kills_mean), num(c.turns_mean), pct(c.first_actor)])));
  }
  // Per encounter with its 95% interval, as simctl run prints it.
  const econ = r.action_economy_per_encounter || {};
  const eci = r.action_economy_per_encounter_ci95 || {};
  const sides = Object.keys(econ);
  if (sides.length) {
    const keys = [...new Set(sides.flatMap((s) => Object.keys(econ[s])))].filter((k) => sides.some((s) => econ[s][k]));
    const cell = (s, k) => {
      const v = econ[s][k];
      if (v === undefined) return "";
      const c = (eci[s] || {})[k];
      return c ? `${num(v)} [${num(c[0])}, ${num(c[1])}]` : num(v);
    };
    out.append(table("Action economy per encounter (mean, 95% interval)", ["counter", ...sides], keys.map((k) => [k, ...sides.map((s) => cell(s, k))]), "economy-table"));
  }
  const rules = (r.tally && r.tally.tactics_rules) || [];
  if (rules.length) {
    out.append(table("Tactics rules: how often each fired", ["combatant", "moment", "rule", "event", "count"],
      rules.map((x) => [x.combatant, x.moment, x.rule, x.event, thousands(x.count)])));
  }
  const caps = { rounds: "Rounds per encounter", economy: "Action economy per encounter", "first-actor": "Who acts first",
    combatants: "Per-combatant outcomes", damage: "Damage dealt per encounter", "hp-left": "Hit points left when winning" };
  for (const f of job.figures || []) out.append(figure(job.id, f, caps[f] || f));
  out.append(traceViewer(job, r));
}

// traceViewer traces an encounter of the run, or of the sweep point or
// comparison option picked in targets ([{label, q}], q the query naming it).
function traceViewer(job, r, targets) {
  const box = el("section", { class: "trace-box", "aria-labelledby": "trace-title" });
  box.append(el("h3", { id: "trace-title", text: "Trace an encounter" }));
  let pick = null;
  if (targets) {
    pick = el("select", { id: "trace-target", "aria-label": targets.kind });
    targets.list.forEach((x) => pick.append(el("option", { value: x.q, text: x.label })));
  }
  const pre = el("pre", { class: "trace", id: "trace", tabindex: 0 });
  const title = el("p", { class: "muted", id: "trace-title-text" });
  const tl = el("div", { class: "timeline-box" });
  const input = el("input", { type: "number", min: 0, value: 0, id: "trace-i", "aria-label": "encounter index" });
  const seed = el("input", { type: "text", inputmode: "numeric", value: String(r.seed), size: 8, id: "trace-seed", "aria-label": "seed" });
  const show = async (q) => {
    pre.textContent = "…";
    if (pick) q += "&" + pick.value;
    try {
      const t = await api(`/api/jobs/${job.id}/trace?${q}`);
      title.textContent = t.title;
      pre.textContent = t.text;
      tl.replaceChildren(traceTimeline(t.text));
    } catch (e) { pre.textContent = e.message; }
  };
  const ctl = el("div", { class: "trace-controls" },
    ...(pick ? [el("label", {}, targets.kind + " ", pick)] : []),
    el("label", {}, "encounter ", input),
    el("label", {}, "of seed ", seed),
    el("button", { type: "button", id: "trace-go", onclick: () => show("encounter=" + encodeURIComponent(input.value) + "&seed=" + encodeURIComponent(seed.value.trim())) }, "Trace"),
    el("button", { type: "button", id: "trace-shortest", onclick: () => show("pick=shortest") }, "shortest"),
    el("button", { type: "button", id: "trace-median", onclick: () => show("pick=median") }, "median"),
    el("button", { type: "button", id: "trace-longest", onclick: () => show("pick=longest") }, "longest"));
  box.append(ctl, title, tl, el("details", { open: "" }, el("summary", { text: "The trace as text" }), pre));
  return box;
}

function renderSweep(out, job, r) {
  const axes = r.axes.map((a) => a.path || a.name || "axis");
  const sides = r.sides;
  const rows = r.points.map((p) => [...p.values, ...(p.unfinished ? ["playing…", "", "", ""] : p.result.sides.flatMap((s) => [pct(s.win_rate), ci(s.win_ci95)])), thousands(p.result.encounters)]);
  out.append(table(`Sweep over ${axes.join(" × ")}`, [...axes, `${sides[0]} win`, "95% interval", `${sides[1]} win`, "95% interval", "encounters"], rows));
  if (r.axes.length === 1 && r.points.length > 1) {
    // A slider over the points: the value and its win rates at a glance.
    const read = el("output", { id: "sweep-read" });
    const slider = el("input", { type: "range", min: 0, max: r.points.length - 1, value: 0, step: 1, id: "sweep-slider", "aria-label": axes[0] });
    const upd = () => {
      const p = r.points[Number(slider.value)];
      read.textContent = `${axes[0]} = ${p.values[0]}: ` + (p.unfinished ? "playing…" : p.result.sides.map((s) => `${s.name} ${pct(s.win_rate)} ${ci(s.win_ci95)}`).join(", "));
    };
    slider.addEventListener("input", upd);
    upd();
    out.append(el("p", {}, el("label", {}, axes[0] + " ", slider), " ", read));
  }
  for (const f of job.figures || []) out.append(figure(job.id, f, "Win rate across the sweep (the reports' figure)"));
  if (job.result) out.append(traceViewer(job, r, { kind: "point", list: r.points.map((p, i) => ({ label: r.axes.map((a, k) => `${a.path}=${p.values[k]}`).join(", "), q: "point=" + i })) }));
}

function renderCompare(out, job, r) {
  const rows = r.options.map((o) => {
    const s = o.result.sides[0];
    const d = (o.diff || [])[0];
    // The key columns first (option, win rate, the difference and its
    // interval): on a 1280-pixel screen the table fits, overrides wrapped.
    return [o.name, pct(s.win_rate),
      d ? `${d.diff >= 0 ? "+" : ""}${(100 * d.diff).toFixed(2)} pp` : "baseline", d ? `[${(100 * d.ci95[0]).toFixed(2)}, ${(100 * d.ci95[1]).toFixed(2)}] pp` : "",
      ci(s.win_ci95), d ? num(d.p_value, 4) : "",
      (o.sets || []).join("; ") || "(unchanged)"];
  });
  const tw = table(`Options on the same ${thousands(r.encounters)} encounters (common random numbers); ${poss(r.sides[0])} win rate`,
    ["option", "win rate", "Δ vs baseline", "paired 95% interval", "win rate 95% interval", "p", "overrides"], rows, "compare-table");
  tw.firstChild.classList.add("compare"); // side by side too, where the copy has no id
  out.append(tw);
  for (const f of job.figures || []) out.append(figure(job.id, f, "Win rates of the options (the reports' figure)"));
  if (job.result) out.append(traceViewer(job, r, { kind: "option", list: r.options.map((o) => ({ label: o.name, q: "option=" + encodeURIComponent(o.name) })) }));
}

function renderMatrix(out, job, r) {
  const rows = r.rows.map((name, i) => [name, ...r.cols.map((_, c) => `${pct(r.win[i][c])} ${ci(r.ci95[i][c])}`)]);
  out.append(table(`${poss(r.row_side)} win rate (rows) against ${poss(r.col_side)} options (columns)`, [`${r.row_side} \\ ${r.col_side}`, ...r.cols], rows));
  const eq = r.equilibrium;
  if (eq) {
    const mix = (names, ws) => names.map((n, i) => [n, ws[i]]).filter((x) => x[1] > 1e-9).map((x) => `${x[0]} ${pct(x[1])}`).join(", ");
    out.append(el("p", { id: "equilibrium", text: `Equilibrium (zero-sum): ${r.row_side} plays ${mix(r.rows, eq.row_weights)}; ${r.col_side} plays ${mix(r.cols, eq.col_weights)}; value ${pct(eq.value)} (95% bounds ${ci(eq.value_ci95)})` +
      (eq.stable ? "." : "; which options belong in the mix is not settled at this many encounters.") }));
  }
  (r.dominated || []).forEach((d) => out.append(el("p", { text: `${poss(d.side)} option ${d.option} is dominated by ${d.by}.` })));
  (r.notes || []).forEach((n) => out.append(el("p", { class: "muted", text: n })));
  for (const f of job.figures || []) out.append(figure(job.id, f, "The win-rate matrix (the reports' figure)"));
}

function renderValue(out, job, r) {
  out.append(table(`What a step of each parameter is worth to the win rate of ${r.side} (${thousands(r.encounters)} encounters on common random numbers)`,
    ["parameter", "step", "win rate at −step, value, +step", "per unit", "95% interval"],
    (r.effects || []).map((e) => [e.param, num(e.step), e.win_rate.map((w) => pct(w)).join(" · "), `${(100 * e.per_unit).toFixed(2)} pp`, `[${(100 * e.ci95[0]).toFixed(2)}, ${(100 * e.ci95[1]).toFixed(2)}] pp`])));
  if ((r.rates || []).length) {
    out.append(table("Exchange rates: how many units of B one unit of A is worth", ["A", "B", "rate", "95% interval"],
      r.rates.map((x) => [x.a, x.b, x.bounded ? num(x.value) : "—", x.bounded ? ci2(x.ci95) : "not bounded at this many encounters"])));
  }
  (r.warnings || []).forEach((w) => out.append(el("p", { class: "muted", text: "warning: " + w })));
  for (const f of job.figures || []) out.append(figure(job.id, f, "The tornado: each parameter's swing (the reports' figure)"));
}

function renderTournament(out, job, r) {
  const cands = r.candidates || [];
  out.append(el("p", { id: "tournament-outcome", class: "verdict", text: `Outcome: ${r.outcome}` + (r.selected >= 0 && cands[r.selected] ? `; selected ${cands[r.selected].name}` : "") + (r.guarantee ? ` (${r.guarantee.statement})` : "") + "." }));
  out.append(table(`${poss(r.side)} win rate per candidate; the difference to the ${r.selected >= 0 ? "selected" : "leader"} holds for all pairs at once`,
    ["candidate", "status", "win rate", "95% interval", "Δ", "simultaneous interval", "encounters"],
    (r.ranking || cands.map((_, i) => i)).map((i) => { const c = cands[i]; return [c.name, c.status + (c.eliminated_by ? ` (by ${c.eliminated_by}, stage ${c.eliminated_after_stage})` : ""), pct(c.win_rate), ci(c.win_ci95),
      `${c.diff >= 0 ? "+" : ""}${(100 * c.diff).toFixed(2)} pp`, `[${(100 * c.diff_ci[0]).toFixed(2)}, ${(100 * c.diff_ci[1]).toFixed(2)}] pp`, thousands(c.encounters)]; }), "tournament-table"));
  out.append(el("p", { class: "muted", text: `${thousands(r.encounters)} encounters in all over ${(r.stages || []).length} stage(s).` }));
}

// shortName writes a candidate's overrides by their last path segment
// ("heroes.Knight.tactics.params.low=0" → "low=0") when that is unambiguous.
function shortName(name, all) {
  const last = (w) => w.replace(/^[^=]*\.([^.=]+)=/, "$1=");
  const keys = new Set(), full = new Set();
  for (const n of all) for (const w of n.split(" ")) { keys.add(last(w).split("=")[0]); full.add(w.split("=")[0]); }
  return keys.size === full.size ? name.split(" ").map(last).join(", ") : name;
}

// uniformDesign says what the fixed-sample design the search is measured
// against would cost for the same guarantee (sim/experiment/optimize.go:
// Uniform, UniformPer, UniformDiscordance), as simctl optimize prints it.
function uniformDesign(g, s) {
  const per = s.uniform_per_candidate || 0, k = per ? Math.round(g.uniform_encounters / per) : 0;
  let how = "";
  if (per) how = `, every one of the ${k} candidates playing the same ${thousands(per)} encounters and the highest win rate taken`;
  if (per && s.uniform_discordance) how += ` (Bonferroni over ${Math.max(k - 1, 1)} paired comparisons, at the largest discordance seen with the best, ${(100 * s.uniform_discordance).toFixed(1)}%)`;
  const ratio = g.encounters / g.uniform_encounters;
  return `Fixed-sample design for the same guarantee: uniform allocation${how}, needs ${thousands(g.uniform_encounters)} encounters; this search cost ${ratio > 1 ? "more" : "less"}, ${ratio.toPrecision(2)} times as much.`;
}

function renderOptimize(out, job, r) {
  const s = r.search || {};
  const ranked = s.ranked || [];
  const done = job.result && !r.interrupted;
  if (done && r.best && r.best.name) {
    out.append(el("p", { id: "optimize-best", class: "verdict", text: `Best found: ${shortName(r.best.name, ranked.map((c) => c.name).concat([r.best.name]))}: ${pct(r.best.win_rate)} ${ci(r.best.ci95)}` +
      (s.baseline_win_rate !== undefined ? `; as written ${pct(s.baseline_win_rate)}, ${r.best.gain_over_baseline >= 0 ? "+" : ""}${(100 * r.best.gain_over_baseline).toFixed(2)} pp [${(100 * r.best.gain_ci[0]).toFixed(2)}, ${(100 * r.best.gain_ci[1]).toFixed(2)}]` : "") }));
    if (r.guarantee) out.append(el("p", { class: "muted", text: `Guarantee: ${r.guarantee.statement}; ${thousands(r.guarantee.encounters)} encounters spent.` }));
    if (r.guarantee && r.guarantee.uniform_encounters > 0) out.append(el("p", { id: "optimize-uniform", class: "muted", text: uniformDesign(r.guarantee, s) }));
  }
  // The selection as it stands: the incumbent and each candidate's
  // interval, narrowing stage by stage.
  const sel = s.selection;
  if (sel && sel.candidates && !done) {
    const all = sel.candidates.map((c) => c.name || "");
    const order = sel.candidates.map((_, i) => i).sort((a, b) => sel.candidates[b].win_rate - sel.candidates[a].win_rate).slice(0, 15);
    out.append(table(`The selection so far: ${thousands(sel.encounters || 0)} encounters played (all candidates together); the best 15 by win rate`, ["candidate", "win rate", "95% interval", "status", "encounters"],
      order.map((i) => { const c = sel.candidates[i]; return [shortName(c.name || String(i), all) + (i === sel.leader ? " (incumbent)" : ""), pct(c.win_rate), c.win_ci95 ? ci(c.win_ci95) : "", c.status || "", thousands(c.encounters || 0)]; }), "optimize-live"));
  }
  if (ranked.length) {
    const all = ranked.map((c) => c.name);
    out.append(table(`Candidates ranked (confirmed on fresh encounters; the first 20 of ${ranked.length})`, ["candidate", "win rate", "95% interval", "Δ to best", "interval", "status"],
      // Only the finalists are confirmed: the others show the selection's
      // estimate and no interval of the confirmation.
      ranked.slice(0, 20).map((c) => c.confirmed ? [shortName(c.name, all), pct(c.confirm_win_rate), ci(c.confirm_ci), `${(100 * (c.diff_to_best || 0)).toFixed(2)} pp`,
        c.diff_ci ? `[${(100 * c.diff_ci[0]).toFixed(2)}, ${(100 * c.diff_ci[1]).toFixed(2)}] pp` : "", c.status] :
        [shortName(c.name, all), pct(c.win_rate) + " (selection)", "not confirmed", "", "", c.status]), "optimize-table"));
  }
  const inc = s.incumbent || [];
  if (inc.length) {
    out.append(table("The incumbent as encounters were spent", ["encounters", "stage", "candidate", "win rate"],
      inc.slice(-12).map((p) => [thousands(p.encounters), p.stage, shortName((ranked.find((c) => c.candidate === p.candidate) || {}).name || String(p.candidate), ranked.map((c) => c.name)), pct(p.win_rate)]), "optimize-incumbent"));
  }
}

function renderFind(out, job, r) {
  out.append(el("p", { id: "find-count", class: "verdict", text: `${thousands(r.matches)} of ${thousands(r.encounters)} encounters (${pct(r.matches / Math.max(1, r.encounters))}) match ${r.where}.` }));
  const list = el("p", { class: "find-list" }, (r.first || []).length ? `The first ${r.first.length} (click one to trace it): ` : "None matches.");
  (r.first || []).forEach((i) => list.append(el("button", { type: "button", class: "link", "data-encounter": i, onclick: () => {
    $("#trace-i").value = String(i);
    $("#trace-go").click();
  } }, String(i)), " "));
  out.append(list);
  if (job.result) out.append(traceViewer(job, r));
}

const renderers = { run: renderRun, sweep: renderSweep, compare: renderCompare, matrix: renderMatrix, value: renderValue, tournament: renderTournament, optimize: renderOptimize, find: renderFind };

// ---- permalinks -----------------------------------------------------------

$("#permalink-btn").addEventListener("click", async () => {
  const req = buildRequest();
  try {
    const p = await api("/api/permalink", { body: req });
    const url = location.origin + location.pathname + p.fragment;
    $("#permalink").value = url;
    history.replaceState(null, "", p.fragment);
    try { await navigator.clipboard.writeText(url); setBanner("Permalink copied."); } catch { setBanner("Permalink ready below; copy it from the field."); }
  } catch (e) {
    setBanner(e.message);
  }
});

// fromKept opens #job=ID: the stored result, rendered without a re-run.
async function fromKept() {
  const m = /(?:^#|&)job=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!m) return false;
  try {
    const job = await api(`/api/jobs/${m[1]}`);
    if (job.state !== "done") throw new Error(`the job is ${job.state}`);
    const r = job.result;
    selectKind(job.kind);
    if (r.scenario_text) setEditor(r.scenario_text, r.file);
    // The settings it was played with, so that the form says them too.
    if (r.encounters) $("#n").value = String(r.encounters);
    if (r.seed !== undefined) $("#seed").value = String(r.seed);
    const pickID = (r.file || "").replace(/\.yaml$/, "");
    if ($("#scenario-pick").querySelector(`option[value="${CSS.escape(pickID)}"]`)) $("#scenario-pick").value = pickID;
    renderResult(job);
    addHistory(job);
    $("#job-status").textContent = "A kept result: nothing was re-run.";
    $("#job-status").dataset.state = "kept";
    setBanner(`Kept result: ${job.kind}${r.file ? " of " + r.file : ""}, seed ${r.seed}, ${thousands(r.encounters)} encounters, as stored by this lab (not re-run).`);
    return true;
  } catch (e) {
    setBanner("This result is no longer kept (the lab keeps finished jobs for --job-ttl): " + e.message);
    return false;
  }
}

async function fromPermalink() {
  const m = /(?:^#|&)p=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!m) return false;
  try {
    const req = await api("/api/permalink?p=" + m[1]);
    fillForm(req);
    setBanner(`Opened a permalink: ${req.kind} of ${req.file}, seed ${req.seed}, ${thousands(req.n)} encounters. Press ${$("#run").textContent} to reproduce the same counts.`);
    return true;
  } catch (e) {
    setBanner("This permalink could not be read: " + e.message);
    return false;
  }
}

// ---- start ---------------------------------------------------------------

$("#load-scenario").addEventListener("click", () => {
  const id = $("#scenario-pick").value;
  if (id && discardOK()) loadScenario(id).catch((e) => setBanner(e.message));
});

// ---- open, download, save --------------------------------------------------

$("#open-file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  e.target.value = "";
  if (!f) return;
  if (f.size > 1 << 20) { setBanner(`${f.name}: ${thousands(f.size)} bytes, more than a scenario may have`); return; }
  if (!discardOK()) return;
  const name = /\.ya?ml$/i.test(f.name) ? f.name : f.name + ".yaml";
  setEditor(await f.text(), name.replace(/[^\p{L}\p{N}_. +()-]/gu, "_"));
  lab.source = "file:" + f.name;
  lab.base = "";
  lab.saveName = "";
  setBanner(`Opened ${f.name} from this computer.`);
  await prefill();
});

$("#download").addEventListener("click", () => {
  const a = el("a", { href: URL.createObjectURL(new Blob([editor.value], { type: "application/yaml" })), download: lab.file.replace(/^builtin:.*\//, "") });
  document.body.append(a);
  a.click();
  a.remove();
  lab.original = editor.value; // kept: leaving no longer loses it
});

$("#save").addEventListener("click", async () => {
  const suggested = lab.saveName || lab.file.replace(/^builtin:.*\//, "");
  const name = prompt("Save into the served folder as:", suggested);
  if (!name) return;
  const body = { name: name.trim(), text: editor.value, base: name.trim() === lab.saveName ? lab.base : "" };
  try {
    let r;
    try {
      r = await api("/api/save", { body });
    } catch (e) {
      if (e.status !== 409 || !confirm(e.message + "\n\nReplace it?")) throw e;
      r = await api("/api/save", { body: { ...body, overwrite: true } });
    }
    lab.base = r.base;
    lab.saveName = r.file;
    lab.original = editor.value;
    lab.file = lab.originalFile = r.file;
    $("#file-name").textContent = r.file;
    setBanner(`Saved ${r.file}${r.replaced ? " (replaced)" : ""}.`);
    await loadList();
    $("#scenario-pick").value = r.id;
  } catch (e) {
    setBanner("Not saved: " + e.message);
  }
});

(async () => {
  selectKind("run");
  try { await loadList(); } catch (e) { setBanner("Could not list the scenarios: " + e.message); }
  loadSchema();
  if (!(await fromKept()) && !(await fromPermalink())) {
    const first = $("#scenario-pick").querySelector('option[value="builtin:d20/duel"]') || $("#scenario-pick").querySelector("option");
    if (first) {
      $("#scenario-pick").value = first.value;
      await loadScenario(first.value).catch((e) => setBanner(e.message));
    }
  }
  document.body.dataset.ready = "1";
})();
