//! What a search says, as the text both GUI dialects and the command-line tools write: a
//! principal variation, the best move (a whole turn) with the reply expected to it, and the
//! UCI `info` line of one iteration. It lives apart from the dialects and the tools so that
//! neither has to import the other to write the same words.

use chimera_engine::search::{IterationInfo, SearchResult};
use chimera_engine::{Move, Position};

use crate::wire::{line_text, move_text, Castling};

/// The moves of a variation in coordinate notation, each written in the position it is made in.
pub fn pv_text(root: &Position, pv: &[Move]) -> String {
    line_text(root, pv, Castling::KingToTarget)
}

/// The move (the whole turn) a result says to play, and the opponent's expected reply (a whole
/// turn, when the variation holds one), as text.
pub fn best_and_ponder(root: &Position, r: &SearchResult) -> Option<(String, Option<String>)> {
    let best = r.best?;
    let turn = if r.turn.is_empty() {
        vec![best]
    } else {
        r.turn.clone()
    };
    let mut after = root.clone();
    for &m in &turn {
        after.make_move(m);
    }
    let ponder = if root.variant().turns().is_none() {
        r.ponder.map(|p| after.move_text(p))
    } else if r.pv.starts_with(&turn) {
        // The reply counts only when the variation holds all of it.
        let reply = after.group_turns(&r.pv[turn.len()..]).into_iter().next();
        reply
            .filter(|parts| {
                let mut end = after.clone();
                parts.iter().for_each(|&m| end.make_move(m));
                end.side_to_move() != after.side_to_move()
            })
            .map(|parts| after.turn_text(&parts))
    } else {
        None
    };
    Some((root.turn_text(&turn), ponder))
}

/// The `info` line of one iteration, with the moves written as in the root position `root`
/// (also what `chimera analyze` prints).
pub fn info_line(root: &Position, info: &IterationInfo) -> String {
    info_line_with(root, info, Castling::KingToTarget)
}

/// [`info_line`] with castling written as `castling` says.
pub fn info_line_with(root: &Position, info: &IterationInfo, castling: Castling) -> String {
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv.max(1),
        info.score,
        info.nodes,
        info.nps,
        info.hashfull,
        info.time.as_millis(),
        line_text(root, &info.pv, castling)
    )
}

/// A perft count split by root move, as Stockfish's `go perft` writes it and both `go perft`
/// and `chimera perft` print it: one `move: count` line per root move of `root`, an empty
/// line, then `Nodes searched: N` (the total, 1 at depth 0); with the total.
pub fn perft_lines(
    root: &Position,
    depth: u32,
    divide: &[(Move, u64)],
    castling: Castling,
) -> (Vec<String>, u64) {
    let total = if depth == 0 {
        1
    } else {
        divide.iter().map(|d| d.1).sum()
    };
    let mut lines: Vec<String> = divide
        .iter()
        .map(|(m, n)| format!("{}: {n}", move_text(root, *m, castling)))
        .collect();
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    (lines, total)
}
