//! Zobrist keys. Every component is XORed in; a hand contributes one key per (colour, kind,
//! count), derived by mixing, so changing a count XORs out the old key and in the new one.

use crate::geometry::NSQ;
use std::sync::LazyLock;

/// The key tables.
pub struct Keys {
    /// Piece code (0..128) on a square.
    pub psq: Vec<[u64; NSQ]>,
    /// Base key of a kind in a colour's hand (see [`Keys::hand_key`]).
    pub hand: [[u64; 64]; 2],
    /// Side to move is white.
    pub side: u64,
    /// Counter-strike square (chu).
    pub cs: [u64; NSQ],
}

impl Keys {
    /// Key of `n` pieces of `kind` in hand of colour index `c` (0 for an empty hand).
    #[inline]
    pub fn hand_key(&self, c: usize, kind: usize, n: u8) -> u64 {
        if n == 0 {
            return 0;
        }
        let mut z = self.hand[c][kind] ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        z = (z ^ (z >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        z ^ (z >> 33)
    }
}

/// SplitMix64: the next value of a small deterministic generator (the Zobrist keys, random
/// openings, data generation, the trainer's shuffles).
pub(crate) fn splitmix(state: &mut u64) -> u64 {
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
