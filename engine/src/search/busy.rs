//! Moves that some search thread is searching right now, shared by the threads of one search:
//! a thread that meets, at a node, a move another thread is busy with puts it off until its
//! other moves are done (a simplified ABDADA). By then the other thread has mostly stored the
//! move's result, and this thread reads it from the table instead of repeating the work.
//!
//! The table is small and lossy on purpose: a lost mark only costs the duplicated search that
//! Lazy SMP does anyway, and a stale one only reorders a move.

use std::sync::atomic::{AtomicU64, Ordering};

/// Marks kept at once (a power of two); threads x plies of the path are far fewer.
const SLOTS: usize = 1 << 12;

pub(crate) struct BusyMoves {
    slots: Vec<AtomicU64>,
}

/// The mark of the move with the key `move_key` at the node with position key `key`; never 0
/// (an empty slot).
#[inline]
pub(crate) fn mark(key: u64, move_key: u32) -> u64 {
    (key ^ (move_key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
}

impl BusyMoves {
    pub fn new() -> BusyMoves {
        BusyMoves {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, mark: u64) -> &AtomicU64 {
        &self.slots[(mark >> 32) as usize & (SLOTS - 1)]
    }

    /// True when a thread has said it is searching the move with this mark.
    #[inline]
    pub fn is_busy(&self, mark: u64) -> bool {
        self.slot(mark).load(Ordering::Relaxed) == mark
    }

    /// Says the move with this mark is being searched.
    #[inline]
    pub fn enter(&self, mark: u64) {
        self.slot(mark).store(mark, Ordering::Relaxed);
    }

    /// Takes the mark back, unless another move has taken its slot since.
    #[inline]
    pub fn leave(&self, mark: u64) {
        let _ = self
            .slot(mark)
            .compare_exchange(mark, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_is_busy_until_it_leaves() {
        let busy = BusyMoves::new();
        let m = mark(0x1234_5678_9ABC_DEF0, 42);
        assert!(!busy.is_busy(m));
        busy.enter(m);
        assert!(busy.is_busy(m));
        assert!(!busy.is_busy(mark(0x1234_5678_9ABC_DEF0, 43)));
        busy.leave(m);
        assert!(!busy.is_busy(m));
    }

    #[test]
    fn leaving_does_not_clear_a_newer_mark_in_the_slot() {
        let busy = BusyMoves::new();
        let a = mark(1 << 40, 7);
        // Same slot (the high word picks it), another mark.
        let b = a ^ 2;
        busy.enter(a);
        busy.enter(b);
        busy.leave(a);
        assert!(busy.is_busy(b));
    }
}
