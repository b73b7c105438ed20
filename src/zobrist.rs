//! Zobrist keys. Hands are hashed additively (`count * key`), so adding or removing one
//! piece in hand is a single wrapping add or subtract.

use crate::geometry::NSQ;
use std::sync::LazyLock;

/// The key tables.
pub struct Keys {
    /// Piece code (0..128) on a square.
    pub psq: Vec<[u64; NSQ]>,
    /// One piece of a kind in a colour's hand.
    pub hand: [[u64; 64]; 2],
    /// Side to move is white.
    pub side: u64,
    /// Counter-strike square (chu).
    pub cs: [u64; NSQ],
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The process-wide keys (fixed seed: hashes are reproducible).
pub static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut s = 0x5348_4953_4849_u64;
    let mut psq = vec![[0u64; NSQ]; 128];
    for row in psq.iter_mut() {
        for k in row.iter_mut() {
            *k = splitmix(&mut s);
        }
    }
    let mut hand = [[0u64; 64]; 2];
    for row in hand.iter_mut() {
        for k in row.iter_mut() {
            *k = splitmix(&mut s);
        }
    }
    let side = splitmix(&mut s);
    let mut cs = [0u64; NSQ];
    for k in cs.iter_mut() {
        *k = splitmix(&mut s);
    }
    Keys { psq, hand, side, cs }
});
