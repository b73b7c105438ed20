//! Continuation history: how well a quiet move did after a given earlier move, one table
//! indexed by (earlier move's piece and destination, this move's piece and destination).
//!
//! A piece-to index is `(colour * kinds + kind - 1) * squares + dense square`, with the dense
//! square `row * width + col` of the variant's board. The earlier move is indexed the same way
//! when the table fits in [`MAX_ENTRIES`] (shogi, sho, cannon shogi: at most 32 MB); on
//! larger variants (cannon shosu, chu) it is indexed by its colour and destination only,
//! which keeps the table at a few megabytes.
//!
//! Invariants: every stored value stays within `-HISTORY_MAX..=HISTORY_MAX` (the gravity
//! update guarantees it), so it fits an `i16`; [`NO_MOVE`] (a null move, or no earlier move)
//! reads 0 and is never written.

use super::table_mem::Block;
use crate::geometry::{col_of, row_of};
use crate::moves::Move;
use crate::piece::kind_of;
use crate::position::Position;

/// Piece-to index of "no earlier move" (root, null move).
pub const NO_MOVE: u32 = u32::MAX;

/// Largest table, in entries, before the earlier move loses its piece in the index.
const MAX_ENTRIES: usize = 1 << 24;

/// The table of one search thread.
pub struct ContHist {
    kinds: usize,
    width: usize,
    squares: usize,
    /// Piece-to indices of a move (the width of the table).
    n: usize,
    /// Whether the earlier move is indexed by colour and destination only.
    coarse: bool,
    /// `2^32 / squares + 1`: a product by it, shifted down 32 bits, is the quotient by
    /// `squares` of any piece-to index (exact below `2^32 / squares`; a test checks them all),
    /// so that finding a coarse row takes no division.
    squares_inv: u64,
    table: Block<i16>,
}

impl ContHist {
    /// An empty table for `pos`'s variant.
    pub fn new(pos: &Position) -> ContHist {
        let v = pos.variant();
        let (kinds, squares) = (v.pieces.len(), v.width * v.height);
        let n = 2 * kinds * squares;
        let coarse = n * n > MAX_ENTRIES;
        let rows = if coarse { 2 * squares } else { n };
        ContHist {
            kinds,
            width: v.width,
            squares,
            n,
            coarse,
            squares_inv: (1u64 << 32) / squares as u64 + 1,
            table: Block::new(rows * n),
        }
    }

    /// Piece-to index of move `m` in `pos` (before it is made).
    #[inline]
    pub fn index(&self, pos: &Position, m: Move) -> u32 {
        let kind = if m.is_drop() { m.drop_kind() } else { kind_of(pos.piece_at(m.from())) } as usize;
        let c = pos.side_to_move().idx();
        let to = row_of(m.to()) * self.width + col_of(m.to());
        ((c * self.kinds + kind - 1) * self.squares + to) as u32
    }

    /// Start of the table row of the earlier move `prev` (`None` without one): the slot of a
    /// move `cur` after it is the row plus `cur`. Callers scoring many moves after the same
    /// earlier move take the row once (see [`ContHist::get_in`]).
    #[inline]
    pub fn row(&self, prev: u32) -> Option<usize> {
        if prev == NO_MOVE {
            return None;
        }
        let row = if self.coarse {
            // Colour and destination of the earlier move: its index less the whole
            // (colour, kind) blocks of `squares` before it, then its colour's block of rows.
            let p = prev as usize;
            let blocks = ((prev as u64 * self.squares_inv) >> 32) as usize;
            let colour = (blocks >= self.kinds) as usize;
            colour * self.squares + p - blocks * self.squares
        } else {
            prev as usize
        };
        Some(row * self.n)
    }

    /// Table slot of the move `cur` after the earlier move `prev` (`None` without one).
    #[inline]
    fn slot(&self, prev: u32, cur: u32) -> Option<usize> {
        self.row(prev).map(|r| r + cur as usize)
    }

    /// The score of `cur` in the row `row` of [`ContHist::row`] (0 for `None`).
    #[inline]
    pub fn get_in(&self, row: Option<usize>, cur: u32) -> i32 {
        row.map_or(0, |r| self.table[r + cur as usize] as i32)
    }

    /// Moves the score of `cur` after `prev` by `bonus`, with gravity towards 0 so that it
    /// stays within `max`.
    #[inline]
    pub fn update(&mut self, prev: u32, cur: u32, bonus: i32, max: i32) {
        if let Some(i) = self.slot(prev, cur) {
            self.table[i] = gravity(self.table[i] as i32, bonus, max) as i16;
        }
    }
}

/// A history score `h` moved by `bonus` with gravity towards 0: the result stays within
/// `-max..=max` when `h` does and `|bonus| <= max`.
#[inline]
pub fn gravity(h: i32, bonus: i32, max: i32) -> i32 {
    h + bonus - h * bonus.abs() / max
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// The coarse row of every piece-to index of every variant is its colour's block plus its
    /// destination, as the divisions give it.
    #[test]
    fn coarse_rows_are_colour_and_destination() {
        for v in crate::variant::all() {
            let h = ContHist::new(&Position::startpos(v));
            for p in 0..h.n {
                let want = p / (h.kinds * h.squares) * h.squares + p % h.squares;
                let blocks = ((p as u64 * h.squares_inv) >> 32) as usize;
                assert_eq!(blocks, p / h.squares, "{} {p}", v.name);
                if h.coarse {
                    assert_eq!(h.row(p as u32), Some(want * h.n), "{} {p}", v.name);
                }
            }
        }
    }

    /// Every legal move of a start position gets its own in-range index per (piece, square),
    /// and scores stay bounded however often they are pushed.
    #[test]
    fn indices_are_in_range_and_scores_bounded() {
        for name in ["shogi", "cannonshogi", "cannonshosu", "chushogi"] {
            let v = Variant::by_name(name).expect("variant");
            let mut pos = Position::startpos(v);
            let mut h = ContHist::new(&pos);
            assert_eq!(h.coarse, name.ends_with("shosu") || name == "chushogi", "{name}: {} kinds", v.pieces.len());
            let moves = pos.legal_moves();
            let idx: Vec<u32> = moves.iter().map(|&m| h.index(&pos, m)).collect();
            assert!(idx.iter().all(|&i| (i as usize) < h.n), "{name}");
            let (a, b) = (idx[0], idx[idx.len() - 1]);
            assert_eq!(h.get_in(h.row(NO_MOVE), b), 0);
            for _ in 0..1000 {
                h.update(a, b, 400, 16_384);
                h.update(NO_MOVE, b, 400, 16_384);
            }
            let s = h.get_in(h.row(a), b);
            assert!(s > 10_000 && s <= 16_384, "{name}: {s}");
            assert_eq!(h.get_in(h.row(NO_MOVE), b), 0);
            for _ in 0..1000 {
                h.update(a, b, -400, 16_384);
            }
            assert!(h.get_in(h.row(a), b) >= -16_384);
        }
    }
}
