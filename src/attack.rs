//! Attack detection from the target square outwards, driven by the variant's compiled
//! attack masks: adjacent steps and unlimited slides on the first piece of each line,
//! adjacent-screen jumps, one-screen hops on the second piece, ranging jumps on every piece
//! beyond the first, and the remaining leaps by table.

use crate::geometry::{DIRS, Sq, offset};
use crate::piece::{Color, EMPTY, WALL, is_color, kind_of};
use crate::position::Position;

/// Grid offsets of [`DIRS`].
pub const DIR_OFF: [i16; 8] = {
    let mut o = [0i16; 8];
    let mut i = 0;
    while i < 8 {
        o[i] = offset(DIRS[i].0, DIRS[i].1);
        i += 1;
    }
    o
};

#[inline]
fn hits(p: u8, by: Color, mask: u64) -> bool {
    is_color(p, by) && mask >> kind_of(p) & 1 != 0
}

impl Position {
    /// Whether square `s` is attacked by a piece of colour `by` (as a capture it could make).
    #[inline]
    pub fn attacked(&self, s: Sq, by: Color) -> bool {
        self.scan::<false>(s, by) != 0
    }

    /// How many pieces of colour `by` attack square `s` (x-rays not counted).
    #[inline]
    pub fn attack_count(&self, s: Sq, by: Color) -> u32 {
        self.scan::<true>(s, by)
    }

    /// The squares of the pieces of colour `by` that attack `s` (x-rays not included), in
    /// ascending order, each once.
    pub fn attackers(&self, s: Sq, by: Color) -> arrayvec::ArrayVec<Sq, 64> {
        let mut out = arrayvec::ArrayVec::new();
        self.scan_with::<true>(s, by, &mut |x| {
            if !out.contains(&x) {
                let _ = out.try_push(x);
            }
        });
        out.sort_unstable();
        out
    }

    #[inline]
    fn scan<const ALL: bool>(&self, s: Sq, by: Color) -> u32 {
        self.scan_with::<ALL>(s, by, &mut |_| {})
    }

    /// Counts the attackers of `s` of colour `by`, calling `hit` with each one's square;
    /// without `ALL` stops at the first (returns 1).
    #[inline]
    fn scan_with<const ALL: bool>(&self, s: Sq, by: Color, hit: &mut impl FnMut(Sq)) -> u32 {
        let mut n = 0;
        let t = &self.variant().t;
        let b = &self.board;
        let c = by.idx();
        for &(off, mask) in &t.leaps[c] {
            if hits(b[(s as i16 + off) as usize], by, mask) {
                hit((s as i16 + off) as Sq);
                n += 1;
                if !ALL {
                    return 1;
                }
            }
        }
        for (d, &off) in DIR_OFF.iter().enumerate() {
            let near = t.near[c][d];
            let line = t.line[c][d];
            if near | line == 0 {
                continue;
            }
            let mut x = s as i16 + off;
            let mut p = b[x as usize];
            if p != EMPTY {
                if p == WALL {
                    continue;
                }
                if hits(p, by, near | t.slider[c][d]) {
                    hit(x as Sq);
                    n += 1;
                    if !ALL {
                        return 1;
                    }
                }
                if t.jump2[c][d] != 0 && hits(b[(x + off) as usize], by, t.jump2[c][d]) {
                    hit((x + off) as Sq);
                    n += 1;
                    if !ALL {
                        return 1;
                    }
                }
            } else {
                if line == 0 {
                    continue;
                }
                loop {
                    x += off;
                    p = b[x as usize];
                    if p != EMPTY {
                        break;
                    }
                }
                if p == WALL {
                    continue;
                }
                if hits(p, by, t.slider[c][d]) {
                    hit(x as Sq);
                    n += 1;
                    if !ALL {
                        return 1;
                    }
                }
            }
            // `p` at `x` is the first piece: look beyond it for hoppers and rangers.
            let range = t.range[c][d];
            let mut mask = t.cannon[c][d] | range;
            while mask != 0 {
                x += off;
                let q = b[x as usize];
                if q == EMPTY {
                    continue;
                }
                if q == WALL {
                    break;
                }
                if hits(q, by, mask) {
                    hit(x as Sq);
                    n += 1;
                    if !ALL {
                        return 1;
                    }
                }
                mask = range;
            }
        }
        n
    }

    /// Whether the side to move has exactly one royal and it is attacked (in check).
    pub fn in_check(&self) -> bool {
        let us = self.side;
        let r = &self.royals[us.idx()];
        r.count() == 1 && r.first().is_some_and(|k| self.attacked(k, us.flip()))
    }
}

#[cfg(test)]
mod tests {
    use crate::moves::MoveList;

    #[test]
    fn every_capture_comes_from_a_listed_attacker() {
        // Static exchange evaluation generates only the attackers' captures; a capture by any
        // other piece would be missed.
        for v in crate::variant::all() {
            crate::eval::random_game(v, 0x2545_F491_4F6C_DD1D, 160, |pos| {
                let mut caps = MoveList::new();
                pos.generate_captures(&mut caps);
                for m in caps.iter().filter(|m| !m.is_drop() && m.to() != m.from()) {
                    let a = pos.attackers(m.to(), pos.side_to_move());
                    assert!(a.contains(&m.from()), "{} {}: {m:?} not from {a:?}", v.name, pos.to_sfen());
                }
            });
        }
    }
}
