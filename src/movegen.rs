//! Pseudo-legal move generation from the compiled atoms of each piece: leaps, slides, cannon
//! hops, ranging jumps, lion power (with double moves, igui and one pass per position), board
//! promotions per the variant's rule, and drops with dead-square and two-pawn restrictions.
//! Royal safety, pawn-drop mate and the lion-trading rules are left to `legal`.
//!
//! Move identity (RULES.md): every generated move is distinct; a double move is generated only
//! when its first leg captures, and the pass at most once per position.

use crate::attack::DIR_OFF;
use crate::geometry::{Bits, RAYS, Sq, WITHIN1, col_of, distance, line_dir, row_of};
use crate::moves::{Move, MoveList};
use crate::piece::{Color, EMPTY, is_color, kind_of};
use crate::position::Position;
use crate::variant::{CAPTURE, MOVE, PromoRule, Ride, Tables};

struct Gen<'a, const CAPS: bool, const QUIET: bool> {
    pos: &'a Position,
    /// The variant's tables and promotion rule, and the side to move's zone (read by every
    /// push).
    t: &'a Tables,
    rule: PromoRule,
    zone: &'a Bits,
    us: Color,
    them: Color,
    list: &'a mut MoveList,
    passed: bool,
}

/// `CAPS`: whether captures are wanted (false: non-captures only, the pass among them);
/// `QUIET`: whether non-captures are wanted (false: captures only, no drops, no pass). A move
/// is a capture here exactly when `Position::is_capture` says so.
impl<'a, const CAPS: bool, const QUIET: bool> Gen<'a, CAPS, QUIET> {
    fn new(pos: &'a Position, list: &'a mut MoveList) -> Gen<'a, CAPS, QUIET> {
        let us = pos.side;
        let v = pos.variant();
        Gen {
            pos,
            t: &v.t,
            rule: v.promo_rule,
            zone: &v.t.zone[us.idx()],
            us,
            them: us.flip(),
            list,
            passed: false,
        }
    }

    /// Pushes a board move of kind `k` with its promotion choices.
    #[inline]
    fn push(&mut self, k: u8, from: Sq, to: Sq, capture: bool) {
        let t = self.t;
        if t.promote[k as usize] == 0 {
            self.list.push(Move::normal(from, to, false));
            return;
        }
        let zone = self.zone;
        match self.rule {
            PromoRule::Shogi => {
                if zone.has(from) || zone.has(to) {
                    self.list.push(Move::normal(from, to, true));
                }
                if t.rel_rank[self.us.idx()][to as usize] >= t.forced[k as usize] {
                    self.list.push(Move::normal(from, to, false));
                }
            }
            PromoRule::Chu => {
                let (zf, zt) = (zone.has(from), zone.has(to));
                let last = t.last_rank_choice >> k & 1 != 0 && t.rel_rank[self.us.idx()][to as usize] == 0;
                if last || (zt && !zf) || (zf && capture) {
                    self.list.push(Move::normal(from, to, true));
                }
                self.list.push(Move::normal(from, to, false));
            }
        }
    }

    #[inline]
    fn target(&mut self, k: u8, from: Sq, to: Sq, mode: u8) {
        let q = self.pos.board[to as usize];
        if q == EMPTY {
            if mode & MOVE != 0 && QUIET {
                self.push(k, from, to, false);
            }
        } else if CAPS && mode & CAPTURE != 0 && is_color(q, self.them) {
            self.push(k, from, to, true);
        }
    }

    /// The moves of the piece on `from`; with `TOWARD`, only those of its atoms that may
    /// reach `target`, and their slides only as far as it (a superset of its moves to
    /// `target`, for a test of one move).
    fn piece_moves<const TOWARD: bool>(&mut self, from: Sq, target: Sq) {
        let pos = self.pos;
        let t = &pos.variant().t;
        let b = &pos.board;
        let k = kind_of(b[from as usize]);
        let (lo, hi) = t.atom_range[self.us.idx()][k as usize];
        let delta = target as i16 - from as i16;
        // The target's column and row steps from the origin (rows down), for the lines' test.
        let (dx, dy) = (col_of(target) as i16 - col_of(from) as i16, row_of(target) as i16 - row_of(from) as i16);
        let target = target as i16;
        for a in &t.atoms[self.us.idx()][lo as usize..hi as usize] {
            let off = a.off;
            // A leap reaches one square; a line reaches only squares a positive multiple of
            // its step away (not all of them: the walk decides).
            if TOWARD
                && match a.ride {
                    Ride::Leap => off != delta,
                    Ride::Lion => false,
                    _ => !reaches_along(off, delta, dx, dy),
                }
            {
                continue;
            }
            // Captures alone: an atom along a line (a slide, hop or ranging jump) with no
            // enemy piece on that line has none to give.
            if CAPS && !QUIET && a.dir < 8 && pos.occ[self.them.idx()].and(&RAYS[from as usize][a.dir as usize]).is_empty() {
                continue;
            }
            // Captures alone: a slide captures the first piece on its line if that is an
            // enemy within its range, found by a bit scan of the line's pieces (a walk to it
            // mispredicts at its end). The sets list exactly the board's pieces here.
            if CAPS && !QUIET && a.dir < 8 && matches!(a.ride, Ride::Slide) {
                let line = &RAYS[from as usize][a.dir as usize];
                if a.mode & CAPTURE != 0
                    && let Some(x) = pos.occ[0].or(&pos.occ[1]).and(line).nearest(off > 0)
                    && is_color(b[x as usize], self.them)
                    && (a.max == 0 || distance(from, x) <= a.max as usize)
                {
                    self.push(k, from, x, true);
                }
                continue;
            }
            match a.ride {
                Ride::Leap => self.target(k, from, (from as i16 + off) as Sq, a.mode),
                Ride::Slide => {
                    let mut to = from as i16;
                    let mut n = 0;
                    loop {
                        to += off;
                        let q = b[to as u8 as usize];
                        if q == EMPTY {
                            if a.mode & MOVE != 0 && QUIET {
                                self.push(k, from, to as Sq, false);
                            }
                        } else {
                            if CAPS && a.mode & CAPTURE != 0 && is_color(q, self.them) {
                                self.push(k, from, to as Sq, true);
                            }
                            break;
                        }
                        n += 1;
                        // Past the target, the walk cannot reach it (a test of one move).
                        if n == a.max || (TOWARD && to == target) {
                            break;
                        }
                    }
                }
                Ride::Hop => {
                    let mut to = from as i16 + off;
                    let mut dist = 1u8;
                    while b[to as u8 as usize] == EMPTY {
                        to += off;
                        dist += 1;
                    }
                    if b[to as u8 as usize] == crate::piece::WALL {
                        continue;
                    }
                    loop {
                        to += off;
                        dist += 1;
                        if a.max != 0 && dist > a.max {
                            break;
                        }
                        let q = b[to as u8 as usize];
                        if q == EMPTY {
                            if a.mode & MOVE != 0 && QUIET {
                                self.push(k, from, to as Sq, false);
                            }
                            continue;
                        }
                        if CAPS && a.mode & CAPTURE != 0 && is_color(q, self.them) {
                            self.push(k, from, to as Sq, true);
                        }
                        break;
                    }
                }
                Ride::Range => {
                    let mut to = from as i16 + off;
                    while b[to as u8 as usize] == EMPTY {
                        to += off;
                    }
                    if b[to as u8 as usize] == crate::piece::WALL {
                        continue;
                    }
                    loop {
                        to += off;
                        let q = b[to as u8 as usize];
                        if q == crate::piece::WALL {
                            break;
                        }
                        if q == EMPTY {
                            if a.mode & MOVE != 0 && QUIET {
                                self.push(k, from, to as Sq, false);
                            }
                        } else if CAPS && a.mode & CAPTURE != 0 && is_color(q, self.them) {
                            self.push(k, from, to as Sq, true);
                        }
                    }
                }
                Ride::Lion => self.lion(k, from, off),
            }
        }
    }

    /// Lion power: `off` 0 for a full lion, else one direction.
    fn lion(&mut self, k: u8, from: Sq, off: i16) {
        let b = &self.pos.board;
        let f = from as i16;
        let dirs: &[i16] = if off == 0 { &DIR_OFF } else { std::slice::from_ref(&off) };
        // Direct steps and jumps.
        for &d in dirs {
            self.target(k, from, (f + d) as Sq, crate::variant::MC);
        }
        if off == 0 {
            for &j in &crate::geometry::RING2 {
                self.target(k, from, (f + j) as Sq, crate::variant::MC);
            }
        } else {
            self.target(k, from, (f + 2 * off) as Sq, crate::variant::MC);
        }
        // Double moves (first leg captures) and the pass.
        for &d in dirs {
            let a = f + d;
            let qa = b[a as u8 as usize];
            if qa == EMPTY {
                if !self.passed && QUIET {
                    self.passed = true;
                    self.list.push(Move::double(from, a as Sq, from));
                }
                continue;
            }
            if !CAPS || !is_color(qa, self.them) {
                continue;
            }
            self.list.push(Move::double(from, a as Sq, from));
            let seconds: &[i16] = if off == 0 { &DIR_OFF } else { std::slice::from_ref(&off) };
            for &d2 in seconds {
                let to = a + d2;
                if to == f {
                    continue;
                }
                let q = b[to as u8 as usize];
                if q == EMPTY || is_color(q, self.them) {
                    // With a capture on the first leg, every double move is a capture.
                    self.list.push(Move::double(from, a as Sq, to as Sq));
                }
            }
        }
    }

    /// Drops onto the empty squares of `mask`.
    fn drops(&mut self, mask: &Bits) {
        let pos = self.pos;
        let v = pos.variant();
        let t = &v.t;
        let us = self.us.idx();
        let mut kinds = [0u8; 16];
        let mut n = 0;
        for &k in &t.hand_kinds {
            if pos.hands[us][k as usize] > 0 {
                kinds[n] = k;
                n += 1;
            }
        }
        if n == 0 {
            return;
        }
        let empty = mask.andnot(&pos.occ[0].or(&pos.occ[1]));
        for to in empty.iter() {
            for &k in &kinds[..n] {
                if pos.drop_rank_ok(k, to) {
                    self.list.push(Move::drop(k, to));
                }
            }
        }
    }
}

/// Whether `delta` (a grid offset, `dx` columns and `dy` rows down) is a positive multiple of
/// the line step `off`. A unit step (a column and a row of at most one: grid offsets 1, 15,
/// 16 and 17 either way, since no other step of at most two squares a side has those) is
/// tested by the signs of `dx` and `dy`, with no division; any other by dividing.
#[inline]
fn reaches_along(off: i16, delta: i16, dx: i16, dy: i16) -> bool {
    if matches!(off.unsigned_abs(), 1 | 15 | 16 | 17) {
        // The step's own column and row (rows down): off = ox + 16 * oy, |ox| <= 1.
        let ox = ((off + 8) & 15) - 8;
        let oy = (off - ox) >> 4;
        dx.signum() == ox && dy.signum() == oy && (ox == 0 || oy == 0 || dx.abs() == dy.abs())
    } else {
        off != 0 && delta % off == 0 && delta / off > 0
    }
}

impl Position {
    /// Whether the side to move may drop `k` on the (empty) square `to` as far as dead
    /// squares and the two-pawn rule go.
    #[inline]
    fn drop_rank_ok(&self, k: u8, to: Sq) -> bool {
        self.drop_rank_ok_for(self.side, k, to)
    }

    /// Whether colour `c` may drop `k` on the (empty) square `to` as far as dead squares and
    /// the two-pawn rule go (the evaluation asks it of the side not to move).
    #[inline]
    pub(crate) fn drop_rank_ok_for(&self, c: Color, k: u8, to: Sq) -> bool {
        let v = self.variant();
        let t = &v.t;
        let us = c.idx();
        t.rel_rank[us][to as usize] >= t.forced[k as usize] && !(v.two_pawn && k == t.pawn_kind && self.pawns[us][col_of(to)] != 0)
    }

    /// Whether `m` (any value, e.g. a hash move from another position) is pseudo-legal here.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let v = self.variant();
        if m.is_drop() {
            let (k, to) = (m.drop_kind(), m.to());
            return m == Move::drop(k, to)
                && v.drops
                && (k as usize) < crate::piece::MAX_KINDS
                && v.t.hand_kinds.contains(&k)
                && self.hands[self.side.idx()][k as usize] > 0
                && v.t.on_board.has(to)
                && self.board[to as usize] == EMPTY
                && self.drop_rank_ok(k, to);
        }
        let from = m.from();
        if !is_color(self.board[from as usize], self.side) {
            return false;
        }
        let mut list = MoveList::new();
        let k = kind_of(self.board[from as usize]);
        let us = self.side.idx();
        if m.mid() == 0 && v.t.plain_kinds[us] >> k & 1 != 0 {
            // A piece that only steps and slides, all its atoms moving and capturing alike:
            // it reaches `to` along the line from `from` (a step, or a slide over empty
            // squares) onto an empty square or an enemy piece; then the move's promotion
            // choices are the generator's for that square.
            let to = m.to();
            let q = self.board[to as usize];
            if q != EMPTY && !is_color(q, self.side.flip()) {
                return false;
            }
            let d = line_dir(from, to);
            if d == 8 {
                return false;
            }
            let n = distance(from, to);
            let t = &v.t;
            if n == 1 {
                if t.gen_near[us][k as usize] >> d & 1 == 0 {
                    return false;
                }
            } else {
                let off = DIR_OFF[d];
                if t.gen_slide[us][k as usize] >> d & 1 == 0 || (1..n).any(|i| self.board[(from as i16 + i as i16 * off) as u8 as usize] != EMPTY) {
                    return false;
                }
            }
            Gen::<true, true>::new(self, &mut list).push(k, from, to, q != EMPTY);
            return list.contains(&m);
        }
        // The pass (out to an empty square and back) is generated once a position, by the
        // first piece that can pass and through its first empty square: only that one is.
        if m.mid() != 0 && m.to() == from && self.board[m.mid() as usize] == EMPTY {
            self.board_moves::<false, true>(&mut list);
            return list.contains(&m);
        }
        Gen::<true, true>::new(self, &mut list).piece_moves::<true>(from, m.to());
        list.contains(&m)
    }
}

impl Position {
    /// Appends all pseudo-legal moves of the side to move to `list`: the board moves, then the
    /// drops.
    pub fn generate_pseudo(&self, list: &mut MoveList) {
        self.board_moves::<true, true>(list);
        self.generate_drops(&self.variant().t.on_board, list);
    }

    /// Appends the pseudo-legal captures of the side to move to `list` (with their promotion
    /// choices; lion double moves whose first leg captures; no drops, no pass).
    pub fn generate_captures(&self, list: &mut MoveList) {
        self.board_moves::<true, false>(list);
    }

    /// Appends the pseudo-legal non-captures of the side to move to `list`: the board moves
    /// (the pass among them), then the drops; [`Position::generate_pseudo`]'s list without
    /// its captures, in its order.
    pub fn generate_quiets(&self, list: &mut MoveList) {
        self.board_moves::<false, true>(list);
        self.generate_drops(&self.variant().t.on_board, list);
    }

    /// Appends the pseudo-legal captures of the piece of the side to move on `from`.
    pub fn generate_captures_from(&self, from: Sq, list: &mut MoveList) {
        Gen::<true, false>::new(self, list).piece_moves::<false>(from, from);
    }

    /// Appends the capture by the piece of the side to move on `from` of the enemy piece on
    /// `to` (one that the piece attacks there, see `Position::attackers`), with its promotion
    /// choices, as the generator lists them: the direct moves of a capture, without the lion
    /// double moves that end there.
    pub fn push_capture(&self, from: Sq, to: Sq, list: &mut MoveList) {
        let k = kind_of(self.board[from as usize]);
        Gen::<true, false>::new(self, list).push(k, from, to, true);
    }

    /// Appends the pseudo-legal board moves of the side to move to `list` (no drops).
    pub fn generate_board_moves(&self, list: &mut MoveList) {
        self.board_moves::<true, true>(list);
    }

    /// Appends the pseudo-legal board moves of the side to move that capture nothing to
    /// `list` (the pass among them; no drops).
    pub fn generate_board_quiets(&self, list: &mut MoveList) {
        self.board_moves::<false, true>(list);
    }

    /// Appends the pseudo-legal drops of the side to move onto the squares of `mask` to
    /// `list`, in the order [`Position::generate_pseudo`] has them.
    pub fn generate_drops(&self, mask: &Bits, list: &mut MoveList) {
        if self.variant().drops {
            Gen::<true, true>::new(self, list).drops(mask);
        }
    }

    /// Board moves of every piece of the side to move (`CAPS`: captures; `QUIET`:
    /// non-captures and the pass). A piece hemmed in by its own pieces and the edge
    /// (`Tables::gen_near`) is skipped without walking its atoms: it has none to give. For
    /// captures alone, so is a piece that only steps and has no enemy next to it (those with
    /// only steps, `Position::steppers`, found all at once from the squares next to the
    /// enemy's pieces); for non-captures alone, one with no empty neighbour. The pieces left
    /// are visited in square order either way.
    fn board_moves<const CAPS: bool, const QUIET: bool>(&self, list: &mut MoveList) {
        let t = &self.variant().t;
        let us = self.side.idx();
        let them = self.side.flip();
        let b = &self.board;
        let mut g = Gen::<CAPS, QUIET>::new(self, list);
        let movers = if QUIET {
            self.occ[us]
        } else {
            self.occ[us].andnot(&self.steppers[us].andnot(&self.occ[them.idx()].grow()))
        };
        for from in movers.iter() {
            let k = kind_of(b[from as usize]);
            if t.gen_far[us] >> k & 1 == 0 {
                let mut dirs = t.gen_near[us][k as usize];
                let slides = t.gen_slide[us][k as usize];
                // For captures alone, a piece that only steps needs an enemy next to it.
                if !QUIET && slides == 0 && self.occ[them.idx()].and(&WITHIN1[from as usize]).is_empty() {
                    continue;
                }
                let mut open = false;
                while dirs != 0 {
                    let d = dirs.trailing_zeros();
                    let q = b[(from as i16 + DIR_OFF[d as usize]) as u8 as usize];
                    // An empty neighbour: a quiet step, or a slide on towards a capture.
                    if (q == EMPTY && (QUIET || slides >> d & 1 != 0)) || (CAPS && is_color(q, them)) {
                        open = true;
                        break;
                    }
                    dirs &= dirs - 1;
                }
                if !open {
                    continue;
                }
            }
            g.piece_moves::<false>(from, from);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::geometry::{col_of, offset, row_of, sq};
    use crate::moves::{Move, MoveList};

    /// Over random games of every variant, every single move of every piece of the side to
    /// move to every square of the grid, with and without promotion, is pseudo-legal exactly
    /// when the generator lists it (the plain pieces' shortcut and the general test alike).
    #[test]
    fn the_pseudo_legality_test_agrees_with_the_generator() {
        for v in crate::variant::all() {
            let mut plain = 0;
            crate::eval::random_game(v, 0x6A09_E667_F3BC_C908, 120, |pos| {
                let mut list = MoveList::new();
                pos.generate_pseudo(&mut list);
                for from in pos.occupied(pos.side_to_move()).iter() {
                    plain += (v.t.plain_kinds[pos.side_to_move().idx()] >> crate::piece::kind_of(pos.piece_at(from)) & 1) as u32;
                    for to in 0..=255u8 {
                        for promote in [false, true] {
                            let m = Move::normal(from, to, promote);
                            assert_eq!(pos.is_pseudo_legal(m), list.contains(&m), "{} {}: {from} {to} {promote}", v.name, pos.to_sfen());
                        }
                    }
                }
            });
            assert!(plain > 0, "{}: some plain piece tested", v.name);
        }
    }

    /// Over random games of every variant, the captures alone are the full list's captures,
    /// in its order (the skipped pieces, steppers with no enemy next to them, give none), and
    /// the non-captures alone are the rest of its board moves.
    #[test]
    fn captures_and_quiets_alone_split_the_full_list() {
        for v in crate::variant::all() {
            crate::eval::random_game(v, 0xBB67_AE85_84CA_A73B, 160, |pos| {
                let (mut all, mut caps, mut quiets) = (MoveList::new(), MoveList::new(), MoveList::new());
                pos.generate_board_moves(&mut all);
                pos.generate_captures(&mut caps);
                pos.generate_board_quiets(&mut quiets);
                let want: Vec<Move> = all.iter().copied().filter(|&m| pos.is_capture(m)).collect();
                assert_eq!(caps.to_vec(), want, "{} {}", v.name, pos.to_sfen());
                let rest: Vec<Move> = all.iter().copied().filter(|&m| !pos.is_capture(m)).collect();
                assert_eq!(quiets.to_vec(), rest, "{} {}", v.name, pos.to_sfen());
            });
        }
    }

    /// On an empty 12x12 board, a unit step reaches exactly the squares its walk does; any
    /// other step is tested by dividing, as before.
    #[test]
    fn steps_reach_along_their_lines() {
        for ox in -2i8..=2 {
            for oy in -2i8..=2 {
                let off = offset(ox, oy);
                let unit = ox.abs() <= 1 && oy.abs() <= 1 && off != 0;
                for from in (0..12).flat_map(|c| (0..12).map(move |r| sq(c, r))) {
                    let mut walked = vec![];
                    if unit {
                        let (mut c, mut r) = (from as i32 % 16, from as i32 / 16);
                        loop {
                            c += ox as i32;
                            r -= oy as i32;
                            if !(2..14).contains(&c) || !(2..14).contains(&r) {
                                break;
                            }
                            walked.push((r * 16 + c) as u8);
                        }
                    }
                    for to in (0..12).flat_map(|c| (0..12).map(move |r| sq(c, r))) {
                        let delta = to as i16 - from as i16;
                        let (dx, dy) = (col_of(to) as i16 - col_of(from) as i16, row_of(to) as i16 - row_of(from) as i16);
                        let want = if unit {
                            walked.contains(&to)
                        } else {
                            off != 0 && delta % off == 0 && delta / off > 0
                        };
                        assert_eq!(super::reaches_along(off, delta, dx, dy), want, "{ox},{oy} {from} {to}");
                    }
                }
            }
        }
    }
}
