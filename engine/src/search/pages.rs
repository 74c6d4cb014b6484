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
}
