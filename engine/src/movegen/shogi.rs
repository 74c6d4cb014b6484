//! Shogi-style moves ([`crate::variant::shogi`]): each board move of a man who promotes or
//! demotes (listed with the men whose moves overlap, off the fast path) expanded into its forms (promoted, demoted, unchanged where that is allowed and
//! leaves him able to move again), and drops with their restrictions (nifu, immobile men,
//! dropping promoted).

use super::generate::{MoveList, MoveSink};
use crate::board::position::Position;
use crate::types::{Cell, Move, MoveKind, PieceId, Square};

impl Position {
    /// Pushes the forms of one board move of the man `cell` (whose moves are generated as a
    /// man with overlapping moves, see [`crate::variant::shogi::ShogiRules::movers`]):
    /// promoted and demoted where the move starts or ends in the zone (and captures, where
    /// only captures promote), unchanged unless a change is compulsory there or he could never
    /// move again from `to`.
    pub(crate) fn push_shogi_move<S: MoveSink>(
        &self,
        from: Square,
        to: Square,
        cell: Cell,
        kind: MoveKind,
        aux: Square,
        list: &mut S,
    ) {
        let us = self.side_to_move();
        let v = self.variant();
        let rules = v.shogi();
        let id = cell.id();
        let capture = kind == MoveKind::EnPassant || self.cell(to).is_piece();
        let eligible = (v.in_promotion_zone(us, from) || v.in_promotion_zone(us, to))
            && (!rules.on_capture || capture);
        let mut changed = false;
        if eligible {
            if let Some(up) = rules.promoted[id.index()].filter(|&up| !self.limit_reached(us, up)) {
                list.add(Move::with(from, to, kind, aux, up.0));
                changed = true;
            }
            if let Some(down) = rules.unpromoted[id.index()].filter(|_| rules.demotion) {
                list.add(Move::with(from, to, kind, aux, down.0));
                changed = true;
            }
        }
        if changed && rules.mandatory || rules.is_dead(id, us, to.index()) {
            return;
        }
        list.add(Move::with(from, to, kind, aux, Move::NO_PIECE));
    }

    /// True when `us` may not promote to `to` any more (`promotionLimit`): the men counted as
    /// one with it (Shogun's `+N` is a centaur, `+B` an archbishop) are as many as the limit of
    /// that type.
    pub(crate) fn limit_reached(&self, us: crate::types::Color, to: PieceId) -> bool {
        let v = self.variant();
        let limits = &v.promotion().limit;
        let kind = v.shogi().kind(to);
        if kind == 1 << to.0 {
            let limit = limits[to.index()];
            return limit != 0 && self.count(us, to) >= limit;
        }
        let types = (0..limits.len()).filter(|&t| kind & (1 << t) != 0);
        let Some(limit) = types.clone().map(|t| limits[t]).filter(|&l| l != 0).min() else {
            return false;
        };
        let men: u32 = types.map(|t| self.count(us, PieceId(t as u8)) as u32).sum();
        men >= limit as u32
    }

    /// The drops of a variant with shogi rules: onto empty squares, chess pawns not on their
    /// first rank nor in their zone, no man where he could never move, no man of the
    /// `dropNoDoubled` type on a file with enough of them, and each man also promoted where
    /// `dropPromoted` allows it.
    pub(crate) fn generate_shogi_drops(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let v = self.variant();
        let g = v.geometry();
        let rules = v.shogi();
        let (first_rank, zone) = v.pawn_drops_allowed();
        for id in 0..v.num_pieces() {
            let piece = PieceId(id as u8);
            if self.in_hand(us, piece) == 0 || v.drop_types() & (1 << id) == 0 {
                continue;
            }
            let pawn = v.is_drop_pawn(piece, us);
            let mut full_files = 0u32;
            if let Some((kind, count)) = rules.no_doubled.filter(|(k, _)| *k == piece) {
                let mut on_file = [0u8; 16];
                for &sq in self.squares_of(us) {
                    if self.cell(sq).id() == kind {
                        on_file[g.file_of(sq)] += 1;
                    }
                }
                for (f, &n) in on_file.iter().enumerate() {
                    if n >= count {
                        full_files |= 1 << f;
                    }
                }
            }
            let promoted = rules.promoted[id].filter(|_| rules.drop_promoted);
            // A royal man in hand (placement's setup) may not be dropped into check: drops are
            // otherwise taken as legal out of check, as no drop uncovers the royal man.
            let royal = v.is_royal(piece);
            for sq in g.squares() {
                if !self.cell(sq).is_empty() || full_files & (1 << g.file_of(sq)) != 0 {
                    continue;
                }
                if royal && self.is_attacked(sq, us.opposite()) {
                    continue;
                }
                if pawn
                    && (!first_rank && g.relative_rank(sq, us) == 0
                        || !zone && v.in_promotion_zone(us, sq))
                {
                    continue;
                }
                if let Some(p) = promoted {
                    if !rules.is_dead(p, us, sq.index()) {
                        list.push(Move::with(sq, sq, MoveKind::Drop, Square::NONE, p.0));
                    }
                }
                if !rules.is_dead(piece, us, sq.index()) {
                    list.push(Move::with(sq, sq, MoveKind::Drop, Square::NONE, id as u8));
                }
            }
        }
    }

    /// True when the side to move has just been mated by a drop of the type whose drop mate
    /// loses (`shogiPawnDropMateIllegal`): the mated side wins.
    pub(crate) fn mated_by_pawn_drop(&self) -> bool {
        let Some(pawn) = self.variant().shogi().pawn_drop_mate else {
            return false;
        };
        self.history
            .last()
            .is_some_and(|u| u.mv.kind == MoveKind::Drop && u.mv.piece == pawn.0)
    }
}
