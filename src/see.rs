//! Static exchange evaluation by playing the exchange out on the board.
//!
//! Cannons and lions make attack sets non-additive (a capture can create or remove a screen,
//! a lion can take twice), so instead of x-ray tables the exchange is made move by move: each
//! side recaptures on the square with its least valuable capturer, found among the pieces
//! that attack the square (their direct captures there, with promotion choices), and may stop
//! whenever continuing would lose. Royals count as priceless, so a royal recaptures only as
//! the last capturer. Values are the variant's material values; a promotion adds its gain.
//!
//! Invariant: the position is restored exactly (every make has its unmake).

use crate::geometry::Sq;
use crate::moves::{Move, MoveList};
use crate::piece::{EMPTY, kind_of};
use crate::position::Position;

/// Value of a royal in exchanges: larger than any material sum.
const ROYAL: i32 = 50_000;
/// Longest exchange played out.
const MAX_SWAPS: u32 = 16;

impl Position {
    /// Whether `m` captures (on its destination or, for a double move, its first leg).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        !m.is_drop() && ((m.to() != m.from() && self.piece_at(m.to()) != EMPTY) || (m.mid() != 0 && self.piece_at(m.mid()) != EMPTY))
    }

    /// Material value of what `m` captures (both legs of a double move).
    #[inline]
    pub fn captured_value(&self, m: Move) -> i32 {
        if m.is_drop() {
            return 0;
        }
        let mut v = 0;
        if m.to() != m.from() && self.piece_at(m.to()) != EMPTY {
            v += self.see_value(self.piece_at(m.to()));
        }
        if m.mid() != 0 && self.piece_at(m.mid()) != EMPTY {
            v += self.see_value(self.piece_at(m.mid()));
        }
        v
    }

    fn see_value(&self, p: u8) -> i32 {
        self.kind_value(kind_of(p))
    }

    fn kind_value(&self, k: u8) -> i32 {
        let v = self.variant();
        if v.t.royal_mask >> k & 1 != 0 { ROYAL } else { v.piece(k).value }
    }

    /// Material gained by `m` itself: what it captures plus its promotion gain (0 for a drop).
    fn move_gain(&self, m: Move) -> i32 {
        let mut g = self.captured_value(m);
        if m.is_promotion() {
            let v = self.variant();
            let k = kind_of(self.piece_at(m.from()));
            let pk = v.t.promote[k as usize];
            g += (v.piece(pk).value - v.piece(k).value).max(0);
        }
        g
    }

    /// Value of the piece standing on the destination after `m` (what the opponent can win back).
    fn mover_value(&self, m: Move) -> i32 {
        let k = kind_of(self.piece_at(m.from()));
        self.kind_value(if m.is_promotion() { self.variant().t.promote[k as usize] } else { k })
    }

    /// Static exchange value of the (board) move `m` for the side making it: its gain minus what
    /// the best sequence of recaptures on its destination wins back.
    pub fn see(&mut self, m: Move) -> i32 {
        // A drop gains nothing itself; its exchange is what the opponent wins there.
        let gain = self.move_gain(m);
        self.make(m);
        let back = self.recapture(m.to(), 1);
        self.unmake();
        gain - back
    }

    /// Whether `see(m) >= threshold`, answered without playing out the exchange when the
    /// capture is clearly good (it wins at least the capturer's value).
    pub fn see_ge(&mut self, m: Move, threshold: i32) -> bool {
        let gain = self.move_gain(m);
        // What the opponent wins back is never negative: the gain bounds the exchange.
        if gain < threshold {
            return false;
        }
        if !m.is_drop() && gain - self.mover_value(m) >= threshold {
            return true;
        }
        self.see(m) >= threshold
    }

    /// Best the side to move wins by recapturing on `sq` (0 when it should not).
    fn recapture(&mut self, sq: u8, depth: u32) -> i32 {
        if depth >= MAX_SWAPS || self.royals(self.side_to_move()).is_empty() {
            return 0;
        }
        // Only the pieces that attack `sq` can capture there (most squares have none). The
        // cheapest capture wins, the lower origin square on a tie, and for one piece the first
        // of its promotion choices (the generator's order): the full generator's square order.
        let mut best: Option<(i32, Sq, Move)> = None;
        let mut opts = MoveList::new();
        self.for_each_attacker(sq, self.side_to_move(), &mut |from| {
            opts.clear();
            self.push_capture(from, sq, &mut opts);
            for &m in opts.iter() {
                let cost = self.mover_value(m) - if m.is_promotion() { 1 } else { 0 };
                if best.is_none_or(|(c, f, _)| cost < c || (cost == c && from < f)) {
                    best = Some((cost, from, m));
                }
            }
        });
        let Some((_, _, m)) = best else { return 0 };
        let gain = self.move_gain(m);
        self.make(m);
        let back = self.recapture(sq, depth + 1);
        self.unmake();
        (gain - back).max(0)
    }
}
