//! Zobrist hash keys for one variant's geometry: men on squares, never-moved men, side to move,
//! castling rights, e.p. squares, the hands, the turn phase, promoted men and check counters. Seeded, so every run and every
//! thread gets the same keys.

use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};

use crate::types::{Cell, Square, MAX_PIECE_TYPES};

/// The most men of one type a hand can hold that get distinct keys; larger counts reuse the last.
pub const MAX_HAND_COUNT: usize = 32;

/// The most checks still to give that get distinct keys (n-check); larger counts share one.
const MAX_CHECKS: usize = 15;

/// Hash keys for one variant.
#[derive(Clone, Debug)]
pub struct Zobrist {
    cells: usize,
    piece: Vec<u64>,
    virgin: Vec<u64>,
    ep: Vec<u64>,
    /// XORed in when Black is to move.
    pub side: u64,
    castling: [u64; 16],
    hand: Vec<u64>,
    phase: [u64; 4],
    reserve: Vec<u64>,
    promoted: Vec<u64>,
    checks: Vec<u64>,
    wall: Vec<u64>,
}

impl Zobrist {
    /// Keys for a mailbox of `cells` cells.
    pub fn new(cells: usize) -> Zobrist {
        let mut rng = SmallRng::seed_from_u64(0x43_68_69_6D_65_72_61_21);
        let mut take = |n: usize| (0..n).map(|_| rng.next_u64()).collect::<Vec<u64>>();
        let piece = take(2 * MAX_PIECE_TYPES * cells);
        let virgin = take(cells);
        let ep = take(cells);
        let side = take(1)[0];
        let mut castling = [0u64; 16];
        let bits = take(4);
        for (rights, key) in castling.iter_mut().enumerate() {
            *key = (0..4)
                .filter(|b| rights & (1 << b) != 0)
                .fold(0, |k, b| k ^ bits[b]);
        }
        let hand = take(2 * MAX_PIECE_TYPES * (MAX_HAND_COUNT + 1));
        let ph = take(4);
        let reserve = take(2 * 2 * 17);
        // Drawn last, so that the keys above stay what they were before these existed.
        let promoted = take(cells);
        let checks = take(2 * (MAX_CHECKS + 1));
        let wall = take(cells);
        Zobrist {
            promoted,
            checks,
            wall,
            reserve,
            cells,
            piece,
            virgin,
            ep,
            side,
            castling,
            hand,
            phase: [0, ph[1], ph[2], ph[3]],
        }
    }

    /// The key of the man in `cell` on `sq` (the never-moved flag is keyed separately).
    #[inline(always)]
    pub fn piece(&self, cell: Cell, sq: Square) -> u64 {
        self.piece[cell.colored_index() * self.cells + sq.index()]
    }

    /// The key of a wall on `sq`.
    #[inline]
    pub fn wall(&self, sq: Square) -> u64 {
        self.wall[sq.index()]
    }

    /// The key of a never-moved man on `sq`.
    #[inline(always)]
    pub fn virgin(&self, sq: Square) -> u64 {
        self.virgin[sq.index()]
    }

    /// The key of an e.p. square.
    #[inline(always)]
    pub fn ep(&self, sq: Square) -> u64 {
        self.ep[sq.index()]
    }

    /// The key of a set of castling rights (4 bits).
    #[inline(always)]
    pub fn castling(&self, rights: u8) -> u64 {
        self.castling[rights as usize & 15]
    }

    /// The key of holding `count` men of one coloured type (index from [`Cell::colored_index`]).
    #[inline(always)]
    pub fn hand(&self, colored_index: usize, count: u8) -> u64 {
        if count == 0 {
            return 0;
        }
        let c = (count as usize).min(MAX_HAND_COUNT);
        self.hand[colored_index * (MAX_HAND_COUNT + 1) + c]
    }

    /// The key of a reserve slot's value (a file 0..15, 0xFE pending; 0xFF none has key 0).
    #[inline(always)]
    pub fn reserve(&self, color: usize, slot: usize, value: u8) -> u64 {
        let v = match value {
            0xFF => return 0,
            0xFE => 16,
            f => (f as usize).min(15),
        };
        self.reserve[(color * 2 + slot) * 17 + v]
    }

    /// The key of a promoted man (one that demotes when captured) on `sq`.
    #[inline(always)]
    pub fn promoted(&self, sq: Square) -> u64 {
        self.promoted[sq.index()]
    }

    /// The key of `color` having `remaining` checks still to give (n-check).
    #[inline(always)]
    pub fn checks(&self, color: usize, remaining: u8) -> u64 {
        self.checks[color * (MAX_CHECKS + 1) + (remaining as usize).min(MAX_CHECKS)]
    }

    /// The key of a turn phase (0 = none).
    #[inline(always)]
    pub fn phase(&self, phase: u8) -> u64 {
        self.phase[phase as usize & 3]
    }
}
