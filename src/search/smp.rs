//! The lazy-SMP driver: `Threads` searchers over clones of the root share the lockless
//! transposition table, the stop flag and the node counter ([`Shared`]); each keeps its own
//! histories, killers and stacks. Helpers report nothing; the main thread owns the clock and
//! stops the helpers when it finishes, and the move of the thread that completed the deepest
//! iteration is played.
//!
//! Invariant: between searches, [`Workers`] holds at most one table set ([`Learned`]) per
//! thread, the main thread's first, each made for the variant of the last search's root.

use super::tt::Tt;
use super::{Info, Learned, Limits, Searcher, Shared};
use crate::moves::Move;
use crate::position::Position;
use std::sync::atomic::Ordering;

/// The searchers of a lazy-SMP search: how many threads, and the tables each learnt in the
/// previous searches of the game ([`Learned`]).
pub struct Workers {
    /// Number of search threads (at least one runs).
    pub threads: usize,
    /// One table set per thread, the main thread's first (fewer before the first search).
    pub(super) learned: Vec<Learned>,
}

impl Workers {
    /// `threads` searchers that have learnt nothing yet.
    pub fn new(threads: usize) -> Workers {
        Workers { threads, learned: Vec::new() }
    }

    /// Forgets what the threads learnt (for a new game).
    pub fn forget(&mut self) {
        self.learned.clear();
    }
}

/// Runs a lazy-SMP search with `workers.threads` searchers (at least one) sharing `tt` and
/// `shared`; only the main thread calls `report`. Returns the move of the thread that
/// completed the deepest iteration (the main thread on ties; only the main thread with
/// MultiPV) and its expected reply. Each thread starts from the tables it learnt in the
/// previous search (fresh ones for a new variant) and leaves this search's in `workers`.
pub fn search_threads(
    root: &Position,
    tt: &Tt,
    shared: &Shared,
    limits: Limits,
    overhead: u64,
    workers: &mut Workers,
    report: &mut dyn FnMut(&Info),
) -> (Option<Move>, Option<Move>) {
    tt.new_search();
    let helpers = if limits.multipv > 1 { 0 } else { workers.threads.max(1) - 1 };
    let learned = &mut workers.learned;
    // One table set per thread, the main thread's first; sets made for another variant are
    // dropped.
    learned.retain(|l| l.fits(root));
    learned.resize_with(helpers + 1, || Learned::new(root));
    let mut sets = std::mem::take(learned);
    let main_set = sets.remove(0);
    let (best, kept) = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for (id, set) in (1..=helpers).zip(sets) {
            let (pos, limits) = (root.clone(), limits.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("helper{id}"))
                .stack_size(64 << 20)
                .spawn_scoped(scope, move || {
                    let mut s = Searcher::with_learned(pos, tt, shared, limits, overhead, set);
                    s.id = id;
                    s.think(&mut |_| {});
                    (s.completed, s.learned)
                });
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => log::warn!("could not start search helper {id}: {e}"),
            }
        }
        let mut main = Searcher::with_learned(root.clone(), tt, shared, limits, overhead, main_set);
        let mut best = main.think(report);
        shared.helpers_stop.store(true, Ordering::Relaxed);
        let mut deepest = main.completed.map_or(0, |c| c.0);
        let mut kept = vec![main.learned];
        for h in handles {
            let Ok((completed, set)) = h.join() else { continue };
            kept.push(set);
            if let Some((depth, _, m, reply)) = completed
                && depth > deepest
            {
                deepest = depth;
                best = (Some(m), reply);
            }
        }
        (best, kept)
    });
    *learned = kept;
    best
}
