//! The rules of the drop/hand family and of n-check, as Fairy-Stockfish defines them
//! (crazyhouse, loop, bughouse, placement, sittuyin, three-check): which men may be dropped
//! and where ([`DropRules`]), what happens to a captured promoted man, compulsory drops, where
//! some drops may go, and the check counter ([`HandRules`]). The board code that plays them is
//! `board::hands` (make/unmake, FEN), `movegen::drops` and `movegen::hands` (filters).

use super::resolve::{letter_ids, named, region_table};
use super::spec::{or, predefined_index, Located, VariantError, VariantSpec};
use super::tables::PieceMask;
use super::{DropRule, PieceDef, PromotionRules};
use crate::types::{Geometry, PieceId};

/// Which men may be dropped, and where. The fields are documented at their accessors on
/// [`super::Variant`].
#[derive(Clone, Debug)]
pub(crate) struct DropRules {
    /// Men in hand may be dropped as a whole move (`pieceDrops`).
    pub allowed: bool,
    pub types: PieceMask,
    pub rule: DropRule,
    pub valuable: PieceMask,
    pub region: [Option<Vec<bool>>; 2],
    pub checks: bool,
    /// Per colour, the types whose drops `firstRankPawnDrops` and `promotionZonePawnDrops`
    /// restrict: Fairy-Stockfish's predefined pawn only (not elgam's soldiers), Chimera's
    /// promoting types.
    pub pawns: [PieceMask; 2],
    pub first_rank_pawns: bool,
    pub promotion_zone_pawns: bool,
    /// Drops take no man from a hand (`freeDrops`, ataxx).
    pub free: bool,
}

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
    /// The order in which a FEN lists the men in hand: Fairy-Stockfish's, from its last
    /// piece type down to its first (king, custom pieces, ..., queen, rook, bishop, knight,
    /// pawn), so that FENs compare equal as text; types of other names (Chimera's dialect
    /// may name them freely, promoted types are `+name`) after them, in the file's order.
    pub fen_order: Vec<PieceId>,
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

/// The hand rules of `spec`, for its pieces; `captures_to_hand` and `promotion` are the
/// variant's, concluded already. Sittuyin's promotion takes the promotion zone over.
pub(crate) fn conclude_hands(
    spec: &VariantSpec,
    pieces: &[PieceDef],
    captures_to_hand: bool,
    promotion: &mut PromotionRules,
    errs: &mut Vec<VariantError>,
) -> HandRules {
    let promotion_pawns = promotion.pawn_types;
    let one_type = |given: &Option<Located<Vec<char>>>, errs: &mut Vec<VariantError>| {
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
    let mut rules = HandRules {
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
        fen_order: fsf_hand_order(pieces),
    };
    if rules.sittuyin_promotion {
        // Sittuyin's pawns promote only by its own promotion move, from the zone.
        let cells = promotion.zone[0].len();
        rules.sittuyin_zone = std::mem::replace(
            &mut promotion.zone,
            [vec![false; cells], vec![false; cells]],
        );
    }
    rules
}

/// The piece types in the order Fairy-Stockfish writes a hand (see [`HandRules::fen_order`]):
/// by the rank of each type's name among its piece types, highest first.
fn fsf_hand_order(pieces: &[PieceDef]) -> Vec<PieceId> {
    // A name Fairy-Stockfish knows ranks the type, whichever dialect reads his moves.
    let rank = |p: &PieceDef| -> Option<usize> {
        // Its piece types run pawn ... centaur (the predefined list's order), then the custom
        // pieces, then the king.
        let custom = p
            .name
            .strip_prefix("customPiece")
            .and_then(|n| n.parse::<usize>().ok());
        match (p.name.as_str(), custom) {
            ("king", _) => Some(usize::MAX),
            (_, Some(n)) => Some(1000 + n),
            (name, None) => predefined_index(name),
        }
    };
    let mut order: Vec<PieceId> = (0..pieces.len()).map(|i| PieceId(i as u8)).collect();
    // Stable: the types without a rank keep the file's order, after the others.
    order.sort_by_key(|id| std::cmp::Reverse(rank(&pieces[id.index()])));
    order
}

/// The drop rules of `spec`: `types` and `valuable` are the sets `dropPieceTypes` and
/// `dropRuleValuable` name among the types the file defines, `promoting` the promoting types
/// per colour, concluded already.
pub(crate) fn conclude_drops(
    spec: &VariantSpec,
    g: &Geometry,
    pieces: &[PieceDef],
    types: PieceMask,
    valuable: PieceMask,
    promoting: [PieceMask; 2],
    errs: &mut Vec<VariantError>,
) -> DropRules {
    let region = [0, 1].map(|c| {
        spec.drop_region_by_color[c]
            .as_ref()
            .map(|r| region_table(r, g, errs))
    });
    // Each man as the dialect of his moves reads him.
    let fsf_pawns = named(pieces, |p| p.fsf && p.name == "pawn");
    let chimera = named(pieces, |p| !p.fsf);
    let pawns = promoting.map(|m| fsf_pawns | m & chimera);
    DropRules {
        allowed: or(&spec.piece_drops, false),
        types,
        rule: or(&spec.drop_rule, DropRule::Free),
        valuable,
        region,
        // Fairy-Stockfish (pyffish 0.0.90) lets a drop check in atomic variants whatever
        // `dropChecks` says (atomiczh: `R@d1` beside the king, `R@g1` along his rank).
        checks: or(&spec.drop_checks, true) || or(&spec.blast_on_capture, false),
        pawns,
        first_rank_pawns: or(&spec.first_rank_pawn_drops, false),
        promotion_zone_pawns: or(&spec.promotion_zone_pawn_drops, false),
        free: or(&spec.free_drops, false),
    }
}
