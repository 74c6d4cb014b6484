//! Petrification on the board (`variant::petrify`): a capturer of the listed types turns
//! into a wall where he lands, as part of his capturing move, undone with it through the
//! journal.

use super::position::{Change, Position};
use crate::types::{Cell, Move};

impl Position {
    /// True when the man `cell`, removed by an explosion on the capture square (`center`)
    /// or around it, turns into a wall there: the capturer when his type petrifies, the men
    /// around him when the variant petrifies blast victims (`petrifyBlastPieces`).
    pub(super) fn petrified_by_blast(&self, center: bool, cell: Cell) -> bool {
        match self.variant.petrify() {
            None => false,
            Some(rules) if center => rules.types & (1 << cell.id().0) != 0,
            Some(rules) => rules.blast_pieces,
        }
    }

    /// Without explosions: when `mv` (made since `journal_start`) captured and its mover's
    /// type petrifies, the man who landed on `mv.to` leaves the board and, when his type (a
    /// promotion may have changed it) petrifies too, a wall takes his place. Fairy-Stockfish
    /// tests both types, so a man promoting by capture into a type that does not petrify
    /// just vanishes; like a man blown up, he goes to his opponent's hand where captures do.
    #[cold]
    #[inline(never)]
    pub(super) fn petrify_capturer(&mut self, mv: Move, journal_start: usize) {
        let Some(types) = self.variant.petrify().map(|r| r.types) else {
            return;
        };
        let changes = &self.journal[journal_start..];
        if !changes.iter().any(|c| matches!(c, Change::Took(..))) {
            return;
        }
        let mover = changes.iter().find_map(|c| match *c {
            Change::Shifted(from, _, old, _) if from == mv.from => Some(old),
            _ => None,
        });
        let Some(mover) = mover else { return };
        let landed = self.cell_fast(mv.to);
        if types & (1 << mover.id().0) == 0 || !landed.is_piece() {
            return;
        }
        self.edit_take(mv.to);
        if self.variant.captures_to_hand() {
            if let Some(owner) = landed.color() {
                self.edit_hand_add(owner.opposite(), landed.id());
            }
        }
        if types & (1 << landed.id().0) != 0 {
            self.edit_wall(mv.to, true);
        }
    }
}
