//! Time control of the main search thread: the budget of a move ([`allot_time`]) and how far
//! the soft part of it stretches with the search's stability ([`Stability`]).
//!
//! Invariants: the soft limit never exceeds the hard one; [`Stability::scale`] stays within
//! `[MIN_SCALE, MAX_SCALE]`, and it applies only to a running clock (a fixed move time or a
//! spent main time is searched to its hard limit whatever the scale).

use super::Limits;
use crate::moves::Move;

/// Stretch of the soft limit by a best move that has not changed for a while.
const SETTLED: f64 = 0.7;
/// Stretch added per recent best-move change (changes halve at each iteration, so their
/// count stays below 2).
const PER_CHANGE: f64 = 0.9;
/// Lower bound of the factor from the score's change since the previous iteration.
const RISEN: f64 = 0.8;
/// Upper bound of that factor.
const FALLEN: f64 = 1.5;
/// Score change (centipawns) that moves that factor by 1.
const FALL_UNIT: f64 = 300.0;
/// Smallest stretch of the soft limit.
const MIN_SCALE: f64 = SETTLED * RISEN;
/// Bound on the stretch (a best move that keeps changing while the score falls).
const MAX_SCALE: f64 = (SETTLED + PER_CHANGE * 2.0) * FALLEN;

/// Time budget for a move, in ms: (the time after which no new iteration starts, the hard
/// maximum). `go movetime` and a byoyomi whose main time is spent (time left unused there
/// is lost) are searched up to the hard limit; with a running clock a new iteration starts
/// only within half the move's share of it (times `Stability::scale`).
pub fn allot_time(limits: &Limits, side: usize, overhead: u64) -> Option<(u64, u64)> {
    if limits.infinite {
        return None;
    }
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead).max(1);
        return Some((t, t));
    }
    let inc = limits.inc[side];
    let byo = limits.byoyomi;
    // `go byoyomi 1000` alone (as some GUIs send it) means no main time left.
    let remaining = match limits.time[side] {
        Some(t) => t,
        None if byo > 0 || inc > 0 => 0,
        None => return None,
    };
    let mtg = limits.movestogo.unwrap_or(30).clamp(1, 30) as u64;
    // The overhead never eats more than a fifth of what is left (short byoyomi games).
    let overhead = overhead.min(((remaining + byo) / 5).max(10));
    let hard = (remaining + byo).saturating_sub(overhead).max(1);
    let hard = if byo == 0 { hard.min(remaining / 2 + inc).max(1) } else { hard };
    if remaining == 0 && byo > 0 {
        return Some((hard, hard));
    }
    let soft = (remaining / mtg + inc * 3 / 4 + byo * 9 / 10).min(hard).max(1);
    Some((soft.div_ceil(2), hard))
}

/// Whether the soft limit `soft` (stretched by `scale`) is reached after `elapsed` ms, given
/// the hard limit `hard`: a soft limit equal to the hard one (fixed time) is never stretched.
pub fn soft_limit_reached(elapsed: u64, soft: u64, hard: u64, scale: f64) -> bool {
    if soft >= hard {
        return elapsed >= soft;
    }
    elapsed as f64 >= soft as f64 * scale
}

/// How settled the search is, from one completed iteration to the next: how often its best
/// move changed lately (each change counts 1, halved at every iteration) and how far its score
/// fell since the previous iteration. An unsettled search gets more time, a settled one less.
#[derive(Default)]
pub struct Stability {
    changes: f64,
    last: Option<(Move, i32)>,
}

impl Stability {
    /// Records a completed iteration's best move and score; returns the stretch of the soft
    /// time limit: `SETTLED + PER_CHANGE * changes` (0.7 + 0.9 × changes) times a factor from
    /// `RISEN` (0.8: score risen by 60 or more) to `FALLEN` (1.5: fallen by 150 or more).
    pub fn scale(&mut self, best: Move, score: i32) -> f64 {
        self.changes *= 0.5;
        let mut fall = 1.0;
        if let Some((m, s)) = self.last {
            if m != best {
                self.changes += 1.0;
            }
            fall = (1.0 + (s - score) as f64 / FALL_UNIT).clamp(RISEN, FALLEN);
        }
        self.last = Some((best, score));
        let scale = (SETTLED + PER_CHANGE * self.changes) * fall;
        debug_assert!((MIN_SCALE..=MAX_SCALE).contains(&scale), "{scale}");
        scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_and_byoyomi_times_are_searched_to_the_limit() {
        let fixed = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        assert_eq!(allot_time(&fixed, 0, 100), Some((900, 900)));
        // Main time spent: the byoyomi is lost unless used, so no early stop.
        let byo = Limits {
            time: [Some(0), Some(0)],
            byoyomi: 1000,
            ..Limits::default()
        };
        assert_eq!(allot_time(&byo, 0, 100), Some((900, 900)));
        // However settled the search, a fixed time is not cut short.
        assert!(!soft_limit_reached(800, 900, 900, MIN_SCALE));
        assert!(soft_limit_reached(900, 900, 900, MAX_SCALE));
        // A running clock: new iterations start only within half the move's share.
        let clock = Limits {
            time: [Some(10_000), Some(10_000)],
            inc: [100, 100],
            ..Limits::default()
        };
        assert_eq!(allot_time(&clock, 0, 100), Some(((10_000 / 30 + 75_u64).div_ceil(2), 5_100)));
        let main_and_byo = Limits {
            time: [Some(60_000), Some(60_000)],
            byoyomi: 1000,
            ..Limits::default()
        };
        assert_eq!(allot_time(&main_and_byo, 1, 100), Some(((2_000 + 900_u64).div_ceil(2), 60_900)));
    }

    #[test]
    fn an_unsettled_search_gets_more_time_than_a_settled_one() {
        let (a, b) = (Move::normal(10, 20, false), Move::normal(11, 21, false));
        let mut settled = Stability::default();
        let mut s = 0.0;
        for _ in 0..6 {
            s = settled.scale(a, 50);
        }
        assert!((s - SETTLED).abs() < 1e-9, "same move, same score: {s}");
        assert!(!soft_limit_reached(150, 200, 5_000, 1.0) && soft_limit_reached(150, 200, 5_000, s));
        let mut unsettled = Stability::default();
        let mut u = 0.0;
        for i in 0..6 {
            u = unsettled.scale(if i % 2 == 0 { a } else { b }, 50 - 40 * i);
        }
        assert!(u > 2.0 * s && u <= MAX_SCALE, "a changing move and a falling score: {u}");
        // A rising score with a steady move ends sooner than a steady score.
        let mut rising = Stability::default();
        let mut r = 0.0;
        for i in 0..6 {
            r = rising.scale(a, 40 * i);
        }
        assert!(r < s && r >= MIN_SCALE);
    }
}
