//! The network's vector loops: adding a weight row to an accumulator (`f32` for training,
//! 16-bit for the search, `quant.rs`), making a ply's 16-bit accumulator from its parent's
//! (rows taken and added in one pass), and the output layer's running sums over the 16-bit
//! accumulators turned back into `f32`. Each is compiled twice, for any x86-64 processor
//! (SSE2) and with AVX2, and the AVX2 form is taken where the processor has it (checked at
//! run time, so the binary still runs everywhere).
//!
//! Invariant: both forms give the same results bit for bit. The 16-bit row loops add and
//! take with wrapping, element by element (exact: every final sum is in range); the output
//! turns each accumulator into `f32` exactly (a conversion, then a multiply by a power of
//! two), adds each unit's product into the same one of [`LANES`] running sums in the same
//! order and sums the lanes in a fixed order; no multiply and add are fused (the AVX2 form
//! enables `avx2` alone, not `fma`). So `bench` and every score are the same on every
//! machine.

/// Running sums of the output layer (lane `i` takes units `i`, `i + LANES`, …).
pub const LANES: usize = 16;

/// The clipped, squared activation.
#[inline(always)]
pub(super) fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// `acc += row`, 16-bit, wrapping.
#[inline(always)]
fn add_q_plain(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

/// `acc -= row`, 16-bit, wrapping.
#[inline(always)]
fn sub_q_plain(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

#[inline(always)]
fn add_plain(acc: &mut [f32], row: &[f32]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a += w;
    }
}

/// `child = parent ± row ± row …`, each row added or taken (its flag) element by element in
/// the order given: the same sums as copying `parent` and applying the rows one by one. A
/// plain move (a row taken, one added) and a capture (then one more taken) run as one pass.
#[inline(always)]
fn apply_rows_plain(child: &mut [i16], parent: &[i16], rows: &[(&[i16], bool)]) {
    match *rows {
        [(a, false), (b, true)] => sub_add_plain(child, parent, a, b),
        [(a, false), (b, true), (c, false)] => sub_add_sub_plain(child, parent, a, b, c),
        _ => {
            child.copy_from_slice(parent);
            for &(row, add) in rows {
                if add {
                    add_q_plain(child, row);
                } else {
                    sub_q_plain(child, row);
                }
            }
        }
    }
}

/// `child = parent - a + b`, element by element (a plain move's rows).
#[inline(always)]
fn sub_add_plain(child: &mut [i16], parent: &[i16], a: &[i16], b: &[i16]) {
    // Chu's 64 units: the same loop on arrays, its trip count known when compiling (unrolled).
    if let (Ok(x), Ok(p), Ok(a), Ok(b)) = (
        <&mut [i16; 64]>::try_from(&mut *child),
        <&[i16; 64]>::try_from(parent),
        <&[i16; 64]>::try_from(a),
        <&[i16; 64]>::try_from(b),
    ) {
        return sub_add_loop(x, p, a, b);
    }
    sub_add_loop(child, parent, a, b)
}

#[inline(always)]
fn sub_add_loop(child: &mut [i16], parent: &[i16], a: &[i16], b: &[i16]) {
    for (((x, p), a), b) in child.iter_mut().zip(parent).zip(a).zip(b) {
        *x = p.wrapping_sub(*a).wrapping_add(*b);
    }
}

/// `child = parent - a + b - c`, element by element (a capture's rows).
#[inline(always)]
fn sub_add_sub_plain(child: &mut [i16], parent: &[i16], a: &[i16], b: &[i16], c: &[i16]) {
    // As in `sub_add_plain`, for chu's 64 units.
    if let (Ok(x), Ok(p), Ok(a), Ok(b), Ok(c)) = (
        <&mut [i16; 64]>::try_from(&mut *child),
        <&[i16; 64]>::try_from(parent),
        <&[i16; 64]>::try_from(a),
        <&[i16; 64]>::try_from(b),
        <&[i16; 64]>::try_from(c),
    ) {
        return sub_add_sub_loop(x, p, a, b, c);
    }
    sub_add_sub_loop(child, parent, a, b, c)
}

#[inline(always)]
fn sub_add_sub_loop(child: &mut [i16], parent: &[i16], a: &[i16], b: &[i16], c: &[i16]) {
    for ((((x, p), a), b), c) in child.iter_mut().zip(parent).zip(a).zip(b).zip(c) {
        *x = p.wrapping_sub(*a).wrapping_add(*b).wrapping_sub(*c);
    }
}

#[inline(always)]
fn lanes_plain(pairs: [(&[i16], &[f32]); 2], inv: f32) -> [f32; LANES] {
    let mut lanes = [0.0f32; LANES];
    for (acc, w) in pairs {
        let (a_chunks, w_chunks) = (acc.chunks_exact(LANES), w.chunks_exact(LANES));
        let (a_rest, w_rest) = (a_chunks.remainder(), w_chunks.remainder());
        for (a, w) in a_chunks.zip(w_chunks) {
            for i in 0..LANES {
                lanes[i] += screlu(a[i] as f32 * inv) * w[i];
            }
        }
        for (i, (a, w)) in a_rest.iter().zip(w_rest).enumerate() {
            lanes[i] += screlu(*a as f32 * inv) * w;
        }
    }
    lanes
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    #[target_feature(enable = "avx2")]
    pub(super) fn add(acc: &mut [f32], row: &[f32]) {
        super::add_plain(acc, row)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn add_q(acc: &mut [i16], row: &[i16]) {
        super::add_q_plain(acc, row)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn sub_add(child: &mut [i16], parent: &[i16], a: &[i16], b: &[i16]) {
        super::sub_add_plain(child, parent, a, b)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn sub_add_sub(child: &mut [i16], parent: &[i16], a: &[i16], b: &[i16], c: &[i16]) {
        super::sub_add_sub_plain(child, parent, a, b, c)
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn apply_rows(child: &mut [i16], parent: &[i16], rows: &[(&[i16], bool)]) {
        super::apply_rows_plain(child, parent, rows)
    }

    /// [`super::lanes_plain`] with the sixteen running sums in two registers: the same
    /// products added to the same sums in the same order (`max` then `min` is the clamp
    /// for every accumulator value but NaN, which sums of finite weights never make; a
    /// `-0.0` clamps to `+0.0` here and squares to `+0.0` in both).
    #[target_feature(enable = "avx2")]
    pub(super) fn lanes(pairs: [(&[i16], &[f32]); 2], inv: f32) -> [f32; super::LANES] {
        use std::arch::x86_64::*;
        const L: usize = super::LANES;
        const _: () = assert!(L == 16);
        let (zero, one, scale) = (_mm256_setzero_ps(), _mm256_set1_ps(1.0), _mm256_set1_ps(inv));
        let mut out = [0.0f32; L];
        for (acc, w) in pairs {
            let n = acc.len().min(w.len());
            let whole = n / L * L;
            // SAFETY: `out` holds sixteen `f32`s, read and written as two unaligned halves.
            let (mut lo, mut hi) = unsafe { (_mm256_loadu_ps(out.as_ptr()), _mm256_loadu_ps(out.as_ptr().add(8))) };
            // One step: the sixteen units from `j` (`j + 16 <= whole <= n`, within both
            // slices; sixteen `i16` are one unaligned 256-bit load).
            macro_rules! step {
                ($j:expr) => {{
                    let j = $j;
                    // SAFETY: every `j` given is below `whole` and a multiple of sixteen, so
                    // `j + 16 <= whole <= n`: within both slices.
                    let (a, w0, w1) = unsafe {
                        (
                            _mm256_loadu_si256(acc.as_ptr().add(j) as *const __m256i),
                            _mm256_loadu_ps(w.as_ptr().add(j)),
                            _mm256_loadu_ps(w.as_ptr().add(j + 8)),
                        )
                    };
                    // Each half's eight accumulators widened to `i32`, then to `f32` (exact),
                    // then scaled by a power of two (exact).
                    let a0 = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm256_castsi256_si128(a))), scale);
                    let a1 = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(a))), scale);
                    let c0 = _mm256_min_ps(_mm256_max_ps(a0, zero), one);
                    let c1 = _mm256_min_ps(_mm256_max_ps(a1, zero), one);
                    lo = _mm256_add_ps(lo, _mm256_mul_ps(_mm256_mul_ps(c0, c0), w0));
                    hi = _mm256_add_ps(hi, _mm256_mul_ps(_mm256_mul_ps(c1, c1), w1));
                }};
            }
            if whole == 64 {
                // Chu's 64 units a side: the same steps, with a trip count known when
                // compiling (unrolled, no loop test).
                for j in (0..64).step_by(L) {
                    step!(j);
                }
            } else {
                for j in (0..whole).step_by(L) {
                    step!(j);
                }
            }
            // SAFETY: as the loads above.
            unsafe {
                _mm256_storeu_ps(out.as_mut_ptr(), lo);
                _mm256_storeu_ps(out.as_mut_ptr().add(8), hi);
            }
            for (i, (a, w)) in acc[whole..n].iter().zip(&w[whole..n]).enumerate() {
                out[i] += super::screlu(*a as f32 * inv) * w;
            }
        }
        out
    }
}

/// Whether the AVX2 forms may run here.
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

/// The body of each public loop: its AVX2 form `avx2::$name` where the processor has AVX2,
/// else its plain form, on the same arguments.
macro_rules! dispatch {
    ($name:ident, $plain:ident, $($arg:expr),*) => {{
        #[cfg(target_arch = "x86_64")]
        if has_avx2() {
            // SAFETY: the processor has AVX2 (checked just above), the one feature it enables.
            return unsafe { avx2::$name($($arg),*) };
        }
        $plain($($arg),*)
    }};
}

/// `acc += row`, element by element.
#[inline]
pub fn add(acc: &mut [f32], row: &[f32]) {
    dispatch!(add, add_plain, acc, row)
}

/// `acc += row`, 16-bit, element by element, wrapping.
#[inline]
pub fn add_q(acc: &mut [i16], row: &[i16]) {
    dispatch!(add_q, add_q_plain, acc, row)
}

/// `child = parent ± rows` (see [`apply_rows_plain`]).
#[inline]
pub fn apply_rows(child: &mut [i16], parent: &[i16], rows: &[(&[i16], bool)]) {
    dispatch!(apply_rows, apply_rows_plain, child, parent, rows)
}

/// `child = parent - a + b` (the same sums as [`apply_rows`] with those two rows).
#[inline]
pub fn sub_add(child: &mut [i16], parent: &[i16], a: &[i16], b: &[i16]) {
    dispatch!(sub_add, sub_add_plain, child, parent, a, b)
}

/// `child = parent - a + b - c` (the same sums as [`apply_rows`] with those three rows).
#[inline]
pub fn sub_add_sub(child: &mut [i16], parent: &[i16], a: &[i16], b: &[i16], c: &[i16]) {
    dispatch!(sub_add_sub, sub_add_sub_plain, child, parent, a, b, c)
}

/// The output layer's running sums over the (16-bit accumulator, output weights) pairs: lane
/// `i` holds `Σ screlu(acc[j]·inv)·w[j]` over the units `j ≡ i (mod LANES)`, ours then
/// theirs (`inv`: one over the network's scale, a power of two).
#[inline]
pub fn lanes(pairs: [(&[i16], &[f32]); 2], inv: f32) -> [f32; LANES] {
    dispatch!(lanes, lanes_plain, pairs, inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dispatched_loops_equal_the_plain_ones_bit_for_bit() {
        let mut s = 9u64;
        let mut next = || (crate::eval::xorshift(&mut s) % 4001) as f32 / 1000.0 - 2.0;
        for n in [5, LANES, 64, 128, 131] {
            // The training sums in `f32`.
            let row: Vec<f32> = (0..n).map(|_| next() / 7.0).collect();
            let acc: Vec<f32> = (0..n).map(|_| next()).collect();
            let (mut a, mut b) = (acc.clone(), acc.clone());
            add(&mut a, &row);
            add_plain(&mut b, &row);
            assert_eq!(
                a.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                b.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            );
            // The search's in 16 bits, wrapping on the way (values near the ends of the range).
            let mut q = || (next() * 16_000.0) as i16;
            let base: Vec<i16> = (0..n).map(|_| q()).collect();
            let rows: Vec<Vec<i16>> = (0..4).map(|_| (0..n).map(|_| q()).collect()).collect();
            let (mut a, mut b) = (base.clone(), base.clone());
            add_q(&mut a, &rows[3]);
            add_q_plain(&mut b, &rows[3]);
            assert_eq!(a, b);
            // The one-pass row updates equal a copy and one row at a time, in each form.
            for signs in [&[false, true][..], &[false, true, false], &[true, false, false, true], &[false]] {
                let listed: Vec<(&[i16], bool)> = signs.iter().enumerate().map(|(i, &add)| (&rows[i % 3][..], add)).collect();
                let mut one_by_one = a.clone();
                for &(r, add) in &listed {
                    if add {
                        add_q_plain(&mut one_by_one, r);
                    } else {
                        sub_q_plain(&mut one_by_one, r);
                    }
                }
                let (mut c, mut d) = (vec![0; n], vec![0; n]);
                apply_rows(&mut c, &a, &listed);
                apply_rows_plain(&mut d, &a, &listed);
                assert_eq!(c, one_by_one);
                assert_eq!(c, d);
            }
            // The two fixed shapes equal the list form with the same rows.
            let (r0, r1, r2) = (&rows[0][..], &rows[1][..], &rows[2][..]);
            let (mut listed, mut fixed, mut plain) = (vec![0; n], vec![0; n], vec![0; n]);
            apply_rows(&mut listed, &a, &[(r0, false), (r1, true), (r2, true)]);
            sub_add(&mut fixed, &a, r0, r1);
            sub_add_plain(&mut plain, &a, r0, r1);
            add_q(&mut fixed, r2);
            add_q_plain(&mut plain, r2);
            assert_eq!((&fixed, &plain), (&listed, &listed));
            apply_rows(&mut listed, &a, &[(r0, false), (r1, true), (r2, false)]);
            sub_add_sub(&mut fixed, &a, r0, r1, r2);
            sub_add_sub_plain(&mut plain, &a, r0, r1, r2);
            assert_eq!((&fixed, &plain), (&listed, &listed));
            // The output's running sums, over accumulators scaled by a power of two.
            let w: Vec<f32> = (0..n).map(|_| next()).collect();
            let inv = 1.0 / 8192.0;
            let got = lanes([(&base, &w), (&a, &w)], inv);
            assert_eq!(got.map(f32::to_bits), lanes_plain([(&base, &w), (&a, &w)], inv).map(f32::to_bits));
            // And the sums are the plain ones.
            let plain: f64 = base
                .iter()
                .chain(&a)
                .zip(w.iter().chain(&w))
                .map(|(x, w)| f64::from(screlu(*x as f32 * inv)) * f64::from(*w))
                .sum();
            assert!((got.iter().map(|&x| f64::from(x)).sum::<f64>() - plain).abs() < 1e-3);
        }
    }
}
