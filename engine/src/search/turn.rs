//! A search result must be a whole turn: in a variant whose turns have several parts, the best
//! move may be only the first part. The rest comes from the principal variation, and where the
//! variation stops mid-turn (a stopped or very shallow search), from a short search of the
//! position after the parts found so far.

use super::{Evaluator, Limits, Searcher, Silent};
use crate::board::position::Position;
use crate::types::Move;

/// The deepest search used to find a missing part of a turn.
const PART_DEPTH: u32 = 4;
/// The most nodes such a search may use (a few milliseconds: it may follow a search that has
/// already used its time).
const PART_NODES: u64 = 20_000;

impl Searcher {
    /// The whole turn that starts with `best`: `best`, then the variation's moves while the
    /// same side stays to move, then searched parts until the turn is over.
    pub(crate) fn complete_turn(
        &mut self,
        root: &Position,
        best: Move,
        pv: &[Move],
        depth: u32,
        eval: &dyn Evaluator,
    ) -> Vec<Move> {
        let mut pos = root.clone();
        let us = pos.side_to_move();
        let mut turn = vec![best];
        pos.make_move(best);
        let mut rest = pv.iter().skip(1).copied();
        let mut on_pv = true;
        while pos.side_to_move() == us && pos.may_have_more_parts(turn.len()) {
            let from_pv = rest
                .next()
                .filter(|&m| on_pv && pos.legal_moves().contains(&m));
            // Once a part is searched afresh, the variation no longer describes the game.
            on_pv &= from_pv.is_some();
            let Some(mv) = from_pv.or_else(|| self.search_part(&pos, depth, eval)) else {
                break;
            };
            turn.push(mv);
            pos.make_move(mv);
        }
        turn
    }

    /// The best next part in `pos` by a short search; `None` when there is no legal move.
    fn search_part(&mut self, pos: &Position, depth: u32, eval: &dyn Evaluator) -> Option<Move> {
        let limits = Limits {
            depth: Some(depth.clamp(1, PART_DEPTH)),
            nodes: Some(PART_NODES),
            ..Limits::default()
        };
        self.search_one(pos, &limits, eval, &mut Silent).best
    }
}

impl Position {
    /// A guard against a turn that never ends: no turn has more parts than the variant's
    /// phases.
    fn may_have_more_parts(&self, parts_so_far: usize) -> bool {
        self.variant()
            .turns()
            .as_ref()
            .is_some_and(|t| parts_so_far < t.num_phases())
    }
}
