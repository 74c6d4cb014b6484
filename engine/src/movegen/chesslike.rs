//! Legality in Fairy-Stockfish's chess-like family, judged as it judges it: pseudo-royal men
//! (atomic's king, coregal's queens, Spartan's kings with duple check), atomic chess's
//! exceptions (a man next to an enemy pseudo-royal man cannot be attacked, blowing up one's
//! own is illegal, blowing up the enemy's is legal whatever it leaves attacked) and men that
//! may not take their own kind (atomar's kings). Only variants with these rules come here
//! ([`Variant::chesslike_legality`](crate::variant::Variant::chesslike_legality)).

use crate::board::position::{CastlePath, Change, Position};
use crate::types::{Cell, Color, MoveKind, PieceId, Square, MAX_PIECE_TYPES};
use crate::variant::chesslike::PseudoRoyalRules;
use crate::variant::tables::PieceMask;

impl Position {
    /// True when `color`'s royal men are in danger under the family's rules: after `color`'s
    /// move (it is then the other side's turn), the move was illegal; for the side to move,
    /// it is in check.
    #[cold]
    #[inline(never)]
    pub(crate) fn chesslike_danger(&self, color: Color) -> bool {
        let just_moved = color != self.side;
        if just_moved && self.took_own_kind() {
            return true;
        }
        match self.variant.pseudo_royal() {
            Some(rules) => self.pseudo_royals_in_danger(color, rules, just_moved),
            None => {
                self.royals_protected(color)
                    && self.squares_of(color).iter().any(|&s| {
                        self.variant.is_royal(self.cell(s).id()) && self.attacked_royal(s, color)
                    })
            }
        }
    }

    /// [`Position::royal_in_danger`] for `us` just after `us`'s move, with the wall that move
    /// made seen through as Fairy-Stockfish's move test sees it (it takes the capture square
    /// of an explosion, and an en-passant victim's square, as empty, whatever stands there
    /// after the move): a capturer petrified by his own blast, the duck set down where a man
    /// was taken en passant, or on the square of a capturer who stood next to his victim (its
    /// blast clears the men around the capture square as they stood before the move, the
    /// capturer among them unless he is a pawn).
    #[cold]
    #[inline(never)]
    pub(crate) fn danger_seeing_through(&mut self, us: Color) -> bool {
        let Some(sq) = self.wall_seen_through() else {
            return self.royal_in_danger(us);
        };
        self.board[sq.index()] = Cell::EMPTY;
        let danger = self.royal_in_danger(us);
        self.board[sq.index()] = Cell::WALL;
        danger
    }

    /// The wall the last move made that Fairy-Stockfish's move test does not see, if any.
    fn wall_seen_through(&self) -> Option<Square> {
        let undo = self.history.last()?;
        let mv = undo.mv;
        let changes = &self.journal[undo.journal_len as usize..];
        let petrified = |sq: Square| {
            changes
                .iter()
                .any(|c| matches!(*c, Change::Wall(w, true) if w == sq))
        };
        if self.variant.petrify().is_some() && petrified(mv.to) && self.is_wall(mv.to) {
            return Some(mv.to);
        }
        if mv.kind == MoveKind::Walled && mv.aux == mv.from && self.is_wall(mv.from) {
            if let Some(blast) = self.variant.blast() {
                let g = self.variant.geometry();
                let (fb, ff, fr) = g.coords(mv.from);
                let (tb, tf, tr) = g.coords(mv.to);
                let next_to = fb == tb && ff.abs_diff(tf) <= 1 && fr.abs_diff(tr) <= 1;
                let them = undo.side.opposite();
                let mut capturer = None;
                let mut captured = false;
                for c in changes {
                    match *c {
                        Change::Shifted(from, _, old, _) if from == mv.from => capturer = Some(old),
                        Change::Took(at, cell, _) if at == mv.to && cell.is_color(them) => {
                            captured = true
                        }
                        _ => {}
                    }
                }
                let spared = capturer.is_some_and(|c| blast.spared & (1 << c.id().0) != 0);
                if next_to && captured && !spared {
                    return Some(mv.from);
                }
            }
        }
        if mv.kind == MoveKind::WalledEnPassant && mv.from != mv.to {
            let g = self.variant.geometry();
            let back = g.delta(0, if undo.side == Color::White { -1 } else { 1 }) as i32;
            let victim = Square((mv.to.0 as i32 + back) as u16);
            if mv.aux == victim && self.is_wall(victim) {
                return Some(victim);
            }
        }
        None
    }

    /// True when the last move was a capture of a man of the mover's own type, by a type
    /// that may not do that (`mutuallyImmuneTypes`).
    fn took_own_kind(&self) -> bool {
        let immune = self.variant.mutually_immune();
        let Some(undo) = self.history.last() else {
            return false;
        };
        if immune == 0 {
            return false;
        }
        let changes = &self.journal[undo.journal_len as usize..];
        let mover = changes.iter().find_map(|c| match *c {
            Change::Shifted(from, _, old, _) if from == undo.mv.from => Some(old),
            _ => None,
        });
        let Some(mover) = mover else { return false };
        if immune & (1 << mover.id().0) == 0 {
            return false;
        }
        changes.iter().any(|c| {
            matches!(*c, Change::Took(sq, cell, _)
                if sq == undo.mv.to && cell.color() != mover.color() && cell.id() == mover.id())
        })
    }

    /// How many men of each colour and type the last move removed (net of men it put back:
    /// castling lifts and puts the king and rook), per colour and type.
    fn last_move_losses(&self) -> [[i32; MAX_PIECE_TYPES]; 2] {
        let mut lost = [[0i32; MAX_PIECE_TYPES]; 2];
        let Some(undo) = self.history.last() else {
            return lost;
        };
        let mut count = |cell: crate::types::Cell, n: i32| {
            if let Some(p) = cell.piece() {
                lost[p.color.index()][p.id.index()] += n;
            }
        };
        for change in &self.journal[undo.journal_len as usize..] {
            match *change {
                Change::Took(_, cell, _) => count(cell, 1),
                Change::Put(_, cell) => count(cell, -1),
                Change::Shifted(_, _, old, new) => {
                    count(old, 1);
                    count(new, -1);
                }
                // No man is taken or put by these.
                Change::HandAdd(..)
                | Change::HandSub(..)
                | Change::Mark(..)
                | Change::CastleSquare(..)
                | Change::Wall(..)
                | Change::Count(..) => {}
            }
        }
        lost
    }

    /// True when the man of `color` on `sq`, of an extinction type, is pseudo-royal now: his
    /// side has at most the limit of men of his type.
    fn is_pseudo_royal(&self, sq: Square, color: Color, rules: &PseudoRoyalRules) -> bool {
        let id = self.cell(sq).id();
        self.variant.extinction_types() & (1 << id.0) != 0
            && self.count_kind(color, id) <= rules.limit
    }

    /// With explosions, a man next to an enemy pseudo-royal man cannot be attacked: taking
    /// him would blow the enemy up too.
    fn touches_enemy_pseudo_royal(&self, sq: Square, color: Color) -> bool {
        let Some(rules) = self.variant.pseudo_royal() else {
            return false;
        };
        if self.variant.blast().is_none() {
            return false;
        }
        let g = self.variant.geometry();
        let them = color.opposite();
        (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                let s = sq.offset(g.delta(dx, dy));
                (dx, dy) != (0, 0)
                    && self.cell(s).is_color(them)
                    && self.is_pseudo_royal(s, them, rules)
            })
        })
    }

    /// True when the royal man of `color` on `sq` is attacked, atomic's exception applied.
    fn attacked_royal(&self, sq: Square, color: Color) -> bool {
        !self.touches_enemy_pseudo_royal(sq, color) && self.is_attacked(sq, color.opposite())
    }

    /// [`Position::attacked_royal`] counting only enemy men whose types are in `types`.
    fn attacked_royal_by(&self, sq: Square, color: Color, types: PieceMask) -> bool {
        if types == PieceMask::MAX {
            return self.attacked_royal(sq, color);
        }
        let them = color.opposite();
        let general = self.variant.attacks()[them.index()].general & types;
        !self.touches_enemy_pseudo_royal(sq, color)
            && (self.attacked_by_plain(sq, them, types)
                || general != 0 && self.attacked_by_general(sq, them, general))
    }

    /// Fairy-Stockfish's pseudo-royal test for `color`: a true king attacked, a pseudo-royal
    /// man attacked (not after a move that takes an enemy pseudo-royal man), every man of the
    /// extinction types attacked at once under duple check, or, just after the move, a
    /// pseudo-royal man of one's own blown up.
    fn pseudo_royals_in_danger(
        &self,
        color: Color,
        rules: &PseudoRoyalRules,
        just_moved: bool,
    ) -> bool {
        let v = &self.variant;
        let extinction = v.extinction_types();
        let mut exempt = false;
        let mut attackers = PieceMask::MAX;
        let mut promoted = None;
        if just_moved {
            promoted = self.promoted_into_extinction_kind();
            let lost = self.last_move_losses();
            // A type's men were pseudo-royal before the move when there were at most `limit`.
            // Men are counted by kind: a promoted man with his new type.
            let was_pseudo = |c: Color, id: usize| {
                let pid = crate::types::PieceId(id as u8);
                let kind = v.shogi().kind(pid);
                let lost_kind: i32 = (0..MAX_PIECE_TYPES)
                    .filter(|&i| kind & (1 << i) != 0)
                    .map(|i| lost[c.index()][i])
                    .sum();
                lost_kind > 0
                    && extinction & (1 << id) != 0
                    && self.count_kind(c, pid) as i32 + lost_kind <= rules.limit as i32
            };
            let n = v.num_pieces();
            // Blowing up or petrifying one's own pseudo-royal man is illegal.
            if (v.blast().is_some() || v.petrify().is_some())
                && (0..n).any(|id| was_pseudo(color, id))
            {
                return true;
            }
            exempt = (0..n).any(|id| was_pseudo(color.opposite(), id));
            // Fairy-Stockfish's move test: an enemy pseudo-royal type that petrifies cannot
            // capture, so its men attack nothing (its check test counts them all).
            if let Some(p) = v.petrify() {
                attackers &= !(p.types & extinction);
            }
        }
        let mut candidates = 0;
        let mut attacked_candidates = 0;
        for &sq in self.squares_of(color) {
            let id = self.cell(sq).id();
            if !v.is_royal(id) {
                continue;
            }
            if extinction & (1 << id.0) == 0 {
                let attacked = self.attacked_royal(sq, color);
                // A true king, guarded whatever happens to the pseudo-royal men.
                if attacked {
                    return true;
                }
                continue;
            }
            let attacked = self.attacked_royal_by(sq, color, attackers);
            let pseudo = || match promoted {
                // The promoted man himself keeps the royalty he had before the move (Gethenian's
                // king promoting to a queen may not step into an attack).
                Some((at, _, old)) if sq == at => {
                    let kind = v.shogi().kind(old);
                    let before = self.count_kind(color, old) + u32::from(kind & (1 << id.0) == 0);
                    extinction & (1 << old.0) != 0 && before <= rules.limit
                }
                Some((_, kind, _)) if kind & (1 << id.0) != 0 => {
                    self.count_kind(color, id) <= rules.limit + 1
                }
                _ => self.is_pseudo_royal(sq, color, rules),
            };
            if attacked && !exempt && pseudo() {
                return true;
            }
            candidates += 1;
            attacked_candidates += usize::from(attacked);
        }
        rules.duple && candidates > 0 && attacked_candidates == candidates
    }

    /// The man the last move promoted shogi-style (`promotedPieceType`) into an extinction
    /// kind, if any: his square, his new kind and his old type. Fairy-Stockfish tests such a
    /// move against the pseudo-royal men of before it (it adjusts them for a pawn's promotion
    /// only, and moves a pseudo-royal mover's royalty with him), so the promoted man is
    /// pseudo-royal for that move only if he was before it, and his kin keep the royalty they
    /// had: Sho shogi's king in check stays in check when the elephant becomes crown prince.
    fn promoted_into_extinction_kind(&self) -> Option<(Square, PieceMask, PieceId)> {
        let undo = self.history.last()?;
        let v = &self.variant;
        self.journal[undo.journal_len as usize..]
            .iter()
            .find_map(|c| match *c {
                Change::Shifted(_, to, old, new)
                    if v.shogi().promoted[old.id().index()] == Some(new.id())
                        && v.extinction_types() & (1 << new.id().0) != 0 =>
                {
                    Some((to, v.shogi().kind(new.id()), old.id()))
                }
                _ => None,
            })
    }

    /// The castling king's path under pseudo-royalty: a pseudo-royal king may not castle
    /// out of or through an attack (atomic's exception applied; his destination is tested
    /// after the move). Fairy-Stockfish tests the path with the king lifted; here he stands
    /// on his square, which differs only where he is attacked there and excused.
    pub(crate) fn pseudo_royal_castle_path_safe(&self, path: &CastlePath) -> bool {
        let Some(rules) = self.variant.pseudo_royal() else {
            return true;
        };
        let us = self.side;
        if !self.is_pseudo_royal(path.king_from, us, rules) {
            return true;
        }
        let g = self.variant.geometry();
        let (board, from_file, rank) = g.coords(path.king_from);
        let to_file = g.file_of(path.king_to);
        let files: Vec<usize> = if from_file == to_file {
            vec![from_file]
        } else if from_file < to_file {
            (from_file..to_file).collect()
        } else {
            (to_file + 1..=from_file).rev().collect()
        };
        files
            .into_iter()
            .all(|f| !self.attacked_royal(g.square(board, f, rank), us))
    }
}
