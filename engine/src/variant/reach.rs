//! How far each piece type reaches on the empty board: the average number of squares its moves
//! reach from every square, split into leaps and rides, and whether it is bound to one square
//! colour. A query on the variant, so that the evaluation's piece weights do not depend on how
//! the move tables are laid out.

use super::tables::{HopKind, Leap, Slide, CAPTURE, QUIET};
use super::Variant;
use crate::types::{PieceId, Square};

/// A piece type's reach on the empty board ([`Variant::empty_board_reach`]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EmptyBoardReach {
    /// Squares reached by leaps (and single steps), averaged over the board's squares.
    pub leaps: f64,
    /// Squares reached by rides (slides of more than one step), averaged likewise.
    pub rides: f64,
    /// Every move keeps the square colour (one board only).
    pub colour_bound: bool,
}

impl Variant {
    /// How far a man of type `id` reaches on the empty board (White's moves): the evaluation
    /// weighs pieces by it, whatever the compiled tables look like.
    pub fn empty_board_reach(&self, id: PieceId) -> EmptyBoardReach {
        let g = &self.geometry();
        let moves = &self.pieces()[id.index()].moves[0];
        let on = |s: Square| {
            self.empty_board()
                .get(s.index())
                .is_some_and(|c| !c.is_off())
        };
        // The rides that count: plain slides, and the conditional moves at their empty-board
        // reach (a hopper's captures need a screen the empty board does not have, so only its
        // quiet part counts; initial moves are left out).
        let rides_counted: Vec<(i16, u8)> = moves
            .slides
            .iter()
            .map(|sl| (sl.delta, sl.max))
            .chain(
                moves
                    .rays
                    .iter()
                    .filter(|r| !(r.initial || r.mode & QUIET == 0 && r.hop != HopKind::None))
                    .filter(|r| r.mode & (QUIET | CAPTURE) != 0)
                    .map(|r| (r.delta, r.max)),
            )
            .collect();
        let (mut leaps, mut rides) = (0usize, 0usize);
        let mut seen = vec![false; g.num_cells()];
        for from in g.squares() {
            seen.iter_mut().for_each(|s| *s = false);
            let mut mark = |s: Square, ride: bool| {
                if !std::mem::replace(&mut seen[s.index()], true) {
                    if ride {
                        rides += 1;
                    } else {
                        leaps += 1;
                    }
                }
            };
            for l in &moves.leaps {
                let to = from.offset(l.delta);
                if l.mode & (QUIET | CAPTURE) != 0 && on(to) {
                    mark(to, false);
                }
            }
            for &(delta, max) in &rides_counted {
                let mut to = from.offset(delta);
                let mut k = 1;
                while on(to) {
                    mark(to, max != 1);
                    if max != 0 && k >= max {
                        break;
                    }
                    to = to.offset(delta);
                    k += 1;
                }
            }
        }
        // Every move's direction, for the colour binding (the skipped conditional moves too).
        let deltas: Vec<i32> = (moves.leaps.iter().map(|l| l.delta))
            .chain(moves.double_steps.iter().map(|d| d.delta))
            .chain(moves.slides.iter().map(|s| s.delta))
            .chain(moves.rays.iter().map(|r| r.delta))
            .map(i32::from)
            .collect();
        let stride = g.stride() as i32;
        let n = g.num_squares().max(1) as f64;
        // A step of (dx, dy) keeps the square colour when dx + dy is even; the mailbox offset is
        // dy * stride + dx, so its parity is (dx + dy) mod 2 only when the stride is odd. Recover
        // dx and dy from the offset instead.
        let colour_bound = !deltas.is_empty()
            && g.boards == 1
            && deltas.iter().all(|&d| {
                let dy = (d as f64 / stride as f64).round() as i32;
                let dx = d - dy * stride;
                (dx + dy).rem_euclid(2) == 0
            });
        EmptyBoardReach {
            leaps: leaps as f64 / n,
            rides: rides as f64 / n,
            colour_bound,
        }
    }
}

/// A man's plain leaps and slides ([`Variant::plain_moves`]), the part of his moves the
/// evaluation walks on the board (conditional moves are left out: they are rare and slow to
/// walk). Each step answers through its methods (`captures`, `quiet`, `range`), whatever the
/// tables look like inside.
#[derive(Copy, Clone, Debug)]
pub struct PlainMoves<'a> {
    /// The single steps.
    pub leaps: &'a [Leap],
    /// The slides.
    pub slides: &'a [Slide],
}

impl Variant {
    /// The plain leaps and slides of a man of type `id` and colour `color`.
    #[inline]
    pub fn plain_moves(&self, id: PieceId, color: crate::types::Color) -> PlainMoves<'_> {
        let moves = &self.pieces()[id.index()].moves[color.index()];
        PlainMoves {
            leaps: &moves.leaps,
            slides: &moves.slides,
        }
    }
}
