// Chimera web board: the page's logic. The server owns the game (rules, legal moves, search,
// clocks); the page draws what it is sent (board.js draws the board and reads clicks and
// drags), and keeps the status line, an optional move sound, the move list (SAN, clickable, stepped through with
// « ‹ › » and Home/←/→/End; marked ?!, ?, ?? after a review of the whole game), the clocks, the
// analysis and its graph, and the game and settings
// in localStorage across a reload (a page opened with `?variant=` stores nothing).
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
// A page asked for a variant by its address is a fresh board: it neither reads nor writes the
// stored game.
const storing = !params.has("variant") && !params.has("fen");
const STORE = "chimera.board";
let ws = null;
let state = null;
let peekView = null;
let viewTurn = null;
let pieceInfo = {};
let flipped = params.get("flip") === "1";
let picked = [];
let infos = {};
let clockStamp = 0;
let legendOf = "";
let restoring = false;
// A strength kept from the last visit, shown once the options arrive.
let pendingSkill = null;

window.chimera = { get state() { return state; }, get infos() { return infos; }, get peek() { return peekView; } };

function send(msg) {
  if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg));
}

function stored() {
  if (!storing) return null;
  try {
    return JSON.parse(localStorage.getItem(STORE) || "null");
  } catch (e) {
    return null;
  }
}

function save() {
  if (!storing || !state) return;
  const data = {
    variant: state.variant,
    startFen: state.startFen,
    moves: state.history,
    white: state.engine.white ? "engine" : "human",
    black: state.engine.black ? "engine" : "human",
    tcmode: $("tcmode").value,
    movetime: $("movetime").value,
    min: $("min").value,
    sec: $("sec").value,
    inc: $("inc").value,
    analyse: $("analyse").checked,
    sound: $("sound").checked,
    multipv: $("multipv").value,
    skill: $("skill").value,
    flipped,
  };
  try {
    localStorage.setItem(STORE, JSON.stringify(data));
  } catch (e) {
    // A full or forbidden storage only loses the reload.
  }
}

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onopen = () => {
    send({ type: "variants" });
    send({ type: "options" });
    const keep = stored();
    restoring = !!keep;
    if (keep) {
      for (const id of ["tcmode", "movetime", "min", "sec", "inc", "multipv"]) if (keep[id] !== undefined) $(id).value = keep[id];
      $("analyse").checked = !!keep.analyse;
      $("sound").checked = !!keep.sound;
      flipped = !!keep.flipped;
      sendTime();
      send({ type: "new", variant: keep.variant, fen: keep.startFen, moves: keep.moves });
      send({ type: "players", white: keep.white, black: keep.black });
      if (keep.analyse) sendAnalyse();
      if (keep.skill !== undefined) {
        pendingSkill = keep.skill;
        send({ type: "strength", level: Number(keep.skill) });
      }
      return;
    }
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
      const keep = stored();
      const current = state ? state.variant : (keep && keep.variant) || params.get("variant") || "chess";
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
        // The playing strength, one entry per level, the weakest first.
        if (o.name === "Skill Level") {
          const levels = [];
          for (let l = o.min; l <= o.max; l++) levels.push(`<option value="${l}">${l === o.max ? `${l} (full)` : l}</option>`);
          $("skill").innerHTML = levels.join("");
          $("skill").value = pendingSkill !== null ? pendingSkill : o.value;
        }
      }
      break;
    case "state":
      // A new position: the old one's analysis lines go.
      if (state && state.fen !== msg.fen) infos = {};
      if (state && msg.history.length > state.history.length) moveSound(msg.inCheck);
      state = msg;
      pieceInfo = {};
      for (const p of msg.pieces) pieceInfo[p.key] = p;
      picked = [];
      peekView = null;
      viewTurn = null;
      clockStamp = performance.now();
      $("error").textContent = "";
      render();
      save();
      break;
    case "peek":
      if (msg.turn === viewTurn) {
        peekView = msg;
        picked = [];
        render();
      }
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
      // A stored game the server cannot take back (a variant gone, a move now illegal):
      // forget it and start afresh rather than wait for ever.
      if (!state && restoring) {
        restoring = false;
        try {
          localStorage.removeItem(STORE);
        } catch (e) {
          // Nothing stored to forget.
        }
        send({ type: "new", variant: "chess" });
      }
      break;
    case "legend":
      setLegendDiagrams(msg);
      break;
    case "review":
      $("review-summary").textContent = msg.done ? "" : `Reviewing the game: position ${msg.ply + 1} of ${msg.of + 1}…`;
      break;
  }
}

// ---- the page ---------------------------------------------------------------------------

function render() {
  if (!state) return;
  renderBoard();
  renderHands();
  renderStatus();
  renderHistory();
  renderReviewSummary();
  renderGraph();
  renderAnalysis();
  renderControls();
  renderPieces();
}

function setStatus(text, over) {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("over", !!over);
}

// The part of a turn in words: Alice Guard's parts move the home army (with the king) or the
// guard army; elsewhere the men that may move are named by letter.
function partText(part) {
  const army = state.variant === "aliceguard" ? (part.movers.includes("K") ? "home army" : "guard army") : `men ${part.movers.split("").join(" ")}`;
  if (part.opening) return `first turn: ${army}`;
  return `part ${part.n} of ${part.of}: ${army}`;
}

function renderStatus() {
  if (!state) return;
  document.body.dataset.fen = state.fen;
  document.body.dataset.plies = state.history.length;
  if (peekView) {
    const n = peekView.turn;
    setStatus(n === 0 ? "Start position (End: back to the game)" : `After ${state.san[n - 1]} (End: back to the game)`, false);
    return;
  }
  if (state.result) {
    setStatus(`Game over: ${state.result}`, true);
    return;
  }
  const side = state.side === "w" ? "White" : "Black";
  let text = `${side} to move`;
  if (state.part) text += `, ${partText(state.part)}`;
  if (state.inCheck) text += " (check)";
  if (!myTurn()) text += ": the engine is thinking…";
  setStatus(text, false);
}

// The move list in SAN: move numbers and each turn's word, a click shows the board after it.
function renderHistory() {
  const box = $("history");
  const words = state.san || state.history;
  const blackFirst = state.startFen.split(" ")[1] === "b";
  let number = Number(state.startFen.split(" ")[5]) || 1;
  const current = viewTurn === null ? words.length : viewTurn;
  let html = "";
  let white = !blackFirst;
  if (blackFirst && words.length) html += `<span class="num">${number}.</span><span class="mv">…</span>`;
  words.forEach((w, i) => {
    if (white) html += `<span class="num">${number}.</span>`;
    const cls = i + 1 === current ? "mv now" : "mv";
    const mark = (state.marks || [])[i];
    const badge = mark ? `<span class="judge j${mark.length}${mark === "?!" ? "i" : ""}">${mark}</span>` : "";
    html += `<span class="${cls}" data-turn="${i + 1}">${escapeHtml(w)}${badge}</span>`;
    if (!white) number++;
    white = !white;
  });
  box.innerHTML = html;
  const now = box.querySelector(".now");
  if (now && viewTurn !== null) now.scrollIntoView({ block: "nearest" });
  else box.scrollTop = box.scrollHeight;
  if (document.activeElement !== $("fen")) $("fen").value = (peekView || state).fen;
}

// After a review: how many inaccuracies, mistakes and blunders each side made.
function renderReviewSummary() {
  // Shown once every position has a score (a review's, or the searches' along the game).
  const marks = state.marks || [];
  const scored = state.evals.length > 1 && state.evals.every((e) => e !== null);
  if (state.reviewing || !state.marks || !scored) {
    if (!state.reviewing) $("review-summary").textContent = "";
    return;
  }
  const blackFirst = state.startFen.split(" ")[1] === "b";
  const count = (side, m) => marks.filter((x, i) => x === m && ((i % 2 === 0) !== blackFirst) === (side === "w")).length;
  const line = (side) => `${side === "w" ? "White" : "Black"}: ${count(side, "??")} blunders, ${count(side, "?")} mistakes, ${count(side, "?!")} inaccuracies`;
  $("review-summary").textContent = `Review: ${line("w")}; ${line("b")}.`;
}

// Shows the board after `k` turns (the live game from the last one on).
function goTo(k) {
  if (!state) return;
  const total = (state.san || state.history).length;
  k = Math.max(0, Math.min(k, total));
  if (k === total) {
    viewTurn = null;
    peekView = null;
    render();
    return;
  }
  viewTurn = k;
  picked = [];
  hideChoice();
  send({ type: "peek", turn: k });
  renderHistory();
}

function currentTurn() {
  return viewTurn === null ? (state.san || state.history).length : viewTurn;
}

// The graph of White's score by ply, with its axes: pawns up the side (squashed, so that a
// mate stays on the page), move numbers along the bottom.
function renderGraph() {
  const ev = state.evals || [];
  const svg = $("graph");
  const X0 = 24, X1 = 316, MID = 50, H = 42;
  const y = (cp) => MID - H * Math.tanh(cp / 400);
  const n = Math.max(ev.length - 1, 1);
  const x = (i) => X0 + (i / n) * (X1 - X0);
  let out = "";
  for (const p of [-5, -2, 0, 2, 5]) {
    const yy = y(p * 100).toFixed(1);
    out += `<line x1="${X0}" y1="${yy}" x2="${X1}" y2="${yy}" stroke="${p === 0 ? "#999" : "#444"}" stroke-width="${p === 0 ? 1 : 0.5}"/>`;
    out += `<text x="${X0 - 3}" y="${Number(yy) + 3}" text-anchor="end" class="axis">${p > 0 ? "+" + p : p}</text>`;
  }
  out += `<line x1="${X0}" y1="4" x2="${X0}" y2="96" stroke="#999" stroke-width="1"/>`;
  const startMove = Number(state.startFen.split(" ")[5]) || 1;
  const step = Math.max(2, Math.ceil(n / 8 / 2) * 2);
  for (let i = 0; i <= n; i += step) {
    out += `<line x1="${x(i).toFixed(1)}" y1="92" x2="${x(i).toFixed(1)}" y2="96" stroke="#999"/>`;
    out += `<text x="${x(i).toFixed(1)}" y="106" text-anchor="middle" class="axis">${startMove + Math.floor(i / 2)}</text>`;
  }
  let pts = [];
  let lastVal = 0;
  ev.forEach((v, i) => {
    if (v !== null && v !== undefined) lastVal = v;
    pts.push(`${x(i).toFixed(1)},${y(lastVal).toFixed(1)}`);
  });
  if (pts.length > 1) out += `<polyline points="${pts.join(" ")}" fill="none" stroke="#ffd24d" stroke-width="1.5"/>`;
  // The position on show, in a game whose list counts moves (not turns of parts).
  if (viewTurn !== null && !state.parts) {
    out += `<line x1="${x(viewTurn).toFixed(1)}" y1="4" x2="${x(viewTurn).toFixed(1)}" y2="96" stroke="#8fd16a" stroke-width="1"/>`;
  }
  svg.innerHTML = out;
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
      return `${i.multipv}. ${scoreText(i.score, i.side)}  d${i.depth}  ${(i.san || i.pv).slice(0, 10).join(" ")}`;
    });
  $("analysis").textContent = lines.join("\n");
  if (state) renderArrows();
}

function renderControls() {
  $("white").value = state.engine.white ? "engine" : "human";
  $("black").value = state.engine.black ? "engine" : "human";
  $("analyse").checked = !!state.analysing;
  if ($("variant").value !== state.variant) $("variant").value = state.variant;
  const pass = state.moves.some((m) => m.path[0] === "pass");
  $("pass").hidden = !pass;
  $("pass-note").hidden = !pass;
  $("pass-note").textContent = passText();
  $("pass").title = passText();
  renderClocks();
}

// What Pass does, for the button's note: the rules of this variant allow the side to move to
// let its turn go.
function passText() {
  let text = "Pass: the side to move lets its turn go without moving, as the rules of this variant allow.";
  if (state.variant === "vanguard") text += " In Vanguard a pass is the Berserker's step to a neighbouring empty square and back.";
  if (state.family === "janggi") text += " In janggi either side may pass instead of moving.";
  return text;
}

function renderPieces() {
  const mark = state.variant + "|" + state.family;
  if (legendOf === mark) return;
  legendOf = mark;
  send({ type: "legend" });
  const el = $("legend");
  renderLegend(el, state.variant, state.pieces, state.family);
  // Open where the men are not the orthodox six: their moves are news to most players.
  el.open = state.pieces.some((p) => !ORTHODOX_NAMES.includes(p.name));
}

// ---- sound ----------------------------------------------------------------------------

let audio = null;

// A short click for a move (a higher one for check), when the sound box is ticked.
function moveSound(check) {
  if (!$("sound").checked) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = check ? 880 : 520;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.12);
  } catch (e) {
    // No sound where the browser has none.
  }
}

// ---- clocks -----------------------------------------------------------------------------

// Minutes and seconds; tenths under ten seconds.
function fmt(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
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
  const cls = (c, t) => (run === c ? "running" : "") + (t < 10000 ? " low" : "");
  el.innerHTML = `<span id="clock-w" class="${cls("w", w)}">White ${fmt(w)}</span><span id="clock-b" class="${cls("b", b)}">Black ${fmt(b)}</span>`;
}
setInterval(renderClocks, 100);

// The time control: per move in ms, or a clock of minutes + seconds with an increment in
// seconds (the server takes ms; a clock needs a second at least).
function sendTime() {
  const clock = $("tcmode").value === "clock";
  $("tc-clock").hidden = !clock;
  $("tc-movetime").hidden = clock;
  if (clock) {
    const base = Math.round((Number($("min").value) * 60 + Number($("sec").value)) * 1000);
    const inc = Math.round(Number($("inc").value) * 1000);
    if (!(base >= 1000) || !(inc >= 0)) {
      $("error").textContent = "a clock needs at least one second, and an increment of 0 or more";
      return;
    }
    send({ type: "time", base, inc });
  } else {
    send({ type: "time", movetime: Math.round(Number($("movetime").value)) });
  }
  save();
}

// ---- controls -------------------------------------------------------------------------

$("new").onclick = () => send({ type: "new", variant: $("variant").value });
$("variant").onchange = () => send({ type: "new", variant: $("variant").value });
// Who plays whom; a person playing Black alone against the engine sees the board from Black's
// side (and from White's again when playing White).
const sendPlayers = () => {
  const [w, b] = [$("white").value, $("black").value];
  if (w !== b) {
    flipped = w === "engine";
    render();
  }
  send({ type: "players", white: w, black: b });
};
$("white").onchange = sendPlayers;
$("black").onchange = sendPlayers;
$("watch").onclick = () => send({ type: "players", white: "engine", black: "engine" });
["tcmode", "movetime", "min", "sec", "inc"].forEach((id) => ($(id).onchange = sendTime));
$("go").onclick = () => send({ type: "go" });
$("stop").onclick = () => send({ type: "stop" });
$("undo").onclick = () => send({ type: "undo" });
$("pass").onclick = () => click("pass");
$("flip").onclick = () => {
  flipped = !flipped;
  render();
  save();
};
$("setfen").onclick = () => {
  infos = {};
  renderAnalysis();
  send({ type: "fen", variant: state ? state.variant : "chess", fen: $("fen").value });
};
const sendAnalyse = () => send({ type: "analyse", on: $("analyse").checked, multipv: Math.round(Number($("multipv").value)) || 1 });
$("analyse").onchange = sendAnalyse;
$("multipv").onchange = sendAnalyse;
$("sound").onchange = save;
$("skill").onchange = () => {
  send({ type: "strength", level: Number($("skill").value) });
  save();
};
$("review").onclick = () => send({ type: "review" });
$("pgnout").onclick = () => send({ type: "pgn" });
// The PGN box's text as a file.
$("pgnsave").onclick = () => {
  const text = $("pgn").value;
  if (!text) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
  a.download = `${state ? state.variant : "game"}.pgn`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
};
$("pgnin").onclick = () => send({ type: "loadpgn", pgn: $("pgn").value });
$("first").onclick = () => goTo(0);
$("prev").onclick = () => goTo(currentTurn() - 1);
$("next").onclick = () => goTo(currentTurn() + 1);
$("last").onclick = () => goTo(Infinity);
// A click on the graph shows the position at that ply (where the list counts moves).
$("graph").addEventListener("click", (e) => {
  if (!state || state.parts) return;
  const svg = $("graph");
  const pt = svg.createSVGPoint();
  pt.x = e.clientX;
  pt.y = e.clientY;
  const vx = pt.matrixTransform(svg.getScreenCTM().inverse()).x;
  const n = Math.max((state.evals || []).length - 1, 1);
  goTo(Math.round(((vx - 24) / (316 - 24)) * n));
});
$("history").addEventListener("click", (e) => {
  const mv = e.target.closest("[data-turn]");
  if (mv) goTo(Number(mv.dataset.turn));
});
document.addEventListener("keydown", (e) => {
  if (!state || (e.target.closest && e.target.closest("input, textarea, select"))) return;
  const to = { Home: 0, ArrowLeft: currentTurn() - 1, ArrowRight: currentTurn() + 1, End: Infinity }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  goTo(to);
});
window.addEventListener("resize", render);

connect();
