//! Move text as the dialects put it on the wire: the engine's notation (which owns every move
//! text, castling styles included), lines of moves written turn by turn, and XBoard's one
//! `move` line per leg of a multi-leg move (docs/protocols.md §4.4).

use chimera_engine::{Move, Position};

/// How castling moves are written (UCI in Chess960 mode: king takes own rook).
pub use chimera_engine::movegen::notation::CastlingStyle as Castling;

/// The text of `mv` in `pos`.
pub fn move_text(pos: &Position, mv: Move, castling: Castling) -> String {
    pos.move_text_in(mv, castling)
}

/// The moves of `line`, played from `root`, as space-separated text: one word per turn, a
/// turn of several parts written `a,b` (docs/protocols.md D3).
pub fn line_text(root: &Position, line: &[Move], castling: Castling) -> String {
    let mut pos = root.clone();
    let mut words = Vec::with_capacity(line.len());
    if root.variant().turns().is_some() {
        for turn in root.group_turns(line) {
            words.push(pos.play_turn_text(&turn));
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
