//! The leg interpreter: runs a piece's compiled leg programs (multi-leg XBetza) from a square
//! by depth-first search over the legs, and turns each finished path into a move: a plain move,
//! a locust capture (one man taken on the way), a sweep (several men taken along a line), a swap
//! with a friend, or a pass (the man comes home having taken nothing).

use arrayvec::ArrayVec;

use crate::board::position::Position;
use crate::types::{Cell, Color, Move, MoveKind, Square};
use crate::variant::tables::{LegProgram, Turn, LEG_EMPTY, LEG_ENEMY, LEG_FRIEND, LEG_HOP};

/// The eight king directions, counter-clockwise from east.
const COMPASS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The most men one path may take on the way (the longest line of a 16x16 board).
const MAX_VICTIMS: usize = 16;

/// A finished path: where the man ends and what he did on the way.
#[derive(Clone, Debug)]
pub(crate) struct PathEnd {
    /// The last leg's square.
    pub to: Square,
    /// Enemy men taken by legs before the last, in path order.
    pub victims: ArrayVec<Square, MAX_VICTIMS>,
    /// The last leg ends on an enemy man and takes him.
    pub final_capture: bool,
    /// A friend lifted by `d`: where he was, and where `u` put him down.
    pub moved_friend: Option<(Square, Square)>,
}

impl PathEnd {
    /// True when the path takes the man on `sq`.
    pub fn captures(&self, sq: Square) -> bool {
        self.final_capture && self.to == sq || self.victims.contains(&sq)
    }
}

/// The state of one depth-first walk through a program.
struct Walk<'a> {
    pos: &'a Position,
    program: &'a LegProgram,
    origin: Square,
    us_bit: u8,
    /// The types the mover may hop over.
    hurdles: u32,
    victims: ArrayVec<Square, MAX_VICTIMS>,
    lifted: Option<(Square, Cell)>,
    put_down: Option<Square>,
}

impl Walk<'_> {
    /// What stands on `s` at this point of the path: the mover's start is empty, the men taken
    /// so far are gone, a lifted friend is wherever he was put down.
    fn cell_now(&self, s: Square) -> Cell {
        if s == self.origin || self.victims.contains(&s) {
            return Cell::EMPTY;
        }
        if let Some((from, friend)) = self.lifted {
            if self.put_down == Some(s) {
                return friend;
            }
            if from == s {
                return Cell::EMPTY;
            }
        }
        self.pos.cell_fast(s)
    }

    /// The direction of leg `k` after a turn `t` (eighths, positive = left) from `dir`.
    fn turned(&self, k: usize, dir: (i8, i8), t: i8) -> Option<(i8, i8)> {
        let ring = self.program.legs[k].ring;
        if ring == 0 {
            return match t.rem_euclid(8) {
                0 => Some(dir),
                2 => Some((-dir.1, dir.0)),
                4 => Some((-dir.0, -dir.1)),
                6 => Some((dir.1, -dir.0)),
                _ => None,
            };
        }
        let unit = (dir.0.signum(), dir.1.signum());
        let index = COMPASS.iter().position(|&c| c == unit)?;
        let (x, y) = COMPASS[(index as i8 + t).rem_euclid(8) as usize];
        Some((x * ring as i8, y * ring as i8))
    }

    fn leg<F: FnMut(&PathEnd)>(
        &mut self,
        k: usize,
        at: Square,
        dir: (i8, i8),
        prev_steps: u8,
        sense: i8,
        emit: &mut F,
    ) {
        let spec = &self.program.legs[k];
        let saved_put = self.put_down;
        if spec.unload && self.lifted.is_some() && self.put_down.is_none() {
            self.put_down = Some(at);
        }
        let mut candidates: ArrayVec<((i8, i8), i8), 16> = ArrayVec::new();
        if k == 0 {
            candidates.extend(spec.vectors.iter().map(|&v| (v, 0)));
        } else {
            for &turn in &spec.turns {
                let turns: ArrayVec<i8, 2> = match turn {
                    Turn::By(t) => [t].into_iter().collect(),
                    Turn::Zig if sense == 0 => [1, -1].into_iter().collect(),
                    Turn::Circle if sense == 0 => [1, -1].into_iter().collect(),
                    Turn::Zig => [-sense].into_iter().collect(),
                    Turn::Circle => [sense].into_iter().collect(),
                };
                for t in turns {
                    if let Some(v) = self.turned(k, dir, t) {
                        let new_sense = if t % 2 != 0 { t.signum() } else { sense };
                        if !candidates.iter().any(|c| c.0 == v) {
                            let _ = candidates.try_push((v, new_sense));
                        }
                    }
                }
            }
        }
        let g = &self.pos.variant().geometry();
        for (v, new_sense) in candidates {
            let delta = g.delta(v.0 as i32, v.1 as i32);
            let mut s = at;
            let mut n = 0u8;
            loop {
                s = s.offset(delta);
                n += 1;
                if spec.max != 0 && n > spec.max {
                    break;
                }
                let c = self.cell_now(s);
                if c.is_off() {
                    break;
                }
                if !spec.same_range || n == prev_steps {
                    if c.is_empty() {
                        if spec.modes & LEG_EMPTY != 0 {
                            self.arrive(k, at, s, v, n, new_sense, None, emit);
                        }
                    } else {
                        let enemy = c.0 & self.us_bit == 0;
                        if enemy && spec.modes & LEG_ENEMY != 0 {
                            self.arrive(k, at, s, v, n, new_sense, Some(false), emit);
                        }
                        if !enemy && spec.modes & LEG_FRIEND != 0 {
                            self.arrive(k, at, s, v, n, new_sense, Some(true), emit);
                        }
                        if spec.modes & LEG_HOP != 0 && self.hurdles & (1 << c.id().0) != 0 {
                            self.arrive(k, at, s, v, n, new_sense, None, emit);
                        }
                    }
                }
                if !c.is_empty() || spec.same_range && n >= prev_steps {
                    break;
                }
            }
        }
        self.put_down = saved_put;
    }

    /// Leg `k`, which started on `start`, ends on `s`; `took` is `Some(false)` for an enemy
    /// taken, `Some(true)` for a friend lifted, `None` for an empty or hopped square.
    #[allow(clippy::too_many_arguments)]
    fn arrive<F: FnMut(&PathEnd)>(
        &mut self,
        k: usize,
        start: Square,
        s: Square,
        v: (i8, i8),
        n: u8,
        sense: i8,
        took: Option<bool>,
        emit: &mut F,
    ) {
        let last = k + 1 == self.program.legs.len();
        let hop = took.is_none() && !self.cell_now(s).is_empty();
        if last && hop {
            return;
        }
        let saved = (self.victims.len(), self.lifted, self.put_down);
        let mut final_capture = false;
        match took {
            Some(false) if last => final_capture = true,
            Some(false) if self.victims.try_push(s).is_err() => return,
            Some(false) => {}
            Some(true) => {
                if self.lifted.is_some() {
                    return;
                }
                self.lifted = Some((s, self.cell_now(s)));
                if self.program.legs[k].unload {
                    // `u` on the leg that lifts him: he goes to where the leg started.
                    self.put_down = Some(start);
                }
            }
            None => {}
        }
        if last {
            let end = PathEnd {
                to: s,
                victims: self.victims.clone(),
                final_capture,
                moved_friend: self
                    .lifted
                    .map(|(from, _)| (from, self.put_down.unwrap_or(Square::NONE))),
            };
            emit(&end);
        } else {
            self.leg(k + 1, s, v, n, sense, emit);
        }
        self.victims.truncate(saved.0);
        self.lifted = saved.1;
        self.put_down = saved.2;
    }
}

impl Position {
    /// Runs every path of `program` for the man `cell` of colour `us` on `from`.
    pub(crate) fn run_program<F: FnMut(&PathEnd)>(
        &self,
        from: Square,
        cell: Cell,
        us: Color,
        program: &LegProgram,
        emit: &mut F,
    ) {
        if program.legs.first().is_some_and(|l| l.initial) && !cell.is_virgin() {
            return;
        }
        let mut walk = Walk {
            pos: self,
            program,
            origin: from,
            us_bit: us.cell_bit(),
            hurdles: self.variant.pieces()[cell.id().index()].hurdles,
            victims: ArrayVec::new(),
            lifted: None,
            put_down: None,
        };
        walk.leg(0, from, (0, 0), 0, 0, emit);
    }

    /// The move a finished path makes, if the engine can represent it (a pass comes back as a
    /// [`MoveKind::Pass`] from `from` to `from`).
    pub(crate) fn path_move(
        &self,
        from: Square,
        end: &PathEnd,
    ) -> Option<(MoveKind, Square, Square)> {
        if let Some((friend_from, put)) = end.moved_friend {
            if put == friend_from {
                // Hopped over a friend who stays where he was: an ordinary move.
            } else if put == from
                && end.to == friend_from
                && end.victims.is_empty()
                && !end.final_capture
            {
                return Some((MoveKind::Swap, end.to, Square::NONE));
            } else {
                return None;
            }
        }
        match end.victims.len() {
            0 if end.to == from => {
                (!end.final_capture).then_some((MoveKind::Pass, from, Square::NONE))
            }
            0 => Some((MoveKind::Normal, end.to, Square::NONE)),
            1 => Some((MoveKind::Locust, end.to, end.victims[0])),
            _ => self
                .is_sweep(from, end)
                .then_some((MoveKind::Sweep, end.to, Square::NONE)),
        }
    }

    /// True when the path's victims are exactly the men standing strictly between `from` and
    /// its end on one line, so that a [`MoveKind::Sweep`] from `from` to the end describes it.
    fn is_sweep(&self, from: Square, end: &PathEnd) -> bool {
        let g = &self.variant.geometry();
        let ((fb, ff, fr), (tb, tf, tr)) = (g.coords(from), g.coords(end.to));
        let (dx, dy) = (tf as i32 - ff as i32, tr as i32 - fr as i32);
        if fb != tb || !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) || (dx, dy) == (0, 0) {
            return false;
        }
        let step = g.delta(dx.signum(), dy.signum());
        let mut between = Vec::new();
        let mut s = from.offset(step);
        while s != end.to {
            if self.cell_fast(s).is_piece() {
                between.push(s);
            }
            s = s.offset(step);
        }
        between.len() == end.victims.len() && between.iter().all(|b| end.victims.contains(b))
    }

    /// The men a sweep from `from` to `to` takes on the way (not counting `to`).
    pub(crate) fn sweep_victims(&self, from: Square, to: Square) -> ArrayVec<Square, MAX_VICTIMS> {
        let g = &self.variant.geometry();
        let ((_, ff, fr), (_, tf, tr)) = (g.coords(from), g.coords(to));
        let step = g.delta(
            (tf as i32 - ff as i32).signum(),
            (tr as i32 - fr as i32).signum(),
        );
        let mut out = ArrayVec::new();
        let mut s = from.offset(step);
        while s != to {
            if self.cell_fast(s).is_piece() {
                let _ = out.try_push(s);
            }
            s = s.offset(step);
        }
        out
    }

    /// True when one of the leg programs of the man `cell` (colour `by`) on `from` takes the man
    /// on `target`.
    pub(crate) fn program_captures(
        &self,
        from: Square,
        cell: Cell,
        by: Color,
        target: Square,
    ) -> bool {
        let moves = &self.variant.pieces()[cell.id().index()].moves[by.index()];
        let mut found = false;
        for program in &moves.programs {
            if !program.can_capture() {
                continue;
            }
            self.run_program(from, cell, by, program, &mut |end: &PathEnd| {
                found |= end.captures(target)
            });
            if found {
                return true;
            }
        }
        false
    }

    /// Appends the moves of the leg programs of the man `cell` on `from` (the side to move's).
    pub(crate) fn generate_programs(
        &self,
        from: Square,
        cell: Cell,
        list: &mut crate::movegen::MoveList,
    ) {
        let us = self.side_to_move();
        let moves = &self.variant.pieces()[cell.id().index()].moves[us.index()];
        for program in &moves.programs {
            self.run_program(from, cell, us, program, &mut |end: &PathEnd| {
                if let Some((kind, to, aux)) = self.path_move(from, end) {
                    match kind {
                        MoveKind::Pass | MoveKind::Swap => {
                            list.push(Move::with(from, to, kind, aux, Move::NO_PIECE));
                        }
                        _ => self.push_board_move(from, to, cell, kind, aux, list),
                    }
                }
            });
        }
    }
}
