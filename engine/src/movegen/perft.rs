//! Perft: counting the leaves of the legal move tree, the truth test of move generation.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::generate::MoveList;
use crate::board::position::Position;
use crate::types::Move;

/// The deepest perft a protocol or the command line accepts. Perft recurses once per ply with
/// a move list in each frame, so a depth in the millions would exhaust any stack long before a
/// stop could end it; no perft deeper than this could finish anyway.
pub const MAX_PERFT_DEPTH: u32 = 64;

impl Position {
    /// The number of legal move sequences of length `depth` (bulk counted at the last ply).
    pub fn perft(&mut self, depth: u32) -> u64 {
        self.count_paths(depth, None).unwrap_or(0)
    }

    /// Perft split by root move: each legal move with the count below it, in generation order.
    /// With `parallel`, the root moves are counted on rayon's thread pool.
    pub fn perft_divide(&mut self, depth: u32, parallel: bool) -> Vec<(Move, u64)> {
        self.divide(depth, parallel, None).unwrap_or_default()
    }

    /// [`Position::perft_divide`] that gives up, returning `None`, soon after `stop` is set
    /// (from another thread): a protocol's `go perft` must yield to `stop` and `quit`.
    pub fn perft_divide_until(
        &mut self,
        depth: u32,
        parallel: bool,
        stop: &AtomicBool,
    ) -> Option<Vec<(Move, u64)>> {
        self.divide(depth, parallel, Some(stop))
    }

    fn divide(
        &mut self,
        depth: u32,
        parallel: bool,
        stop: Option<&AtomicBool>,
    ) -> Option<Vec<(Move, u64)>> {
        let moves = self.legal_moves();
        let count = |pos: &mut Position, mv: Move| {
            pos.make_move(mv);
            let n = if depth <= 1 {
                Some(1)
            } else {
                pos.count_paths(depth - 1, stop)
            };
            pos.unmake_move();
            n.map(|n| (mv, n))
        };
        if parallel {
            moves
                .par_iter()
                .map(|&mv| count(&mut self.clone(), mv))
                .collect()
        } else {
            moves.iter().map(|&mv| count(self, mv)).collect()
        }
    }

    /// Perft, or `None` once `stop` is set (looked at before each node above the last ply, a
    /// small cost beside the move generation there).
    fn count_paths(&mut self, depth: u32, stop: Option<&AtomicBool>) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        if depth == 1 {
            return Some(self.count_legal());
        }
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return None;
        }
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        let mut nodes = 0;
        for &mv in list.iter() {
            self.make_move(mv);
            #[cfg(debug_assertions)]
            if let Err(e) = self.validate() {
                panic!("position invalid after {mv:?}: {e}");
            }
            let below = self.count_paths(depth - 1, stop);
            self.unmake_move();
            nodes += below?;
        }
        Some(nodes)
    }
}
