//! Correction history (after Stockfish): how far the searches of a game found the static
//! evaluation off, remembered by side to move and by two keys of the position (its pawns on
//! the board; both hands with the royal squares), and added to later static evaluations of
//! positions that share a key. Each search thread has its own, kept between the moves of a
//! game with its other histories (`Learned`).
//!
//! Invariants: every entry stays within `-LIMIT..=LIMIT` (the gravity update below guarantees
//! it for bonuses within `LIMIT / 4`), so a correction is at most `2 * LIMIT / DIV` and never
//! turns a score into a mate score (the caller clamps it).

use crate::piece::Color;
use crate::position::Position;

/// Entries per side of each table (a power of two).
const SIZE: usize = 1 << 14;
/// Bound of an entry.
const LIMIT: i32 = 1024;
/// The correction is the entries' sum over this.
const DIV: i32 = 8;

/// The two tables of one search thread.
pub struct CorrHist {
    /// By side to move and pawn key.
    pawns: Vec<i32>,
    /// By side to move and a key of both hands and the royals' squares.
    hands: Vec<i32>,
}

impl Default for CorrHist {
    fn default() -> CorrHist {
        CorrHist {
            pawns: vec![0; 2 * SIZE],
            hands: vec![0; 2 * SIZE],
        }
    }
}

/// The slots of a position in the two tables (see [`slots`]): a node computes them once and
/// both reads and updates through them.
#[derive(Clone, Copy)]
pub struct Slots(usize, usize);

/// The slots of `pos` in the two tables.
pub fn slots(pos: &Position) -> Slots {
    const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
    let side = pos.side_to_move().idx() * SIZE;
    let t = &pos.variant().t;
    let mut h = 0u64;
    for c in [Color::Black, Color::White] {
        for &k in t.hand_kinds.iter() {
            h = (h ^ pos.hand(c, k) as u64).wrapping_mul(MIX);
        }
        for s in pos.royals(c).iter() {
            h = (h ^ (s as u64 + 1000)).wrapping_mul(MIX);
        }
    }
    Slots(side + (pos.pawn_key() as usize & (SIZE - 1)), side + ((h >> 40) as usize & (SIZE - 1)))
}

impl CorrHist {
    /// What to add to the static evaluation of the position at `slots`.
    pub fn correction(&self, Slots(p, h): Slots) -> i32 {
        (self.pawns[p] + self.hands[h]) / DIV
    }

    /// Moves the entries at `slots` towards a search result `best` at `depth` that differs
    /// from the position's (corrected) static score `stat`; deeper results move them more.
    pub fn update(&mut self, Slots(p, h): Slots, best: i32, stat: i32, depth: i32) {
        let bonus = ((best - stat) * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        for e in [&mut self.pawns[p], &mut self.hands[h]] {
            *e += bonus - *e * bonus.abs() / LIMIT;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn corrections_follow_the_searches_and_stay_bounded() {
        let v = Variant::by_name("shogi").expect("shogi");
        let pos = Position::startpos(v);
        let mut c = CorrHist::default();
        let at = slots(&pos);
        assert_eq!(c.correction(at), 0);
        // Searches keep finding the position 300 better than its static score.
        for _ in 0..200 {
            let stat = 100 + c.correction(at);
            c.update(at, 400, stat, 12);
        }
        let up = c.correction(at);
        assert!(up > 100 && up <= 2 * LIMIT / DIV, "{up}");
        // The other side to move (another slot) learnt nothing.
        let other = Position::from_sfen(v, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1").expect("sfen");
        assert_eq!(c.correction(slots(&other)), 0);
        // Far worse results bring it down again, no further than the bound.
        for _ in 0..400 {
            let stat = 100 + c.correction(at);
            c.update(at, -5_000, stat, 20);
        }
        let down = c.correction(at);
        assert!((-2 * LIMIT / DIV..0).contains(&down), "{down}");
    }
}
