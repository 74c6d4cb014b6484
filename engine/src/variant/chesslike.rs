//! Rule data of Fairy-Stockfish's chess-like family beyond piece moves: atomic explosions
//! (`blastOnCapture`, `blastImmuneTypes`) and its reading of pseudo-royal men
//! (`extinctionPseudoRoyal`, `extinctionPieceCount`, `dupleCheck`). The board applies them
//! (`board::make`, `movegen::chesslike`).

use super::tables::PieceMask;

/// A capture explodes: the capturer and every man on the eight squares around the capture
/// square are removed too, except the spared and immune types.
#[derive(Clone, Debug)]
pub struct BlastRules {
    /// Types never removed by an explosion, even the capturer (`blastImmuneTypes`).
    pub immune: PieceMask,
    /// Types that survive an explosion next to them (Fairy-Stockfish's predefined pawn); the
    /// capturer himself is removed whatever his type.
    pub spared: PieceMask,
}

/// Fairy-Stockfish's pseudo-royal men: a man of an extinction type is guarded like a king
/// while his side has at most `limit` men of that type. A move may not leave one attacked,
/// unless it takes an enemy pseudo-royal man; with explosions, a man next to an enemy
/// pseudo-royal man cannot be attacked, and blowing up one's own is illegal.
#[derive(Clone, Debug)]
pub struct PseudoRoyalRules {
    /// The most men of a type that are each pseudo-royal (`extinctionPieceCount` + 1).
    pub limit: u32,
    /// All the men of the extinction types attacked at once also count as check, however
    /// many there are (`dupleCheck`).
    pub duple: bool,
}
