//! The move filters of the drop/hand family (the rules are `variant::hands`), applied to the
//! legal moves as Fairy-Stockfish's legality test applies them: rooks dropped only on the
//! first rank (sittuyin), bishops dropped so that each side can still have one on each colour
//! (placement), and compulsory drops (placement, sittuyin, koedem): while a side holds men
//! (of the must-drop type, if one is named) and can drop one, it must, and only that type;
//! and sittuyin's promotion move, with its rule that a promotion may not give check.

use super::generate::MoveList;
use crate::board::position::Position;
use crate::types::{Color, Move, MoveKind, PieceId, Square};

impl Position {
    /// Strikes off `list[start..]` the moves the family's rules forbid.
    pub(crate) fn apply_hand_filters(&mut self, list: &mut MoveList, start: usize) {
        // The variant's handle, not its rules, is copied: the rules hold lists.
        let v = self.variant.clone();
        let rules = v.hands();
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
        if rules.sittuyin_promotion {
            let mut kept = start;
            for i in start..list.len() {
                let mv = list[i];
                if mv.promotion().is_none() || !self.gives_check(mv) {
                    list[kept] = mv;
                    kept += 1;
                }
            }
            list.truncate(kept);
        }
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

    /// Appends sittuyin's promotions: a pawn in the zone (or the side's only pawn, anywhere)
    /// becomes a promotion piece, while the side has fewer than the type's limit, on his square
    /// or on an empty square one of the new piece's moves reaches, provided the new piece
    /// attacks no enemy man there (Fairy-Stockfish's `sittuyinPromotion`).
    pub(crate) fn generate_sittuyin_promotions(&self, list: &mut MoveList) {
        let v = self.variant.clone();
        let rules = v.hands();
        let us = self.side;
        let promo = v.promotion();
        let pawns: Vec<Square> = self
            .squares_of(us)
            .iter()
            .copied()
            .filter(|&s| promo.promotes(self.cell(s).id(), us))
            .collect();
        let zone = &rules.sittuyin_zone[us.index()];
        for &from in &pawns {
            if pawns.len() > 1 && !zone.get(from.index()).copied().unwrap_or(false) {
                continue;
            }
            let pawn = self.cell(from).id();
            for &choice in promo.choices_for(pawn, us) {
                let limit = promo.limit[choice.index()];
                if limit != 0 && self.count(us, choice) >= limit {
                    continue;
                }
                let leaps = &v.pieces()[choice.index()].moves[us.index()].leaps;
                let targets = std::iter::once(from).chain(
                    leaps
                        .iter()
                        .map(|l| from.offset(l.delta))
                        .filter(|&to| self.cell(to).is_empty()),
                );
                for to in targets {
                    let attacks_enemy = leaps.iter().any(|l| {
                        let s = to.offset(l.delta);
                        s != from && self.cell(s).is_color(us.opposite())
                    });
                    if !attacks_enemy {
                        list.push(Move::with(
                            from,
                            to,
                            MoveKind::Normal,
                            Square::NONE,
                            choice.0,
                        ));
                    }
                }
            }
        }
    }

    /// True when the drop `mv` leaves `us` able to have as many bishops (type `bishop`) on
    /// dark squares as on light ones: a bishop may not join a colour already holding half of
    /// them, another man may not take a square that the remaining bishops need.
    fn bishops_stay_paired(&self, mv: Move, bishop: PieceId, us: Color) -> bool {
        let g = self.variant.geometry();
        let dark = |s: Square| (g.file_of(s) + g.rank_of(s)).is_multiple_of(2);
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
