//! Move text as the dialects write it on the wire, where it differs from the engine's own
//! notation: UCI in Chess960 mode writes castling as "king takes own rook" (the UCI Chess960
//! appendix), and XBoard sends a multi-leg move one leg per `move` line (PROTOCOLS.md §4.4).

use chimera_engine::{Move, MoveKind, Position};

/// How castling moves are written.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Castling {
    /// The king's destination (`e1g1`), as in orthodox chess.
    #[default]
    KingToTarget,
    /// The king's square, then its rook's (`e1h1`), for UCI_Chess960.
    KingTakesRook,
}

/// The text of `mv` in `pos`.
pub fn move_text(pos: &Position, mv: Move, castling: Castling) -> String {
    let castle = matches!(mv.kind, MoveKind::Castle | MoveKind::CastleGateKing);
    if castling == Castling::KingTakesRook && castle {
        let g = &pos.variant().geometry;
        let mut s = format!("{}{}", g.name(mv.from), g.name(mv.aux));
        if mv.kind == MoveKind::CastleGateKing {
            if let Some(p) = pos.variant().pieces.get(mv.piece as usize) {
                s.push(p.letter.to_ascii_lowercase());
            }
        }
        return s;
    }
    pos.move_text(mv)
}

/// The moves of `line`, played from `root`, as space-separated text: one word per turn, a
/// turn of several parts written `a,b` (PROTOCOLS.md D3).
pub fn line_text(root: &Position, line: &[Move], castling: Castling) -> String {
    let mut pos = root.clone();
    let mut words = Vec::with_capacity(line.len());
    if root.variant().turns.is_some() {
        for turn in root.group_turns(line) {
            words.push(pos.turn_text(&turn));
            for &m in &turn {
                pos.make_move(m);
            }
        }
    } else {
        for &m in line {
            words.push(move_text(&pos, m, castling));
            pos.make_move(m);
        }
    }
    words.join(" ")
}

/// The `move` lines XBoard expects for a move written `text`: one per leg, every leg but the
/// last ending with a comma (`move e4f5,` then `move f5g6`).
pub fn xboard_move_lines(text: &str) -> Vec<String> {
    let legs: Vec<&str> = text.split(',').collect();
    let last = legs.len() - 1;
    legs.iter()
        .enumerate()
        .map(|(i, leg)| {
            if i < last {
                format!("move {leg},")
            } else {
                format!("move {leg}")
            }
        })
        .collect()
}
