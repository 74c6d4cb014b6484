//! What a move changes under the makruk family's rules, after the move itself: the count of
//! the counting rules (`countingRule`, kept in the game state) and, in Ouk Chatrang
//! (`cambodianMoves`), the king's leaping right, lost to a rook on his file or rank. Both as
//! Fairy-Stockfish does them; the moves themselves are `movegen::makruk`'s.

use super::position::{Change, Position};
use crate::types::{Cell, Color, Move};
use crate::variant::counting::{CountingRule, Material};

impl Position {
    /// The rules of the family applied after `mv`, made by `us` (the other side moves next);
    /// the journal from `journal_len` holds the move's edits.
    #[cold]
    #[inline(never)]
    pub(super) fn after_makruk_move(&mut self, mv: Move, us: Color, journal_len: usize) {
        let captured = self.journal[journal_len..].iter().find_map(|c| match c {
            Change::Took(_, cell, _) if !cell.is_color(us) => Some(*cell),
            _ => None,
        });
        if self.variant.counting().is_some() {
            self.update_count(captured, mv.promotion().is_some(), us);
        }
        if self.variant.cambodian_moves() {
            self.rook_check_takes_leap(mv, us);
        }
    }

    /// The men the counting limits are computed from.
    fn counting_material(&self) -> Material {
        let Some(rules) = self.variant.counting() else {
            return Material::default();
        };
        let mut m = Material::default();
        for c in Color::ALL {
            let i = c.index();
            m.men[i] = self.squares_of(c).len() as u32;
            for (id, &n) in self.counts[i].iter().enumerate() {
                let bit = 1u32 << id;
                let n = n as u32;
                if rules.pawns & bit != 0 {
                    m.pawns += n;
                }
                if rules.rooks & bit != 0 {
                    m.rooks[i] += n;
                }
                if rules.khons & bit != 0 {
                    m.khons[i] += n;
                }
                if rules.knights & bit != 0 {
                    m.knights[i] += n;
                }
            }
        }
        m
    }

    /// Fairy-Stockfish's count after a move: it runs on by one ply once started; a count starts
    /// for the side to move when its limit is not zero and none runs (or it has just lost its
    /// last man but the king, by a capture or the opponent's promotion, which restarts the
    /// count with the pieces' honour limit), and for the mover when its bare king has just
    /// taken the last pawn.
    fn update_count(&mut self, captured: Option<Cell>, promoted: bool, us: Color) {
        let Some(rules) = self.variant.counting() else {
            return;
        };
        let rule = rules.rule;
        let pawns = rules.pawns;
        let before = self.count;
        if self.count[0] != 0 {
            self.count[1] = self.count[1].saturating_add(1);
        }
        let m = self.counting_material();
        let limit = |side: usize| self.variant.counting().map_or(0, |r| r.limit(&m, side));
        let (mover, stm) = (us.index(), us.opposite().index());
        let total = m.men[0] + m.men[1];
        let took_pawn = captured.is_some_and(|c| pawns & (1 << c.id().0) != 0);
        if rule != CountingRule::Asean && took_pawn && m.men[mover] == 1 && m.pawns == 0 {
            let l = limit(mover);
            if l > 0 {
                self.count[0] = 2 * l as u16;
                self.count[1] = (2 * total - 1) as u16;
            }
        }
        let restart = (captured.is_some() || promoted) && m.men[stm] == 1;
        if self.count[0] == 0 || restart {
            let l = limit(stm);
            if l > 0 {
                self.count[0] = 2 * l as u16;
                self.count[1] = if rule == CountingRule::Asean || m.men[stm] > 1 {
                    0
                } else {
                    2 * total as u16
                };
            }
        }
        if self.count != before {
            self.journal.push(Change::Count(before));
        }
    }

    /// True when the counting rule's count has passed its limit: the game is drawn unless
    /// the side to move is mated.
    #[inline]
    pub fn count_over(&self) -> bool {
        self.count[0] != 0 && self.count[1] > self.count[0]
    }

    /// A rook that lands on the file or rank of an enemy king that still has its leaping right
    /// takes the right away (Ouk Chatrang), as Fairy-Stockfish rules it: the rook's lines are
    /// seen on an empty board, so men between do not shield the king.
    fn rook_check_takes_leap(&mut self, mv: Move, us: Color) {
        let them = us.opposite();
        let mover = self.cell(mv.to);
        if !mover.is_color(us) || self.variant.pieces()[mover.id().index()].name != "rook" {
            return;
        }
        let Some(king) = self.royal_square(them) else {
            return;
        };
        let cell = self.cell(king);
        if !cell.is_virgin() {
            return;
        }
        let g = self.variant.geometry();
        let on_line = g.file_of(mv.to) == g.file_of(king) || g.rank_of(mv.to) == g.rank_of(king);
        if on_line {
            self.edit_replace(king, cell.moved());
        }
    }
}
