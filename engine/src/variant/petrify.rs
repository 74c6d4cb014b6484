//! Rule data of Fairy-Stockfish's petrification (`petrifyOnCaptureTypes`,
//! `petrifyBlastPieces`): a man of the listed types that captures turns into a wall where he
//! lands. The board applies it (`board::petrify`), legality reads it (`movegen::chesslike`).

use super::tables::PieceMask;

/// Capturers that turn into walls.
#[derive(Clone, Debug)]
pub struct PetrifyRules {
    /// The types whose capturing men become walls (`petrifyOnCaptureTypes`).
    pub types: PieceMask,
    /// With explosions, the men a blast removes around the capture become walls too
    /// (`petrifyBlastPieces`).
    pub blast_pieces: bool,
}
