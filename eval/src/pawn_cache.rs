//! The pawn-structure cache: per search thread (in its [`EvalScratch`]), the pawn-only terms of recent pawn formations, found
//! by a key built from the pawn-type men alone. Pawns move rarely in a search, so most
//! evaluations find their formation here and skip the pawn-structure work.
//!
//! [`EvalScratch`]: crate::evaluate::EvalScratch

use std::sync::atomic::{AtomicU64, Ordering};

use arrayvec::ArrayVec;
use chimera_engine::types::{Color, Square};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::pawns::FileCounts;

/// Passed men kept per side; more than any variant's pawn count.
pub(crate) const MAX_PASSERS: usize = 64;

/// Entries per thread (a power of two).
const ENTRIES: usize = 1 << 11;

/// What a pawn formation is worth and what the rest of the evaluation needs to know about it.
#[derive(Clone, Debug)]
pub(crate) struct PawnEntry {
    /// The formation's key: [`PawnKeys::empty`] combined by exclusive-or with
    /// [`PawnKeys::man`] of every pawn-type man; 0 in an unused entry.
    pub key: u64,
    /// Per side, the (mg, eg) sum of the connected, doubled and isolated terms.
    pub score: [(i32, i32); 2],
    /// Per side, the pawn-type men on each display file.
    pub file_pawns: [FileCounts; 2],
    /// Per side, the passed men: square and rank counted from the owner's side. Their bonus
    /// depends on the men in front of them and on the royal men, so it is not cached.
    pub passers: [ArrayVec<(Square, u8), MAX_PASSERS>; 2],
}

impl PawnEntry {
    /// An entry for `key` with nothing counted yet.
    pub fn new(key: u64) -> PawnEntry {
        PawnEntry {
            key,
            score: [(0, 0); 2],
            file_pawns: [[0; 64]; 2],
            passers: [ArrayVec::new(), ArrayVec::new()],
        }
    }
}

/// Recent formations by key, direct-mapped; empty for a one-off evaluation, which then keeps
/// nothing.
#[derive(Default)]
pub(crate) struct PawnCache {
    entries: Vec<PawnEntry>,
}

impl PawnCache {
    /// A cache with its full table, for a search thread.
    pub fn new() -> PawnCache {
        PawnCache {
            entries: vec![PawnEntry::new(0); ENTRIES],
        }
    }

    /// Runs `read` on the entry of `key`, computed by `compute` (and kept) when the cache
    /// does not hold it; the entry is lent, not copied, since most evaluations find it here.
    /// (Lending through a closure rather than returning a reference ran fewer instructions:
    /// the compiler lays the evaluation out better around it.)
    pub fn with<R>(
        &mut self,
        key: u64,
        compute: impl FnOnce() -> PawnEntry,
        read: impl FnOnce(&PawnEntry) -> R,
    ) -> R {
        if self.entries.is_empty() {
            return read(&compute());
        }
        let slot = &mut self.entries[key as usize & (ENTRIES - 1)];
        if slot.key != key {
            *slot = compute();
        }
        read(slot)
    }
}

/// The random numbers whose exclusive-or over the pawn-type men makes a formation's key.
/// Every evaluation gets its own numbers, so that the formations of different variants (or
/// of different weights) never share entries in a thread's cache (which a searcher keeps from
/// one search, and evaluator, to the next).
#[derive(Clone, Debug)]
pub(crate) struct PawnKeys {
    /// The key of a board without pawns (never 0, the mark of an unused entry).
    pub empty: u64,
    /// Per (colour, type, mailbox cell).
    keys: Vec<u64>,
    /// Mailbox cells per type and colour.
    cells: usize,
    /// Piece types per colour.
    pieces: usize,
}

impl PawnKeys {
    /// Numbers for every (colour, type, cell) of `pieces` types on `cells` mailbox cells.
    pub fn new(pieces: usize, cells: usize) -> PawnKeys {
        static INSTANCES: AtomicU64 = AtomicU64::new(0);
        let mut rng = SmallRng::seed_from_u64(INSTANCES.fetch_add(1, Ordering::Relaxed));
        let empty = rng.gen::<u64>() | 1;
        PawnKeys {
            empty,
            keys: (0..2 * pieces * cells).map(|_| rng.gen()).collect(),
            cells,
            pieces,
        }
    }

    /// The number of a `color` man of type `id` on `sq`.
    #[inline]
    pub fn man(&self, color: Color, id: usize, sq: Square) -> u64 {
        self.keys[(color.index() * self.pieces + id) * self.cells + sq.index()]
    }
}

#[cfg(test)]
mod tests {
    use chimera_engine::registry::builtin;
    use chimera_engine::search::Evaluator;
    use chimera_engine::Position;

    use crate::{Terms, VariantEval, Weights};

    /// Doubled, isolated and passed pawns on both sides.
    const FEN: &str = "4k3/p4pp1/1p2p3/8/3P4/3P3P/P4P2/4K3 w - - 0 1";

    /// The evaluation with a new, empty cache.
    fn cold(eval: &VariantEval, pos: &Position) -> i32 {
        eval.evaluate_with(pos, &mut eval.new_cache())
    }

    #[test]
    fn a_cached_formation_evaluates_as_a_fresh_one() {
        let v = builtin("chess").unwrap();
        let eval = VariantEval::new(&v);
        let pos = Position::from_fen(&v, FEN).unwrap();
        let mut cache = eval.new_cache();
        let first = eval.evaluate_with(&pos, &mut cache);
        assert_eq!(eval.evaluate_with(&pos, &mut cache), first);
        assert_eq!(cold(&eval, &pos), first);
        // A one-off evaluation (no cache kept) agrees too.
        assert_eq!(eval.evaluate(&pos), first);
    }

    #[test]
    fn evaluations_with_other_weights_do_not_share_entries() {
        let v = builtin("chess").unwrap();
        let pos = Position::from_fen(&v, FEN).unwrap();
        let plain = VariantEval::new(&v);
        let terms = Terms {
            doubled: (200, 200),
            ..Terms::default()
        };
        let harsh = VariantEval::with_weights(&v, &Weights::default(), &terms);
        // The same formation through both, with one cache: each keeps its own value.
        let mut cache = plain.new_cache();
        let a = plain.evaluate_with(&pos, &mut cache);
        let b = harsh.evaluate_with(&pos, &mut cache);
        assert_ne!(a, b);
        assert_eq!(b, cold(&harsh, &pos));
        assert_eq!(plain.evaluate_with(&pos, &mut cache), a);
    }
}
