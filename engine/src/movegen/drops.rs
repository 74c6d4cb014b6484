//! Drops: men in hand put onto empty squares, and the named restrictions a variant can put on
//! them (`dropRule`), for rules no declarative key covers.
//!
//! `pawnvault` (docs/rules.md §1.4, Pawn Vault's dragon): the dropped man may not (1) attack
//! any enemy man, (2) defend any friendly man that an enemy attacked before the drop, (3) stand
//! strictly between an enemy line-mover and a friendly man that line-mover attacked along that
//! line.
//! `pawnvault-loose` (docs/rules.md §1.10, ambiguity 9): (1) no attack on an enemy man that is
//! unprotected or valuable, (2) no defence of an attacked friend that has no other defender,
//! (3) no interposition in front of a valuable friend; valuable = `dropRuleValuable` types.

use arrayvec::ArrayVec;

use super::generate::MoveList;
use crate::board::position::Position;
use crate::types::{Cell, Color, Move, MoveKind, Piece, PieceId, Square};
use crate::variant::tables::CAPTURE;
use crate::variant::DropRule;

/// What the drop restrictions need to know about the position before the drop.
struct DropFacts {
    /// Friendly men attacked by an enemy.
    attacked_friends: Vec<Square>,
    /// Empty squares between an enemy line-mover and a friendly man it attacks along the line,
    /// with the friend's square.
    interpositions: Vec<(Square, Square)>,
}

impl Position {
    /// Appends the drops of men in hand onto empty squares: only the variant's droppable types,
    /// pawn types not on their first rank nor in their promotion zone, and within the variant's
    /// drop rule.
    pub(crate) fn generate_drops(&self, list: &mut MoveList) {
        if self.variant().shogi().active() {
            self.generate_shogi_drops(list);
            return;
        }
        let us = self.side_to_move();
        let v = self.variant().clone();
        let g = &v.geometry();
        let facts = (v.drop_rule() != DropRule::Free).then(|| self.drop_facts());
        for id in 0..v.num_pieces() {
            let in_hand = v.free_drops() || self.in_hand(us, PieceId(id as u8)) > 0;
            if !in_hand || v.drop_types() & (1 << id) == 0 {
                continue;
            }
            let pawn = v.is_drop_pawn(PieceId(id as u8), us);
            for sq in g.squares() {
                if !self.cell(sq).is_empty() {
                    continue;
                }
                let (first_rank, zone) = v.pawn_drops_allowed();
                if pawn
                    && (!first_rank && g.relative_rank(sq, us) == 0
                        || !zone && v.in_promotion_zone(us, sq))
                {
                    continue;
                }
                // `immobilityIllegal`: no man is dropped where he could never move (Makhouse's
                // pawns, which may be dropped on the first rank and in the zone, but not on the
                // last rank).
                if v.shogi().is_dead(PieceId(id as u8), us, sq.index()) {
                    continue;
                }
                if let Some(facts) = &facts {
                    if !self.drop_allowed(sq, PieceId(id as u8), facts, v.drop_rule()) {
                        continue;
                    }
                }
                list.push(Move::with(sq, sq, MoveKind::Drop, Square::NONE, id as u8));
            }
        }
    }

    fn drop_facts(&self) -> DropFacts {
        let us = self.side_to_move();
        let them = us.opposite();
        let attacked_friends = self
            .squares_of(us)
            .iter()
            .copied()
            .filter(|&s| self.is_attacked(s, them))
            .collect();
        let mut interpositions = Vec::new();
        for &from in self.squares_of(them) {
            let cell = self.cell(from);
            let moves = &self.variant().pieces()[cell.id().index()].moves[them.index()];
            for slide in moves.slides.iter().filter(|s| s.mode & CAPTURE != 0) {
                let mut between = Vec::new();
                let mut s = from;
                loop {
                    s = s.offset(slide.delta);
                    let c = self.cell(s);
                    if c.is_empty() {
                        between.push(s);
                        if slide.max != 0 && between.len() >= slide.max as usize {
                            break;
                        }
                        continue;
                    }
                    if c.is_color(us) {
                        interpositions.extend(between.iter().map(|&b| (b, s)));
                    }
                    break;
                }
            }
        }
        DropFacts {
            attacked_friends,
            interpositions,
        }
    }

    /// The squares a man `cell` standing on `from` would attack (could capture on, whoever
    /// stands there): his plain leaps' targets and the first man on each plain slide.
    fn attack_squares(&self, from: Square, cell: Cell) -> ArrayVec<Square, 64> {
        let color = cell.color().unwrap_or(Color::White);
        let moves = &self.variant().pieces()[cell.id().index()].moves[color.index()];
        let mut out = ArrayVec::new();
        for leap in moves.leaps.iter().filter(|l| l.mode & CAPTURE != 0) {
            let to = from.offset(leap.delta);
            if self.cell(to).is_piece() {
                let _ = out.try_push(to);
            }
        }
        for slide in moves.slides.iter().filter(|s| s.mode & CAPTURE != 0) {
            let mut s = from;
            let mut steps = 0u8;
            loop {
                s = s.offset(slide.delta);
                steps += 1;
                let c = self.cell(s);
                if c.is_piece() {
                    let _ = out.try_push(s);
                }
                if !c.is_empty() || slide.max != 0 && steps >= slide.max {
                    break;
                }
            }
        }
        out
    }

    /// True when `color`'s men defend `sq` (attack it, pins ignored).
    fn defended_by(&self, sq: Square, color: Color) -> bool {
        self.is_attacked(sq, color)
    }

    fn drop_allowed(&self, sq: Square, id: PieceId, facts: &DropFacts, rule: DropRule) -> bool {
        let us = self.side_to_move();
        let them = us.opposite();
        let cell = Cell::new(Piece { color: us, id }, false);
        let valuable = |s: Square| {
            let t = self.cell(s).id();
            self.variant().drop_valuable() & (1 << t.0) != 0 || self.variant().is_royal(t)
        };
        for target in self.attack_squares(sq, cell) {
            let c = self.cell(target);
            if c.is_color(them) {
                // (1) attacking an enemy man.
                if rule == DropRule::PawnVault
                    || valuable(target)
                    || !self.defended_by(target, them)
                {
                    return false;
                }
            } else if facts.attacked_friends.contains(&target) {
                // (2) defending an attacked friend (loose: only one with no other defender).
                if rule == DropRule::PawnVault || !self.defended_by(target, us) {
                    return false;
                }
            }
        }
        // (3) standing in the line of an enemy line-mover's attack on a friend.
        !facts.interpositions.iter().any(|&(between, friend)| {
            between == sq && (rule == DropRule::PawnVault || valuable(friend))
        })
    }
}
