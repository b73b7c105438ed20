//! Transposition table: a power-of-two array of entries, each checked by the full key.
//! Sized in MiB by the Hash option. Single-threaded for now (lazy SMP comes later).

use crate::moves::Move;

/// Bound type of a stored score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// No entry.
    None,
    /// Exact score.
    Exact,
    /// Score is a lower bound (fail high).
    Lower,
    /// Score is an upper bound (fail low).
    Upper,
}

/// One entry.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Full hash key.
    pub key: u64,
    /// Best move found.
    pub mv: Move,
    /// Score (mate scores relative to this node).
    pub score: i32,
    /// Search depth.
    pub depth: i16,
    /// Bound type.
    pub bound: Bound,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: Move::NONE,
    score: 0,
    depth: -1,
    bound: Bound::None,
};

/// The table.
pub struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    used: usize,
}

impl Tt {
    /// A table of about `mib` MiB (at least one entry).
    pub fn new(mib: usize) -> Tt {
        let want = (mib.max(1) << 20) / std::mem::size_of::<Entry>();
        let n = if want.is_power_of_two() { want } else { want.next_power_of_two() >> 1 };
        Tt {
            entries: vec![EMPTY; n.max(1)],
            mask: n.max(1) - 1,
            used: 0,
        }
    }
    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
        self.used = 0;
    }
    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && e.bound != Bound::None).then_some(e)
    }
    /// Stores an entry, replacing a shallower one or one of another position.
    pub fn store(&mut self, key: u64, mv: Move, score: i32, depth: i16, bound: Bound) {
        let e = &mut self.entries[key as usize & self.mask];
        if e.bound == Bound::None {
            self.used += 1;
        }
        if e.key != key || depth >= e.depth || bound == Bound::Exact {
            let mv = if mv == Move::NONE && e.key == key { e.mv } else { mv };
            *e = Entry { key, mv, score, depth, bound };
        }
    }
    /// Permille of entries in use.
    pub fn hashfull(&self) -> u32 {
        (self.used as u64 * 1000 / self.entries.len() as u64) as u32
    }
}
