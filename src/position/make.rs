//! Make and unmake. The hash is updated incrementally in `make` and restored from the undo
//! record in `unmake` (as is the counter-strike square; the count of reversible plies lives
//! in the undo records; the history filter counts each pushed record's position and forgets
//! it when popped);
//! board, occupancy, royal, leaper, mobile and stepper sets, royal counts, pawn counts, the
//! piece-square sums and hands are updated in both; the weighted mobility (`mobility.rs`) in
//! `make`, and restored from the undo record in `unmake`.

use super::{Position, Undo, repeat_slot};
use crate::geometry::{Sq, col_of};
use crate::moves::Move;
use crate::piece::{Color, EMPTY, color_of, kind_of, make_piece};
use crate::zobrist::KEYS;

impl Position {
    #[inline]
    pub(super) fn put<const HASH: bool>(&mut self, s: Sq, p: u8) {
        let c = color_of(p).idx();
        let k = kind_of(p);
        self.board[s as usize] = p;
        self.psq[c] += self.psqt[super::psq_index(k, c, s)];
        self.occ[c].set(s);
        self.mark_classes::<true>(c, k, s);
        let t = &self.v.t;
        if k == t.pawn_kind {
            self.pawns[c][col_of(s)] += 1;
            self.pawn_key ^= KEYS.psq[p as usize][s as usize];
        }
        if HASH {
            self.hash ^= KEYS.psq[p as usize][s as usize];
        }
    }

    #[inline]
    fn remove<const HASH: bool>(&mut self, s: Sq) -> u8 {
        let p = self.board[s as usize];
        let c = color_of(p).idx();
        let k = kind_of(p);
        self.board[s as usize] = EMPTY;
        self.psq[c] -= self.psqt[super::psq_index(k, c, s)];
        self.occ[c].clear(s);
        self.mark_classes::<false>(c, k, s);
        let t = &self.v.t;
        if k == t.pawn_kind {
            self.pawns[c][col_of(s)] -= 1;
            self.pawn_key ^= KEYS.psq[p as usize][s as usize];
        }
        if HASH {
            self.hash ^= KEYS.psq[p as usize][s as usize];
        }
        p
    }

    /// Adds (`ON`) or removes square `s` in colour index `c`'s royal, leaper, mobile, stepper
    /// and slider sets that list kind `k`, by masks rather than a branch a set ([`super::class_masks`]),
    /// and counts a royal in or out of `royal_count`.
    #[inline(always)]
    fn mark_classes<const ON: bool>(&mut self, c: usize, k: u8, s: Sq) {
        let (w, bit) = (s as usize >> 6, 1u64 << (s & 63));
        let masks = super::class_masks(&self.v.t, k);
        let royal = (masks[0] & 1) as u32;
        if ON {
            self.royal_count[c] += royal;
        } else {
            self.royal_count[c] -= royal;
        }
        for (sets, m) in [
            &mut self.royals,
            &mut self.leapers,
            &mut self.mobile,
            &mut self.steppers,
            &mut self.orth,
            &mut self.diag,
        ]
        .into_iter()
        .zip(masks)
        {
            if ON {
                sets[c].0[w] |= bit & m;
            } else {
                sets[c].0[w] &= !(bit & m);
            }
        }
    }

    /// Pushes a move's undo record, counting the position before it in the history filter.
    #[inline]
    fn push_undo(&mut self, u: Undo) {
        let slot = &mut self.seen[repeat_slot(u.hash)];
        *slot = slot.wrapping_add(1);
        self.stack.push(u);
    }

    /// Pops the last undo record, taking its position out of the history filter.
    #[inline]
    fn pop_undo(&mut self) -> Option<Undo> {
        let u = self.stack.pop()?;
        let slot = &mut self.seen[repeat_slot(u.hash)];
        *slot = slot.wrapping_sub(1);
        Some(u)
    }

    /// Puts a captured piece into `us`'s hand (drop variants only).
    #[inline]
    fn capture_to_hand(&mut self, us: Color, captured: u8) {
        let t = &self.v.t;
        if self.v.drops && t.royal_mask >> kind_of(captured) & 1 == 0 {
            let hk = t.hand_kind[kind_of(captured) as usize] as usize;
            let n = self.hands[us.idx()][hk];
            self.hands[us.idx()][hk] = n + 1;
            self.hash ^= KEYS.hand_key(us.idx(), hk, n) ^ KEYS.hand_key(us.idx(), hk, n + 1);
        }
    }

    #[inline]
    fn uncapture_from_hand(&mut self, us: Color, captured: u8) {
        let t = &self.v.t;
        if self.v.drops && t.royal_mask >> kind_of(captured) & 1 == 0 {
            let hk = t.hand_kind[kind_of(captured) as usize] as usize;
            self.hands[us.idx()][hk] -= 1;
        }
    }

    /// The undo record of `m` before anything is captured or moved.
    #[inline]
    fn undo_record(&self, m: Move) -> Undo {
        Undo {
            mv: m,
            captured: EMPTY,
            captured_mid: EMPTY,
            hash: self.hash,
            cs: self.cs,
            moved: EMPTY,
            reversible: self.reversible() as u32 + 1,
            mob: self.mob,
        }
    }

    /// The hash [`Self::make`] gives `m` (pseudo-legal), computed without making it, for
    /// prefetching the hash table's entry early: exact but for a capture of a lion that sets
    /// a counter-strike square (chu), whose key is left out.
    #[inline]
    pub fn key_after(&self, m: Move) -> u64 {
        let us = self.side;
        let mut h = self.hash ^ KEYS.side;
        if self.cs != 0 {
            h ^= KEYS.cs[self.cs as usize];
        }
        let to = m.to();
        if m.is_drop() {
            let k = m.drop_kind();
            let n = self.hands[us.idx()][k as usize];
            return h
                ^ KEYS.hand_key(us.idx(), k as usize, n)
                ^ KEYS.hand_key(us.idx(), k as usize, n.wrapping_sub(1))
                ^ KEYS.psq[make_piece(k, us) as usize][to as usize];
        }
        let from = m.from();
        let p = self.board[from as usize];
        h ^= KEYS.psq[p as usize][from as usize];
        let mut hands = self.hands[us.idx()];
        let t = &self.v.t;
        for s in [m.mid(), if to != from { to } else { 0 }] {
            let q = self.board[s as usize];
            if s == 0 || q == EMPTY {
                continue;
            }
            h ^= KEYS.psq[q as usize][s as usize];
            if self.v.drops && t.royal_mask >> kind_of(q) & 1 == 0 {
                let hk = t.hand_kind[kind_of(q) as usize] as usize;
                h ^= KEYS.hand_key(us.idx(), hk, hands[hk]) ^ KEYS.hand_key(us.idx(), hk, hands[hk] + 1);
                hands[hk] += 1;
            }
        }
        let np = if m.is_promotion() {
            make_piece(t.promote[kind_of(p) as usize], us)
        } else {
            p
        };
        h ^ KEYS.psq[np as usize][to as usize]
    }

    /// Makes a move. The move must be pseudo-legal in this position.
    pub fn make(&mut self, m: Move) {
        let us = self.side;
        let mut u = self.undo_record(m);
        if self.cs != 0 {
            self.hash ^= KEYS.cs[self.cs as usize];
        }
        let mut new_cs = 0;
        let to = m.to();
        // The pieces whose mobility the move may change, and their mobility before it.
        let touched = self.mobility_before(m);
        if m.is_drop() {
            let k = m.drop_kind();
            let n = self.hands[us.idx()][k as usize];
            self.hands[us.idx()][k as usize] = n - 1;
            self.hash ^= KEYS.hand_key(us.idx(), k as usize, n) ^ KEYS.hand_key(us.idx(), k as usize, n - 1);
            self.put::<true>(to, make_piece(k, us));
        } else {
            let from = m.from();
            let p = self.remove::<true>(from);
            u.moved = p;
            let mid = m.mid();
            if mid != 0 && self.board[mid as usize] != EMPTY {
                let cm = self.remove::<true>(mid);
                u.captured_mid = cm;
                self.capture_to_hand(us, cm);
            }
            if self.board[to as usize] != EMPTY {
                let cap = self.remove::<true>(to);
                u.captured = cap;
                self.capture_to_hand(us, cap);
            }
            let np = if m.is_promotion() {
                make_piece(self.v.t.promote[kind_of(p) as usize], us)
            } else {
                p
            };
            self.put::<true>(to, np);
            if self.v.lion_rules {
                let lions = self.v.t.lion_mask;
                if lions >> kind_of(p) & 1 == 0 {
                    if u.captured != EMPTY && lions >> kind_of(u.captured) & 1 != 0 {
                        new_cs = to;
                    } else if u.captured_mid != EMPTY && lions >> kind_of(u.captured_mid) & 1 != 0 {
                        new_cs = mid;
                    }
                }
            }
        }
        self.mobility_after(touched);
        // Without drops a capture or a promotion is for good (see `Undo::reversible`).
        if !self.v.drops && (u.captured != EMPTY || u.captured_mid != EMPTY || m.is_promotion()) {
            u.reversible = 0;
        }
        self.side = us.flip();
        self.hash ^= KEYS.side;
        self.ply += 1;
        self.cs = new_cs;
        if new_cs != 0 {
            self.hash ^= KEYS.cs[new_cs as usize];
        }
        self.push_undo(u);
        debug_assert_eq!(self.check_invariants(), Ok(()), "after make");
    }

    /// Passes the move to the opponent (null move, for the search's null-move pruning).
    pub fn make_null(&mut self) {
        let u = self.undo_record(Move::NONE);
        if self.cs != 0 {
            self.hash ^= KEYS.cs[self.cs as usize];
        }
        self.cs = 0;
        self.side = self.side.flip();
        self.hash ^= KEYS.side;
        self.ply += 1;
        self.push_undo(u);
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self) {
        if let Some(u) = self.pop_undo() {
            self.side = self.side.flip();
            self.ply -= 1;
            self.hash = u.hash;
            self.cs = u.cs;
        }
    }

    /// Takes back the last move made.
    ///
    /// # Panics
    /// If no move has been made.
    pub fn unmake(&mut self) {
        let u = self.pop_undo().expect("unmake without make");
        let m = u.mv;
        let us = self.side.flip();
        self.side = us;
        self.ply -= 1;
        let to = m.to();
        if m.is_drop() {
            self.remove::<false>(to);
            self.hands[us.idx()][m.drop_kind() as usize] += 1;
        } else {
            self.remove::<false>(to);
            if u.captured != EMPTY {
                self.put::<false>(to, u.captured);
                self.uncapture_from_hand(us, u.captured);
            }
            if u.captured_mid != EMPTY {
                self.put::<false>(m.mid(), u.captured_mid);
                self.uncapture_from_hand(us, u.captured_mid);
            }
            self.put::<false>(m.from(), u.moved);
        }
        self.hash = u.hash;
        self.cs = u.cs;
        self.mob = u.mob;
        debug_assert_eq!(self.check_invariants(), Ok(()), "after unmake");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn key_after_is_the_hash_make_gives() {
        for v in crate::variant::all() {
            let mut tested = 0;
            crate::eval::random_game(v, 0x2F1B_77C0_93A5_DE41, 160, |pos| {
                let mut pos = pos.clone();
                for m in pos.legal_moves() {
                    let want = pos.key_after(m);
                    pos.make(m);
                    // A lion's capture that sets a counter-strike square is the one exception.
                    if pos.cs == 0 {
                        assert_eq!(want, pos.hash(), "{} {m:?}", v.name);
                        tested += 1;
                    }
                    pos.unmake();
                }
            });
            assert!(tested > 500, "{}: {tested}", v.name);
        }
    }
}
