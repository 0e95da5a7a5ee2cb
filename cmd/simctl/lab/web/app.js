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

// ---- language ---------------------------------------------------------------

// The page has no words of its own: every text is a key of the catalog
// (reports/i18n/catalog/LANG/lab.txt), served by GET /api/i18n?lang=. The
// language comes from the permalink (#...&lang=ko), else the browser's
// (Korean or Russian), else English; the switch changes it live: every text
// said through say() is said again, and the results shown are drawn again.
const LANGS = ["en", "ko", "ru"];
let texts = {};
const catalogs = {};
// phrases: the server's short English phrases (a tactics rule's reason
// for falling through) in the page's language.
let phrases = {};
const phraseBooks = {};
// live holds the elements whose text is a message (say): a switch re-says them.
const live = new Set();

function langFromHash() {
  const m = /(?:^#|&)lang=([a-z]+)/.exec(location.hash);
  return m && LANGS.includes(m[1]) ? m[1] : "";
}
function browserLang() {
  const l = (navigator.language || "").slice(0, 2).toLowerCase();
  return LANGS.includes(l) ? l : "en";
}
lab.lang = langFromHash() || browserLang();

// fmt fills a catalog text's verbs as Go's fmt does for the few the
// catalogs use: %s %d %v %q, %[2]s, and %% for a percent sign.
function fmt(f, args) {
  let next = 0;
  return f.replace(/%(?:\[(\d+)\])?([sdvq%])/g, (m, idx, verb) => {
    if (verb === "%") return "%";
    const i = idx ? Number(idx) - 1 : next;
    next = i + 1;
    let a = args[i];
    if (typeof a === "function") a = a();
    return verb === "q" ? JSON.stringify(String(a)) : String(a);
  });
}

// particles picks the shape of each combined Korean particle (%s은(는),
// %s(으)로 ...) by the sound before it, as reports/i18n.Particles does for
// the server's texts: a Hangul syllable's final consonant, a number as
// Sino-Korean reads it, a percent sign (퍼센트); after a Latin name the
// combined form stays.
const PAIRS = [["이(가)", "이", "가"], ["가(이)", "이", "가"], ["은(는)", "은", "는"], ["는(은)", "은", "는"],
  ["을(를)", "을", "를"], ["를(을)", "을", "를"], ["과(와)", "과", "와"], ["와(과)", "과", "와"],
  ["아(야)", "아", "야"], ["야(아)", "아", "야"], ["(이)", "이", ""], ["(으)로", "으로", "로"]];
function lastSound(s) {
  while (s) {
    const c = s[s.length - 1], o = c.charCodeAt(0);
    if (o >= 0xac00 && o <= 0xd7a3) {
      const f = (o - 0xac00) % 28;
      return f === 0 ? "vowel" : f === 8 ? "rieul" : "consonant";
    }
    if (c >= "0" && c <= "9") {
      const num = s.match(/[0-9.,]*$/)[0].replace(/^[.,]+/, "");
      const d = num[num.length - 1];
      if (!num.includes(".") && d === "0") return "consonant";
      return "178".includes(d) ? "rieul" : "036".includes(d) ? "consonant" : "vowel";
    }
    if (c === "%" || s.endsWith("%p")) return "vowel";
    if (c === ")") {
      const i = s.lastIndexOf("(");
      s = i > 0 && s.slice(0, i).trim() ? s.slice(0, i).trimEnd() : s.slice(0, -1);
      continue;
    }
    if ("\"'`’”」』》〉]*".includes(c)) { s = s.slice(0, -1); continue; }
    return "";
  }
  return "";
}
function particles(s) {
  let out = "", i = 0;
  for (;;) {
    let at = -1, pair = null;
    for (const p of PAIRS) {
      const j = s.indexOf(p[0], i);
      if (j >= 0 && (at < 0 || j < at)) { at = j; pair = p; }
    }
    if (at < 0) break;
    const before = s.slice(0, at), snd = /\s$/.test(before) ? "" : lastSound(before);
    out += s.slice(i, at);
    if (pair[0] === "(으)로") out += snd === "consonant" ? "으로" : snd ? "로" : "(으)로";
    else if (pair[0] === "(이)" && snd === "vowel" && s.startsWith("어", at + 3)) { out += "여"; i = at + 4; continue; }
    else out += !snd ? pair[0] : snd === "vowel" ? pair[2] : pair[1];
    i = at + pair[0].length;
  }
  return out + s.slice(i);
}

// The page's language rules, for the end-to-end test to check against
// reports/i18n's (TestPageLanguageRules).
globalThis.simctlLanguageRules = { particles, agree: (s) => agree(s) };

// t is the message key in the page's language; an argument that is a
// function is called (a message inside a message, said again on a switch).
function t(key, ...args) {
  const f = texts[key];
  if (f === undefined) {
    console.error("simctl lab: no text for " + key);
    return key;
  }
  const s = fmt(f, args);
  return lab.lang === "ko" ? particles(s) : lab.lang === "ru" ? agree(s) : s;
}

// agree picks the form of a Russian noun written [[one|few|many]] after a
// count by the number before it (1 бой, 2 боя, 5 боёв; a fraction: боя), as
// reports/i18n.Agree does for the server's texts.
function agree(s) {
  return s.replace(/\[\[([^\]|0-9][^\]]*\|[^\]]*)\]\]/g, (m, body, at) => {
    const forms = body.split("|");
    const before = s.slice(0, at).replace(/[ \u00a0\u202f]+$/, "");
    const num = (before.match(/[0-9][0-9.,\u00a0\u202f]*$/) || [""])[0].replace(/[\u00a0\u202f]/g, "");
    if (!num) return forms[forms.length - 1];
    let k;
    if (/[.,]/.test(num) && !/^[1-9][0-9]{0,2}(,[0-9]{3})+$/.test(num)) k = 1;
    else {
      const n = Number(num.replace(/,/g, "")), d = n % 10, h = n % 100;
      k = d === 1 && h !== 11 ? 0 : d >= 2 && d <= 4 && (h < 12 || h > 14) ? 1 : 2;
    }
    return forms[Math.min(k, forms.length - 1)];
  });
}

// say puts the message key into e as its text, and keeps it to say again
// when the language changes; plain puts a text that is not a message (the
// server's, already in the language asked).
function say(e, key, ...args) {
  delete e.dataset.i18n; // its text is this message now, not the page's
  e.textContent = t(key, ...args);
  e._say = [key, args];
  live.add(e);
  return e;
}
function plain(e, text) {
  delete e.dataset.i18n;
  e.textContent = text;
  delete e._say;
  live.delete(e);
  return e;
}

// coded is a catalog text with `code` spans as nodes (the format's words).
function coded(text) {
  const f = document.createDocumentFragment();
  text.split("`").forEach((part, i) => f.append(i % 2 ? el("code", { text: part }) : part));
  return f;
}

// possessive: "heroes' win rate", "Orc's options" in English; other
// languages' catalogs place the owner themselves.
const poss = (name) => () => t(/s$/i.test(name) ? "lab.poss_s" : "lab.poss", name);

// translateStatic says every data-i18n text of the page: data-i18n the
// element's text (with `code` spans), data-i18n-title, -placeholder and
// -aria-label its attributes.
function translateStatic(root = document) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.replaceChildren(coded(t(e.dataset.i18n)));
  for (const a of ["title", "placeholder", "aria-label"]) {
    for (const e of root.querySelectorAll(`[data-i18n-${a}]`)) e.setAttribute(a, t(e.getAttribute(`data-i18n-${a}`)));
  }
}

async function loadTexts(l) {
  if (!catalogs[l]) {
    const res = await fetch("/api/i18n?lang=" + l);
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    const j = await res.json();
    catalogs[l] = j.texts;
    phraseBooks[l] = j.phrases || {};
  }
  texts = catalogs[l];
  phrases = phraseBooks[l];
}

// withLang is the URL fragment h with the page's language in it (English
// is the default, and a permalink in English says nothing).
function withLang(h) {
  let f = (h || "").replace(/^#/, "").split("&").filter((x) => x !== "" && !x.startsWith("lang=")).join("&");
  if (lab.lang !== browserLang() || lab.lang !== "en") f += (f ? "&" : "") + "lang=" + lab.lang;
  return f ? "#" + f : "";
}

// setLang switches the page to l at once: the static texts, every text
// said, the results shown (drawn again), the server's texts (asked again
// in l), <html lang> and the permalink.
async function setLang(l, redraw = true) {
  if (!LANGS.includes(l)) l = "en";
  await loadTexts(l);
  lab.lang = l;
  document.documentElement.lang = l;
  $("#lang").value = l;
  translateStatic();
  for (const e of [...live]) {
    if (!e.isConnected) { live.delete(e); continue; }
    e.textContent = t(e._say[0], ...e._say[1]);
  }
  const h = withLang(location.hash);
  if (h !== location.hash && (h || location.hash)) history.replaceState(null, "", location.pathname + location.search + h);
  if ($("#permalink").value) $("#permalink").value = $("#permalink").value.replace(/#.*$/, "") + withLang($("#permalink").value.replace(/^[^#]*/, ""));
  if (!redraw) return;
  selectKind(lab.kind);
  if (lab.redraw) lab.redraw();
  if (lab.lastProgress) liveTable(lab.lastProgress, false);
  for (const h of lab.history) {
    const b = document.querySelector(`#history input[data-job="${h.id}"]`);
    if (b) b.setAttribute("aria-label", t("lab.history.compare", h.label()));
  }
  if (!$("#side-by-side").hidden) sideBySide();
  relangJob();
  const pick = $("#scenario-pick").value;
  loadList().then(() => { if (pick) $("#scenario-pick").value = pick; }).catch(() => {});
  const ruleset = docsShown;
  docsShown = "";
  if (ruleset) showDocs(ruleset);
  loadSchema();
  check();
}

// ---- small helpers --------------------------------------------------------

async function api(path, opts = {}) {
  // Every request says the page's language: the server's messages come
  // back in it.
  if (!/[?&]lang=/.test(path)) path += (path.includes("?") ? "&" : "?") + "lang=" + lab.lang;
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

// keyed is the table label of a name the user types (a counter, a tactics
// moment): in Korean and Russian the catalog's word with the name beside
// it, as the CLI's tables show it (reports.keyed); in Korean glued to a
// Korean word, as i18n.Lang.Paren does.
function keyed(kind, name) {
  const w = texts[kind + "." + name];
  if (lab.lang === "en" || w === undefined) return name;
  return lab.lang === "ko" && /[\uAC00-\uD7A3」』]$/.test(w) ? `${w}(${name})` : `${w} (${name})`;
}
// ruleEvent is a tactics rule's event: fired, or fell through and why.
function ruleEvent(ev) {
  if (ev.startsWith("fell through: ")) return t("event.fell_through", phrases[ev.slice(14)] || ev.slice(14)); // i18n: code (the event key the server sends)
  return keyed("event", ev);
}
// stageName is an optimize stage in the page's language.
function stageName(s) {
  if (s.startsWith("screening")) return t("lab.stage.screening") + s.slice("screening".length);
  return s === "selection" ? t("lab.stage.selection") : s;
}

// cols is the column headings of the keys lab.col.NAME.
const cols = (...names) => names.map((n) => t("lab.col." + n));
// Numbers for reading, in tables and prose alike, as the page's language
// writes them (reports/i18n.Reading): Russian a decimal comma and
// thousands grouped by a narrow no-break space (a table groups four
// digits too, prose leaves them: 5000), "53,10 %" in prose; Korean and
// English as in English. CSV and JSON downloads keep the machine form.
const dec = (s) => (lab.lang === "ru" ? s.replace(/(\d)\.(\d)/g, "$1,$2") : s);
const pct = (f) => dec((100 * f).toFixed(2)) + "%";
const ci = (c) => `[${pct(c[0])}, ${pct(c[1])}]`;
const ci2 = (c) => `[${num(c[0])}, ${num(c[1])}]`;
const num = (f, d = 2) => (typeof f === "number" ? dec(f.toFixed(d)) : String(f));
// pval writes a p-value as simctl's tables do: four decimals, and
// "<0.0001" below that (not "0.0000", which claims p is zero).
const pval = (p) => (typeof p === "number" && p < 1e-4 ? dec("<0.0001") : num(p, 4));
const proseNum = (f, d = 2) => num(f, d);
const prosePct = (f) => (lab.lang === "ru" ? proseNum(100 * f) + "\u00a0%" : pct(f));
const proseCI = (c) => `[${prosePct(c[0])}, ${prosePct(c[1])}]`;
const group = (n, from) => {
  const s = String(Math.abs(Math.trunc(Number(n))));
  return (Number(n) < 0 ? "-" : "") + (s.length < from ? s : s.replace(/\B(?=(\d{3})+(?!\d))/g, "\u202f"));
};
// thousands writes a count in a table cell, count one in prose (said again
// when the language changes).
const thousands = (n) => (lab.lang === "ru" ? group(n, 4) : Number(n).toLocaleString("en-US"));
const count = (n) => () => (lab.lang === "ru" ? group(n, 5) : Number(n).toLocaleString("en-US"));

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

// setBanner shows the message key (said again on a switch), or "" to
// hide the banner; kind marks what it says (a permalink's banner goes when
// the experiment changes).
function setBanner(key, ...args) {
  const b = $("#banner");
  b.hidden = !key;
  b.dataset.kind = "";
  if (key) say(b, key, ...args);
  else plain(b, "");
  return b;
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
  plain($("#completions-title"), title);
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

// ruleBlock is the block the caret's line belongs to: "traits" (a
// combatant's or side's), "rules" (the house rules), "tactics", or "".
function ruleBlock(text, caret) {
  const before = text.slice(0, caret).split("\n");
  const ind = (l) => l.match(/^(\s*(?:-\s+)?)/)[1].length;
  let indent = ind(before[before.length - 1]);
  for (let i = before.length - 2; i >= 0; i--) {
    const l = before[i];
    if (/^\s*(#|$)/.test(l) || ind(l) >= indent) continue;
    indent = ind(l);
    const m = /^\s*(?:-\s+)?([A-Za-z_][A-Za-z0-9_]*):\s*(#.*)?$/.exec(l);
    if (m && ["traits", "rules", "tactics"].includes(m[1])) return m[1];
  }
  return "";
}

// itemMoment is the moment of the trait or house rule the caret is in:
// its on:, or "action" for an action written as data (action:), or "".
function itemMoment(text, caret) {
  const all = text.split("\n");
  const at = text.slice(0, caret).split("\n").length - 1;
  const lead = (l) => l.match(/^\s*/)[0].length;
  let start = at;
  while (start >= 0 && !(/^\s*-\s/.test(all[start]) && (start === at || lead(all[start]) < lead(all[at])))) start--;
  if (start < 0) return "";
  let moment = "";
  for (let i = start; i < all.length && (i === start || /^\s*(#|$)/.test(all[i]) || lead(all[i]) > lead(all[start])); i++) {
    const m = /^\s*(?:-\s+)?(on|action):\s*([A-Za-z_]+)/.exec(all[i]);
    if (m) moment = m[1] === "on" ? m[2] : "action";
  }
  return moment;
}

// traitWords is what a trait's or house rule's on:, do: and use: may say
// in the ruleset (simctl rules RULESET: its moments, quantities,
// conditions and library traits); do: offers the quantities its moment
// changes (the moment's documentation ends "changes: a, b", read in
// English, the language of the names).
function traitWords(ruleset, moment) {
  const d = (docCache["rulesets/" + lab.lang] || []).find((r) => r.Name === ruleset);
  const en = (docCache["rulesets/en"] || []).find((r) => r.Name === ruleset);
  if (!d || !en) return {};
  const at = (en.Moments || []).find((m) => m.Name === moment);
  const changes = ((at && /changes: ([a-z_, ]+)$/.exec(at.Doc)) || [, ""])[1].split(", ").filter((x) => x);
  const qs = (d.Quantities || []).filter((q) => !at || changes.includes(q.Name));
  return {
    // "action" is where an action written as data acts, not an on:.
    on: (d.Moments || []).filter((m) => m.Name !== "action").map((m) => ({ word: m.Name, doc: m.Doc })),
    do: [...qs.map((q) => ({ word: q.Name + " += ", doc: q.Doc })), ...(d.Conditions || []).flatMap((c) => [{ word: "apply " + c.Name, doc: c.Doc }, { word: "remove " + c.Name, doc: c.Doc }]),
      ...(qs.some((q) => q.Name === "actions") ? [{ word: "grant action", doc: "" }, { word: "spend action", doc: "" }] : [])], // i18n: code (the effects' words)
    use: (d.Traits || []).map((x) => ({ word: x.Name, doc: x.Doc })),
  };
}

// loadRulesets keeps /api/rulesets in the page's language and in English
// (the names completion reads out of the documentation).
async function loadRulesets() {
  for (const l of new Set([lab.lang, "en"])) {
    const rk = "rulesets/" + l;
    if (!docCache[rk]) docCache[rk] = (await api("/api/rulesets?lang=" + l)).rulesets;
  }
}

async function complete() {
  if (!schema) return;
  const ruleset = (/^\s*ruleset:\s*([A-Za-z0-9_]+)/m.exec(editor.value) || [])[1] || "d20";
  const caretLine = editor.value.slice(0, editor.selectionStart).split("\n").pop();
  const pre = /:\s*$/.test(caretLine) ? " " : "";
  // A trait's or house rule's on:, do: or use: (its when: reads the
  // facts tactics read).
  const rw = /^\s*(?:-\s+)?(on|do|use):/.exec(caretLine);
  if (rw && ["traits", "rules"].includes(ruleBlock(editor.value, editor.selectionStart))) {
    try { await loadRulesets(); } catch { /* no list: the schema's fields below */ }
    const words = traitWords(ruleset, itemMoment(editor.value, editor.selectionStart))[rw[1]];
    if (words && words.length) {
      offer(t("lab.complete.click", t("lab.complete.trait." + rw[1]), ruleset), words, (w) => pre + w);
      return;
    }
  }
  const tw = /^\s*(?:-\s+)?(when|do|target):/.exec(caretLine);
  if (tw) {
    // A tactics rule's value: the ruleset's declared facts, decisions
    // and targets (simctl policies RULESET).
    const words = tacticsWords((docCache[ruleset] || {}).text)[tw[1]];
    if (words && words.length) {
      offer(t("lab.complete.click", t("lab.complete." + tw[1]), ruleset), words, (w) => pre + w);
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
    say($("#completions-title"), "lab.complete.none", key);
    box.hidden = false;
    return;
  }
  if (where) say($("#completions-title"), "lab.complete.fields_in", where, ruleset);
  else say($("#completions-title"), "lab.complete.fields");
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
  updateName();
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
    plain(status, e.message);
    return;
  }
  if (seq !== checkSeq) return; // a newer check is on its way
  lab.checks++;
  marks = new Map();
  const list = $("#problems");
  list.replaceChildren();
  const add = (p, cls) => {
    const where = p.line ? (p.col ? t("lab.where.line_col", p.line, p.col) : t("lab.where.line", p.line)) : t("lab.where.overrides");
    const text = `${where}: ${p.field ? p.field + ": " : ""}${p.message}`;
    if (p.line) {
      const old = marks.get(p.line);
      marks.set(p.line, { cls: old && old.cls === "err" ? "err" : cls, title: (old ? old.title + "\n" : "") + text });
    }
    const li = el("li", { class: cls === "warn" ? "warn" : null, "data-line": p.line || 0, tabindex: 0, text: cls === "warn" ? t("lab.warning", text) : text });
    li.addEventListener("click", () => p.line && goToLine(p.line, p.col));
    li.addEventListener("keydown", (e) => { if (e.key === "Enter" && p.line) goToLine(p.line, p.col); });
    list.append(li);
  };
  res.errors.forEach((p) => add(p, "err"));
  (res.warnings || []).forEach((p) => add(p, "warn"));
  if (res.ok) {
    const s = res.summary;
    status.className = "check ok";
    say(status, "lab.check.ok", s.name, s.ruleset, s.combatants, () => t("lab.vs", s.sides[0], s.sides[1]));
    showDocs(s.ruleset);
  } else {
    status.className = "check bad";
    say(status, "lab.check.bad", res.errors.length);
    const m = /^\s*ruleset:\s*([A-Za-z0-9_]+)/m.exec(editor.value);
    if (m) showDocs(m[1]);
  }
  drawGutter();
}

// ---- scenarios, templates, docs ------------------------------------------

async function loadList() {
  const sel = $("#scenario-pick");
  const data = await api("/api/scenarios");
  const was = sel.value;
  // Start from names no entry when the editor holds a text no file has
  // (a kept result's or a permalink's edited text).
  sel.replaceChildren(el("option", { value: "", hidden: "", text: t("lab.pick.text") }));
  const groups = { builtin: el("optgroup", { label: t("lab.group.builtin") }), dir: el("optgroup", { label: t("lab.group.dir") }),
    tpl: el("optgroup", { label: t("lab.group.templates") }) };
  for (const s of data.scenarios) {
    const label = s.problem ? t("lab.invalid", s.file) : `${s.id.replace(/^(builtin|dir):/, "")} — ${s.name}`;
    groups[s.id.startsWith("dir:") ? "dir" : "builtin"].append(el("option", { value: s.id, text: label }));
  }
  for (const r of data.templates) groups.tpl.append(el("option", { value: "template:" + r, text: t("lab.template", r, r) }));
  for (const g of Object.values(groups)) if (g.children.length) sel.append(g);
  sel.value = was && sel.querySelector(`option[value="${CSS.escape(was)}"]`) ? was : "";
  $("#save").hidden = !data.save;
}

// dirty: the editor holds edits that Load, Open or leaving would lose.
const dirty = () => editor.value !== lab.original;
const discardOK = () => !dirty() || confirm(t("lab.discard", lab.file));
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
    $("#where").value = `side("${sg.sides[0]}").won and rounds >= 5`; // i18n: code (the tactics language)
    lab.suggested = sg;
  } catch (e) { /* an invalid scenario: the check shows why */ }
}

// formOf lists the fields of each kind's form (fillForm sets them from a
// request).
const formOf = { sweep: ["#vary1", "#vary2"], compare: ["#options"], matrix: ["#rows", "#cols", "#side"], value: ["#params", "#value-side"],
  tournament: ["#t-options", "#t-side"], optimize: ["#o-vary", "#o-where", "#o-side"], find: ["#where"] };

// prefillOthers prefills the other tabs from the scenario, as loading it
// does, keeping the fields a kept result or a permalink set for its kind.
async function prefillOthers(kind) {
  const keep = (formOf[kind] || []).map((id) => [id, $(id).value]);
  await prefill();
  for (const [id, v] of keep) $(id).value = v;
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
  lab.original = lab.loaded = text;
  lab.file = lab.originalFile = file || "scenario.yaml";
  lab.named = "";
  plain($("#file-name"), lab.file);
  editor.scrollTop = 0;
  drawGutter();
  check();
}

// The scenario's name: what jobs call the editor's text, and so what their
// command lines, results and history name. The designer's own (Name…), or
// the name of what was loaded; an edited built-in is no longer the
// built-in, so it goes by its file name alone (its command line would
// replay the unedited one), and the server says of every job whether its
// text is a file it has or the editor's text (job.scenario.origin).
function updateName() {
  const edited = editor.value !== lab.loaded;
  lab.file = lab.named || (edited && lab.originalFile.startsWith("builtin:") ? baseName(lab.originalFile) : lab.originalFile);
  if (edited) say($("#file-name"), "lab.edited", lab.file);
  else plain($("#file-name"), lab.file);
}
const baseName = (f) => f.replace(/^builtin:.*\//, "");
// scenarioName is what the page may call a scenario: the server's rule
// for a job's file (cliFileName, built-ins aside).
const scenarioName = /^[\p{L}\p{N}_][\p{L}\p{N}_. +()-]*\.ya?ml$/u;

$("#rename").addEventListener("click", () => {
  const name = prompt(t("lab.name.prompt"), baseName(lab.file));
  if (name === null) return;
  const n = name.trim();
  if (!scenarioName.test(n)) { setBanner("lab.name.bad", n); return; }
  lab.named = n;
  updateName();
  setBanner("lab.name.set", n);
  check();
});

// pickFor sets Start from to the scenario a job's file names: a built-in,
// the served folder's file (when the job played it as it is there), or
// none (the editor's text, which no entry of the list holds).
function pickFor(file, origin) {
  let id = "";
  if ((file || "").startsWith("builtin:")) id = file.replace(/\.ya?ml$/, "");
  else if (origin === "dir") id = "dir:" + file;
  const sel = $("#scenario-pick");
  sel.value = id && sel.querySelector(`option[value="${CSS.escape(id)}"]`) ? id : "";
}

// fileLabel is how a job's scenario is named in the page: its file, and
// for a text no file holds, that it is the editor's text.
function fileLabel(sc, file) {
  if (sc && sc.origin === "text") return () => t("lab.text_file", baseName(sc.file));
  return (sc && sc.file) || file || "";
}

const docCache = {};
let docsShown = "";
async function showDocs(ruleset) {
  if (!ruleset || ruleset === docsShown) return;
  docsShown = ruleset;
  plain($("#docs-ruleset"), ruleset);
  try {
    // The reference in the page's language: cached per language.
    const rk = "rulesets/" + lab.lang;
    docCache[rk] = docCache[rk] || (await api("/api/rulesets")).rulesets;
    lab.rulesets = docCache[rk];
    const dk = lab.lang + "/" + ruleset;
    docCache[dk] = docCache[dk] || await api("/api/policies?ruleset=" + encodeURIComponent(ruleset));
    docCache[ruleset] = docCache[dk];
    const d = lab.rulesets.find((r) => r.Name === ruleset);
    if (!d) throw new Error(t("lab.unknown_ruleset", ruleset));
    $("#doc-rules").replaceChildren(rulesDoc(d));
    plain($("#doc-policies"), docCache[ruleset].text);
  } catch (e) {
    plain($("#doc-rules"), e.message);
    docsShown = "";
  }
}

// rulesDoc is simctl rules NAME as HTML: the ruleset's own documentation.
function rulesDoc(d) {
  const f = document.createDocumentFragment();
  f.append(el("p", {}, el("strong", { text: `${d.Name}: ${d.Title}` })), el("p", { class: "muted", text: t("lab.rules.source", d.Source) }), el("p", { text: d.Summary }));
  if (d.Options && d.Options.length) {
    f.append(el("h3", { text: t("lab.rules.options") }));
    const dl = el("dl");
    for (const o of d.Options) dl.append(el("dt", { text: `${o.Name}: ${o.Default}` }), el("dd", {}, el("div", { class: "valid", text: t("lab.rules.valid", o.Valid) }), o.Doc));
    f.append(dl);
  }
  const section = (title, fs) => {
    if (!fs || !fs.length) return;
    f.append(el("h3", { text: title }));
    const dl = el("dl");
    for (const x of fs) dl.append(el("dt", { text: x.Name }), el("dd", { text: x.Doc }));
    f.append(dl);
  };
  section(t("lab.rules.fields"), d.Fields);
  section(t("lab.rules.policies"), d.Policies);
  section(t("lab.rules.actions"), d.Actions);
  section(t("lab.rules.counters"), d.Counters);
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
    walk(t("lab.schema.top"), s.properties);
    const defs = s.$defs || s.definitions || {};
    for (const [name, d] of Object.entries(defs)) if (d && d.properties) walk(name, d.properties);
  } catch (e) {
    plain($("#doc-fields"), e.message);
  }
}

// ---- the experiment form --------------------------------------------------

function selectKind(kind) {
  if (kind !== lab.kind) {
    $("#permalink").value = "";
    if ($("#banner").dataset.kind === "permalink") setBanner("");
    if (/(^|&)p=/.test(location.hash.slice(1))) history.replaceState(null, "", location.pathname + withLang(""));
  }
  lab.kind = kind;
  document.querySelectorAll(".tabs button").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.kind === kind)));
  for (const k of ["sweep", "compare", "matrix", "value", "tournament", "optimize", "find"]) document.querySelector(".kind-" + k).hidden = k !== kind;
  say($("#run"), "lab.go." + kind);
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

function fillForm(req, origin) {
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
  pickFor(req.file, origin);
}

$("#sets").addEventListener("input", () => { clearTimeout(checkTimer); checkTimer = setTimeout(check, 400); });

// ---- jobs -----------------------------------------------------------------

let stream = null;

$("#lab-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const req = buildRequest();
  const status = $("#job-status");
  lab.refused = null;
  lab.failedJob = null;
  if (!Number.isFinite(req.n) || req.n < 1) {
    say(status, "lab.bad_n", $("#n").value);
    return;
  }
  if (!Number.isSafeInteger(req.seed) || req.seed < 0) {
    say(status, "lab.bad_seed", $("#seed").value);
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
  lab.redraw = null;
  lab.refused = null;
  lab.lastTrace = null;
  lab.lastProgress = null;
  lab.failedJob = null;
  let acc;
  try {
    acc = await api("/api/jobs", { body: req });
  } catch (err) {
    plain(status, err.message);
    lab.refused = err.status >= 400 && err.status < 500 ? req : null;
    status.className = "error-box";
    if (err.data && err.data.errors && err.data.errors.length) check();
    return;
  }
  status.className = "muted";
  lab.job = { id: acc.id, req };
  $("#cancel").disabled = false;
  $("#run").disabled = true;
  if (acc.queue_position) say(status, "lab.queued", acc.queue_position);
  else say(status, "lab.starting");
  listen(acc.id, req);
});

function listen(id, req) {
  const lang = lab.lang; // the language of the job's messages
  const es = new EventSource(`/api/jobs/${id}/events`); // in the language the job was asked in
  stream = es;
  const status = $("#job-status");
  const bar = $("#job-bar");
  const t0 = performance.now();
  es.addEventListener("queued", (e) => { say(status, "lab.queued_others", JSON.parse(e.data).position); });
  es.addEventListener("started", () => { say(status, "lab.running"); });
  es.addEventListener("progress", (e) => {
    const p = JSON.parse(e.data);
    if (p.encounters !== undefined) {
      bar.hidden = false;
      bar.max = p.encounters_total;
      bar.value = p.encounters;
      say(status, "lab.progress", count(p.encounters), count(p.encounters_total), num(p.elapsed_seconds, 1));
      status.dataset.encounters = p.encounters;
      if (p.sides) liveTable(p);
    } else {
      bar.hidden = true;
      say(status, "lab.progress_all", count(p.encounters_total), num(p.elapsed_seconds, 1));
    }
  });
  // A sweep's finished points, a comparison's, matrix's or value run's
  // estimates so far: the result tables, drawn as they narrow.
  es.addEventListener("interim", (e) => {
    const r = JSON.parse(e.data).result;
    const job = { id, kind: req.kind, figures: [] };
    lab.redraw = () => renderInterim(job, r, req, false);
    renderInterim(job, r, req);
  });
  const end = async (state, e) => {
    es.close();
    stream = null;
    $("#cancel").disabled = true;
    $("#run").disabled = false;
    const d = JSON.parse(e.data);
    bar.hidden = true; // finished: no bar left part-way
    if (state === "done") {
      say(status, "lab.done_in", num((performance.now() - t0) / 1000, 1));
      const job = await api(`/api/jobs/${id}`);
      renderResult(job, req);
      addHistory(job, req);
    } else if (state === "cancelled") {
      if (d.error) say(status, "lab.cancelled_why", d.error);
      else say(status, "lab.cancelled");
      lab.failedJob = d.error ? { id, state } : null;
      const note = $("#interim-note");
      if (note) say(note, "lab.interim_cancelled");
      if (lab.redraw) { const draw = lab.redraw; lab.redraw = () => { draw(); const n = $("#interim-note"); if (n) say(n, "lab.interim_cancelled"); }; }
    } else {
      if (d.error) say(status, "lab.failed", d.error);
      else say(status, "lab.failed", () => t("lab.unknown_error"));
      lab.failedJob = { id, state };
      status.className = "error-box";
    }
    // The stream speaks the language the job was asked in: a switch since
    // then gets the message in the page's.
    if (lab.failedJob && lab.lang !== lang) relangJob();
    status.dataset.state = state;
  };
  for (const s of ["done", "cancelled", "failed"]) es.addEventListener(s, (e) => end(s, e));
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED && stream === es) say(status, "lab.lost");
  };
  status.dataset.state = "running";
}

$("#cancel").addEventListener("click", async () => {
  if (!lab.job) return;
  $("#cancel").disabled = true;
  try { await api(`/api/jobs/${lab.job.id}/cancel`, { method: "POST", body: {} }); } catch (e) { plain($("#job-status"), e.message); }
});

// relangJob says a failed or cancelled job's message again in the page's
// language: the server renders it from the job's message, not its text.
async function relangJob() {
  // A refused request: asked again (?dry=1 queues nothing) for its reason
  // in the new language.
  const refused = lab.refused;
  if (refused) {
    try {
      await api("/api/jobs?dry=1", { body: refused });
    } catch (e) {
      if (lab.refused === refused) plain($("#job-status"), e.message);
    }
    return;
  }
  const f = lab.failedJob;
  if (!f) return;
  try {
    const st = await api(`/api/jobs/${f.id}`);
    if (lab.failedJob !== f || !st.error) return;
    say($("#job-status"), f.state === "failed" ? "lab.failed" : "lab.cancelled_why", st.error);
  } catch { /* expired: the message stays as it was */ }
}

function liveTable(p, record = true) {
  lab.lastProgress = p;
  const tbl = $("#live");
  tbl.hidden = false;
  const tb = tbl.querySelector("tbody");
  tb.replaceChildren();
  for (const s of p.sides) {
    tb.append(el("tr", {}, el("td", { text: s.name }), el("td", { text: thousands(s.wins) }), el("td", { text: pct(s.win_rate) }),
      el("td", { text: ci(s.win_ci95) }), el("td", { class: "width", text: t("lab.pp", dec((100 * (s.win_ci95[1] - s.win_ci95[0])).toFixed(2))) })));
  }
  tb.append(el("tr", {}, el("td", { text: t("lab.draws") }), el("td", { text: thousands(p.draws) }), el("td", { text: pct(p.draws / Math.max(1, p.encounters)) }), el("td"), el("td")));
  const s0 = p.sides[0];
  if (record) {
    lab.widths.push(s0.win_ci95[1] - s0.win_ci95[0]);
    lab.series.push({ n: p.encounters, est: s0.win_rate, lo: s0.win_ci95[0], hi: s0.win_ci95[1] });
  }
  convPlot(lab.series, s0.name);
}

// convPlot draws the estimate and its interval against encounters played
// (log scale: batches grow geometrically).
function convPlot(series, side) {
  $("#conv").hidden = false;
  // R leaves room for half of the last tick's label (1,000,000).
  const W = 460, H = 170, L = 46, R = 28, T = 10, B = 28;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("lab.conv.aria", poss(side)));
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
  lab2.textContent = t("lab.conv.x");
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
  // The figure in the page's language (drawn by the server as the report
  // draws it in that language).
  const src = `/api/jobs/${id}/figures/${name}.svg` + (lab.lang === "en" ? "" : "?lang=" + lab.lang);
  const fig = el("figure", { "data-figure": name }, el("figcaption", { text: caption }));
  fetch(src).then((res) => (res.ok ? res.text() : Promise.reject(new Error(`${res.status} ${res.statusText}`)))).then((text) => {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const svg = doc.documentElement;
    if (!svg || svg.localName !== "svg" || doc.querySelector("parsererror")) throw new Error(t("lab.not_svg"));
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
    fig.prepend(el("p", { class: "muted", text: t("lab.figure_failed", err.message) + " " }, el("a", { href: src, text: t("lab.open_it") })));
  });
  return fig;
}

function downloads(job) {
  const box = el("div", { class: "downloads" });
  // The report in the page's language (simctl report --lang).
  const q = lab.lang === "en" ? "" : "?lang=" + lab.lang;
  if (job.report) box.append(el("a", { class: "button", id: "dl-zip", href: `/api/jobs/${job.id}/report.zip${q}`, download: "", text: t("lab.dl.report") }));
  if (job.report) box.append(el("a", { class: "button", href: `/api/jobs/${job.id}/report.tar.gz${q}`, download: "", text: t("lab.dl.targz") }));
  const blob = new Blob([JSON.stringify(job.result, null, 2)], { type: "application/json" });
  box.append(el("a", { class: "button", href: URL.createObjectURL(blob), download: `simctl-${job.kind}.json`, text: t("lab.dl.json") }));
  // The exact text the job played, under the name its command line gives
  // (a built-in's command replays it as it is: nothing to download).
  if (job.scenario && job.scenario.origin !== "builtin") box.append(el("a", { class: "button", id: "dl-scenario", href: job.scenario.download, download: baseName(job.scenario.file), text: t("lab.dl.scenario", baseName(job.scenario.file)) }));
  return box;
}

// reproduce is the command line that reproduces the job, and, when its
// text is the editor's (edited, pasted or opened here) rather than a file
// the lab has, what the command's file name then stands for and where to
// get it: the text the job played, downloaded under that name.
function reproduce(job, r) {
  const out = [el("p", { class: "muted command", id: "command", text: r.command || "" })];
  const sc = job.scenario;
  if (sc && sc.origin === "text") {
    out.push(el("p", { class: "note", id: "command-note" }, say(el("span"), "lab.reproduce.text", baseName(sc.file)), " ",
      el("a", { class: "button", id: "note-scenario", href: sc.download, download: baseName(sc.file), text: t("lab.dl.scenario", baseName(sc.file)) })));
  }
  return out;
}

function renderResult(job, req) {
  lab.redraw = async () => {
    // The job's warnings in the new language, then the result drawn again.
    try { const st = await api(`/api/jobs/${job.id}`); job.warnings = st.warnings; job.words = st.words; } catch { /* expired: as they were */ }
    renderResult(job, req);
  };
  const out = $("#results");
  out.replaceChildren();
  const r = job.result;
  out.append(el("h3", { text: t("lab.results") }));
  if (job.warnings) job.warnings.forEach((w) => out.append(el("p", { class: "muted", text: t("lab.warning", w) })));
  out.append(...reproduce(job, r));
  renderers[job.kind](out, job, r, req);
  out.append(downloads(job));
  // The kept result: this job's stored document, opened without a re-run
  // for as long as the server keeps it (simctl serve --job-ttl).
  out.querySelector(".downloads").append(el("a", { class: "button", id: "keep-link", href: `${location.pathname}#job=${job.id}`, target: "_blank", rel: "noopener",
    text: t("lab.keep_link") }));
  // A trace shown before a switch of language is shown again.
  if (lab.lastTrace && lab.showTrace) lab.showTrace(lab.lastTrace);
}

// ---- history: the runs since the page opened, two side by side -------------

lab.history = [];
function addHistory(job, req) {
  if (lab.history.some((h) => h.id === job.id)) return;
  const r = job.result || {};
  const head = historyHead(job.kind, r);
  // The job's own N (per run, point, option or candidate), as asked.
  const n = job.n || (req && req.n) || r.encounters || 0;
  const labelArgs = () => [() => t("lab.tab." + job.kind), fileLabel(job.scenario, req ? req.file : r.file), count(n), job.seed ?? r.seed ?? (req && req.seed)];
  const h = { id: job.id, kind: job.kind, label: () => t("lab.history.label", ...labelArgs()), labelArgs, head, at: new Date() };
  lab.history.unshift(h);
  const box = el("input", { type: "checkbox", "data-job": h.id, "aria-label": t("lab.history.compare", h.label) });
  box.addEventListener("change", sideBySide);
  const li = el("li", { "data-job": h.id }, el("label", {}, box, " ", el("strong", { text: h.at.toLocaleTimeString("en-GB") }), " ", say(el("span"), "lab.history.label", ...h.labelArgs())),
    h.head ? el("div", { class: "muted", text: h.head }) : null,
    say(el("a", { href: `${location.pathname}#job=${h.id}`, "data-job": h.id, target: "_blank", rel: "noopener" }), "lab.open"));
  $("#history").prepend(li);
}

// historyHead is a finished job's headline in a line: each side's or
// option's win rate, a sweep's best point, optimize's best found, a
// tournament's leader, a matrix's value.
function historyHead(kind, r) {
  const s0 = (r.sides || [])[0];
  switch (kind) {
    case "run": return r.sides ? r.sides.map((x) => `${x.name} ${pct(x.win_rate)}`).join(", ") : "";
    case "compare": return r.options ? r.options.map((o) => `${o.name} ${pct(o.result.sides[0].win_rate)}`).join(", ") : "";
    case "sweep": {
      const done = (r.points || []).filter((p) => !p.unfinished && p.result && p.result.sides);
      if (!done.length) return "";
      const best = done.reduce((a, b) => (b.result.sides[0].win_rate > a.result.sides[0].win_rate ? b : a));
      return t("lab.history.sweep_best", s0 ?? best.result.sides[0].name, r.axes.map((a, k) => `${a.path}=${best.values[k]}`).join(", "), pct(best.result.sides[0].win_rate));
    }
    case "optimize": return r.best && r.best.name ? t("lab.history.optimize_best", r.best.name, pct(r.best.win_rate)) : "";
    case "tournament": {
      const c = (r.candidates || [])[r.selected >= 0 ? r.selected : r.leader];
      return c ? `${c.name} ${pct(c.win_rate)}` : "";
    }
    case "matrix": return r.equilibrium ? t("lab.history.matrix_value", pct(r.equilibrium.value)) : "";
  }
  return "";
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
      col.append(el("h4", { text: h ? h.label() : id }), ...reproduce(job, job.result || {}));
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

// traceTimeline draws a trace's timeline (the server builds it from the
// referee's structured events, never from the narration, so it reads the
// same in every language): each round's turns in initiative order with
// their count, and each delay, ready, interrupt, delayed action and
// combatant going down where it happened.
function traceTimeline(tl) {
  const box = el("div", { class: "timeline", id: "timeline", role: "list", "aria-label": t("lab.tl.aria") });
  if (!tl) return el("div", {}, box);
  const who = (i) => (tl.combatants[i] || {}).name ?? "?";
  const sideOf = (i) => ((tl.combatants[i] || {}).side === 1 ? 1 : 0);
  const label = (mk) => {
    switch (mk.kind) {
      case "turn": return `${who(mk.who)} ${mk.count}`;
      case "resume": return t("lab.tl.m.resume", who(mk.who));
      case "delay": return t("lab.tl.m.delay", who(mk.who));
      case "ready": return t("lab.tl.m.ready", who(mk.who));
      case "interrupt": return mk.target >= 0 ? t("lab.tl.m.interrupt_on", who(mk.who), who(mk.target)) : t("lab.tl.m.interrupt", who(mk.who));
      case "down": return "✖ " + who(mk.who);
    }
    return who(mk.who);
  };
  for (const r of tl.rounds) {
    const name = r.special ? (texts["lab.tl." + r.special] !== undefined ? t("lab.tl." + r.special) : r.special) : t("lab.tl.round", r.n);
    const row = el("div", { class: "tl-round", role: "listitem", "data-round": r.n }, el("span", { class: "tl-label", text: name }));
    for (const mk of r.marks) {
      const text = label(mk);
      row.append(el("span", { class: `tl-mark tl-${mk.kind} tl-side${sideOf(mk.who)}`, "data-kind": mk.kind, title: text, text }));
    }
    box.append(row);
  }
  const end = tl.winner === -1 ? t("lab.tl.end.draw", tl.played) : tl.winner >= 0 ? t("lab.tl.end.win", tl.sides[tl.winner], tl.played) : t("lab.tl.end.cut");
  box.append(el("p", { class: "muted", id: "timeline-end", text: end }));
  const chip = (kind, text, side = 0) => el("span", { class: `tl-mark tl-${kind} tl-side${side}`, text });
  const key = el("p", { class: "muted tl-key" }, t("lab.tl.key") + " ",
    chip("delay", t("lab.tl.delay")), " ", chip("resume", t("lab.tl.resume")), " ", chip("ready", t("lab.tl.ready")), " ", chip("interrupt", t("lab.tl.interrupt")), " ", chip("down", t("lab.tl.out")),
    t("lab.tl.sides") + " ", ...tl.sides.flatMap((x, i) => [chip("turn", x, i), " "]));
  return el("div", {}, key, box);
}

// renderInterim shows a partial document with the final renderers (no
// figures, no downloads: they come with the result). lab.interimWidths
// records the first interval the table shows, for the tests.
function renderInterim(job, r, req, record = true) {
  const out = $("#results");
  out.replaceChildren();
  const what = {
    sweep: () => t("lab.interim.sweep", r.points.filter((p) => !p.unfinished).length, r.points.length),
    compare: () => t("lab.interim.compare", count(r.encounters)),
    matrix: () => t("lab.interim.matrix", count(r.encounters)),
    value: () => t("lab.interim.value", count(r.encounters)),
    optimize: () => t("lab.interim.optimize", count((r.search && r.search.encounters) || 0)),
  }[job.kind];
  out.append(el("h3", { text: t("lab.interim") }), el("p", { class: "muted", id: "interim-note", text: t("lab.interim.note", what ? what() : "") }));
  renderers[job.kind](out, job, r, req);
  if (!record) return;
  const first = { compare: () => r.options[0].result.sides[0].win_ci95, matrix: () => r.ci95[0][0], value: () => (r.effects[0] || {}).ci95,
    optimize: () => { const s = r.search && r.search.selection; const c = s && s.candidates && s.candidates[s.leader]; return c && (c.win_ci95 || c.ci95); } }[job.kind];
  const c = first && first();
  if (c) lab.interimWidths.push(c[1] - c[0]);
  out.dataset.interim = String(lab.interimWidths.length);
}

function renderRun(out, job, r) {
  lab.counts = { encounters: r.encounters, wins: r.sides.map((s) => s.wins), draws: r.draws };
  out.append(el("p", { id: "counts", "data-counts": JSON.stringify(lab.counts),
    text: t("lab.run.counts", count(r.encounters), r.seed, r.sides.map((s) => t("lab.run.side_wins", s.name, count(s.wins))).join(", "), count(r.draws)) }));
  out.append(table(t("lab.run.caption"), cols("side", "wins", "win_rate", "ci95", "survivors", "any_death"),
    r.sides.map((s) => [s.name, thousands(s.wins), pct(s.win_rate), ci(s.win_ci95), num(s.survivors_mean), pct(s.any_death_rate)])));
  out.append(el("p", { text: t("lab.run.draws", count(r.draws), prosePct(r.draw_rate), proseNum(r.rounds.mean), r.rounds.p50, r.rounds.p90, r.rounds.max) }));
  if (r.combatants && r.combatants.length) {
    out.append(table(t("lab.run.combatants"), cols("combatant", "side", "death", "out", "damage_dealt", "taken", "kills", "turns", "acts_first"),
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
    out.append(table(t("lab.run.economy"), [t("lab.col.counter"), ...sides], keys.map((k) => [keyed("counter", k), ...sides.map((s) => cell(s, k))]), "economy-table"));
  }
  const rules = (r.tally && r.tally.tactics_rules) || [];
  if (rules.length) {
    out.append(table(t("lab.run.tactics"), cols("combatant", "moment", "rule", "event", "count"),
      rules.map((x) => [x.combatant, keyed("moment", x.moment), x.rule === "fallback" ? keyed("rule", x.rule) : x.rule, ruleEvent(x.event), thousands(x.count)])));
  }
  // Each trait's and house rule's counts: how often it fired and the sum
  // of what it changed, per encounter too (simctl run's traits table).
  const traits = (r.tally && r.tally.traits) || [];
  if (traits.length) {
    const per = (v) => num(v / Math.max(1, r.encounters), 3);
    out.append(table(t("lab.run.traits"), cols("combatant", "moment", "trait", "fired", "per_encounter", "added", "per_encounter"),
      traits.map((x) => [x.combatant, keyed("moment", x.moment), x.trait, thousands(x.fired), per(x.fired), thousands(x.added), per(x.added)]), "traits-table"));
  }
  const key = (f) => "lab.fig." + f.replace(/-/g, "_");
  for (const f of job.figures || []) out.append(figure(job.id, f, texts[key(f)] !== undefined ? t(key(f)) : f));
  out.append(traceViewer(job, r));
}

// traceViewer traces an encounter of the run, or of the sweep point or
// comparison option picked in targets ([{label, q}], q the query naming it).
function traceViewer(job, r, targets) {
  const box = el("section", { class: "trace-box", "aria-labelledby": "trace-title" });
  box.append(el("h3", { id: "trace-title", text: t("lab.trace.title") }));
  let pick = null;
  if (targets) {
    pick = el("select", { id: "trace-target", "aria-label": t("lab.trace." + targets.kind) });
    targets.list.forEach((x) => pick.append(el("option", { value: x.q, text: x.label })));
  }
  const pre = el("pre", { class: "trace", id: "trace", tabindex: 0 });
  const title = el("p", { class: "muted", id: "trace-title-text" });
  const tl = el("div", { class: "timeline-box" });
  const input = el("input", { type: "number", min: 0, value: 0, id: "trace-i", "aria-label": t("lab.trace.index") });
  const seed = el("input", { type: "text", inputmode: "numeric", value: String(r.seed), size: 8, id: "trace-seed", "aria-label": t("lab.trace.seed") });
  // show traces the encounter the query q names; lab.lastTrace shows it
  // again once the result is drawn again (a switch of language).
  const show = async (q, target) => {
    pre.textContent = "…";
    if (pick && target !== undefined) pick.value = target;
    const again = { q, target: pick ? pick.value : undefined, i: input.value, seed: seed.value };
    try {
      const tr = await api(`/api/jobs/${job.id}/trace?${pick ? q + "&" + pick.value : q}`);
      title.textContent = tr.title;
      pre.textContent = tr.text;
      tl.replaceChildren(traceTimeline(tr.timeline));
      lab.lastTrace = again;
    } catch (e) { pre.textContent = e.message; }
  };
  lab.showTrace = (a) => { input.value = a.i; seed.value = a.seed; show(a.q, a.target); };
  const ctl = el("div", { class: "trace-controls" },
    ...(pick ? [el("label", {}, t("lab.trace." + targets.kind) + " ", pick)] : []),
    el("label", {}, t("lab.trace.encounter") + " ", input),
    el("label", {}, t("lab.trace.of_seed") + " ", seed),
    el("button", { type: "button", id: "trace-go", onclick: () => show("encounter=" + encodeURIComponent(input.value) + "&seed=" + encodeURIComponent(seed.value.trim())) }, t("lab.trace.go")),
    el("button", { type: "button", id: "trace-shortest", onclick: () => show("pick=shortest") }, t("lab.trace.shortest")),
    el("button", { type: "button", id: "trace-median", onclick: () => show("pick=median") }, t("lab.trace.median")),
    el("button", { type: "button", id: "trace-longest", onclick: () => show("pick=longest") }, t("lab.trace.longest")));
  box.append(ctl, title, tl, el("details", { open: "" }, el("summary", { text: t("lab.trace.text") }), pre));
  return box;
}

function renderSweep(out, job, r) {
  const axes = r.axes.map((a) => a.path || a.name || t("lab.sweep.axis"));
  const sides = r.sides;
  const rows = r.points.map((p) => [...p.values, ...(p.unfinished ? [t("lab.playing"), "", "", ""] : p.result.sides.flatMap((s) => [pct(s.win_rate), ci(s.win_ci95)])), thousands(p.result.encounters)]);
  out.append(table(t("lab.sweep.caption", axes.join(" × ")), [...axes, t("lab.col.side_win", sides[0]), t("lab.col.ci95"), t("lab.col.side_win", sides[1]), t("lab.col.ci95"), t("lab.col.encounters")], rows));
  if (r.axes.length === 1 && r.points.length > 1) {
    // A slider over the points: the value and its win rates at a glance.
    const read = el("output", { id: "sweep-read" });
    const slider = el("input", { type: "range", min: 0, max: r.points.length - 1, value: 0, step: 1, id: "sweep-slider", "aria-label": axes[0] });
    const upd = () => {
      const p = r.points[Number(slider.value)];
      read.textContent = `${axes[0]} = ${p.values[0]}: ` + (p.unfinished ? t("lab.playing") : p.result.sides.map((s) => `${s.name} ${pct(s.win_rate)} ${ci(s.win_ci95)}`).join(", "));
    };
    slider.addEventListener("input", upd);
    upd();
    out.append(el("p", {}, el("label", {}, axes[0] + " ", slider), " ", read));
  }
  for (const f of job.figures || []) out.append(figure(job.id, f, t("lab.sweep.figure")));
  if (job.result) out.append(traceViewer(job, r, { kind: "point", list: r.points.map((p, i) => ({ label: r.axes.map((a, k) => `${a.path}=${p.values[k]}`).join(", "), q: "point=" + i })) }));
}

function renderCompare(out, job, r) {
  const rows = r.options.map((o) => {
    const s = o.result.sides[0];
    const d = (o.diff || [])[0];
    // The key columns first (option, win rate, the difference and its
    // interval): on a 1280-pixel screen the table fits, overrides wrapped.
    return [o.name, pct(s.win_rate),
      d ? t("lab.pp", `${d.diff >= 0 ? "+" : ""}${dec((100 * d.diff).toFixed(2))}`) : t("lab.baseline"), d ? t("lab.pp", `[${dec((100 * d.ci95[0]).toFixed(2))}, ${dec((100 * d.ci95[1]).toFixed(2))}]`) : "",
      ci(s.win_ci95), d ? pval(d.p_value) : "",
      (o.sets || []).join("; ") || t("lab.unchanged")];
  });
  const tw = table(t("lab.compare.caption", count(r.encounters), poss(r.sides[0])),
    [...cols("option", "win_rate", "delta_baseline", "paired_ci", "win_rate_ci"), "p", t("lab.col.overrides")], rows, "compare-table");
  tw.firstChild.classList.add("compare"); // side by side too, where the copy has no id
  out.append(tw);
  // Each option's traits and house rules, per encounter: what switching
  // one on or off, or changing its parameter, did to how often it fired.
  const per = (v, o) => num(v / Math.max(1, o.result.encounters), 3);
  const tr = r.options.flatMap((o) => ((o.result.tally || {}).traits || []).map((x) => [o.name, x.combatant, keyed("moment", x.moment), x.trait, per(x.fired, o), per(x.added, o)]));
  if (tr.length) out.append(table(t("lab.compare.traits"), cols("option", "combatant", "moment", "trait", "fired_per", "added_per"), tr, "compare-traits"));
  for (const f of job.figures || []) out.append(figure(job.id, f, t("lab.compare.figure")));
  if (job.result) out.append(traceViewer(job, r, { kind: "option", list: r.options.map((o) => ({ label: o.name, q: "option=" + encodeURIComponent(o.name) })) }));
}

function renderMatrix(out, job, r) {
  const rows = r.rows.map((name, i) => [name, ...r.cols.map((_, c) => `${pct(r.win[i][c])} ${ci(r.ci95[i][c])}`)]);
  out.append(table(t("lab.matrix.caption", poss(r.row_side), poss(r.col_side)), [`${r.row_side} \\ ${r.col_side}`, ...r.cols], rows));
  const eq = r.equilibrium;
  if (eq) {
    const mix = (names, ws) => names.map((n, i) => [n, ws[i]]).filter((x) => x[1] > 1e-9).map((x) => `${x[0]} ${pct(x[1])}`).join(", ");
    out.append(el("p", { id: "equilibrium", text: t(eq.stable ? "lab.matrix.eq" : "lab.matrix.eq_unsettled", r.row_side, mix(r.rows, eq.row_weights), r.col_side, mix(r.cols, eq.col_weights), pct(eq.value), ci(eq.value_ci95)) }));
  }
  (r.dominated || []).forEach((d) => out.append(el("p", { text: t("lab.matrix.dominated", poss(d.side), d.option, d.by) })));
  (r.notes || []).forEach((n) => out.append(el("p", { class: "muted", text: n })));
  for (const f of job.figures || []) out.append(figure(job.id, f, t("lab.matrix.figure")));
}

function renderValue(out, job, r) {
  out.append(table(t("lab.value.caption", r.side, count(r.encounters)),
    cols("parameter", "step", "win_rate_steps", "per_unit", "ci95"),
    (r.effects || []).map((e) => [e.param, num(e.step), e.win_rate.map((w) => pct(w)).join(" · "), t("lab.pp", dec((100 * e.per_unit).toFixed(2))), t("lab.pp", `[${dec((100 * e.ci95[0]).toFixed(2))}, ${dec((100 * e.ci95[1]).toFixed(2))}]`)])));
  if ((r.rates || []).length) {
    out.append(table(t("lab.value.rates"), ["A", "B", t("lab.col.rate"), t("lab.col.ci95")],
      r.rates.map((x) => [x.a, x.b, x.bounded ? num(x.value) : "—", x.bounded ? ci2(x.ci95) : t("lab.value.unbounded")])));
  }
  (r.warnings || []).forEach((w) => out.append(el("p", { class: "muted", text: t("lab.warning", w) })));
  for (const f of job.figures || []) out.append(figure(job.id, f, t("lab.value.figure")));
}

function renderTournament(out, job, r) {
  const cands = r.candidates || [];
  // The verdict, the guarantee and the statuses are the report's words,
  // which the server sends in the page's language (job.words).
  const w = job.words;
  const sel = r.selected >= 0 && cands[r.selected];
  const outcome = w ? (w.guarantee ? w.verdict + " " + t("lab.t.guarantee", w.guarantee) : w.verdict) :
    sel ? t("lab.t.outcome_selected", r.outcome, sel.name) : t("lab.t.outcome", r.outcome);
  const status = (i) => (w && w.status[i]) || cands[i].status;
  out.append(el("p", { id: "tournament-outcome", class: "verdict", text: outcome }));
  out.append(table(t(r.selected >= 0 ? "lab.t.caption_selected" : "lab.t.caption_leader", poss(r.side)),
    [...cols("candidate", "status", "win_rate", "ci95_unadjusted"), "Δ", ...cols("simultaneous", "encounters")],
    (r.ranking || cands.map((_, i) => i)).map((i) => { const c = cands[i]; return [c.name, c.eliminated_by ? t("lab.t.by", status(i), c.eliminated_by, c.eliminated_after_stage) : status(i), pct(c.win_rate), ci(c.win_ci95),
      t("lab.pp", `${c.diff >= 0 ? "+" : ""}${dec((100 * c.diff).toFixed(2))}`), t("lab.pp", `[${dec((100 * c.diff_ci[0]).toFixed(2))}, ${dec((100 * c.diff_ci[1]).toFixed(2))}]`), thousands(c.encounters)]; }), "tournament-table"));
  out.append(el("p", { class: "muted", text: t("lab.t.total", count(r.encounters), (r.stages || []).length) }));
}

// statusText is a selection's candidate status (selected, not separated,
// eliminated) in the page's language; another as recorded.
function statusText(s) {
  const key = "lab.status." + s.replace(/ /g, "_");
  return texts[key] !== undefined ? t(key) : s;
}

// rankedStatus is ranked candidate i's status in the report's words, which
// the server sends in the page's language (job.words); as recorded while
// the job runs.
function rankedStatus(job, i, c) {
  return (job.words && job.words.status && job.words.status[i]) || c.status;
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
  if (per) how = t("lab.opt.how", k, count(per));
  if (per && s.uniform_discordance) how += " " + t("lab.opt.bonferroni", Math.max(k - 1, 1), proseNum(100 * s.uniform_discordance, 1));
  // In a designer's terms: what was spent, what the plain design (every
  // candidate the same encounters) would have spent for the same answer,
  // and, when the search cost more, what to change.
  const ratio = g.encounters / g.uniform_encounters;
  if (ratio > 1) return t("lab.opt.cost_more", count(g.encounters), count(g.uniform_encounters), how, ratio.toPrecision(2));
  return t("lab.opt.cost_less", count(g.encounters), count(g.uniform_encounters), how, String(Math.round(100 * (1 - ratio))));
}

function renderOptimize(out, job, r) {
  const s = r.search || {};
  const ranked = s.ranked || [];
  const done = job.result && !r.interrupted;
  if (done && r.best && r.best.name) {
    const best = shortName(r.best.name, ranked.map((c) => c.name).concat([r.best.name]));
    out.append(el("p", { id: "optimize-best", class: "verdict", text: s.baseline_win_rate !== undefined ?
      t("lab.opt.best_written", best, prosePct(r.best.win_rate), proseCI(r.best.ci95), prosePct(s.baseline_win_rate), `${r.best.gain_over_baseline >= 0 ? "+" : ""}${proseNum(100 * r.best.gain_over_baseline)}`, proseNum(100 * r.best.gain_ci[0]), proseNum(100 * r.best.gain_ci[1])) :
      t("lab.opt.best", best, prosePct(r.best.win_rate), proseCI(r.best.ci95)) }));
    // The statement is the report's words, sent in the page's language.
    if (r.guarantee) out.append(el("p", { class: "muted", text: t("lab.opt.guarantee", (job.words && job.words.guarantee) || r.guarantee.statement, count(r.guarantee.encounters)) }));
    if (r.guarantee && r.guarantee.uniform_encounters > 0) out.append(el("p", { id: "optimize-uniform", class: "muted", text: uniformDesign(r.guarantee, s) }));
  }
  // The selection as it stands: the incumbent and each candidate's
  // interval, narrowing stage by stage.
  const sel = s.selection;
  if (sel && sel.candidates && !done) {
    const all = sel.candidates.map((c) => c.name || "");
    const order = sel.candidates.map((_, i) => i).sort((a, b) => sel.candidates[b].win_rate - sel.candidates[a].win_rate).slice(0, 15);
    out.append(table(t("lab.opt.selection", count(sel.encounters || 0)), cols("candidate", "win_rate", "ci95", "status", "encounters"),
      order.map((i) => { const c = sel.candidates[i]; const n = shortName(c.name || String(i), all); return [i === sel.leader ? t("lab.opt.incumbent_mark", n) : n, pct(c.win_rate), c.win_ci95 ? ci(c.win_ci95) : "", statusText(c.status || ""), thousands(c.encounters || 0)]; }), "optimize-live"));
  }
  if (ranked.length) {
    const all = ranked.map((c) => c.name);
    out.append(table(ranked.length > 20 ? t("lab.opt.ranked", ranked.length) : t("lab.opt.ranked_all"), cols("candidate", "win_rate", "ci95", "delta_best", "interval", "status"),
      // Only the finalists are confirmed: the others show the selection's
      // estimate and no interval of the confirmation.
      ranked.slice(0, 20).map((c, i) => c.confirmed ? [shortName(c.name, all), pct(c.confirm_win_rate), ci(c.confirm_ci), t("lab.pp", dec((100 * (c.diff_to_best || 0)).toFixed(2))),
        c.diff_ci ? t("lab.pp", `[${dec((100 * c.diff_ci[0]).toFixed(2))}, ${dec((100 * c.diff_ci[1]).toFixed(2))}]`) : "", rankedStatus(job, i, c)] :
        [shortName(c.name, all), t("lab.opt.in_selection", pct(c.win_rate)), t("lab.opt.not_confirmed"), "", "", rankedStatus(job, i, c)]), "optimize-table"));
  }
  const inc = s.incumbent || [];
  if (inc.length) {
    out.append(table(t("lab.opt.incumbent"), cols("encounters", "stage", "candidate", "win_rate"),
      inc.slice(-12).map((p) => [thousands(p.encounters), stageName(p.stage), shortName((ranked.find((c) => c.candidate === p.candidate) || {}).name || String(p.candidate), ranked.map((c) => c.name)), pct(p.win_rate)]), "optimize-incumbent"));
  }
}

function renderFind(out, job, r) {
  out.append(el("p", { id: "find-count", class: "verdict", text: t("lab.find.count", count(r.matches), count(r.encounters), prosePct(r.matches / Math.max(1, r.encounters)), r.where) }));
  const list = el("p", { class: "find-list" }, (r.first || []).length ? t("lab.find.first", r.first.length) + " " : t("lab.find.none"));
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
    // The language is kept in the permalink (&lang=ko) and restored from it.
    const frag = withLang(p.fragment);
    const url = location.origin + location.pathname + frag;
    $("#permalink").value = url;
    history.replaceState(null, "", frag);
    try { await navigator.clipboard.writeText(url); setBanner("lab.permalink.copied").dataset.kind = "permalink"; } catch { setBanner("lab.permalink.ready").dataset.kind = "permalink"; }
  } catch (e) {
    plain(setBanner("lab.permalink.ready"), e.message);
  }
});

// fromKept opens #job=ID: the stored result, rendered without a re-run.
async function fromKept() {
  const m = /(?:^#|&)job=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!m) return false;
  try {
    const job = await api(`/api/jobs/${m[1]}`);
    if (job.state !== "done") throw new Error(t("lab.kept.state", job.state));
    // The request it was played with: the scenario's text and name, N,
    // the seed and every field of its kind's form, as a permalink's.
    const req = job.request;
    fillForm(req, job.scenario && job.scenario.origin);
    await prefillOthers(req.kind);
    renderResult(job, req);
    addHistory(job, req);
    say($("#job-status"), "lab.kept.status");
    $("#job-status").dataset.state = "kept";
    const kind = () => t("lab.tab." + job.kind);
    setBanner("lab.kept.banner_of", kind, fileLabel(job.scenario, req.file), req.seed, count(req.n));
    return true;
  } catch (e) {
    setBanner("lab.kept.gone", e.message);
    return false;
  }
}

async function fromPermalink() {
  const m = /(?:^#|&)p=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!m) return false;
  try {
    const req = await api("/api/permalink?p=" + m[1]);
    fillForm(req);
    await prefillOthers(req.kind);
    setBanner("lab.permalink.opened", () => t("lab.tab." + req.kind), req.file, req.seed, count(req.n), () => $("#run").textContent).dataset.kind = "permalink";
    return true;
  } catch (e) {
    setBanner("lab.permalink.bad", e.message);
    return false;
  }
}

// ---- start ---------------------------------------------------------------

$("#load-scenario").addEventListener("click", () => {
  const id = $("#scenario-pick").value;
  if (id && discardOK()) loadScenario(id).catch((e) => plain(setBanner("lab.load"), e.message));
});

// ---- open, download, save --------------------------------------------------

$("#open-file").addEventListener("change", async (e) => {
  const f = e.target.files[0];
  e.target.value = "";
  if (!f) return;
  if (f.size > 1 << 20) { setBanner("lab.file.too_big", f.name, count(f.size)); return; }
  if (!discardOK()) return;
  const name = /\.ya?ml$/i.test(f.name) ? f.name : f.name + ".yaml";
  setEditor(await f.text(), name.replace(/[^\p{L}\p{N}_. +()-]/gu, "_"));
  lab.source = "file:" + f.name;
  lab.base = "";
  lab.saveName = "";
  setBanner("lab.file.opened", f.name);
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
  const suggested = lab.named || lab.saveName || baseName(lab.file);
  const name = prompt(t("lab.save.prompt"), suggested);
  if (!name) return;
  const body = { name: name.trim(), text: editor.value, base: name.trim() === lab.saveName ? lab.base : "" };
  try {
    let r;
    try {
      r = await api("/api/save", { body });
    } catch (e) {
      if (e.status !== 409 || !confirm(t("lab.save.replace", e.message))) throw e;
      r = await api("/api/save", { body: { ...body, overwrite: true } });
    }
    lab.base = r.base;
    lab.saveName = r.file;
    lab.original = lab.loaded = editor.value;
    lab.file = lab.originalFile = r.file;
    lab.named = "";
    plain($("#file-name"), r.file);
    setBanner(r.replaced ? "lab.saved_replaced" : "lab.saved", r.file);
    await loadList();
    $("#scenario-pick").value = r.id;
  } catch (e) {
    setBanner("lab.save.failed", e.message);
  }
});

$("#lang").addEventListener("change", () => setLang($("#lang").value));

(async () => {
  try { await setLang(lab.lang, false); } catch (e) { console.error(e); }
  selectKind("run");
  try { await loadList(); } catch (e) { setBanner("lab.list.failed", e.message); }
  loadSchema();
  if (!(await fromKept()) && !(await fromPermalink())) {
    const first = $("#scenario-pick").querySelector('option[value="builtin:d20/duel"]') || $("#scenario-pick").querySelector('option[value^="builtin:"]');
    if (first) {
      $("#scenario-pick").value = first.value;
      await loadScenario(first.value).catch((e) => plain(setBanner("lab.load"), e.message));
    }
  }
  document.body.dataset.ready = "1";
})();
