//! The net's two inner loops, column updates of an accumulator and the clipped dot product
//! of the output layer, with vector code picked at run time: AVX2 where the processor has
//! it, else SSE2 (every x86-64 has it), else plain loops. Every version gives exactly the
//! same integers (wrapping i16 adds; i32 sums, which wrap alike in any order), so the choice
//! never changes a search.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// True when the processor runs AVX2 (the answer is cached by the standard library).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_avx2() -> bool {
    is_x86_feature_detected!("avx2")
}

/// Adds (`ADD`) or subtracts `col` into `acc`, element by element, wrapping in i16.
#[inline]
pub fn apply_column<const ADD: bool>(acc: &mut [i16], col: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the processor has AVX2, the one feature the function is compiled for.
        unsafe { apply_column_avx2::<ADD>(acc, col) };
        return;
    }
    apply_column_plain::<ADD>(acc, col);
}

/// The update as one zipped pass, which the compiler turns into vector adds of the width
/// its caller was compiled for.
#[inline(always)]
fn apply_column_plain<const ADD: bool>(acc: &mut [i16], col: &[i16]) {
    if ADD {
        for (a, &c) in acc.iter_mut().zip(col) {
            *a = a.wrapping_add(c);
        }
    } else {
        for (a, &c) in acc.iter_mut().zip(col) {
            *a = a.wrapping_sub(c);
        }
    }
}

/// The plain loop compiled for AVX2 (32-byte adds).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn apply_column_avx2<const ADD: bool>(acc: &mut [i16], col: &[i16]) {
    apply_column_plain::<ADD>(acc, col);
}

/// `sum clamp(a, 0, qa) x w` over the common length of the slices, in i32 (wrapping). A
/// trained net's output weights stay within 1.98 x QB = 507, so 4096 terms of 255 x 507
/// fit; a made-up file with larger ones wraps, never panics. `qa` must not be negative.
#[inline]
pub fn dot_clipped(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    let n = acc.len().min(w.len());
    let (acc, w) = (&acc[..n], &w[..n]);
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2() {
            // SAFETY: the processor has AVX2.
            return unsafe { dot_clipped_avx2(acc, w, qa) };
        }
        // SAFETY: SSE2 is part of every x86-64 processor.
        unsafe { dot_clipped_sse2(acc, w, qa) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    dot_clipped_plain(acc, w, qa)
}

/// The dot product element by element: the reference the vector versions must match, and
/// their tail.
fn dot_clipped_plain(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| a.clamp(0, qa) as i32 * w as i32)
        .fold(0i32, |s, x| s.wrapping_add(x))
}

/// 16 terms a step: clip in i16, then `vpmaddwd` multiplies and adds pairs into i32. A pair
/// cannot overflow: a clipped value is at most 32,767 and a weight at least -32,768.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot_clipped_avx2(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    const LANES: usize = 16;
    let body = acc.len() - acc.len() % LANES;
    let zero = _mm256_setzero_si256();
    let top = _mm256_set1_epi16(qa);
    let mut sum = _mm256_setzero_si256();
    let mut i = 0;
    while i < body {
        // SAFETY: i + LANES <= body <= both lengths; unaligned loads.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i),
                _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i),
            )
        };
        let clipped = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, b));
        i += LANES;
    }
    let mut lanes = [0i32; 8];
    // SAFETY: `lanes` is 32 bytes.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum) };
    let total = lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x));
    total.wrapping_add(dot_clipped_plain(&acc[body..], &w[body..], qa))
}

/// As the AVX2 version, 8 terms a step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
unsafe fn dot_clipped_sse2(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    const LANES: usize = 8;
    let body = acc.len() - acc.len() % LANES;
    let zero = _mm_setzero_si128();
    let top = _mm_set1_epi16(qa);
    let mut sum = _mm_setzero_si128();
    let mut i = 0;
    while i < body {
        // SAFETY: i + LANES <= body <= both lengths; unaligned loads.
        let (a, b) = unsafe {
            (
                _mm_loadu_si128(acc.as_ptr().add(i) as *const __m128i),
                _mm_loadu_si128(w.as_ptr().add(i) as *const __m128i),
            )
        };
        let clipped = _mm_min_epi16(_mm_max_epi16(a, zero), top);
        sum = _mm_add_epi32(sum, _mm_madd_epi16(clipped, b));
        i += LANES;
    }
    let mut lanes = [0i32; 4];
    // SAFETY: `lanes` is 16 bytes.
    unsafe { _mm_storeu_si128(lanes.as_mut_ptr() as *mut __m128i, sum) };
    let total = lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x));
    total.wrapping_add(dot_clipped_plain(&acc[body..], &w[body..], qa))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Every version agrees with the element-by-element reference, on lengths with and
    /// without a tail and on values at the ends of the i16 range (where sums wrap).
    #[test]
    fn vector_versions_match_the_plain_loops() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        for n in [0usize, 1, 7, 8, 15, 16, 17, 33, 256, 1000] {
            for extreme in [false, true] {
                let draw = |rng: &mut rand::rngs::SmallRng| -> i16 {
                    if extreme {
                        [i16::MIN, i16::MAX, 0, -1, 1][rng.gen_range(0..5)]
                    } else {
                        rng.gen_range(-600..600)
                    }
                };
                let acc: Vec<i16> = (0..n).map(|_| draw(&mut rng)).collect();
                let w: Vec<i16> = (0..n).map(|_| draw(&mut rng)).collect();
                for qa in [0i16, 255, i16::MAX] {
                    let want = dot_clipped_plain(&acc, &w, qa);
                    assert_eq!(dot_clipped(&acc, &w, qa), want, "n {n} qa {qa}");
                    #[cfg(target_arch = "x86_64")]
                    {
                        assert_eq!(unsafe { dot_clipped_sse2(&acc, &w, qa) }, want);
                        if has_avx2() {
                            assert_eq!(unsafe { dot_clipped_avx2(&acc, &w, qa) }, want);
                        }
                    }
                }
                let mut plus = acc.clone();
                let mut minus = acc.clone();
                apply_column::<true>(&mut plus, &w);
                apply_column::<false>(&mut minus, &w);
                for i in 0..n {
                    assert_eq!(plus[i], acc[i].wrapping_add(w[i]));
                    assert_eq!(minus[i], acc[i].wrapping_sub(w[i]));
                }
            }
        }
    }
}
