//! Legal moves: the pseudo-legal list filtered by the variant's royal rule (a side with one
//! royal may not leave it attacked), pawn-drop mate, and the chu lion-trading rules.
//!
//! Speed: a move needs a make/test/unmake only when the side is in check, the royal moves,
//! the origin lies on a line from the royal that holds an enemy line attacker, or (with
//! hoppers in the game) the destination lies on such a line. Any other move cannot change an
//! attack on the royal: leaps and steps ignore occupancy, and line attacks only see the
//! squares of their line. In check (without lions), a move of another piece is tested only if,
//! for every checker, it takes it or lands on or leaves a square between it and the royal; no
//! other can be legal, which spares the make/test/unmake of nearly every drop. Without
//! hoppers, drops skip the filter altogether (see [`Position::legal_moves_into`]).

use crate::attack::DIR_OFF;
use crate::geometry::{Bits, Sq, adjacent, between_squares, line_dir};
use crate::moves::{Move, MoveList};
use crate::piece::{Color, EMPTY, WALL, is_color, kind_of};
use crate::position::Position;
use crate::variant::RoyalRule;

impl Position {
    /// All legal moves of the side to move.
    pub fn legal_moves(&mut self) -> MoveList {
        let mut out = MoveList::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// Replaces `out` with the legal moves of the side to move.
    ///
    /// Without hoppers a drop can neither expose the royal nor capture, so drops go straight
    /// into `out` (after the board moves, as in the pseudo-legal order): anywhere out of
    /// check, between the checker and the royal in check by one piece, nowhere in double
    /// check. Only pawn drops are looked at, for pawn-drop mate.
    pub fn legal_moves_into(&mut self, out: &mut MoveList) {
        self.legal_into::<true>(out);
    }

    /// Replaces `out` with the legal non-captures of the side to move (the pass and drops
    /// among them): [`Position::legal_moves_into`]'s list without its captures, in its order.
    /// With [`Position::legal_captures_into`] it makes the whole list, for a search that
    /// generates the captures first and the rest only if they do not refute the node.
    pub fn legal_quiets_into(&mut self, out: &mut MoveList) {
        self.legal_into::<false>(out);
    }

    /// [`Position::legal_moves_into`] (`CAPS`), or its non-captures alone.
    fn legal_into<const CAPS: bool>(&mut self, out: &mut MoveList) {
        let mut pseudo = MoveList::new();
        let v = self.variant();
        // Where royals are captured, a side with one left may make every pseudo-legal move
        // but the lion captures that the trading rules forbid: its non-captures need no test.
        if !CAPS && v.royal_rule == RoyalRule::Capture {
            out.clear();
            if !self.royals[self.side.idx()].is_empty() {
                self.generate_quiets(out);
            }
            return;
        }
        if !v.drops || v.t.has_hoppers || v.royal_rule == RoyalRule::Capture {
            if CAPS {
                self.generate_pseudo(&mut pseudo);
            } else {
                self.generate_quiets(&mut pseudo);
            }
            self.filter_legal(&pseudo, out);
            return;
        }
        let drop_squares = if !self.in_check() {
            v.t.on_board
        } else {
            // In check, the side has exactly one royal.
            let king = self.royals[self.side.idx()].first().unwrap_or(0);
            match self.attackers(king, self.side.flip()).as_slice() {
                &[c] => between_squares(king, c),
                _ => Bits::EMPTY,
            }
        };
        if CAPS {
            self.generate_board_moves(&mut pseudo);
        } else {
            self.generate_board_quiets(&mut pseudo);
        }
        self.filter_legal(&pseudo, out);
        let start = out.len();
        self.generate_drops(&drop_squares, out);
        if v.pawn_drop_mate_illegal {
            let pawn = v.t.pawn_kind;
            let mut keep = start;
            for i in start..out.len() {
                let m = out[i];
                if !(m.drop_kind() == pawn && self.drop_mates(m)) {
                    out[keep] = m;
                    keep += 1;
                }
            }
            out.truncate(keep);
        }
    }

    /// Replaces `out` with the legal captures of the side to move (no drops, no pass).
    pub fn legal_captures_into(&mut self, out: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.generate_captures(&mut pseudo);
        self.filter_legal(&pseudo, out);
    }

    /// Whether `m` (any value, e.g. a hash move that may come from another position) is legal.
    pub fn is_legal(&mut self, m: Move) -> bool {
        if !self.is_pseudo_legal(m) {
            return false;
        }
        let mut one = MoveList::new();
        one.push(m);
        let mut out = MoveList::new();
        self.filter_legal(&one, &mut out);
        !out.is_empty()
    }

    /// Replaces `out` with the moves of `pseudo` (pseudo-legal in this position) that are legal.
    fn filter_legal(&mut self, pseudo: &MoveList, out: &mut MoveList) {
        out.clear();
        let v = self.variant();
        if v.royal_rule == RoyalRule::Capture {
            // A side whose last royal was captured has lost: the game is over.
            if self.royals[self.side.idx()].is_empty() {
                return;
            }
            // Only a move that takes a lion can break the trading rules: where the other
            // side has none on the board, none does. Else a move is tested only if it ends or
            // takes its first leg on a lion of theirs (moves take only the other side's
            // pieces; lions have leaps, so the leaper set lists them all).
            let lions = if v.lion_rules { self.lion_squares(self.side.flip()) } else { Bits::EMPTY };
            if lions.is_empty() {
                out.try_extend_from_slice(pseudo).expect("a move list holds any move list");
                return;
            }
            for &m in pseudo.iter() {
                if !(lions.has(m.to()) || lions.has(m.mid())) || self.lion_trade_ok(m) {
                    out.push(m);
                }
            }
            return;
        }
        let us = self.side;
        let them = us.flip();
        let r = self.royals[us.idx()];
        let drop_mate = v.pawn_drop_mate_illegal;
        let pawn = v.t.pawn_kind;
        if !r.is_single() {
            for &m in pseudo.iter() {
                if !(drop_mate && m.is_drop() && m.drop_kind() == pawn && self.drop_mates(m)) {
                    out.push(m);
                }
            }
            return;
        }
        let king = r.first().unwrap_or(0);
        let in_check = self.in_check();
        let danger = self.danger_lines(king, them);
        let hoppers = v.t.has_hoppers;
        // In check (without lions, whose double moves touch a third square), a move of another
        // piece can only be legal if, for every checker, it takes it or changes what stands
        // between it and the royal: it lands there (a block, or a second screen for a hopper)
        // or leaves from there (a hopper's screen). A superset: the test below decides.
        // Per checker: (the checker and the squares between, the squares between).
        let evasion: Option<arrayvec::ArrayVec<(Bits, Bits), 8>> = (in_check && !v.lion_rules).then(|| {
            self.attackers(king, them)
                .iter()
                .take(8)
                .map(|&c| {
                    let gap = between_squares(king, c);
                    let mut land = gap;
                    land.set(c);
                    (land, gap)
                })
                .collect()
        });
        for &m in pseudo.iter() {
            let to = m.to();
            if let Some(checkers) = &evasion
                && (m.is_drop() || m.from() != king)
                && !checkers.iter().all(|(land, gap)| land.has(to) || (!m.is_drop() && gap.has(m.from())))
            {
                continue;
            }
            let need = in_check
                || (!m.is_drop() && (m.from() == king || danger >> line_dir(king, m.from()) & 1 != 0))
                || (hoppers && danger >> line_dir(king, to) & 1 != 0);
            if need {
                let after = if !m.is_drop() && m.from() == king { to } else { king };
                if self.with_board_after(m, |p| p.attacked(after, them)) {
                    continue;
                }
            }
            if drop_mate && m.is_drop() && m.drop_kind() == pawn && self.drop_mates(m) {
                continue;
            }
            out.push(m);
        }
    }

    /// Directions (bits 0..8) from `king` whose line holds a piece of `them` attacking along it.
    fn danger_lines(&self, king: Sq, them: Color) -> u16 {
        let t = &self.variant().t;
        let mut mask = 0u16;
        for (d, &off) in DIR_OFF.iter().enumerate() {
            let line = t.line[them.idx()][d];
            if line == 0 {
                continue;
            }
            let mut x = king as i16 + off;
            loop {
                let p = self.board[x as usize];
                if p == WALL {
                    break;
                }
                if is_color(p, them) && line >> kind_of(p) & 1 != 0 {
                    mask |= 1 << d;
                    break;
                }
                x += off;
            }
        }
        mask
    }

    /// Whether the (pseudo-legal, royal-safe) pawn drop `m` checkmates the opponent.
    fn drop_mates(&mut self, m: Move) -> bool {
        let them = self.side.flip();
        let r = self.royals[them.idx()];
        if !r.is_single() {
            return false;
        }
        let k = r.first().unwrap_or(0);
        let to = m.to();
        if !(adjacent(k, to) || self.variant().t.has_hoppers && line_dir(k, to) != 8) {
            return false;
        }
        self.make(m);
        let mate = self.in_check() && self.legal_moves().is_empty();
        self.unmake();
        mate
    }

    /// The squares of colour `c`'s lions (kinds in `Tables::lion_mask`, all of them leapers).
    fn lion_squares(&self, c: Color) -> Bits {
        let lions = self.variant().t.lion_mask;
        let mut out = Bits::EMPTY;
        for x in self.leapers[c.idx()].iter() {
            if lions >> kind_of(self.board[x as usize]) & 1 != 0 {
                out.set(x);
            }
        }
        out
    }

    /// Chu lion-trading rules: protected non-adjacent lions, and the counter-strike rule.
    fn lion_trade_ok(&mut self, m: Move) -> bool {
        let t = &self.variant().t;
        let lions = t.lion_mask;
        let is_lion = |p: u8| p != EMPTY && lions >> kind_of(p) & 1 != 0;
        let from = m.from();
        let to = m.to();
        let mover = self.board[from as usize];
        let cap_to = if to != from { self.board[to as usize] } else { EMPTY };
        let cap_mid = if m.mid() != 0 { self.board[m.mid() as usize] } else { EMPTY };
        if !is_lion(cap_to) && !is_lion(cap_mid) {
            return true;
        }
        if !is_lion(mover) {
            // Counter-strike: after a non-lion took a lion, a non-lion may take a lion only
            // on that same square.
            let target = if is_lion(cap_to) && to != self.cs {
                to
            } else if is_lion(cap_mid) && m.mid() != self.cs {
                m.mid()
            } else {
                return true;
            };
            if self.cs == 0 {
                return true;
            }
            // Okazaki: the counter-strike is allowed against a lion its side cannot recapture.
            if self.okazaki {
                let them = self.side.flip();
                self.make(m);
                let protected = self.attacked(target, them);
                self.unmake();
                return !protected;
            }
            return false;
        }
        if !is_lion(cap_to) {
            return true;
        }
        if adjacent(from, to) {
            return true;
        }
        if cap_mid != EMPTY && t.cheap_mask >> kind_of(cap_mid) & 1 == 0 {
            return true;
        }
        // Protection is judged on the board before the move, with the lion's origin (and
        // the first-leg square) vacated for lines; the piece taken on the first leg still
        // counts as a protector (shogiops).
        let them = self.side.flip();
        let mover_piece = self.board[from as usize];
        self.board[from as usize] = EMPTY;
        let mut protected = self.attacked(to, them);
        if !protected && m.mid() != 0 && cap_mid != EMPTY {
            self.board[m.mid() as usize] = EMPTY;
            protected = self.attacked(to, them);
            self.board[m.mid() as usize] = cap_mid;
        }
        self.board[from as usize] = mover_piece;
        !protected
    }
}

#[cfg(test)]
mod tests {
    use crate::moves::MoveList;

    /// The lion-trading filter tests only the moves that end or take their first leg on a
    /// lion of the other side's, found from its leaper set: every lion kind is a leaper, and
    /// over random games the filtered list is every pseudo-legal move that the rules' test
    /// allows, in order.
    #[test]
    fn the_lion_filter_tests_every_move_that_takes_a_lion() {
        let mut lion_variants = 0;
        for v in crate::variant::all() {
            assert_eq!(v.t.lion_mask & !v.t.leap_kinds, 0, "{}", v.name);
            if !v.lion_rules {
                continue;
            }
            lion_variants += 1;
            let (mut with, mut without) = (0, 0);
            crate::eval::random_game(v, 0x510E_527F_ADE6_82D1, 400, |pos| {
                let mut pos = pos.clone();
                let (mut pseudo, mut out) = (MoveList::new(), MoveList::new());
                pos.generate_pseudo(&mut pseudo);
                pos.filter_legal(&pseudo, &mut out);
                let want: Vec<_> = if pos.royals[pos.side.idx()].is_empty() {
                    vec![]
                } else {
                    pseudo.iter().copied().filter(|&m| pos.lion_trade_ok(m)).collect()
                };
                assert_eq!(out.to_vec(), want, "{} {}", v.name, pos.to_sfen());
                if pos.lion_squares(pos.side.flip()).is_empty() {
                    without += 1;
                } else {
                    with += 1;
                }
            });
            assert!(with > 0 && without > 0, "{}: {with} positions with lions, {without} without", v.name);
        }
        assert!(lion_variants > 0);
    }
}
