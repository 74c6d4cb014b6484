//! Static exchange evaluation: the material balance of the capture sequence on one square when
//! both sides always recapture with their least valuable attacker and may stop at any time.
//!
//! It works for any variant whose captures are plain leaps and slides (the variant's compiled
//! attack tables, read from the target square outwards, with the men already exchanged taken
//! off the board). Moves it cannot judge (locust and sweep captures, swaps, castling, and every
//! move in variants with conditional capturers such as hoppers) give `None`, and the caller
//! falls back to MVV-LVA.

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
        SeeValues {
            values,
            usable: v.simple_attacks,
        }
    }

    #[inline]
    fn of(&self, id: PieceId) -> Value {
        self.values.get(id.index()).copied().unwrap_or(0)
    }
}

/// The least valuable man of colour `by` that attacks `target`, ignoring the men on `gone`
/// (already exchanged): its square and type.
fn least_attacker(
    pos: &Position,
    values: &SeeValues,
    target: Square,
    by: Color,
    gone: &[Square],
) -> Option<(Square, PieceId)> {
    let t = &pos.variant().attacks[by.index()];
    let bit = by.cell_bit();
    let mut best: Option<(Square, PieceId)> = None;
    let mut best_value = Value::MAX;
    let mut consider = |sq: Square, id: PieceId| {
        let v = values.of(id);
        if v < best_value {
            best_value = v;
            best = Some((sq, id));
        }
    };
    for la in &t.leaps {
        let s = target.offset(la.delta);
        let c = pos.cell_fast(s);
        if c.0 & bit != 0 && c.is_piece() && la.mask & (1 << c.id().0) != 0 && !gone.contains(&s) {
            consider(s, c.id());
        }
    }
    for sa in &t.slides {
        let mut s = target;
        let mut k = 0u8;
        loop {
            s = s.offset(sa.delta);
            k = k.saturating_add(1);
            let c = pos.cell_fast(s);
            if c.is_empty() || c.is_piece() && gone.contains(&s) {
                continue;
            }
            if c.0 & bit != 0 && c.is_piece() && sa.reaches(1u32 << c.id().0, k) {
                consider(s, c.id());
            }
            break;
        }
    }
    best
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
    let mut gone: ArrayVec<Square, MAX_SWAPS> = ArrayVec::new();
    let victim = match mv.kind {
        MoveKind::Normal | MoveKind::DoubleStep | MoveKind::Gate | MoveKind::DoubleStepGate => {
            gone.push(mv.from);
            let c = pos.cell(target);
            if c.is_color(pos.side_to_move().opposite()) {
                values.of(c.id())
            } else {
                0
            }
        }
        MoveKind::EnPassant => {
            gone.push(mv.from);
            gone.push(mv.aux);
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
    let mut gain: ArrayVec<Value, MAX_SWAPS> = ArrayVec::new();
    gain.push(victim + promo_gain);
    let mut side = pos.side_to_move().opposite();
    while gain.len() < MAX_SWAPS - 1 && !gone.is_full() {
        let Some((sq, id)) = least_attacker(pos, values, target, side, &gone) else {
            break;
        };
        let last = *gain.last().unwrap_or(&0);
        // The side now capturing wins what stands on the square, less what it had gained.
        let g = on_square - last;
        gain.push(g);
        on_square = values.of(id);
        gone.push(sq);
        side = side.opposite();
    }
    while gain.len() > 1 {
        let g = gain.pop().unwrap_or(0);
        let prev = gain.last_mut()?;
        *prev = -(-*prev).max(g);
    }
    gain.first().copied()
}
