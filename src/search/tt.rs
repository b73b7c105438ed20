//! Transposition table shared by all search threads without locks.
//!
//! Layout: a power-of-two array of 64-byte buckets (in huge pages where Linux allows,
//! `table_mem`), each holding four entries of two
//! `AtomicU64`s: the packed data and `key ^ data`. A reader accepts an entry only when its
//! stored check xor its data gives back the probed key, so a torn write by another thread
//! (data and check from different stores) reads as a miss, never as a wrong entry. Data packs
//! the move (32 bits), score (16), depth (8), bound (2) and the search generation (6).
//!
//! Replacement: a store for a key already in the bucket overwrites it unless the old entry is
//! deeper, of this generation and the new one is not exact; otherwise the entry with the least
//! `depth - 8 * age` is replaced. `hashfull` samples the first 1000 entries of this generation.

use super::table_mem::{Block, Zeroable};
use crate::moves::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

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

/// One entry as read from the table.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Best move found (only a hint: it may come from another position on a key collision).
    pub mv: Move,
    /// Score (mate scores relative to this node).
    pub score: i32,
    /// Search depth.
    pub depth: i16,
    /// Bound type.
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const WAYS: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Slot; WAYS]);

// SAFETY: a bucket is atomics only: all-zero bytes are an empty bucket, and nothing to drop.
unsafe impl Zeroable for Bucket {}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);
const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

const AGE_BITS: u32 = 6;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;

fn pack(mv: Move, score: i32, depth: i16, bound: Bound, age: u8) -> u64 {
    let b = match bound {
        Bound::None => 0u64,
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    mv.0 as u64
        | ((score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64) << 32)
        | ((depth.clamp(-128, 127) as i8 as u8 as u64) << 48)
        | b << 56
        | ((age & AGE_MASK) as u64) << 58
}

fn unpack(d: u64) -> (Entry, u8) {
    let bound = match (d >> 56) & 3 {
        0 => Bound::None,
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    let e = Entry {
        mv: Move(d as u32),
        score: (d >> 32) as u16 as i16 as i32,
        depth: (d >> 48) as u8 as i8 as i16,
        bound,
    };
    (e, (d >> 58) as u8 & AGE_MASK)
}

/// The table.
pub struct Tt {
    buckets: Block<Bucket>,
    mask: usize,
    age: AtomicU8,
}

impl Tt {
    /// A table of about `mib` MiB (a power of two number of buckets, at least one).
    pub fn new(mib: usize) -> Tt {
        let want = (mib.max(1) << 20) / std::mem::size_of::<Bucket>();
        let n = if want.is_power_of_two() { want } else { want.next_power_of_two() >> 1 }.max(1);
        Tt {
            buckets: Block::new(n),
            mask: n - 1,
            age: AtomicU8::new(0),
        }
    }

    /// Empties the table (no search may be running).
    pub fn clear(&self) {
        for b in self.buckets.as_slice() {
            for s in &b.0 {
                s.check.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search generation: older entries become preferred victims.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store((a + 1) & AGE_MASK, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // The high bits pick the bucket, so the low bits stay independent of the index.
        &self.buckets.as_slice()[(key >> 20) as usize & self.mask]
    }

    /// Asks the processor to start loading the bucket of `key` into the cache, so that a
    /// probe soon after finds it there (a hint only: no effect on what is read).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        super::table_mem::prefetch(self.bucket(key));
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let d = self.bucket(key).0.iter().find_map(|s| {
            let (d, hit) = read(s, key);
            hit.then_some(d)
        })?;
        let (e, _) = unpack(d);
        (e.bound != Bound::None).then_some(e)
    }

    /// Stores a search result for `key`.
    pub fn store(&self, key: u64, mv: Move, score: i32, depth: i16, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let b = self.bucket(key);
        let mut victim = &b.0[0];
        let mut victim_value = i32::MAX;
        for s in &b.0 {
            let (d, hit) = read(s, key);
            if hit {
                let (old, old_age) = unpack(d);
                if bound != Bound::Exact && old_age == age && old.depth > depth + 2 {
                    return;
                }
                let mv = if mv == Move::NONE { old.mv } else { mv };
                write(s, key, pack(mv, score, depth, bound, age));
                return;
            }
            let value = if d == 0 {
                i32::MIN
            } else {
                let (old, old_age) = unpack(d);
                let stale = (age.wrapping_sub(old_age) & AGE_MASK) as i32;
                old.depth as i32 - 8 * stale
            };
            if value < victim_value {
                victim_value = value;
                victim = s;
            }
        }
        write(victim, key, pack(mv, score, depth, bound, age));
    }

    /// Permille of the sampled entries that hold results of the current search generation.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let mut used = 0;
        let mut seen = 0;
        for b in self.buckets.as_slice().iter().take(250) {
            for s in &b.0 {
                let d = s.data.load(Ordering::Relaxed);
                seen += 1;
                if d != 0 && unpack(d).1 == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / seen.max(1)) as u32
    }
}

/// The slot's data, and whether it holds `key` (a torn or empty slot holds nothing).
fn read(s: &Slot, key: u64) -> (u64, bool) {
    let d = s.data.load(Ordering::Relaxed);
    (d, d != 0 && s.check.load(Ordering::Relaxed) ^ d == key)
}

fn write(s: &Slot, key: u64, data: u64) {
    s.data.store(data, Ordering::Relaxed);
    s.check.store(key ^ data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = Tt::new(1);
        let m = Move::normal(0x33, 0x44, true);
        tt.store(0xDEAD_BEEF_1234_5678, m, -29_990, 17, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).expect("stored");
        assert_eq!((e.mv, e.score, e.depth, e.bound), (m, -29_990, 17, Bound::Lower));
        assert!(tt.probe(0xDEAD_BEEF_1234_5679).is_none());
    }

    #[test]
    fn torn_entry_reads_as_miss() {
        let tt = Tt::new(1);
        let key = 0x0123_4567_89AB_CDEF;
        tt.store(key, Move::normal(1, 2, false), 5, 3, Bound::Exact);
        // Simulate a racing writer: new data, old check.
        let s = &tt.bucket(key).0[0];
        s.data.store(pack(Move::normal(3, 4, false), 9, 9, Bound::Exact, 0), Ordering::Relaxed);
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn deeper_entries_survive_and_old_generations_go_first() {
        let tt = Tt::new(1);
        let base = 7u64 << 20;
        // Fill one bucket with four keys of depths 10, 1, 5, 7.
        for (i, d) in [10, 1, 5, 7].into_iter().enumerate() {
            tt.store(base | (i as u64 + 1), Move::NONE, 0, d, Bound::Exact);
        }
        // A fifth key replaces the shallowest.
        tt.store(base | 9, Move::NONE, 0, 3, Bound::Exact);
        assert!(tt.probe(base | 2).is_none());
        assert!(tt.probe(base | 1).is_some());
        // After many generations the deep entry becomes the victim.
        for _ in 0..3 {
            tt.new_search();
        }
        for k in [3u64, 4, 9] {
            tt.store(base | k, Move::NONE, 0, 5, Bound::Exact);
        }
        tt.store(base | 10, Move::NONE, 0, 1, Bound::Exact);
        assert!(tt.probe(base | 1).is_none());
        assert!(tt.hashfull() <= 1000);
    }
}
