//! How alike two variants are, for lending one variant's learnt evaluation to another: each
//! man's moves as board vectors (comparable across boards of any size, whatever letters and
//! XBetza spellings the two files use), and whether two variants are won and lost the same way.

use super::tables::{HopKind, CAPTURE, QUIET};
use super::Variant;
use crate::types::PieceId;

/// One unconditional move of a man (White's) on the empty board, as a board vector.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveVector {
    /// Files to the right.
    pub dx: i8,
    /// Ranks forward.
    pub dy: i8,
    /// Steps it may repeat: 1 for a leap, 0 for an unlimited slide.
    pub range: u8,
    /// It may move to an empty square.
    pub quiet: bool,
    /// It may capture.
    pub capture: bool,
    /// It jumps a screen first (cannon `p`, grasshopper `g`).
    pub hops: bool,
}

impl Variant {
    /// The unconditional moves of a man of type `id` (White's), sorted: leaps, slides and the
    /// rays that need no first move (double steps and other initial moves are left out, so a
    /// pawn with or without them is the same man). Two types with the same vectors move alike
    /// on any board, however their XBetza is spelt (`Q` and `RB`, `WF` and a non-royal `K`).
    pub fn move_vectors(&self, id: PieceId) -> Vec<MoveVector> {
        let stride = self.geometry().stride() as i32;
        let moves = &self.pieces()[id.index()].moves[0];
        let vector = |delta: i16, range: u8, mode: u8, hops: bool| {
            // The mailbox offset is dy * stride + dx with |dx| under half the stride.
            let d = i32::from(delta);
            let dy = (d as f64 / stride as f64).round() as i32;
            MoveVector {
                dx: (d - dy * stride) as i8,
                dy: dy as i8,
                range,
                quiet: mode & QUIET != 0,
                capture: mode & CAPTURE != 0,
                hops,
            }
        };
        let mut out: Vec<MoveVector> = (moves.leaps.iter())
            .map(|l| vector(l.delta, 1, l.mode, false))
            .chain(
                moves
                    .slides
                    .iter()
                    .map(|s| vector(s.delta, s.max, s.mode, false)),
            )
            .chain(
                moves
                    .rays
                    .iter()
                    .filter(|r| !r.initial && !r.triple_step)
                    .map(|r| vector(r.delta, r.max, r.mode, r.hop != HopKind::None)),
            )
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// True when `self` and `other` are won, lost and drawn the same way and move in the same
    /// frame (one board, the same kind of turn, hands or not, the same royal rule), so that
    /// what an evaluation learnt in one holds in the other wherever their men move alike.
    /// Conservative: any end rule, capture rule or board rule one has and the other lacks
    /// (king of the hill's hill, three-check's count, atomic's blasts, antichess's forced
    /// captures, xiangqi's palace, makruk's counting, drops) makes them unlike. Rules that do
    /// not change what a position is worth (the n-move rule, repetition, castling) are not
    /// compared, nor is gating from a hand (S-Chess is chess with two men waiting to enter).
    pub fn same_objective(&self, other: &Variant) -> bool {
        // What decides the game and frames it, for one variant: the boards and royal types
        // counted, the end rules' values, and one flag per rule that a variant has or lacks.
        let what_counts = |v: &Variant| {
            let r = &v.rules;
            let e = &r.ends;
            let counts = (r.geometry.boards, r.royal_mask.count_ones());
            let values = [
                e.checkmate_value,
                e.stalemate_value,
                e.bare_king_stalemate,
                e.extinction_value,
            ];
            let flags = [
                e.stalemate_piece_count,
                e.extinction.is_some(),
                e.flag.is_some(),
                e.connect.is_some(),
                e.adjudicate_full_board,
                r.succession.is_empty(),
                r.checking,
                r.forbid_checks,
                r.must_capture,
                r.captures_to_hand,
                // A hand that only feeds gates (S-Chess) changes what the men are worth less
                // than drops do: a gated man enters where a man left, on the first rank.
                r.has_hand && r.gating.is_none(),
                r.flying_general,
                r.makpong,
                r.cambodian,
                r.shatar_mate,
                r.extinction_royals,
                r.hands.active(),
                r.reserve.is_some(),
                r.transfer.is_some(),
                r.turns.is_some(),
                r.petrify.is_some(),
                r.walls.is_some(),
                r.enclosing.is_some(),
                r.palace.is_some(),
                r.counting.is_some(),
                r.chesslike.blast.is_some(),
                r.chesslike.pseudo_royal.is_some(),
                r.chesslike.mutually_immune != 0,
                r.castle_rules.wins != 0,
                r.pass.iter().any(|&p| p),
                r.pass_on_stalemate.iter().any(|&p| p),
                r.mobility.iter().flatten().any(Option::is_some),
            ];
            (counts, values, flags)
        };
        what_counts(self) == what_counts(other)
    }
}
