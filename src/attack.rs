//! Attack detection from the target square outwards, driven by the variant's compiled
//! attack masks: adjacent steps and unlimited slides on the first piece of each line,
//! adjacent-screen jumps, one-screen hops on the second piece, ranging jumps on every piece
//! beyond the first, and the remaining leaps by table (in variants with many of them, chu's
//! lion power, from the position's set of leapers within two squares of the target).
//! Where no piece attacks past a line's first piece (shogi, sho, chu), the eight next squares
//! are read through one table each and a line is walked only where a piece that slides along
//! lines of its kind (orthogonal or diagonal) stands on it.

use crate::geometry::{DIRS, RAYS, Sq, WITHIN2, WITHIN3, col_of, dir_index, line_dir, offset, row_of};
use crate::moves::Move;
use crate::piece::{Color, EMPTY, WALL, is_color, kind_of, make_piece};
use crate::position::Position;
use crate::variant::LEAP_BASE;

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

    /// Whether a leap of colour `by` may reach a square next to `r`: false only where
    /// leapers are found from the position's set ([`crate::variant::Tables::leap_by_set`])
    /// and none of `by`'s stands within three squares of `r`. Where it is false,
    /// [`Self::attack_count_lines`] is the full attack count of those squares.
    #[inline]
    pub fn may_leap_near(&self, r: Sq, by: Color) -> bool {
        !self.variant().t.leap_by_set || !self.leapers[by.idx()].and(&WITHIN3[r as usize]).is_empty()
    }

    /// The part of [`Self::attack_count`] that the lines out of `s` give (leaps left out).
    #[inline]
    pub fn attack_count_lines(&self, s: Sq, by: Color) -> u32 {
        self.lines::<true>(s, by, &mut |_| {})
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

    /// Calls `f` with the square of each piece of colour `by` that attacks `s` (x-rays not
    /// included; a piece may come more than once, in no particular order).
    #[inline]
    pub fn for_each_attacker(&self, s: Sq, by: Color, f: &mut impl FnMut(Sq)) {
        self.scan_with::<true>(s, by, f);
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
        if t.leap_by_set {
            // Only the leapers within two squares can leap here.
            for x in self.leapers[c].and(&WITHIN2[s as usize]).iter() {
                let mask = t.leap_at[c][(x as i16 - s as i16 + LEAP_BASE) as usize];
                if hits(b[x as usize], by, mask) {
                    hit(x);
                    n += 1;
                    if !ALL {
                        return 1;
                    }
                }
            }
        } else {
            for &(off, mask) in &t.leaps[c] {
                if hits(b[(s as i16 + off) as u8 as usize], by, mask) {
                    hit((s as i16 + off) as Sq);
                    n += 1;
                    if !ALL {
                        return 1;
                    }
                }
            }
        }
        n + self.lines::<ALL>(s, by, hit)
    }

    /// [`Self::scan_lines`] for this variant: past a line's first piece only where it has
    /// attacks there; [`Self::scan_plain_lines`] where no piece does.
    #[inline]
    fn lines<const ALL: bool>(&self, s: Sq, by: Color, hit: &mut impl FnMut(Sq)) -> u32 {
        if self.variant().t.line_beyond {
            self.scan_lines::<ALL>(s, by, hit)
        } else {
            self.scan_plain_lines::<ALL>(s, by, hit)
        }
    }

    /// The part of [`Self::scan_with`] along the eight lines from `s` where every attack
    /// along a line is a step to the next square or a slide to the line's first piece
    /// ([`crate::variant::Tables::line_beyond`] false). The eight next squares are tested
    /// without a branch each; a line is walked only past an empty next square and only where
    /// a piece of `by` that slides along lines of its kind (orthogonal or diagonal) stands on
    /// it (most lines have none: a walk mispredicts at its end). This needs `occ`'s class
    /// subsets `orth[by]` and `diag[by]` to list every such piece of `by` on the board off `s`
    /// (as `scan_lines` needs of `occ[by]`).
    #[inline]
    fn scan_plain_lines<const ALL: bool>(&self, s: Sq, by: Color, hit: &mut impl FnMut(Sq)) -> u32 {
        let t = &self.variant().t;
        let b = &self.board;
        let c = by.idx();
        let rays = &RAYS[s as usize];
        // The next squares: a piece of `by` that attacks from there, or an empty square.
        let code = &t.next_code[c];
        let mut next = 0u32;
        for (d, &off) in DIR_OFF.iter().enumerate() {
            next |= code[b[(s as i16 + off) as u8 as usize] as usize] as u32 & (0x101 << d);
        }
        let (mut near, open) = (next & 0xFF, next >> 8);
        let classes = [&self.orth[c], &self.diag[c]];
        let mut far = 0u32;
        for (d, ray) in rays.iter().enumerate() {
            far |= (!classes[d & 1].and(ray).is_empty() as u32) << d;
        }
        let mut n = near.count_ones();
        if !ALL && n != 0 {
            return 1;
        }
        while near != 0 {
            let d = near.trailing_zeros() as usize;
            near &= near - 1;
            hit((s as i16 + DIR_OFF[d]) as Sq);
        }
        let mut walk = open & far & t.slide_dirs[c] as u32;
        while walk != 0 {
            let d = walk.trailing_zeros() as usize;
            walk &= walk - 1;
            let off = DIR_OFF[d];
            let mut x = s as i16 + off;
            let mut p;
            loop {
                x += off;
                p = b[x as u8 as usize];
                if p != EMPTY {
                    break;
                }
            }
            if hits(p, by, t.slider[c][d]) {
                hit(x as Sq);
                n += 1;
                if !ALL {
                    return 1;
                }
            }
        }
        n
    }

    /// The part of [`Self::scan_with`] along the eight lines from `s` in a variant with
    /// attacks past a line's first piece or two squares over an adjacent one
    /// ([`crate::variant::Tables::line_beyond`]: hops and ranging jumps).
    #[inline]
    fn scan_lines<const ALL: bool>(&self, s: Sq, by: Color, hit: &mut impl FnMut(Sq)) -> u32 {
        let mut n = 0;
        let t = &self.variant().t;
        let b = &self.board;
        let c = by.idx();
        // Only a piece of `by` on a line can attack along it (the next square included):
        // the lines that side's set has no square on are left out, found without a branch
        // each. This needs `occ[by]` to list every piece of `by` on the board off `s`: code
        // that changes the board alone for a scan may leave squares listed that are empty
        // now, but may move a piece of `by` only onto `s` (the exchange's recaptures, see
        // `see.rs`; the legality test's board-only move is the other side's).
        let (rays, occ) = (&RAYS[s as usize], &self.occ[c]);
        let mut dirs = 0u32;
        for (d, ray) in rays.iter().enumerate() {
            dirs |= (!occ.and(ray).is_empty() as u32) << d;
        }
        dirs &= t.scan_dirs[c] as u32;
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let off = DIR_OFF[d];
            let near = t.near[c][d];
            let line = t.line[c][d];
            let mut x = s as i16 + off;
            let mut p = b[x as u8 as usize];
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
                if t.jump2[c][d] != 0 && hits(b[(x + off) as u8 as usize], by, t.jump2[c][d]) {
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
                    p = b[x as u8 as usize];
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
                let q = b[x as u8 as usize];
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

    /// The attack counts of both colours (indexed by [`Color::idx`]) on the eight squares
    /// next to `r`, in [`DIR_OFF`] order (0 for squares off the board), each equal to
    /// [`Self::attack_count`] of that square, found from the pieces instead of from the lines
    /// out of each square: every piece is tested for a leap, a step or a slide along a clear
    /// line to each square. Cheaper with few pieces on an open board, where those lines run
    /// long. A piece that does not slide is skipped when more than three squares from `r`.
    /// Only for variants whose attacks stop at a line's first piece
    /// ([`crate::variant::Tables::line_beyond`] false).
    pub fn box_counts_from_pieces(&self, r: Sq) -> [[u8; 8]; 2] {
        let t = &self.variant().t;
        debug_assert!(!t.line_beyond);
        let b = &self.board;
        let mut counts = [[0u8; 8]; 2];
        let (rc, rr) = (col_of(r) as i32, row_of(r) as i32);
        for by in [Color::Black, Color::White] {
            let c = by.idx();
            let sliders = t.slider[c].iter().fold(0, |a, m| a | m);
            for x in self.occupied(by).iter() {
                let bit = 1u64 << kind_of(b[x as usize]);
                // From `r` to `x`, with y up as in `DIRS`.
                let (dx, dy) = (col_of(x) as i32 - rc, rr - row_of(x) as i32);
                if sliders & bit == 0 && (dx.abs() > 3 || dy.abs() > 3) {
                    continue;
                }
                for (i, &(sx, sy)) in DIRS.iter().enumerate() {
                    let s = (r as i16 + DIR_OFF[i]) as Sq;
                    // From the square `s` to `x`.
                    let (ex, ey) = (dx - sx as i32, dy - sy as i32);
                    if (ex, ey) == (0, 0) || b[s as usize] == WALL {
                        continue;
                    }
                    let (ax, ay) = (ex.abs(), ey.abs());
                    if ax <= 2 && ay <= 2 {
                        counts[c][i] += (t.leap_at[c][(x as i16 - s as i16 + LEAP_BASE) as usize] & bit != 0) as u8;
                    }
                    // On a line through `s`: (ex, ey) is not zero, so it has a direction.
                    if (ex == 0 || ey == 0 || ax == ay)
                        && let Some(d) = dir_index(ex.signum() as i8, ey.signum() as i8)
                    {
                        let hit = if ax.max(ay) == 1 {
                            (t.near[c][d] | t.slider[c][d]) & bit != 0
                        } else {
                            t.slider[c][d] & bit != 0 && self.first_on_line(s, DIR_OFF[d]) == x
                        };
                        counts[c][i] += hit as u8;
                    }
                }
            }
        }
        counts
    }

    /// Whether the side to move has exactly one royal and it is attacked (in check).
    ///
    /// With plain attacks (see [`crate::variant::Tables::plain_attacks`]) and a move made
    /// that took no royal, only that move is looked at: before it the side had this one
    /// royal and it was not attacked (the position before was legal, and positions set up
    /// from an SFEN never leave the side not to move in check), so it is attacked now exactly
    /// if the move checks from its destination or uncovered a slider behind its origin. A
    /// null move checks nothing. (A side with two royals, sho's king and crown prince, may
    /// leave one attacked; after the other is taken, the full scan answers.)
    pub fn in_check(&self) -> bool {
        let t = &self.variant().t;
        match self.stack.last() {
            Some(u) if t.plain_attacks && t.royal_mask >> kind_of(u.captured) & 1 == 0 => {
                let r = &self.royals[self.side.idx()];
                r.is_single() && u.mv != Move::NONE && r.first().is_some_and(|k| self.last_move_checks(k, u.mv))
            }
            _ => self.in_check_by_scan(),
        }
    }

    /// Whether `m`, the move just made by the side not to move, attacks the royal on `k`
    /// (plain attacks only: steps, slides and leaps).
    fn last_move_checks(&self, k: Sq, m: Move) -> bool {
        let t = &self.variant().t;
        let b = &self.board;
        let by = self.side.flip();
        let c = by.idx();
        let to = m.to();
        let bit = 1u64 << kind_of(b[to as usize]);
        // From the destination: a leap, a step, or a slide along an empty line.
        if t.leaps[c].iter().any(|&(off, mask)| k as i16 + off == to as i16 && mask & bit != 0) {
            return true;
        }
        let d = line_dir(k, to);
        if d < 8 {
            let off = DIR_OFF[d];
            if k as i16 + off == to as i16 {
                if (t.near[c][d] | t.slider[c][d]) & bit != 0 {
                    return true;
                }
            } else if t.slider[c][d] & bit != 0 && self.first_on_line(k, off) == to {
                return true;
            }
        }
        // Uncovered: the first piece behind the origin, seen from the royal, is a slider.
        if m.is_drop() {
            return false;
        }
        let d = line_dir(k, m.from());
        d < 8 && t.slider[c][d] != 0 && {
            let x = self.first_on_line(k, DIR_OFF[d]);
            hits(b[x as usize], by, t.slider[c][d])
        }
    }

    /// Whether the move `m` (pseudo-legal here, taking no royal) would leave the opponent in
    /// check, answered without making it: `Some` where [`Position::in_check`] after the move
    /// would look only at that move (plain attacks, the opponent with one royal), else `None`
    /// (the caller makes the move and asks `in_check`). It asks `last_move_checks` on the
    /// board as the move leaves it (`Position::with_board_after`).
    pub fn gives_check(&mut self, m: Move) -> Option<bool> {
        let t = &self.variant().t;
        let r = &self.royals[self.side.flip().idx()];
        if !t.plain_attacks || !r.is_single() || m == Move::NONE || m.mid() != 0 {
            return None;
        }
        let k = r.first()?;
        let q = self.board[m.to() as usize];
        if q != EMPTY && t.royal_mask >> kind_of(q) & 1 != 0 {
            return None;
        }
        Some(self.with_board_after(m, |p| p.last_move_checks(k, m)))
    }

    /// Calls `f` on this position with the board and the side to move as the (pseudo-legal)
    /// move `m` leaves them: its origin and a double move's first-leg square emptied, the
    /// mover (promoted if it promotes) on its destination, the other side to move. The attack
    /// tests read nothing else, and this costs far less than a make and unmake; the hash,
    /// hands, history and piece sets are left as they are, and the board and side are
    /// restored before returning (`f` may change them on the way if it restores them too:
    /// the exchange evaluation nests these calls).
    pub(crate) fn with_board_after<R>(&mut self, m: Move, f: impl FnOnce(&mut Self) -> R) -> R {
        let to = m.to() as usize;
        // Index 0 is padding ("no square"): a drop or single move writes it back unchanged.
        let (from, mid) = if m.is_drop() { (0, 0) } else { (m.from() as usize, m.mid() as usize) };
        let (was_from, was_mid, was_to) = (self.board[from], self.board[mid], self.board[to]);
        let mover = if m.is_drop() {
            make_piece(m.drop_kind(), self.side)
        } else if m.is_promotion() {
            make_piece(self.variant().t.promote[kind_of(was_from) as usize], self.side)
        } else {
            was_from
        };
        if from != 0 {
            self.board[from] = EMPTY;
        }
        if mid != 0 {
            self.board[mid] = EMPTY;
        }
        self.board[to] = mover;
        self.side = self.side.flip();
        let out = f(self);
        self.side = self.side.flip();
        self.board[to] = was_to;
        self.board[mid] = was_mid;
        self.board[from] = was_from;
        out
    }

    /// The first non-empty cell (a piece or the wall) from `s` along grid offset `off`.
    #[inline]
    pub(crate) fn first_on_line(&self, s: Sq, off: i16) -> Sq {
        let mut x = s as i16 + off;
        while self.board[x as usize] == EMPTY {
            x += off;
        }
        x as Sq
    }

    /// [`Position::in_check`] by a full attack scan of the royal, whatever the last move.
    pub fn in_check_by_scan(&self) -> bool {
        let us = self.side;
        let r = &self.royals[us.idx()];
        r.is_single() && r.first().is_some_and(|k| self.attacked(k, us.flip()))
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

    #[test]
    fn box_counts_from_the_pieces_equal_the_scans() {
        use crate::piece::{Color, WALL};
        let mut tested = 0;
        for v in crate::variant::all().into_iter().filter(|v| !v.t.line_beyond) {
            crate::eval::random_game(v, 0x6A09_E667_F3BC_C909, 200, |pos| {
                // Every board square as the centre, occupied or not.
                for r in v.t.on_board.iter() {
                    let counts = pos.box_counts_from_pieces(r);
                    for (i, &off) in super::DIR_OFF.iter().enumerate() {
                        let s = (r as i16 + off) as u8;
                        for by in [Color::Black, Color::White] {
                            let want = if pos.piece_at(s) == WALL { 0 } else { pos.attack_count(s, by) };
                            assert_eq!(counts[by.idx()][i] as u32, want, "{} {}: box {r}, square {s}, {by:?}", v.name, pos.to_sfen());
                            tested += (want > 0) as u32;
                        }
                    }
                }
            });
        }
        assert!(tested > 1000, "{tested}");
    }

    #[test]
    fn without_a_leaper_near_the_lines_give_the_whole_count() {
        use crate::piece::{Color, WALL};
        let mut skipped = 0;
        for v in crate::variant::all() {
            crate::eval::random_game(v, 0xBB67_AE85_84CA_A73B, 200, |pos| {
                for r in v.t.on_board.iter() {
                    for by in [Color::Black, Color::White] {
                        if pos.may_leap_near(r, by) {
                            continue;
                        }
                        skipped += 1;
                        for &off in &super::DIR_OFF {
                            let s = (r as i16 + off) as u8;
                            if pos.piece_at(s) != WALL {
                                assert_eq!(
                                    pos.attack_count_lines(s, by),
                                    pos.attack_count(s, by),
                                    "{} {}: {r} {s} {by:?}",
                                    v.name,
                                    pos.to_sfen()
                                );
                            }
                        }
                    }
                }
            });
        }
        // Chu has positions with no leaper near some square.
        assert!(skipped > 0);
    }

    /// Where no piece attacks past a line's first piece, the plain scan (next squares by
    /// table, lines walked only where a slider of their kind stands) lists the same
    /// attackers, as often, as the general scan of every line with a piece of the attacker's
    /// on it; also during the exchange evaluation's board-only moves, whose class sets are
    /// left as they were (supersets of the pieces).
    #[test]
    fn the_plain_scan_agrees_with_the_general_one() {
        use crate::piece::Color;
        let mut plain = 0;
        for v in crate::variant::all().into_iter().filter(|v| !v.t.line_beyond) {
            plain += 1;
            let mut board_only = 0;
            crate::eval::random_game(v, 0x3C6E_F372_FE94_F82B, 160, |pos| {
                let mut pos = pos.clone();
                // On the board after a move, the scans that the exchange evaluation and the
                // legality test make: of any square by the side that did not move (its
                // pieces stand where its sets list them, or were taken), and of the move's
                // destination by either side.
                let check = |p: &crate::position::Position, moved: Option<(Color, crate::geometry::Sq)>| {
                    for s in v.t.on_board.iter() {
                        for by in [Color::Black, Color::White] {
                            if moved.is_some_and(|(c, to)| c == by && s != to) {
                                continue;
                            }
                            let (mut a, mut b) = (vec![], vec![]);
                            let na = p.scan_plain_lines::<true>(s, by, &mut |x| a.push(x));
                            let nb = p.scan_lines::<true>(s, by, &mut |x| b.push(x));
                            a.sort_unstable();
                            b.sort_unstable();
                            assert_eq!((na, &a), (nb, &b), "{} {}: {s} {by:?}", v.name, p.to_sfen());
                            assert_eq!(p.scan_plain_lines::<false>(s, by, &mut |_| {}), (nb > 0) as u32);
                        }
                    }
                };
                check(&pos, None);
                if let Some(&m) = pos.legal_moves().iter().find(|&&m| pos.is_capture(m)) {
                    let mover = pos.side_to_move();
                    pos.with_board_after(m, |p| check(p, Some((mover, m.to()))));
                    board_only += 1;
                }
            });
            assert!(board_only > 0, "{}", v.name);
        }
        assert!(plain >= 3, "shogi, sho and chu scan the plain way");
    }

    #[test]
    fn gives_check_agrees_with_making_the_move() {
        for v in crate::variant::all() {
            let (mut answered, mut checks) = (0, 0);
            crate::eval::random_game(v, 0xD1B5_4A32_D192_ED03, 200, |pos| {
                let mut pos = pos.clone();
                for m in pos.legal_moves() {
                    let before = pos.gives_check(m);
                    pos.make(m);
                    let after = pos.in_check();
                    pos.unmake();
                    if let Some(g) = before {
                        answered += 1;
                        checks += g as u32;
                        assert_eq!(g, after, "{} {}: {m:?}", v.name, pos.to_sfen());
                    }
                }
            });
            // Every variant with plain attacks and one royal a side gets answers, checks among them.
            assert!(checks > 0 || !v.t.plain_attacks, "{}: {answered} answers", v.name);
        }
    }

    #[test]
    fn every_listed_attacker_has_the_capture() {
        // Static exchange evaluation builds an attacker's capture without generating its
        // moves: each listed attacker must have those moves among its generated captures.
        for v in crate::variant::all() {
            crate::eval::random_game(v, 0x9E37_79B9_7F4A_7C15, 160, |pos| {
                let us = pos.side_to_move();
                for sq in pos.occupied(us.flip()).iter() {
                    for from in pos.attackers(sq, us) {
                        let mut all = MoveList::new();
                        pos.generate_captures_from(from, &mut all);
                        let mut built = MoveList::new();
                        pos.push_capture(from, sq, &mut built);
                        assert!(!built.is_empty());
                        for m in built.iter() {
                            assert!(all.contains(m), "{} {}: {m:?} from {from} to {sq}", v.name, pos.to_sfen());
                        }
                    }
                }
            });
        }
    }
}
