//! The rules of the drop/hand family and of n-check, as Fairy-Stockfish defines them
//! (crazyhouse, loop, bughouse, placement, sittuyin, three-check): what happens to a captured
//! promoted man, compulsory drops, where some drops may go, and the check counter. The board
//! code that plays them is `board::hands` (make/unmake, FEN) and `movegen::hands` (filters).

use super::resolve::letter_ids;
use super::spec::{or, VariantError, VariantSpec};
use super::PieceDef;
use crate::types::PieceId;

/// The hand rules of one variant. Every flag is off in a variant that does not name it, and
/// the board code asks [`HandRules::active`] once before looking at any of them.
#[derive(Clone, Debug)]
pub struct HandRules {
    /// Promoted men are marked (written `~` in FEN): where captures go to hand and promoted
    /// men are not kept as they are (`capturesToHand` without `dropLoop`), or with
    /// `twoBoards` (the partner's board needs to know).
    pub marks_promoted: bool,
    /// A captured promoted man enters the hand as the variant's main promotion pawn type.
    pub demotes: bool,
    /// The type a captured promoted man becomes in hand.
    pub demoted_type: PieceId,
    /// Bughouse on one board (`twoBoards`): men in hand come from the partner's board.
    pub two_boards: bool,
    /// While a side holds men (of `must_drop_type`, if given), it must drop when it can
    /// (`mustDrop`, `mustDropType`).
    pub must_drop: bool,
    /// The type that must be dropped; `None`: any.
    pub must_drop_type: Option<PieceId>,
    /// Bishops must be dropped on squares of both colours (`dropOppositeColoredBishop`).
    pub opposite_bishops: Option<PieceId>,
    /// A king or rook dropped on its castling square gets the castling right
    /// (`castlingDroppedPiece`).
    pub castling_dropped_piece: bool,
    /// Rooks are dropped only on the first rank (`sittuyinRookDrop`).
    pub sittuyin_rook_drop: Option<PieceId>,
    /// Sittuyin's promotion: optional, in place or by a move of the new piece, only for a
    /// side's last pawn outside the zone, never giving check (`sittuyinPromotion`).
    pub sittuyin_promotion: bool,
    /// Sittuyin's promotion zone per colour (the variant's own zone is then empty: no pawn
    /// promotes by moving into it).
    pub sittuyin_zone: [Vec<bool>; 2],
    /// Checks are counted: a side that gives its n-th check wins (`checkCounting`); the
    /// counters start from the FEN's `3+3` field.
    pub check_counting: bool,
}

impl HandRules {
    /// True when the variant uses any rule of this family that the board code must apply.
    #[inline(always)]
    pub fn active(&self) -> bool {
        self.marks_promoted || self.check_counting || self.castling_dropped_piece
    }

    /// True when some legal moves are struck off by these rules.
    pub fn filters(&self) -> bool {
        self.must_drop
            || self.opposite_bishops.is_some()
            || self.sittuyin_rook_drop.is_some()
            || self.sittuyin_promotion
    }
}

/// The hand rules of `spec`, for its pieces; `captures_to_hand` and `promotion_pawns` are the
/// variant's, concluded already.
pub(crate) fn conclude_hands(
    spec: &VariantSpec,
    pieces: &[PieceDef],
    captures_to_hand: bool,
    promotion_pawns: u32,
    errs: &mut Vec<VariantError>,
) -> HandRules {
    let one_type = |given: &Option<super::spec::Located<Vec<char>>>,
                    errs: &mut Vec<VariantError>| {
        let set = given.as_ref()?;
        match letter_ids(pieces, &set.value) {
            Ok(ids) if ids.len() == 1 => Some(ids[0]),
            Ok(_) => {
                errs.push(set.at.error("expected one piece letter"));
                None
            }
            Err(reason) => {
                errs.push(set.at.error(reason));
                None
            }
        }
    };
    let by_name = |name: &str| {
        pieces
            .iter()
            .position(|p| p.name == name)
            .map(|i| PieceId(i as u8))
    };
    let two_boards = or(&spec.two_boards, false);
    let demotes = captures_to_hand && !or(&spec.drop_loop, false) && promotion_pawns != 0;
    HandRules {
        marks_promoted: demotes || two_boards,
        demotes,
        demoted_type: PieceId(promotion_pawns.trailing_zeros().min(31) as u8),
        two_boards,
        must_drop: or(&spec.must_drop, false),
        must_drop_type: one_type(&spec.must_drop_type, errs),
        opposite_bishops: or(&spec.drop_opposite_colored_bishop, false)
            .then(|| by_name("bishop"))
            .flatten(),
        castling_dropped_piece: or(&spec.castling_dropped_piece, false),
        sittuyin_rook_drop: or(&spec.sittuyin_rook_drop, false)
            .then(|| by_name("rook"))
            .flatten(),
        sittuyin_promotion: or(&spec.sittuyin_promotion, false),
        sittuyin_zone: [Vec::new(), Vec::new()],
        check_counting: or(&spec.check_counting, false),
    }
}
