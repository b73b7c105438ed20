//! Handcrafted evaluation, linear in per-variant weights so that it can be tuned.
//!
//! Terms for each side (the score is ours minus theirs, plus a tempo bonus for the side to
//! move): material per kind on the board and in hand; a bonus per kind for an unpromoted
//! promotable piece in the zone; advancement per kind (ranks from the own back rank); and per
//! royal: own pieces adjacent (shelter), adjacent squares the enemy attacks, enemy pieces
//! within two squares, and enemy non-pawn pieces in hand times the empty squares next to it.
//!
//! Invariant: [`evaluate`] equals the side-to-move sign times the dot product of the weights
//! with [`features`] (tests check it), which is what the tuner (`crate::tune`) fits.

mod params;

pub use params::{Params, Term, params};

use crate::attack::DIR_OFF;
use crate::geometry::{RING2, Sq};
use crate::piece::{Color, EMPTY, WALL, is_color, kind_of};
use crate::position::Position;

/// Static evaluation from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    let p = params(pos.variant());
    let w = &p.w;
    let attacks = w[p.index(Term::KingAttack)] != 0;
    let us = pos.side_to_move();
    let mut s = w[p.index(Term::Tempo)];
    visit(pos, p, us, attacks, &mut |i, x| s += w[i] * x);
    visit(pos, p, us.flip(), attacks, &mut |i, x| s -= w[i] * x);
    s
}

/// The feature vector from Black's point of view (Black's terms minus White's, tempo +1 when
/// Black is to move, else -1), as sparse `(weight index, value)` pairs.
pub fn features(pos: &Position) -> Vec<(usize, i32)> {
    let p = params(pos.variant());
    let mut dense = vec![0i32; p.w.len()];
    visit(pos, p, Color::Black, true, &mut |i, x| dense[i] += x);
    visit(pos, p, Color::White, true, &mut |i, x| dense[i] -= x);
    dense[p.index(Term::Tempo)] = if pos.side_to_move() == Color::Black { 1 } else { -1 };
    dense.into_iter().enumerate().filter(|&(_, x)| x != 0).collect()
}

/// Calls `f(weight index, count)` for every term of side `c`. With `attacks` false the
/// attacked-square count (the costly term) is skipped.
fn visit(pos: &Position, p: &Params, c: Color, attacks: bool, f: &mut impl FnMut(usize, i32)) {
    let v = pos.variant();
    let t = &v.t;
    let height = v.height as i32;
    for sq in pos.occupied(c).iter() {
        let k = kind_of(pos.piece_at(sq));
        f(p.kind(Term::Piece, k), 1);
        let adv = height - 1 - t.rel_rank[c.idx()][sq as usize] as i32;
        if adv != 0 {
            f(p.kind(Term::Advance, k), adv);
        }
        if t.promote[k as usize] != 0 && t.zone[c.idx()].has(sq) {
            f(p.kind(Term::Promo, k), 1);
        }
    }
    if v.drops {
        for &k in &t.hand_kinds {
            let n = pos.hand(c, k) as i32;
            if n != 0 {
                f(p.kind(Term::Hand, k), n);
            }
        }
    }
    let them = c.flip();
    let enemy_hand: i32 = if v.drops {
        t.hand_kinds.iter().filter(|&&k| k != t.pawn_kind).map(|&k| pos.hand(them, k) as i32).sum()
    } else {
        0
    };
    for r in pos.royals(c).iter() {
        let (mut shelter, mut attacked, mut empty, mut near) = (0, 0, 0, 0);
        for off in DIR_OFF {
            let s = (r as i16 + off) as Sq;
            let q = pos.piece_at(s);
            if q == WALL {
                continue;
            }
            if q == EMPTY {
                empty += 1;
            } else if is_color(q, c) {
                shelter += 1;
            } else {
                near += 1;
            }
            if attacks && pos.attacked(s, them) {
                attacked += 1;
            }
        }
        for off in RING2 {
            let q = pos.piece_at((r as i16 + off) as Sq);
            if q != WALL && q != EMPTY && is_color(q, them) {
                near += 1;
            }
        }
        f(p.index(Term::Shelter), shelter);
        if attacks {
            f(p.index(Term::KingAttack), attacked);
        }
        f(p.index(Term::NearEnemy), near);
        if enemy_hand != 0 {
            f(p.index(Term::HandDanger), enemy_hand * empty);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluate_is_the_dot_product_of_weights_and_features() {
        for v in crate::variant::all() {
            let mut pos = Position::startpos(v);
            let mut seed = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..120 {
                let p = params(v);
                let dot: i32 = features(&pos).iter().map(|&(i, x)| p.w[i] * x).sum();
                let sign = if pos.side_to_move() == Color::Black { 1 } else { -1 };
                assert_eq!(evaluate(&pos), sign * dot, "{} {}", v.name, pos.to_sfen());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make(moves[(seed >> 11) as usize % moves.len()]);
                if pos.royals(pos.side_to_move()).is_empty() {
                    break;
                }
            }
        }
    }

    #[test]
    fn start_positions_are_balanced_but_for_tempo() {
        for v in crate::variant::all() {
            let pos = Position::startpos(v);
            let p = params(v);
            assert_eq!(evaluate(&pos), p.w[p.index(Term::Tempo)], "{}", v.name);
        }
    }
}
