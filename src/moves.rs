//! Packed moves.
//!
//! A [`Move`] is a `u32`: bits 0-7 destination, 8-15 origin (or, for a drop, the dropped
//! kind), 16-23 an intermediate square for lion-style double moves (0 = none), bit 24
//! promotion, bit 25 drop. A pass is a double move whose destination is its origin and whose
//! intermediate square is empty; igui is the same shape with a capture on the intermediate.

use crate::geometry::Sq;

/// A packed move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u32);

const PROMO: u32 = 1 << 24;
const DROP: u32 = 1 << 25;

impl Move {
    /// The null value (never a legal move).
    pub const NONE: Move = Move(0);

    /// A board move.
    #[inline]
    pub const fn normal(from: Sq, to: Sq, promote: bool) -> Move {
        Move(to as u32 | (from as u32) << 8 | if promote { PROMO } else { 0 })
    }
    /// A double move through `mid`.
    #[inline]
    pub const fn double(from: Sq, mid: Sq, to: Sq) -> Move {
        Move(to as u32 | (from as u32) << 8 | (mid as u32) << 16)
    }
    /// A drop of `kind` on `to`.
    #[inline]
    pub const fn drop(kind: u8, to: Sq) -> Move {
        Move(to as u32 | (kind as u32) << 8 | DROP)
    }
    /// Destination square.
    #[inline]
    pub const fn to(self) -> Sq {
        self.0 as u8
    }
    /// Origin square (meaningless for drops).
    #[inline]
    pub const fn from(self) -> Sq {
        (self.0 >> 8) as u8
    }
    /// Dropped kind (meaningful for drops only).
    #[inline]
    pub const fn drop_kind(self) -> u8 {
        (self.0 >> 8) as u8
    }
    /// Intermediate square of a double move, 0 if none.
    #[inline]
    pub const fn mid(self) -> Sq {
        (self.0 >> 16) as u8
    }
    /// Whether the move promotes.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMO != 0
    }
    /// Whether the move is a drop.
    #[inline]
    pub const fn is_drop(self) -> bool {
        self.0 & DROP != 0
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move(from={} mid={} to={} promo={} drop={})",
            self.from(),
            self.mid(),
            self.to(),
            self.is_promotion(),
            self.is_drop()
        )
    }
}

/// Largest number of moves any position of any supported variant can have.
pub const MAX_MOVES: usize = 2048;

/// A fixed-capacity move list.
pub type MoveList = arrayvec::ArrayVec<Move, MAX_MOVES>;
