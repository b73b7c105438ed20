//! Texel-style tuning of the evaluation weights from game records.
//!
//! Input: `shishi match --usi-out` files (a `# game … RESULT {…}` comment line, then
//! `position sfen S moves …`), or scored positions, lines `sfen S [moves …] score N` with N in
//! centipawns from the side to move (e.g. a deeper search's verdict), labelled
//! `sigmoid(1, N)`. Every position of every finished game after the first `skip`
//! plies is replayed; captures that win material (by SEE) are played out first, and the quiet
//! position reached, if not in check, becomes a sample labelled with the game result from
//! Black's side (1, ½, 0). The model is `sigmoid(K · e / 400)` with `e` the evaluation from
//! Black's side, linear in the weights ([`crate::eval::features`]); K (given, or fitted to the
//! starting weights) maps the labels' scale onto the weights', then
//! Adam minimises the mean squared error plus an L2 pull towards the starting weights (rare
//! kinds keep their hand-set values). Held-out samples, never fitted, give early stopping: the
//! weights kept are those of the checkpoint where their error was lowest.

use crate::eval::{Params, features, params};
use crate::moves::MoveList;
use crate::position::Position;
use crate::variant::Variant;

/// One training position.
pub struct Sample {
    /// Sparse features from Black's point of view.
    pub feats: Vec<(usize, f64)>,
    /// Result from Black's point of view: 1, 0.5 or 0 (or, for a scored position, the
    /// score's winning chance `sigmoid(1, score)`).
    pub result: f64,
}

/// Reads samples from `--usi-out` text; returns them and the number of games used.
pub fn load(v: &'static Variant, text: &str, skip: usize) -> Result<(Vec<Sample>, usize), String> {
    let mut samples = Vec::new();
    let mut games = 0;
    let mut result = None;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("sfen ") {
            let bad = || format!("line {}: expected 'sfen S [moves …] score N'", n + 1);
            let (sfen, score) = rest.rsplit_once(" score ").ok_or_else(bad)?;
            let score: f64 = score.trim().parse().map_err(|_| bad())?;
            let (mut pos, moves) = start_and_moves(v, sfen, n)?;
            for text in moves {
                play(&mut pos, text, n)?;
            }
            let black = if pos.side_to_move() == crate::piece::Color::Black { score } else { -score };
            if let Some(feats) = quiet_features(&mut pos) {
                samples.push(Sample {
                    feats,
                    result: sigmoid(1.0, black),
                });
            }
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            result = if comment.contains(": 1-0") {
                Some(1.0)
            } else if comment.contains(": 0-1") {
                Some(0.0)
            } else if comment.contains(": 1/2-1/2") {
                Some(0.5)
            } else {
                None
            };
            if !comment.contains(&format!(" {} ", v.name)) {
                result = None;
            }
            continue;
        }
        let Some(r) = result.take() else { continue };
        let rest = line
            .strip_prefix("position sfen ")
            .ok_or_else(|| format!("line {}: expected 'position sfen'", n + 1))?;
        let (mut pos, moves) = start_and_moves(v, rest, n)?;
        games += 1;
        for ply in 0..=moves.len() {
            if ply >= skip
                && let Some(feats) = quiet_features(&mut pos)
            {
                samples.push(Sample { feats, result: r });
            }
            if let Some(text) = moves.get(ply) {
                play(&mut pos, text, n)?;
            }
        }
    }
    Ok((samples, games))
}

/// Splits `S [moves …]` of line `n` (0-based) into the position S and the move texts.
fn start_and_moves<'a>(v: &'static Variant, text: &'a str, n: usize) -> Result<(Position, Vec<&'a str>), String> {
    let (sfen, moves) = text.split_once(" moves").unwrap_or((text, ""));
    let pos = Position::from_sfen(v, sfen).map_err(|e| format!("line {}: {e}", n + 1))?;
    Ok((pos, moves.split_whitespace().collect()))
}

/// Plays the USI move `text` of line `n` (0-based); an error if it is not legal.
fn play(pos: &mut Position, text: &str, n: usize) -> Result<(), String> {
    let m = pos.parse_usi_move(text).ok_or_else(|| format!("line {}: illegal move {text}", n + 1))?;
    pos.make(m);
    Ok(())
}

/// Features of the quiet position reached by playing, while not in check, the capture that
/// wins the most material by SEE (at most eight of them); `None` if that ends in check.
fn quiet_features(pos: &mut Position) -> Option<Vec<(usize, f64)>> {
    let mut made = 0;
    let mut result = None;
    loop {
        if pos.in_check() || pos.royals(pos.side_to_move()).is_empty() {
            break;
        }
        let mut caps = MoveList::new();
        pos.legal_captures_into(&mut caps);
        let mut best = None;
        for &m in caps.iter() {
            let s = pos.see(m);
            if s > 0 && best.is_none_or(|(b, _)| s > b) {
                best = Some((s, m));
            }
        }
        match best {
            Some((_, m)) if made < 8 => {
                pos.make(m);
                made += 1;
            }
            Some(_) => break,
            None => {
                // The endgame terms count `PHASE` times over (see `features`).
                let p = params(pos.variant());
                let scale = |i: usize| if p.is_eg(i) { crate::eval::PHASE as f64 } else { 1.0 };
                result = Some(features(pos).into_iter().map(|(i, x)| (i, x as f64 / scale(i))).collect());
                break;
            }
        }
    }
    for _ in 0..made {
        pos.unmake();
    }
    result
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 400.0 * std::f64::consts::LN_10).exp())
}

fn eval(w: &[f64], s: &Sample) -> f64 {
    s.feats.iter().map(|&(i, x)| w[i] * x).sum()
}

/// Mean squared error of the model over `samples`.
pub fn error(w: &[f64], k: f64, samples: &[Sample]) -> f64 {
    samples.iter().map(|s| (s.result - sigmoid(k, eval(w, s))).powi(2)).sum::<f64>() / samples.len().max(1) as f64
}

/// The K that fits the starting weights best (golden-section search on 0.05..5).
pub fn fit_k(w: &[f64], samples: &[Sample]) -> f64 {
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(w, c, samples) < error(w, d, samples) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Integer weights as the optimiser's reals.
fn as_f64(w: &[i32]) -> Vec<f64> {
    w.iter().map(|&x| x as f64).collect()
}

/// Whether the `--freeze` entry `f` covers the weight called `name` (`advance K`, `square K
/// 2 4`): the name in full or its leading words (the group `advance`, or `square K` for all
/// of the king's square terms).
fn freezes(f: &str, name: &str) -> bool {
    name.strip_prefix(f).is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
}

/// Checks that every non-empty entry of `freeze` names a weight or a group of `v`'s weights.
pub fn check_freeze(v: &'static Variant, freeze: &[String]) -> Result<(), String> {
    let p = params(v);
    let names: Vec<String> = (0..p.w.len()).map(|i| p.name(v, i)).collect();
    match freeze.iter().find(|f| !f.is_empty() && !names.iter().any(|n| freezes(f, n))) {
        Some(f) => Err(format!("--freeze: '{f}' names no weight or group of {}", v.name)),
        None => Ok(()),
    }
}

/// What [`tune`] returns.
pub struct Tuned {
    /// The weights kept, rounded: the last iteration's, or, with held-out samples, those of
    /// the checkpoint (the start, every 100 iterations, the last) where the held-out error was
    /// lowest (early stopping).
    pub params: Params,
    /// The training error of those weights (before rounding).
    pub error: f64,
    /// Their error on the held-out samples (`None` without any).
    pub holdout: Option<f64>,
    /// The iteration they come from (0: the starting weights).
    pub iteration: usize,
}

/// Tunes the weights `start` of `v` from `samples`, leaving alone the groups named in `freeze`
/// (`piece`, `hand`, `promo`, `advance`, or a scalar such as `shelter`) and the single
/// weights named there in full (`advance K`: one kind of a group), with the labels'
/// scale `k` (fitted to the starting weights when `None`). `holdout` samples are never
/// fitted: with some, the weights kept are those of the checkpoint where their error was
/// lowest. `progress(iteration, K, error, held-out error)` is called at the start (iteration
/// 0) and at every checkpoint.
#[allow(clippy::too_many_arguments)]
pub fn tune(
    v: &'static Variant,
    start: Params,
    samples: &[Sample],
    holdout: &[Sample],
    iterations: usize,
    freeze: &[String],
    k: Option<f64>,
    progress: &mut dyn FnMut(usize, f64, f64, Option<f64>),
) -> Tuned {
    let frozen: Vec<bool> = (0..start.w.len())
        .map(|i| {
            let name = start.name(v, i);
            freeze.iter().any(|f| freezes(f, &name))
        })
        .collect();
    let w0 = as_f64(&start.w);
    let mut w = w0.clone();
    // K maps the labels' scale (a result's, or another engine's centipawns) onto the
    // weights', so that tuning keeps the scale the search's margins assume.
    let k = k.unwrap_or_else(|| fit_k(&w, samples));
    let held = |w: &[f64]| (!holdout.is_empty()).then(|| error(w, k, holdout));
    let mut kept = (w.clone(), error(&w, k, samples), held(&w), 0);
    progress(0, k, kept.1, kept.2);
    let n = samples.len().max(1) as f64;
    let (lr, b1, b2, eps, l2) = (2.0, 0.9, 0.999, 1e-8, 1e-7);
    let mut m = vec![0.0; w.len()];
    let mut vv = vec![0.0; w.len()];
    for it in 1..=iterations {
        let mut grad = vec![0.0; w.len()];
        for s in samples {
            let p = sigmoid(k, eval(&w, s));
            let g = -2.0 * (s.result - p) * p * (1.0 - p) * k * std::f64::consts::LN_10 / 400.0 / n;
            for &(i, x) in &s.feats {
                grad[i] += g * x;
            }
        }
        for i in 0..w.len() {
            if frozen[i] {
                continue;
            }
            let g = grad[i] + 2.0 * l2 * (w[i] - w0[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            vv[i] = b2 * vv[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(it as i32));
            let vh = vv[i] / (1.0 - b2.powi(it as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps);
        }
        if it % 100 == 0 || it == iterations {
            let (e, h) = (error(&w, k, samples), held(&w));
            progress(it, k, e, h);
            // Without held-out samples the last weights are kept; with them, the best.
            if h.is_none_or(|h| kept.2.is_some_and(|best| h < best)) {
                kept = (w.clone(), e, h, it);
            }
        }
    }
    let mut params = start;
    for (dst, src) in params.w.iter_mut().zip(&kept.0) {
        *dst = src.round() as i32;
    }
    Tuned {
        params,
        error: kept.1,
        holdout: kept.2,
        iteration: kept.3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_lowers_the_error_on_a_biased_record() {
        // Black wins every game in which it is a rook up: the tuner must learn that the
        // model's error drops, and it must read the record format.
        let v = Variant::by_name("shogi").expect("shogi");
        let mut text = rook_records(6, true);
        text.push_str("# game 9 shogi a vs b: 1-0 {x}\nposition sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d 2g2f\n");
        let (samples, games) = load(v, &text, 0).expect("load");
        assert_eq!(games, 7);
        assert!(samples.len() >= 3);
        assert!(
            load(
                v,
                "# game 1 shogi a vs b: 1-0 {x}\nposition sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 7g7f\n",
                0
            )
            .is_err()
        );
        let w0 = as_f64(&params(v).w);
        let k = fit_k(&w0, &samples);
        let before = error(&w0, k, &samples);
        let Tuned {
            params: free, error: after, ..
        } = tune(v, params(v).clone(), &samples, &[], 200, &[], None, &mut |_, _, _, _| {});
        assert!(after < before, "{after} >= {before}");
        // Frozen groups keep their weights.
        let p = tune(
            v,
            params(v).clone(),
            &samples,
            &[],
            50,
            &["piece".to_string(), "hand".to_string()],
            None,
            &mut |_, _, _, _| {},
        )
        .params;
        let i = p.kind(crate::eval::Term::Piece, v.kind_by_sfen("R").expect("rook"));
        assert_eq!(p.w[i], params(v).w[i]);
        // A single weight named in full is frozen; the rest of its group moves.
        let start = &params(v).w;
        let moved: Vec<usize> = (0..start.len()).filter(|&j| free.w[j] != start[j]).collect();
        assert!(moved.len() >= 2, "tuning moves several weights");
        let name = free.name(v, moved[0]);
        assert!(name.contains(' '), "a per-kind weight moves first: {name}");
        let p = tune(v, params(v).clone(), &samples, &[], 200, &[name], None, &mut |_, _, _, _| {}).params;
        assert_eq!(p.w[moved[0]], start[moved[0]]);
        assert!(moved[1..].iter().any(|&j| p.w[j] != start[j]), "the others are tuned");
        // Tuning starts from the weights given: none moves in zero iterations, and the error
        // reported is that of the given weights (here the tuned ones, lower than the shipped).
        let mut seen = Vec::new();
        let Tuned { params: same, error: err, .. } = tune(v, free.clone(), &samples, &[], 0, &[], Some(k), &mut |_, _, e, _| seen.push(e));
        assert_eq!(same.w, free.w);
        assert!((err - error(&as_f64(&free.w), k, &samples)).abs() < 1e-12);
        assert!(err < before && seen.first().is_some_and(|&e| (e - err).abs() < 1e-12));
    }

    /// Records of `n` games: Black a rook up wins when `rook_wins`, else loses (and the
    /// other way round for White).
    fn rook_records(n: usize, rook_wins: bool) -> String {
        let mut text = String::new();
        for i in 0..n {
            let (sfen, black_wins) = if i % 2 == 0 {
                ("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", rook_wins)
            } else {
                ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL b - 1", !rook_wins)
            };
            let result = if black_wins { "1-0" } else { "0-1" };
            text.push_str(&format!("# game {i} shogi a vs b: {result} {{checkmate}}\nposition sfen {sfen} moves\n"));
        }
        text
    }

    #[test]
    fn held_out_samples_choose_the_checkpoint_kept() {
        let v = Variant::by_name("shogi").expect("shogi");
        let (train, _) = load(v, &rook_records(6, true), 0).expect("load");
        let (against, _) = load(v, &rook_records(6, false), 0).expect("load");
        // Held-out records that say the opposite of the training ones: every step of the fit
        // raises their error, so the starting weights are kept.
        let mut held = Vec::new();
        let t = tune(v, params(v).clone(), &train, &against, 300, &[], Some(1.0), &mut |_, _, _, h| held.push(h));
        assert_eq!(t.iteration, 0);
        assert_eq!(t.params.w, params(v).w);
        assert!(held.iter().all(|h| h.is_some_and(|h| h >= t.holdout.expect("held-out error"))), "{held:?}");
        assert!(held.last().and_then(|&h| h).expect("last") > held[0].expect("first"));
        // Held-out records that agree with them: a later checkpoint is kept, at the lowest
        // held-out error seen.
        let (agree, _) = load(v, &rook_records(4, true), 0).expect("load");
        let mut held = Vec::new();
        let t = tune(v, params(v).clone(), &train, &agree, 300, &[], Some(1.0), &mut |_, _, _, h| held.push(h));
        assert!(t.iteration > 0);
        assert_ne!(t.params.w, params(v).w);
        let best = held.iter().filter_map(|&h| h).fold(f64::INFINITY, f64::min);
        assert_eq!(t.holdout, Some(best));
        // Without held-out records the last weights are kept and no held-out error is given.
        let t = tune(v, params(v).clone(), &train, &[], 150, &[], Some(1.0), &mut |_, _, _, h| assert!(h.is_none()));
        assert_eq!((t.iteration, t.holdout), (150, None));
    }

    #[test]
    fn freeze_entries_cover_groups_and_leading_words() {
        assert!(freezes("advance", "advance K"));
        assert!(freezes("advance K", "advance K"));
        assert!(!freezes("advance K", "advance KN"));
        assert!(freezes("square K", "square K 2 4"));
        assert!(!freezes("square K", "square +K 2 4"));
        assert!(freezes("square K 2", "square K 2 4"));
        assert!(!freezes("shelter", "shelter_eg"));
        let v = Variant::by_name("shoshogi").expect("sho");
        assert!(check_freeze(v, &["square K".into(), "advance K".into()]).is_ok());
        assert!(check_freeze(v, &["square Z".into()]).is_err());
    }

    #[test]
    fn scored_positions_are_labelled_from_blacks_side() {
        let v = Variant::by_name("shogi").expect("shogi");
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        // White to move after one ply, scoring +400 for White: Black's label is below ½.
        let text = format!("sfen {start} moves 7g7f score 400\nsfen {start} score 0\n");
        let (samples, games) = load(v, &text, 0).expect("load");
        assert_eq!((samples.len(), games), (2, 0));
        assert!((samples[0].result - sigmoid(1.0, -400.0)).abs() < 1e-12);
        assert!((samples[1].result - 0.5).abs() < 1e-12);
        assert!(load(v, &format!("sfen {start} score x\n"), 0).is_err());
        assert!(load(v, &format!("sfen {start} moves 7g7f 7g7f score 1\n"), 0).is_err());
        // The tuner moves the weights towards the scores: a position it values near 0 but
        // that is labelled -400 for Black (to move) pulls the error down.
        let text = format!("sfen {start} moves 7g7f 3c3d score -400\n");
        let (samples, _) = load(v, &text, 0).expect("load");
        let w0 = as_f64(&params(v).w);
        let before = error(&w0, 1.0, &samples);
        let mut used = 0.0;
        let after = tune(v, params(v).clone(), &samples, &[], 100, &[], Some(1.0), &mut |_, k, _, _| used = k).error;
        assert!(after < before, "{after} >= {before}");
        assert_eq!(used, 1.0, "a given K is used as it is");
    }
}
