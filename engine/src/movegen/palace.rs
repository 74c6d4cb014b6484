//! The xiangqi and janggi rules of `variant::palace` applied to positions: the moves along the
//! palace diagonals added to the legal moves, the soldier's sideways steps before its rank and
//! the janggi cannon's captures of janggi cannons struck off, the attacks of those men for the
//! check test, and bikjang (the kings facing each other). Only variants with these rules come
//! here (their legal generation is the filtered one).

use arrayvec::ArrayVec;

use super::generate::MoveList;
use crate::board::position::Position;
use crate::types::{Cell, Color, MoveKind, Square};
use crate::variant::palace::{DiagonalMove, PalaceRules};

/// The points one man reaches along the palace diagonals.
type Targets = ArrayVec<Square, 16>;

impl Position {
    /// The points that the man `cell` of colour `color` on `from` attacks along the palace
    /// diagonals (whatever stands there), as Fairy-Stockfish's diagonal moves reach them.
    fn diagonal_targets(
        &self,
        rules: &PalaceRules,
        from: Square,
        cell: Cell,
        color: Color,
    ) -> Targets {
        let mut out = Targets::new();
        if !rules.on_diagonal(from) {
            return out;
        }
        let stride = self.variant.geometry().stride() as i16;
        let forward = if color == Color::White {
            stride
        } else {
            -stride
        };
        let diagonals = [stride + 1, stride - 1, -stride + 1, -stride - 1];
        let mut push = |sq: Square| {
            if rules.on_diagonal(sq) && !out.contains(&sq) {
                let _ = out.try_push(sq);
            }
        };
        match rules.diagonal_moves[cell.id().index()] {
            DiagonalMove::None => {}
            DiagonalMove::Step => diagonals.iter().for_each(|&d| push(from.offset(d))),
            DiagonalMove::ForwardStep => {
                push(from.offset(forward + 1));
                push(from.offset(forward - 1));
            }
            DiagonalMove::Slide => {
                for d in diagonals {
                    let mut s = from.offset(d);
                    while !self.cell_fast(s).is_off() {
                        push(s);
                        if self.cell_fast(s).is_piece() {
                            break;
                        }
                        s = s.offset(d);
                    }
                }
            }
            DiagonalMove::Hop => {
                for d in diagonals {
                    let mut s = from.offset(d);
                    while self.cell_fast(s).is_empty() {
                        s = s.offset(d);
                    }
                    let screen = self.cell_fast(s);
                    if screen.is_off() || rules.janggi_cannons & (1 << screen.id().0) != 0 {
                        continue;
                    }
                    s = s.offset(d);
                    while !self.cell_fast(s).is_off() {
                        let c = self.cell_fast(s);
                        if c.is_piece() {
                            if rules.janggi_cannons & (1 << c.id().0) == 0 {
                                push(s);
                            }
                            break;
                        }
                        push(s);
                        s = s.offset(d);
                    }
                }
            }
        }
        out
    }

    /// True when the man `cell` of colour `by` on `from` attacks `target` by the palace rules:
    /// the soldier whose plain attacks they replace (forwards, and sideways from its rank on),
    /// and every type along the palace diagonals.
    pub(crate) fn palace_attacks(
        &self,
        from: Square,
        cell: Cell,
        by: Color,
        target: Square,
    ) -> bool {
        let Some(rules) = self.variant.palace() else {
            return false;
        };
        let bit = 1 << cell.id().0;
        if rules.replaced & bit != 0 {
            if rules.soldiers & bit != 0 && rules.soldier_rank > 0 {
                let g = self.variant.geometry();
                let stride = g.stride() as i16;
                let forward = if by == Color::White { stride } else { -stride };
                if from.offset(forward) == target {
                    return true;
                }
                if g.relative_rank(from, by) >= rules.soldier_rank
                    && (from.offset(1) == target || from.offset(-1) == target)
                {
                    return true;
                }
            } else if self.plain_attack_reaches(from, cell, by, target) {
                return true;
            }
        }
        self.diagonal_targets(rules, from, cell, by)
            .contains(&target)
    }

    /// True when a plain capturing leap or slide of the man `cell` of colour `by` on `from`
    /// reaches `target` (the attack tables' test, for one man).
    pub(super) fn plain_attack_reaches(
        &self,
        from: Square,
        cell: Cell,
        by: Color,
        target: Square,
    ) -> bool {
        let moves = &self.variant.pieces()[cell.id().index()].moves[by.index()];
        if moves
            .leaps
            .iter()
            .any(|l| l.captures() && from.offset(l.delta) == target)
        {
            return true;
        }
        moves.slides.iter().filter(|s| s.captures()).any(|s| {
            let mut to = from;
            let mut steps = 0u8;
            loop {
                to = to.offset(s.delta);
                if to == target {
                    return true;
                }
                steps += 1;
                if !self.cell_fast(to).is_empty() || steps == s.range() {
                    return false;
                }
            }
        })
    }

    /// True when the man of type `cell` and colour `by` may stand on `target`, as Fairy-
    /// Stockfish requires of an attack (mobility regions).
    #[inline]
    pub(crate) fn region_allows(&self, cell: Cell, by: Color, target: Square) -> bool {
        self.variant
            .mobility_region(cell.id(), by)
            .is_none_or(|r| r[target.index()])
    }

    /// Applies the palace rules to the legal moves `list[start..]` of the side to move: strikes
    /// off the soldiers' sideways steps before their rank and the janggi cannons' captures of
    /// janggi cannons, and adds the legal moves along the palace diagonals.
    pub(crate) fn apply_palace_rules(&mut self, list: &mut MoveList, start: usize) {
        let v = self.variant.clone();
        let Some(rules) = v.palace() else {
            return;
        };
        let us = self.side;
        let g = v.geometry();
        let mut kept = start;
        for i in start..list.len() {
            let mv = list[i];
            let ok = match mv.kind {
                MoveKind::Normal => {
                    let bit = 1 << self.cell(mv.from).id().0;
                    let sideways = rules.soldiers & bit != 0
                        && g.rank_of(mv.from) == g.rank_of(mv.to)
                        && g.relative_rank(mv.from, us) < rules.soldier_rank;
                    let cannon_takes_cannon = rules.janggi_cannons & bit != 0
                        && self.cell(mv.to).is_piece()
                        && rules.janggi_cannons & (1 << self.cell(mv.to).id().0) != 0;
                    !sideways && !cannon_takes_cannon
                }
                _ => true,
            };
            if ok {
                list[kept] = mv;
                kept += 1;
            }
        }
        list.truncate(kept);
        if rules.diagonal_lines.is_none() {
            return;
        }
        for i in 0..self.squares_of(us).len() {
            let from = self.squares_of(us)[i];
            let cell = self.cell_fast(from);
            for to in self.diagonal_targets(rules, from, cell, us) {
                if self.cell_fast(to).is_color(us) {
                    continue;
                }
                // A soldier may reach his promotion zone along a line: his promotion choices.
                let mut moves = MoveList::new();
                self.push_board_move(from, to, cell, MoveKind::Normal, Square::NONE, &mut moves);
                for &mv in moves.as_slice() {
                    if self.is_legal_by_making(mv) {
                        list.push(mv);
                    }
                }
            }
        }
    }

    /// True when the two kings stand on one file or rank with nothing between them (on one
    /// board).
    pub(crate) fn generals_face(&self) -> bool {
        let (Some(w), Some(b)) = (
            self.royal_square(Color::White),
            self.royal_square(Color::Black),
        ) else {
            return false;
        };
        self.clear_line(w, b)
    }

    /// True when `a` and `b` share a file or rank of one board with nothing between them
    /// (the facing generals; a chase along a clear line).
    pub(crate) fn clear_line(&self, a: Square, b: Square) -> bool {
        let g = self.variant.geometry();
        let (ab, af, ar) = g.coords(a);
        let (bb, bf, br) = g.coords(b);
        if ab != bb || a == b || af != bf && ar != br {
            return false;
        }
        let stride = g.stride() as i16;
        let step = if af == bf {
            if br > ar {
                stride
            } else {
                -stride
            }
        } else if bf > af {
            1
        } else {
            -1
        };
        let mut s = a.offset(step);
        while s != b {
            if !self.cell_fast(s).is_empty() {
                return false;
            }
            s = s.offset(step);
        }
        true
    }

    /// Bikjang: the variant has the rule and the kings face each other.
    #[inline]
    pub(crate) fn in_bikjang(&self) -> bool {
        self.variant.palace().is_some_and(|p| p.bikjang) && self.generals_face()
    }

    /// The game ends in bikjang: the kings faced each other and the side to move's opponent
    /// passed instead of parting them (Fairy-Stockfish: two positions in a row in bikjang).
    pub(crate) fn bikjang_end(&self) -> bool {
        self.in_bikjang()
            && self
                .history
                .last()
                .is_some_and(|u| u.mv.kind == MoveKind::Pass)
    }
}
