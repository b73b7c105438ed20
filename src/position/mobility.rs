//! The weighted mobility of each side (`Position::mob`), kept up to date move by move in the
//! variants whose evaluation allows it (`crate::eval::incremental_mobility`: every atom that
//! gives mobility slides along one of the eight directions, and the evaluation walks no
//! attack maps).
//!
//! Invariant: `mob[c]` is the sum over `c`'s pieces of their weighted mobility
//! (`crate::eval::weighted_mobility`), as a full walk gives (`check_invariants` compares).
//!
//! Why the update is exact: a move changes the squares it empties or fills (origin,
//! destination, a double move's middle square). A piece whose slides, on the board before
//! the move, reach none of those squares (the squares before its first blocker, and the
//! blocker) reads only unchanged squares, before and after, so its mobility stays. So the
//! pieces to count again are those on the changed squares and those whose slides reach one
//! of them, found by walking out from each changed square to the first piece in each
//! direction, all on the board before the move; after the move, the same squares are counted
//! again (the pieces now on the changed squares, and the others where they stood).

use super::Position;
use crate::attack::DIR_OFF;
use crate::eval::{IncMobility, weighted_mobility};
use crate::geometry::Sq;
use crate::piece::{Color, EMPTY, WALL, color_of, kind_of};
use arrayvec::ArrayVec;

/// At most three changed squares, each with a piece and up to eight pieces sliding to it.
pub(super) type Touched = ArrayVec<Sq, 27>;

impl Position {
    /// The full weighted mobility of each side (for setup and the invariant check).
    pub(super) fn mobility_sums(&self, inc: &IncMobility) -> [i32; 2] {
        let mut m = [0; 2];
        for (c, ms) in m.iter_mut().enumerate() {
            for sq in self.mobile[c].iter() {
                *ms += weighted_mobility(
                    self,
                    inc,
                    sq,
                    if c == 0 { Color::Black } else { Color::White },
                    kind_of(self.board[sq as usize]),
                );
            }
        }
        m
    }

    /// The squares whose pieces' mobility a change of the squares `changed` may alter, read
    /// on the board as it stands (before the change): `changed` themselves, and the squares
    /// of the pieces sliding to one of them.
    pub(super) fn mobility_touched(&self, inc: &IncMobility, changed: &[Sq]) -> Touched {
        let b = &self.board;
        let mut out = Touched::new();
        for &s in changed {
            if !out.contains(&s) {
                out.push(s);
            }
        }
        for &s in changed {
            for (i, &off) in DIR_OFF.iter().enumerate() {
                let mut x = s as i16 + off;
                let mut q = b[x as u8 as usize];
                while q == EMPTY {
                    x += off;
                    q = b[x as u8 as usize];
                }
                if q == WALL {
                    continue;
                }
                // Whether the piece slides back along `off`, to `s`.
                let back = opposite(i);
                if inc.dirs[color_of(q).idx()][kind_of(q) as usize] >> back & 1 != 0 && !out.contains(&(x as Sq)) {
                    out.push(x as Sq);
                }
            }
        }
        out
    }

    /// The weighted mobility of the pieces on `squares`, per side.
    pub(super) fn mobility_of(&self, inc: &IncMobility, squares: &[Sq]) -> [i32; 2] {
        let mut m = [0; 2];
        for &s in squares {
            let q = self.board[s as usize];
            if q != EMPTY {
                let c = color_of(q);
                m[c.idx()] += weighted_mobility(self, inc, s, c, kind_of(q));
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
        let mut doubles = 0;
        for i in 0..200usize {
            let moves = pos.legal_moves();
            let Some(&m) = moves
                .iter()
                .find(|m| m.mid() != 0 && pos.is_capture(**m))
                .or(moves.get(i * 7919 % moves.len().max(1)))
            else {
                break;
            };
            doubles += (m.mid() != 0) as u32;
            pos.make(m);
            let inc = pos.mob_inc.expect("chu");
            assert_eq!(pos.mob, pos.mobility_sums(inc), "after {i} moves");
        }
        assert!(
            doubles > 0 && pos.history().len() > 100,
            "{doubles} double moves in {} plies",
            pos.history().len()
        );
        while !pos.history().is_empty() {
            pos.unmake();
            assert_eq!(pos.mob, pos.mobility_sums(pos.mob_inc.expect("chu")));
        }
    }

    #[test]
    fn opposite_directions_cancel() {
        for (i, &d) in DIR_OFF.iter().enumerate() {
            assert_eq!(DIR_OFF[opposite(i)], -d);
        }
    }
}
