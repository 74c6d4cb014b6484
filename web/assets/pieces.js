// Chimera web board: the piece drawings. A man is named by his key: his FEN letter (case =
// colour), after a `+` for a promoted type (`+P`, a tokin). The orthodox six are simple
// silhouettes; shogi men are pentagons pointing at the enemy, with their letter (promoted men in
// red, with their `+`); xiangqi men are discs and janggi men octagons with their characters
// (their letters where the browser has no CJK font); makruk's khon, met and bia have shapes of
// their own; any other built-in piece is a disc whose emblem draws its plain moves
// (lines for slides, dots for leaps) around its letter; a custom piece of a loaded variant file
// is drawn as its letter. `moveDiagram` draws a piece's moves on a small board (the legend).
"use strict";

const ORTHODOX_BETZA = { K: "king", Q: "queen", R: "rook", B: "bishop", N: "knight" };
const ORTHODOX_NAMES = ["pawn", "knight", "bishop", "rook", "queen", "king"];

// Which drawing a piece gets: a shogi pentagon (in the shogi family), an orthodox shape (with
// `guard` when it only moves like one), a move-pattern token, or its letter.
function pieceKind(info, family) {
  if (family === "shogi") return { shape: "shogi" };
  if (!info) return { shape: "letter" };
  if (ORTHODOX_NAMES.includes(info.name)) return { shape: info.name };
  // A custom piece of a loaded file has no drawing of its own; Fairy-Stockfish's named
  // pieces (archbishop, ...) are built-in types wherever they are used.
  if (!info.builtin && /^customPiece/.test(info.name)) return { shape: "letter" };
  const b = info.betza;
  if (ORTHODOX_BETZA[b]) return { shape: ORTHODOX_BETZA[b], guard: true };
  if (/^fmW.*fcF/.test(b)) return { shape: "pawn", guard: b !== "fmWfcFifmnD" ? false : true };
  return { shape: "token" };
}

const SHAPES = {
  pawn: '<circle cx="50" cy="32" r="13"/><path d="M34 80 Q38 52 50 44 Q62 52 66 80 Z"/>',
  rook: '<path d="M30 20 h9 v8 h7 v-8 h8 v8 h7 v-8 h9 v18 h-40 Z"/><path d="M35 38 h30 l3 42 h-36 Z"/>',
  bishop: '<circle cx="50" cy="16" r="6"/><path d="M37 80 Q28 52 50 24 Q72 52 63 80 Z"/><path class="detail" d="M44 46 L58 36" fill="none"/>',
  knight: '<path d="M32 82 L32 68 Q34 54 46 48 L36 52 Q26 52 26 44 L46 24 L50 14 L56 22 Q76 30 72 58 L70 82 Z"/><circle class="detail" cx="42" cy="34" r="2.5"/>',
  queen: '<circle cx="22" cy="30" r="5"/><circle cx="50" cy="20" r="5"/><circle cx="78" cy="30" r="5"/><path d="M32 80 L22 34 L38 56 L50 26 L62 56 L78 34 L68 80 Z"/>',
  king: '<path d="M46 10 h8 v8 h8 v8 h-8 v14 h-8 v-14 h-8 v-8 h8 Z"/><path d="M34 80 Q20 50 50 44 Q80 50 66 80 Z"/>',
};

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
}

// A key's parts: colour, promoted or not, and the upper-case letter.
function keyParts(key) {
  const promoted = key.startsWith("+");
  const letter = promoted ? key.slice(1) : key;
  return { white: letter === letter.toUpperCase(), promoted, up: letter.toUpperCase() };
}

// A shogi man: a pentagon pointing at the enemy (up for White, down for Black), his letter
// upright on it; a promoted man's `+X` in red.
function shogiSvg(key, info) {
  const { white, promoted, up } = keyParts(key);
  const points = "50,7 79,19 88,93 12,93 21,19";
  const turn = white ? "" : ' transform="rotate(180 50 50)"';
  let s = `<polygon points="${points}"${turn} fill="#f1d594" stroke="#6b4b14" stroke-width="3" stroke-linejoin="round"/>`;
  const text = promoted ? "+" + up : up;
  const size = text.length > 1 ? 34 : 44;
  const y = white ? 70 : 62;
  s += `<text x="50" y="${y}" text-anchor="middle" font-size="${size}" font-family="sans-serif" font-weight="bold" fill="${promoted ? "#c0141c" : "#1a1a1a"}">${esc(text)}</text>`;
  return s;
}

// Xiangqi's and janggi's characters by piece name: [White's, Black's]. White is Red in
// xiangqi, Cho (blue) in janggi.
const HANZI = {
  xiangqi: {
    king: ["帥", "將"], fers: ["仕", "士"], elephant: ["相", "象"], horse: ["傌", "馬"],
    rook: ["俥", "車"], cannon: ["炮", "砲"], soldier: ["兵", "卒"], banner: ["旗", "旗"],
  },
  janggi: {
    king: ["楚", "漢"], wazir: ["士", "士"], janggiElephant: ["象", "象"], horse: ["馬", "馬"],
    rook: ["車", "車"], janggiCannon: ["包", "包"], soldier: ["卒", "兵"],
  },
};
const SIDE_COLOURS = { xiangqi: ["#c62828", "#1f1f1f"], janggi: ["#1e5fa8", "#c62828"] };

// True when the browser draws CJK characters (a missing glyph is as wide as any other).
let cjkKnown = null;
function hasCjk() {
  if (cjkKnown === null) {
    const ctx = document.createElement("canvas").getContext("2d");
    ctx.font = "40px sans-serif";
    cjkKnown = ctx.measureText("帥").width !== ctx.measureText("\uE000").width;
  }
  return cjkKnown;
}

// A xiangqi man (a disc) or a janggi man (an octagon, smaller for lesser men) with his
// character in his side's colour.
function hanziSvg(key, info, family) {
  const { white, up } = keyParts(key);
  const colour = SIDE_COLOURS[family][white ? 0 : 1];
  const chars = info && HANZI[family][info.name];
  const useChar = chars && hasCjk();
  const text = useChar ? chars[white ? 0 : 1] : up;
  let s;
  if (family === "janggi") {
    const scale = info && info.royal ? 1 : ["soldier", "wazir"].includes(info && info.name) ? 0.74 : 0.88;
    const r = 46 * scale;
    const pts = [];
    for (let i = 0; i < 8; i++) {
      const a = Math.PI / 8 + (i * Math.PI) / 4;
      pts.push(`${(50 + r * Math.cos(a)).toFixed(1)},${(50 + r * Math.sin(a)).toFixed(1)}`);
    }
    s = `<polygon points="${pts.join(" ")}" fill="#f3e2bd" stroke="#6b4b14" stroke-width="3"/>`;
    s += `<text x="50" y="${50 + 16 * scale}" text-anchor="middle" font-size="${(useChar ? 46 : 40) * scale}" font-weight="bold" font-family="serif" fill="${colour}">${esc(text)}</text>`;
    return s;
  }
  s = `<circle cx="50" cy="50" r="45" fill="#f3e2bd" stroke="#6b4b14" stroke-width="3"/>`;
  s += `<circle cx="50" cy="50" r="37" fill="none" stroke="${colour}" stroke-width="2.5"/>`;
  s += `<text x="50" y="66" text-anchor="middle" font-size="${useChar ? 44 : 40}" font-weight="bold" font-family="serif" fill="${colour}">${esc(text)}</text>`;
  return s;
}

// Makruk's own men: the khon (silver, a spire), the met (fers, a small cone) and the bia (pawn,
// a cowrie shell); king, horse and boat keep the orthodox shapes.
const MAKRUK_SHAPES = {
  silver: '<path d="M50 12 L60 30 L56 34 L64 50 L58 54 L66 80 L34 80 L42 54 L36 50 L44 34 L40 30 Z"/>',
  fers: '<circle cx="50" cy="30" r="8"/><path d="M36 80 Q36 52 50 40 Q64 52 64 80 Z"/>',
  pawn: '<ellipse cx="50" cy="62" rx="20" ry="16"/><path class="detail" d="M50 48 L50 76" fill="none"/>',
};

// The SVG (a 100x100 group's content) of a man: `key` his key, `info` his piece description
// from the server, `family` the variant's piece set (`western`, `shogi`, `xiangqi`, `janggi`,
// `makruk`).
function pieceSvg(key, info, family) {
  if (family === "shogi") return shogiSvg(key, info);
  if (family === "xiangqi" || family === "janggi") return hanziSvg(key, info, family);
  const { white, promoted, up } = keyParts(key);
  const fill = white ? "#fbfbf6" : "#262626";
  const line = white ? "#1a1a1a" : "#0a0a0a";
  const detail = white ? "#1a1a1a" : "#f0f0f0";
  const kind = pieceKind(info, family);
  const label = (promoted ? "+" : "") + up;
  const makruk = family === "makruk" && info && MAKRUK_SHAPES[info.name];
  if (makruk || SHAPES[kind.shape]) {
    let s = `<g fill="${fill}" stroke="${line}" stroke-width="3" stroke-linejoin="round">`;
    if (kind.guard) {
      s += `<circle cx="50" cy="52" r="44" fill="none" stroke="${white ? "#2a6fb0" : "#b03a2a"}" stroke-width="5"/>`;
    }
    s += (makruk || SHAPES[kind.shape]).replace(/class="detail"/g, `stroke="${detail}" fill="${detail}"`);
    s += '<rect x="26" y="80" width="48" height="9" rx="3"/></g>';
    return s;
  }
  if (kind.shape === "token") {
    let s = `<circle cx="50" cy="50" r="46" fill="${fill}" stroke="${line}" stroke-width="3"/>`;
    s += `<g stroke="${detail}" fill="${detail}" stroke-width="3.5" opacity="0.7">`;
    // Black's moves are White's mirrored: forward is down the screen for Black.
    const dir = white ? -1 : 1;
    for (const [dx, dy, range] of info.slides || []) {
      const len = Math.hypot(dx, dy) || 1;
      const reach = range > 0 ? Math.min(42, 27 + 6 * range * len) : 42;
      const x = 50 + (dx / len) * reach;
      const y = 50 + dir * (dy / len) * reach;
      s += `<line x1="50" y1="50" x2="${x.toFixed(1)}" y2="${y.toFixed(1)}"/>`;
    }
    for (const [dx, dy] of info.leaps || []) {
      const d = Math.max(Math.abs(dx), Math.abs(dy)) || 1;
      const r = Math.min(40, 28 + 4 * d) / d;
      s += `<circle cx="${(50 + dx * r).toFixed(1)}" cy="${(50 + dir * dy * r).toFixed(1)}" r="4.5" stroke="none"/>`;
    }
    s += "</g>";
    if (info.royal) {
      s += `<circle cx="50" cy="50" r="47" fill="none" stroke="#d4a017" stroke-width="5"/>`;
    }
    // A large letter on a plain middle: readable on small squares.
    s += `<circle cx="50" cy="50" r="25" fill="${fill}" stroke="${line}" stroke-width="2"/>`;
    const size = label.length > 1 ? 28 : 38;
    s += `<text x="50" y="${50 + size * 0.36}" text-anchor="middle" font-size="${size}" font-family="sans-serif" font-weight="bold" fill="${promoted ? "#d02020" : detail}">${esc(label)}</text>`;
    return s;
  }
  return `<circle cx="50" cy="50" r="44" fill="${fill}" stroke="${line}" stroke-width="3"/>` +
    `<text x="50" y="66" text-anchor="middle" font-size="${label.length > 1 ? 36 : 46}" font-family="sans-serif" font-weight="bold" fill="${promoted ? "#d02020" : detail}">${esc(label)}</text>`;
}

// A piece's moves on a small board (as the Interactive Diagram shows them). With `diag`, the
// server's diagram from the engine's own move generator: blue dots where he moves, red rings
// where he takes, dark squares off the board. Without it, his plain leaps and slides as the
// engine compiled them from his XBetza: red dots where he leaps, blue where he slides.
function moveDiagram(info, family, diag) {
  const R = 4;
  const cells = 2 * R + 1;
  const C = 18;
  let s = `<svg class="diagram" viewBox="0 0 ${cells * C} ${cells * C}" width="${cells * C}" height="${cells * C}">`;
  const [left, right, down, up] = diag ? diag.extent : [R, R, R, R];
  for (let r = 0; r < cells; r++) {
    for (let f = 0; f < cells; f++) {
      const dx = f - R;
      const dy = R - r;
      const off = dx < -left || dx > right || dy < -down || dy > up;
      const fill = off ? "#3a3f42" : (f + r) % 2 ? "#b48762" : "#eed9b6";
      s += `<rect x="${f * C}" y="${r * C}" width="${C}" height="${C}" fill="${fill}"/>`;
    }
  }
  const at = (dx, dy) => [(R + dx) * C + C / 2, (R - dy) * C + C / 2];
  const dot = (dx, dy, color) => {
    if (Math.abs(dx) > R || Math.abs(dy) > R) return "";
    const [x, y] = at(dx, dy);
    return `<circle cx="${x}" cy="${y}" r="${C * 0.25}" fill="${color}"/>`;
  };
  if (diag) {
    for (const [dx, dy] of diag.moves) s += dot(dx, dy, "#1565c0");
    for (const [dx, dy] of diag.captures) {
      const [x, y] = at(dx, dy);
      s += `<circle cx="${x}" cy="${y}" r="${C * 0.38}" fill="none" stroke="#c62828" stroke-width="2.5"/>`;
    }
  } else {
    for (const [dx, dy, range] of info.slides || []) {
      for (let k = 1; k <= (range > 0 ? range : cells); k++) s += dot(dx * k, dy * k, "#1565c0");
    }
    for (const [dx, dy] of info.leaps || []) s += dot(dx, dy, "#c62828");
  }
  s += `<g transform="translate(${R * C},${R * C}) scale(${C / 100})">${pieceSvg(info.key, info, family)}</g>`;
  return s + "</svg>";
}

window.pieceSvg = pieceSvg;
window.moveDiagram = moveDiagram;
