//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod engine;

use shishi::notation::move_to_usi;
use shishi::{Position, Variant};

/// Parses a position or panics with the error.
pub fn pos(variant: &str, sfen: &str) -> Position {
    let v = Variant::by_name(variant).expect("variant");
    Position::from_sfen(v, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// The legal moves in USI notation.
pub fn legal(variant: &str, sfen: &str) -> Vec<String> {
    let mut p = pos(variant, sfen);
    let v = p.variant();
    p.legal_moves().iter().map(|&m| move_to_usi(v, m)).collect()
}

/// Asserts which of `moves` are legal (`yes`) and which are not (`no`).
pub fn check(variant: &str, sfen: &str, yes: &[&str], no: &[&str]) {
    let l = legal(variant, sfen);
    for m in yes {
        assert!(l.iter().any(|x| x == m), "{variant} {sfen}: {m} should be legal; legal: {l:?}");
    }
    for m in no {
        assert!(!l.iter().any(|x| x == m), "{variant} {sfen}: {m} should be illegal");
    }
}

/// One xorshift step of `seed` (the tests' pseudo-random games); returns the new value.
pub fn next_random(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}
