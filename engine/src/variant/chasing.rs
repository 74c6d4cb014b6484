//! Xiangqi's and janggi's repetition rules beyond perpetual check, with Fairy-Stockfish's
//! meanings: the perpetual chase (`chasingRule = axf`: a side that attacks an enemy man on each
//! of its moves of a repeated cycle loses, as a perpetual checker does) and janggi's ban on
//! moving one man back and forth (`moveRepetitionIllegal`). Fairy-Stockfish ties the chase to
//! its predefined xiangqi types, so the roles are found by piece name; the board code is
//! `rules::chasing`.

use super::tables::PieceMask;
use super::PieceDef;

/// The xiangqi roles that the chase rule knows, each as the set of types that play it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChaseRoles {
    /// The rooks (`rook`).
    pub rooks: PieceMask,
    /// The horses (`horse`).
    pub horses: PieceMask,
    /// The cannons (`cannon`).
    pub cannons: PieceMask,
    /// The elephants (`elephant`).
    pub elephants: PieceMask,
    /// The advisors (Fairy-Stockfish's `fers`).
    pub advisors: PieceMask,
    /// The kings (`king`).
    pub kings: PieceMask,
    /// The soldiers (`soldier`).
    pub soldiers: PieceMask,
    /// The relative rank (from 0) from which a soldier counts as crossed the river and may be
    /// chased (`soldierPromotionRank`; 0: every soldier).
    pub soldier_rank: usize,
}

impl ChaseRoles {
    /// The roles of `pieces`, by their predefined names.
    pub(crate) fn of(pieces: &[PieceDef], soldier_rank: usize) -> ChaseRoles {
        let named = |name: &str| {
            pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| p.name == name)
                .fold(0 as PieceMask, |m, (i, _)| m | 1 << i)
        };
        ChaseRoles {
            rooks: named("rook"),
            horses: named("horse"),
            cannons: named("cannon"),
            elephants: named("elephant"),
            advisors: named("fers"),
            kings: named("king"),
            soldiers: named("soldier"),
            soldier_rank,
        }
    }
}

/// Reads `chasingRule`: `axf` (the Asian Xiangqi Federation's chase rule) or `none`.
pub(crate) fn parse_chasing_rule(value: &str) -> Result<bool, String> {
    match value.trim() {
        "axf" => Ok(true),
        "none" => Ok(false),
        other => Err(format!("unknown chasing rule '{other}' (axf, none)")),
    }
}
