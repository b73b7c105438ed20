//! Accumulators kept per ply of a search, updated from the parent's by the features a move
//! changes instead of summed again over the whole position.
//!
//! Invariant: where `ok[ply]` is set, `acc` at `ply` holds, for Black's view and then
//! White's, the 16-bit feature-weight sums (`quant.rs`) of the position the search stands on
//! at that ply (the searcher clears the flag whenever it makes a move into that ply): exactly
//! the fresh sums, as integer sums are exact in any order. Plain moves, captures,
//! promotions, drops, null moves and double moves (chu's lion) are updated; a double
//! move's capture on its middle square in a variant with drops recomputes the sums. Tests
//! walk random games and compare every update with a fresh sum, score for score.

use super::{HAND_CAP, Network, board_feature, features, hand_feature};
use crate::moves::Move;
use crate::piece::{Color, EMPTY, color_of, kind_of, make_piece};
use crate::position::{Position, Undo};

/// How many plies back [`Stack::catch_up`] looks for valid accumulators.
const CATCH_UP: usize = 8;

/// The per-ply accumulators of one search thread.
pub struct Stack {
    hidden: usize,
    acc: Vec<i16>,
    ok: Vec<bool>,
    feats: Vec<u16>,
}

impl Stack {
    /// Room for `plies` plies of a network with `hidden` units.
    pub fn new(hidden: usize, plies: usize) -> Stack {
        Stack {
            hidden,
            acc: vec![0; plies * 2 * hidden],
            ok: vec![false; plies],
            feats: Vec::with_capacity(256),
        }
    }

    /// Forgets the accumulators of `ply` (a move was made into it).
    #[inline]
    pub fn invalidate(&mut self, ply: usize) {
        if let Some(f) = self.ok.get_mut(ply) {
            *f = false;
        }
    }

    /// The network's output for `pos` (standing at `ply` of the search) from the side to
    /// move's view, in centipawns of the search's scale ([`Network::scaled_output`], as
    /// [`Network::evaluate_output`]); the caller adds its base's score ([`super::Base::score`]),
    /// which the search reads through a cache.
    pub fn output(&mut self, net: &Network, pos: &Position, ply: usize) -> i32 {
        let h = self.hidden;
        if ply >= self.ok.len() || h != net.hidden {
            return net.evaluate_output(pos);
        }
        if !self.ok[ply] {
            let made = (ply > 0 && self.ok[ply - 1] && self.update(net, pos, ply)) || self.catch_up(net, pos, ply);
            if !made {
                self.refresh(net, pos, ply);
            }
            self.ok[ply] = true;
        }
        let at = ply * 2 * h;
        let (black, white) = self.acc[at..at + 2 * h].split_at(h);
        let (us, them) = if pos.side_to_move() == Color::Black { (black, white) } else { (white, black) };
        net.scaled_output(us, them)
    }

    fn refresh(&mut self, net: &Network, pos: &Position, ply: usize) {
        let h = self.hidden;
        for (i, c) in Color::BOTH.into_iter().enumerate() {
            self.feats.clear();
            features(pos, c, &mut self.feats);
            let at = (ply * 2 + i) * h;
            net.accumulate_q(&self.feats, &mut self.acc[at..at + h]);
        }
    }

    /// Updates `ply` from `ply - 1` by the last move; `false` where it cannot.
    fn update(&mut self, net: &Network, pos: &Position, ply: usize) -> bool {
        let Some(&u) = pos.history().last() else { return false };
        self.update_by(net, pos, ply, &u, pos.side_to_move().flip(), pos.piece_at(u.mv.to()))
    }

    /// In a variant without drops, where an earlier ply's accumulators are still valid
    /// (a search may take a node's score from a cache and leave its accumulators unmade),
    /// makes every ply from there up to `ply` in turn by the moves of the history between
    /// them; `false` where no ply within [`CATCH_UP`] is valid. Each move's piece on its
    /// destination is read from its undo record (the piece that moved, promoted or not):
    /// without drops the hands play no part, so the record holds all the update reads.
    fn catch_up(&mut self, net: &Network, pos: &Position, ply: usize) -> bool {
        let v = pos.variant();
        if v.drops || ply < 2 {
            return false;
        }
        let Some(from) = (ply.saturating_sub(CATCH_UP)..ply - 1).rev().find(|&q| self.ok[q]) else {
            return false;
        };
        let history = pos.history();
        if history.len() < ply - from {
            return false;
        }
        let moves = &history[history.len() - (ply - from)..];
        let mut mover = if (ply - from) % 2 == 1 {
            pos.side_to_move().flip()
        } else {
            pos.side_to_move()
        };
        for (q, u) in (from + 1..=ply).zip(moves) {
            let placed = if u.mv.is_promotion() {
                make_piece(v.t.promote[kind_of(u.moved) as usize], mover)
            } else {
                u.moved
            };
            if !self.update_by(net, pos, q, u, mover, placed) {
                return false;
            }
            self.ok[q] = true;
            mover = mover.flip();
        }
        true
    }

    /// Makes `ply`'s accumulators from `ply - 1`'s by the move of `u`, made by `mover`, which
    /// left `placed` on its destination; `false` where it cannot (then `ply` is unchanged).
    /// `pos` is read for its variant and, with drops, its hands (only then must it be the
    /// position right after the move).
    fn update_by(&mut self, net: &Network, pos: &Position, ply: usize, u: &Undo, mover: Color, placed: u8) -> bool {
        let h = self.hidden;
        let (before, after) = self.acc.split_at_mut(ply * 2 * h);
        let (parent, child) = (&before[(ply - 1) * 2 * h..], &mut after[..2 * h]);
        let m = u.mv;
        if m == Move::NONE {
            child.copy_from_slice(parent);
            return true;
        }
        let v = pos.variant();
        // A double move's capture on its middle square would go to a hand with drops.
        if v.drops && u.captured_mid != EMPTY {
            return false;
        }
        // The usual move, a board move that changes no hand and takes at most on its
        // destination: each view's rows found at once and applied without a list.
        if !m.is_drop() && u.captured_mid == EMPTY && (!v.drops || u.captured == EMPTY) {
            let w = &net.quantized().w;
            let row = |f: usize| &w[f * h..(f + 1) * h];
            let gone = super::board_features(v, mover, kind_of(u.moved), m.from());
            let came = super::board_features(v, mover, kind_of(placed), m.to());
            let taken = (u.captured != EMPTY).then(|| super::board_features(v, color_of(u.captured), kind_of(u.captured), m.to()));
            let (child_b, child_w) = child.split_at_mut(h);
            let (parent_b, parent_w) = parent[..2 * h].split_at(h);
            for (view, (child, parent)) in [(child_b, parent_b), (child_w, parent_w)].into_iter().enumerate() {
                match taken {
                    None => super::simd::sub_add(child, parent, row(gone[view]), row(came[view])),
                    Some(t) => super::simd::sub_add_sub(child, parent, row(gone[view]), row(came[view]), row(t[view])),
                }
            }
            return true;
        }
        // (feature owner, kind, square) removed and added, and hand changes as
        // (owner, hand kind index, piece number j, added).
        let to = m.to();
        let mut board: [(Color, u8, u8, bool); 4] = [(mover, 0, 0, false); 4];
        let mut nb = 0;
        let mut hand = None;
        let hand_index = |k: u8| v.t.hand_kinds.iter().position(|&x| x == k);
        if m.is_drop() {
            let k = m.drop_kind();
            board[nb] = (mover, kind_of(placed), to, true);
            nb += 1;
            // The count fell from n + 1 to n: piece number n leaves.
            let n = pos.hand(mover, k) as usize;
            match hand_index(k) {
                Some(i) => hand = Some((i, n, false)),
                None => return false,
            }
        } else {
            board[nb] = (mover, kind_of(u.moved), m.from(), false);
            board[nb + 1] = (mover, kind_of(placed), to, true);
            nb += 2;
            // A double move (chu's lion) may take on its middle square too.
            if u.captured_mid != EMPTY {
                board[nb] = (color_of(u.captured_mid), kind_of(u.captured_mid), m.mid(), false);
                nb += 1;
            }
            if u.captured != EMPTY {
                board[nb] = (color_of(u.captured), kind_of(u.captured), to, false);
                nb += 1;
                let t = &v.t;
                if v.drops && t.royal_mask >> kind_of(u.captured) & 1 == 0 {
                    let hk = t.hand_kind[kind_of(u.captured) as usize];
                    // The count rose from n - 1 to n: piece number n - 1 arrives.
                    let n = pos.hand(mover, hk) as usize;
                    match hand_index(hk) {
                        Some(i) if n >= 1 => hand = Some((i, n - 1, true)),
                        _ => return false,
                    }
                }
            }
        }
        let w = &net.quantized().w;
        for (view, c) in Color::BOTH.into_iter().enumerate() {
            // The rows to add or take, applied in one pass (exact sums in any order).
            let mut rows: arrayvec::ArrayVec<(&[i16], bool), 5> = arrayvec::ArrayVec::new();
            for &(owner, kind, s, add) in &board[..nb] {
                let f = board_feature(v, c, owner, kind, s);
                rows.push((&w[f * h..(f + 1) * h], add));
            }
            if let Some((i, j, add)) = hand
                && j < HAND_CAP
            {
                let f = hand_feature(v, c, mover, i, j);
                rows.push((&w[f * h..(f + 1) * h], add));
            }
            super::simd::apply_rows(&mut child[view * h..(view + 1) * h], &parent[view * h..(view + 1) * h], &rows);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network of 8 units for `v` with small weights drawn from `seed`.
    fn random_net(v: &crate::variant::Variant, seed: u64) -> Network {
        let mut net = Network::zeros(v, 8, crate::nnue::Base::None);
        let mut s = seed;
        for w in net.ft_w.iter_mut().chain(net.ft_b.iter_mut()).chain(net.out_w.iter_mut()) {
            *w = (crate::eval::xorshift(&mut s) % 1001) as f32 / 2000.0 - 0.25;
        }
        net
    }

    #[test]
    fn updated_accumulators_score_as_a_fresh_sum_in_every_variant() {
        for v in crate::variant::all() {
            let net = random_net(v, 17);
            let mut stack = Stack::new(8, 400);
            let mut pos = crate::position::Position::startpos(v);
            let mut seed = 5u64;
            let mut updated = 0;
            for ply in 0..300 {
                let fresh = net.evaluate_output(&pos);
                let got = stack.output(&net, &pos, ply);
                assert_eq!(got, fresh, "{} ply {ply}", v.name);
                updated += (ply > 0) as usize;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let seed = crate::eval::xorshift(&mut seed);
                // Now and then a null move.
                if seed.is_multiple_of(13) && !pos.in_check() {
                    pos.make_null();
                } else {
                    pos.make(moves[(seed % moves.len() as u64) as usize]);
                }
                stack.invalidate(ply + 1);
            }
            assert!(updated > 20, "{}", v.name);
        }
    }

    #[test]
    fn accumulators_catch_up_over_unscored_plies_without_drops() {
        for v in crate::variant::all().into_iter().filter(|v| !v.drops) {
            let net = random_net(v, 41);
            let mut stack = Stack::new(8, 400);
            let mut pos = crate::position::Position::startpos(v);
            let mut seed = 7u64;
            let (mut caught_up, mut promotions) = (0, 0);
            for ply in 0..300 {
                // Only every third ply is scored: the others are left for a later ply to
                // make from the last scored one.
                if ply % 3 == 0 {
                    let fresh = net.evaluate_output(&pos);
                    let got = stack.output(&net, &pos, ply);
                    assert_eq!(got, fresh, "{} ply {ply}", v.name);
                    caught_up += (ply > 0 && stack.ok[ply - 1]) as usize;
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let seed = crate::eval::xorshift(&mut seed);
                if seed.is_multiple_of(11) && !pos.in_check() {
                    pos.make_null();
                } else {
                    let m = moves[(seed % moves.len() as u64) as usize];
                    promotions += m.is_promotion() as usize;
                    pos.make(m);
                }
                stack.invalidate(ply + 1);
            }
            // Every scored ply after the first was made by catching up (the plies between
            // are valid after it).
            assert!(caught_up > 20, "{}: {caught_up}", v.name);
            assert!(promotions > 0 || v.name == "cannonshosu", "{}: no promotion played", v.name);
        }
    }

    #[test]
    fn chu_double_moves_are_updated_as_a_fresh_sum() {
        let v = crate::variant::Variant::by_name("chushogi").expect("chu");
        let net = random_net(v, 23);
        let (mut doubles, mut taking_two) = (0, 0);
        crate::eval::random_game(v, 31, 200, |pos: &Position| {
            let mut stack = Stack::new(8, 4);
            stack.output(&net, pos, 0);
            for m in pos.clone().legal_moves().into_iter().filter(|m| m.mid() != 0) {
                let mut after = pos.clone();
                after.make(m);
                let u = after.history().last().expect("a move");
                doubles += 1;
                taking_two += (u.captured_mid != EMPTY && u.captured != EMPTY) as usize;
                stack.invalidate(1);
                assert!(stack.update(&net, &after, 1), "{m:?} updated");
                stack.ok[1] = true;
                let got = stack.output(&net, &after, 1);
                assert_eq!(got, net.evaluate_output(&after), "{m:?}");
            }
        });
        assert!(doubles > 100 && taking_two > 0, "{doubles} double moves, {taking_two} taking twice");
    }
}
