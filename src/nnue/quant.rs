//! The feature transformer in 16-bit integers: what the search sums. Each weight and bias is
//! its `f32` value times the network's scale, rounded; the scale is a power of two, so an
//! accumulator turns back into the `f32` scale exactly (a conversion and a multiply by its
//! inverse), and the output layer stays in `f32`.
//!
//! Invariant: no accumulator of any position can leave the `i16` range. The scale is the
//! largest power of two (at most [`MAX_SCALE`]) for which, unit by unit, the bias plus the
//! largest weight of each square (one piece a square) plus every hand feature's weight, all
//! as rounded, stays within `i16::MAX` in absolute value. Sums made in any order with
//! wrapping adds and subtracts then end on the exact sum, so updated accumulators equal
//! fresh ones bit for bit, and half the bytes of `f32` rows are read for each move.

use super::Network;
use crate::variant::Variant;

/// The largest scale tried: weights kept to 1/4096.
pub const MAX_SCALE: f32 = 4096.0;
/// The smallest scale a network file may need (weights kept to 1/64 at least); a file whose
/// weights need a smaller one is refused.
pub const MIN_FILE_SCALE: f32 = 64.0;

/// A network's feature weights and biases in 16 bits (see the module header).
#[derive(Clone, Debug)]
pub struct Quantized {
    /// What each `f32` weight was multiplied by (a power of two).
    pub scale: f32,
    /// `1 / scale`, exact.
    pub inv: f32,
    /// Feature weights, row per feature, as `Network::ft_w`.
    pub w: Vec<i16>,
    /// Biases, H.
    pub b: Vec<i16>,
}

impl Quantized {
    /// The largest scale that keeps every accumulator of `net` (made for `v`; with no
    /// variant, every feature is counted as if all could be present at once) in range; down
    /// to 2^-30 (the weights of a file are finite; only absurd ones need less, and those are
    /// then clamped rather than wrapped).
    pub fn new(net: &Network, v: Option<&Variant>) -> Quantized {
        let mut scale = MAX_SCALE;
        loop {
            let q = Quantized::at(net, scale);
            if scale <= 1.0 / (1u64 << 30) as f32 || q.bound(net.hidden, v) <= i16::MAX as i32 {
                return q;
            }
            scale /= 2.0;
        }
    }

    /// `net`'s weights times `scale`, rounded (and clamped to `i16`).
    fn at(net: &Network, scale: f32) -> Quantized {
        let round = |x: &f32| (x * scale).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        Quantized {
            scale,
            inv: 1.0 / scale,
            w: net.ft_w.iter().map(round).collect(),
            b: net.ft_b.iter().map(round).collect(),
        }
    }

    /// The largest absolute value any unit's accumulator can take: its bias, plus on each
    /// square the largest weight of any piece there, plus the weights of every hand feature.
    fn bound(&self, h: usize, v: Option<&Variant>) -> i32 {
        // Squares and piece planes, then the hand features (each present at most once); a
        // variant whose inputs are not the rows counts every row as always present.
        let rows = self.w.len() / h.max(1);
        let (nsq, planes) = match v {
            Some(v) if super::input_count(v) == rows => (v.width * v.height, 2 * v.pieces.len()),
            _ => (0, 0),
        };
        let hand = rows - planes * nsq;
        let row = |f: usize| self.w[f * h..(f + 1) * h].iter().map(|&x| (x as i32).abs());
        // Unit by unit, read a row at a time (the weights are stored row by row).
        let mut sum: Vec<i32> = self.b.iter().map(|&x| (x as i32).abs()).collect();
        let mut most = vec![0i32; h];
        for s in 0..nsq {
            most.fill(0);
            for p in 0..planes {
                most.iter_mut().zip(row(p * nsq + s)).for_each(|(m, x)| *m = (*m).max(x));
            }
            sum.iter_mut().zip(&most).for_each(|(t, m)| *t += m);
        }
        for f in 0..hand {
            sum.iter_mut().zip(row(planes * nsq + f)).for_each(|(t, x)| *t += x);
        }
        sum.into_iter().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// The built-in networks keep their weights to 1/1024 or finer, and score the positions
    /// of random games within a few centipawns of the `f32` sums, about one on average (and
    /// the incremental sums of the search equal fresh ones exactly: `acc.rs`).
    #[test]
    fn the_built_in_networks_quantize_finely_and_score_as_in_f32() {
        for v in crate::variant::all() {
            let Some(net) = super::super::builtin(v) else { continue };
            let q = net.quantized();
            assert!(q.scale >= 1024.0, "{}: scale {}", v.name, q.scale);
            assert!(q.bound(net.hidden, Some(v)) <= i16::MAX as i32);
            let (mut worst, mut n, mut total) = (0, 0, 0);
            for seed in 21..26 {
                crate::eval::random_game(v, seed, 200, |pos: &Position| {
                    let exact = net.evaluate_output_f32(pos);
                    let d = (net.evaluate_output(pos) - exact).abs();
                    worst = worst.max(d);
                    total += d;
                    n += 1;
                });
            }
            // Measured (forty-eighth session): at most 1 to 6 centipawns off, 0.1 to 1.3 on
            // average.
            let mean = total as f64 / n as f64;
            assert!(
                n > 200 && worst <= 8 && mean <= 2.0,
                "{}: {worst} centipawns off at most, {mean} on average, over {n} positions",
                v.name
            );
        }
    }

    #[test]
    fn large_weights_get_a_smaller_scale_and_stay_in_range() {
        let v = Variant::by_name("chushogi").expect("chu");
        let mut net = Network::zeros(v, 4, super::super::Base::None);
        net.ft_w.iter_mut().enumerate().for_each(|(i, w)| *w = if i % 3 == 0 { 0.9 } else { -0.4 });
        net.ft_b.fill(1.5);
        let q = Quantized::new(&net, Some(v));
        // Per unit: on a third of the squares a weight of 0.9, elsewhere at most 0.4, and
        // the bias: 48·0.9 + 96·0.4 + 1.5 = 83.1, which fits 256 (21,274) but not 512.
        assert_eq!(q.scale, 256.0);
        assert!(q.bound(4, Some(v)) <= i16::MAX as i32);
        // Without the layout (or with another variant's) every feature counts: a smaller
        // scale still.
        assert!(Quantized::new(&net, None).scale < q.scale);
        assert_eq!(Quantized::new(&net, Variant::by_name("shogi")).scale, Quantized::new(&net, None).scale);
        assert!(Quantized::at(&net, q.scale * 2.0).bound(4, Some(v)) > i16::MAX as i32);
    }
}
