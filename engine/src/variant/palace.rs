//! Xiangqi and janggi rules beyond piece moves, read as Fairy-Stockfish reads them: the soldier
//! that moves sideways only once it has reached `soldierPromotionRank`, the janggi cannon that
//! neither hops over nor captures another janggi cannon, the palace diagonals
//! (`diagonalLines`) along which some types also move, and bikjang (`bikjangRule`). Fairy-
//! Stockfish ties each rule to its predefined piece types, so the pieces are found by name.

use super::resolve::region_table;
use super::spec::{or, VariantError, VariantSpec};
use super::tables::PieceMask;
use super::PieceDef;
use crate::types::Geometry;

/// How a type moves along the palace diagonals (Fairy-Stockfish: the wazir and a king that
/// moves as one step like a fers, the soldier like a pawn's capture, the rook like a bishop,
/// the janggi cannon hops like a cannon on the diagonals).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DiagonalMove {
    /// No move along the diagonals.
    None,
    /// One step to a neighbouring diagonal point (wazir, the janggi king).
    Step,
    /// One step forwards (soldier).
    ForwardStep,
    /// Any distance over empty points (rook).
    Slide,
    /// Over exactly one man that is not a janggi cannon (janggi cannon).
    Hop,
}

impl DiagonalMove {
    /// The diagonal move of the predefined piece `name` (the king moving as `king_type`).
    fn of(name: &str, king_type: &str) -> DiagonalMove {
        let name = if name == "king" { king_type } else { name };
        match name {
            "wazir" => DiagonalMove::Step,
            "soldier" => DiagonalMove::ForwardStep,
            "rook" => DiagonalMove::Slide,
            "janggiCannon" => DiagonalMove::Hop,
            _ => DiagonalMove::None,
        }
    }
}

/// The xiangqi/janggi rules of a variant, present when one of them applies.
#[derive(Clone, Debug)]
pub struct PalaceRules {
    /// The soldiers (`soldier`).
    pub soldiers: PieceMask,
    /// The rank from which soldiers also step sideways, counted from their side (0: always).
    pub soldier_rank: usize,
    /// The janggi cannons (`janggiCannon`): no janggi cannon hops over or captures one.
    pub janggi_cannons: PieceMask,
    /// The palace diagonals (`diagonalLines`): per mailbox cell, on a diagonal.
    pub diagonal_lines: Option<Vec<bool>>,
    /// Per type, its move along the palace diagonals.
    pub diagonal_moves: Vec<DiagonalMove>,
    /// Kings facing each other must part or pass; facing again after the pass ends the game.
    pub bikjang: bool,
    /// The types that move along the palace diagonals (none without `diagonalLines`).
    pub diagonal_movers: PieceMask,
    /// The types whose attacks the attack test must take from these rules (their plain
    /// attack tables are incomplete or too wide).
    pub attackers: PieceMask,
    /// The types whose attacks these rules replace entirely: soldiers with a sideways rank,
    /// and the types confined to mobility regions (they attack only inside them).
    pub replaced: PieceMask,
}

impl PalaceRules {
    /// True when `sq` is on a palace diagonal.
    #[inline]
    pub fn on_diagonal(&self, sq: crate::types::Square) -> bool {
        self.diagonal_lines
            .as_ref()
            .is_some_and(|d| d.get(sq.index()).copied().unwrap_or(false))
    }
}

/// The rules of `pieces` under `spec` (`soldierPromotionRank`, `diagonalLines`,
/// `bikjangRule`, `kingType`), or `None` when none applies; `mobility` are the types'
/// mobility regions, concluded already. Janggi cannons get their hurdles here (every type but
/// the janggi cannon).
pub(crate) fn conclude_palace(
    spec: &VariantSpec,
    mobility: &[[Option<Vec<bool>>; 2]],
    pieces: &mut [PieceDef],
    g: &Geometry,
    errs: &mut Vec<VariantError>,
) -> Option<PalaceRules> {
    let king_type = or(&spec.king_type, "king".to_string());
    let bikjang = or(&spec.bikjang_rule, false);
    let named = |name: &str| {
        pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.name == name)
            .fold(0 as PieceMask, |m, (i, _)| m | 1 << i)
    };
    let soldiers = named("soldier");
    let soldier_rank = spec.soldier_promotion_rank.as_ref().map_or(0, |r| r.value);
    let janggi_cannons = named("janggiCannon");
    let diagonal_lines = spec
        .diagonal_lines
        .as_ref()
        .map(|d| region_table(d, g, errs));
    let diagonal_moves: Vec<DiagonalMove> = pieces
        .iter()
        .map(|p| DiagonalMove::of(&p.name, &king_type))
        .collect();
    let sideways_rank = soldiers != 0 && soldier_rank > 0;
    if !sideways_rank && janggi_cannons == 0 && diagonal_lines.is_none() && !bikjang {
        return None;
    }
    for (i, p) in pieces.iter_mut().enumerate() {
        if janggi_cannons & (1 << i) != 0 {
            p.hurdles &= !janggi_cannons;
        }
    }
    // The types with a mobility region (for either colour).
    let confined = mobility
        .iter()
        .enumerate()
        .filter(|(_, r)| r.iter().any(Option::is_some))
        .fold(0 as PieceMask, |m, (i, _)| m | 1 << i);
    // Fairy-Stockfish's men attack only inside their mobility regions, and soldiers sideways
    // only from their rank on: the plain attack tables know neither.
    let replaced = confined | if sideways_rank { soldiers } else { 0 };
    let diagonal_movers = if diagonal_lines.is_some() {
        diagonal_moves
            .iter()
            .enumerate()
            .filter(|(_, m)| **m != DiagonalMove::None)
            .fold(0 as PieceMask, |m, (i, _)| m | 1 << i)
    } else {
        0
    };
    Some(PalaceRules {
        soldiers,
        soldier_rank,
        janggi_cannons,
        diagonal_lines,
        diagonal_moves,
        bikjang,
        diagonal_movers,
        attackers: replaced | diagonal_movers,
        replaced,
    })
}
