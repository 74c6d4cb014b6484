//! Large tables that the search reads at random (the transposition table, the continuation
//! histories), allocated so that the kernel may back them with huge pages.
//!
//! With ordinary 4 KB pages nearly every probe of a table of many megabytes also misses the
//! processor's address-translation cache, and the page walk stalls the probe (and even the
//! prefetch that is meant to hide it). Asking for huge pages before the table is first
//! written removes most of those misses. It is a hint: where the kernel refuses it or the
//! system has no such call, the table is the same, only slower.

/// A vector of `n` values made by `fill`, whose memory was offered huge pages before it was
/// first written.
pub(crate) fn large_vec<T>(n: usize, fill: impl FnMut() -> T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise_huge_pages(v.as_mut_ptr() as usize, n * std::mem::size_of::<T>());
    v.resize_with(n, fill);
    v
}

/// A fixed-size table of `T` whose memory comes from the allocator already zeroed, so that a
/// large one costs nothing until its pages are first touched: the operating system hands out
/// fresh pages as zeros when they are first written. Asking for many gigabytes therefore
/// returns at once (the protocol's input loop stays free), and a size the machine cannot give
/// is an error, not an abort.
///
/// The allocation is made with the allocator's plain alignment (which lets it take the zeroed
/// pages from the system instead of clearing them itself) and a little slack, and the table
/// starts at the first address aligned for `T`.
pub(crate) struct ZeroedTable<T: ZeroIsValid> {
    start: std::ptr::NonNull<T>,
    len: usize,
    base: *mut u8,
    layout: std::alloc::Layout,
}

/// Types for which all-zero bytes are a valid value (plain integers and atomics, and arrays
/// and structs of them).
///
/// # Safety
/// Every bit pattern of zeros must be a valid `Self`, and `Self` must need no drop.
pub(crate) unsafe trait ZeroIsValid: Sized {}

// SAFETY: zero is a valid value of each, and none needs dropping.
unsafe impl ZeroIsValid for std::sync::atomic::AtomicU64 {}
unsafe impl ZeroIsValid for i16 {}
unsafe impl<T: ZeroIsValid, const N: usize> ZeroIsValid for [T; N] {}

/// A table the allocator could not give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The bytes asked for.
    pub bytes: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate {} MB", self.bytes.div_ceil(1 << 20))
    }
}

impl std::error::Error for AllocError {}

// SAFETY: the table owns its memory like a `Box<[T]>` does.
unsafe impl<T: ZeroIsValid + Send> Send for ZeroedTable<T> {}
// SAFETY: shared access only hands out `&[T]`.
unsafe impl<T: ZeroIsValid + Sync> Sync for ZeroedTable<T> {}

impl<T: ZeroIsValid> ZeroedTable<T> {
    /// `len` zeroed values (at least one), or the size that could not be had.
    pub fn new(len: usize) -> Result<ZeroedTable<T>, AllocError> {
        let len = len.max(1);
        let align = std::mem::align_of::<T>();
        let fail = AllocError {
            bytes: len.saturating_mul(std::mem::size_of::<T>()),
        };
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .and_then(|b| b.checked_add(align))
            .ok_or(fail.clone())?;
        let layout =
            std::alloc::Layout::from_size_align(bytes, 16.min(align)).map_err(|_| fail.clone())?;
        // SAFETY: the layout's size is not zero (len >= 1 and T is not zero-sized, or align
        // adds at least one byte).
        let base = unsafe { std::alloc::alloc_zeroed(layout) };
        if base.is_null() {
            return Err(fail);
        }
        let offset = base.align_offset(align);
        // SAFETY: the slack of `align` bytes covers the offset, so the table lies inside the
        // allocation; the pointer is aligned for T and not null.
        let start = unsafe { std::ptr::NonNull::new_unchecked(base.add(offset) as *mut T) };
        advise_huge_pages(start.as_ptr() as usize, len * std::mem::size_of::<T>());
        Ok(ZeroedTable {
            start,
            len,
            base,
            layout,
        })
    }
}

impl<T: ZeroIsValid> std::ops::Deref for ZeroedTable<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` values of T, zeroed (valid by ZeroIsValid) and owned by self.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

impl<T: ZeroIsValid> std::ops::DerefMut for ZeroedTable<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in deref, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }
}

impl<T: ZeroIsValid> Drop for ZeroedTable<T> {
    fn drop(&mut self) {
        // SAFETY: `base` came from alloc_zeroed with this layout; T needs no drop.
        unsafe { std::alloc::dealloc(self.base, self.layout) };
    }
}

impl<T: ZeroIsValid> std::fmt::Debug for ZeroedTable<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ZeroedTable({} entries)", self.len)
    }
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(start: usize, len: usize) {
    const HUGE: usize = 2 * 1024 * 1024;
    // Only the whole huge pages inside the block can be backed by them.
    let first = start.next_multiple_of(HUGE);
    let end = (start + len) / HUGE * HUGE;
    if end > first {
        // SAFETY: the range lies inside the vector's own allocation, and MADV_HUGEPAGE only
        // changes how the kernel backs those pages, never their contents or their validity.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: usize, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_vectors_hold_what_they_were_filled_with() {
        let mut k = 0u64;
        let v = large_vec(3 << 20, || {
            k += 1;
            k
        });
        assert_eq!(v.len(), 3 << 20);
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64 + 1));
        assert!(large_vec(0, || 0u8).is_empty());
    }

    #[test]
    fn zeroed_tables_start_zeroed_aligned_and_writable() {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        let mut t = ZeroedTable::<[AtomicU64; 4]>::new(5 << 20).unwrap();
        assert_eq!(t.len(), 5 << 20);
        assert_eq!(
            t.as_ptr() as usize % std::mem::align_of::<[AtomicU64; 4]>(),
            0
        );
        assert!(t
            .iter()
            .step_by(4099)
            .all(|b| b.iter().all(|w| w.load(Relaxed) == 0)));
        *t[12345][3].get_mut() = 7;
        assert_eq!(t[12345][3].load(Relaxed), 7);
        assert_eq!(ZeroedTable::<i16>::new(0).unwrap().len(), 1);
    }

    #[test]
    fn a_table_too_large_for_the_machine_is_an_error() {
        let e = ZeroedTable::<i16>::new(usize::MAX / 2).unwrap_err();
        assert!(e.to_string().starts_with("cannot allocate"), "{e}");
        assert!(ZeroedTable::<i16>::new(1 << 62).is_err());
    }
}
