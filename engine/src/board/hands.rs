//! The board side of the drop/hand family and of n-check (the rules are `variant::hands`):
//! promoted men marked so that a capture sends them to hand as pawns (crazyhouse, FEN `~`),
//! and the checks each side still has to give (three-check, FEN `3+3`), kept up by
//! make/unmake, hashed, and read from and written to FEN.

use super::position::{Change, Position};
use crate::types::{Cell, Color, Move, MoveKind, PieceId, Square};
use crate::variant::setup::{BoardToken, CheckCounters, FenError, Setup};

impl Position {
    /// True when the man on `sq` was promoted and goes to hand as a pawn when captured.
    #[inline]
    pub fn is_promoted(&self, sq: Square) -> bool {
        self.promoted.get(sq.index()).copied().unwrap_or(false)
    }

    /// The checks `color` still has to give to win (n-check); `None` in other variants.
    pub fn checks_remaining(&self, color: Color) -> Option<u8> {
        self.variant
            .hands()
            .check_counting
            .then_some(self.st.checks[color.index()])
    }

    /// The type that the man `victim`, captured on `sq`, takes in the capturer's hand.
    #[inline]
    pub(crate) fn hand_type_of_victim(&self, sq: Square, victim: Cell) -> PieceId {
        let rules = self.variant.hands();
        if rules.demotes && self.is_promoted(sq) {
            rules.demoted_type
        } else {
            victim.id()
        }
    }

    /// Sets the promoted mark of `sq`, journaled and hashed.
    fn set_mark(&mut self, sq: Square, on: bool) {
        let was = self.promoted[sq.index()];
        if was != on {
            self.promoted[sq.index()] = on;
            self.st.hash ^= self.variant.zobrist().promoted(sq);
            self.journal.push(Change::Mark(sq, was));
        }
    }

    /// What the family's rules add to a move that `us` has just made: the promoted mark goes
    /// with its man (a promotion sets it, a capture on the square ends the victim's), and a
    /// check is counted.
    #[cold]
    #[inline(never)]
    pub(crate) fn hands_after_move(&mut self, mv: Move, us: Color) {
        // The flags are copied rather than the rules (whose lists would be allocated on
        // every move of a drop game).
        let rules = self.variant.hands();
        let (marks_promoted, castling_dropped_piece, check_counting) = (
            rules.marks_promoted,
            rules.castling_dropped_piece,
            rules.check_counting,
        );
        if marks_promoted
            && matches!(
                mv.kind,
                MoveKind::Normal
                    | MoveKind::DoubleStep
                    | MoveKind::EnPassant
                    | MoveKind::Gate
                    | MoveKind::DoubleStepGate
            )
        {
            // A promotion to a promoted type (shogi's `+N`) is no mark: that man goes to the
            // hand as his unpromoted type, as in Fairy-Stockfish (shogun's knight).
            let mover_marked = self.promoted[mv.from.index()];
            let marks = mv
                .promotion()
                .is_some_and(|id| self.variant.pieces()[id.index()].promoted_from.is_none());
            self.set_mark(mv.from, false);
            self.set_mark(mv.to, mover_marked || marks);
        }
        if castling_dropped_piece && mv.kind == MoveKind::Drop {
            self.castle_dropped(mv, us);
        }
        if check_counting && self.in_check() {
            let left = self.st.checks[us.index()];
            if left > 0 {
                let z = self.variant.zobrist();
                self.st.hash ^= z.checks(us.index(), left) ^ z.checks(us.index(), left - 1);
                self.st.checks[us.index()] = left - 1;
            }
        }
    }

    /// A king dropped on his castling square may castle with the rooks on the corners of his
    /// rank; a rook dropped on a corner may castle with the king on his square
    /// (`castlingDroppedPiece`, placement).
    fn castle_dropped(&mut self, mv: Move, us: Color) {
        let Some(castling) = self.variant.castling().cloned() else {
            return;
        };
        let g = self.variant.geometry().clone();
        if g.relative_rank(mv.to, us) != castling.rank {
            return;
        }
        let id = PieceId(mv.piece);
        let rank = g.rank_of(mv.to);
        let king_sq = g.square(0, castling.king_file, rank);
        let corners = [
            g.square(0, 0, rank),
            g.square(0, g.files as usize - 1, rank),
        ];
        let is_rook = |pos: &Self, sq: Square| {
            let c = pos.cell(sq);
            c.is_color(us) && castling.rooks & (1 << c.id().0) != 0
        };
        let rooks: Vec<Square> = if id == castling.king && mv.to == king_sq {
            corners.into_iter().filter(|&s| is_rook(self, s)).collect()
        } else if castling.rooks & (1 << id.0) != 0 && corners.contains(&mv.to) {
            let c = self.cell(king_sq);
            if !(c.is_color(us) && c.id() == castling.king) {
                return;
            }
            vec![mv.to]
        } else {
            return;
        };
        let old_rights = self.st.castling;
        self.set_castle_square(4 + us.index() as u8, king_sq);
        for rook in rooks {
            let side = if g.file_of(rook) > castling.king_file {
                0
            } else {
                1
            };
            let bit = super::position::CASTLE_BITS[us.index()][side];
            self.set_castle_square(bit.trailing_zeros() as u8, rook);
            self.st.castling |= bit;
        }
        self.rebuild_castling();
        let z = self.variant.zobrist();
        self.st.hash ^= z.castling(old_rights) ^ z.castling(self.st.castling);
    }

    /// Sets a castling square (`Change::CastleSquare`'s slot), journaled.
    fn set_castle_square(&mut self, slot: u8, sq: Square) {
        let was = self.castle_square(slot);
        if was != sq {
            self.journal.push(Change::CastleSquare(slot, was));
            self.put_castle_square(slot, sq);
        }
    }

    fn castle_square(&self, slot: u8) -> Square {
        match slot {
            0..=3 => self.castle_rook[slot as usize],
            _ => self.castle_king[slot as usize - 4],
        }
    }

    fn put_castle_square(&mut self, slot: u8, sq: Square) {
        match slot {
            0..=3 => self.castle_rook[slot as usize] = sq,
            _ => self.castle_king[slot as usize - 4] = sq,
        }
    }

    /// Takes back a castling square set by a drop (unmake).
    pub(crate) fn restore_castle_square(&mut self, slot: u8, was: Square) {
        self.put_castle_square(slot, was);
        self.rebuild_castling();
    }

    /// The part of the hash that the family's state adds (for [`Position::compute_hash`]).
    pub(crate) fn hands_hash(&self) -> u64 {
        let z = self.variant.zobrist();
        let mut h = 0;
        for (i, &on) in self.promoted.iter().enumerate() {
            if on {
                h ^= z.promoted(Square(i as u16));
            }
        }
        if self.variant.hands().check_counting {
            h ^= z.checks(0, self.st.checks[0]) ^ z.checks(1, self.st.checks[1]);
        }
        h
    }

    /// The promoted marks (`~`) and the check counters of a FEN, read as Fairy-Stockfish
    /// reads them: checks still to give (`3+3`); without them, one check each (the next
    /// check wins); Lichess's checks given (`+1+0` after the move number) count from three.
    pub(crate) fn set_hands_from_setup(&mut self, setup: &Setup) -> Result<(), FenError> {
        let rules = self.variant.hands().clone();
        if rules.marks_promoted {
            let g = self.variant.geometry().clone();
            for (row, tokens) in setup.ranks.iter().enumerate() {
                let rank = g.ranks as usize - 1 - row;
                let mut file = 0;
                for t in tokens {
                    match *t {
                        BoardToken::Empty(n) => file += n,
                        BoardToken::Wall => file += 1,
                        BoardToken::Man { demotes, .. } => {
                            if let Some(sq) = g.display_square(file, rank) {
                                if demotes && self.cell(sq).is_piece() {
                                    self.promoted[sq.index()] = true;
                                    self.st.hash ^= self.variant.zobrist().promoted(sq);
                                }
                            }
                            file += 1;
                        }
                    }
                }
            }
        }
        if rules.check_counting {
            let checks = match setup.checks {
                Some(CheckCounters::Remaining(w, b)) => [w, b],
                Some(CheckCounters::Given(w, b)) => [3u8.saturating_sub(w), 3u8.saturating_sub(b)],
                None => [1, 1],
            };
            let z = self.variant.zobrist();
            self.st.checks = checks;
            self.st.hash ^= z.checks(0, checks[0]) ^ z.checks(1, checks[1]);
        }
        Ok(())
    }

    /// The FEN text of the family's state: the check counter field (`3+3 `, to stand
    /// after the e.p. field), empty in other variants.
    pub(crate) fn checks_fen(&self) -> String {
        if self.variant.hands().check_counting {
            format!(" {}+{}", self.st.checks[0], self.st.checks[1])
        } else {
            String::new()
        }
    }
}
