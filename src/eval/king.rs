//! King-zone terms that matter most where captured pieces come back as drops: the squares
//! from which the enemy could drop a piece with check (safe when we cannot take the dropped
//! piece, or only with the royal while the enemy also covers the square), and the enemy's
//! attacks on the royal's flank (three files around it, inside our camp).
//!
//! Invariants: a drop-check square is empty, on the board, allowed for that kind (dead
//! ranks, two pawns on a file) and reaches the royal by one of the kind's capturing atoms
//! (steps and leaps, slides over empty squares, cannon hops over exactly one screen);
//! ranging jumps and lion power are not looked at (no variant with drops has them).

use crate::attack::DIR_OFF;
use crate::geometry::{NSQ, RING2, Sq, adjacent, col_of, sq};
use crate::piece::{Color, EMPTY, MAX_KINDS, WALL, is_color, kind_of};
use crate::position::Position;
use crate::variant::{CAPTURE, Ride};

/// How many pieces of colour `by` attack each square, from one walk over its pieces'
/// capturing atoms (a slide counts up to and including its first piece, a cannon hop the
/// squares beyond its screen up to and including the next piece, a lion every square
/// within two, a ranging jump every square beyond its first piece). In every variant this
/// equals `Position::attack_count` on every board square (tested).
///
/// It also adds each piece's mobility (as [`super::mobility`] counts it) to `mob` by kind:
/// for a capturing slide or unlimited hop, the squares it attacks but an own piece ending the
/// walk; any other atom is counted on its own.
///
/// With `least`, it also keeps for each square the smallest [`attacker_value`] of the pieces
/// attacking it (left as it was where none does: callers start it at `u16::MAX`).
pub(super) fn attack_map(pos: &Position, by: Color, map: &mut [u8; NSQ], mob: &mut [i32; MAX_KINDS], least: Option<&mut [u16; NSQ]>) {
    match least {
        Some(least) => walk_attacks(pos, by, mob, |x, value| {
            let i = x as u8 as usize;
            map[i] = map[i].wrapping_add(1);
            least[i] = least[i].min(value);
        }),
        None => walk_attacks(pos, by, mob, |x, _| {
            let m = &mut map[x as u8 as usize];
            *m = m.wrapping_add(1);
        }),
    }
}

/// A piece's value as an attacker (for the threat terms): its material value, or
/// `u16::MAX` for a royal (a royal's attack threatens only an undefended piece).
pub(super) fn attacker_value(v: &crate::variant::Variant, k: u8) -> u16 {
    if v.t.royal_mask >> k & 1 != 0 {
        u16::MAX
    } else {
        v.piece(k).value.clamp(0, u16::MAX as i32 - 1) as u16
    }
}

/// The walk of [`attack_map`]: `on(square, attacker value)` for every attack (counts stay
/// far below 256, at most every piece of a side on one square; leaps count on the padding
/// too: those cells are never read).
fn walk_attacks(pos: &Position, by: Color, mob: &mut [i32; MAX_KINDS], mut on: impl FnMut(i16, u16)) {
    let v = pos.variant();
    let t = &v.t;
    let b = &pos.board;
    let c = by.idx();
    for from in pos.occupied(by).iter() {
        let k = kind_of(b[from as usize]);
        let value = attacker_value(v, k);
        let mut hit = |x: i16| on(x, value);
        let (lo, mid, hi) = t.map_range[c][k as usize];
        let atoms = &t.map_atoms[c];
        // Capturing leaps (steps too) attack their square whatever stands there.
        for a in &atoms[lo as usize..mid as usize] {
            hit(from as i16 + a.off);
        }
        let mut n = 0;
        for a in &atoms[mid as usize..hi as usize] {
            let capture = a.mode & CAPTURE != 0;
            let (off, max) = (a.off, a.max as u32);
            match a.ride {
                Ride::Slide if capture => {
                    let mut x = from as i16;
                    let mut steps = 0u32;
                    loop {
                        x += off;
                        let q = b[x as u8 as usize];
                        if q == WALL {
                            break;
                        }
                        hit(x);
                        n += 1;
                        steps += 1;
                        if q != EMPTY {
                            n -= is_color(q, by) as i32;
                            break;
                        }
                        if steps == max {
                            break;
                        }
                    }
                }
                Ride::Hop if capture && max == 0 => {
                    let mut x = from as i16 + off;
                    while b[x as u8 as usize] == EMPTY {
                        x += off;
                    }
                    if b[x as u8 as usize] == WALL {
                        continue;
                    }
                    loop {
                        x += off;
                        let q = b[x as u8 as usize];
                        if q == WALL {
                            break;
                        }
                        hit(x);
                        n += 1;
                        if q != EMPTY {
                            n -= is_color(q, by) as i32;
                            break;
                        }
                    }
                }
                // No leap is left here (`Tables::map_atoms`: capturing ones came first).
                Ride::Leap => {}
                _ => {
                    if capture {
                        other_attacks(b, from, a.ride, off, max, &mut hit);
                    }
                    n += super::atom_mobility(pos, from, by, a);
                }
            }
        }
        mob[k as usize] += n;
    }
}

/// Attacks of a capturing limited hop, ranging jump or lion-power atom.
fn other_attacks(b: &[u8; NSQ], from: Sq, ride: Ride, off: i16, max: u32, hit: &mut impl FnMut(i16)) {
    match ride {
        // Leaps and capturing slides are walked by the caller.
        Ride::Leap | Ride::Slide => {}
        Ride::Hop | Ride::Range => {
            let mut x = from as i16 + off;
            let mut dist = 1u32;
            while b[x as u8 as usize] == EMPTY {
                x += off;
                dist += 1;
            }
            if b[x as u8 as usize] == WALL {
                return;
            }
            loop {
                x += off;
                dist += 1;
                let q = b[x as u8 as usize];
                if q == WALL || (max != 0 && dist > max) {
                    break;
                }
                hit(x);
                if q != EMPTY && ride != Ride::Range {
                    break;
                }
            }
        }
        Ride::Lion => {
            if off == 0 {
                for o in DIR_OFF.iter().chain(RING2.iter()) {
                    let x = from as i16 + o;
                    if b[x as u8 as usize] != WALL {
                        hit(x);
                    }
                }
            } else {
                for x in [from as i16 + off, from as i16 + 2 * off] {
                    if b[x as u8 as usize] != WALL {
                        hit(x);
                    }
                }
            }
        }
    }
}

/// Calls `f(kind, safe, unsafe)` for every kind in the enemy's hand with the number of
/// squares where dropping it checks the royal of colour `c` on `r`. `ours` counts our
/// attacks, `theirs` the enemy's.
pub(super) fn drop_checks(pos: &Position, c: Color, r: Sq, ours: &[u8; NSQ], theirs: &[u8; NSQ], f: &mut impl FnMut(u8, i32, i32)) {
    let t = &pos.variant().t;
    let them = c.flip();
    let b = &pos.board;
    for &k in &t.hand_kinds {
        if pos.hand(them, k) == 0 {
            continue;
        }
        let (mut safe, mut not_safe) = (0, 0);
        let mut seen = [0u64; 4];
        let mut consider = |x: Sq| {
            let bit = &mut seen[x as usize / 64];
            if *bit >> (x % 64) & 1 != 0 {
                return;
            }
            *bit |= 1 << (x % 64);
            if !pos.drop_rank_ok_for(them, k, x) {
                return;
            }
            let d = ours[x as usize];
            if d == 0 || (d == 1 && adjacent(x, r) && theirs[x as usize] > 0) {
                safe += 1;
            } else {
                not_safe += 1;
            }
        };
        let (lo, hi) = t.atom_range[them.idx()][k as usize];
        for a in &t.atoms[them.idx()][lo as usize..hi as usize] {
            if a.mode & CAPTURE == 0 {
                continue;
            }
            let off = a.off;
            match a.ride {
                Ride::Leap => {
                    let x = (r as i16 - off) as Sq;
                    if b[x as usize] == EMPTY {
                        consider(x);
                    }
                }
                Ride::Slide => {
                    let mut x = r as i16;
                    let mut steps = 0u32;
                    loop {
                        x -= off;
                        if b[x as u8 as usize] != EMPTY {
                            break;
                        }
                        consider(x as Sq);
                        steps += 1;
                        if steps == a.max as u32 {
                            break;
                        }
                    }
                }
                Ride::Hop => {
                    let mut x = r as i16 - off;
                    let mut dist = 1;
                    while b[x as u8 as usize] == EMPTY {
                        x -= off;
                        dist += 1;
                    }
                    if b[x as u8 as usize] == WALL {
                        continue;
                    }
                    loop {
                        x -= off;
                        dist += 1;
                        if (a.max != 0 && dist > a.max as i32) || b[x as u8 as usize] != EMPTY {
                            break;
                        }
                        consider(x as Sq);
                    }
                }
                Ride::Range | Ride::Lion => {}
            }
        }
        if safe + not_safe > 0 {
            f(k, safe, not_safe);
        }
    }
}

/// (squares of the flank the enemy attacks plus those it attacks twice, squares of it we
/// attack): the flank is the three files centred on the royal (moved in from the edge) and the
/// ranks of our camp (a little over half the board).
pub(super) fn flank(pos: &Position, c: Color, r: Sq, ours: &[u8; NSQ], theirs: &[u8; NSQ]) -> (i32, i32) {
    let v = pos.variant();
    let (w, h) = (v.width, v.height);
    let centre = col_of(r).clamp(1, w.saturating_sub(2));
    let camp = (h - 1) / 2 + 2;
    // Our camp: the `camp` rows nearest our back rank (Black's is the bottom, row h - 1).
    let rows = if c == Color::Black { h.saturating_sub(camp)..h } else { 0..camp.min(h) };
    let cols = centre.saturating_sub(1)..(centre + 2).min(w);
    let (mut attack, mut defence) = (0, 0);
    for row in rows {
        let first = sq(cols.start, row);
        for i in 0..cols.len() as u8 {
            // A board square: the u8 index needs no bounds check.
            let s = first.wrapping_add(i) as usize;
            attack += theirs[s].min(2) as i32;
            defence += (ours[s] > 0) as i32;
        }
    }
    (attack, defence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attack_maps_agree_with_attack_counts_and_mobility() {
        for v in crate::variant::all() {
            super::super::random_game(v, 0x2545_F491_4F6C_DD1D, 150, |pos| {
                for c in [Color::Black, Color::White] {
                    let (mut map, mut mob) = ([0; NSQ], [0; MAX_KINDS]);
                    attack_map(pos, c, &mut map, &mut mob, None);
                    for s in v.t.on_board.iter() {
                        assert_eq!(map[s as usize] as u32, pos.attack_count(s, c), "{} {} {s}", v.name, pos.to_sfen());
                    }
                    // The mobility summed on the way equals the per-piece count.
                    let mut each = [0; MAX_KINDS];
                    for s in pos.occupied(c).iter() {
                        let k = kind_of(pos.piece_at(s));
                        each[k as usize] += super::super::mobility(pos, s, c, k);
                    }
                    assert_eq!(mob, each, "{} {}", v.name, pos.to_sfen());
                }
            });
        }
    }
}
