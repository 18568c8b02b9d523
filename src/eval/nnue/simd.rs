//! The two kernels inference spends its time in, with AVX2 versions chosen at run time.
//!
//! Each kernel is written once as plain loops (`*_generic`), which the compiler vectorises for
//! whatever target features it is allowed. The AVX2 entry points compile the same loops with AVX2
//! enabled, so that a build for a generic x86-64 target still uses AVX2 on a CPU that has it; the
//! SCReLU dot product has a hand-written AVX2 kernel because the compiler does not find the
//! `madd` form on its own. Everything else (and aarch64) uses the generic code.
#![allow(unsafe_code)]

/// `out[i] = input[i] + Σ add[k][i] − Σ sub[k][i]`, wrapping like the integer hardware does.
#[inline(always)]
fn update_generic(out: &mut [i16], input: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    let n = out.len();
    let input = &input[..n];
    out.copy_from_slice(input);
    for a in add {
        let a = &a[..n];
        for (o, &x) in out.iter_mut().zip(a) {
            *o = o.wrapping_add(x);
        }
    }
    for s in sub {
        let s = &s[..n];
        for (o, &x) in out.iter_mut().zip(s) {
            *o = o.wrapping_sub(x);
        }
    }
}

/// `Σ clamp(acc[i], 0, qa)² · w[i]`, computed as `v · (v · w)` with `v · w` in 16 bits, which
/// is exact because the trainer clips weights so that |w| ≤ 127 and `qa` ≤ 255.
#[inline(always)]
fn screlu_dot_generic(acc: &[i16], w: &[i16], qa: i16) -> i64 {
    let w = &w[..acc.len()];
    let mut total = 0i64;
    // Chunks of 256 keep each i32 partial sum below 256 · 255 · 32385 < 2^31.
    for (a, w) in acc.chunks(256).zip(w.chunks(256)) {
        let mut sum = 0i32;
        for (&x, &y) in a.iter().zip(w) {
            let v = x.clamp(0, qa);
            sum += i32::from(v) * i32::from(v.wrapping_mul(y));
        }
        total += i64::from(sum);
    }
    total
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// The generic update compiled with AVX2.
    #[target_feature(enable = "avx2")]
    pub fn update(out: &mut [i16], input: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        super::update_generic(out, input, add, sub)
    }

    /// The SCReLU dot product with `madd`: 16 lanes at a time, eight i32 partial sums.
    #[target_feature(enable = "avx2")]
    pub fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i64 {
        let n = acc.len().min(w.len());
        let body = n - n % 16;
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut total = 0i64;
        let mut i = 0;
        while i < body {
            // A block of 512 elements keeps each of the eight i32 lanes below
            // 64 · 255 · 32385 < 2^31, however large the hidden layer.
            let end = (i + 512).min(body);
            let mut sum = zero;
            while i < end {
                // Safety: i + 16 ≤ body ≤ both slices' lengths, so each 32-byte unaligned load
                // reads inside its slice; loadu has no alignment requirement.
                let (a, b) = unsafe {
                    (
                        _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                        _mm256_loadu_si256(w.as_ptr().add(i).cast()),
                    )
                };
                let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
                let t = _mm256_mullo_epi16(v, b);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, t));
                i += 16;
            }
            let mut lanes = [0i32; 8];
            // Safety: `lanes` is 32 bytes, exactly one unaligned 256-bit store.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
            total += lanes.iter().map(|&x| i64::from(x)).sum::<i64>();
        }
        total + super::screlu_dot_generic(&acc[body..n], &w[body..n], qa)
    }
}

/// Whether this CPU runs the AVX2 kernels (detected once; the answer is cached by std).
#[inline]
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `out = input + Σ add − Σ sub`, element-wise; all slices at least `out.len()` long.
#[inline]
pub fn update(out: &mut [i16], input: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // Safety: the CPU supports AVX2 (checked at run time just above), the only requirement
        // of calling a `target_feature(enable = "avx2")` function.
        return unsafe { avx2::update(out, input, add, sub) };
    }
    update_generic(out, input, add, sub)
}

/// `Σ clamp(acc[i], 0, qa)² · w[i]` over `acc.len()` elements (`w` at least as long).
#[inline]
pub fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // Safety: the CPU supports AVX2 (checked at run time just above).
        return unsafe { avx2::screlu_dot(acc, w, qa) };
    }
    screlu_dot_generic(acc, w, qa)
}

/// The portable kernels, for tests that compare them with the dispatched ones.
pub mod portable {
    /// The portable SCReLU dot product.
    pub fn screlu_dot(acc: &[i16], w: &[i16], qa: i16) -> i64 {
        super::screlu_dot_generic(acc, w, qa)
    }
    /// The portable accumulator update.
    pub fn update(out: &mut [i16], input: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
        super::update_generic(out, input, add, sub)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition, written the plainest way (one i64 sum, no chunks, no 16-bit product):
    /// the oracle both kernels answer to, so that neither is only compared with itself.
    fn screlu_dot_definition(acc: &[i16], w: &[i16], qa: i16) -> i64 {
        acc.iter()
            .zip(w)
            .map(|(&a, &w)| {
                let v = i64::from(a.clamp(0, qa));
                v * v * i64::from(w)
            })
            .sum()
    }

    /// `input + Σ add − Σ sub` element by element in i32, then wrapped to i16 as the
    /// hardware's 16-bit adds wrap.
    fn update_definition(input: &[i16], add: &[&[i16]], sub: &[&[i16]]) -> Vec<i16> {
        (0..input.len())
            .map(|i| {
                let mut v = i32::from(input[i]);
                v += add.iter().map(|a| i32::from(a[i])).sum::<i32>();
                v -= sub.iter().map(|s| i32::from(s[i])).sum::<i32>();
                v as i16
            })
            .collect()
    }

    #[test]
    fn kernels_agree_with_the_definitions() {
        let mut x = 12345u32;
        let mut next = |m: i32| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            ((x >> 8) as i32 % (2 * m + 1) - m) as i16
        };
        // Sizes around the AVX2 kernel's 16-lane steps and 512-element blocks, and the
        // hidden sizes the nets use.
        for n in [1, 15, 16, 17, 48, 128, 511, 512, 513, 1024, 1040, 4096] {
            let acc: Vec<i16> = (0..n).map(|_| next(400)).collect();
            let w: Vec<i16> = (0..n).map(|_| next(127)).collect();
            let expect = screlu_dot_definition(&acc, &w, 255);
            assert_eq!(screlu_dot(&acc, &w, 255), expect, "n = {n}");
            assert_eq!(portable::screlu_dot(&acc, &w, 255), expect, "n = {n}");
            // The extreme case: every activation and weight at its bound, either sign.
            let full = vec![255i16; n];
            for bound in [127i16, -127] {
                let wmax = vec![bound; n];
                let expect = n as i64 * 255 * 255 * i64::from(bound);
                assert_eq!(screlu_dot(&full, &wmax, 255), expect);
                assert_eq!(portable::screlu_dot(&full, &wmax, 255), expect);
            }
            // Updates with several features added and removed, overflowing i16 on purpose.
            let a: Vec<i16> = (0..n).map(|_| next(30_000)).collect();
            let b: Vec<i16> = (0..n).map(|_| next(30_000)).collect();
            let c: Vec<i16> = (0..n).map(|_| next(30_000)).collect();
            let expect = update_definition(&acc, &[&a, &c], &[&b]);
            let (mut o1, mut o2) = (vec![0i16; n], vec![0i16; n]);
            update(&mut o1, &acc, &[&a, &c], &[&b]);
            portable::update(&mut o2, &acc, &[&a, &c], &[&b]);
            assert_eq!(o1, expect, "n = {n}");
            assert_eq!(o2, expect, "n = {n}");
        }
    }
}
