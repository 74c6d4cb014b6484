//! Rule data of Fairy-Stockfish's chess-like family beyond piece moves: atomic explosions
//! (`blastOnCapture`, `blastImmuneTypes`) and its reading of pseudo-royal men
//! (`extinctionPseudoRoyal`, `extinctionPieceCount`, `dupleCheck`). The board applies them
//! (`board::make`, `movegen::chesslike`).

use super::config::Dialect;
use super::resolve::{letter_set, named};
use super::spec::{or, VariantError, VariantSpec};
use super::tables::PieceMask;
use super::PieceDef;

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

/// The chess-like family's rules of one variant, each absent where the variant does not use it.
#[derive(Clone, Debug)]
pub(crate) struct ChesslikeRules {
    pub blast: Option<BlastRules>,
    /// Types that may not capture a man of their own type (`mutuallyImmuneTypes`).
    pub mutually_immune: PieceMask,
    pub pseudo_royal: Option<PseudoRoyalRules>,
}

/// The chess-like family's rules: explosions on capture (`blastOnCapture`, with
/// `blastImmuneTypes`), men that may not take their own kind (`mutuallyImmuneTypes`), and
/// Fairy-Stockfish's reading of pseudo-royal men (`extinctionPseudoRoyal` in its dialect).
pub(crate) fn conclude_chesslike(
    spec: &VariantSpec,
    pieces: &[PieceDef],
    extinction_royals: bool,
    errs: &mut Vec<VariantError>,
) -> ChesslikeRules {
    let blast = or(&spec.blast_on_capture, false).then(|| BlastRules {
        immune: letter_set(&spec.blast_immune_types, 0, pieces, errs),
        // Fairy-Stockfish spares the men of its predefined pawn, whatever their letter.
        spared: named(pieces, |p| p.name == "pawn"),
    });
    let mutually_immune = letter_set(&spec.mutually_immune_types, 0, pieces, errs);
    // As the line that makes the extinction types royal reads it.
    let royals_fsf = spec
        .extinction_pseudo_royal
        .as_ref()
        .map_or(spec.dialect, |g| g.at.dialect)
        == Dialect::FairyStockfish;
    let pseudo_royal = (extinction_royals && royals_fsf).then(|| PseudoRoyalRules {
        limit: or(&spec.extinction_piece_count, 0).saturating_add(1),
        duple: or(&spec.duple_check, false),
    });
    ChesslikeRules {
        blast,
        mutually_immune,
        pseudo_royal,
    }
}
