//! Static exchange evaluation: the material balance of the capture sequence on one square when
//! both sides always recapture with their least valuable attacker and may stop at any time.
//!
//! It works for any variant whose captures are plain leaps and slides (the variant's compiled
//! attack tables, read from the target square outwards). Both sides' attackers are found in one
//! pass; when a man leaves for the square, the walk that stopped at him goes on behind him, so
//! x-rays through either colour's men join in order. Moves it cannot judge (locust and sweep
//! captures, swaps, castling, and every move in variants with conditional capturers such as
//! hoppers) give `None`, and the caller falls back to MVV-LVA.

use arrayvec::ArrayVec;

use super::Value;
use crate::board::position::Position;
use crate::types::{Color, Move, MoveKind, PieceId, Square};

/// The value a royal man has in an exchange: capturing with him is only good when nothing
/// can take him back.
const ROYAL_VALUE: Value = 20_000;

/// The deepest exchange followed; more men than this never bear on one square.
const MAX_SWAPS: usize = 32;

/// Piece values for exchanges, one per piece type, built once per search thread.
#[derive(Clone, Debug)]
pub struct SeeValues {
    values: Vec<Value>,
    /// False when the variant has capturers the attack tables do not describe.
    usable: bool,
    /// Every slide attack direction of either colour.
    dirs: Vec<Direction>,
}

/// One direction walked from the exchange square, with each colour's slide attack entry for
/// it (an index into that colour's `slides`).
#[derive(Clone, Debug)]
struct Direction {
    delta: i16,
    slide: [Option<u8>; 2],
}

impl SeeValues {
    /// Values from `value(id)` for every piece type of `pos`'s variant; royal men get a value
    /// far above any material, so that an exchange never ends with one captured.
    pub fn new(pos: &Position, value: impl Fn(PieceId) -> Value) -> SeeValues {
        let v = pos.variant();
        let values = (0..v.num_pieces())
            .map(|i| {
                let id = PieceId(i as u8);
                if v.is_royal(id) {
                    ROYAL_VALUE
                } else {
                    value(id)
                }
            })
            .collect();
        let mut dirs: Vec<Direction> = Vec::new();
        for color in Color::ALL {
            for (i, sa) in v.attacks()[color.index()].slides.iter().enumerate() {
                let at = match dirs.iter().position(|d| d.delta == sa.delta) {
                    Some(at) => at,
                    None => {
                        dirs.push(Direction {
                            delta: sa.delta,
                            slide: [None; 2],
                        });
                        dirs.len() - 1
                    }
                };
                dirs[at].slide[color.index()] = u8::try_from(i).ok();
            }
        }
        SeeValues {
            values,
            usable: v.simple_attacks() && dirs.len() <= u8::MAX as usize,
            dirs,
        }
    }

    #[inline]
    fn of(&self, id: PieceId) -> Value {
        self.values.get(id.index()).copied().unwrap_or(0)
    }
}

/// A man who can take on the exchange square.
#[derive(Clone, Copy, Debug)]
struct Attacker {
    sq: Square,
    value: Value,
    /// Where his attack stands in his colour's tables (leaps first, then slides): among men
    /// of equal value, the first in table order captures first.
    order: u16,
}

/// The men bearing on one square, found in one pass over both colours' attack tables, and
/// the walks from the square that stopped at a man: when he leaves the square to take part,
/// the walk goes on behind him (x-rays, through men of either colour).
struct Exchange<'a> {
    pos: &'a Position,
    values: &'a SeeValues,
    /// Men off their squares: the mover, an en passant victim, and each man who has captured
    /// on the square so far. Walks pass over them.
    gone: ArrayVec<Square, { MAX_SWAPS + 2 }>,
    attackers: [ArrayVec<Attacker, MAX_SWAPS>; 2],
    /// (direction, square where the walk stopped, its distance from the target).
    stops: ArrayVec<(u8, Square, u8), MAX_SWAPS>,
}

impl<'a> Exchange<'a> {
    fn new(pos: &'a Position, values: &'a SeeValues, target: Square, moved: &[Square]) -> Self {
        let mut ex = Exchange {
            pos,
            values,
            gone: moved.iter().copied().collect(),
            attackers: [ArrayVec::new(), ArrayVec::new()],
            stops: ArrayVec::new(),
        };
        for color in Color::ALL {
            let bit = color.cell_bit();
            for (i, la) in pos.variant().attacks()[color.index()]
                .leaps
                .iter()
                .enumerate()
            {
                let s = target.offset(la.delta);
                let c = pos.cell_fast(s);
                if c.0 & bit != 0
                    && c.is_piece()
                    && la.mask & (1 << c.id().0) != 0
                    && !ex.gone.contains(&s)
                {
                    ex.add(color, s, c.id(), i as u16);
                }
            }
        }
        for dir in 0..values.dirs.len() {
            ex.walk(dir as u8, target, 0);
        }
        ex
    }

    /// Walks direction `dir` on from `from` (`k` steps from the target) to the first man, who
    /// joins his side's attackers when he reaches the target along it.
    fn walk(&mut self, dir: u8, from: Square, mut k: u8) {
        let d = &self.values.dirs[dir as usize];
        let mut s = from;
        loop {
            s = s.offset(d.delta);
            k = k.saturating_add(1);
            let c = self.pos.cell_fast(s);
            if c.is_empty() || self.gone.contains(&s) {
                continue;
            }
            let Some(color) = c.color() else {
                return;
            };
            let table = &self.pos.variant().attacks()[color.index()];
            if let Some(i) = d.slide[color.index()] {
                if table.slides[i as usize].reaches(1u32 << c.id().0, k) {
                    let order = (table.leaps.len() + i as usize) as u16;
                    self.add(color, s, c.id(), order);
                }
            }
            let _ = self.stops.try_push((dir, s, k));
            return;
        }
    }

    fn add(&mut self, color: Color, sq: Square, id: PieceId, order: u16) {
        let list = &mut self.attackers[color.index()];
        if !list.iter().any(|a| a.sq == sq) {
            let value = self.values.of(id);
            let _ = list.try_push(Attacker { sq, value, order });
        }
    }

    /// Takes `color`'s least valuable attacker off his square (he captures on the target) and
    /// looks behind him; returns his value.
    fn take_least(&mut self, color: Color) -> Option<Value> {
        let list = &mut self.attackers[color.index()];
        let (i, _) = list
            .iter()
            .enumerate()
            .min_by_key(|(_, a)| (a.value, a.order))?;
        let a = list.swap_remove(i);
        let _ = self.gone.try_push(a.sq);
        while let Some(j) = self.stops.iter().position(|&(_, s, _)| s == a.sq) {
            let (dir, s, k) = self.stops.swap_remove(j);
            self.walk(dir, s, k);
        }
        Some(a.value)
    }
}

/// True when the exchange value of `mv` is at least `threshold`; `None` when SEE cannot judge
/// the move. Most moves are decided without walking the exchange: a capture that wins at least
/// the threshold even if the mover is lost, or whose victim alone does not reach it.
pub fn see_ge(pos: &Position, values: &SeeValues, mv: Move, threshold: Value) -> Option<bool> {
    if !values.usable {
        return None;
    }
    let victim = match mv.kind {
        MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Gate | MoveKind::DoubleStepGate => {
            let c = pos.cell(mv.to);
            if c.is_color(pos.side_to_move().opposite()) {
                values.of(c.id())
            } else {
                0
            }
        }
        MoveKind::EnPassant => {
            let c = pos.cell(mv.aux);
            if c.is_piece() {
                values.of(c.id())
            } else {
                0
            }
        }
        MoveKind::Drop => 0,
        _ => return None,
    };
    if mv.promotion().is_none() {
        if victim < threshold {
            return Some(false);
        }
        let mover = values.of(pos.moved_piece(mv)?);
        if victim - mover >= threshold {
            return Some(true);
        }
    }
    see(pos, values, mv).map(|s| s >= threshold)
}

/// The exchange value of `mv` for the side to move in `pos`, or `None` when the move is not
/// one SEE can judge (see the module documentation). A quiet move scores 0 when its
/// destination is safe and negative when the mover is lost there.
pub fn see(pos: &Position, values: &SeeValues, mv: Move) -> Option<Value> {
    if !values.usable {
        return None;
    }
    let target = mv.to;
    let mut moved: ArrayVec<Square, 2> = ArrayVec::new();
    let victim = match mv.kind {
        MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Gate | MoveKind::DoubleStepGate => {
            moved.push(mv.from);
            let c = pos.cell(target);
            if c.is_color(pos.side_to_move().opposite()) {
                values.of(c.id())
            } else {
                0
            }
        }
        MoveKind::EnPassant => {
            moved.push(mv.from);
            moved.push(mv.aux);
            let c = pos.cell(mv.aux);
            if c.is_piece() {
                values.of(c.id())
            } else {
                0
            }
        }
        MoveKind::Drop => 0,
        _ => return None,
    };
    let mover = pos.moved_piece(mv)?;
    let (mut on_square, promo_gain) = match mv.promotion() {
        Some(p) => (values.of(p), values.of(p) - values.of(mover)),
        None => (values.of(mover), 0),
    };
    let mut exchange = Exchange::new(pos, values, target, &moved);
    let mut gain: ArrayVec<Value, MAX_SWAPS> = ArrayVec::new();
    gain.push(victim + promo_gain);
    let mut side = pos.side_to_move().opposite();
    while gain.len() < MAX_SWAPS {
        let Some(value) = exchange.take_least(side) else {
            break;
        };
        let last = *gain.last().unwrap_or(&0);
        // The side now capturing wins what stands on the square, less what it had gained.
        gain.push(on_square - last);
        on_square = value;
        side = side.opposite();
    }
    while gain.len() > 1 {
        let g = gain.pop().unwrap_or(0);
        let prev = gain.last_mut()?;
        *prev = -(-*prev).max(g);
    }
    gain.first().copied()
}
