//! A quick test of whether a move can give check at all, from the mover's type and squares
//! and the variant's [`CheckReach`](crate::variant::tables::CheckReach) tables, so that the
//! search makes and tests only the moves that might.

use crate::board::position::Position;
use crate::types::{Move, MoveKind};

impl Position {
    /// False when `mv` (a legal move, not yet made) surely does not put the opponent in check;
    /// true when it may (the move must then be made and tested). Moves whose effect is more
    /// than one man going from one square to another, and variants without the filter, are
    /// always "may".
    #[inline]
    pub fn may_give_check(&self, mv: Move) -> bool {
        let Some(reach) = &self.variant.check_reach() else {
            return true;
        };
        let them = self.side.opposite();
        if self.royal_count(them) != 1 {
            return true;
        }
        let (mover, from) = match mv.kind {
            MoveKind::Normal | MoveKind::DoubleStep => {
                let id = mv.promotion().unwrap_or_else(|| self.cell(mv.from).id());
                (id, Some(mv.from))
            }
            MoveKind::Drop => match mv.piece_id() {
                Some(id) => (id, None),
                None => return true,
            },
            _ => return true,
        };
        let r = &reach[self.side.index()];
        let royal = self.royal_sq[them.index()];
        let direct = r.attackers[r.index(mv.to, royal)] & (1 << mover.0) != 0;
        // A man leaving a line to the royal man may uncover a friendly rider behind him.
        let uncovered = from.is_some_and(|f| r.on_line(r.index(f, royal)));
        direct || uncovered
    }
}
