//! Game end: no legal move (checkmate, stalemate, or a chu side whose last royal was taken)
//! loses; the fourth occurrence of a position (same side to move) is a draw unless one side
//! gave check with every one of its moves in the cycle, who then loses (sennichite; in chu that
//! move is forbidden, which a referee scores the same way).

use crate::piece::Color;
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

    /// How many times the current position (board, hands, side to move) has occurred in the
    /// recorded history, this occurrence included.
    pub fn occurrences(&self) -> usize {
        1 + self.earlier_occurrences().count()
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
        if self.occurrences() < 4 {
            return None;
        }
        // The cycle runs from the first occurrence to now; replay it backwards and note, for
        // each move, whether it left the opponent's royal attacked.
        let first = self.earlier_occurrences().max().unwrap_or(0);
        let mut p = self.clone();
        let mut always_checked = [true, true];
        for _ in 0..first {
            let mover = p.side_to_move().flip();
            if !p.royal_attacked(p.side_to_move()) {
                always_checked[mover.idx()] = false;
            }
            p.unmake();
        }
        match always_checked {
            [true, false] => Some(Outcome::Win(Color::White, "perpetual check")),
            [false, true] => Some(Outcome::Win(Color::Black, "perpetual check")),
            _ => Some(Outcome::Draw("fourth repetition")),
        }
    }
}
