//! The move filters of the drop/hand family (the rules are `variant::hands`), applied to the
//! legal moves as Fairy-Stockfish's legality test applies them: rooks dropped only on the
//! first rank (sittuyin), bishops dropped so that each side can still have one on each colour
//! (placement), and compulsory drops (placement, sittuyin, koedem): while a side holds men
//! (of the must-drop type, if one is named) and can drop one, it must, and only that type.

use super::generate::MoveList;
use crate::board::position::Position;
use crate::types::{Color, Move, MoveKind, PieceId, Square};

impl Position {
    /// Strikes off `list[start..]` the moves the family's rules forbid.
    pub(crate) fn apply_hand_filters(&mut self, list: &mut MoveList, start: usize) {
        let rules = self.variant.hands().clone();
        if !rules.filters() {
            return;
        }
        let us = self.side;
        let must_type_held = match rules.must_drop_type {
            Some(id) => self.in_hand(us, id) > 0,
            None => (0..self.variant.num_pieces()).any(|i| self.in_hand(us, PieceId(i as u8)) > 0),
        };
        let must_drop = rules.must_drop && must_type_held;
        let mut kept = start;
        for i in start..list.len() {
            let mv = list[i];
            let ok = mv.kind != MoveKind::Drop || {
                let id = PieceId(mv.piece);
                let g = self.variant.geometry();
                (rules.sittuyin_rook_drop != Some(id) || g.relative_rank(mv.to, us) == 0)
                    && rules
                        .opposite_bishops
                        .is_none_or(|b| self.bishops_stay_paired(mv, b, us))
                    && (!must_drop || rules.must_drop_type.is_none_or(|t| t == id))
            };
            if ok {
                list[kept] = mv;
                kept += 1;
            }
        }
        list.truncate(kept);
        if must_drop && list[start..].iter().any(|m| m.kind == MoveKind::Drop) {
            let mut kept = start;
            for i in start..list.len() {
                if list[i].kind == MoveKind::Drop {
                    list[kept] = list[i];
                    kept += 1;
                }
            }
            list.truncate(kept);
        }
    }

    /// True when the drop `mv` leaves `us` able to have as many bishops (type `bishop`) on
    /// dark squares as on light ones: a bishop may not join a colour already holding half of
    /// them, another man may not take a square that the remaining bishops need.
    fn bishops_stay_paired(&self, mv: Move, bishop: PieceId, us: Color) -> bool {
        let g = self.variant.geometry();
        let dark = |s: Square| (g.file_of(s) + g.rank_of(s)) % 2 == 0;
        let total = (self.count(us, bishop) + self.in_hand(us, bishop)) as usize;
        let region = self.variant.drop_region(us);
        let (mut on_dark, mut on_light) = (0, 0);
        let (mut free_dark, mut free_light) = (0, 0);
        for sq in g.squares() {
            let c = self.cell(sq);
            if c.is_color(us) && c.id() == bishop {
                if dark(sq) {
                    on_dark += 1;
                } else {
                    on_light += 1;
                }
            } else if c.is_empty() && sq != mv.to && region.is_none_or(|r| r[sq.index()]) {
                if dark(sq) {
                    free_dark += 1;
                } else {
                    free_light += 1;
                }
            }
        }
        if PieceId(mv.piece) == bishop {
            let same = if dark(mv.to) { on_dark } else { on_light };
            same < total.div_ceil(2)
        } else {
            on_dark + free_dark >= total / 2 && on_light + free_light >= total / 2
        }
    }
}
