//! Colours and packed piece codes.
//!
//! A board cell is one byte: `EMPTY` (0), `WALL` (0xFF, padding), or a piece
//! `kind | colour << 6` where `kind` is the variant's piece index in `1..64`.

/// A side. Black (sente) moves first and starts at the bottom.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    /// The first player (sente, uppercase letters).
    Black = 0,
    /// The second player (gote, lowercase letters).
    White = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// 0 for black, 1 for white.
    #[inline]
    pub fn idx(self) -> usize {
        self as usize
    }
    /// Both colours.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];
}

/// An empty board cell.
pub const EMPTY: u8 = 0;
/// A padding cell outside the board.
pub const WALL: u8 = 0xFF;
/// Largest number of piece kinds a variant may define (kinds are `1..MAX_KINDS`).
pub const MAX_KINDS: usize = 64;

/// Packs a kind and a colour.
#[inline]
pub const fn make_piece(kind: u8, c: Color) -> u8 {
    kind | (c as u8) << 6
}

/// The kind of a piece code (undefined for `EMPTY`/`WALL`).
#[inline]
pub const fn kind_of(p: u8) -> u8 {
    p & 63
}

/// The colour of a piece code (undefined for `EMPTY`/`WALL`).
#[inline]
pub fn color_of(p: u8) -> Color {
    if p & 64 == 0 { Color::Black } else { Color::White }
}

/// Whether `p` is a piece of colour `c`.
#[inline]
pub const fn is_color(p: u8, c: Color) -> bool {
    // Black pieces are 1..=63, white ones 65..=127.
    p.wrapping_sub(1 + 64 * c as u8) < 63
}
