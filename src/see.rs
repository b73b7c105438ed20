//! Static exchange evaluation by playing the exchange out on the board.
//!
//! Cannons and lions make attack sets non-additive (a capture can create or remove a screen,
//! a lion can take twice), so instead of x-ray tables the exchange is made move by move: each
//! side recaptures on the square with its least valuable capturer, found among the pieces
//! that attack the square (their direct captures there, with promotion choices), and may stop
//! whenever continuing would lose. Royals count as priceless, so a royal recaptures only as
//! the last capturer. Values are the variant's material values; a promotion adds its gain.
//!
//! The exchange is played on the board array alone (and the side to move), with each side's
//! royals counted apart: the attack scans, the capture builder and the values read nothing
//! else, and this costs far less than a full make and unmake (hash, sums, sets, hands,
//! history): `Position::with_board_after`, the board-only move the legality and check tests
//! use. The position's leaper sets are left as they are: a capturer that leaps is not listed
//! on the exchange's square, but the only square scanned is that one, and nothing leaps onto
//! its own square; the captured piece's and the capturer's old squares stay listed, and a
//! scan reads the board there.
//!
//! `see_ge` asks only whether the exchange reaches a threshold: it plays the recaptures until
//! one's gain settles that answer (alternately "wins back at most" and "at least"), which
//! gives the same answers as the full value (a test checks it) with fewer attack scans. Its
//! shortcut for a capture that wins the capturer's value is the one inexact part (a recapture
//! that promotes wins back more).
//!
//! Invariant: the position is restored exactly (every board change is undone).

use crate::geometry::Sq;
use crate::moves::{Move, MoveList};
use crate::piece::{EMPTY, is_color, kind_of};
use crate::position::Position;

/// Value of a royal in exchanges: larger than any material sum.
const ROYAL: i32 = 50_000;
/// Longest exchange played out.
const MAX_SWAPS: u32 = 16;

impl Position {
    /// Whether `m` captures (on its destination or, for a double move, its first leg).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.captured_piece(m) != EMPTY
    }

    /// The piece `m` captures on its destination, else on its first leg (a double move that
    /// ends on an empty square or back home); `EMPTY` for a drop or a non-capture.
    #[inline]
    pub fn captured_piece(&self, m: Move) -> u8 {
        if m.is_drop() {
            return EMPTY;
        }
        let to = self.piece_at(m.to());
        if m.to() != m.from() && to != EMPTY {
            to
        } else if m.mid() != 0 {
            self.piece_at(m.mid())
        } else {
            EMPTY
        }
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
            g += self.variant().t.promo_gain[kind_of(self.piece_at(m.from())) as usize];
        }
        g
    }

    /// The most a promotion can add to a recapture on `sq` by the side to move (a bound on
    /// its gain beyond the value taken there). Under every promotion rule a move promotes only
    /// if it starts or ends in the zone: with `sq` outside the side's zone, only the side's
    /// pieces inside it may. Those are read from its square set, which during an exchange is
    /// a superset of them (the board-only moves leave the sets as they were, and nothing is
    /// added but on `sq`), so each square's piece is checked on the board.
    fn promotion_bound(&self, sq: Sq) -> i32 {
        let t = &self.variant().t;
        let us = self.side;
        let zone = &t.zone[us.idx()];
        if t.max_promo_gain == 0 || zone.has(sq) {
            return t.max_promo_gain;
        }
        let mut most = 0;
        for x in self.occupied(us).and(zone).iter() {
            let q = self.board[x as usize];
            if is_color(q, us) {
                most = most.max(t.promo_gain[kind_of(q) as usize]);
            }
        }
        most
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
        gain - self.after(m, self.royal_count, |p, royals| p.recapture(m.to(), 1, royals))
    }

    /// How many royals each colour (by index) has after `m`, given how many it has before:
    /// fewer for a royal taken (on the destination or a double move's first leg), more for a
    /// piece that promotes to a royal kind.
    fn royals_after(&self, m: Move, mut royals: [u32; 2]) -> [u32; 2] {
        let t = &self.variant().t;
        let royal = |k: u8| t.royal_mask >> k & 1 != 0;
        let them = self.side.flip().idx();
        if !m.is_drop() {
            // Counted without a branch (an empty square's kind 0 is never royal): what stands
            // on the destination unless the move returns to its origin, and on the first leg
            // if there is one (index 0 is padding).
            let (from, to, mid) = (m.from() as usize, m.to() as usize, m.mid() as usize);
            let taken = |sq: usize, real: bool| royal(kind_of(self.board[sq])) as u32 & real as u32;
            royals[them] -= taken(to, to != from) + taken(mid, mid != 0);
            if m.is_promotion() {
                let k = kind_of(self.board[from]);
                royals[self.side.idx()] += (royal(t.promote[k as usize]) && !royal(k)) as u32;
            }
        }
        royals
    }

    /// Whether `see(m) >= threshold`, answered without playing out the exchange when the
    /// capture is clearly good (it wins at least the capturer's value), and otherwise by
    /// playing it out (`see_at_least`). The shortcut is not exact: a recapture that promotes
    /// wins back the capturer's value plus the promotion's gain, which it leaves out.
    pub fn see_ge(&mut self, m: Move, threshold: i32) -> bool {
        let gain = self.move_gain(m);
        if !m.is_drop() && gain - self.mover_value(m) >= threshold {
            return true;
        }
        self.exchange_at_least(m, gain, threshold)
    }

    /// Whether `see(m) >= threshold`, exactly, with the exchange played out only as far as the
    /// threshold needs (see [`Self::wins_back_at_most`]).
    #[cfg(test)]
    fn see_at_least(&mut self, m: Move, threshold: i32) -> bool {
        self.exchange_at_least(m, self.move_gain(m), threshold)
    }

    /// `see_at_least` (a test helper) given the move's own gain `gain` ([`Self::move_gain`]).
    fn exchange_at_least(&mut self, m: Move, gain: i32, threshold: i32) -> bool {
        // What the opponent wins back is never negative: the gain bounds the exchange.
        if gain < threshold {
            return false;
        }
        self.after(m, self.royal_count, |p, royals| p.wins_back_at_most(m.to(), 1, royals, gain - threshold))
    }

    /// The step every exchange recursion shares: the recapture on `sq` at `depth` (see
    /// [`Self::cheapest_recapture`]) and its gain; `None` when the exchange ends there.
    fn next_recapture(&mut self, sq: u8, depth: u32, royals: [u32; 2]) -> Option<(Move, i32)> {
        self.cheapest_recapture(sq, depth, royals).map(|m| (m, self.move_gain(m)))
    }

    /// `f` on the board after `m` (see `with_board_after`), given the royal counts before it
    /// and passed those after it.
    fn after<R>(&mut self, m: Move, royals: [u32; 2], f: impl FnOnce(&mut Self, [u32; 2]) -> R) -> R {
        let royals = self.royals_after(m, royals);
        self.with_board_after(m, |p| f(p, royals))
    }

    /// Whether [`Self::recapture`] (same arguments) is at most `limit` (≥ 0), with the same
    /// recaptures but stopping as soon as the answer is known: it is `max(0, g - next)` for
    /// the recapture's gain `g` and the reply's value `next`, so it is at most `limit` when
    /// `g` is, and otherwise exactly when `next >= g - limit`.
    fn wins_back_at_most(&mut self, sq: u8, depth: u32, royals: [u32; 2], limit: i32) -> bool {
        debug_assert!(limit >= 0);
        // No recapture gains more than the piece on `sq` and a promotion: at most the limit,
        // the answer is yes whatever recaptures (most often: what stands there is cheap).
        let taken = self.see_value(self.board[sq as usize]);
        if taken <= limit && taken + self.promotion_bound(sq) <= limit {
            return true;
        }
        match self.next_recapture(sq, depth, royals) {
            Some((m, gain)) if gain > limit => self.after(m, royals, |p, r| p.wins_back_at_least(sq, depth + 1, r, gain - limit)),
            _ => true,
        }
    }

    /// Whether [`Self::recapture`] is at least `target` (> 0): the counterpart of
    /// [`Self::wins_back_at_most`]; with the recapture's gain `g` below the target it is not,
    /// and otherwise it is exactly when the reply's value is at most `g - target`.
    fn wins_back_at_least(&mut self, sq: u8, depth: u32, royals: [u32; 2], target: i32) -> bool {
        debug_assert!(target > 0);
        // As in `wins_back_at_most`: with no recapture able to gain the target, the answer
        // is no without looking for one (most often: the opponent recaptured with a cheaper
        // piece than it took).
        let taken = self.see_value(self.board[sq as usize]);
        if taken < target && taken + self.promotion_bound(sq) < target {
            return false;
        }
        match self.next_recapture(sq, depth, royals) {
            Some((m, gain)) if gain >= target => self.after(m, royals, |p, r| p.wins_back_at_most(sq, depth + 1, r, gain - target)),
            _ => false,
        }
    }

    /// Best the side to move wins by recapturing on `sq` (0 when it should not).
    /// `royals`: how many royals each colour has on the board as it stands.
    fn recapture(&mut self, sq: u8, depth: u32, royals: [u32; 2]) -> i32 {
        let Some((m, gain)) = self.next_recapture(sq, depth, royals) else { return 0 };
        (gain - self.after(m, royals, |p, r| p.recapture(sq, depth + 1, r))).max(0)
    }

    /// The recapture on `sq` that the exchange plays at `depth` (`None`: the exchange ends
    /// there, for want of a capturer, of a royal on the side to move, or of swaps left).
    fn cheapest_recapture(&mut self, sq: u8, depth: u32, royals: [u32; 2]) -> Option<Move> {
        if depth >= MAX_SWAPS || royals[self.side_to_move().idx()] == 0 {
            return None;
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
        best.map(|b| b.2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exchange played with full makes and unmakes, the royals read from the position:
    /// the reference the board-only exchange must agree with.
    fn see_by_make(pos: &mut Position, m: Move) -> i32 {
        fn back(pos: &mut Position, sq: Sq, depth: u32) -> i32 {
            if depth >= MAX_SWAPS || pos.royals(pos.side_to_move()).is_empty() {
                return 0;
            }
            let mut best: Option<(i32, Sq, Move)> = None;
            let mut opts = MoveList::new();
            for from in pos.attackers(sq, pos.side_to_move()) {
                opts.clear();
                pos.push_capture(from, sq, &mut opts);
                for &m in opts.iter() {
                    let cost = pos.mover_value(m) - m.is_promotion() as i32;
                    if best.is_none_or(|(c, f, _)| cost < c || (cost == c && from < f)) {
                        best = Some((cost, from, m));
                    }
                }
            }
            let Some((_, _, m)) = best else { return 0 };
            let gain = pos.move_gain(m);
            pos.make(m);
            let b = back(pos, sq, depth + 1);
            pos.unmake();
            (gain - b).max(0)
        }
        let gain = pos.move_gain(m);
        pos.make(m);
        let b = back(pos, m.to(), 1);
        pos.unmake();
        gain - b
    }

    /// Also checks the threshold test against the exchange's value: the bounded test plays
    /// fewer recaptures, never a different answer.
    #[test]
    fn board_only_exchanges_agree_with_full_makes_and_restore_the_position() {
        for v in crate::variant::all() {
            let mut tested = 0;
            crate::eval::random_game(v, 0x5DEE_CE66_D1CE_4E5B, 160, |pos| {
                let mut pos = pos.clone();
                let before = pos.to_sfen();
                for m in pos.legal_moves() {
                    let want = see_by_make(&mut pos, m);
                    assert_eq!(pos.see(m), want, "{} {before}: {m:?}", v.name);
                    // Thresholds around the value and the search's usual margins.
                    for t in [want - 1, want, want + 1, -360, -120, -25, 0, 1, 100, 600] {
                        assert_eq!(pos.see_at_least(m, t), want >= t, "{} {before}: {m:?} threshold {t}", v.name);
                    }
                    assert_eq!(pos.to_sfen(), before);
                    // The board, and the sets kept beside it (leapers too), are as they were.
                    assert_eq!(pos.check_invariants(), Ok(()), "{} {before}: {m:?}", v.name);
                    tested += 1;
                }
            });
            assert!(tested > 1000, "{}: {tested}", v.name);
        }
    }
}
