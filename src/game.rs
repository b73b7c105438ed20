//! Game end: no legal move (checkmate, stalemate, or a chu side whose last royal was taken)
//! loses; the fourth occurrence of a position (same side to move) is a draw unless one side
//! gave check with every one of its moves in the cycle, who then loses (sennichite; in chu that
//! move is forbidden, which a referee scores the same way). With the bare-king option (sho,
//! chu; off by default) a side left with a lone royal loses, unless it bares the other side
//! (draw) or takes its last royal at once. The shogi entering-king declaration (CSA 27-point
//! rule) is [`Position::can_declare`].

use crate::moves::Move;
use crate::piece::{Color, kind_of};
use crate::position::Position;

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The colour won, for the reason given.
    Win(Color, &'static str),
    /// Drawn, for the reason given.
    Draw(&'static str),
}

impl Position {
    /// Whether any royal of `c` is attacked.
    pub fn royal_attacked(&self, c: Color) -> bool {
        self.royals(c).iter().any(|r| self.attacked(r, c.flip()))
    }

    /// For the last `plies` moves (a repetition cycle), whether each side's moves there all
    /// left a royal of the opponent attacked, indexed by colour; `None` when the cycle holds a
    /// null move or is longer than the history. The position is restored before returning.
    pub fn cycle_checkers(&mut self, plies: usize) -> Option<[bool; 2]> {
        let n = self.history().len();
        if plies > n || self.history()[n - plies..].iter().any(|u| u.mv == Move::NONE) {
            return None;
        }
        let moves: Vec<Move> = self.history()[n - plies..].iter().map(|u| u.mv).collect();
        let mut always = [true, true];
        for _ in 0..plies {
            let mover = self.side_to_move().flip();
            if !self.royal_attacked(self.side_to_move()) {
                always[mover.idx()] = false;
            }
            self.unmake();
        }
        for m in moves {
            self.make(m);
        }
        Some(always)
    }

    /// The side that gave check with every one of its moves in the last `plies` moves (a
    /// repetition cycle) while the other side did not: the perpetual checker, who loses.
    pub fn perpetual_checker(&mut self, plies: usize) -> Option<Color> {
        match self.cycle_checkers(plies)? {
            [true, false] => Some(Color::Black),
            [false, true] => Some(Color::White),
            _ => None,
        }
    }

    /// How many times the current position (board, hands, side to move) has occurred in the
    /// recorded history, this occurrence included.
    pub fn occurrences(&self) -> usize {
        1 + self.earlier_occurrences().count()
    }

    /// Whether `c` is bare: one royal and no other piece that can still move.
    pub fn is_bare(&self, c: Color) -> bool {
        let t = &self.variant().t;
        if !self.royals(c).is_single() || (self.variant().drops && t.hand_kinds.iter().any(|&k| self.hand(c, k) > 0)) {
            return false;
        }
        self.occupied(c).iter().all(|s| {
            let k = kind_of(self.piece_at(s));
            t.royal_mask >> k & 1 != 0 || (t.last_rank_choice >> k & 1 != 0 && t.rel_rank[c.idx()][s as usize] == 0)
        })
    }

    /// Whether `c` has material that wins against a bare royal: a live piece other than a
    /// royal or an unpromoted pawn or go-between.
    pub fn can_claim_bare(&self, c: Color) -> bool {
        let t = &self.variant().t;
        self.occupied(c).iter().any(|s| {
            let k = kind_of(self.piece_at(s));
            t.royal_mask >> k & 1 == 0 && t.cheap_mask >> k & 1 == 0 && !(t.last_rank_choice >> k & 1 != 0 && t.rel_rank[c.idx()][s as usize] == 0)
        })
    }

    /// The part of the bare-king verdict that needs no look-ahead: both sides bare (draw), or
    /// the side that just moved left itself bare against winning material (the side to move
    /// wins). The search uses this at every node; the referee adds the side to move's answer.
    pub fn bare_king_settled(&self) -> Option<Outcome> {
        if !self.bare_king() || self.variant().drops {
            return None;
        }
        let us = self.side_to_move();
        let (bare_us, bare_them) = (self.is_bare(us), self.is_bare(us.flip()));
        if bare_us && bare_them {
            Some(Outcome::Draw("both sides bare"))
        } else if bare_them && self.can_claim_bare(us) {
            Some(Outcome::Win(us, "bare king"))
        } else {
            None
        }
    }

    /// The bare-king verdict after the last move, if the rule is on and decides the game.
    /// `respond` says whether the side to move may still answer (take the last royal or bare
    /// the opponent); the referee checks that, the search leaves it to the next ply.
    pub fn bare_king_outcome(&mut self) -> Option<Outcome> {
        if let Some(o) = self.bare_king_settled() {
            return Some(o);
        }
        if !self.bare_king() || self.variant().drops {
            return None;
        }
        let us = self.side_to_move();
        let them = us.flip();
        if self.is_bare(us) && self.can_claim_bare(them) {
            let answers = self.legal_moves().iter().any(|&m| {
                self.make(m);
                let ok = self.royals(them).is_empty() || self.is_bare(them);
                self.unmake();
                ok
            });
            if !answers {
                return Some(Outcome::Win(them, "bare king"));
            }
        }
        None
    }

    /// Entering-king declaration (CSA 27-point rule) for the side to move: its only royal in
    /// the enemy camp and not in check, at least ten other pieces there, and enough points
    /// (rook, bishop and their promotions 5, others 1) among those pieces and the hand.
    pub fn can_declare(&self) -> bool {
        let v = self.variant();
        let (big, need) = v.declaration;
        let us = self.side_to_move();
        let zone = &v.t.zone[us.idx()];
        let royals = self.royals(us);
        if big.is_empty() || !royals.is_single() || !royals.iter().all(|r| zone.has(r)) || self.in_check() {
            return false;
        }
        let points = |k: u8| if big.contains(&v.piece(k).sfen) { 5 } else { 1 };
        let mut count = 0;
        let mut total = 0;
        for s in self.occupied(us).iter().filter(|&s| zone.has(s)) {
            let k = kind_of(self.piece_at(s));
            if v.t.royal_mask >> k & 1 == 0 {
                count += 1;
                total += points(k);
            }
        }
        for &k in &v.t.hand_kinds {
            total += points(k) * self.hand(us, k) as u32;
        }
        count >= 10 && total >= need[us.idx()]
    }

    /// The result if the game is over, else `None`.
    pub fn outcome(&mut self) -> Option<Outcome> {
        let us = self.side_to_move();
        if self.legal_moves().is_empty() {
            let why = if self.royals(us).is_empty() {
                "last royal captured"
            } else if self.in_check() {
                "checkmate"
            } else {
                "no legal move"
            };
            return Some(Outcome::Win(us.flip(), why));
        }
        if let Some(o) = self.bare_king_outcome() {
            return Some(o);
        }
        if self.occurrences() < 4 {
            return None;
        }
        // The cycle runs from the first occurrence to now.
        let first = self.earlier_occurrences().max().unwrap_or(0);
        match self.perpetual_checker(first) {
            Some(c) => Some(Outcome::Win(c.flip(), "perpetual check")),
            None => Some(Outcome::Draw("fourth repetition")),
        }
    }
}
