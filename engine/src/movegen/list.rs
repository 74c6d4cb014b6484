//! A list that lives on the stack up to a fixed size and moves to the heap past it, so that no
//! variant, however many moves its positions have, can lose a move to a full list.

use std::fmt;
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

/// A vector of `Copy` items held inline up to `N` and spilled to the heap past that.
///
/// The inline part keeps the common case as cheap as a plain array: `len` is always the length
/// (so `len()` is one load), a push compares it with `limit` (the same test a bounded array
/// makes to refuse the item) and the slice views choose their start without a branch. Only a
/// list that outgrows `N` pays for an allocation; from then on all its items live in the heap
/// buffer, so that the list stays one contiguous slice (sorting, swapping and indexing work on
/// it as on any slice).
pub struct SpillVec<T: Copy, const N: usize> {
    len: usize,
    /// `N` while the items are inline; 0 once they are in the heap, so that the push's one
    /// comparison sends every push of a spilled list to the slow path.
    limit: usize,
    inline: [MaybeUninit<T>; N],
    /// The heap buffer (null until the list spills) and its capacity in items.
    heap: *mut T,
    heap_cap: usize,
}

// SAFETY: the list owns its items (inline or in its heap buffer) like a `Vec<T>` does.
unsafe impl<T: Copy + Send, const N: usize> Send for SpillVec<T, N> {}
// SAFETY: as above; shared access only reads.
unsafe impl<T: Copy + Sync, const N: usize> Sync for SpillVec<T, N> {}

impl<T: Copy, const N: usize> SpillVec<T, N> {
    /// An empty list (nothing is allocated).
    #[inline(always)]
    pub fn new() -> Self {
        SpillVec {
            len: 0,
            limit: N,
            inline: [const { MaybeUninit::uninit() }; N],
            heap: std::ptr::null_mut(),
            heap_cap: 0,
        }
    }

    /// True once the items have moved to the heap.
    #[inline(always)]
    pub fn spilled(&self) -> bool {
        !self.heap.is_null()
    }

    /// The number of items (the same as the slice's, without looking at where they are).
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the list has no item.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where the items start.
    #[inline(always)]
    fn ptr(&self) -> *const T {
        if self.heap.is_null() {
            self.inline.as_ptr().cast::<T>()
        } else {
            self.heap
        }
    }

    /// Appends an item, moving the list to the heap when the inline part is full.
    #[inline(always)]
    pub fn push(&mut self, item: T) {
        if self.len < self.limit {
            // SAFETY: `limit` is nonzero only while the items are inline, and then it is `N`:
            // the slot is in bounds, and it becomes part of the list.
            unsafe { self.inline.get_unchecked_mut(self.len).write(item) };
            self.len += 1;
        } else {
            self.push_slow(item);
        }
    }

    /// The push of a full or spilled list, kept out of line so that the inline path stays
    /// small where it is inlined.
    #[cold]
    #[inline(never)]
    fn push_slow(&mut self, item: T) {
        if self.heap.is_null() || self.len == self.heap_cap {
            // Move to a buffer twice as large (the first one, twice the inline part).
            let mut grown: Vec<T> = Vec::with_capacity(2 * self.heap_cap.max(N).max(1));
            grown.extend_from_slice(self.as_slice());
            self.free_heap();
            let mut grown = std::mem::ManuallyDrop::new(grown);
            self.heap_cap = grown.capacity();
            self.heap = grown.as_mut_ptr();
            self.limit = 0;
        }
        // SAFETY: `len < heap_cap`, the slot is in the heap buffer.
        unsafe { self.heap.add(self.len).write(item) };
        self.len += 1;
    }

    /// Gives the heap buffer back, if any (the items are `Copy`: nothing to drop).
    fn free_heap(&mut self) {
        if !self.heap.is_null() {
            // SAFETY: `heap` and `heap_cap` came from a `Vec<T>` that was not dropped.
            drop(unsafe { Vec::from_raw_parts(self.heap, 0, self.heap_cap) });
            self.heap = std::ptr::null_mut();
            self.heap_cap = 0;
        }
    }

    /// The items as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` items where they live are initialised.
        unsafe { std::slice::from_raw_parts(self.ptr(), self.len) }
    }

    /// The items as a mutable slice.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as for `as_slice`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr().cast_mut(), self.len) }
    }

    /// Removes every item (a spilled list stays in the heap, keeping its buffer).
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Shortens the list to `len` items (nothing happens if it is not longer).
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Removes and returns the last item.
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        let last = *self.as_slice().last()?;
        self.len -= 1;
        Some(last)
    }

    /// Removes the item at `index`, putting the last item in its place.
    #[inline]
    pub fn swap_remove(&mut self, index: usize) -> T {
        let last = self.len() - 1;
        self.as_mut_slice().swap(index, last);
        self.pop().expect("index in bounds")
    }

    /// Removes the items in `range`, keeping the order of the rest.
    pub fn remove_range(&mut self, range: std::ops::Range<usize>) {
        let len = self.len();
        assert!(
            range.start <= range.end && range.end <= len,
            "range out of bounds"
        );
        self.as_mut_slice().copy_within(range.end.., range.start);
        self.truncate(len - range.len());
    }

    /// Keeps only the items for which `keep` is true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&mut T) -> bool) {
        let mut kept = 0;
        let len = self.len();
        let items = self.as_mut_slice();
        for i in 0..len {
            if keep(&mut items[i]) {
                items[kept] = items[i];
                kept += 1;
            }
        }
        self.truncate(kept);
    }
}

impl<T: Copy, const N: usize> Drop for SpillVec<T, N> {
    #[inline(always)]
    fn drop(&mut self) {
        self.free_heap();
    }
}

impl<T: Copy, const N: usize> Default for SpillVec<T, N> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> Clone for SpillVec<T, N> {
    fn clone(&self) -> Self {
        let mut copy = Self::new();
        copy.extend(self.iter().copied());
        copy
    }
}

impl<T: Copy, const N: usize> Deref for SpillVec<T, N> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy, const N: usize> DerefMut for SpillVec<T, N> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Copy, const N: usize> Extend<T> for SpillVec<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            self.push(item);
        }
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for SpillVec<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut list = Self::new();
        list.extend(items);
        list
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a SpillVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a mut SpillVec<T, N> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// An owned list iterates by value through a `Vec`: the owned form is for callers outside the
/// search (protocols, tests), where one copy does not matter.
impl<T: Copy, const N: usize> IntoIterator for SpillVec<T, N> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().to_vec().into_iter()
    }
}

impl<T: Copy + fmt::Debug, const N: usize> fmt::Debug for SpillVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq for SpillVec<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Eq, const N: usize> Eq for SpillVec<T, N> {}

#[cfg(test)]
mod tests {
    use super::SpillVec;

    #[test]
    fn spills_past_the_inline_part_and_keeps_every_item() {
        let mut list: SpillVec<u32, 4> = SpillVec::new();
        for i in 0..10 {
            list.push(i);
        }
        assert!(list.spilled());
        assert_eq!(list.as_slice(), (0..10).collect::<Vec<_>>().as_slice());
        // Past the first heap buffer too.
        list.extend(10..100);
        assert_eq!(list.as_slice(), (0..100).collect::<Vec<_>>().as_slice());
        list.truncate(3);
        assert_eq!(list.as_slice(), &[0, 1, 2]);
        list.push(7);
        list.retain(|x| *x != 1);
        list.extend([8, 9]);
        list.remove_range(3..5);
        assert_eq!(list.as_slice(), &[0, 2, 7]);
        assert_eq!(list.swap_remove(0), 0);
        assert_eq!(list.as_slice(), &[7, 2]);
        list.clear();
        assert!(list.is_empty());
        assert_eq!(list.pop(), None);
    }

    #[test]
    fn stays_inline_up_to_its_size() {
        let mut list: SpillVec<u8, 4> = SpillVec::new();
        list.extend([1, 2, 3, 4]);
        assert!(!list.spilled());
        assert_eq!(list.pop(), Some(4));
        assert_eq!(list.clone().into_iter().collect::<Vec<_>>(), vec![1, 2, 3]);
    }
}
