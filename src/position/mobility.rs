//! The weighted mobility of each side (`Position::mob`), kept up to date move by move in the
//! variants whose evaluation allows it (`crate::eval::incremental_mobility`: every atom that
//! gives mobility slides along one of the eight directions, and the evaluation walks no
//! attack maps).
//!
//! Invariant: with at least `IncMobility::min_pieces` pieces on the board, `mob[c]` is the
//! sum over `c`'s pieces of their weighted mobility (`crate::eval::weighted_mobility`), as a
//! full walk gives (`check_invariants` compares). With fewer, `mob` is not kept (a move
//! from such a position leaves it as it was). It holds by induction: the setup counts in
//! full; a move from a position with enough pieces updates exactly; without drops a move
//! from one with fewer leads to one with fewer still; and `unmake` restores the sums saved
//! by `make` for the very position it returns to.
//!
//! Why the update is exact: a move changes the squares it empties or fills (origin,
//! destination, a double move's middle square). A piece whose slides, on the board before
//! the move, reach none of those squares (the squares before its first blocker, and the
//! blocker) reads only unchanged squares, before and after, so its mobility stays. So the
//! pieces to count again are those on the changed squares and, of the others, the slides
//! that reach one of them (a slide is a line: only that one of the piece's slides passes
//! there), found by walking out from each changed square to the first piece in each
//! direction, all on the board before the move; after the move, the same pieces and slides
//! are counted again (the pieces now on the changed squares, the others where they stood).

use super::Position;
use crate::attack::DIR_OFF;
use crate::eval::{IncMobility, weighted_mobility, weighted_ray};
use crate::geometry::Sq;
use crate::piece::{Color, EMPTY, WALL, color_of, kind_of};
use arrayvec::ArrayVec;

/// What a move touches: squares whose pieces count again in full (`ALL`), and single
/// slides (a square and the index of the slide's direction in `DIR_OFF`). At most three
/// changed squares, each with up to eight slides to it.
pub(super) type Touched = ArrayVec<(Sq, u8), 27>;

/// The direction of a [`Touched`] entry that stands for all of a piece's slides.
const ALL: u8 = 8;

impl Position {
    /// Whether the sums are kept in this position: the variant allows it, with enough
    /// pieces on the board (`IncMobility::min_pieces`).
    #[inline]
    fn mobility_kept(&self, inc: &IncMobility) -> bool {
        self.occ[0].count() + self.occ[1].count() >= inc.min_pieces
    }

    /// Stops keeping the sums (for a search whose evaluation does not read them, such as a
    /// network that is not added to the handcrafted evaluation): its moves then skip the
    /// update. The handcrafted evaluation still gives the same scores, by walking the pieces.
    pub fn stop_keeping_mobility(&mut self) {
        self.mob_inc = None;
    }

    /// The weighted mobility of each side, where the position keeps it.
    #[inline]
    pub(crate) fn mobility_sums_kept(&self) -> Option<[i32; 2]> {
        self.mob_inc.filter(|inc| self.mobility_kept(inc)).map(|_| self.mob)
    }

    /// Before a move: where the sums are kept, what the move touches and its weighted mobility
    /// (for [`Self::mobility_after`]).
    #[inline]
    pub(super) fn mobility_before(&self, m: crate::moves::Move) -> Option<(&'static IncMobility, Touched, [i32; 2])> {
        let inc = self.mob_inc.filter(|inc| self.mobility_kept(inc))?;
        let to = m.to();
        let t = if m.is_drop() {
            self.mobility_touched(inc, &[to])
        } else if m.mid() != 0 {
            self.mobility_touched(inc, &[m.from(), m.mid(), to])
        } else {
            self.mobility_touched(inc, &[m.from(), to])
        };
        let before = self.mobility_of(inc, &t);
        Some((inc, t, before))
    }

    /// After the move: brings the sums up to date from [`Self::mobility_before`]'s answer.
    #[inline]
    pub(super) fn mobility_after(&mut self, touched: Option<(&'static IncMobility, Touched, [i32; 2])>) {
        if let Some((inc, t, before)) = touched {
            let after = self.mobility_of(inc, &t);
            for c in 0..2 {
                self.mob[c] += after[c] - before[c];
            }
        }
    }

    /// The full weighted mobility of each side (for setup and the invariant check).
    pub(super) fn mobility_sums(&self, inc: &IncMobility) -> [i32; 2] {
        let mut m = [0; 2];
        for c in Color::BOTH {
            for sq in self.mobile[c.idx()].iter() {
                m[c.idx()] += weighted_mobility(self, inc, sq, c, kind_of(self.board[sq as usize]));
            }
        }
        m
    }

    /// What a change of the squares `changed` may alter, read on the board as it stands
    /// (before the change): all slides of the pieces on `changed`, and each slide of another
    /// piece that reaches one of them.
    pub(super) fn mobility_touched(&self, inc: &IncMobility, changed: &[Sq]) -> Touched {
        let b = &self.board;
        let mut out = Touched::new();
        for &s in changed {
            if !out.contains(&(s, ALL)) {
                out.push((s, ALL));
            }
        }
        for &s in changed {
            for (i, &off) in DIR_OFF.iter().enumerate() {
                let x = self.first_on_line(s, off);
                let q = b[x as usize];
                if q == WALL {
                    continue;
                }
                // Whether the piece slides back along `off`, to `s`.
                let back = opposite(i);
                let e = (x, back as u8);
                if inc.dirs[color_of(q).idx()][kind_of(q) as usize] >> back & 1 != 0 && !out.contains(&e) && !out.contains(&(x, ALL)) {
                    out.push(e);
                }
            }
        }
        out
    }

    /// The weighted mobility of `touched` on the board as it stands, per side.
    pub(super) fn mobility_of(&self, inc: &IncMobility, touched: &[(Sq, u8)]) -> [i32; 2] {
        let mut m = [0; 2];
        for &(s, d) in touched {
            let q = self.board[s as usize];
            if q != EMPTY {
                let c = color_of(q);
                m[c.idx()] += if d == ALL {
                    weighted_mobility(self, inc, s, c, kind_of(q))
                } else {
                    weighted_ray(self, inc, s, c, kind_of(q), d as usize)
                };
            }
        }
        m
    }
}

/// The index in `DIR_OFF` of the direction opposite to the `i`-th (they go round the
/// compass in order).
const fn opposite(i: usize) -> usize {
    (i + 4) & 7
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chu_keeps_its_mobility_move_by_move_and_cannon_variants_walk_it() {
        let by = |n: &str| crate::variant::Variant::by_name(n).expect("variant");
        assert!(crate::eval::incremental_mobility(by("chushogi")).is_some());
        // Cannons hop: their mobility depends on squares beyond the first piece.
        assert!(crate::eval::incremental_mobility(by("cannonshosu")).is_none());
        // Lion double moves, igui and promotions keep the sums equal to a full walk.
        let v = by("chushogi");
        let mut pos = Position::startpos(v);
        let (mut doubles, mut fewer) = (0, 0);
        for i in 0..600usize {
            let moves = pos.legal_moves();
            // Lion double captures first, then captures, so that pieces leave the board.
            let Some(&m) = moves
                .iter()
                .find(|m| m.mid() != 0 && pos.is_capture(**m))
                .or(moves.iter().find(|m| pos.is_capture(**m)))
                .or(moves.get(i * 7919 % moves.len().max(1)))
            else {
                break;
            };
            doubles += (m.mid() != 0) as u32;
            pos.make(m);
            let inc = pos.mob_inc.expect("chu");
            match pos.mobility_sums_kept() {
                Some(kept) => assert_eq!(kept, pos.mobility_sums(inc), "after {i} moves"),
                // Too few pieces left for the sums to be kept.
                None => fewer += 1,
            }
        }
        let plies = pos.history().len();
        assert!(
            doubles > 0 && fewer > 0 && plies > 100,
            "{doubles} double moves, {fewer} plies with few pieces, of {plies}"
        );
        // Back through the positions with few pieces, the sums are exact again where kept.
        while !pos.history().is_empty() {
            pos.unmake();
            if let Some(kept) = pos.mobility_sums_kept() {
                assert_eq!(kept, pos.mobility_sums(pos.mob_inc.expect("chu")));
            }
        }
        assert!(pos.mobility_sums_kept().is_some());
    }

    #[test]
    fn opposite_directions_cancel() {
        for (i, &d) in DIR_OFF.iter().enumerate() {
            assert_eq!(DIR_OFF[opposite(i)], -d);
        }
    }
}
