//! The NNUE trainer: fits a [`Network`] to `shishi datagen` positions.
//!
//! Each sample is a position's features from both sides (side to move first) and a target
//! winning chance `t = λ·σ(score / S) + (1 − λ)·result` (score in centipawns and result
//! 1/½/0 from the side to move; `σ(x) = 1 / (1 + e^−x)`). The prediction is
//! `p = σ(out · OUT_SCALE / S)` and the loss the mean of `(p − t)²`, minimised by Adam on
//! mini-batches, the batch's gradient summed over threads. A fixed share of the samples
//! (drawn once, by the seed) is held out and never fitted; its loss is reported after every
//! epoch, and the network of the epoch where it was lowest is the one returned.
//!
//! Invariant: the gradients are those of the loss above (a test checks them against finite
//! differences), so that a smaller held-out loss means a better fit, not an artefact.

use super::{Base, Network, OUT_SCALE, features};
use crate::position::Position;
use crate::variant::Variant;
use crate::zobrist::splitmix;

/// Samples in compact form: feature lists end to end.
#[derive(Default)]
pub struct Samples {
    /// Whether each position read is also stored mirrored left to right (same target).
    pub mirror: bool,
    /// What the network trained on these samples adds its output to (the score stored with
    /// each sample).
    pub base: Base,
    feats: Vec<u16>,
    /// Per sample: start in `feats`, the count seen from the side to move, then from the other.
    index: Vec<(u32, u16, u16)>,
    target: Vec<f32>,
    /// Each sample's [`Base`] score (search scale).
    base_score: Vec<f32>,
}

impl Samples {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    fn push(&mut self, pos: &Position, target: f32) {
        let start = self.feats.len();
        let us = pos.side_to_move();
        features(pos, us, &mut self.feats);
        let n_us = self.feats.len() - start;
        features(pos, us.flip(), &mut self.feats);
        let n_them = self.feats.len() - start - n_us;
        self.index.push((start as u32, n_us as u16, n_them as u16));
        self.target.push(target);
        let base = self.base.score(pos) as f32;
        self.base_score.push(base);
        if self.mirror {
            let v = pos.variant();
            let end = self.feats.len();
            for i in start..end {
                let f = super::mirror_feature(v, self.feats[i] as usize) as u16;
                self.feats.push(f);
            }
            self.index.push((end as u32, n_us as u16, n_them as u16));
            self.target.push(target);
            self.base_score.push(base);
        }
    }

    fn get(&self, i: usize) -> (&[u16], &[u16], f32, f32) {
        let (s, a, b) = self.index[i];
        let (s, a, b) = (s as usize, a as usize, b as usize);
        (&self.feats[s..s + a], &self.feats[s + a..s + a + b], self.target[i], self.base_score[i])
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// One `SFEN;SCORE;RESULT` line: the position and its target winning chance (weight `lambda`
/// on the score, scale `scale`); `None` when it does not parse.
fn parse_line(v: &'static Variant, line: &str, lambda: f32, scale: f32) -> Option<(Position, f32)> {
    let mut f = line.split(';');
    let (Some(sfen), Some(score), Some(result), None) = (f.next(), f.next(), f.next(), f.next()) else {
        return None;
    };
    let (Ok(score), Ok(result), Ok(pos)) = (score.trim().parse::<f32>(), result.trim().parse::<f32>(), Position::from_sfen(v, sfen)) else {
        return None;
    };
    (0.0..=1.0)
        .contains(&result)
        .then(|| (pos, lambda * sigmoid(score / scale) + (1.0 - lambda) * result))
}

/// Reads `SFEN;SCORE;RESULT` lines into samples with weight `lambda` on the score and scale
/// `scale`. Lines that do not parse are counted and skipped; returns that count.
pub fn load(v: &'static Variant, text: &str, lambda: f32, scale: f32, into: &mut Samples) -> usize {
    let mut bad = 0;
    for line in text.lines() {
        match parse_line(v, line, lambda, scale) {
            Some((pos, target)) => into.push(&pos, target),
            None => bad += 1,
        }
    }
    bad
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Hidden units per side.
    pub hidden: usize,
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples per optimiser step.
    pub batch: usize,
    /// Adam's learning rate (dropped tenfold for the last quarter of the epochs).
    pub lr: f32,
    /// The scale S of the sigmoid, in centipawns.
    pub scale: f32,
    /// Share of the samples held out.
    pub holdout: f64,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
    /// A network to start from instead of random weights (its width overrides `hidden`; its
    /// base must be the samples' [`Samples::base`]).
    pub init: Option<Network>,
}

/// Gradients, shaped like the network's weights.
struct Grad {
    ft_w: Vec<f32>,
    ft_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: f32,
    loss: f64,
}

impl Grad {
    fn zeros(n: &Network) -> Grad {
        Grad {
            ft_w: vec![0.0; n.ft_w.len()],
            ft_b: vec![0.0; n.hidden],
            out_w: vec![0.0; 2 * n.hidden],
            out_b: 0.0,
            loss: 0.0,
        }
    }

    fn clear(&mut self) {
        self.ft_w.fill(0.0);
        self.ft_b.fill(0.0);
        self.out_w.fill(0.0);
        self.out_b = 0.0;
        self.loss = 0.0;
    }
}

/// The loss of one sample; with `grad`, adds its gradient there.
#[allow(clippy::too_many_arguments)]
fn sample_loss(n: &Network, us: &[u16], them: &[u16], t: f32, base: f32, scale: f32, acc: &mut [Vec<f32>; 2], grad: Option<&mut Grad>) -> f32 {
    let h = n.hidden;
    let [a_us, a_them] = acc;
    n.accumulate(us, a_us);
    n.accumulate(them, a_them);
    let out = n.output(a_us, a_them);
    let k = OUT_SCALE / scale;
    let base = base / scale;
    let p = sigmoid(out * k + base);
    let loss = (p - t) * (p - t);
    let Some(g) = grad else { return loss };
    let d_out = 2.0 * (p - t) * p * (1.0 - p) * k;
    g.out_b += d_out;
    for (side, (acc, feats)) in [(&*a_us, us), (&*a_them, them)].into_iter().enumerate() {
        let v = &n.out_w[side * h..(side + 1) * h];
        let gv = &mut g.out_w[side * h..(side + 1) * h];
        // d(loss)/d(acc) for this side, into a scratch row.
        let mut d = vec![0.0f32; h];
        for j in 0..h {
            let x = acc[j];
            let c = x.clamp(0.0, 1.0);
            gv[j] += d_out * c * c;
            d[j] = if x > 0.0 && x < 1.0 { d_out * v[j] * 2.0 * x } else { 0.0 };
        }
        for (b, dj) in g.ft_b.iter_mut().zip(&d) {
            *b += dj;
        }
        for &f in feats {
            let row = &mut g.ft_w[f as usize * h..(f as usize + 1) * h];
            for (w, dj) in row.iter_mut().zip(&d) {
                *w += dj;
            }
        }
    }
    loss
}

/// Mean loss over samples `ids`.
fn mean_loss(n: &Network, s: &Samples, ids: &[usize], scale: f32) -> f64 {
    let mut acc = [vec![0.0; n.hidden], vec![0.0; n.hidden]];
    let total: f64 = ids
        .iter()
        .map(|&i| {
            let (us, them, t, base) = s.get(i);
            sample_loss(n, us, them, t, base, scale, &mut acc, None) as f64
        })
        .sum();
    total / ids.len().max(1) as f64
}

fn shuffle(ids: &mut [usize], rng: &mut u64) {
    for i in (1..ids.len()).rev() {
        let j = (splitmix(rng) % (i as u64 + 1)) as usize;
        ids.swap(i, j);
    }
}

/// Adam's state for one weight array.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32, t: i32) {
        let (b1, b2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        for i in 0..w.len() {
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g[i];
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g[i] * g[i];
            w[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// The progress of one epoch.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// 1-based.
    pub number: usize,
    /// Mean training loss over the epoch.
    pub train: f64,
    /// Held-out loss after it.
    pub held: f64,
}

/// A network of `hidden` units with uniform random weights at the usual 1/sqrt(fan-in) scale
/// (`seed` picks them); one with a base starts near zero, its base alone.
fn random_network(v: &Variant, hidden: usize, base: Base, seed: u64) -> Network {
    let mut rng = seed;
    let mut net = Network::zeros(v, hidden, base);
    let mut uniform = |r: f32| (splitmix(&mut rng) % 1_000_001) as f32 / 1_000_000.0 * 2.0 * r - r;
    // The feature rows scaled for the few features that are on at once.
    let ft_r = 1.0 / 40f32.sqrt() / 4.0;
    for w in net.ft_w.iter_mut() {
        *w = uniform(ft_r);
    }
    for b in net.ft_b.iter_mut() {
        *b = 0.25 + uniform(0.1);
    }
    let out_r = 1.0 / (2.0 * hidden as f32).sqrt() * if base == Base::None { 1.0 } else { 0.1 };
    for w in net.out_w.iter_mut() {
        *w = uniform(out_r);
    }
    net
}

/// `net` (made for `v`) widened to `hidden` units (more than it has): its units keep their
/// weights, and the new ones get random input weights at a fresh network's scale (1/sqrt of
/// the inputs) and output weights of zero, so the widened network scores every position as
/// `net` does and training goes on from there.
pub fn widen(v: &Variant, net: &Network, hidden: usize, seed: u64) -> Network {
    let (old, inputs) = (net.hidden, net.input_count());
    assert!(hidden > old && net.variant == v.name, "widen a network of the variant to more units");
    let mut wide = random_network(v, hidden, net.base, seed);
    for f in 0..inputs {
        wide.ft_w[f * hidden..f * hidden + old].copy_from_slice(&net.ft_w[f * old..(f + 1) * old]);
    }
    wide.ft_b[..old].copy_from_slice(&net.ft_b);
    for side in 0..2 {
        let w = &mut wide.out_w[side * hidden..(side + 1) * hidden];
        w[..old].copy_from_slice(&net.out_w[side * old..(side + 1) * old]);
        w[old..].fill(0.0);
    }
    wide.out_b = net.out_b;
    wide
}

/// Trains a network for `v` on `s`, added to the samples' base ([`Samples::base`]); `report`
/// gets each epoch. Returns the network of the epoch with the lowest held-out loss and that
/// epoch.
///
/// # Panics
/// If the network to start from has another [`Base`] than the samples were read for.
pub fn train(v: &Variant, s: &Samples, cfg: &Config, report: &mut dyn FnMut(Epoch)) -> (Network, Epoch) {
    // Training goes on from the given network, or starts from random weights.
    let mut net = cfg.init.clone().unwrap_or_else(|| random_network(v, cfg.hidden, s.base, cfg.seed));
    assert_eq!(s.base, net.base, "samples read for the network's base");
    // The held-out samples are the last ones read: whole games, as positions of one game
    // are too alike to tell a fit from a memory.
    let ids: Vec<usize> = (0..s.len()).collect();
    let mut rng = cfg.seed ^ 0x5151;
    let held_n = ((s.len() as f64 * cfg.holdout) as usize).min(s.len().saturating_sub(1));
    let (train_ids, held) = ids.split_at(s.len() - held_n);
    let (held, mut train_ids) = (held.to_vec(), train_ids.to_vec());
    let threads = cfg.threads.max(1);
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::zeros(&net)).collect();
    let mut adam = [Adam::new(net.ft_w.len()), Adam::new(net.hidden), Adam::new(2 * net.hidden), Adam::new(1)];
    let mut best: Option<(Network, Epoch)> = None;
    let mut t = 0;
    for epoch in 1..=cfg.epochs {
        shuffle(&mut train_ids, &mut rng);
        let lr = if epoch * 4 > cfg.epochs * 3 { cfg.lr / 10.0 } else { cfg.lr };
        let mut train_loss = 0.0;
        for batch in train_ids.chunks(cfg.batch.max(1)) {
            let per = batch.len().div_ceil(threads);
            std::thread::scope(|scope| {
                for (g, part) in grads.iter_mut().zip(batch.chunks(per)) {
                    let net = &net;
                    scope.spawn(move || {
                        g.clear();
                        let mut acc = [vec![0.0; net.hidden], vec![0.0; net.hidden]];
                        for &i in part {
                            let (us, them, target, base) = s.get(i);
                            g.loss += sample_loss(net, us, them, target, base, cfg.scale, &mut acc, Some(g)) as f64;
                        }
                    });
                }
            });
            // Sum the threads' gradients into the first, as means over the batch.
            let (first, rest) = grads.split_at_mut(1);
            let g = &mut first[0];
            let used = batch.len().div_ceil(per);
            for o in rest.iter().take(used - 1) {
                for (a, b) in g.ft_w.iter_mut().zip(&o.ft_w) {
                    *a += b;
                }
                for (a, b) in g.ft_b.iter_mut().zip(&o.ft_b) {
                    *a += b;
                }
                for (a, b) in g.out_w.iter_mut().zip(&o.out_w) {
                    *a += b;
                }
                g.out_b += o.out_b;
                g.loss += o.loss;
            }
            train_loss += g.loss;
            let inv = 1.0 / batch.len() as f32;
            for x in g.ft_w.iter_mut().chain(g.ft_b.iter_mut()).chain(g.out_w.iter_mut()) {
                *x *= inv;
            }
            t += 1;
            adam[0].step(&mut net.ft_w, &g.ft_w, lr, t);
            adam[1].step(&mut net.ft_b, &g.ft_b, lr, t);
            adam[2].step(&mut net.out_w, &g.out_w, lr, t);
            let mut ob = [net.out_b];
            adam[3].step(&mut ob, &[g.out_b * inv], lr, t);
            net.out_b = ob[0];
        }
        let e = Epoch {
            number: epoch,
            train: train_loss / train_ids.len().max(1) as f64,
            held: mean_loss(&net, s, &held, cfg.scale),
        };
        report(e);
        // Without held-out samples, the training loss chooses.
        let key = |e: &Epoch| if held.is_empty() { e.train } else { e.held };
        if best.as_ref().is_none_or(|(_, b)| key(&e) < key(b)) {
            best = Some((net.clone(), e));
        }
    }
    best.unwrap_or_else(|| {
        let e = Epoch {
            number: 0,
            train: f64::NAN,
            held: mean_loss(&net, s, &held, cfg.scale),
        };
        (net, e)
    })
}

/// The losses of `net` and of the handcrafted evaluation (in the search's scale) on the
/// samples of `text`, with the training targets: how much better than the evaluation it
/// replaces the network predicts the same labels.
pub fn compare(net: &Network, v: &'static Variant, text: &str, lambda: f32, scale: f32) -> (f64, f64, usize) {
    let (mut nl, mut hl, mut n) = (0.0, 0.0, 0usize);
    for (pos, t) in text.lines().filter_map(|line| parse_line(v, line, lambda, scale)) {
        let p_net = sigmoid(net.evaluate(&pos) as f32 / scale);
        let p_hce = sigmoid(super::base_score(&pos) as f32 / scale);
        nl += ((p_net - t) * (p_net - t)) as f64;
        hl += ((p_hce - t) * (p_hce - t)) as f64;
        n += 1;
    }
    (nl / n.max(1) as f64, hl / n.max(1) as f64, n)
}

/// Reads data files for `v` into samples for a network with base `base`.
pub fn load_files(v: &'static Variant, paths: &[String], lambda: f32, scale: f32, mirror: bool, base: Base) -> Result<(Samples, usize), String> {
    let mut s = Samples {
        mirror,
        base,
        ..Samples::default()
    };
    let mut bad = 0;
    for p in paths {
        let text = std::fs::read_to_string(p).map_err(|e| format!("cannot read {p}: {e}"))?;
        bad += load(v, &text, lambda, scale, &mut s);
    }
    if s.is_empty() {
        return Err("no samples in the data".into());
    }
    Ok((s, bad))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(base: Base) -> (&'static Variant, Samples) {
        let v = Variant::by_name("shogi").expect("shogi");
        let text = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2;40;1\n\
                    lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1;0;0.5\n\
                    lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b P 3;300;0\n\
                    not a line\n";
        let mut s = Samples { base, ..Samples::default() };
        assert_eq!(load(v, text, 0.5, 500.0, &mut s), 1);
        (v, s)
    }

    #[test]
    fn a_widened_network_scores_as_the_narrow_one_and_still_learns() {
        let v = Variant::by_name("shogi").expect("shogi");
        let narrow = random_network(v, 32, Base::Handcrafted, 7);
        let wide = widen(v, &narrow, 48, 9);
        assert_eq!((wide.hidden, wide.input_count(), wide.variant.as_str()), (48, narrow.input_count(), "shogi"));
        crate::eval::random_game(v, 11, 40, |pos| assert_eq!(wide.evaluate(pos), narrow.evaluate(pos)));
        // The new units get gradients through their output weights, so training moves them.
        let (_, s) = tiny(Base::Handcrafted);
        let cfg = Config {
            epochs: 2,
            lr: 0.01,
            init: Some(wide.clone()),
            ..one_by_one(48, 1)
        };
        let (trained, _) = train(v, &s, &cfg, &mut |_| {});
        assert!(trained.out_w[32..48].iter().chain(&trained.out_w[80..]).any(|&w| w != 0.0));
    }

    /// A network of `hidden` units trained one sample at a time on one thread, with
    /// nothing held out (no epochs and no rate until the caller says).
    fn one_by_one(hidden: usize, seed: u64) -> Config {
        Config {
            hidden,
            epochs: 0,
            batch: 1,
            lr: 0.0,
            scale: 500.0,
            holdout: 0.0,
            threads: 1,
            seed,
            init: None,
        }
    }

    #[test]
    fn gradients_match_finite_differences() {
        for base in [Base::Handcrafted, Base::Material, Base::NoMobility, Base::Light] {
            gradients_match_with(base);
        }
    }

    fn gradients_match_with(base_kind: Base) {
        let (v, s) = tiny(base_kind);
        let cfg = one_by_one(4, 9);
        let (mut net, _) = train(v, &s, &cfg, &mut |_| {});
        let (us, them, t, base) = s.get(2);
        assert_ne!(base, 0.0);
        let mut acc = [vec![0.0; 4], vec![0.0; 4]];
        let mut g = Grad::zeros(&net);
        sample_loss(&net, us, them, t, base, 500.0, &mut acc, Some(&mut g));
        let eps = 1e-3f32;
        let f = us[0] as usize * 4 + 1;
        // The weight tested, by number.
        fn weight(net: &mut Network, which: usize, f: usize) -> &mut f32 {
            match which {
                0 => &mut net.ft_w[f],
                1 => &mut net.out_w[2],
                2 => &mut net.out_w[5],
                _ => &mut net.ft_b[3],
            }
        }
        for (which, analytic) in [(0, g.ft_w[f]), (1, g.out_w[2]), (2, g.out_w[5]), (3, g.ft_b[3])] {
            let orig = *weight(&mut net, which, f);
            *weight(&mut net, which, f) = orig + eps;
            let up = sample_loss(&net, us, them, t, base, 500.0, &mut acc, None);
            *weight(&mut net, which, f) = orig - eps;
            let down = sample_loss(&net, us, them, t, base, 500.0, &mut acc, None);
            *weight(&mut net, which, f) = orig;
            let numeric = (up - down) / (2.0 * eps);
            assert!(analytic.abs() > 1e-3, "weight {which}: gradient {analytic} too small to test");
            assert!(
                (numeric - analytic).abs() <= 1e-4 + 0.05 * analytic.abs(),
                "weight {which}: {numeric} against {analytic}"
            );
        }
    }

    #[test]
    fn training_lowers_the_loss_on_its_samples() {
        let (v, s) = tiny(Base::None);
        let cfg = Config {
            hidden: 32,
            epochs: 100,
            batch: 2,
            lr: 0.01,
            scale: 500.0,
            holdout: 0.0,
            threads: 2,
            seed: 1,
            init: None,
        };
        let ids: Vec<usize> = (0..s.len()).collect();
        let mut first = None;
        let (net, _) = train(v, &s, &cfg, &mut |e| {
            first.get_or_insert(e.train);
        });
        let end = mean_loss(&net, &s, &ids, 500.0);
        let first = first.expect("epochs ran");
        assert!(end < first * 0.5, "{end} against {first}");
        // Training goes on from a given network: with no step taken (rate 0) it comes back
        // unchanged, whatever width and seed are asked; with steps, its loss goes on falling.
        let again = Config {
            hidden: 8,
            seed: 7,
            lr: 0.0,
            epochs: 1,
            init: Some(net.clone()),
            ..cfg.clone()
        };
        assert_eq!(train(v, &s, &again, &mut |_| {}).0, net);
        let more = Config {
            init: Some(net.clone()),
            epochs: 20,
            ..cfg
        };
        let (better, _) = train(v, &s, &more, &mut |_| {});
        assert!(mean_loss(&better, &s, &ids, 500.0) < end, "no further fall from {end}");
    }
}
