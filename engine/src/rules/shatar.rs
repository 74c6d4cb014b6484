//! The value of a checkmate, with Shatar's mating rules (`shatarMateRule`) as Fairy-Stockfish
//! scores them: a mate given by knights alone does not count (the mated side wins), and a mate
//! wins only when one of the unbroken series of checks that led to it was a shak (a check by a
//! knight, rook or bers); a mate after checks by the other men only is a draw (niol).

use crate::board::position::Position;
use crate::types::{Move, MoveKind};
use crate::variant::GameValue;

impl Position {
    /// The result for the side to move when it is checkmated, by the variant's value or
    /// Shatar's rules (the part of [`Position::checkmate_value`] that is Shatar's).
    pub(crate) fn mated_value(&mut self) -> GameValue {
        if !self.variant().shatar_mate() {
            return self.variant().checkmate_value();
        }
        self.shatar_mated_value()
    }

    #[cold]
    fn shatar_mated_value(&mut self) -> GameValue {
        let v = self.variant().clone();
        let mask = |names: &[&str]| {
            v.pieces()
                .iter()
                .enumerate()
                .filter(|(_, p)| names.contains(&p.name.as_str()))
                .fold(0u32, |m, (i, _)| m | 1 << i)
        };
        let knights = mask(&["knight"]);
        let shak = mask(&["knight", "rook", "bers"]);
        let us = self.side_to_move();
        let them = us.opposite();
        let Some(king) = self.royal_square(us) else {
            return v.checkmate_value();
        };
        if !self.is_attacked_by_types(king, them, !knights) {
            return GameValue::Win;
        }
        // Back through the series of checks, two plies at a time (not across a null move).
        let mut undone: Vec<Move> = Vec::new();
        let mut value = GameValue::Draw;
        while let Some(king) = self.royal_square(us) {
            if !self.is_attacked(king, them) {
                break;
            }
            if self.is_attacked_by_types(king, them, shak) {
                value = v.checkmate_value();
                break;
            }
            let last_two: Vec<Move> = self.history.iter().rev().take(2).map(|u| u.mv).collect();
            if last_two.len() < 2 || last_two.iter().any(|m| m.kind == MoveKind::Pass) {
                break;
            }
            for mv in last_two {
                undone.push(mv);
                self.unmake_move();
            }
        }
        for &mv in undone.iter().rev() {
            self.make_move(mv);
        }
        value
    }
}
