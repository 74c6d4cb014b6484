//! Read-only questions about a position and its moves that the search and the game-end rules
//! ask: what a move captures, which man makes it, and the keys of the positions already played.

use super::position::Position;
use crate::types::{Move, MoveKind, PieceId, Square};

impl Position {
    /// The type of the man making `mv` (the dropped type for a drop), or `None` for a pass.
    #[inline]
    pub fn moved_piece(&self, mv: Move) -> Option<PieceId> {
        match mv.kind {
            MoveKind::Drop => mv.piece_id(),
            MoveKind::Pass => None,
            _ => {
                let c = self.cell(mv.from);
                c.is_piece().then(|| c.id())
            }
        }
    }

    /// The square of the man `mv` captures, if it captures one.
    #[inline(always)]
    pub fn capture_square(&self, mv: Move) -> Option<Square> {
        let sq = match mv.kind {
            MoveKind::EnPassant | MoveKind::Locust | MoveKind::Transfer => mv.aux,
            MoveKind::Sweep => return self.sweep_capture_square(mv),
            MoveKind::Swap => return None,
            MoveKind::Drop
            | MoveKind::Pass
            | MoveKind::Castle
            | MoveKind::CastleGateKing
            | MoveKind::CastleGateRook => return None,
            _ => mv.to,
        };
        self.cell(sq)
            .is_color(self.side_to_move().opposite())
            .then_some(sq)
    }

    /// The first man a sweep (a rider taking every enemy on its path) captures: kept out of
    /// line, since the ordinary moves that [`Position::capture_square`] answers for every
    /// node's move list need only a look at one cell.
    #[inline(never)]
    fn sweep_capture_square(&self, mv: Move) -> Option<Square> {
        self.sweep_victims(mv.from, mv.to)
            .first()
            .copied()
            .or_else(|| {
                self.cell(mv.to)
                    .is_color(self.side_to_move().opposite())
                    .then_some(mv.to)
            })
    }

    /// The type of the man `mv` captures, if any.
    #[inline]
    pub fn captured_piece(&self, mv: Move) -> Option<PieceId> {
        self.capture_square(mv).map(|sq| self.cell(sq).id())
    }

    /// True when `mv` captures an enemy man.
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        self.capture_square(mv).is_some()
    }

    /// The Zobrist key of the position `plies_ago` moves before this one (0 = this one), when
    /// that many moves have been made since the position was set up.
    #[inline]
    pub fn key_before(&self, plies_ago: usize) -> Option<u64> {
        match plies_ago {
            0 => Some(self.st.hash),
            n => self
                .history
                .len()
                .checked_sub(n)
                .map(|i| self.history[i].state.hash),
        }
    }

    /// How many times the current position occurred before, looking back only as far as the
    /// last irreversible move (the halfmove clock) and at most `max_plies` moves.
    pub fn repetitions(&self, max_plies: usize) -> usize {
        let window = (self.st.halfmove as usize)
            .min(self.history.len())
            .min(max_plies);
        let key = self.st.hash;
        let mut found = 0;
        let mut back = 2;
        while back <= window {
            if self.history[self.history.len() - back].state.hash == key {
                found += 1;
            }
            back += 2;
        }
        found
    }
}
