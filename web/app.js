// The page of `kyphu serve`: plain JavaScript, no build step. Everything it knows of
// games comes from the HTTP API (docs/serve.md); its own words from i18n/*.json.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  words: {},
  diagnostics: [],
  game: null, // the game shown move by move (the check answer's `game`)
  ply: 0,
  flipped: false,
  boards: new Map(), // key -> SVG text
  seq: 0, // answers older than the last request are dropped
  name: "record",
  timer: null,
};

// ---- the page's own words ----

function t(key, vars) {
  let s = state.words[key] ?? key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split(`{${k}}`).join(String(v));
  return s;
}

async function loadWords(lang) {
  try {
    const r = await fetch(`i18n/${lang}.json`);
    if (!r.ok) throw new Error(r.status);
    state.words = await r.json();
  } catch (e) {
    state.words = {};
  }
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) {
    const w = state.words[el.dataset.i18n];
    if (w) el.textContent = w;
  }
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) {
    const w = state.words[el.dataset.i18nPlaceholder];
    if (w) el.placeholder = w;
  }
  for (const el of document.querySelectorAll("[data-i18n-title]")) {
    const w = state.words[el.dataset.i18nTitle];
    if (w) el.title = w;
  }
  for (const el of document.querySelectorAll("[data-i18n-aria]")) {
    const w = state.words[el.dataset.i18nAria];
    if (w) el.setAttribute("aria-label", w);
  }
}

function browserLanguage(available) {
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = l.toLowerCase().split("-")[0];
    if (available.includes(base)) return base;
  }
  return "en";
}

// ---- the API ----

async function api(path, body) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const type = r.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) throw new Error(data && data.error ? data.error : `HTTP ${r.status}`);
  return data;
}

function readOptions() {
  return {
    game: $("opt-game").value,
    lang: $("opt-lang").value,
    notation: $("opt-notation").value,
    name: state.name,
  };
}

// ---- positions in the text ----

// The UTF-16 offset of 1-based `line` and `column` (columns count characters).
function offsetOf(text, line, column) {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  for (let c = 1; c < column && at < text.length; c++) {
    const code = text.codePointAt(at);
    if (code === 10) break;
    at += code > 0xffff ? 2 : 1;
  }
  return at;
}

// The token starting at `start`: up to the next blank.
function tokenEnd(text, start) {
  let end = start;
  while (end < text.length && !/\s/.test(text[end])) end++;
  return Math.max(end, Math.min(start + 1, text.length));
}

function sev(severity) {
  return t(severity === "error" ? "error_sev" : severity);
}

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

// ---- checking ----

function scheduleCheck() {
  clearTimeout(state.timer);
  state.timer = setTimeout(check, 350);
}

async function check() {
  const text = $("record").value;
  const seq = ++state.seq;
  const number = Number($("game-pick").value || 1);
  let res;
  try {
    res = await api("api/check", { ...readOptions(), text, number, out_lang: $("exp-lang").value });
  } catch (e) {
    if (seq !== state.seq) return;
    $("summary").textContent = t("error", { message: e.message });
    $("summary").className = "summary problems";
    return;
  }
  if (seq !== state.seq) return;
  showCheck(res, text);
}

function showCheck(res, text) {
  state.diagnostics = res.diagnostics.map((d, i) => {
    const start = d.line ? offsetOf(text, d.line, d.column) : null;
    return { ...d, i, start, end: start === null ? null : tokenEnd(text, start) };
  });
  state.game = res.game && res.game.moves ? res.game : null;
  if (state.game) {
    for (const m of state.game.moves) {
      m.start = offsetOf(text, m.line, m.column);
      m.end = m.start + m.written.length;
    }
  }
  // the game picker, when the text holds several games
  const pick = $("game-pick");
  const current = pick.value;
  pick.innerHTML = "";
  for (const g of res.games) {
    const o = document.createElement("option");
    o.value = g.game;
    o.textContent = `${g.game}. ${g.white || "?"} – ${g.black || "?"} (${t("status_" + g.status)})`;
    pick.appendChild(o);
  }
  if (current && [...pick.options].some((o) => o.value === current)) pick.value = current;
  $("pick-wrap").hidden = res.games.length < 2;

  const c = res.counts;
  const problems = state.diagnostics.filter((d) => d.severity !== "note").length;
  const summary = $("summary");
  if (c.read === 0 && c.junk === 0) {
    summary.textContent = "";
    summary.className = "summary";
  } else if (problems === 0) {
    summary.textContent = t("clean", { games: c.read });
    summary.className = "summary clean";
  } else {
    summary.textContent = t("problems", { n: problems, games: c.read });
    summary.className = "summary problems";
  }
  showReading();
  // how many answers were shown (for tests and assistive tools waiting on one)
  document.body.dataset.checks = String(Number(document.body.dataset.checks || 0) + 1);
  renderBackdrop();
  renderDiagnostics();
  renderMoves();
  const last = state.game ? state.game.moves.length : 0;
  // the move under the cursor while the text is being edited, else the last move read
  // (where the first slip stops the game)
  setPly(document.activeElement === $("record") ? plyAtCaret() : last);
}

function showReading() {
  const el = $("reading");
  const g = state.game;
  if (!g) {
    el.textContent = "";
    return;
  }
  const r = g.reading || {};
  const how = r.inferred ? t("inferred") : t("chosen");
  const kind = t(g.kind);
  if (g.kind === "chess") {
    el.innerHTML = `${escapeHtml(kind)} · ${escapeHtml(t("lang"))}: <b id="reading-lang">${escapeHtml(r.lang_name || "")}</b> (${escapeHtml(r.lang || "")}, ${escapeHtml(how)})`;
  } else {
    el.innerHTML = `${escapeHtml(kind)} · ${escapeHtml(t("notation"))}: <b id="reading-notation">${escapeHtml(r.notation || "")}</b> (${escapeHtml(how)})`;
  }
  // xiangqi records export in their own notation by default
  if (g.kind === "xiangqi" && r.notation && !state.exportTouched) {
    const sel = $("exp-xiangqi");
    if ([...sel.options].some((o) => o.value === r.notation)) sel.value = r.notation;
  }
  if (g.kind === "chess" && r.lang && !state.exportTouched) {
    const sel = $("exp-lang");
    if ([...sel.options].some((o) => o.value === r.lang)) sel.value = r.lang;
  }
}

function renderBackdrop() {
  const text = $("record").value;
  // marks: diagnostics, and the move under the cursor
  const marks = [];
  for (const d of state.diagnostics) {
    if (d.start !== null) marks.push({ start: d.start, end: d.end, cls: d.severity, diag: d.i });
  }
  const cur = state.game && state.ply > 0 ? state.game.moves[state.ply - 1] : null;
  if (cur && !marks.some((m) => m.start === cur.start)) marks.push({ start: cur.start, end: cur.end, cls: "current" });
  marks.sort((a, b) => a.start - b.start);
  let html = "";
  let at = 0;
  for (const m of marks) {
    if (m.start < at) continue;
    html += escapeHtml(text.slice(at, m.start));
    const extra = cur && m.start === cur.start ? " current" : "";
    const data = m.diag !== undefined ? ` data-diag="${m.diag}"` : "";
    html += `<mark class="${m.cls}${extra}"${data}>${escapeHtml(text.slice(m.start, m.end))}</mark>`;
    at = m.end;
  }
  html += escapeHtml(text.slice(at)) + "\n";
  const b = $("backdrop");
  b.innerHTML = html;
  b.scrollTop = $("record").scrollTop;
}

function where(d) {
  const parts = [];
  if (d.line) parts.push(t("at_line", { line: d.line, column: d.column }));
  if (d.move) parts.push(t("at_move", { move: d.move, side: t(d.side) }));
  if (d.game && state.diagnostics.some((x) => x.game !== d.game)) parts.push(t("in_game", { game: d.game }));
  return parts.join(" · ");
}

function candidateButtons(d) {
  const wrap = document.createElement("div");
  wrap.className = "cands";
  if (!d.candidates || d.candidates.length === 0 || d.start === null) return wrap;
  const label = document.createElement("span");
  label.textContent = t("did_you_mean");
  wrap.appendChild(label);
  for (const c of d.candidates) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "cand";
    b.textContent = c;
    b.title = t("replace_with", { old: $("record").value.slice(d.start, d.end), new: c });
    b.addEventListener("click", (e) => {
      e.stopPropagation();
      applyCandidate(d, c);
    });
    wrap.appendChild(b);
  }
  return wrap;
}

function renderDiagnostics() {
  const ul = $("diags");
  ul.innerHTML = "";
  for (const d of state.diagnostics) {
    const li = document.createElement("li");
    li.className = d.severity;
    li.dataset.code = d.code;
    li.tabIndex = 0;
    li.innerHTML = `<span class="sev">${escapeHtml(sev(d.severity))}</span><span class="msg">${escapeHtml(d.message)}</span> <span class="where">${escapeHtml(where(d))}</span>`;
    li.appendChild(candidateButtons(d));
    const go = () => {
      if (d.start !== null) {
        const ta = $("record");
        ta.focus();
        ta.setSelectionRange(d.start, d.end);
        onCaret();
      }
    };
    li.addEventListener("click", go);
    li.addEventListener("keydown", (e) => {
      if (e.key === "Enter") go();
    });
    ul.appendChild(li);
  }
  if (state.diagnostics.length === 0 && $("record").value.trim()) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = t("no_problems");
    ul.appendChild(li);
  }
}

// A click on a candidate: the move is rewritten in the text, then checked again.
function applyCandidate(d, candidate) {
  const ta = $("record");
  const text = ta.value;
  ta.value = text.slice(0, d.start) + candidate + text.slice(d.end);
  const caret = d.start + candidate.length;
  ta.focus();
  ta.setSelectionRange(caret, caret);
  hideCard();
  clearTimeout(state.timer);
  check();
}

// ---- the card: a diagnostic's message, position and candidates ----

function showCard(d, anchor) {
  const card = $("card");
  card.innerHTML = "";
  const msg = document.createElement("div");
  msg.className = "msg";
  msg.textContent = `${sev(d.severity)}: ${d.message}`;
  card.appendChild(msg);
  const w = document.createElement("div");
  w.className = "where";
  w.textContent = where(d);
  card.appendChild(w);
  if (d.fen) {
    const f = document.createElement("div");
    f.className = "fen";
    f.textContent = `${t("position")}: ${d.fen}`;
    card.appendChild(f);
  }
  card.appendChild(candidateButtons(d));
  card.dataset.diag = d.i;
  card.hidden = false;
  const r = anchor.getBoundingClientRect();
  card.style.left = `${window.scrollX + r.left}px`;
  card.style.top = `${window.scrollY + r.bottom + 6}px`;
  for (const m of document.querySelectorAll("#backdrop mark.active")) m.classList.remove("active");
  anchor.classList.add("active");
}

function hideCard() {
  $("card").hidden = true;
  for (const m of document.querySelectorAll("#backdrop mark.active")) m.classList.remove("active");
}

function markOf(i) {
  return document.querySelector(`#backdrop mark[data-diag="${i}"]`);
}

function onCaret() {
  const ta = $("record");
  const pos = ta.selectionStart;
  const d = state.diagnostics.find((x) => x.start !== null && pos >= x.start && pos <= x.end);
  const mark = d ? markOf(d.i) : null;
  if (d && mark) showCard(d, mark);
  else if (!$("card").matches(":hover")) hideCard();
  const ply = plyAtCaret();
  if (ply !== null && ply !== state.ply) setPly(ply);
}

function plyAtCaret() {
  if (!state.game) return null;
  const pos = $("record").selectionStart;
  let ply = 0;
  for (const m of state.game.moves) {
    if (m.start <= pos) ply = m.ply;
    else break;
  }
  return ply;
}

// ---- the board and the move list ----

function renderMoves() {
  const box = $("moves");
  box.innerHTML = "";
  if (!state.game) return;
  for (const m of state.game.moves) {
    if (m.side === "white" || m.ply === 1) {
      const n = document.createElement("span");
      n.className = "num";
      n.textContent = m.side === "white" ? `${m.move}.` : `${m.move}…`;
      box.appendChild(n);
    }
    const s = document.createElement("span");
    s.className = "mv" + (m.illegal ? " illegal" : "");
    s.setAttribute("role", "option");
    s.dataset.ply = m.ply;
    s.textContent = m.written;
    s.title = m.san;
    s.addEventListener("click", () => setPly(m.ply, true));
    box.appendChild(s);
    box.appendChild(document.createTextNode(" "));
  }
  if (state.game.unread) {
    const u = document.createElement("span");
    u.className = "unread";
    u.textContent = `${t("unread")}: ${state.game.unread.trim().slice(0, 200)}`;
    box.appendChild(u);
  }
}

async function setPly(ply, moveCaret) {
  const g = state.game;
  const board = $("board");
  if (!g) {
    state.ply = 0;
    board.innerHTML = "";
    $("nav-at").textContent = "";
    return;
  }
  ply = Math.max(0, Math.min(ply, g.moves.length));
  state.ply = ply;
  for (const s of document.querySelectorAll("#moves .mv")) {
    const on = Number(s.dataset.ply) === ply;
    s.setAttribute("aria-selected", on ? "true" : "false");
    if (on) s.scrollIntoView({ block: "nearest" });
  }
  const m = ply > 0 ? g.moves[ply - 1] : null;
  $("nav-at").textContent = m ? `${m.move}${m.side === "white" ? "." : "…"} ${m.written}` : t("start");
  $("nav-at").dataset.ply = ply;
  if (moveCaret && m) {
    const ta = $("record");
    ta.setSelectionRange(m.start, m.start);
  }
  renderBackdrop();
  const fen = m ? m.fen : g.start_fen;
  const key = `${g.kind}|${fen}|${m ? m.uci : ""}|${state.flipped}`;
  let svg = state.boards.get(key);
  if (!svg) {
    try {
      svg = await api("api/board", { fen, game: g.variant === "chess960" ? "chess960" : g.kind, last: m ? m.uci : null, flipped: state.flipped });
    } catch (e) {
      svg = `<p>${escapeHtml(e.message)}</p>`;
    }
    if (state.boards.size > 500) state.boards.clear();
    state.boards.set(key, svg);
  }
  if (state.ply !== ply) return;
  board.className = `board ${g.kind}`;
  board.innerHTML = svg;
  board.dataset.ply = ply;
}

function onMovesKey(e) {
  const keys = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -2, ArrowDown: 2 };
  if (e.key in keys) setPly(state.ply + keys[e.key], true);
  else if (e.key === "Home") setPly(0, true);
  else if (e.key === "End") setPly(state.game ? state.game.moves.length : 0, true);
  else return;
  e.preventDefault();
}

// ---- files ----

async function readFile(file) {
  const buf = await file.arrayBuffer();
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(buf);
  } catch (e) {
    // not UTF-8: the usual one-byte code page of Western sheets
    text = new TextDecoder("windows-1252").decode(buf);
  }
  return text.replace(/^\uFEFF/, "");
}

async function openFile(file) {
  const text = await readFile(file);
  state.name = file.name || "record";
  $("record").value = text;
  $("game-pick").value = "";
  state.ply = 0;
  clearTimeout(state.timer);
  await check();
}

function dropTarget(el, onFile) {
  el.addEventListener("dragover", (e) => {
    e.preventDefault();
    el.classList.add("drop");
  });
  el.addEventListener("dragleave", () => el.classList.remove("drop"));
  el.addEventListener("drop", (e) => {
    e.preventDefault();
    el.classList.remove("drop");
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (f) onFile(f);
  });
}

// ---- export ----

async function exportRecord() {
  const format = $("exp-format").value;
  const body = {
    ...readOptions(),
    text: $("record").value,
    to: format,
    out_lang: $("exp-lang").value,
    out_notation: $("exp-notation").value,
    out_xiangqi: $("exp-xiangqi").value,
  };
  let res;
  try {
    res = await api("api/convert", body);
  } catch (e) {
    $("exp-out").value = t("error", { message: e.message });
    return;
  }
  $("exp-out").value = res.output;
  const ext = { pgn: "pgn", json: "jsonl", csv: "csv" }[format];
  const mime = { pgn: "application/vnd.chess-pgn", json: "application/x-ndjson", csv: "text/csv" }[format];
  const a = $("exp-link");
  if (a.href) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([res.output], { type: `${mime};charset=utf-8` }));
  const base = state.name.replace(/\.[^.]*$/, "") || "record";
  a.download = `${base}.${ext}`;
  a.click();
}

// ---- compare two sheets ----

async function compareSheets() {
  const out = $("diff-result");
  let res;
  try {
    res = await api("api/diff", {
      a: $("diff-a").value,
      b: $("diff-b").value,
      game: $("opt-game").value,
      lang: $("opt-lang").value,
      notation: $("opt-notation").value,
    });
  } catch (e) {
    out.textContent = t("error", { message: e.message });
    out.className = "diff-result differ";
    return;
  }
  const d = res.divergence;
  let msg;
  if (d.kind === "identical") msg = t("diff_same", { plies: res.agreed });
  else if (d.kind === "prefix") msg = t("diff_prefix", { agreed: res.agreed, a: d.a_plies, b: d.b_plies });
  else if (d.kind === "different") msg = t("diff_different", { agreed: res.agreed, move: d.move, side: t(d.side), a: d.a, b: d.b });
  else msg = t("diff_missing", { agreed: res.agreed, move: d.move, side: t(d.side), in: d.in, other: d.in === "A" ? "B" : "A", moves: d.missing.join(" "), after: d.agree_after });
  out.textContent = msg;
  out.className = "diff-result " + (res.same ? "same" : "differ");
  out.dataset.kind = d.kind;
  for (const [side, list] of [["a", $("diff-moves-a")], ["b", $("diff-moves-b")]]) {
    list.innerHTML = "";
    for (const m of res[side].moves) {
      const li = document.createElement("li");
      li.textContent = m.written;
      li.className = m.ply <= res.agreed ? "agree" : m.ply === res.agreed + 1 ? "part" : "";
      list.appendChild(li);
    }
  }
  $("diff-common").textContent = res.same ? "" : `${res.common_pgn}${res.agreed_fen ? `\n${t("position")}: ${res.agreed_fen}` : ""}`;
}

// ---- start ----

function showTab(which) {
  for (const name of ["check", "diff"]) {
    $(`tab-${name}`).setAttribute("aria-selected", name === which ? "true" : "false");
    $(`view-${name}`).hidden = name !== which;
  }
  hideCard();
}

async function start() {
  let opts = { languages: [], notations: [], page_languages: ["en"] };
  try {
    const r = await fetch("api/options");
    opts = await r.json();
  } catch (e) {
    /* the lists stay empty: auto still works */
  }
  const ui = $("ui-lang");
  for (const l of opts.page_languages) {
    const o = document.createElement("option");
    o.value = l;
    o.textContent = { en: "English", vi: "Tiếng Việt", zh: "中文" }[l] || l;
    ui.appendChild(o);
  }
  const lang = browserLanguage(opts.page_languages);
  ui.value = lang;
  await loadWords(lang);
  ui.addEventListener("change", async () => {
    await loadWords(ui.value);
    if ($("record").value.trim()) check();
  });
  for (const l of opts.languages) {
    for (const sel of [$("opt-lang"), $("exp-lang")]) {
      const o = document.createElement("option");
      o.value = l.code;
      o.textContent = `${l.name} (${l.code})`;
      sel.appendChild(o);
    }
  }
  $("exp-lang").value = "en";
  for (const n of opts.notations) {
    for (const sel of [$("opt-notation"), $("exp-xiangqi")]) {
      if (sel.id === "exp-xiangqi" && n === "iccs") continue;
      const o = document.createElement("option");
      o.value = n;
      o.textContent = n;
      sel.appendChild(o);
    }
  }

  const ta = $("record");
  ta.addEventListener("input", () => {
    renderBackdrop();
    hideCard();
    scheduleCheck();
  });
  ta.addEventListener("scroll", () => {
    $("backdrop").scrollTop = ta.scrollTop;
  });
  for (const ev of ["keyup", "click", "focus"]) ta.addEventListener(ev, onCaret);
  ta.addEventListener("keydown", (e) => {
    if (e.key === "Escape") hideCard();
  });
  // hover: the marks lie below the text area, out of the pointer's reach: found by
  // their boxes
  ta.addEventListener("mousemove", (e) => {
    const inside = (r) => e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
    const mark = [...document.querySelectorAll("#backdrop mark[data-diag]")].find((m) => [...m.getClientRects()].some(inside));
    if (mark) {
      const d = state.diagnostics[Number(mark.dataset.diag)];
      if (d && ($("card").hidden || $("card").dataset.diag !== String(d.i))) showCard(d, mark);
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") hideCard();
  });
  document.addEventListener("click", (e) => {
    if (!$("card").contains(e.target) && e.target !== ta) hideCard();
  });
  for (const id of ["opt-game", "opt-lang", "opt-notation"]) $(id).addEventListener("change", check);
  $("game-pick").addEventListener("change", () => {
    state.ply = 0;
    check();
  });
  $("file-input").addEventListener("change", (e) => {
    const f = e.target.files[0];
    if (f) openFile(f);
  });
  dropTarget($("editor"), openFile);
  dropTarget($("diff-a"), async (f) => ($("diff-a").value = await readFile(f)));
  dropTarget($("diff-b"), async (f) => ($("diff-b").value = await readFile(f)));
  $("load-sample").addEventListener("click", async () => {
    const r = await fetch("sample-slips.pgn");
    state.name = "scoresheet-vi-slips.pgn";
    ta.value = await r.text();
    state.ply = 0;
    check();
  });
  $("moves").addEventListener("keydown", onMovesKey);
  $("nav-first").addEventListener("click", () => setPly(0, true));
  $("nav-prev").addEventListener("click", () => setPly(state.ply - 1, true));
  $("nav-next").addEventListener("click", () => setPly(state.ply + 1, true));
  $("nav-last").addEventListener("click", () => setPly(state.game ? state.game.moves.length : 0, true));
  $("nav-flip").addEventListener("click", () => {
    state.flipped = !state.flipped;
    setPly(state.ply);
  });
  for (const id of ["exp-lang", "exp-notation", "exp-xiangqi"]) $(id).addEventListener("change", () => (state.exportTouched = true));
  $("exp-go").addEventListener("click", exportRecord);
  $("diff-go").addEventListener("click", compareSheets);
  $("tab-check").addEventListener("click", () => showTab("check"));
  $("tab-diff").addEventListener("click", () => showTab("diff"));
  document.body.dataset.ready = "true";
}

start();
