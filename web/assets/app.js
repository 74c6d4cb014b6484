// Chimera web board: the page's logic. The server owns the game (rules, legal moves, search);
// the page draws what it is sent and turns clicks into the text of one of the legal moves.
// A move is a path of clicks (squares; `@X` for a man in hand or in reserve; `pass`), entered
// click by click: each click narrows the legal moves whose paths start with the clicks so far.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let ws = null;
let state = null;
let pieceInfo = {};
let flipped = params.get("flip") === "1";
let picked = [];
let infos = {};
let clockStamp = 0;

window.chimera = { get state() { return state; }, get infos() { return infos; } };

function send(msg) {
  if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg));
}

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = () => {
    send({ type: "variants" });
    send({ type: "options" });
    const msg = { type: "new", variant: params.get("variant") || "chess" };
    if (params.get("fen")) msg.fen = params.get("fen");
    send(msg);
    const ms = Number(params.get("movetime"));
    if (ms > 0) {
      $("movetime").value = ms;
      send({ type: "time", movetime: ms });
    }
  };
  ws.onmessage = (e) => handle(JSON.parse(e.data));
  ws.onclose = () => setStatus("disconnected: reload the page", true);
}

function handle(msg) {
  switch (msg.type) {
    case "variants": {
      const sel = $("variant");
      const current = state ? state.variant : params.get("variant") || "chess";
      sel.innerHTML = msg.list
        .map((v) => {
          const size = `${v.files * v.boards}x${v.ranks}` + (v.boards > 1 ? `, ${v.boards} boards` : "");
          return `<option value="${v.name}">${v.name} (${size})</option>`;
        })
        .join("");
      sel.value = current;
      break;
    }
    case "options":
      // The engine options the board offers, with their ranges from the server's options
      // table: the analysis lines are the option MultiPV.
      for (const o of msg.list) {
        if (o.name === "MultiPV") {
          $("multipv").min = o.min;
          $("multipv").max = o.max;
        }
      }
      break;
    case "state":
      state = msg;
      pieceInfo = {};
      for (const p of msg.pieces) pieceInfo[p.letter.toUpperCase()] = p;
      picked = [];
      clockStamp = performance.now();
      $("error").textContent = "";
      render();
      break;
    case "info":
      infos[msg.multipv] = msg;
      renderAnalysis();
      break;
    case "thinking":
      // The last search's lines stay up until the next search starts.
      infos = {};
      renderAnalysis();
      if (state) state.thinking = msg.purpose;
      renderStatus();
      break;
    case "fen":
      $("fen").value = msg.fen;
      break;
    case "pgn":
      $("pgn").value = msg.pgn;
      break;
    case "error":
      $("error").textContent = msg.message;
      break;
  }
}

// ---- geometry -------------------------------------------------------------------------

function fileLetter(board, file) {
  return String.fromCharCode(97 + board * state.files + file);
}

function squareName(board, file, rank) {
  return fileLetter(board, file) + (rank + 1);
}

function layout() {
  const { files, ranks, boards } = state;
  const maxW = Math.max(480, Math.min(window.innerWidth - 380, 1100));
  const unitsW = files * boards + 0.6 * (boards - 1) + 1;
  // Room for the status line and the hands above and below the board.
  const handRows = state.hasHand || state.reserve ? 2 : 0;
  const maxH = Math.max(360, window.innerHeight - 70 - 50 * handRows);
  const S = Math.floor(Math.max(24, Math.min(64, maxW / unitsW, maxH / (ranks + 0.5))));
  const G = Math.round(S * 0.6);
  const L = 18;
  const width = L + boards * files * S + (boards - 1) * G;
  const height = ranks * S + 18;
  const xy = (b, f, r) => {
    const bi = flipped ? boards - 1 - b : b;
    const col = flipped ? files - 1 - f : f;
    const row = flipped ? r : ranks - 1 - r;
    return [L + bi * (files * S + G) + col * S, row * S];
  };
  return { S, G, L, width, height, xy };
}

// ---- the moves the clicks so far lead to -------------------------------------------------

function myTurn() {
  if (!state || state.result) return false;
  const engine = state.side === "w" ? state.engine.white : state.engine.black;
  return !engine;
}

function startsWith(path, prefix) {
  return prefix.every((p, i) => path[i] === p);
}

function candidates(prefix) {
  return state.moves.filter((m) => m.path.length >= prefix.length && startsWith(m.path, prefix));
}

function click(token) {
  if (!myTurn()) return;
  hideChoice();
  if (picked.length > 0) {
    const exact = candidates(picked).filter((m) => m.path.length === picked.length);
    // Clicking the last square again stops a multi-leg move there.
    if (token === picked[picked.length - 1] && exact.length > 0 && picked.length > 1) {
      finish(picked);
      return;
    }
    const next = picked.concat([token]);
    const c = candidates(next);
    if (c.length > 0) {
      picked = next;
      if (c.every((m) => m.path.length === next.length)) finish(next);
      else render();
      return;
    }
    picked = [];
  }
  if (candidates([token]).length > 0) {
    picked = [token];
    const c = candidates(picked);
    if (c.every((m) => m.path.length === 1)) finish(picked);
    else render();
  } else {
    render();
  }
}

function finish(path) {
  const exact = state.moves.filter((m) => m.path.length === path.length && startsWith(m.path, path));
  if (exact.length === 1) {
    play(exact[0].text);
  } else if (exact.length > 1) {
    showChoice(exact);
  }
}

function play(text) {
  picked = [];
  send({ type: "move", move: text });
}

function showChoice(moves) {
  const box = $("choice");
  const white = state.side === "w";
  box.innerHTML = "";
  for (const m of moves) {
    const b = document.createElement("button");
    b.dataset.choice = m.choice || "";
    b.title = m.text;
    if (m.choice) {
      const letter = white ? m.choice : m.choice.toLowerCase();
      b.innerHTML = `<svg viewBox="0 0 100 100" width="44" height="44">${pieceSvg(letter, pieceInfo[m.choice])}</svg>`;
    } else {
      b.textContent = "none";
    }
    b.onclick = () => {
      hideChoice();
      play(m.text);
    };
    box.appendChild(b);
  }
  box.hidden = false;
  render();
}

function hideChoice() {
  $("choice").hidden = true;
}

// ---- drawing --------------------------------------------------------------------------

const LIGHT = ["#eed9b6", "#d8e2ec", "#dde8cf"];
const DARK = ["#b48762", "#8ba0b6", "#93ab7e"];

function render() {
  if (!state) return;
  renderBoard();
  renderHands();
  renderStatus();
  renderHistory();
  renderGraph();
  renderAnalysis();
  renderControls();
}

function renderBoard() {
  const { S, width, height, xy } = layout();
  const svg = $("board");
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const last = new Set(state.lastMove || []);
  const pickedSet = new Set(picked);
  const targets = new Set();
  if (picked.length > 0) {
    for (const m of candidates(picked)) if (m.path.length > picked.length) targets.add(m.path[picked.length]);
  }
  let out = "";
  for (let b = 0; b < state.boards; b++) {
    for (let r = 0; r < state.ranks; r++) {
      for (let f = 0; f < state.files; f++) {
        const [x, y] = xy(b, f, r);
        const name = squareName(b, f, r);
        const cell = state.cells[b][r][f];
        if (cell === "*") {
          out += `<rect x="${x}" y="${y}" width="${S}" height="${S}" fill="#3a3f42"/>`;
          continue;
        }
        const fill = (f + r) % 2 === 0 ? DARK[b % 3] : LIGHT[b % 3];
        out += `<rect class="sq" data-square="${name}" x="${x}" y="${y}" width="${S}" height="${S}" fill="${fill}"/>`;
        if (last.has(name)) out += `<rect class="mark" x="${x}" y="${y}" width="${S}" height="${S}" fill="#f6e05e" opacity="0.45"/>`;
        if (pickedSet.has(name)) out += `<rect class="mark" x="${x}" y="${y}" width="${S}" height="${S}" fill="#6fbf4a" opacity="0.6"/>`;
        if (cell) {
          out += `<g class="piece" data-man="${cell}" transform="translate(${x},${y}) scale(${S / 100})">${pieceSvg(cell, pieceInfo[cell.toUpperCase()])}</g>`;
        }
        if (targets.has(name)) {
          const rad = cell ? S * 0.46 : S * 0.16;
          const style = cell ? `fill="none" stroke="#2e7d32" stroke-width="${Math.max(2, S / 14)}"` : `fill="#2e7d32" opacity="0.7"`;
          out += `<circle class="mark" cx="${x + S / 2}" cy="${y + S / 2}" r="${rad}" ${style}/>`;
        }
      }
    }
    // Coordinates as docs/protocols.md §2 names them: one wide board, files a.. across all boards.
    for (let f = 0; f < state.files; f++) {
      const [x] = xy(b, f, 0);
      out += `<text class="coord" x="${x + S / 2}" y="${state.ranks * S + 13}" text-anchor="middle">${fileLetter(b, f)}</text>`;
    }
    for (let r = 0; r < state.ranks; r++) {
      // Rank numbers left of the leftmost board only.
      const [x, y] = xy(b, flipped ? state.files - 1 : 0, r);
      if (b === (flipped ? state.boards - 1 : 0)) {
        out += `<text class="coord" x="${x - 10}" y="${y + S / 2 + 4}" text-anchor="middle">${r + 1}</text>`;
      }
    }
  }
  svg.innerHTML = out;
}

function renderHands() {
  const bottom = flipped ? "b" : "w";
  const top = flipped ? "w" : "b";
  renderHand($("hand-bottom"), bottom);
  renderHand($("hand-top"), top);
}

function renderHand(el, color) {
  const hand = state.hands[color] || {};
  const tokens = Object.entries(hand).map(([letter, count]) => ({ letter, count }));
  // Reserve men (Pioneer) and anything else entered from off the board, for the side to move.
  if (state.side === color) {
    for (const m of state.moves) {
      const t = m.path[0];
      if (t.startsWith("@") && !tokens.some((k) => k.letter === t.slice(1))) tokens.push({ letter: t.slice(1), count: 0 });
    }
  }
  let html = "";
  const label = color === "w" ? "White" : "Black";
  if (state.hasHand || tokens.length > 0) html += `<span class="label">${label} hand</span>`;
  if (state.reserve && color === "w") html += `<span class="label">reserve ${escapeHtml(state.reserve)}</span>`;
  for (const t of tokens) {
    const letter = color === "w" ? t.letter : t.letter.toLowerCase();
    const token = "@" + t.letter;
    const pickedCls = picked[0] === token && state.side === color ? " picked" : "";
    html += `<div class="token${pickedCls}" data-token="${token}" data-color="${color}" title="${t.letter}">` +
      `<svg viewBox="0 0 100 100" width="40" height="40">${pieceSvg(letter, pieceInfo[t.letter])}</svg>` +
      (t.count > 1 ? `<span class="count">${t.count}</span>` : "") + "</div>";
  }
  el.innerHTML = html;
  el.querySelectorAll(".token").forEach((node) => {
    node.onclick = () => {
      if (node.dataset.color === state.side) click(node.dataset.token);
    };
  });
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
}

function setStatus(text, over) {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("over", !!over);
}

function renderStatus() {
  if (!state) return;
  document.body.dataset.fen = state.fen;
  document.body.dataset.plies = state.history.length;
  if (state.result) {
    setStatus(`Game over: ${state.result}`, true);
    return;
  }
  const side = state.side === "w" ? "White" : "Black";
  let text = `${side} to move`;
  if (state.parts) text += `, part ${state.phase + 1} of the turn`;
  if (state.inCheck) text += " (check)";
  if (!myTurn()) text += ": the engine is thinking…";
  setStatus(text, false);
}

function renderHistory() {
  const ol = $("history");
  ol.innerHTML = "";
  const h = state.history;
  const blackFirst = state.startFen.split(" ")[1] === "b";
  const words = blackFirst ? ["…"].concat(h) : h.slice();
  for (let i = 0; i < words.length; i += 2) {
    const li = document.createElement("li");
    li.textContent = words[i] + (words[i + 1] ? "  " + words[i + 1] : "");
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
  if (document.activeElement !== $("fen")) $("fen").value = state.fen;
}

function renderGraph() {
  const ev = state.evals || [];
  const svg = $("graph");
  let pts = [];
  let lastVal = 0;
  const n = Math.max(ev.length - 1, 1);
  ev.forEach((v, i) => {
    if (v !== null && v !== undefined) lastVal = v;
    const y = 40 - 36 * Math.tanh(lastVal / 400);
    pts.push(`${((i / n) * 300).toFixed(1)},${y.toFixed(1)}`);
  });
  svg.innerHTML = `<line x1="0" y1="40" x2="300" y2="40" stroke="#777" stroke-width="0.5"/>` +
    (pts.length > 1 ? `<polyline points="${pts.join(" ")}" fill="none" stroke="#ffd24d" stroke-width="1.5"/>` : "");
}

function scoreText(score, side) {
  // Mates as White sees them too: #3 White mates, #-3 Black mates.
  if (score.mate !== undefined) return `#${side === "w" ? score.mate : -score.mate}`;
  // Shown from White's side, in pawns.
  const cp = side === "w" ? score.cp : -score.cp;
  return (cp >= 0 ? "+" : "") + (cp / 100).toFixed(2);
}

function renderAnalysis() {
  const lines = Object.keys(infos)
    .sort((a, b) => a - b)
    .map((k) => {
      const i = infos[k];
      return `${i.multipv}. ${scoreText(i.score, i.side)}  d${i.depth}  ${i.pv.slice(0, 10).join(" ")}`;
    });
  $("analysis").textContent = lines.join("\n");
}

function renderControls() {
  $("white").value = state.engine.white ? "engine" : "human";
  $("black").value = state.engine.black ? "engine" : "human";
  if ($("variant").value !== state.variant) $("variant").value = state.variant;
  $("pass").hidden = !state.moves.some((m) => m.path[0] === "pass");
  renderClocks();
}

function fmt(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function renderClocks() {
  const el = $("clocks");
  if (!state || !state.clocks) {
    el.innerHTML = "";
    return;
  }
  const run = state.result ? null : state.side;
  const spent = performance.now() - clockStamp;
  const w = state.clocks[0] - (run === "w" ? spent : 0);
  const b = state.clocks[1] - (run === "b" ? spent : 0);
  el.innerHTML = `<span class="${run === "w" ? "running" : ""}">White ${fmt(w)}</span><span class="${run === "b" ? "running" : ""}">Black ${fmt(b)}</span>`;
}
setInterval(renderClocks, 250);

// ---- controls -------------------------------------------------------------------------

$("board").addEventListener("click", (e) => {
  const sq = e.target.closest("[data-square]");
  if (sq) click(sq.dataset.square);
});
$("new").onclick = () => send({ type: "new", variant: $("variant").value });
$("variant").onchange = () => send({ type: "new", variant: $("variant").value });
const sendPlayers = () => send({ type: "players", white: $("white").value, black: $("black").value });
$("white").onchange = sendPlayers;
$("black").onchange = sendPlayers;
$("watch").onclick = () => send({ type: "players", white: "engine", black: "engine" });
function sendTime() {
  const clock = $("tcmode").value === "clock";
  $("tc-clock").hidden = !clock;
  $("tc-movetime").hidden = clock;
  if (clock) send({ type: "time", base: Math.round(Number($("base").value) * 60000), inc: Math.round(Number($("inc").value) * 1000) });
  else send({ type: "time", movetime: Math.round(Number($("movetime").value)) });
}
["tcmode", "movetime", "base", "inc"].forEach((id) => ($(id).onchange = sendTime));
$("go").onclick = () => send({ type: "go" });
$("stop").onclick = () => send({ type: "stop" });
$("undo").onclick = () => send({ type: "undo" });
$("pass").onclick = () => click("pass");
$("flip").onclick = () => {
  flipped = !flipped;
  render();
};
$("setfen").onclick = () => send({ type: "fen", variant: state ? state.variant : "chess", fen: $("fen").value });
const sendAnalyse = () => send({ type: "analyse", on: $("analyse").checked, multipv: Math.round(Number($("multipv").value)) || 1 });
$("analyse").onchange = sendAnalyse;
$("multipv").onchange = sendAnalyse;
$("pgnout").onclick = () => send({ type: "pgn" });
$("pgnin").onclick = () => send({ type: "loadpgn", pgn: $("pgn").value });
window.addEventListener("resize", render);

connect();
