//! Handcrafted evaluation (first version): material on the board and in hand from the
//! variant's piece values, a bonus for promotable pieces in the zone, and a small king-shelter
//! term. Scores are in centipawns from the side to move's point of view.

use crate::geometry::Bits;
use crate::piece::{Color, kind_of};
use crate::position::Position;

/// Pieces in hand are worth a little more than on the board (they can drop anywhere).
const HAND_BONUS_PCT: i32 = 10;

/// Static evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    side_score(pos, us) - side_score(pos, us.flip())
}

fn side_score(pos: &Position, c: Color) -> i32 {
    let v = pos.variant();
    let t = &v.t;
    let mut s = 0;
    let occ: &Bits = pos.occupied(c);
    for sq in occ.iter() {
        let k = kind_of(pos.piece_at(sq));
        s += v.piece(k).value;
        // Promotion potential: an unpromoted piece in the zone is closer to promoting.
        let pk = t.promote[k as usize];
        if pk != 0 && t.zone[c.idx()].has(sq) {
            s += (v.piece(pk).value - v.piece(k).value).max(0) / 4;
        }
    }
    if v.drops {
        for &k in &t.hand_kinds {
            let n = pos.hand(c, k) as i32;
            s += n * v.piece(k).value * (100 + HAND_BONUS_PCT) / 100;
        }
    }
    // King shelter: own pieces next to each royal.
    for r in pos.royals(c).iter() {
        for off in crate::attack::DIR_OFF {
            let p = pos.piece_at((r as i16 + off) as u8);
            if crate::piece::is_color(p, c) {
                s += 12;
            }
        }
    }
    s
}
