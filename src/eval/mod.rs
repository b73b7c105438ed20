//! Handcrafted evaluation, linear in per-variant weights so that it can be tuned.
//!
//! Terms for each side (the score is ours minus theirs, plus a tempo bonus for the side to
//! move): material per kind on the board and in hand; a bonus per kind for an unpromoted
//! promotable piece in the zone; advancement per kind (ranks from the own back rank);
//! mobility per kind along slides and hops; per kind, being within two squares of an own
//! royal (guard) or an enemy one (raid); and per royal: own pieces adjacent (shelter), enemy
//! attacks on the adjacent squares and the squares the enemy controls there (attack counts),
//! enemy pieces within two squares, enemy non-pawn pieces in hand times the empty squares next
//! to it, the royal's distance from the side edge, and the square of a danger index that
//! combines these (king safety grows faster than linearly with the attack). In drop variants,
//! also the king zone (`king.rs`): safe and unsafe drop checks, flank attack and defence, and
//! a second danger index that adds them.
//!
//! Threats (where their weights are not zero): per kind, a non-royal piece that an enemy
//! piece attacks while it is worth more (by the variant's piece values) than its least
//! attacker, or while we do not defend it; and how many of those the side to move has. They
//! need both colours' attack maps (`king::attack_map`, with the least attacker's value per
//! square), which the drop variants' king-zone terms walk anyway.
//!
//! Without drops, a side far ahead in material against few pieces (the mop-up of Stockfish's
//! endgames) is paid for driving the enemy royals to the edge, bringing its pieces near
//! them and taking away their flight squares, which turns won endings into mates instead of
//! shuffles.
//!
//! Some terms have an endgame part (`piece_eg`, `advance_eg`, `king_edge_eg`, …) whose weight
//! is scaled by the endgame share ([`endgame`]: how many of the start's non-royal pieces have
//! left the board, captured or in hand), so that a king can stay home in the middlegame and
//! walk up in the ending.
//!
//! Where the evaluation walks no attack maps and every mobility atom is a slide along the
//! eight directions (chu), the position keeps the weighted mobility up to date move by move
//! ([`incremental_mobility`], `position/mobility.rs`) and [`evaluate`] reads its sums.
//!
//! Invariant: [`evaluate`] equals the side-to-move sign times the dot product of the weights
//! with [`features`], the endgame terms' part divided by [`PHASE`] (tests check it), which is
//! what the tuner (`crate::tune`) fits. Terms
//! whose weights are zero are skipped by [`evaluate`] (they cost nothing in variants that do
//! not use them).

mod king;
mod params;

pub use params::{PHASE, Params, SEARCH_SCALE_ONE, Term, params, psq_table, used};

use crate::attack::DIR_OFF;
use crate::geometry::{Bits, NSQ, Sq, WITHIN1, WITHIN2, col_of, distance, row_of};
use crate::piece::{Color, EMPTY, MAX_KINDS, WALL, is_color, kind_of};
use crate::position::Position;
use crate::variant::{CAtom, Ride, Variant};

/// Static evaluation from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, true)
}

/// [`evaluate`] without its mobility terms, for a network over it to learn what they gave. In
/// chu the position then need not keep the mobility sums, nor this walk them (where the
/// evaluation walks attack maps, they count mobility on the way all the same).
pub fn evaluate_without_mobility(pos: &Position) -> i32 {
    evaluate_with(pos, false)
}

fn evaluate_with(pos: &Position, with_mobility: bool) -> i32 {
    let p = params(pos.variant());
    let w = &p.w;
    let us = pos.side_to_move();
    // Board values, zone bonuses and advancement come summed from the position.
    let mut s = material(pos);
    // The endgame terms, summed apart and scaled by the endgame share at the end.
    let mut e = 0;
    let maps = zone_maps(pos, p, false);
    visit(pos, p, us, false, with_mobility, maps.as_ref(), &mut |i, x| {
        if i == MOBILITY_SUM {
            s += x
        } else if p.is_eg(i) {
            e += w[i] * x
        } else {
            s += w[i] * x
        }
    });
    visit(pos, p, us.flip(), false, with_mobility, maps.as_ref(), &mut |i, x| {
        if i == MOBILITY_SUM {
            s -= x
        } else if p.is_eg(i) {
            e -= w[i] * x
        } else {
            s -= w[i] * x
        }
    });
    if e != 0 {
        s += e * endgame(pos) / PHASE;
    }
    s
}

/// The part of [`evaluate`] that the position keeps summed move by move (the tempo bonus,
/// material, zone bonuses, advancement and piece-square terms), from the side to move's
/// point of view: what a material-based network adds to ([`crate::nnue::Base::Material`]).
#[inline]
pub fn material(pos: &Position) -> i32 {
    let p = params(pos.variant());
    let us = pos.side_to_move();
    p.w[p.index(Term::Tempo)] + pos.psq[us.idx()] - pos.psq[us.flip().idx()]
}

/// The handcrafted evaluation's terms that walk no lines: [`material`], the pieces in hand,
/// and around each royal the own pieces within two squares (guard) and next to it (shelter),
/// the enemy pieces within two squares (raid, and the royal's near-enemy count) and the
/// royal's distance to the side edge; no mobility, attack counts, danger indices, the enemy
/// hand's danger, threats, drop checks, mop-up or endgame parts. What a `light` network adds to
/// ([`crate::nnue::Base::Light`]): a few masks a royal instead of walks along lines.
pub fn evaluate_light(pos: &Position) -> i32 {
    let v = pos.variant();
    let p = params(v);
    let w = &p.w;
    let us = pos.side_to_move();
    let mut s = material(pos);
    // Groups whose weights are all zero are skipped.
    let u = used(v);
    let (near_w, shelter_w, edge_w) = (w[p.index(Term::NearEnemy)], w[p.index(Term::Shelter)], w[p.index(Term::KingEdge)]);
    let (ours, theirs) = (pos.royals(us), pos.royals(us.flip()));
    if let (true, true, Some(rk), Some(tk)) = (ours.is_single(), theirs.is_single(), ours.first(), theirs.first()) {
        // One royal a side (the usual case): each side's raid set (its pieces within two
        // squares of the enemy royal) is also what the enemy royal counts as near, and the
        // royal zones are single masks; the same terms, with fewer passes over the sets.
        let royal = [rk, tk];
        let mut x = [0i32; 2];
        let mut near = [0i32; 2];
        for (i, c) in [us, us.flip()].into_iter().enumerate() {
            if v.drops {
                for &k in &v.t.hand_kinds {
                    x[i] += w[p.kind(Term::Hand, k)] * pos.hand(c, k) as i32;
                }
            }
            let own = pos.occupied(c);
            if u.guard {
                for sq in own.and(&WITHIN2[royal[i] as usize]).iter() {
                    let k = kind_of(pos.piece_at(sq));
                    if v.t.royal_mask >> k & 1 == 0 {
                        x[i] += w[p.kind(Term::Guard, k)];
                    }
                }
            }
            let raid = own.and(&WITHIN2[royal[1 - i] as usize]);
            if u.raid {
                let mut n = 0;
                for sq in raid.iter() {
                    x[i] += w[p.kind(Term::Raid, kind_of(pos.piece_at(sq)))];
                    n += 1;
                }
                near[1 - i] = n;
            } else {
                near[1 - i] = raid.count_few() as i32;
            }
        }
        for (i, c) in [us, us.flip()].into_iter().enumerate() {
            let r = royal[i];
            let shelter = if shelter_w != 0 {
                pos.occupied(c).and(&WITHIN1[r as usize]).count_few() as i32 - 1
            } else {
                0
            };
            let col = col_of(r);
            let edge = col.min(v.width - 1 - col) as i32;
            x[i] += near_w * near[i] + shelter_w * shelter + edge_w * edge;
        }
        return s + x[0] - x[1];
    }
    for (c, sign) in [(us, 1), (us.flip(), -1)] {
        let them = c.flip();
        let mut x = 0;
        if v.drops {
            for &k in &v.t.hand_kinds {
                x += w[p.kind(Term::Hand, k)] * pos.hand(c, k) as i32;
            }
        }
        if u.guard {
            for sq in pos.occupied(c).and(&royal_zone(pos, c)).iter() {
                let k = kind_of(pos.piece_at(sq));
                if v.t.royal_mask >> k & 1 == 0 {
                    x += w[p.kind(Term::Guard, k)];
                }
            }
        }
        if u.raid {
            for sq in pos.occupied(c).and(&royal_zone(pos, them)).iter() {
                x += w[p.kind(Term::Raid, kind_of(pos.piece_at(sq)))];
            }
        }
        for r in pos.royals(c).iter() {
            let near = pos.occupied(them).and(&WITHIN2[r as usize]).count_few() as i32;
            // The own pieces next to the royal (the 3x3 block holds the royal too).
            let shelter = if shelter_w != 0 {
                pos.occupied(c).and(&WITHIN1[r as usize]).count_few() as i32 - 1
            } else {
                0
            };
            let col = col_of(r);
            let edge = col.min(v.width - 1 - col) as i32;
            x += near_w * near + shelter_w * shelter + edge_w * edge;
        }
        s += sign * x;
    }
    s
}

/// The squares within two steps (on the board or its padding) of `c`'s first four royals,
/// where guard and raid count pieces (play gives at most two royals: king and prince).
fn royal_zone(pos: &Position, c: Color) -> Bits {
    let mut z = Bits::EMPTY;
    for r in pos.royals(c).iter().take(4) {
        z = z.or(&WITHIN2[r as usize]);
    }
    z
}

/// Number of non-royal pieces on the board of each variant's start position.
static START_PIECES: std::sync::LazyLock<Vec<i32>> =
    std::sync::LazyLock::new(|| crate::variant::all().into_iter().map(|v| non_royal_on_board(&Position::startpos(v))).collect());

fn non_royal_on_board(pos: &Position) -> i32 {
    [Color::Black, Color::White]
        .iter()
        .map(|&c| pos.occupied(c).count() as i32 - pos.royals(c).count() as i32)
        .sum()
}

/// The endgame share `0..=PHASE` of `pos`: 0 with every non-royal piece of the start on the
/// board, growing with the pieces gone from it (captured, or in hand), `PHASE` once half of them
/// have gone.
pub fn endgame(pos: &Position) -> i32 {
    let start = START_PIECES[pos.variant().index].max(1);
    let gone = (start - non_royal_on_board(pos)).max(0);
    (2 * PHASE * gone / start).min(PHASE)
}

/// The feature vector from Black's point of view (Black's terms minus White's, tempo +1 when
/// Black is to move, else -1), as sparse `(weight index, value)` pairs. The endgame terms'
/// values are times the endgame share ([`endgame`]), so that [`evaluate`] is the dot product
/// of the other terms plus that of the endgame terms divided by [`PHASE`].
pub fn features(pos: &Position) -> Vec<(usize, i32)> {
    let p = params(pos.variant());
    let mut dense = vec![0i32; p.w.len()];
    let maps = zone_maps(pos, p, true);
    let eg = endgame(pos);
    let scale = |i: usize, x: i32| if p.is_eg(i) { x * eg } else { x };
    visit(pos, p, Color::Black, true, true, maps.as_ref(), &mut |i, x| dense[i] += scale(i, x));
    visit(pos, p, Color::White, true, true, maps.as_ref(), &mut |i, x| dense[i] -= scale(i, x));
    dense[p.index(Term::Tempo)] = if pos.side_to_move() == Color::Black { 1 } else { -1 };
    dense.into_iter().enumerate().filter(|&(_, x)| x != 0).collect()
}

/// A readable breakdown: one line per non-zero feature (`name feature x weight = cp`, from
/// Black's point of view), then the total from the side to move's point of view.
pub fn trace(pos: &Position) -> Vec<String> {
    let v = pos.variant();
    let p = params(v);
    let mut out: Vec<String> = features(pos)
        .into_iter()
        .map(|(i, x)| format!("{} {x} x {} = {}", p.name(v, i), p.w[i], x * p.w[i]))
        .collect();
    let total = evaluate(pos);
    out.push(format!("total {total} (side to move)"));
    if p.search_scale != SEARCH_SCALE_ONE {
        out.push(format!("search {} (total x {}/{SEARCH_SCALE_ONE})", p.search_score(total), p.search_scale));
    }
    out
}

/// Whether `c` is far enough ahead for the mop-up terms: the enemy has a royal and at most six
/// pieces, and `c`'s non-royal material (the variant's piece values) is at least twice the
/// enemy's and a rook-sized margin above it.
fn mop_up(pos: &Position, c: Color) -> bool {
    let them = c.flip();
    if pos.royals(them).is_empty() || pos.occupied(them).count() > 6 {
        return false;
    }
    let v = pos.variant();
    let material = |side: Color| -> i32 {
        pos.occupied(side)
            .iter()
            .map(|sq| kind_of(pos.piece_at(sq)))
            .filter(|&k| v.t.royal_mask >> k & 1 == 0)
            .map(|k| v.piece(k).value)
            .sum()
    };
    let (ours, theirs) = (material(c), material(them));
    ours >= 2 * theirs && ours >= theirs + 1000
}

/// What one walk over each colour's pieces gives (indexed by colour): the attack counts of
/// every square, and the mobility summed per kind.
struct Maps {
    att: [[u8; NSQ]; 2],
    mob: [[i32; MAX_KINDS]; 2],
    /// The least attacker's value on each square (`u16::MAX` where none attacks), with
    /// the threat terms in use.
    least: Option<[[u16; NSQ]; 2]>,
}

/// Whether the king-zone terms (drop variants) are in use, or with `all` whether the variant
/// has drops.
fn zone_terms(v: &Variant, p: &Params, all: bool) -> bool {
    v.drops
        && (all
            || [Term::DropDanger, Term::DropDangerEg, Term::FlankAttack, Term::FlankDefence, Term::UnsafeCheck]
                .iter()
                .any(|&x| p.w[p.index(x)] != 0)
            || v.t.hand_kinds.iter().any(|&k| p.w[p.kind(Term::DropCheck, k)] != 0))
}

/// With the king-zone terms (drop variants) or the threat terms in use (`all`: always), the
/// [`Maps`]; the least attackers' values only with the threat terms.
fn zone_maps(pos: &Position, p: &Params, all: bool) -> Option<Maps> {
    let v = pos.variant();
    let on = zone_terms(v, p, all);
    let threat = all || used(v).threat;
    (on || threat).then(|| {
        let mut maps = Maps {
            att: [[0; NSQ]; 2],
            mob: [[0; MAX_KINDS]; 2],
            least: threat.then_some([[u16::MAX; NSQ]; 2]),
        };
        let Maps {
            att: [ab, aw],
            mob: [mb, mw],
            least,
        } = &mut maps;
        let [lb, lw] = match least {
            Some([lb, lw]) => [Some(lb), Some(lw)],
            None => [None, None],
        };
        king::attack_map(pos, Color::Black, ab, mb, lb);
        king::attack_map(pos, Color::White, aw, mw, lw);
        maps
    })
}

/// Calls `f(weight index, count)` for every term of side `c`. Without `all`, terms whose
/// weight is zero may be skipped (mobility per kind, the attack counts near royals). `maps`
/// is [`zone_maps`] of the position, computed once for both colours' visits. Without
/// `with_mobility` the mobility terms are left out.
fn visit(pos: &Position, p: &Params, c: Color, all: bool, with_mobility: bool, maps: Option<&Maps>, f: &mut impl FnMut(usize, i32)) {
    let v = pos.variant();
    let t = &v.t;
    let height = v.height as i32;
    let them = c.flip();
    // The mop-up terms look at the first four enemy royals, as guard and raid do.
    let enemy = pos.royals(them).iter().take(4).collect::<arrayvec::ArrayVec<Sq, 4>>();
    let u = used(v);
    let (guard, raid) = (all || u.guard, all || u.raid);
    let own_zone = if guard { royal_zone(pos, c) } else { Bits::EMPTY };
    let enemy_zone = if raid { royal_zone(pos, them) } else { Bits::EMPTY };
    // Without `all`, the piece-square terms come from the position's sums (see `evaluate`).
    // Each group in use looks only at the pieces it may count: every piece for the per-kind
    // and endgame terms, those near the royals for guard and raid, and those whose kinds
    // move far (`Position::mobile`) for mobility.
    if all || u.eg_kind {
        for sq in pos.occupied(c).iter() {
            let k = kind_of(pos.piece_at(sq));
            let adv = height - 1 - t.rel_rank[c.idx()][sq as usize] as i32;
            if all {
                f(p.kind(Term::Piece, k), 1);
                if adv != 0 {
                    f(p.kind(Term::Advance, k), adv);
                }
                if t.promote[k as usize] != 0 && t.zone[c.idx()].has(sq) {
                    f(p.kind(Term::Promo, k), 1);
                }
                f(p.square_at(k, adv as usize, col_of(sq)), 1);
            }
            f(p.kind(Term::PieceEg, k), 1);
            if adv != 0 {
                f(p.kind(Term::AdvanceEg, k), adv);
            }
        }
    }
    if guard {
        for sq in pos.occupied(c).and(&own_zone).iter() {
            let k = kind_of(pos.piece_at(sq));
            if t.royal_mask >> k & 1 == 0 {
                f(p.kind(Term::Guard, k), 1);
            }
        }
    }
    if raid {
        for sq in pos.occupied(c).and(&enemy_zone).iter() {
            f(p.kind(Term::Raid, kind_of(pos.piece_at(sq))), 1);
        }
    }
    if !with_mobility {
        // Left out.
    } else if !all
        && maps.is_none()
        && let Some(m) = pos.mobility_sums_kept()
    {
        // Kept up to date by the position: the weighted sum in one term.
        f(MOBILITY_SUM, m[c.idx()]);
    } else if maps.is_none() && (all || u.mobility) {
        for sq in pos.mobile[c.idx()].iter() {
            let k = kind_of(pos.piece_at(sq));
            let m = p.kind(Term::Mobility, k);
            if all || p.w[m] != 0 {
                let n = mobility(pos, sq, c, k);
                if n != 0 {
                    f(m, n);
                }
            }
        }
    }
    // With the maps, mobility comes summed per kind from their walk.
    if let Some(maps) = maps.filter(|_| with_mobility) {
        for (k, &n) in maps.mob[c.idx()].iter().enumerate().take(v.pieces.len() + 1) {
            if n != 0 && (all || p.w[p.kind(Term::Mobility, k as u8)] != 0) {
                f(p.kind(Term::Mobility, k as u8), n);
            }
        }
    }
    if v.drops {
        for &k in &t.hand_kinds {
            let n = pos.hand(c, k) as i32;
            if n != 0 {
                f(p.kind(Term::Hand, k), n);
                if all || u.eg_kind {
                    f(p.kind(Term::HandEg, k), n);
                }
            }
        }
    }
    let enemy_hand: i32 = if v.drops {
        t.hand_kinds.iter().filter(|&&k| k != t.pawn_kind).map(|&k| pos.hand(them, k) as i32).sum()
    } else {
        0
    };
    let attacks = all
        || p.w[p.index(Term::KingAttack)] != 0
        || p.w[p.index(Term::KingWeak)] != 0
        || p.w[p.index(Term::KingDanger)] != 0
        || p.w[p.index(Term::KingDangerEg)] != 0;
    // Threats: our pieces that an enemy piece attacks while they are worth more than their
    // least attacker, or while we do not defend them.
    if let Some(Maps { att, least: Some(least), .. }) = maps {
        let (ours, theirs, least) = (&att[c.idx()], &att[them.idx()], &least[them.idx()]);
        let mut n = 0;
        for sq in pos.occupied(c).iter() {
            let (i, k) = (sq as usize, kind_of(pos.piece_at(sq)));
            if theirs[i] != 0 && t.royal_mask >> k & 1 == 0 && (ours[i] == 0 || (least[i] as i32) < v.piece(k).value) {
                f(p.kind(Term::Threat, k), 1);
                n += 1;
            }
        }
        if n != 0 && c == pos.side_to_move() {
            f(p.index(Term::ThreatMoving), n);
        }
    }
    let maps = maps.map(|m| (&m.att[c.idx()], &m.att[them.idx()]));
    // Without the maps, with few pieces on the board (see `Tables::box_from_pieces`), the
    // counts next to a royal come from the pieces: on an open board the lines out of each
    // square would run long. Both ways give the same counts.
    let from_pieces = maps.is_none() && pos.occupied(c).count() + pos.occupied(them).count() <= t.box_from_pieces;
    let mop = [Term::MopEdge, Term::MopClose, Term::MopFree];
    if !v.drops && (all || mop.iter().any(|&x| p.w[p.index(x)] != 0)) && mop_up(pos, c) {
        let (w, h) = (v.width as i32, v.height as i32);
        let mut edge = 0;
        for r in enemy.iter() {
            let (x, y) = (col_of(*r) as i32, row_of(*r) as i32);
            edge += x.min(w - 1 - x).min(y).min(h - 1 - y);
        }
        f(p.index(Term::MopEdge), edge);
        let mut close = 0;
        for sq in pos.occupied(c).iter() {
            let d = enemy.iter().map(|&r| distance(r, sq) as i32).min().unwrap_or(0);
            close += (w.max(h) - 1 - d).max(0);
        }
        f(p.index(Term::MopClose), close);
        // The enemy royals' flight squares: next to them, not their own, not attacked by us.
        let mut free = 0;
        for &r in &enemy {
            for off in DIR_OFF {
                let s = (r as i16 + off) as Sq;
                let q = pos.piece_at(s);
                if q != WALL && (q == EMPTY || is_color(q, c)) && !pos.attacked(s, c) {
                    free += 1;
                }
            }
        }
        f(p.index(Term::MopFree), free);
    }
    for r in pos.royals(c).iter() {
        let (mut shelter, mut attacked, mut weak, mut empty) = (0, 0, 0, 0);
        // The enemy pieces within two squares (next to the royal and on the ring around).
        let near = pos.occupied(them).and(&WITHIN2[r as usize]).count_few() as i32;
        let bx = if from_pieces && attacks { pos.box_counts_from_pieces(r) } else { [[0; 8]; 2] };
        let scan = maps.is_none() && !from_pieces && attacks;
        // `leaps[by]`: whether a leap of `by` may reach a square next to the royal (else the
        // lines give the whole count; see `Position::may_leap_near`).
        let leaps = [Color::Black, Color::White].map(|by| scan && pos.may_leap_near(r, by));
        // The attack count of `by` on the `i`-th square `s` next to the royal.
        let count = |s: Sq, i: usize, by: Color| match &maps {
            Some((ours, theirs)) => (if by == c { ours } else { theirs })[s as usize] as i32,
            None if from_pieces => bx[by.idx()][i] as i32,
            None if leaps[by.idx()] => pos.attack_count(s, by) as i32,
            None => pos.attack_count_lines(s, by) as i32,
        };
        for (i, off) in DIR_OFF.into_iter().enumerate() {
            let s = (r as i16 + off) as Sq;
            let q = pos.piece_at(s);
            if q == WALL {
                continue;
            }
            if q == EMPTY {
                empty += 1;
            } else if is_color(q, c) {
                shelter += 1;
            }
            if attacks || maps.is_some() {
                let a = count(s, i, them);
                if a != 0 {
                    attacked += a;
                    // The royal itself defends every square next to it.
                    if a >= count(s, i, c) {
                        weak += 1;
                    }
                }
            }
        }
        f(p.index(Term::Shelter), shelter);
        let col = col_of(r);
        let edge = col.min(v.width - 1 - col) as i32;
        f(p.index(Term::KingEdge), edge);
        if all || u.eg {
            f(p.index(Term::ShelterEg), shelter);
            f(p.index(Term::KingEdgeEg), edge);
        }
        f(p.index(Term::NearEnemy), near);
        if enemy_hand != 0 {
            f(p.index(Term::HandDanger), enemy_hand * empty);
        }
        // The part of the danger indices that both share.
        let base = 2 * attacked + 4 * weak + 3 * near - shelter;
        if attacks {
            f(p.index(Term::KingAttack), attacked);
            f(p.index(Term::KingWeak), weak);
            let danger = base + 3 * enemy_hand.min(6);
            if danger > 0 {
                f(p.index(Term::KingDanger), danger * danger / 64);
                f(p.index(Term::KingDangerEg), danger * danger / 64);
            }
        }
        if v.drops
            && let Some((ours, theirs)) = &maps
        {
            let (mut checks, mut unsafe_checks) = (0, 0);
            king::drop_checks(pos, c, r, ours, theirs, &mut |k, safe, not_safe| {
                if safe > 0 {
                    f(p.kind(Term::DropCheck, k), safe.min(2));
                    checks += safe.min(2);
                }
                unsafe_checks += not_safe;
            });
            f(p.index(Term::UnsafeCheck), unsafe_checks.min(4));
            let (flank, defence) = king::flank(pos, c, r, ours, theirs);
            f(p.index(Term::FlankAttack), flank);
            f(p.index(Term::FlankDefence), defence);
            let danger = base + 6 * checks + unsafe_checks.min(4) + flank / 2 - defence / 4;
            if danger > 0 {
                f(p.index(Term::DropDanger), danger.min(64) * danger / 64);
                f(p.index(Term::DropDangerEg), danger.min(64) * danger / 64);
            }
        }
    }
}

/// The pseudo weight index under which [`visit`] (without `all`) reports the position's
/// weighted mobility sum (`Position::mob`), already times its weights.
const MOBILITY_SUM: usize = usize::MAX;

/// What a position needs to keep the weighted mobility of each side up to date move by move
/// (`Position::mob`, `position/mobility.rs`).
pub struct IncMobility {
    /// Per kind, the mobility weight.
    pub w: [i32; MAX_KINDS],
    /// Per colour and kind, the directions (bits indexing `DIR_OFF`) of its slides (of
    /// kinds with a mobility weight; at most one slide a direction).
    pub dirs: [[u8; MAX_KINDS]; 2],
    /// Per colour, kind and direction, the range limit of that slide (0: none).
    pub max: [[[u8; 8]; MAX_KINDS]; 2],
    /// Pieces on the board from which the sums are kept (fewer: the evaluation walks the
    /// mobility instead). Where pieces are few and lines long, the walks out from a move's
    /// squares cost more than the evaluation's walk saves. Without drops the count never
    /// rises again within a search; with drops it is 0.
    pub min_pieces: u32,
}

static INC_MOBILITY: std::sync::LazyLock<Vec<Option<IncMobility>>> =
    std::sync::LazyLock::new(|| crate::variant::all().into_iter().map(inc_mobility_of).collect());

fn inc_mobility_of(v: &'static Variant) -> Option<IncMobility> {
    let p = params(v);
    let t = &v.t;
    // Only where `evaluate` walks the mobility itself (no maps), and every atom that gives
    // mobility is a slide along one of the eight directions.
    if !used(v).mobility || zone_terms(v, p, false) || used(v).threat {
        return None;
    }
    let mut m = IncMobility {
        w: [0; MAX_KINDS],
        dirs: [[0; MAX_KINDS]; 2],
        max: [[[0; 8]; MAX_KINDS]; 2],
        min_pieces: 0,
    };
    if !v.drops {
        // Three fifths of the start's pieces: in chu 56 of 92 (after 300 plies of a game,
        // with 47 left, keeping them cost a little more than it saved).
        // (Read off the start SFEN: a `Position` would need this table.)
        let start = crate::position::sfen::parse(v, v.start_sfen).map_or(0, |s| s.pieces.len() as u32);
        m.min_pieces = start * 3 / 5;
    }
    for k in 1..=v.pieces.len() {
        m.w[k] = p.w[p.kind(Term::Mobility, k as u8)];
        if m.w[k] == 0 || t.mob_kinds >> k & 1 == 0 {
            m.w[k] = 0;
            continue;
        }
        for c in 0..2 {
            let (lo, mid, hi) = t.mob_range[c][k];
            if mid != hi {
                return None;
            }
            for a in &t.mob_atoms[c][lo as usize..mid as usize] {
                let d = DIR_OFF.iter().position(|&d| d == a.off)?;
                if m.dirs[c][k] >> d & 1 != 0 {
                    return None;
                }
                m.dirs[c][k] |= 1 << d;
                m.max[c][k][d] = a.max;
            }
        }
    }
    Some(m)
}

/// The tables for keeping `v`'s weighted mobility up to date move by move, where its
/// evaluation allows it (see [`IncMobility`]).
pub fn incremental_mobility(v: &Variant) -> Option<&'static IncMobility> {
    INC_MOBILITY[v.index].as_ref()
}

/// The weighted mobility of the piece of kind `k` and colour `c` on `sq` (what
/// `Position::mob` sums).
#[inline]
pub(crate) fn weighted_mobility(pos: &Position, inc: &IncMobility, sq: Sq, c: Color, k: u8) -> i32 {
    let w = inc.w[k as usize];
    if w == 0 { 0 } else { w * mobility(pos, sq, c, k) }
}

/// The weighted mobility that the slide of the piece of kind `k` and colour `c` on `sq` along
/// the `d`-th direction gives (a part of [`weighted_mobility`]).
#[inline]
pub(crate) fn weighted_ray(pos: &Position, inc: &IncMobility, sq: Sq, c: Color, k: u8, d: usize) -> i32 {
    inc.w[k as usize] * slide_mobility(&pos.board, sq, DIR_OFF[d], inc.max[c.idx()][k as usize][d], c.flip())
}

/// Squares the piece of kind `k` on `sq` can move to or capture on along its sliding and
/// hopping atoms (leaps and lion power are not counted).
fn mobility(pos: &Position, sq: Sq, c: Color, k: u8) -> i32 {
    let t = &pos.variant().t;
    let (lo, mid, hi) = t.mob_range[c.idx()][k as usize];
    let atoms = &t.mob_atoms[c.idx()];
    let (b, them) = (&pos.board, c.flip());
    let mut n = 0;
    // The slides, walked here without the dispatch on the ride.
    for a in &atoms[lo as usize..mid as usize] {
        n += slide_mobility(b, sq, a.off, a.max, them);
    }
    for a in &atoms[mid as usize..hi as usize] {
        n += atom_mobility(pos, sq, c, a);
    }
    n
}

/// The part of [`mobility`] that a slide gives: the empty squares from `sq` along `off` up to
/// the first piece or `max` of them (0: no limit), and that piece if it is `them`'s.
#[inline(always)]
fn slide_mobility(b: &[u8; NSQ], sq: Sq, off: i16, max: u8, them: Color) -> i32 {
    let mut x = sq as i16 + off;
    let mut n = 0;
    loop {
        let q = b[x as u8 as usize];
        if q != EMPTY {
            return n + is_color(q, them) as i32;
        }
        n += 1;
        if n == max as i32 {
            return n;
        }
        x += off;
    }
}

/// The part of [`mobility`] that one atom gives.
fn atom_mobility(pos: &Position, sq: Sq, c: Color, a: &CAtom) -> i32 {
    let b = &pos.board;
    let off = a.off;
    let mut n = 0;
    match a.ride {
        Ride::Slide => n = slide_mobility(b, sq, off, a.max, c.flip()),
        Ride::Hop | Ride::Range => {
            let mut x = sq as i16 + off;
            while b[x as u8 as usize] == EMPTY {
                x += off;
            }
            if b[x as u8 as usize] == WALL {
                return 0;
            }
            loop {
                x += off;
                let q = b[x as u8 as usize];
                if q == EMPTY {
                    n += 1;
                    continue;
                }
                if q != WALL && !is_color(q, c) {
                    n += 1;
                }
                break;
            }
        }
        Ride::Leap | Ride::Lion => {}
    }
    n
}

/// Test helper: the next value of a xorshift generator.
#[cfg(test)]
pub(crate) fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// Test helper: plays a pseudo-random legal game of `v` from the start (xorshift from `seed`)
/// and calls `f` on each position, up to `plies` of them, until no move is left or a side has
/// lost its royals.
#[cfg(test)]
pub(crate) fn random_game(v: &'static crate::variant::Variant, mut seed: u64, plies: usize, mut f: impl FnMut(&Position)) {
    let mut pos = Position::startpos(v);
    for _ in 0..plies {
        f(&pos);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make(moves[(xorshift(&mut seed) >> 11) as usize % moves.len()]);
        if pos.royals(pos.side_to_move()).is_empty() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of feature `i` of `pos` from Black's point of view (0 when absent).
    fn feature(pos: &Position, i: usize) -> i32 {
        features(pos).iter().find(|&&(j, _)| j == i).map_or(0, |&(_, x)| x)
    }

    /// The weights times [`features`] from Black's point of view: the other terms' dot product
    /// plus the endgame terms' divided by [`PHASE`].
    fn model(pos: &Position) -> i32 {
        let p = params(pos.variant());
        let dot = |eg: bool| -> i32 { features(pos).iter().filter(|&&(i, _)| p.is_eg(i) == eg).map(|&(i, x)| p.w[i] * x).sum() };
        dot(false) + dot(true) / PHASE
    }

    #[test]
    fn evaluate_is_the_dot_product_of_weights_and_features() {
        for v in crate::variant::all() {
            random_game(v, 0x9E37_79B9_7F4A_7C15, 120, |pos| {
                let sign = if pos.side_to_move() == Color::Black { 1 } else { -1 };
                assert_eq!(evaluate(pos), sign * model(pos), "{} {}", v.name, pos.to_sfen());
            });
        }
    }

    #[test]
    fn the_evaluation_without_mobility_leaves_out_exactly_the_mobility_terms() {
        for v in crate::variant::all() {
            let p = params(v);
            let mobility: Vec<usize> = (1..=p.kinds as u8).map(|k| p.kind(Term::Mobility, k)).collect();
            let mut moved = 0;
            random_game(v, 0x243F_6A88_85A3_08D3, 120, |pos| {
                let sign = if pos.side_to_move() == Color::Black { 1 } else { -1 };
                let part: i32 = features(pos).iter().filter(|(i, _)| mobility.contains(i)).map(|&(i, x)| p.w[i] * x).sum();
                assert!(mobility.iter().all(|&i| !p.is_eg(i)));
                assert_eq!(evaluate_without_mobility(pos), evaluate(pos) - sign * part, "{} {}", v.name, pos.to_sfen());
                moved += (part != 0) as u32;
            });
            assert!(moved > 0 || !used(v).mobility, "{}: mobility counted somewhere", v.name);
        }
    }

    #[test]
    fn the_light_evaluation_is_exactly_its_terms_of_the_whole() {
        for v in crate::variant::all() {
            let p = params(v);
            let per_kind = [Term::Piece, Term::Hand, Term::Promo, Term::Advance, Term::Guard, Term::Raid];
            let single = [Term::Tempo, Term::Shelter, Term::KingEdge, Term::NearEnemy];
            let kept = |i: usize| {
                let kinds = (1..=p.kinds as u8).any(|k| per_kind.iter().any(|&t| p.kind(t, k) == i));
                // The piece-square terms come after every other.
                let squares = i >= p.square_at(1, 0, 0);
                kinds || squares || single.iter().any(|&t| p.index(t) == i)
            };
            let mut moved = 0;
            random_game(v, 0x2B7E_1516_28AE_D2A6, 160, |pos| {
                let sign = if pos.side_to_move() == Color::Black { 1 } else { -1 };
                let want: i32 = features(pos).iter().filter(|&&(i, _)| kept(i)).map(|&(i, x)| p.w[i] * x).sum();
                assert_eq!(evaluate_light(pos), sign * want, "{} {}", v.name, pos.to_sfen());
                moved += (evaluate_light(pos) != material(pos)) as u32;
            });
            assert!(moved > 0, "{}: some term beyond the material sums counted", v.name);
        }
    }

    #[test]
    fn near_enemy_counts_the_enemy_pieces_within_two_squares_of_each_royal() {
        for v in crate::variant::all() {
            let i = params(v).index(Term::NearEnemy);
            let mut near = 0;
            random_game(v, 0x1357_9BDF_2468_ACE0, 160, |pos| {
                // Black's royals' count minus White's, read off the board square by square.
                let mut want = 0;
                for (c, sign) in [(Color::Black, 1), (Color::White, -1)] {
                    for r in pos.royals(c).iter() {
                        for s in pos.occupied(c.flip()).iter() {
                            if distance(r, s) <= 2 {
                                want += sign;
                                near += 1;
                            }
                        }
                    }
                }
                assert_eq!(feature(pos, i), want, "{} {}", v.name, pos.to_sfen());
            });
            assert!(near > 0, "{}: some enemy piece came near a royal", v.name);
        }
    }

    #[test]
    fn threats_count_pieces_attacked_by_a_lesser_piece_or_left_undefended() {
        let v = crate::variant::Variant::by_name("shoshogi").expect("sho");
        let p = params(v);
        let get = |pos: &Position, t: Term, kind: &str| {
            let i = if kind.is_empty() {
                p.index(t)
            } else {
                p.kind(t, v.kind_by_sfen(kind).expect("kind"))
            };
            feature(pos, i)
        };
        // Black's pawn on 5f and White's gold on 5e attack each other, neither defended:
        // both are threatened (from Black's point of view, White's gold counts -1), and the
        // side to move (Black) has one threatened piece.
        let open = Position::from_sfen(v, "4k4/9/9/9/4g4/4P4/9/9/4K4 b - 1").expect("sfen");
        assert_eq!(get(&open, Term::Threat, "P"), 1);
        assert_eq!(get(&open, Term::Threat, "G"), -1);
        assert_eq!(get(&open, Term::ThreatMoving, ""), 1);
        // White to move: its gold is the mover's threatened piece.
        let white = Position::from_sfen(v, "4k4/9/9/9/4g4/4P4/9/9/4K4 w - 1").expect("sfen");
        assert_eq!(get(&white, Term::ThreatMoving, ""), -1);
        // Black's lance on 5g defends the pawn, which is worth less than its only attacker (the
        // white gold): no longer threatened; the white gold, attacked by the lesser pawn, is.
        let defended = Position::from_sfen(v, "4k4/9/9/9/4g4/4P4/4L4/9/4K4 b - 1").expect("sfen");
        assert_eq!(get(&defended, Term::Threat, "P"), 0);
        assert_eq!(get(&defended, Term::Threat, "G"), -1);
        // Royals are never counted: Black's undefended gold checks the white king, which
        // attacks it.
        let kings = Position::from_sfen(v, "9/9/9/4k4/4G4/9/9/9/4K4 w - 1").expect("sfen");
        assert_eq!(get(&kings, Term::Threat, "K"), 0);
        assert_eq!(get(&kings, Term::Threat, "G"), 1);
        assert_eq!(evaluate(&open), model(&open));
        assert_eq!(evaluate(&white), -model(&white));
    }

    #[test]
    fn cannon_shogi_counts_a_rook_that_a_cannon_attacks_over_a_screen_as_threatened() {
        let v = crate::variant::Variant::by_name("cannonshogi").expect("cannon shogi");
        let p = params(v);
        let rook = p.kind(Term::Threat, v.kind_by_sfen("R").expect("rook"));
        let get = |pos: &Position| feature(pos, rook);
        // White's gold cannon on 5a hops the black pawn on 5c onto Black's undefended rook on
        // 5e; with the pawn gone there is no screen and no threat.
        let hop = Position::from_sfen(v, "4u3k/9/4P4/9/4R4/9/9/9/K8 b - 1").expect("sfen");
        let bare = Position::from_sfen(v, "4u3k/9/9/9/4R4/9/9/9/K8 b P 1").expect("sfen");
        assert_eq!(get(&hop), 1);
        assert_eq!(get(&bare), 0);
        // The shipped weights price it (about a fifth of the rook's value).
        assert!(p.w[rook] < -100, "{}", p.w[rook]);
        assert!(used(v).threat);
        // Cannon shosu prices threats and its king zone too (its weights used to be material only).
        let shosu = crate::variant::Variant::by_name("cannonshosu").expect("cannon shosu");
        let sp = params(shosu);
        assert!(used(shosu).threat);
        assert!(sp.w[sp.index(Term::KingAttack)] < 0 && sp.w[sp.index(Term::Shelter)] > 0);
    }

    #[test]
    fn mop_up_drives_the_bare_king_to_the_edge() {
        // Sho: White has nine promoted pieces against king and promoted silver (a won ending
        // that the engine used to shuffle in until the move limit).
        let v = crate::variant::Variant::by_name("shoshogi").expect("sho");
        let p = params(v);
        let centre = Position::from_sfen(v, "9/9/9/9/9/3K+S1+b+s1/5+nk2/+l+p3+s+l+p1/2+p6 w - 1").expect("sfen");
        let f = features(&centre);
        let get = |f: &[(usize, i32)], t: Term| f.iter().find(|&&(i, _)| i == p.index(t)).map_or(0, |&(_, x)| x);
        // From Black's point of view: White's terms count negatively; Black gets none.
        assert_eq!(get(&f, Term::MopEdge), -3, "{f:?}");
        assert!(get(&f, Term::MopClose) < 0);
        assert_eq!(evaluate(&centre), -model(&centre));
        // The same king on the edge: no edge term.
        let edge = Position::from_sfen(v, "9/9/9/9/9/K2+S1+b+s2/5+nk2/+l+p3+s+l+p1/2+p6 w - 1").expect("sfen");
        assert_eq!(get(&features(&edge), Term::MopEdge), 0);
        // Even material: no mop-up.
        let start = Position::startpos(v);
        assert_eq!(get(&features(&start), Term::MopEdge), 0);
        assert_eq!(get(&features(&start), Term::MopClose), 0);
        assert_eq!(get(&features(&start), Term::MopFree), 0);
        // A bare White king on 1a; Black has a rook (on 9i) and golds. The gold on 1c takes
        // 1b and 2b from it: 2a is its one flight square (a Black term, so positive here).
        let one = Position::from_sfen(v, "8k/9/8G/9/9/9/9/9/R3K4 w - 1").expect("sfen");
        assert_eq!(get(&features(&one), Term::MopFree), 1);
        assert_eq!(evaluate(&one), -model(&one));
        // A second gold on 3b also covers 2a: no flight square left.
        let none = Position::from_sfen(v, "8k/6G2/8G/9/9/9/9/9/R3K4 w - 1").expect("sfen");
        assert_eq!(get(&features(&none), Term::MopFree), 0);
        // Sho's weights pay the mopping-up side for taking flight squares away.
        assert!(p.w[p.index(Term::MopFree)] < 0);
    }

    #[test]
    fn the_endgame_share_grows_as_pieces_leave_the_board() {
        for v in crate::variant::all() {
            assert_eq!(endgame(&Position::startpos(v)), 0, "{}", v.name);
        }
        let v = crate::variant::Variant::by_name("shoshogi").expect("sho");
        // The bare-king ending above: 10 of the start's 40 non-royal pieces are left.
        let end = Position::from_sfen(v, "9/9/9/9/9/3K+S1+b+s1/5+nk2/+l+p3+s+l+p1/2+p6 w - 1").expect("sfen");
        assert_eq!(endgame(&end), PHASE);
        // Six pawns gone: 2 * 64 * 6 / 40 = 19.
        let mid = Position::from_sfen(v, "lnsgkgsnl/1r2e2b1/pppp1pp2/9/9/9/PPPP1PP2/1B2E2R1/LNSGKGSNL b - 1").expect("sfen");
        assert_eq!(endgame(&mid), 2 * PHASE * 6 / 40);
        // In drop variants a piece in hand has left the board too (shogi starts with 38).
        let s = crate::variant::Variant::by_name("shogi").expect("shogi");
        let hand = Position::from_sfen(s, "lnsgkgsnl/1r5b1/ppppppp2/9/9/9/PPPPPPP2/1B5R1/LNSGKGSNL b 2P2p 1").expect("sfen");
        assert_eq!(endgame(&hand), 2 * PHASE * 4 / 38);
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
