//! The transposition table: a lock-free array of two atomic words per entry, shared by every
//! search thread. The first word holds the key XOR the data, so a torn write (one word from
//! one thread, the other from another) fails the key check instead of returning wrong data.
//!
//! Entries come in buckets of two, 32 bytes aligned so that a bucket never straddles a cache
//! line: the first entry keeps the deepest result of the current search, the second takes
//! whatever the first does not (so recent shallow results are not lost either).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use super::pages::{AllocError, ZeroIsValid, ZeroedTable};
use super::{Value, MATE_BOUND};
use crate::types::{Move, Square};

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (no move reached alpha).
    Upper = 1,
    /// The true value is at least the score (a move reached beta).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// One probed entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move's compact key ([`move_key`]); 0 when none was stored.
    pub move_key: u32,
    /// The score, with mates counted from the stored node (see [`value_from_tt`]).
    pub value: Value,
    /// The depth searched.
    pub depth: i32,
    /// The kind of bound.
    pub bound: Bound,
}

/// The move fields that identify a move among the legal moves of a position, in 32 bits:
/// from and to (10 bits each; the mailbox of every supported geometry has fewer than 1024
/// cells), the kind and the piece. The table stores this key, and the search plays the legal
/// move with the same key, so a stale or colliding entry can never produce an illegal move.
#[inline]
pub fn move_key(mv: Move) -> u32 {
    (mv.from.0 as u32 & 0x3FF)
        | (mv.to.0 as u32 & 0x3FF) << 10
        | (mv.kind as u32 & 0xF) << 20
        | (mv.piece as u32) << 24
}

/// The square a move with the key `key` ([`move_key`]) starts from.
#[inline]
pub fn key_from(key: u32) -> Square {
    Square((key & 0x3FF) as u16)
}

/// A score for the table: mate scores are made relative to the node, not the root.
#[inline]
pub fn value_to_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        v + ply as Value
    } else if v <= -MATE_BOUND {
        v - ply as Value
    } else {
        v
    }
}

/// The inverse of [`value_to_tt`] at the probing node's ply.
#[inline]
pub fn value_from_tt(v: Value, ply: usize) -> Value {
    if v >= MATE_BOUND {
        v - ply as Value
    } else if v <= -MATE_BOUND {
        v + ply as Value
    } else {
        v
    }
}

/// Two entries, each (key ^ data, data).
#[derive(Debug)]
#[repr(C, align(32))]
struct Bucket([[AtomicU64; 2]; 2]);

// SAFETY: a bucket is four atomic words; all zeros is the empty bucket.
unsafe impl ZeroIsValid for Bucket {}

/// The shared table. Each entry is (key ^ data, data); data packs the move key (32 bits), the
/// score (16), the depth (8), the bound (2) and the search generation (6).
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: ZeroedTable<Bucket>,
    generation: AtomicU8,
}

/// The depth stored in an entry's data word.
#[inline]
fn data_depth(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32
}

/// The search generation stored in an entry's data word.
#[inline]
fn data_gen(data: u64) -> u64 {
    (data >> 58) & 0x3F
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one entry). Its memory is taken lazily (see
    /// `ZeroedTable`): even a large table returns at once.
    ///
    /// # Panics
    /// When the memory cannot be had; [`TranspositionTable::try_new`] returns the error.
    pub fn new(mb: usize) -> TranspositionTable {
        Self::try_new(mb).unwrap_or_else(|e| panic!("transposition table: {e}"))
    }

    /// A table of about `mb` megabytes, or the size that could not be had.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, AllocError> {
        let bytes = mb
            .max(1)
            .checked_mul(1 << 20)
            .ok_or(AllocError { bytes: usize::MAX })?;
        Ok(TranspositionTable {
            buckets: ZeroedTable::new(bytes / std::mem::size_of::<Bucket>())?,
            generation: AtomicU8::new(0),
        })
    }

    /// Empties the table. A fresh zeroed table of the same size costs nothing until it is
    /// written, where clearing in place writes every byte (seconds for gigabytes); the clearing
    /// in place is kept for when the fresh memory cannot be had.
    pub fn clear(&mut self) {
        *self.generation.get_mut() = 0;
        if let Ok(fresh) = ZeroedTable::new(self.buckets.len()) {
            self.buckets = fresh;
            return;
        }
        for b in self.buckets.iter_mut() {
            for e in b.0.iter_mut() {
                *e[0].get_mut() = 0;
                *e[1].get_mut() = 0;
            }
        }
    }

    /// The table's size in megabytes (as asked for when it was made).
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Starts a new search: older entries become preferred victims for replacement.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 0x3F, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the processor to start loading `key`'s bucket into the cache: a probe that follows
    /// a little later (the child node's) then finds it there instead of waiting on memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let ptr = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint that never faults, and the pointer is a valid
            // reference into the table.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The data word stored for `key` in `bucket`, if any.
    #[inline]
    fn find(bucket: &Bucket, key: u64) -> Option<u64> {
        bucket.0.iter().find_map(|slot| {
            let k = slot[0].load(Ordering::Relaxed);
            let data = slot[1].load(Ordering::Relaxed);
            (data != 0 && k ^ data == key).then_some(data)
        })
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let data = Self::find(self.bucket(key), key)?;
        let bound = match (data >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            move_key: data as u32,
            value: (data >> 32) as u16 as i16 as Value,
            depth: ((data >> 48) & 0xFF) as u8 as i32,
            bound,
        })
    }

    /// Stores a result. The same position's entry is replaced only by a deeper or exact
    /// result, or one from a newer search; a new position goes to the first entry when it is
    /// at least as deep as what is there (or that is from an older search), the old first
    /// entry moving down to the second, and to the second entry otherwise.
    #[inline]
    pub fn store(&self, key: u64, move_key: u32, value: Value, depth: i32, bound: Bound) {
        let bucket = self.bucket(key);
        let gen = self.generation.load(Ordering::Relaxed) as u64;
        let mut move_key = move_key;
        let mut target = None;
        for (i, slot) in bucket.0.iter().enumerate() {
            let old_k = slot[0].load(Ordering::Relaxed);
            let old = slot[1].load(Ordering::Relaxed);
            if old != 0 && old_k ^ old == key {
                if bound != Bound::Exact && depth + 3 < data_depth(old) && data_gen(old) == gen {
                    return;
                }
                if move_key == 0 {
                    move_key = old as u32;
                }
                target = Some(i);
                break;
            }
        }
        let depth = depth.clamp(0, 255);
        let value = value.clamp(i16::MIN as Value, i16::MAX as Value) as i16 as u16 as u64;
        let data =
            move_key as u64 | value << 32 | (depth as u64) << 48 | (bound as u64) << 56 | gen << 58;
        let i = target.unwrap_or_else(|| {
            let first = &bucket.0[0];
            let old = first[1].load(Ordering::Relaxed);
            if old == 0 || data_gen(old) != gen || depth >= data_depth(old) {
                if old != 0 {
                    let old_k = first[0].load(Ordering::Relaxed);
                    bucket.0[1][0].store(old_k, Ordering::Relaxed);
                    bucket.0[1][1].store(old, Ordering::Relaxed);
                }
                0
            } else {
                1
            }
        });
        let slot = &bucket.0[i];
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed) as u64;
        let n = self.buckets.len().min(500);
        let used = self.buckets[..n]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|e| {
                let d = e[1].load(Ordering::Relaxed);
                d != 0 && data_gen(d) == gen
            })
            .count();
        (used * 1000 / (2 * n).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MoveKind, Square};

    #[test]
    fn entries_round_trip_and_other_keys_miss() {
        let tt = TranspositionTable::new(1);
        let mv = Move::with(Square(40), Square(57), MoveKind::Normal, Square::NONE, 3);
        tt.store(0xDEAD_BEEF_1234_5678, move_key(mv), -1234, 17, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).unwrap();
        assert_eq!(
            e,
            Entry {
                move_key: move_key(mv),
                value: -1234,
                depth: 17,
                bound: Bound::Lower
            }
        );
        assert_eq!(tt.probe(0xDEAD_BEEF_1234_5679), None);
    }

    #[test]
    fn a_cleared_table_is_empty_and_the_same_size() {
        let mut tt = TranspositionTable::new(2);
        assert_eq!(tt.size_mb(), 2);
        tt.store(42, 7, 10, 3, Bound::Exact);
        let n = tt.buckets.len();
        tt.clear();
        assert_eq!(tt.probe(42), None);
        assert_eq!(tt.buckets.len(), n);
        assert_eq!(tt.buckets.as_ptr() as usize % 32, 0);
    }

    #[test]
    fn an_impossible_size_is_an_error() {
        assert!(TranspositionTable::try_new(usize::MAX >> 10).is_err());
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let v = super::super::MATE - 7;
        assert_eq!(value_from_tt(value_to_tt(v, 3), 3), v);
        assert_eq!(value_from_tt(value_to_tt(v, 3), 5), v - 2);
    }
}
