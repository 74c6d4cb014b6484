//! The makruk family's moves and move rules, as Fairy-Stockfish has them: Ouk Chatrang's first
//! moves (`cambodianMoves`) and Makpong's king in check (`makpongRule`). Both run in the
//! special legal generation (`legal`), after the ordinary legal moves are listed.

use super::generate::MoveList;
use crate::board::position::Position;
use crate::types::{Cell, Move, MoveKind};

impl Position {
    /// Appends Ouk Chatrang's legal first moves of the side to move: the king, never moved nor
    /// checked by a rook, leaps as a knight to an empty square of the rank in front of him
    /// (not out of check); a met (fers) that has never moved steps two squares straight ahead
    /// to an empty square. Neither captures.
    pub(super) fn add_cambodian_moves(&mut self, list: &mut MoveList) {
        let us = self.side;
        let g = self.variant.geometry().clone();
        let forward = if us == crate::types::Color::White {
            1
        } else {
            -1
        };
        let start = list.len();
        let in_check = self.in_check();
        for i in 0..self.squares_of(us).len() {
            let from = self.squares_of(us)[i];
            let cell = self.cell(from);
            if !cell.is_virgin() {
                continue;
            }
            let name = &self.variant.pieces()[cell.id().index()].name;
            let deltas: &[(i32, i32)] = if self.variant.is_royal(cell.id()) && !in_check {
                &[(-2, 1), (2, 1)]
            } else if name == "fers" {
                &[(0, 2)]
            } else {
                &[]
            };
            for &(dx, dy) in deltas {
                let to = from.offset(g.delta(dx, dy * forward));
                if self.cell(to).is_empty() {
                    list.push(Move::normal(from, to));
                }
            }
        }
        let mut kept = start;
        for i in start..list.len() {
            let mv = list[i];
            if self.is_legal_by_making(mv) {
                list[kept] = mv;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// Makpong: in check, the king may move only to take the one man giving check. Strikes the
    /// other king moves off `list[start..]`.
    pub(super) fn keep_makpong_king_moves(&mut self, list: &mut MoveList, start: usize) {
        if !self.in_check() {
            return;
        }
        let us = self.side;
        let them = us.opposite();
        let mut kept = start;
        for i in start..list.len() {
            let mv = list[i];
            let mover = self.cell(mv.from);
            let ok = mv.kind == MoveKind::Drop
                || !self.variant.is_royal(mover.id())
                || self.takes_the_only_checker(mv.from, mv.to, mover, them);
            if ok {
                list[kept] = mv;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// True when the man on `to` is an enemy and no other man attacks the royal man on `king`:
    /// the man on `to` is swapped for a friendly one (which blocks the same lines) to look.
    fn takes_the_only_checker(
        &mut self,
        king: crate::types::Square,
        to: crate::types::Square,
        royal: Cell,
        them: crate::types::Color,
    ) -> bool {
        let target = self.cell(to);
        if !target.is_color(them) {
            return false;
        }
        self.board[to.index()] = royal;
        let others = self.is_attacked(king, them);
        self.board[to.index()] = target;
        !others
    }
}
