//! Board geometry shared by every variant.
//!
//! All boards (up to 12x12) live in one padded 16x16 mailbox grid. A board square has
//! `col` 0..W (0 = the first player's left, i.e. file W) and `row` 0..H (0 = rank `a`, the top).
//! Its index is `(row + PAD) * GRID + col + PAD`. Two rings of padding hold walls, so any
//! leap of up to two squares from a board square stays inside the grid.
//!
//! Invariant: every index a generator produces from a board square with an offset of at most
//! two squares in each axis is in `0..NSQ`; index 0 is always padding (used as "no square").
//! Walks along a line stop at the walls, so their indices are in range too. As `NSQ` is 256,
//! the hot loops (move generation, attack scans, mobility) index the board with
//! `x as u8 as usize`, which needs no bounds check and, by this invariant, changes nothing.

use std::sync::LazyLock;

/// Grid width of the padded mailbox.
pub const GRID: usize = 16;
/// Padding squares on each side of the board.
pub const PAD: usize = 2;
/// Number of squares in the padded grid.
pub const NSQ: usize = GRID * GRID;
const _: () = assert!(NSQ == 256, "board indices cast to u8 must cover the grid");

/// Largest supported board side.
pub const MAX_SIDE: usize = GRID - 2 * PAD;

/// A square index into the padded grid.
pub type Sq = u8;

/// The padded square index of (`col`, `row`).
#[inline]
pub const fn sq(col: usize, row: usize) -> Sq {
    ((row + PAD) * GRID + col + PAD) as Sq
}

/// Column (0 = leftmost as the first player sees it) of a board square.
#[inline]
pub const fn col_of(s: Sq) -> usize {
    (s as usize % GRID).wrapping_sub(PAD)
}

/// Row (0 = top rank `a`) of a board square.
#[inline]
pub const fn row_of(s: Sq) -> usize {
    (s as usize / GRID).wrapping_sub(PAD)
}

/// The eight unit directions as (dx, dy) with dy > 0 pointing towards the top of the board
/// (the first player's forward): N, NE, E, SE, S, SW, W, NW.
pub const DIRS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// Grid offset of a (dx, dy) vector (dy up).
#[inline]
pub const fn offset(dx: i8, dy: i8) -> i16 {
    dx as i16 - GRID as i16 * dy as i16
}

/// Offsets of the 16 squares at distance exactly two (lion jumps, the ring around a king's
/// neighbours).
pub const RING2: [i16; 16] = {
    let mut o = [0i16; 16];
    let mut n = 0;
    let mut dx = -2i8;
    while dx <= 2 {
        let mut dy = -2i8;
        while dy <= 2 {
            if dx == 2 || dx == -2 || dy == 2 || dy == -2 {
                o[n] = offset(dx, dy);
                n += 1;
            }
            dy += 1;
        }
        dx += 1;
    }
    o
};

/// Index into [`DIRS`] of each vector with components in -1..=1, by (dx + 1, dy + 1); 8 for
/// the zero vector.
const DIR_OF_UNIT: [[u8; 3]; 3] = {
    let mut t = [[8u8; 3]; 3];
    let mut d = 0;
    while d < 8 {
        t[(DIRS[d].0 + 1) as usize][(DIRS[d].1 + 1) as usize] = d as u8;
        d += 1;
    }
    t
};

/// Index into [`DIRS`] of a unit vector, if it is one.
#[inline]
pub fn dir_index(dx: i8, dy: i8) -> Option<usize> {
    if !(-1..=1).contains(&dx) || !(-1..=1).contains(&dy) {
        return None;
    }
    Some(DIR_OF_UNIT[(dx + 1) as usize][(dy + 1) as usize] as usize).filter(|&d| d < 8)
}

/// Direction index (0..8) from `a` to `b` when they share a line, else 8.
#[inline]
pub fn line_dir(a: Sq, b: Sq) -> usize {
    LINE_DIR[a as usize * NSQ + b as usize] as usize
}

static LINE_DIR: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let mut t = vec![8u8; NSQ * NSQ];
    for a in 0..NSQ {
        for b in 0..NSQ {
            let (ac, ar) = ((a % GRID) as i32, (a / GRID) as i32);
            let (bc, br) = ((b % GRID) as i32, (b / GRID) as i32);
            let (dx, dy) = (bc - ac, ar - br);
            if (dx, dy) == (0, 0) || !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
                continue;
            }
            if let Some(i) = dir_index(dx.signum() as i8, dy.signum() as i8) {
                t[a * NSQ + b] = i as u8;
            }
        }
    }
    t
});

/// King distance: the number of king steps from `a` to `b`.
#[inline]
pub fn distance(a: Sq, b: Sq) -> usize {
    col_of(a).abs_diff(col_of(b)).max(row_of(a).abs_diff(row_of(b)))
}

/// Per grid square, the squares at most one step from it in each axis (the 3x3 block around
/// it, clipped to the grid).
pub static WITHIN1: [Bits; NSQ] = within(1);

/// Per grid square, the squares at most two steps from it in each axis (the 5x5 block around
/// it, clipped to the grid).
pub static WITHIN2: [Bits; NSQ] = within(2);

/// Per grid square, the squares at most three steps from it in each axis (the 7x7 block
/// around it, clipped to the grid): where a leaper of at most two steps can reach a square
/// next to it.
pub static WITHIN3: [Bits; NSQ] = within(3);

/// Per grid square, the squares at most `n` steps from it in each axis, clipped to the grid.
const fn within(n: i32) -> [Bits; NSQ] {
    let mut t = [Bits::EMPTY; NSQ];
    let mut s = 0;
    while s < NSQ {
        let (x, y) = ((s % GRID) as i32, (s / GRID) as i32);
        let mut dy = -n;
        while dy <= n {
            let mut dx = -n;
            while dx <= n {
                let (cx, cy) = (x + dx, y + dy);
                if cx >= 0 && cy >= 0 && cx < GRID as i32 && cy < GRID as i32 {
                    let c = cy as usize * GRID + cx as usize;
                    t[s].0[c >> 6] |= 1 << (c & 63);
                }
                dx += 1;
            }
            dy += 1;
        }
        s += 1;
    }
    t
}

/// Per grid square and direction (in [`DIRS`] order), the squares beyond it along that
/// line up to the grid's edge (the square itself left out): where an attacker along the line
/// can stand.
pub static RAYS: [[Bits; 8]; NSQ] = rays();

const fn rays() -> [[Bits; 8]; NSQ] {
    let mut t = [[Bits::EMPTY; 8]; NSQ];
    let mut s = 0;
    while s < NSQ {
        let mut d = 0;
        while d < 8 {
            // `DIRS` has y up; grid rows run down.
            let (dx, dy) = (DIRS[d].0 as i32, -(DIRS[d].1 as i32));
            let (mut x, mut y) = ((s % GRID) as i32 + dx, (s / GRID) as i32 + dy);
            while x >= 0 && y >= 0 && x < GRID as i32 && y < GRID as i32 {
                let c = y as usize * GRID + x as usize;
                t[s][d].0[c >> 6] |= 1 << (c & 63);
                x += dx;
                y += dy;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Whether two squares are at most one step apart (king distance).
#[inline]
pub fn adjacent(a: Sq, b: Sq) -> bool {
    distance(a, b) <= 1
}

/// The squares strictly between `a` and `b` (none unless they share a line).
pub fn between_squares(a: Sq, b: Sq) -> Bits {
    let mut out = Bits::EMPTY;
    let d = line_dir(a, b);
    if d < 8 {
        let off = offset(DIRS[d].0, DIRS[d].1);
        let mut x = a as i16 + off;
        while x != b as i16 {
            out.set(x as Sq);
            x += off;
        }
    }
    out
}

/// A set of grid squares as a 256-bit mask.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Bits(pub [u64; 4]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; 4]);

    /// Adds a square.
    #[inline]
    pub fn set(&mut self, s: Sq) {
        self.0[s as usize >> 6] |= 1 << (s & 63);
    }
    /// Removes a square.
    #[inline]
    pub fn clear(&mut self, s: Sq) {
        self.0[s as usize >> 6] &= !(1 << (s & 63));
    }
    /// Whether a square is in the set.
    #[inline]
    pub fn has(&self, s: Sq) -> bool {
        self.0[s as usize >> 6] >> (s & 63) & 1 != 0
    }
    /// Number of squares.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// Number of squares, counted one by one: cheaper than [`Bits::count`] for a set of a few
    /// squares, as the portable build has no population-count instruction.
    #[inline]
    pub fn count_few(&self) -> u32 {
        let mut n = 0;
        for mut w in self.0 {
            while w != 0 {
                n += 1;
                w &= w - 1;
            }
        }
        n
    }
    /// Whether the set holds exactly one square.
    #[inline]
    pub fn is_single(&self) -> bool {
        let [a, b, c, d] = self.0;
        let x = a | b | c | d;
        (a != 0) as u32 + (b != 0) as u32 + (c != 0) as u32 + (d != 0) as u32 == 1 && x & (x - 1) == 0
    }
    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        // One test of the words' union (an array comparison tests them one by one).
        let [a, b, c, d] = self.0;
        a | b | c | d == 0
    }
    /// The lowest square, if any.
    #[inline]
    pub fn first(&self) -> Option<Sq> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| (i * 64 + w.trailing_zeros() as usize) as Sq)
    }
    /// The lowest square (`up`) or the highest, if any: along a ray, the square nearest its
    /// origin, for a ray toward higher indices or toward lower ones.
    #[inline]
    pub fn nearest(&self, up: bool) -> Option<Sq> {
        let [a, b, c, d] = self.0;
        let (lo, hi) = (a as u128 | (b as u128) << 64, c as u128 | (d as u128) << 64);
        if lo | hi == 0 {
            return None;
        }
        Some(if up {
            if lo != 0 { lo.trailing_zeros() } else { 128 + hi.trailing_zeros() }
        } else if hi != 0 {
            255 - hi.leading_zeros()
        } else {
            127 - lo.leading_zeros()
        } as Sq)
    }
    /// Union.
    #[inline]
    pub fn or(&self, o: &Bits) -> Bits {
        Bits([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2], self.0[3] | o.0[3]])
    }
    /// Intersection.
    #[inline]
    pub fn and(&self, o: &Bits) -> Bits {
        Bits([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2], self.0[3] & o.0[3]])
    }
    /// Difference (`self` without `o`).
    #[inline]
    pub fn andnot(&self, o: &Bits) -> Bits {
        Bits([self.0[0] & !o.0[0], self.0[1] & !o.0[1], self.0[2] & !o.0[2], self.0[3] & !o.0[3]])
    }
    /// The set and every square next to one of its squares (the 3x3 block around each,
    /// clipped to the grid). A block's squares that would wrap past the grid's side edge land
    /// on the other side's padding columns, never on a board square.
    #[inline]
    pub fn grow(&self) -> Bits {
        let h = self.or(&self.shl(1)).or(&self.shr(1));
        h.or(&h.shl(GRID as u32)).or(&h.shr(GRID as u32))
    }
    /// Every square moved `k` (1..64) indices up the grid (those past the last dropped).
    #[inline]
    fn shl(&self, k: u32) -> Bits {
        let w = self.0;
        Bits([
            w[0] << k,
            w[1] << k | w[0] >> (64 - k),
            w[2] << k | w[1] >> (64 - k),
            w[3] << k | w[2] >> (64 - k),
        ])
    }
    /// Every square moved `k` (1..64) indices down the grid (those below 0 dropped).
    #[inline]
    fn shr(&self, k: u32) -> Bits {
        let w = self.0;
        Bits([
            w[0] >> k | w[1] << (64 - k),
            w[1] >> k | w[2] << (64 - k),
            w[2] >> k | w[3] << (64 - k),
            w[3] >> k,
        ])
    }
    /// Iterates the squares in increasing order.
    #[inline]
    pub fn iter(&self) -> BitsIter {
        let w = self.0;
        BitsIter {
            lo: w[0] as u128 | (w[1] as u128) << 64,
            hi: w[2] as u128 | (w[3] as u128) << 64,
        }
    }
}

/// Iterator over the squares of a [`Bits`]: its lower and upper 128 squares, each taken
/// lowest first.
pub struct BitsIter {
    lo: u128,
    hi: u128,
}

impl Iterator for BitsIter {
    type Item = Sq;
    #[inline]
    fn next(&mut self) -> Option<Sq> {
        if self.lo != 0 {
            let s = self.lo.trailing_zeros() as Sq;
            self.lo &= self.lo - 1;
            Some(s)
        } else if self.hi != 0 {
            let s = self.hi.trailing_zeros() as Sq | 128;
            self.hi &= self.hi - 1;
            Some(s)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `nearest` is the lowest square going up and the highest going down, in every word.
    #[test]
    fn nearest_is_the_first_or_last_square() {
        assert_eq!(Bits::EMPTY.nearest(true), None);
        assert_eq!(Bits::EMPTY.nearest(false), None);
        for a in (0..=255u8).step_by(7) {
            for b in (a..=255u8).step_by(11) {
                let mut s = Bits::EMPTY;
                s.set(a);
                s.set(b);
                assert_eq!(s.nearest(true), Some(a));
                assert_eq!(s.nearest(false), Some(b));
            }
        }
    }

    /// A set of up to `most - 1` squares drawn by `square` from a step of the generator
    /// `seed` (a linear congruential one), which it advances.
    fn random_bits(seed: &mut u64, most: u64, square: impl Fn(u64) -> Sq) -> Bits {
        let mut b = Bits::EMPTY;
        for _ in 0..(*seed % most) {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            b.set(square(*seed));
        }
        b
    }

    #[test]
    fn bits_iterate_their_squares_in_increasing_order() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let b = random_bits(&mut seed, 40, |x| (x >> 56) as Sq);
            let listed: Vec<Sq> = b.iter().collect();
            let expected: Vec<Sq> = (0..=255u8).filter(|&s| b.has(s)).collect();
            assert_eq!(listed, expected);
        }
        assert_eq!(Bits([0, 0, 0, 1 << 63]).iter().collect::<Vec<_>>(), vec![255]);
        assert_eq!(Bits::EMPTY.iter().next(), None);
        for b in [
            Bits::EMPTY,
            Bits([1, 0, 0, 0]),
            Bits([0, 0, 0, 1 << 63]),
            Bits([1, 1, 0, 0]),
            Bits([0, 6, 0, 0]),
            Bits([u64::MAX; 4]),
        ] {
            assert_eq!(b.count_few(), b.count());
            assert_eq!(b.is_single(), b.count() == 1);
        }
    }

    #[test]
    fn a_grown_set_is_the_union_of_the_blocks_around_its_board_squares() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            let b = random_bits(&mut seed, 30, |x| sq((x >> 40) as usize % MAX_SIDE, (x >> 50) as usize % MAX_SIDE));
            let want = b.iter().fold(Bits::EMPTY, |u, s| u.or(&WITHIN1[s as usize]));
            assert_eq!(b.grow(), want);
        }
    }

    #[test]
    fn coordinates_round_trip() {
        for r in 0..MAX_SIDE {
            for c in 0..MAX_SIDE {
                let s = sq(c, r);
                assert_eq!((col_of(s), row_of(s)), (c, r));
            }
        }
    }

    #[test]
    fn line_directions() {
        assert_eq!(line_dir(sq(4, 4), sq(4, 0)), 0);
        assert_eq!(line_dir(sq(4, 4), sq(6, 2)), 1);
        assert_eq!(line_dir(sq(4, 4), sq(5, 2)), 8);
        assert_eq!(line_dir(sq(4, 4), sq(0, 4)), 6);
    }

    #[test]
    fn within2_is_the_block_around_a_board_square() {
        let s = sq(5, 5);
        let block: Vec<Sq> = WITHIN2[s as usize].iter().collect();
        assert_eq!(block.len(), 25);
        assert!(block.iter().all(|&x| distance(x, s) <= 2));
    }

    #[test]
    fn distance_and_between() {
        assert_eq!(distance(sq(4, 4), sq(6, 1)), 3);
        assert!(adjacent(sq(4, 4), sq(5, 5)) && !adjacent(sq(4, 4), sq(6, 4)));
        let squares = |a, b| between_squares(a, b).iter().collect::<Vec<_>>();
        assert_eq!(squares(sq(4, 4), sq(4, 1)), [sq(4, 2), sq(4, 3)]);
        assert_eq!(squares(sq(4, 4), sq(7, 1)), [sq(6, 2), sq(5, 3)]);
        assert!(squares(sq(4, 4), sq(4, 3)).is_empty(), "neighbours: nothing between");
        assert!(squares(sq(4, 4), sq(5, 2)).is_empty(), "no line, nothing between");
    }

    #[test]
    fn bits_iterate_in_order() {
        let mut b = Bits::EMPTY;
        for s in [3u8, 64, 200, 255] {
            b.set(s);
        }
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 64, 200, 255]);
        b.clear(64);
        assert_eq!(b.count(), 3);
        assert!(!b.has(64));
    }
}
