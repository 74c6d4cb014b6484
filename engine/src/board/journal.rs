//! A read-only view of make/unmake's journal of edits, for evaluators that keep running sums
//! over the men on the board and in hand (a network's accumulators): each edit is one man
//! leaving or reaching a square or a hand, with everything needed to undo or replay it.

use super::position::{Change, Position};
use crate::types::{Color, Piece, PieceId, Square};

/// One edit that a move made, in the order it was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// `Piece` left `Square`.
    Removed(Square, Piece),
    /// `Piece` arrived on `Square`.
    Added(Square, Piece),
    /// One more man of this colour and type in hand.
    HandAdd(Color, PieceId),
    /// One man of this colour and type left the hand.
    HandSub(Color, PieceId),
}

impl Position {
    /// The number of edits made by the moves made so far (since the position was set up).
    #[inline(always)]
    pub fn journal_len(&self) -> usize {
        self.journal.len()
    }

    /// The journal's length and the position's key after the first `moves` moves made since
    /// the position was set up (`moves` at most [`Position::game_ply`]).
    #[inline(always)]
    pub fn journal_mark(&self, moves: usize) -> (usize, u64) {
        match self.history.get(moves) {
            Some(u) => (u.journal_len as usize, u.state.hash),
            None => (self.journal.len(), self.st.hash),
        }
    }

    /// The edits from index `from` of the journal to its end, oldest first. A move that sends
    /// a man from one square to another is a removal then an addition (his type may change on
    /// the way: promotion).
    pub fn edits_since(&self, from: usize, mut each: impl FnMut(Edit)) {
        for change in &self.journal[from.min(self.journal.len())..] {
            match *change {
                Change::Put(sq, cell) => {
                    if let Some(p) = cell.piece() {
                        each(Edit::Added(sq, p));
                    }
                }
                Change::Took(sq, cell, _) => {
                    if let Some(p) = cell.piece() {
                        each(Edit::Removed(sq, p));
                    }
                }
                Change::Shifted(from, to, old, new) => {
                    if let Some(p) = old.piece() {
                        each(Edit::Removed(from, p));
                    }
                    if let Some(p) = new.piece() {
                        each(Edit::Added(to, p));
                    }
                }
                Change::HandAdd(c, id) => each(Edit::HandAdd(c, id)),
                Change::HandSub(c, id) => each(Edit::HandSub(c, id)),
                // A promoted mark changes no man's place: nothing for an evaluator.
                Change::Mark(..) | Change::CastleSquare(..) => {}
                // Walls are no men: evaluators do not count them.
                Change::Wall(..) => {}
                // The counting rule's count is no edit of the board or the hands.
                Change::Count(_) => {}
            }
        }
    }

    /// `color`'s two reserve slots (Pioneer): the file a man waits behind, `None` for an
    /// empty slot, `Some(None)` for one whose file is still to be chosen.
    pub fn reserve_slots(&self, color: Color) -> [Option<Option<u8>>; 2] {
        self.st.reserves[color.index()].map(|f| match f {
            super::position::RESERVE_NONE => None,
            super::position::RESERVE_PENDING => Some(None),
            file => Some(Some(file)),
        })
    }
}
