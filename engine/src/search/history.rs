//! What one search thread remembers about quiet moves for ordering and reductions: a history
//! per (colour, piece type, destination) and continuation histories per (previous move,
//! move), one for the opponent's last move and one for the mover's own move before it.
//!
//! Moves are named by their "slot", piece type x destination square, so that the tables are
//! sized from the variant: squares are numbered densely (the mailbox's border cells take no
//! room), which keeps chess's exact continuation table at a few hundred kilobytes, near the
//! processor; the large variants (Vanguard's 21 types on 16x16) share a bounded table through
//! a hash of the slot pair.

use super::pages::large_vec;
use crate::types::{Color, PieceId, Square};

/// The largest magnitude a history entry reaches (updates saturate towards it).
pub(crate) const HISTORY_MAX: i32 = 1 << 14;

/// Entries of a continuation table at most (a power of two; 2 bytes each).
const CONT_MAX_ENTRIES: usize = 1 << 21;

/// The square number of a border cell.
const OFF_BOARD: u32 = u32::MAX;

/// A piece type on a destination square: `type * squares + square number`.
pub(crate) type Slot = u32;

pub(crate) struct History {
    pieces: usize,
    /// Per mailbox cell: the square's number among the real squares, or [`OFF_BOARD`].
    square_number: Vec<u32>,
    squares: usize,
    /// Per (colour, slot).
    quiet: Vec<i32>,
    /// Per (slot, captured piece type): how often a capture of that type by that man on that
    /// square refuted a node, for ordering captures that static exchange ranks alike.
    capture: Vec<i16>,
    /// Per (previous slot, slot), for the opponent's last move and for the mover's own
    /// move before it.
    cont: [Vec<i16>; 2],
    /// Slot count; the pair (a, b) is entry `a * slots + b` when the table holds every pair.
    slots: usize,
    /// log2 of the table size when pairs are hashed, 0 when the table is exact.
    hash_bits: u32,
}

/// Where the pair numbered `pair` (`previous slot * slots + slot`) is kept in a continuation
/// table: at that number when the table holds every pair (`hash_bits` 0), else at a hash of it.
#[inline(always)]
fn pair_index(pair: usize, hash_bits: u32) -> usize {
    if hash_bits == 0 {
        pair
    } else {
        ((pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - hash_bits)) as usize
    }
}

/// The history entries of one node's quiet moves ([`History::rows`]).
pub(crate) struct NodeRows<'a> {
    /// The side's history, per slot.
    quiet: &'a [i32],
    /// Per continuation table, when there is an earlier move: the table and the number of
    /// that move's first pair.
    cont: [Option<(&'a [i16], usize)>; 2],
    hash_bits: u32,
}

impl NodeRows<'_> {
    /// The history of the node's quiet move into `slot`.
    #[inline]
    pub fn score(&self, slot: Slot) -> i32 {
        let slot = slot as usize;
        let mut s = self.quiet[slot];
        for &(table, first) in self.cont.iter().flatten() {
            s += table[pair_index(first + slot, self.hash_bits)] as i32;
        }
        s
    }
}

/// Moves `entry` towards `bonus`'s sign: large entries move less (a bounded average).
#[inline]
fn saturate(entry: i32, bonus: i32) -> i32 {
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

impl History {
    /// Tables for `pieces` types on a mailbox of `cells` cells, of which `is_square` tells
    /// the real squares.
    pub fn new(pieces: usize, cells: usize, is_square: impl Fn(usize) -> bool) -> History {
        let mut squares = 0;
        let square_number = (0..cells)
            .map(|cell| {
                if is_square(cell) {
                    squares += 1;
                    squares as u32 - 1
                } else {
                    OFF_BOARD
                }
            })
            .collect();
        let slots = pieces * squares;
        let pairs = slots * slots;
        let (size, hash_bits) = if pairs <= CONT_MAX_ENTRIES {
            (pairs.max(1), 0)
        } else {
            (CONT_MAX_ENTRIES, CONT_MAX_ENTRIES.trailing_zeros())
        };
        History {
            pieces,
            square_number,
            squares,
            quiet: vec![0; 2 * slots],
            capture: vec![0; slots * pieces],
            cont: [large_vec(size, || 0), large_vec(size, || 0)],
            slots,
            hash_bits,
        }
    }

    /// Forgets every score, as if new (for a new game).
    pub fn clear(&mut self) {
        self.quiet.fill(0);
        self.capture.fill(0);
        for table in &mut self.cont {
            table.fill(0);
        }
    }

    /// The slot of a man of type `id` arriving on `to`, if both are in range.
    #[inline]
    pub fn slot(&self, id: PieceId, to: Square) -> Option<Slot> {
        let (id, to) = (id.index(), to.index());
        let sq = *self.square_number.get(to)?;
        (id < self.pieces && sq != OFF_BOARD).then(|| (id * self.squares) as Slot + sq)
    }

    #[inline]
    fn cont_index(&self, prev: Slot, slot: Slot) -> usize {
        pair_index(prev as usize * self.slots + slot as usize, self.hash_bits)
    }

    /// The history of a quiet move by `side` into `slot`, after the earlier moves `prev`
    /// (the opponent's last, then the mover's own before it; `None` where there is none).
    #[inline]
    pub fn score(&self, side: Color, slot: Slot, prev: [Option<Slot>; 2]) -> i32 {
        self.rows(side, prev).score(slot)
    }

    /// The entries that the quiet moves of one node read: `side`'s history and the parts of
    /// the continuation tables that the earlier moves `prev` select, found once for all the
    /// node's moves.
    #[inline]
    pub fn rows(&self, side: Color, prev: [Option<Slot>; 2]) -> NodeRows<'_> {
        let cont = |k: usize| prev[k].map(|p| (&self.cont[k][..], p as usize * self.slots));
        NodeRows {
            quiet: &self.quiet[side.index() * self.slots..(side.index() + 1) * self.slots],
            cont: [cont(0), cont(1)],
            hash_bits: self.hash_bits,
        }
    }

    /// The capture history of a capture into `slot` that takes a man of type `victim`.
    #[inline]
    pub fn capture_score(&self, slot: Slot, victim: PieceId) -> i32 {
        self.capture
            .get(slot as usize * self.pieces + victim.index())
            .map_or(0, |&e| e as i32)
    }

    /// Rewards (`bonus` > 0) or punishes a capture into `slot` of a man of type `victim`.
    pub fn update_capture(&mut self, slot: Slot, victim: PieceId, bonus: i32) {
        if let Some(e) = self
            .capture
            .get_mut(slot as usize * self.pieces + victim.index())
        {
            *e = saturate(*e as i32, bonus) as i16;
        }
    }

    /// Rewards (`bonus` > 0) or punishes a quiet move, in every table.
    pub fn update(&mut self, side: Color, slot: Slot, prev: [Option<Slot>; 2], bonus: i32) {
        let q = &mut self.quiet[side.index() * self.slots + slot as usize];
        *q = saturate(*q, bonus);
        for (k, p) in prev.into_iter().enumerate() {
            if let Some(p) = p {
                let i = self.cont_index(p, slot);
                let e = &mut self.cont[k][i];
                *e = saturate(*e as i32, bonus) as i16;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_saturate_and_keep_their_sign() {
        let mut h = History::new(6, 120, |_| true);
        let s = h.slot(PieceId(1), Square(40)).unwrap();
        let prev = [h.slot(PieceId(2), Square(50)), None];
        for _ in 0..1000 {
            h.update(Color::White, s, prev, HISTORY_MAX / 2);
        }
        let top = h.score(Color::White, s, prev);
        assert!(top > 0 && top <= 2 * HISTORY_MAX, "{top}");
        assert_eq!(
            h.score(Color::Black, s, prev),
            h.cont[0][h.cont_index(prev[0].unwrap(), s)] as i32
        );
        h.update(Color::White, s, prev, -HISTORY_MAX / 2);
        assert!(h.score(Color::White, s, prev) < top);
    }

    #[test]
    fn large_variants_use_a_bounded_table() {
        let h = History::new(21, 400, |_| true);
        assert_eq!(h.cont[0].len(), CONT_MAX_ENTRIES);
        let exact = History::new(6, 120, |_| true);
        assert_eq!(exact.cont[0].len(), 720 * 720);
    }

    #[test]
    fn border_cells_take_no_slot() {
        // Cells 0-9 of a 20-cell mailbox are border; 10-19 are the squares.
        let h = History::new(3, 20, |cell| cell >= 10);
        assert_eq!(h.slot(PieceId(0), Square(5)), None);
        assert_eq!(h.slot(PieceId(0), Square(10)), Some(0));
        assert_eq!(h.slot(PieceId(2), Square(19)), Some(29));
        assert_eq!(h.slot(PieceId(3), Square(12)), None);
        assert_eq!(h.cont[0].len(), 30 * 30);
    }
}
