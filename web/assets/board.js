// Chimera web board: the board itself. Draws the boards, the hands and the marks (the last move,
// check, the man picked and where he may go), and turns clicks and drags into the clicks of a
// legal move: a move is a path of clicks (squares; `@X` for a man in hand or in reserve;
// `pass`), each click narrowing the legal moves whose paths start with the clicks so far. A drag
// is the first click where it starts and the next where it is dropped.
"use strict";

// The position on show: the game's, or a past one picked in the move list.
function shown() {
  return peekView || state;
}

// ---- geometry -------------------------------------------------------------------------

function fileLetter(board, file) {
  return String.fromCharCode(97 + board * state.files + file);
}

function squareName(board, file, rank) {
  return fileLetter(board, file) + (rank + 1);
}

// The key of the man on the square named `name` ("" when empty) in the position on show.
function cellAt(name) {
  const idx = name.charCodeAt(0) - 97;
  const rank = Number(name.slice(1)) - 1;
  const b = Math.floor(idx / state.files);
  const row = (shown().cells[b] || [])[rank];
  return row ? row[idx % state.files] || "" : "";
}

function layout() {
  const { files, ranks, boards } = state;
  // Big boards (Vanguard's 16x16) take what the window offers beside the panel.
  // Beside the panel on a wide window; the whole width on a narrow one (the panel goes below).
  const maxW = window.innerWidth < 820 ? window.innerWidth - 40 : Math.max(480, window.innerWidth - 390);
  const unitsW = files * boards + 0.6 * (boards - 1) + 0.5;
  // Room for the status line, the hands above and below the board, and the clocks.
  const handRows = state.hasHand || state.reserve ? 2 : 0;
  // Big boards (Vanguard's 16x16) keep squares large enough to read, and may scroll.
  const big = ranks >= 12;
  const maxH = Math.max(360, window.innerHeight - (big ? 50 : 120) - 48 * handRows);
  const S = Math.floor(Math.max(big ? 44 : 26, Math.min(72, maxW / unitsW, maxH / (ranks + 0.4))));
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
  if (!state || state.result || peekView) return false;
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
    // The man picked, clicked again: put down.
    if (picked.length === 1 && token === picked[0]) {
      picked = [];
      render();
      return;
    }
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

// The men to choose between at the end of a move: a promotion's new man (a shogi man's
// promoted form, `+P`), a gated man, or none (`none` for an empty gate; a shogi man who stays
// unpromoted is drawn as he is).
function showChoice(moves) {
  const box = $("choice");
  const white = state.side === "w";
  box.innerHTML = "";
  for (const m of moves) {
    const b = document.createElement("button");
    b.dataset.choice = m.choice || "";
    b.title = m.text;
    const own = (k) => (white ? k : k.toLowerCase());
    let key = m.choice ? own(m.choice) : null;
    if (!key && state.family === "shogi") key = cellAt(m.path[0]);
    if (key) {
      const info = pieceInfo[key.toUpperCase()];
      b.innerHTML = `<svg viewBox="0 0 100 100" width="44" height="44">${pieceSvg(key, info, state.family)}</svg>`;
      if (!m.choice) b.title += " (stays unpromoted)";
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

function renderBoard() {
  const view = shown();
  const { S, width, height, xy } = layout();
  const svg = $("board");
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const last = new Set(view.lastMove || []);
  const pickedSet = new Set(picked);
  const targets = new Set();
  if (picked.length > 0 && !peekView) {
    for (const m of candidates(picked)) if (m.path.length > picked.length) targets.add(m.path[picked.length]);
  }
  const dragged = drag && drag.moved ? drag.token : null;
  let out = `<defs><radialGradient id="check-glow"><stop offset="0%" stop-color="#ff1a1a" stop-opacity="0.95"/>` +
    `<stop offset="60%" stop-color="#e01010" stop-opacity="0.55"/><stop offset="100%" stop-color="#a00" stop-opacity="0"/></radialGradient>` +
    `<marker id="arrow-head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse">` +
    `<path d="M0 0 L10 5 L0 10 Z" fill="#1f7ae0"/></marker></defs>`;
  for (let b = 0; b < state.boards; b++) {
    // The men and the marks over them, drawn after the board's own lines.
    let top = "";
    for (let r = 0; r < state.ranks; r++) {
      for (let f = 0; f < state.files; f++) {
        const [x, y] = xy(b, f, r);
        const name = squareName(b, f, r);
        const cell = view.cells[b][r][f];
        if (cell === "*") {
          out += `<rect x="${x}" y="${y}" width="${S}" height="${S}" fill="#3a3f42"/>`;
          continue;
        }
        const fill = (f + r) % 2 === 0 ? DARK[b % 3] : LIGHT[b % 3];
        out += `<rect class="sq" data-square="${name}" x="${x}" y="${y}" width="${S}" height="${S}" fill="${fill}"/>`;
        if (last.has(name)) out += `<rect class="mark last" x="${x}" y="${y}" width="${S}" height="${S}" fill="#f6e05e" opacity="0.5"/>`;
        if (pickedSet.has(name)) out += `<rect class="mark" x="${x}" y="${y}" width="${S}" height="${S}" fill="#6fbf4a" opacity="0.6"/>`;
        if (cell) {
          const info = pieceInfo[cell.toUpperCase()];
          const mine = (cell.replace("+", "") === cell.replace("+", "").toUpperCase()) === (view.side === "w");
          if (view.inCheck && info && info.royal && mine) {
            top += `<circle class="mark check" data-check="${name}" cx="${x + S / 2}" cy="${y + S / 2}" r="${S * 0.55}" fill="url(#check-glow)"/>`;
          }
          // In a turn of parts (Alice Guard), the side to move's men who may not move in this
          // part are dimmed: the army that moves stands out.
          const resting = view.part && mine && !view.part.movers.includes(cell.replace("+", "").toUpperCase());
          const faded = dragged === name ? ' opacity="0.35"' : resting ? ' opacity="0.55"' : "";
          top += `<g class="piece" data-man="${cell}"${faded} transform="translate(${x},${y}) scale(${S / 100})">${pieceSvg(cell, info, state.family)}</g>`;
        }
        if (targets.has(name)) {
          const rad = cell ? S * 0.46 : S * 0.16;
          const style = cell ? `fill="none" stroke="#2e7d32" stroke-width="${Math.max(2, S / 14)}"` : `fill="#2e7d32" opacity="0.7"`;
          top += `<circle class="mark target" cx="${x + S / 2}" cy="${y + S / 2}" r="${rad}" ${style}/>`;
        }
      }
    }
    out += boardLines(b, S, xy) + top;
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
  svg.innerHTML = out + '<g id="arrows"></g>';
  renderArrows();
}

// The centre of the square named `name`, in the board's pixels.
function squareCentre(name) {
  const { S, xy } = layout();
  const idx = name.charCodeAt(0) - 97;
  const [x, y] = xy(Math.floor(idx / state.files), idx % state.files, Number(name.slice(1)) - 1);
  return [x + S / 2, y + S / 2];
}

// The analysis's best move as an arrow along its clicks (a drop as a ring on its square).
function renderArrows() {
  const g = $("arrows");
  if (!g) return;
  const best = infos[1];
  if (!state || !state.analysing || peekView || !best || !best.pv.length) {
    g.innerHTML = "";
    return;
  }
  const first = best.pv[0].split(",")[0];
  const mv = state.moves.find((m) => m.text === first || m.text.split(",")[0] === first);
  const squares = mv ? mv.path.filter((t) => /^[a-z]\d+$/.test(t)) : [];
  const S = layout().S;
  if (squares.length === 0) {
    g.innerHTML = "";
    return;
  }
  if (squares.length === 1) {
    const [x, y] = squareCentre(squares[0]);
    g.innerHTML = `<circle class="mark" cx="${x}" cy="${y}" r="${S * 0.4}" fill="none" stroke="#1f7ae0" stroke-width="${S * 0.08}" opacity="0.75"/>`;
    return;
  }
  const pts = squares.map(squareCentre).map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  g.innerHTML = `<polyline class="mark" points="${pts}" fill="none" stroke="#1f7ae0" stroke-width="${(S * 0.13).toFixed(1)}" ` +
    `stroke-linecap="round" stroke-linejoin="round" opacity="0.75" marker-end="url(#arrow-head)"/>`;
}

// Xiangqi's and janggi's board marks on a 9x10 board: the palaces' diagonals (through the
// middle of their squares) and, in xiangqi, the river between the fifth and sixth ranks.
function boardLines(b, S, xy) {
  if (!["xiangqi", "janggi"].includes(state.family) || state.files !== 9 || state.ranks !== 10) return "";
  const c = (f, r) => {
    const [x, y] = xy(b, f, r);
    return [x + S / 2, y + S / 2];
  };
  const line = ([x1, y1], [x2, y2]) =>
    `<line class="mark" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#5b3a1a" stroke-width="1.5" opacity="0.7"/>`;
  let out = "";
  for (const r0 of [0, 7]) {
    out += line(c(3, r0), c(5, r0 + 2)) + line(c(5, r0), c(3, r0 + 2));
  }
  if (state.family === "xiangqi") {
    const [x0, y4] = xy(b, flipped ? 8 : 0, 4);
    const yRiver = flipped ? y4 + S : y4;
    out += `<rect class="mark" x="${x0}" y="${yRiver - 2}" width="${9 * S}" height="4" fill="#3d7fb8" opacity="0.6"/>`;
  }
  return out;
}

function renderHands() {
  const bottom = flipped ? "b" : "w";
  const top = flipped ? "w" : "b";
  renderHand($("hand-bottom"), bottom);
  renderHand($("hand-top"), top);
}

// Pioneer's reserve field (`{M@g m?}`) in words: each side's waiting man and his file.
function reserveText(field) {
  const words = String(field).replace(/[{}]/g, "").trim().split(/\s+/).filter(Boolean);
  return words
    .map((w) => {
      const m = /^([A-Za-z])(?:@([a-z]+)|\?)?$/.exec(w);
      if (!m) return w;
      const white = m[1] === m[1].toUpperCase();
      const info = pieceInfo[m[1].toUpperCase()];
      const name = info ? pieceName(state.variant, info) : m[1];
      const where = m[2] ? `waits behind file ${m[2]}` : "file not chosen yet";
      return `${white ? "White" : "Black"}'s ${name} (${m[1].toUpperCase()}): ${where}`;
    })
    .join("; ");
}

function renderHand(el, color) {
  const view = shown();
  const hand = view.hands[color] || {};
  const tokens = Object.entries(hand).map(([letter, count]) => ({ letter, count }));
  // Reserve men (Pioneer) and anything else entered from off the board, for the side to move.
  if (view.side === color && !peekView) {
    for (const m of state.moves) {
      const t = m.path[0];
      if (t.startsWith("@") && !tokens.some((k) => k.letter === t.slice(1))) tokens.push({ letter: t.slice(1), count: 0 });
    }
  }
  let html = "";
  const label = color === "w" ? "White" : "Black";
  if (state.hasHand || tokens.length > 0) html += `<span class="label">${label} hand</span>`;
  if (view.reserve && color === "w") html += `<span class="label reserve">Reserve: ${escapeHtml(reserveText(view.reserve))}</span>`;
  for (const t of tokens) {
    const letter = color === "w" ? t.letter : t.letter.toLowerCase();
    const token = "@" + t.letter;
    const pickedCls = picked[0] === token && state.side === color ? " picked" : "";
    html += `<div class="token${pickedCls}" data-token="${token}" data-color="${color}" title="${t.letter}">` +
      `<svg viewBox="0 0 100 100" width="40" height="40">${pieceSvg(letter, pieceInfo[t.letter], state.family)}</svg>` +
      (t.count > 1 ? `<span class="count">${t.count}</span>` : "") + "</div>";
  }
  el.innerHTML = html;
  el.querySelectorAll(".token").forEach((node) => {
    node.onclick = () => {
      if (suppressClick) return;
      if (node.dataset.color === state.side) click(node.dataset.token);
    };
    node.onpointerdown = (e) => {
      if (node.dataset.color === state.side) dragStart(e, node.dataset.token, node.querySelector("svg").innerHTML);
    };
  });
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
}

// ---- dragging -------------------------------------------------------------------------

let drag = null;
let suppressClick = false;

// A press on a man of the side to move (a square or a hand token): a drag may start.
function dragStart(e, token, markup) {
  if (!myTurn() || e.button !== 0) return;
  // A press on a square the man picked may go to is a click, not a new drag.
  if (picked.length > 0 && token !== picked[0] && candidates(picked.concat([token])).length > 0) return;
  if (candidates([token]).length === 0) return;
  drag = { token, x0: e.clientX, y0: e.clientY, moved: false, markup };
  e.preventDefault();
}

window.addEventListener("pointermove", (e) => {
  if (!drag) return;
  if (!drag.moved) {
    if (Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < 6) return;
    drag.moved = true;
    picked = [drag.token];
    hideChoice();
    const ghost = document.createElement("div");
    ghost.id = "drag-ghost";
    const size = layout().S;
    ghost.style.width = ghost.style.height = `${size}px`;
    ghost.innerHTML = `<svg viewBox="0 0 100 100" width="${size}" height="${size}">${drag.markup}</svg>`;
    document.body.appendChild(ghost);
    render();
  }
  const ghost = $("drag-ghost");
  if (ghost) {
    ghost.style.left = `${e.clientX - ghost.offsetWidth / 2}px`;
    ghost.style.top = `${e.clientY - ghost.offsetHeight / 2}px`;
  }
});

window.addEventListener("pointerup", (e) => {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (!d.moved) return;
  const ghost = $("drag-ghost");
  if (ghost) ghost.remove();
  suppressClick = true;
  setTimeout(() => (suppressClick = false), 0);
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const sq = under && under.closest("[data-square]");
  if (sq && sq.dataset.square !== d.token && picked.length === 1 && picked[0] === d.token) click(sq.dataset.square);
  else render();
});

$("board").addEventListener("pointerdown", (e) => {
  const sq = e.target.closest("[data-square]");
  if (!sq || peekView) return;
  const cell = cellAt(sq.dataset.square);
  if (cell) dragStart(e, sq.dataset.square, pieceSvg(cell, pieceInfo[cell.toUpperCase()], state.family));
});

$("board").addEventListener("click", (e) => {
  if (suppressClick) return;
  const sq = e.target.closest("[data-square]");
  if (sq) click(sq.dataset.square);
});
