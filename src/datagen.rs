//! `shishi datagen`: training positions for the NNUE trainer (`crate::nnue::train`) from
//! self-play at a fixed node count per move.
//!
//! Each game starts from the variant's start position with `random_plies` uniformly random
//! legal plies (seeded by the game's number), then both sides play the engine's own search
//! (one thread, a fixed node limit, a fresh hash table per game). Every position after the
//! random plies whose side to move is not in check, whose best move is neither a capture nor
//! a promotion and whose score is not a mate becomes a sample: its SFEN, the search's score in
//! centipawns and the game's result, both from the side to move. A game ends by the referee's
//! rules ([`Position::outcome`]), by adjudication once one side's score has stayed past
//! `±ADJUDICATE` for `ADJUDICATE_PLIES` plies in a row, or as a draw at `max_plies`.
//!
//! Output lines: `SFEN;SCORE;RESULT` with RESULT 1 (the side to move won), 0 (lost) or 0.5.
//! The games are deterministic for a given seed, node limit and network, whatever the
//! thread count.

use crate::game::Outcome;
use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;
use crate::search::tt::Tt;
use crate::search::{Limits, Score, Shared, Workers, search_threads};
use crate::variant::Variant;
use crate::zobrist::splitmix;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Scores past this (centipawns) for [`ADJUDICATE_PLIES`] plies decide the game.
pub const ADJUDICATE: i32 = 2500;
/// Plies in a row a decisive score must hold.
pub const ADJUDICATE_PLIES: usize = 6;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Config {
    /// The variant.
    pub variant: &'static Variant,
    /// Games to play.
    pub games: usize,
    /// Node limit of each move's search.
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub random_plies: usize,
    /// Plies after which a game is drawn.
    pub max_plies: usize,
    /// Seed of the random plies.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// The network that evaluates (none: the handcrafted evaluation).
    pub net: Option<std::sync::Arc<crate::nnue::Network>>,
}

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games played.
    pub games: usize,
    /// Samples written.
    pub samples: usize,
}

/// Plays the games and writes their samples to `out` (a game's lines together, in the order
/// the games finish); `progress` is called after each game with the totals so far.
pub fn run(cfg: &Config, out: &mut (dyn Write + Send), progress: &(dyn Fn(Totals) + Sync)) -> std::io::Result<Totals> {
    let next = AtomicUsize::new(0);
    let sink = Mutex::new((out, Totals::default(), None::<std::io::Error>));
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            scope.spawn(|| {
                let tt = Tt::new(16);
                let mut workers = Workers::new(1);
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= cfg.games {
                        break;
                    }
                    let lines = play(cfg, g, &tt, &mut workers);
                    let Ok(mut guard) = sink.lock() else { break };
                    let (out, totals, err) = &mut *guard;
                    if err.is_some() {
                        break;
                    }
                    if let Err(e) = out.write_all(lines.concat().as_bytes()) {
                        *err = Some(e);
                        break;
                    }
                    totals.games += 1;
                    totals.samples += lines.len();
                    progress(*totals);
                }
            });
        }
    });
    let (out, totals, err) = sink.into_inner().map_err(|_| std::io::Error::other("a datagen thread panicked"))?;
    if let Some(e) = err {
        return Err(e);
    }
    out.flush()?;
    Ok(totals)
}

/// The start of game `g`: random legal plies that do not end the game.
pub fn start_of(cfg: &Config, g: usize) -> Position {
    let mut p = Position::startpos(cfg.variant);
    let mut rng = cfg.seed ^ (g as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
    for _ in 0..cfg.random_plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        p.make(moves[(splitmix(&mut rng) % moves.len() as u64) as usize]);
        if p.clone().outcome().is_some() {
            p.unmake();
            break;
        }
    }
    p
}

/// Plays game `g`; returns its sample lines.
fn play(cfg: &Config, g: usize, tt: &Tt, workers: &mut Workers) -> Vec<String> {
    let mut pos = start_of(cfg, g);
    tt.clear();
    workers.forget();
    // (SFEN, score, side to move) of each sample, the result filled in at the end.
    let mut samples: Vec<(String, i32, Color)> = Vec::new();
    let mut decisive: Option<(Color, usize)> = None;
    let mut winner: Option<Color> = None;
    for _ in 0..cfg.max_plies {
        if let Some(o) = pos.outcome() {
            winner = match o {
                Outcome::Win(c, _) => Some(c),
                Outcome::Draw(_) => None,
            };
            break;
        }
        let shared = Shared {
            net: cfg.net.clone(),
            ..Shared::default()
        };
        let limits = Limits {
            nodes: Some(cfg.nodes),
            ..Limits::default()
        };
        let mut score = None;
        let (best, _) = search_threads(&pos, tt, &shared, limits, 0, workers, &mut |info| {
            if info.multipv <= 1 {
                score = Some(info.score);
            }
        });
        let Some(m) = best.filter(|&m| m != Move::NONE) else { break };
        let us = pos.side_to_move();
        match score {
            Some(Score::Cp(s)) => {
                if !pos.in_check() && !pos.is_capture(m) && !m.is_promotion() {
                    samples.push((pos.to_sfen(), s, us));
                }
                // Adjudication, counted from the winning side's view.
                let lead = if s >= ADJUDICATE {
                    Some(us)
                } else if s <= -ADJUDICATE {
                    Some(us.flip())
                } else {
                    None
                };
                decisive = match (lead, decisive) {
                    (Some(c), Some((d, n))) if c == d => Some((c, n + 1)),
                    (Some(c), _) => Some((c, 1)),
                    (None, _) => None,
                };
                if let Some((c, n)) = decisive
                    && n >= ADJUDICATE_PLIES
                {
                    winner = Some(c);
                    break;
                }
            }
            Some(Score::Mate(n)) => {
                // A found mate decides the game.
                winner = Some(if n > 0 { us } else { us.flip() });
                break;
            }
            None => {}
        }
        pos.make(m);
    }
    samples
        .into_iter()
        .map(|(sfen, s, c)| {
            let r = match winner {
                Some(w) if w == c => "1",
                Some(_) => "0",
                None => "0.5",
            };
            format!("{sfen};{s};{r}\n")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datagen_writes_quiet_scored_positions_with_results_from_the_side_to_move() {
        let v = Variant::by_name("shogi").expect("shogi");
        let cfg = Config {
            variant: v,
            games: 2,
            nodes: 300,
            random_plies: 4,
            max_plies: 40,
            seed: 7,
            threads: 2,
            net: None,
        };
        let mut buf = Vec::new();
        let totals = run(&cfg, &mut buf, &|_| {}).expect("in memory");
        let text = String::from_utf8(buf).expect("utf-8");
        assert_eq!(totals.games, 2);
        assert_eq!(totals.samples, text.lines().count());
        assert!(totals.samples > 10, "{text}");
        for line in text.lines() {
            let f: Vec<&str> = line.split(';').collect();
            assert_eq!(f.len(), 3, "{line}");
            let mut pos = Position::from_sfen(v, f[0]).expect("valid SFEN");
            assert!(!pos.in_check());
            assert!(pos.outcome().is_none());
            let s: i32 = f[1].parse().expect("score");
            assert!(s.abs() < 30_000);
            assert!(["1", "0", "0.5"].contains(&f[2]));
        }
        // Deterministic: the same games again, one thread.
        let mut again = Vec::new();
        run(&Config { threads: 1, ..cfg }, &mut again, &|_| {}).expect("in memory");
        let mut a: Vec<&str> = text.lines().collect();
        let again = String::from_utf8(again).expect("utf-8");
        let mut b: Vec<&str> = again.lines().collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }
}
