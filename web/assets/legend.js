// Chimera web board: the legend of a variant's pieces. One row per piece type: its drawing,
// letter, name and XBetza (the moves as the engine reads them); hovering a row shows a small
// diagram of the piece's moves (pieces.js `moveDiagram`), from the server's `legend` message
// (the engine's move generator run on the piece alone), or from his compiled leaps and slides
// until it has come.
"use strict";

// The names of the seed games' own pieces (docs/rules.md), which their variant files know only
// as customPieceN; every other piece goes by the name the engine gives it.
const PIECE_NAMES = {
  vanguard: {
    P: "Pawn", N: "Knight", S: "Soldier", W: "Wizard", Z: "Berserker", T: "Archer", O: "Bowman",
    L: "Lancer", H: "Helepolis", G: "General", E: "Sergeant", Y: "Spy", A: "Princess",
    C: "Chancellor", F: "Falconer", U: "Nightrider", J: "Prince",
  },
  pawnvault: { P: "Pawn", O: "Berolina pawn", T: "Castellan", D: "Dragon", H: "Hero" },
  aliceguard: {
    G: "Guard", D: "Guard queen", T: "Guard rook", L: "Guard bishop", S: "Guard knight",
    F: "Guard pawn",
  },
  pioneer: { M: "Mastodon" },
  "pioneer-two": { M: "Mastodon" },
  "pioneer-camel": { C: "Camel" },
  berolina: { P: "Berolina pawn" },
};

// A piece's name for people: the seed games' names, else the engine's (`dragonHorse` is
// "Dragon horse"; a loaded file's `customPieceN` is "piece X").
function pieceName(variant, info) {
  const own = (PIECE_NAMES[variant] || {})[info.letter];
  if (own) return own;
  if (/^customPiece/.test(info.name)) return `piece ${info.letter}`;
  const words = info.name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// The diagrams of the variant shown, by piece index, from the server (`legend`).
let legendDiagrams = { variant: null, pieces: [] };

function setLegendDiagrams(msg) {
  legendDiagrams = { variant: msg.variant, pieces: msg.pieces || [] };
}

// Fills `el` with the legend of `pieces` (the state's piece list) of `variant`, in piece set
// `family`.
function renderLegend(el, variant, pieces, family) {
  const rows = pieces
    .map((p, i) => {
      const name = (p.promoted ? "promoted " : "") + pieceName(variant, p);
      return `<div class="lg" data-piece="${i}"><svg viewBox="0 0 100 100" width="28" height="28">${pieceSvg(p.key, p, family)}</svg>` +
        `<span class="key">${esc(p.key)}</span><span>${esc(name)}${p.royal ? " (royal)" : ""}</span><code>${esc(p.betza)}</code></div>`;
    })
    .join("");
  el.innerHTML = `<summary>Pieces (${pieces.length}): key, name, moves in XBetza; hover for a diagram</summary>` +
    `<div class="legend">${rows}</div><div class="legend-diagram" hidden></div>`;
  const pop = el.querySelector(".legend-diagram");
  el.querySelectorAll(".lg[data-piece]").forEach((tr) => {
    tr.onmouseenter = () => {
      const i = Number(tr.dataset.piece);
      const p = pieces[i];
      const diag = legendDiagrams.variant === variant ? legendDiagrams.pieces[i] : null;
      const key = diag
        ? `<span class="slide">●</span> moves <span class="leap">○</span> takes (the engine's moves from the middle of the board)`
        : `<span class="leap">●</span> leaps <span class="slide">●</span> slides (plain moves)`;
      pop.innerHTML = moveDiagram(p, family, diag) +
        `<div>${esc(p.key)} ${esc(pieceName(variant, p))}: <code>${esc(p.betza)}</code><br>${key}</div>`;
      pop.hidden = false;
      const r = tr.getBoundingClientRect();
      const host = el.getBoundingClientRect();
      pop.style.top = `${r.bottom - host.top + 4}px`;
      pop.style.left = `${Math.min(r.left - host.left, Math.max(0, host.width - 260))}px`;
    };
    tr.onmouseleave = () => {
      pop.hidden = true;
    };
  });
}

window.renderLegend = renderLegend;
window.pieceName = pieceName;
window.setLegendDiagrams = setLegendDiagrams;
