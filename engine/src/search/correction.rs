//! Correction history: what the searches of one thread found the static evaluation to miss,
//! per pawn formation and per side's other men, added back to later evaluations of positions
//! that share them.
//!
//! An evaluation that misjudges a formation (a weak pawn it does not see, a man shut in) tends
//! to misjudge it the same way in every position that has it. Where a node's search settles on
//! a value away from its static value, and the move that decided it is quiet (a capture's gain
//! is the search's, not the evaluation's), the difference is averaged into the entries of the
//! node's keys; every later evaluation adds the entries' weighted sum. The tables belong to one
//! thread and survive between its searches, as the move histories do.

use crate::board::position::Position;
use crate::types::Color;

use super::{Value, MATE_BOUND};

/// Entries per table and side to move (a power of two).
const ENTRIES: usize = 1 << 14;

/// Entries count in units of 1/GRAIN of the evaluation's unit, so that small corrections
/// still accumulate.
const GRAIN: i32 = 16;

/// The largest correction one entry holds, in evaluation units.
const MAX_CORRECTION: i32 = 200;

/// The largest difference between search and evaluation that one update averages in.
const MAX_DIFF: i32 = 400;

/// A node's keys into the tables: its pawn-type men (both colours, by square), and each
/// colour's other men on the board and in hand.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CorrectionKeys {
    pawns: u64,
    men: [u64; 2],
}

impl CorrectionKeys {
    /// The keys of `pos` (kept by make and unmake, see [`Position::structure_keys`]).
    #[inline]
    pub fn of(pos: &Position) -> CorrectionKeys {
        let [pawns, white, black] = pos.structure_keys();
        CorrectionKeys {
            pawns,
            men: [white, black],
        }
    }
}

/// One thread's correction tables: per side to move, one for pawn formations and one for
/// each colour's other men.
pub(crate) struct CorrectionHistory {
    /// `[side to move][table]`: table 0 by the pawn key, 1 by White's men, 2 by Black's.
    tables: Vec<[[i16; ENTRIES]; 3]>,
}

#[inline]
fn index(key: u64) -> usize {
    // The key's high bits: the low ones also pick the evaluation cache's and the
    // transposition table's slots.
    (key >> (64 - ENTRIES.trailing_zeros())) as usize
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            tables: vec![[[0; ENTRIES]; 3]; 2],
        }
    }

    /// Forgets every correction.
    pub fn clear(&mut self) {
        for side in &mut self.tables {
            for table in side.iter_mut() {
                table.fill(0);
            }
        }
    }

    fn slots(keys: &CorrectionKeys) -> [usize; 3] {
        [index(keys.pawns), index(keys.men[0]), index(keys.men[1])]
    }

    /// The correction for a position with `keys` and `side` to move: the pawn table counts
    /// twice as much as each colour's table (their weighted average, since every table
    /// learns the whole difference).
    #[inline]
    pub fn correction(&self, side: Color, keys: &CorrectionKeys) -> Value {
        let t = &self.tables[side.index()];
        let [p, w, b] = Self::slots(keys);
        let sum = 2 * t[0][p] as i32 + t[1][w] as i32 + t[2][b] as i32;
        sum / (4 * GRAIN)
    }

    /// `raw` corrected by `correction` ([`CorrectionHistory::correction`]), kept outside the
    /// mate range.
    #[inline]
    pub fn apply(raw: Value, correction: Value) -> Value {
        if raw.abs() >= MATE_BOUND {
            return raw;
        }
        (raw + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Averages `diff` (search value minus raw static value) into the entries of `keys`,
    /// with a weight that grows with the search's `depth`.
    pub fn update(&mut self, side: Color, keys: &CorrectionKeys, diff: Value, depth: i32) {
        let target = diff.clamp(-MAX_DIFF, MAX_DIFF) * GRAIN;
        let weight = (depth + 1).clamp(1, 16);
        let limit = MAX_CORRECTION * GRAIN;
        let t = &mut self.tables[side.index()];
        for (table, slot) in t.iter_mut().zip(Self::slots(keys)) {
            let e = &mut table[slot];
            let v = (*e as i32 * (256 - weight) + target * weight) / 256;
            *e = v.clamp(-limit, limit) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_move_towards_the_difference_and_stay_bounded() {
        let mut h = CorrectionHistory::new();
        let keys = CorrectionKeys {
            pawns: 0x1234_5678_9abc_def0,
            men: [0x0fed_cba9_8765_4321, 0x1111_2222_3333_4444],
        };
        assert_eq!(h.correction(Color::White, &keys), 0);
        for _ in 0..200 {
            h.update(Color::White, &keys, 50, 10);
        }
        let c = h.correction(Color::White, &keys);
        assert!((45..=50).contains(&c), "{c}");
        // The other side to move has its own tables.
        assert_eq!(h.correction(Color::Black, &keys), 0);
        for _ in 0..500 {
            h.update(Color::White, &keys, 10_000, 20);
        }
        assert_eq!(h.correction(Color::White, &keys), MAX_CORRECTION);
        let c = h.correction(Color::White, &keys);
        assert_eq!(CorrectionHistory::apply(MATE_BOUND + 3, c), MATE_BOUND + 3);
        h.clear();
        assert_eq!(h.correction(Color::White, &keys), 0);
    }
}
