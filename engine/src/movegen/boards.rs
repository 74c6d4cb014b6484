//! Generation and legality for the general board rules: several boards with transfers (each
//! one-board move is mapped to the same square of every allowed destination board, which must
//! be empty), capture restrictions (who may capture, support on the landing board), and turns
//! made of parts (only the part's types move, and a part is legal only if the turn can be
//! completed after it). One-board variants without these rules never come here.

use super::generate::{MoveList, MoveSink};
use crate::board::position::Position;
use crate::types::{Cell, Color, Move, MoveKind, Square};
use crate::variant::tables::PieceMask;

/// Takes the one-board moves of one man and passes on their transferred forms.
struct TransferSink<'a, S: MoveSink> {
    pos: &'a Position,
    inner: &'a mut S,
    /// The mover's board.
    origin: usize,
    /// Bits of the boards he may end on.
    destinations: u8,
    /// He may capture at all.
    may_capture: bool,
}

impl<S: MoveSink> MoveSink for TransferSink<'_, S> {
    #[inline]
    fn add(&mut self, mv: Move) {
        // Only plain moves cross boards; double steps leave no e.p. square behind (none of
        // the multi-board games has en passant).
        if !matches!(mv.kind, MoveKind::Normal | MoveKind::DoubleStep) {
            return;
        }
        let pos = self.pos;
        let captures = pos.cell_fast(mv.to).is_piece();
        if captures && !self.may_capture {
            return;
        }
        let g = &pos.variant.geometry();
        for board in 0..g.boards as usize {
            if self.destinations & (1 << board) == 0 {
                continue;
            }
            let to = g.same_square_on(mv.to, self.origin, board);
            if !pos.cell_fast(to).is_empty() || captures && !pos.capture_supported(to) {
                continue;
            }
            self.inner
                .add(Move::with(mv.from, to, MoveKind::Transfer, mv.to, mv.piece));
        }
    }
}

/// Passes on the moves of men who may capture freely, dropping the captures of the others and
/// the captures without support.
struct CaptureFilter<'a, S: MoveSink> {
    pos: &'a Position,
    inner: &'a mut S,
    may_capture: bool,
}

impl<S: MoveSink> MoveSink for CaptureFilter<'_, S> {
    fn add(&mut self, mv: Move) {
        if self.pos.capture_square(mv).is_some()
            && (!self.may_capture || !self.pos.capture_supported(mv.to))
        {
            return;
        }
        self.inner.add(mv);
    }
}

impl Position {
    /// True when a capture landing on the square `to` has the support the variant asks
    /// for: a man of the side to move of a supporting type that attacks `to` on its board.
    fn capture_supported(&self, to: Square) -> bool {
        let supporters = self.variant.captures().supporters;
        supporters == 0 || self.is_attacked_by_types(to, self.side, supporters)
    }

    /// Pseudo-legal generation under the general board rules.
    pub(crate) fn generate_board_rules(&self, list: &mut MoveList) {
        let us = self.side;
        let movable = self.movable_types();
        let v = &self.variant;
        let g = &v.geometry();
        for i in 0..self.squares_of(us).len() {
            let from = self.squares_of(us)[i];
            let cell = self.cell_fast(from);
            if movable & (1 << cell.id().0) == 0 {
                continue;
            }
            let may_capture = v.captures().may_capture(cell.id());
            match &v.transfer() {
                Some(t) => {
                    let origin = g.board_of(from);
                    let mut sink = TransferSink {
                        pos: self,
                        inner: list,
                        origin,
                        destinations: t.destinations_from(origin),
                        may_capture,
                    };
                    self.generate_piece_moves(from, cell, &mut sink);
                }
                None => {
                    let mut sink = CaptureFilter {
                        pos: self,
                        inner: list,
                        may_capture,
                    };
                    self.generate_piece_moves(from, cell, &mut sink);
                }
            }
        }
        if v.castling().is_some() && self.st.castling != 0 {
            self.generate_board_castling(movable, list);
        }
    }

    /// Castling under the board rules: legal on the king's board as in chess, then (with
    /// transfers) king and rook both go across to their destination squares on the other
    /// board, which must be empty.
    fn generate_board_castling(&self, movable: PieceMask, list: &mut MoveList) {
        let mut castles = MoveList::new();
        self.generate_castling(&mut castles, None);
        let g = &self.variant.geometry();
        for &mv in castles.iter() {
            if movable & (1 << self.cell_fast(mv.from).id().0) == 0 {
                continue;
            }
            let Some(t) = &self.variant.transfer() else {
                list.add(mv);
                continue;
            };
            let (king_to, rook_to) = self.castle_targets(mv);
            let origin = g.board_of(mv.from);
            for board in 0..g.boards as usize {
                if t.destinations_from(origin) & (1 << board) == 0 {
                    continue;
                }
                let (k, r) = (
                    g.same_square_on(king_to, origin, board),
                    g.same_square_on(rook_to, origin, board),
                );
                if self.cell_fast(k).is_empty() && self.cell_fast(r).is_empty() {
                    list.add(Move::with(mv.from, k, MoveKind::Castle, mv.aux, mv.piece));
                }
            }
        }
    }

    /// Legal generation under the board rules: the check rule where the variant has one (a
    /// king crossing boards must also be safe on his own board at the square he moves to,
    /// before he goes across), then, for a part that does not end the turn, only the moves
    /// after which the turn can be completed.
    pub(crate) fn generate_legal_board_rules(&mut self, list: &mut MoveList) {
        let v = &self.variant;
        if v.royal_mask() != 0 && !v.checking() && self.royal_count(self.side) == 0 {
            // The side to move's King was taken: the game is over, nothing more is played.
            return;
        }
        let start = list.len();
        self.generate_board_rules(list);
        let us = self.side;
        let check = self.royals_protected(us);
        let continues = self.turn_continues();
        let mut kept = start;
        for i in start..list.len() {
            let mv = list[i];
            let ok = (!check || self.board_move_is_safe(mv))
                && (!continues || self.turn_can_be_completed(mv));
            if ok {
                list[kept] = mv;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// The check rule for a move under the board rules.
    fn board_move_is_safe(&mut self, mv: Move) -> bool {
        let us = self.side;
        if mv.kind == MoveKind::Transfer && self.variant.is_royal(self.cell_fast(mv.from).id()) {
            // The king's move must be legal on his own board before he goes across.
            let cell = self.board[mv.from.index()];
            self.board[mv.from.index()] = Cell::EMPTY;
            let safe = !self.is_attacked(mv.aux, us.opposite());
            self.board[mv.from.index()] = cell;
            if !safe {
                return false;
            }
        }
        self.make_move(mv);
        let ok = !self.royal_in_danger(us);
        self.unmake_move();
        ok
    }

    /// True when, after `mv`, the side that made it has a legal move for the next part.
    fn turn_can_be_completed(&mut self, mv: Move) -> bool {
        self.make_move(mv);
        let mut next = MoveList::new();
        // A capture of the last enemy royal man ends the game: nothing more is needed.
        let royal_taken = self.variant.royal_mask() != 0
            && !self.variant.checking()
            && self.royal_count(self.side.opposite()) == 0;
        let ok = royal_taken || {
            self.generate_legal_board_rules(&mut next);
            !next.is_empty()
        };
        self.unmake_move();
        ok
    }

    /// True when `sq` is attacked by a man of colour `by` whose type is in `types`, with the
    /// plain leaps and slides of the attack tables (the support test of Alice Guard, whose men
    /// are all such pieces).
    pub(crate) fn is_attacked_by_types(&self, sq: Square, by: Color, types: PieceMask) -> bool {
        self.attacked_by_plain(sq, by, types)
    }
}
