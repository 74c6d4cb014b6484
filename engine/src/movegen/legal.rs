//! Legality: which pseudo-legal moves leave the mover's royal man safe. A fast path decides most
//! moves without making them (single royal, plain leaps and slides only: pins are found by
//! walking lines from the royal man); everything else is made, tested and unmade.

use arrayvec::ArrayVec;

use super::generate::MoveList;
use crate::board::position::Position;
use crate::types::{Cell, Color, Move, MoveKind, Square};

/// What the fast legality test needs to know about the position, computed once per node.
struct Guard {
    /// The mover's only royal man, when the fast path applies.
    royal: Square,
    in_check: bool,
    pinned: ArrayVec<Square, 32>,
}

impl Position {
    /// True when the side that just moved (`color`) has left a royal man capturable.
    pub fn royal_in_danger(&self, color: Color) -> bool {
        if !self.variant.checking {
            return false;
        }
        let them = color.opposite();
        match self.royal_count(color) {
            0 => false,
            1 => self.is_attacked(self.royal_sq[color.index()], them),
            _ => self.royal_squares(color).iter().any(|&s| self.is_attacked(s, them)),
        }
    }

    /// True when the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.royal_in_danger(self.side)
    }

    /// The fast-path facts, or `None` when every move must be tested by making it.
    fn guard(&self) -> Option<Guard> {
        let us = self.side;
        if !self.variant.simple_attacks || self.royal_count(us) != 1 {
            return None;
        }
        let royal = self.royal_sq[us.index()];
        let them = us.opposite();
        let in_check = self.is_attacked(royal, them);
        let mut pinned = ArrayVec::new();
        let us_bit = us.cell_bit();
        let them_bit = them.cell_bit();
        for sa in &self.variant.attacks[them.index()].slides {
            let mut s = royal;
            let mut k = 0u8;
            let mut shield = Square::NONE;
            loop {
                s = s.offset(sa.delta);
                k = k.saturating_add(1);
                let c = self.cell(s);
                if c.is_empty() {
                    continue;
                }
                if c.0 & us_bit != 0 && shield == Square::NONE {
                    shield = s;
                    continue;
                }
                if c.0 & them_bit != 0 && shield != Square::NONE {
                    let m = 1u32 << c.id().0;
                    if sa.unlimited & m != 0 || sa.limited.iter().any(|&(lm, max)| lm & m != 0 && k <= max) {
                        let _ = pinned.try_push(shield);
                    }
                }
                break;
            }
        }
        Some(Guard { royal, in_check, pinned })
    }

    /// Makes the move, asks whether the mover's royal man is safe, and unmakes it.
    pub fn is_legal_by_making(&mut self, mv: Move) -> bool {
        let us = self.side;
        self.make_move(mv);
        let ok = !self.royal_in_danger(us);
        self.unmake_move();
        ok
    }

    /// True when the royal man moving from `from` to `to` would be safe there.
    fn royal_step_safe(&mut self, from: Square, to: Square) -> bool {
        let them = self.side.opposite();
        let cell = self.board[from.index()];
        self.board[from.index()] = Cell::EMPTY;
        let safe = !self.is_attacked(to, them);
        self.board[from.index()] = cell;
        safe
    }

    fn legal_with_guard(&mut self, mv: Move, guard: &Guard) -> bool {
        match mv.kind {
            MoveKind::Normal | MoveKind::DoubleStep => {
                if mv.from == guard.royal {
                    self.royal_step_safe(mv.from, mv.to)
                } else if guard.in_check || guard.pinned.contains(&mv.from) {
                    self.is_legal_by_making(mv)
                } else {
                    true
                }
            }
            MoveKind::Drop if !guard.in_check => true,
            _ => self.is_legal_by_making(mv),
        }
    }

    /// Appends every legal move of the side to move.
    pub fn generate_legal(&mut self, list: &mut MoveList) {
        let start = list.len();
        self.generate_pseudo_legal(list);
        if !self.variant.checking {
            return;
        }
        let guard = self.guard();
        let mut kept = start;
        for i in start..list.len() {
            let mv = list[i];
            let ok = match &guard {
                Some(g) => self.legal_with_guard(mv, g),
                None => self.is_legal_by_making(mv),
            };
            if ok {
                list[kept] = mv;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&mut self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// True when `mv` is one of the legal moves here.
    pub fn is_legal(&mut self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }
}
