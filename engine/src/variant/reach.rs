//! How far each piece type reaches on the empty board: the average number of squares its moves
//! reach from every square, split into leaps and rides, and whether it is bound to one square
//! colour. A query on the variant, so that the evaluation's piece weights do not depend on how
//! the move tables are laid out.

use super::tables::{HopKind, CAPTURE, QUIET};
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
        let v = self;
        let g = &v.geometry;
        let moves = &v.pieces[id.index()].moves[0];
        let board = &v.empty_board;
        let on = |s: Square| board.get(s.index()).is_some_and(|c| !c.is_off());
        let mut leaps = 0usize;
        let mut rides = 0usize;
        let mut seen = vec![false; g.num_cells()];
        let stride = g.stride() as i32;
        let mut deltas: Vec<i32> = Vec::new();
        for from in g.squares() {
            seen.iter_mut().for_each(|s| *s = false);
            let mut mark = |s: Square, ride: bool, seen: &mut Vec<bool>| {
                if !seen[s.index()] {
                    seen[s.index()] = true;
                    if ride {
                        rides += 1;
                    } else {
                        leaps += 1;
                    }
                }
            };
            for l in &moves.leaps {
                deltas.push(l.delta as i32);
                let to = from.offset(l.delta);
                if l.mode & (QUIET | CAPTURE) != 0 && on(to) {
                    mark(to, false, &mut seen);
                }
            }
            for ds in &moves.double_steps {
                deltas.push(ds.delta as i32);
            }
            for sl in &moves.slides {
                deltas.push(sl.delta as i32);
                let ride = sl.max != 1;
                let mut to = from;
                let mut k = 0;
                loop {
                    to = to.offset(sl.delta);
                    k += 1;
                    if !on(to) {
                        break;
                    }
                    mark(to, ride, &mut seen);
                    if sl.max != 0 && k >= sl.max {
                        break;
                    }
                }
            }
            for r in &moves.rays {
                deltas.push(r.delta as i32);
                // Conditional moves count at their empty-board reach: a hopper's captures need a
                // screen the empty board does not have, so only its quiet part counts.
                if r.initial || r.mode & QUIET == 0 && r.hop != HopKind::None {
                    continue;
                }
                if r.mode & (QUIET | CAPTURE) == 0 {
                    continue;
                }
                let ride = r.max != 1;
                let mut to = from;
                let mut k = 0;
                loop {
                    to = to.offset(r.delta);
                    k += 1;
                    if !on(to) {
                        break;
                    }
                    mark(to, ride, &mut seen);
                    if r.max != 0 && k >= r.max {
                        break;
                    }
                }
            }
        }
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
