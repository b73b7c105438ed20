//! Unit tests of the search (a child module of `search`, so they read its private parts):
//! history bonuses, ProbCut, the stand pat's refined score, the evaluation's scale and cache,
//! internal iterative reduction, sho's reductions, and the learned tables that outlive a
//! search.

use super::*;
use crate::variant::Variant;

#[test]
fn history_bonus_grows_with_depth_within_the_gravity_bound() {
    assert_eq!(history_bonus(1), 267);
    let mut last = 0;
    for d in 1..MAX_PLY as i32 {
        let b = history_bonus(d);
        assert!(b >= last && b > 0 && b <= HISTORY_BONUS_MAX && b <= HISTORY_MAX, "depth {d}: {b}");
        last = b;
    }
    assert_eq!(last, HISTORY_BONUS_MAX);
}

#[test]
fn probcut_takes_a_hanging_rook_and_stores_a_lower_bound() {
    let v = Variant::by_name("shogi").expect("shogi");
    let (tt, shared) = (Tt::new(1), Shared::default());
    // Black's pawn on 5f takes the white rook on 5e.
    let pos = Position::from_sfen(v, "4k4/9/9/9/4r4/4P4/9/9/4K4 b - 1").expect("sfen");
    let mut s = Searcher::new(pos, &tt, &shared, Limits::default(), 0);
    s.root_depth = 8;
    let stand = s.eval(0);
    let pc_beta = stand + PROBCUT_MARGIN;
    let v_cut = s.probcut(pc_beta, stand, Move::NONE, 6, 1, true).expect("the capture clears the margin");
    assert!(v_cut >= pc_beta);
    let e = tt.probe(s.pos.hash()).expect("stored");
    assert_eq!((e.bound, e.depth), (Bound::Lower, 3));
    assert!(s.pos.is_capture(e.mv) && s.pos.captured_value(e.mv) > 0);
    // Far above anything a capture wins, nothing is cut.
    assert_eq!(s.probcut(stand + 5_000, stand, Move::NONE, 6, 1, true), None);
    // Without captures there is nothing to try.
    let quiet = Position::from_sfen(v, "4k4/9/9/9/9/4P4/9/9/4K4 b r 1").expect("sfen");
    let mut q = Searcher::new(quiet, &tt, &shared, Limits::default(), 0);
    let e = q.eval(0);
    assert_eq!(q.probcut(e - 1_000, e, Move::NONE, 6, 1, true), None);
}

#[test]
fn the_stand_pat_takes_a_stored_score_that_bounds_the_static_score_from_the_right_side() {
    let v = Variant::by_name("shogi").expect("shogi");
    // No capture for Black, no check: quiescence is the stand pat alone.
    let sfen = "4k4/9/9/9/9/4P4/9/9/4K4 b - 1";
    let stand_with = |stored: Option<(i32, Bound)>, alpha: i32, beta: i32| {
        let (tt, shared) = (Tt::new(1), Shared::default());
        let pos = Position::from_sfen(v, sfen).expect("sfen");
        let mut s = Searcher::new(pos, &tt, &shared, Limits::default(), 0);
        assert!(!s.pos.in_check() && s.pos.legal_moves().iter().all(|&m| !s.pos.is_capture(m)));
        if let Some((score, bound)) = stored {
            tt.store(s.pos.hash(), Move::NONE, score, 0, bound);
        }
        s.qsearch(alpha, beta, 1, 0)
    };
    let (tt, shared) = (Tt::new(1), Shared::default());
    let mut s = Searcher::new(Position::from_sfen(v, sfen).expect("sfen"), &tt, &shared, Limits::default(), 0);
    let e = s.eval(0);
    let stand = s.corrected(e, corr::slots(&s.pos));
    // Nothing stored: the static score, failing low or high.
    assert_eq!(stand_with(None, stand + 400, stand + 500), stand);
    assert_eq!(stand_with(None, stand - 200, stand - 50), stand);
    // A lower bound above it (not enough to settle the window) raises the stand pat.
    assert_eq!(stand_with(Some((stand + 300, Bound::Lower)), stand + 400, stand + 500), stand + 300);
    // An upper bound below it lowers it: no longer a cutoff at beta.
    assert_eq!(stand_with(Some((stand - 100, Bound::Upper)), stand - 200, stand - 50), stand - 100);
    // A bound on the wrong side tells nothing about the stand pat.
    assert_eq!(stand_with(Some((stand - 300, Bound::Lower)), stand + 400, stand + 500), stand);
    assert_eq!(stand_with(Some((stand + 100, Bound::Upper)), stand - 200, stand - 50), stand);
    // Mate scores are left out.
    assert_eq!(stand_with(Some((MATE - 10, Bound::Lower)), stand + 400, MATE - 5), stand);
}

#[test]
fn the_search_reads_the_evaluation_at_the_variants_scale() {
    let (tt, shared) = (Tt::new(1), Shared::default());
    for v in crate::variant::all() {
        let scale = crate::eval::params(v).search_scale;
        let mut pos = Position::startpos(v);
        // A position off balance, so that the scale shows.
        let m = pos.legal_moves()[0];
        pos.make(m);
        let raw = crate::eval::evaluate(&pos);
        assert!(scale == 64 || raw != 0, "{}: a scaled variant needs a score to scale", v.name);
        let mut s = Searcher::new(pos, &tt, &shared, Limits::default(), 0);
        assert_eq!(s.eval(0), raw * scale / 64, "{}", v.name);
    }
    let shogi = Variant::by_name("shogi").expect("shogi");
    assert!(crate::eval::params(shogi).search_scale < 64, "shogi's evaluation is read flattened");
    let sho = Variant::by_name("shoshogi").expect("sho");
    assert!(crate::eval::params(sho).search_scale > 64, "sho's evaluation is read widened");
}

#[test]
fn a_networks_score_is_the_same_through_the_cache_of_its_base() {
    let tt = Tt::new(1);
    let mut cached = 0;
    for v in crate::variant::all() {
        let Some(net) = crate::nnue::builtin(v) else { continue };
        // Bases that walk the board are read through the cache; the others (chu's light
        // base) are computed afresh, and their scores must match all the same.
        let walks = net.base.walks_the_board();
        cached += walks as u32;
        let shared = Shared {
            net: Some(net.clone()),
            ..Shared::default()
        };
        let mut s = Searcher::new(Position::startpos(v), &tt, &shared, Limits::default(), 0);
        // Along a game, each position after a move evaluated twice: the second reads the
        // cache.
        for i in 0..40 {
            let moves = s.pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(i * 7) % moves.len()];
            if let Some((_, stack)) = &mut s.nn {
                stack.invalidate(0);
            }
            s.eval(0);
            s.play(m, 0);
            let want = net.evaluate(&s.pos).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
            assert_eq!(s.eval(1), want, "{} ply {i}", v.name);
            assert_eq!(s.eval(1), want, "{} ply {i}, again", v.name);
            let key = s.pos.hash();
            let kept = s.eval_cache[key as usize & (EVAL_CACHE - 1)] >> 16 == key >> 16;
            assert!(kept || !walks, "{}: the base is kept", v.name);
            s.pos.unmake();
            s.pos.make(m);
        }
    }
    assert!(cached > 0, "some built-in network reads its base through the cache");
}

#[test]
fn internal_iterative_reduction_takes_a_second_ply_at_shogi_and_sho_cut_nodes() {
    let (tt, shared) = (Tt::new(1), Shared::default());
    let searcher = |name: &str| Searcher::new(Position::startpos(Variant::by_name(name).expect(name)), &tt, &shared, Limits::default(), 0);
    let mut shogi = searcher("shogi");
    let m = shogi.pos.legal_moves()[0];
    assert_eq!(shogi.iir_depth(3, Move::NONE, true), 3, "too shallow");
    assert_eq!(shogi.iir_depth(8, m, true), 8, "a hash move");
    assert_eq!(shogi.iir_depth(5, Move::NONE, true), 4);
    assert_eq!(shogi.iir_depth(6, Move::NONE, false), 5, "not a cut node");
    assert_eq!(shogi.iir_depth(6, Move::NONE, true), 4);
    let sho = searcher("shoshogi");
    assert_eq!(sho.iir_depth(6, Move::NONE, true), 4, "sho");
    assert_eq!(sho.iir_depth(6, Move::NONE, false), 5, "sho, not a cut node");
    for name in ["cannonshogi", "cannonshosu", "chushogi"] {
        let s = searcher(name);
        assert_eq!(s.iir_depth(9, Move::NONE, true), 8, "{name}");
    }
}

#[test]
fn sho_reduces_late_moves_more_and_null_moves_less_than_the_other_variants() {
    let (shogi, sho) = (lmr_table(2.25), lmr_table(2.0));
    // ln 10 ln 20 = 6.90: 0.75 + 6.90 / 2.25 = 3.82, 0.75 + 6.90 / 2.0 = 4.20.
    assert_eq!((lmr(&shogi, 10, 20), lmr(&sho, 10, 20)), (3, 4));
    assert!(lmr(&sho, 200, 100) == lmr(&sho, 63, 63) && lmr(&sho, 1, 1) == 0, "clamped");
    for name in ["shogi", "shoshogi", "cannonshogi", "cannonshogi-wiki", "cannonshosu", "chushogi"] {
        let scales = DropScales::new(Variant::by_name(name).expect(name));
        let want = if name == "shoshogi" { 4 } else { 3 };
        assert_eq!(lmr(scales.lmr, 10, 20), want, "{name}");
        let null = if name == "shoshogi" { NULL_REDUCTION_SHO } else { NULL_REDUCTION };
        assert_eq!(scales.null_reduction, null, "{name}");
    }
}

#[test]
fn learned_tables_outlive_a_search_and_are_replaced_for_another_variant() {
    let shogi = Position::startpos(Variant::by_name("shogi").expect("shogi"));
    let tt = Tt::new(1);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let mut workers = Workers::new(2);
    search_threads(&shogi, &tt, &Shared::default(), limits.clone(), 0, &mut workers, &mut |_| {});
    let mut learned = std::mem::take(&mut workers.learned);
    assert_eq!(learned.len(), 2, "one table set per thread");
    assert!(learned.iter().all(|l| l.fits(&shogi)));
    assert!(learned[0].history.iter().any(|&h| h != 0), "the main thread learnt some history");
    let kept = learned[0].history.to_vec();
    // The next search starts from what the last one learnt.
    let shared = Shared::default();
    let mut s = Searcher::with_learned(shogi.clone(), &tt, &shared, limits.clone(), 0, learned.remove(0));
    assert_eq!(&s.learned.history[..], &kept[..]);
    s.think(&mut |_| {});
    // Another variant gets fresh tables, one set per thread.
    let sho = Position::startpos(Variant::by_name("shoshogi").expect("shoshogi"));
    let mut workers = Workers {
        threads: 1,
        learned: vec![s.learned],
    };
    search_threads(&sho, &tt, &Shared::default(), limits, 0, &mut workers, &mut |_| {});
    assert_eq!(workers.learned.len(), 1);
    assert!(workers.learned[0].fits(&sho) && !workers.learned[0].fits(&shogi));
    workers.forget();
    assert!(workers.learned.is_empty());
}
