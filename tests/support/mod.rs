//! Helpers shared by the integration test files (each file declares `mod support;`).

use chimera_engine::Position;

/// The legal moves of `pos` in Chimera's move text, sorted, so that tests can compare them
/// with a list or look one up.
pub fn sorted_moves(pos: &mut Position) -> Vec<String> {
    let mut out: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_text(m))
        .collect();
    out.sort();
    out
}
