//! Perft: counting the leaves of the legal move tree, the truth test of move generation.

use rayon::prelude::*;

use super::generate::MoveList;
use crate::board::position::Position;
use crate::types::Move;

impl Position {
    /// The number of legal move sequences of length `depth` (bulk counted at the last ply).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal();
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
            nodes += self.perft(depth - 1);
            self.unmake_move();
        }
        nodes
    }

    /// Perft split by root move: each legal move with the count below it, in generation order.
    /// With `parallel`, the root moves are counted on rayon's thread pool.
    pub fn perft_divide(&mut self, depth: u32, parallel: bool) -> Vec<(Move, u64)> {
        let moves = self.legal_moves();
        let count = |pos: &mut Position, mv: Move| {
            pos.make_move(mv);
            let n = if depth <= 1 { 1 } else { pos.perft(depth - 1) };
            pos.unmake_move();
            (mv, n)
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
}
