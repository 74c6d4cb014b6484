// Chimera web board: the legend of a variant's pieces. One row per piece type: its drawing,
// letter, name and XBetza (the moves as the engine reads them); hovering a row shows a small
// diagram of the piece's moves (pieces.js `moveDiagram`), drawn from what the engine compiled.
"use strict";

// Fills `el` with the legend of `pieces` (the state's piece list) in piece set `family`.
function renderLegend(el, pieces, family) {
  const rows = pieces
    .map((p, i) => {
      const name = p.name.replace(/([a-z])([A-Z])/g, "$1 $2");
      return `<tr data-piece="${i}"><td><svg viewBox="0 0 100 100" width="28" height="28">${pieceSvg(p.key, p, family)}</svg></td>` +
        `<td class="key">${esc(p.key)}</td><td>${esc(name)}${p.royal ? " (royal)" : ""}</td><td class="betza">${esc(p.betza)}</td></tr>`;
    })
    .join("");
  el.innerHTML = `<summary>Pieces (${pieces.length}): hover for moves</summary>` +
    `<table class="legend"><thead><tr><th></th><th>key</th><th>name</th><th>XBetza</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<div class="legend-diagram" hidden></div>`;
  const pop = el.querySelector(".legend-diagram");
  el.querySelectorAll("tr[data-piece]").forEach((tr) => {
    tr.onmouseenter = () => {
      const p = pieces[Number(tr.dataset.piece)];
      pop.innerHTML = moveDiagram(p, family) +
        `<div>${esc(p.key)} ${esc(p.name)}: <code>${esc(p.betza)}</code><br>` +
        `<span class="leap">●</span> leaps <span class="slide">●</span> slides (plain moves; multi-leg moves in the XBetza)</div>`;
      pop.hidden = false;
      const r = tr.getBoundingClientRect();
      const host = el.getBoundingClientRect();
      pop.style.top = `${r.bottom - host.top + 4}px`;
    };
    tr.onmouseleave = () => {
      pop.hidden = true;
    };
  });
}

window.renderLegend = renderLegend;
