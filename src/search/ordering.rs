//! Move ordering of the main and quiescence searches, and the tables it learns from.
//!
//! The order at a node: the hash move; captures that do not lose material by exchange
//! evaluation, by victim, then attacker, then capture history; killers (the newer first); the
//! counter move; quiet moves by history plus continuation history; captures that lose their
//! exchange last. Promotions gain [`PROMOTION`]. The main search orders in stages, as it
//! generates: the captures ([`Searcher::order_lazy`]); once the leading ones are done, the
//! killers and counter move legal here ([`Searcher::refuters`], the first of the tail by
//! score) before the other moves are generated; then those ([`Searcher::score_tail`] and
//! [`Searcher::place_tail`]), so that a cutoff among the first moves spares the generation
//! and scoring of the rest. The result is the order of one full sort but for the quiet
//! moves after the refuters, scored with the histories as those left them, and the quiet
//! moves that late move pruning is sure to skip, dropped unsorted
//! ([`Searcher::drop_quiet_tail`]).
//!
//! Invariants: sort keys ([`order_key`]) are distinct within a list (the index breaks ties), so
//! the order never depends on the sort's stability; history scores stay within
//! `±HISTORY_MAX` (gravity); the capture history is indexed by piece-to index times the
//! variant's kind count plus the captured kind.

use super::conthist::{NO_MOVE, gravity};
use super::{HISTORY_MAX, Searcher, history_bonus};
use crate::moves::{MAX_MOVES, Move, MoveList};
use crate::piece::{EMPTY, kind_of};

/// Divisor of the capture history in a capture's ordering score (a victim is worth 16 times
/// its value there, so the history reorders captures of pieces of about the same value).
const CAPT_DIV: i32 = 2;
/// Entries of the history and counter-move tables (see `Searcher::hist_index`).
pub(super) const HIST_SIZE: usize = 2 * 2 * 256 * 256;
/// Ordering score bonus of a promotion.
const PROMOTION: i32 = 1 << 22;
/// Ordering score offset of a capture that loses its exchange test (below every quiet move).
const LOSING: i32 = 1 << 22;
/// Lowest ordering score of the moves that lead the list (the hash move and the captures
/// placed as winning): above every quiet move, killer and promotion included.
const LEADING: i32 = 15 << 20;
/// Moves of a node's ordered tail (its quiet moves) placed one by one by picking the best
/// left, before the rest is sorted at once (see `Searcher::place_tail`).
pub(super) const TAIL_PICKS: usize = 2;
/// Most moves of a tail placed by picking where the quiet moves after them are pruned (see
/// `Searcher::drop_quiet_tail`).
pub(super) const LATE_PICKS: usize = 8;

/// Which captures move ordering tests by exchange evaluation before placing them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Exchange {
    /// None: every capture is placed as if it passed.
    Skip,
    /// Promotions only; the caller tests the others when their turn comes.
    Lazy,
    /// All of them.
    All,
}

impl Searcher<'_> {
    /// Index of move `m` of side `colour` (0 or 1) in the history and counter-move tables
    /// ([`HIST_SIZE`] entries): its colour, whether it drops, its origin (a drop's kind) and
    /// destination. The colour keeps apart two moves that read the same, above all the drops of
    /// one kind on one square by either side.
    fn hist_index(m: Move, colour: usize) -> usize {
        colour << 17 | (m.is_drop() as usize) << 16 | (m.from() as usize) << 8 | m.to() as usize
    }

    /// The side to move's index.
    pub(super) fn stm(&self) -> usize {
        self.pos.side_to_move().idx()
    }

    /// Orders moves: hash move, captures that do not lose material (SEE) by victim then
    /// attacker, promotions, killers, quiet moves by history, and losing captures last.
    pub(super) fn order(&mut self, moves: &mut MoveList, tt_move: Move, ply: usize) {
        self.order_with(moves, tt_move, ply, Exchange::All);
    }

    /// The first stage of [`Self::order`] for the main search, with the exchange test left for
    /// later but for promotions: the hash move and the captures (a promotion among them only if
    /// it passes the test; the others are placed as if they passed) lead the list in order,
    /// and the rest follows unordered, for [`Self::score_tail`] once the search reaches it (a
    /// cutoff before then spares the scoring and the sort of the quiet moves).
    /// Returns how many captures lead the list (the hash move not counted); the caller tests
    /// them when their turn comes and sends those that lose to the end.
    pub(super) fn order_lazy(&mut self, moves: &mut MoveList, tt_move: Move, ply: usize) -> usize {
        let (counter, rows) = (self.counter_move(), self.cont_rows(ply));
        let mut head: arrayvec::ArrayVec<(i64, Move), MAX_MOVES> = arrayvec::ArrayVec::new();
        let mut tail = MoveList::new();
        for (i, &m) in moves.iter().enumerate() {
            if m == tt_move || self.pos.is_capture(m) {
                let s = self.move_score(m, tt_move, counter, rows, ply, Exchange::Lazy);
                if s >= LEADING {
                    head.push((order_key(s, i), m));
                    continue;
                }
            }
            tail.push(m);
        }
        let captures = head.iter().filter(|e| e.1 != tt_move).count();
        let n = head.len();
        place_sorted(&mut moves[..n], &mut head);
        moves[n..].copy_from_slice(&tail);
        captures
    }

    /// The second stage of [`Self::order_lazy`]: scores `moves`, the part it left unordered
    /// (quiet moves, and promotions that capture but lose the exchange), as [`Self::order`]
    /// would, into this ply's tail keys; [`Self::place_tail`] then puts them in order one by
    /// one as the search reaches them.
    pub(super) fn score_tail(&mut self, moves: &[Move], ply: usize) {
        let (counter, rows) = (self.counter_move(), self.cont_rows(ply));
        let mut keys = std::mem::take(&mut self.tail[ply]);
        keys.clear();
        for (i, &m) in moves.iter().enumerate() {
            // `move_score` without the hash move (never in the tail) and with one capture test.
            let s = if self.pos.is_capture(m) {
                // Only a promotion that lost its exchange test is left here.
                self.pos.captured_value(m) - LOSING + PROMOTION
            } else {
                self.quiet_score(m, counter, rows, ply) + if m.is_promotion() { PROMOTION } else { 0 }
            };
            keys.push((order_key(s, i), m));
        }
        self.tail[ply] = keys;
    }

    /// Drops the quiet moves (neither captures nor promotions) from this ply's tail keys not
    /// yet placed (from the `k`-th on), keeping the order of the others; returns how many
    /// are left.
    pub(super) fn drop_quiet_tail(&mut self, ply: usize, k: usize) -> usize {
        let keys = &mut self.tail[ply];
        let mut kept = k;
        for j in k..keys.len() {
            if keys[j].1.is_promotion() {
                keys[kept] = keys[j];
                kept += 1;
            }
        }
        keys.truncate(kept);
        kept - k
    }

    /// The killers and the counter move of the node at `ply` that are legal non-captures
    /// here, but `tt_move`, in the order [`Self::score_tail`] gives them: the first moves of
    /// the tail (their scores are above those of the others), so the search can try them
    /// before it generates the rest.
    pub(super) fn refuters(&mut self, tt_move: Move, ply: usize) -> arrayvec::ArrayVec<Move, 3> {
        let counter = self.counter_move();
        let mut scored: arrayvec::ArrayVec<(i64, Move), 3> = arrayvec::ArrayVec::new();
        let candidates = [self.killers[ply][0], self.killers[ply][1], counter];
        for (j, m) in candidates.into_iter().enumerate() {
            if m == Move::NONE || m == tt_move || scored.iter().any(|e| e.1 == m) || self.pos.is_capture(m) || !self.pos.is_legal(m) {
                continue;
            }
            let s = self.move_score(m, Move::NONE, counter, (None, None), ply, Exchange::Skip);
            scored.push((order_key(s, j), m));
        }
        scored.sort_unstable_by_key(|e| e.0);
        scored.into_iter().map(|e| e.1).collect()
    }

    /// Writes the `k`-th move of the ordered tail (see [`Self::score_tail`]) to `moves[k]`,
    /// `moves` being the tail and its first `k` moves already placed: the first `picks`
    /// (usually [`TAIL_PICKS`]) by picking the best left (most nodes cut off within them),
    /// the rest by sorting them all at once. Returns how many moves are placed now. The keys
    /// are distinct, so the order is that of one full sort.
    pub(super) fn place_tail(&mut self, moves: &mut [Move], ply: usize, k: usize, picks: usize) -> usize {
        let keys = &mut self.tail[ply][k..];
        if k < picks {
            let best = keys.iter().enumerate().min_by_key(|e| e.1.0).map_or(0, |e| e.0);
            keys.swap(0, best);
            moves[k] = keys[0].1;
            k + 1
        } else {
            place_sorted(&mut moves[k..], keys);
            moves.len()
        }
    }

    /// [`Self::order`] with the captures that take the exchange test given by `see`; the others
    /// are placed as if they passed (the quiescence search tests them when their turn comes).
    pub(super) fn order_with(&mut self, moves: &mut MoveList, tt_move: Move, ply: usize, see: Exchange) {
        let (counter, rows) = (self.counter_move(), self.cont_rows(ply));
        let mut scored: arrayvec::ArrayVec<(i64, Move), MAX_MOVES> = arrayvec::ArrayVec::new();
        for (i, &m) in moves.iter().enumerate() {
            let s = self.move_score(m, tt_move, counter, rows, ply, see);
            scored.push((order_key(s, i), m));
        }
        place_sorted(moves, &mut scored);
    }

    /// The ordering score of `m` (higher first): the hash move; captures by victim then
    /// attacker (those that take the exchange test given by `see` and fail it below the quiet
    /// moves); killers; the counter move; quiet moves by history. Promotions gain
    /// [`PROMOTION`].
    fn move_score(&mut self, m: Move, tt_move: Move, counter: Move, rows: (Option<usize>, Option<usize>), ply: usize, see: Exchange) -> i32 {
        let s = if m == tt_move {
            1 << 30
        } else if self.pos.is_capture(m) {
            let victim = self.pos.captured_value(m);
            let attacker = self.pos.variant().piece(kind_of(self.pos.piece_at(m.from()))).value;
            let test = see == Exchange::All || (see == Exchange::Lazy && m.is_promotion());
            if !test || self.pos.see_ge(m, 0) {
                (1 << 24) + victim * 16 - attacker / 8 + self.capt_stat(m) / CAPT_DIV
            } else {
                victim - LOSING
            }
        } else {
            self.quiet_score(m, counter, rows, ply)
        };
        s + if m.is_promotion() { PROMOTION } else { 0 }
    }

    /// [`Self::move_score`] of a non-capture other than the hash move, before the promotion
    /// bonus: killers, the counter move, then history.
    #[inline(always)]
    fn quiet_score(&self, m: Move, counter: Move, rows: (Option<usize>, Option<usize>), ply: usize) -> i32 {
        let [k0, k1] = self.killers[ply];
        if m == k0 {
            1 << 23
        } else if m == k1 {
            (1 << 23) - 1
        } else if m == counter {
            (1 << 23) - 2
        } else {
            self.quiet_in(m, self.learned.cont.index(&self.pos, m), rows, self.stm()).min(1 << 22)
        }
    }

    /// Capture-history slot of the capture `m` (not yet made): its piece-to index and the
    /// kind it takes ([`crate::position::Position::captured_piece`]); the variant's kinds are the stride.
    fn capt_slot(&self, m: Move) -> usize {
        let victim = kind_of(self.pos.captured_piece(m)) as usize;
        self.learned.cont.index(&self.pos, m) as usize * self.learned.variant.pieces.len() + victim.saturating_sub(1)
    }

    /// Capture-history score of the capture `m` (not yet made).
    fn capt_stat(&self, m: Move) -> i32 {
        self.learned.capt[self.capt_slot(m)] as i32
    }

    /// Moves the capture history of `m` (not yet made) by `bonus`.
    fn capt_update(&mut self, m: Move, bonus: i32) {
        let i = self.capt_slot(m);
        self.learned.capt[i] = gravity(self.learned.capt[i] as i32, bonus, HISTORY_MAX) as i16;
    }

    /// Piece-to indices of the previous move and the one before it at `ply`.
    fn cont_prev(&self, ply: usize) -> (u32, u32) {
        let at = |back: usize| if ply >= back { self.moved[ply - back] } else { NO_MOVE };
        (at(1), at(2))
    }

    /// Continuation-history rows (see [`super::conthist::ContHist::row`]) of the previous move and the one before
    /// it at `ply`.
    fn cont_rows(&self, ply: usize) -> (Option<usize>, Option<usize>) {
        let (p1, p2) = self.cont_prev(ply);
        (self.learned.cont.row(p1), self.learned.cont.row(p2))
    }

    /// History score of a quiet move `m` of side `colour` with its piece-to index `c` (for a
    /// move already made, as for one not yet made): its history plus its continuation scores
    /// after the previous move and the one before.
    pub(super) fn quiet_stat(&self, m: Move, c: u32, ply: usize, colour: usize) -> i32 {
        self.quiet_in(m, c, self.cont_rows(ply), colour)
    }

    /// [`Self::quiet_stat`] with the continuation rows given.
    fn quiet_in(&self, m: Move, c: u32, (r1, r2): (Option<usize>, Option<usize>), colour: usize) -> i32 {
        self.learned.history[Self::hist_index(m, colour)] + self.learned.cont.get_in(r1, c) + self.learned.cont.get_in(r2, c)
    }

    /// History index of the move that led here (`None` at the root of the game or after a
    /// null move): the slot of its counter move.
    fn prev_index(&self) -> Option<usize> {
        self.pos
            .history()
            .last()
            .filter(|u| u.mv != Move::NONE)
            .map(|u| Self::hist_index(u.mv, self.stm() ^ 1))
    }

    /// The remembered refutation of the move that led here (`Move::NONE` if none).
    fn counter_move(&self) -> Move {
        self.prev_index().map_or(Move::NONE, |i| self.learned.counter[i])
    }

    /// A quiet move `m` refuted this node at `depth`: it becomes a killer and the counter
    /// move, and its history and continuation scores gain while the other quiet moves `tried`
    /// before it (it among them) lose, by `history_bonus(depth)` with gravity.
    pub(super) fn reward_quiet(&mut self, m: Move, tried: &[Move], depth: i32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        if let Some(i) = self.prev_index() {
            self.learned.counter[i] = m;
        }
        let bonus = history_bonus(depth);
        let (p1, p2) = self.cont_prev(ply);
        let stm = self.stm();
        for &q in tried {
            let h = &mut self.learned.history[Self::hist_index(q, stm)];
            let b = if q == m { bonus } else { -bonus };
            *h = gravity(*h, b, HISTORY_MAX);
            let c = self.learned.cont.index(&self.pos, q);
            self.learned.cont.update(p1, c, b, HISTORY_MAX);
            self.learned.cont.update(p2, c, b, HISTORY_MAX);
        }
    }

    /// No move of this node (at `ply`, at least 2) beat alpha at `depth`: the opponent's move
    /// that led here, if quiet, refuted the node above, and its history and continuation
    /// scores (after the two moves before it) gain `history_bonus(depth)` (Stockfish's bonus
    /// for the prior counter move).
    pub(super) fn reward_prior(&mut self, depth: i32, ply: usize) {
        let Some(u) = self.pos.history().last() else { return };
        if u.mv == Move::NONE || u.captured != EMPTY || u.mv.is_promotion() {
            return;
        }
        let bonus = history_bonus(depth);
        let i = Self::hist_index(u.mv, self.stm() ^ 1);
        let h = &mut self.learned.history[i];
        *h = gravity(*h, bonus, HISTORY_MAX);
        let c = self.moved[ply - 1];
        // The two moves before it are those before any move made at the ply above.
        let (p2, p3) = self.cont_prev(ply - 1);
        self.learned.cont.update(p2, c, bonus, HISTORY_MAX);
        self.learned.cont.update(p3, c, bonus, HISTORY_MAX);
    }

    /// A move `m` refuted this node at `depth`: if it is a capture, its capture history
    /// gains; the other captures `tried` before it lose, by `history_bonus(depth)` with gravity.
    pub(super) fn reward_captures(&mut self, m: Move, capture: bool, tried: &[Move], depth: i32) {
        let bonus = history_bonus(depth);
        if capture {
            self.capt_update(m, bonus);
        }
        for &c in tried.iter().filter(|&&c| c != m) {
            self.capt_update(c, -bonus);
        }
    }
}

/// Sorts `scored` by key ([`order_key`]) and writes its moves, in that order, over `slots`
/// (as many as there are scored moves).
fn place_sorted(slots: &mut [Move], scored: &mut [(i64, Move)]) {
    scored.sort_unstable_by_key(|e| e.0);
    for (slot, e) in slots.iter_mut().zip(scored.iter()) {
        *slot = e.1;
    }
}

/// Sort key (ascending) of a move scored `s` at index `i` of its list: higher scores first,
/// ties in list order.
fn order_key(s: i32, i: usize) -> i64 {
    (-(s as i64)) << 11 | i as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::search::{Limits, Shared, tt::Tt};
    use crate::variant::Variant;

    #[test]
    fn quiet_history_keeps_the_sides_apart() {
        let v = Variant::by_name("shogi").expect("shogi");
        let (tt, shared) = (Tt::new(1), Shared::default());
        // Both sides hold a pawn; each can drop it on 5e.
        let pos = Position::from_sfen(v, "4k4/9/9/9/9/9/9/9/4K4 b Pp 1").expect("sfen");
        let mut s = Searcher::new(pos, &tt, &shared, Limits::default(), 0);
        let black = s.pos.legal_moves().iter().copied().find(|&m| m.is_drop()).expect("a black drop");
        s.reward_quiet(black, &[black], 6, 2);
        let c = s.learned.cont.index(&s.pos, black);
        let stm = s.stm();
        assert!(s.quiet_in(black, c, (None, None), stm) > 0, "the reward is kept for Black");
        // The same drop by White (the same move code) has learnt nothing.
        assert_eq!(s.quiet_in(black, c, (None, None), stm ^ 1), 0);
    }

    #[test]
    fn a_node_that_fails_low_rewards_the_quiet_move_that_led_to_it() {
        let v = Variant::by_name("shogi").expect("shogi");
        let (tt, shared) = (Tt::new(1), Shared::default());
        let mut s = Searcher::new(Position::startpos(v), &tt, &shared, Limits::default(), 0);
        let first = s.pos.legal_moves()[0];
        s.play(first, 0);
        let reply = s.pos.legal_moves()[0];
        assert!(!s.pos.is_capture(reply));
        s.play(reply, 1);
        s.reward_prior(5, 2);
        let c = s.moved[1];
        let stm = s.stm();
        assert!(s.quiet_in(reply, c, (None, None), stm ^ 1) > 0, "White's reply gains history");
        assert_eq!(s.quiet_in(reply, c, (None, None), stm), 0, "not Black's");
        let row = s.learned.cont.row(s.moved[0]);
        assert!(s.learned.cont.get_in(row, c) > 0, "and its continuation score after Black's move");
        // A capture that led to the node gains nothing.
        let pos = Position::from_sfen(v, "4k4/9/9/9/4s4/4P4/9/9/4K4 b - 1").expect("sfen");
        let mut s = Searcher::new(pos, &tt, &shared, Limits::default(), 0);
        let capture = s.pos.legal_moves().iter().copied().find(|&m| s.pos.is_capture(m)).expect("a capture");
        s.play(capture, 0);
        let before = s.learned.history.to_vec();
        s.reward_prior(5, 1);
        assert_eq!(&s.learned.history[..], &before[..]);
    }

    #[test]
    fn capture_history_rewards_the_capture_that_cut_off_and_orders_by_it() {
        let v = Variant::by_name("shogi").expect("shogi");
        let (tt, shared) = (Tt::new(1), Shared::default());
        // Black's pawns on 7f and 5f can each take a white silver (on 7e and 5e).
        let pos = Position::from_sfen(v, "4k4/9/9/9/2s1s4/2P1P4/9/9/4K4 b - 1").expect("sfen");
        let mut s = Searcher::new(pos, &tt, &shared, Limits::default(), 0);
        let caps: Vec<Move> = s.pos.legal_moves().iter().copied().filter(|&m| s.pos.is_capture(m)).collect();
        assert_eq!(caps.len(), 2);
        let (first, cut) = (caps[0], caps[1]);
        s.reward_captures(cut, true, &[first, cut], 6);
        assert!(s.capt_stat(cut) > 0 && s.capt_stat(first) < 0);
        // Equal victims and attackers: the history decides the order.
        let mut moves = MoveList::new();
        moves.push(first);
        moves.push(cut);
        s.order(&mut moves, Move::NONE, 1);
        assert_eq!(moves[0], cut);
        // A quiet move that cuts off still costs the captures tried before it.
        let quiet = s.pos.legal_moves().iter().copied().find(|&m| !s.pos.is_capture(m)).expect("a quiet move");
        let before = s.capt_stat(cut);
        s.reward_captures(quiet, false, &[cut], 6);
        assert!(s.capt_stat(cut) < before);
    }
}
