// Chimera web board: the piece drawings. The orthodox six are simple silhouettes; any other
// built-in piece is a token whose emblem draws its plain moves (lines for slides, dots for
// leaps) around its letter; a custom piece from a loaded variant file is drawn as its letter.
"use strict";

const ORTHODOX_BETZA = { K: "king", Q: "queen", R: "rook", B: "bishop", N: "knight" };
const ORTHODOX_NAMES = ["pawn", "knight", "bishop", "rook", "queen", "king"];

// Which drawing a piece gets: an orthodox shape (with `guard` when it only moves like one),
// a move-pattern token, or its letter.
function pieceKind(info) {
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

// The SVG (a 100x100 group's content) of a man: `letter` is his FEN letter (case = colour),
// `info` his piece description from the server.
function pieceSvg(letter, info) {
  const white = letter === letter.toUpperCase();
  const fill = white ? "#fbfbf6" : "#262626";
  const line = white ? "#1a1a1a" : "#0a0a0a";
  const detail = white ? "#1a1a1a" : "#f0f0f0";
  const kind = pieceKind(info);
  const up = letter.toUpperCase();
  if (SHAPES[kind.shape]) {
    let s = `<g fill="${fill}" stroke="${line}" stroke-width="3" stroke-linejoin="round">`;
    if (kind.guard) {
      s += `<circle cx="50" cy="52" r="44" fill="none" stroke="${white ? "#2a6fb0" : "#b03a2a"}" stroke-width="5"/>`;
    }
    s += SHAPES[kind.shape].replace(/class="detail"/g, `stroke="${detail}" fill="${detail}"`);
    s += '<rect x="26" y="80" width="48" height="9" rx="3"/></g>';
    return s;
  }
  if (kind.shape === "token") {
    let s = `<circle cx="50" cy="50" r="42" fill="${fill}" stroke="${line}" stroke-width="3"/>`;
    s += `<g stroke="${detail}" fill="${detail}" stroke-width="3" opacity="0.75">`;
    // Black's moves are White's mirrored: forward is down the screen for Black.
    const dir = white ? -1 : 1;
    for (const [dx, dy, range] of info.slides || []) {
      const len = Math.hypot(dx, dy) || 1;
      const reach = range > 0 ? Math.min(36, 12 * range * len) : 36;
      const x = 50 + (dx / len) * reach;
      const y = 50 + dir * (dy / len) * reach;
      s += `<line x1="50" y1="50" x2="${x.toFixed(1)}" y2="${y.toFixed(1)}"/>`;
    }
    for (const [dx, dy] of info.leaps || []) {
      const x = 50 + dx * 11.5;
      const y = 50 + dir * dy * 11.5;
      s += `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="4" stroke="none"/>`;
    }
    s += "</g>";
    if (info.royal) {
      s += `<circle cx="50" cy="50" r="46" fill="none" stroke="#d4a017" stroke-width="4"/>`;
    }
    s += `<circle cx="50" cy="50" r="15" fill="${fill}" stroke="${line}" stroke-width="2"/>`;
    s += `<text x="50" y="57" text-anchor="middle" font-size="21" font-family="sans-serif" font-weight="bold" fill="${detail}">${esc(up)}</text>`;
    return s;
  }
  return `<circle cx="50" cy="50" r="40" fill="${fill}" stroke="${line}" stroke-width="3"/>` +
    `<text x="50" y="66" text-anchor="middle" font-size="46" font-family="sans-serif" font-weight="bold" fill="${detail}">${esc(up)}</text>`;
}

window.pieceSvg = pieceSvg;
