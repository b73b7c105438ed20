//! Positions: board, hands, side to move, incremental hash, and the undo stack.
//!
//! Invariants (checked by [`Position::check_invariants`] in debug builds and tests):
//! `board` holds `WALL` exactly off the board; `occ[c]` is the set of squares holding colour
//! `c`; `royals[c]` the subset of royal kinds and `royal_count[c]` their number (`leapers`,
//! `mobile`, `steppers`, `orth` and `diag` the subsets of their classes); `pawns[c][col]` counts unpromoted
//! pawns per column; `psq[c]` is the sum of the evaluation's piece-square table over `c`'s
//! pieces; `hash` equals [`Position::compute_hash`].

mod make;
mod mobility;
pub mod sfen;

use crate::geometry::{Bits, NSQ, Sq};
use crate::moves::Move;
use crate::piece::{Color, EMPTY, MAX_KINDS, WALL, kind_of};
use crate::variant::{Tables, Variant};

/// What [`Position::make`] saves to undo a move.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The move made.
    pub mv: Move,
    /// Piece captured on the destination (or `EMPTY`).
    pub captured: u8,
    /// Piece captured on the intermediate square of a double move (or `EMPTY`).
    pub captured_mid: u8,
    /// Hash before the move.
    pub hash: u64,
    /// Counter-strike square before the move (0 = none).
    pub cs: Sq,
    /// The piece that moved, as it stood on its origin (`EMPTY` for drops).
    pub moved: u8,
    /// How many of the plies made so far, this one included, can be undone by later moves
    /// (counted back from this one): without drops, a capture (the board holds one piece less
    /// for good) and a promotion (no piece ever demotes) cannot, so no position before them
    /// can come back, and such a move counts 0. With drops, every ply (a captured piece
    /// returns as a drop).
    pub reversible: u32,
    /// The weighted mobility sums before the move (`Position::mob`).
    pub mob: [i32; 2],
}

/// Per set kept by kind class (in the order royals, leapers, pieces with mobility, steppers,
/// orthogonal and diagonal sliders: `Position`'s fields of those names), all ones where that
/// class lists kind `k`, else zero: the one test `put`, `remove` (which apply it as a mask,
/// without a branch) and [`Position::check_invariants`] (through [`class_sets`]) share.
#[inline(always)]
fn class_masks(t: &Tables, k: u8) -> [u64; 6] {
    [t.royal_mask, t.leap_kinds, t.mob_kinds, t.step_kinds, t.slide_class[0], t.slide_class[1]].map(|m| 0u64.wrapping_sub(m >> k & 1))
}

/// Calls `f` on each of the per-colour square sets kept by kind class (given in the order of
/// [`class_masks`], or a recount of them) that lists a piece of kind `k`.
fn class_sets<'a>(t: &Tables, k: u8, sets: [&'a mut [Bits; 2]; 6], mut f: impl FnMut(&'a mut [Bits; 2])) {
    for (b, m) in sets.into_iter().zip(class_masks(t, k)) {
        if m != 0 {
            f(b);
        }
    }
}

/// A position of some variant.
#[derive(Clone)]
pub struct Position {
    v: &'static Variant,
    pub(crate) board: [u8; NSQ],
    pub(crate) occ: [Bits; 2],
    pub(crate) royals: [Bits; 2],
    /// Per colour, how many squares `royals` lists.
    pub(crate) royal_count: [u32; 2],
    /// Per colour, the squares of its pieces whose kinds have leaps (`Tables::leap_kinds`),
    /// which attack scans look at instead of every leap's square. Code that changes the
    /// board alone for a scan may leave squares listed that now hold something else (a scan
    /// reads the board there), but must list every leaper that could reach the scanned
    /// square (the exchange evaluation: see `see.rs`).
    pub(crate) leapers: [Bits; 2],
    /// Per colour, the squares of its pieces whose kinds have mobility (sliding, hopping or
    /// ranging atoms: `Tables::mob_kinds`), which the evaluation walks.
    pub(crate) mobile: [Bits; 2],
    /// Per colour, the squares of its pieces whose kinds only step to a neighbour
    /// (`Tables::step_kinds`), which the capture generator skips where no enemy piece is
    /// next to them.
    pub(crate) steppers: [Bits; 2],
    /// Per colour, the squares of its pieces whose kinds slide without limit along some
    /// orthogonal line (`Tables::slide_class`), which attack scans read to leave out the
    /// lines with no such piece. Kept like `leapers` (board-only changes may leave squares
    /// listed that now hold something else).
    pub(crate) orth: [Bits; 2],
    /// The same for the diagonal lines.
    pub(crate) diag: [Bits; 2],
    pub(crate) hands: [[u8; MAX_KINDS]; 2],
    pub(crate) pawns: [[u8; 16]; 2],
    pub(crate) side: Color,
    pub(crate) hash: u64,
    /// Zobrist key of the pawns on the board alone (for the search's correction history).
    pub(crate) pawn_key: u64,
    pub(crate) ply: u32,
    pub(crate) cs: Sq,
    pub(crate) stack: Vec<Undo>,
    /// How many positions of `stack` (the hashes before its moves) fall in each slot of the
    /// low bits of their hash ([`REPEAT_SLOTS`]): where the current position's slot is empty,
    /// no earlier position can be the same, and the repetition walk is skipped.
    pub(crate) seen: [u16; REPEAT_SLOTS],
    pub(crate) okazaki: bool,
    pub(crate) bare_king: bool,
    /// The evaluation's piece-square table of the variant ([`crate::eval::psq_table`]).
    psqt: &'static [i32],
    /// Per colour, the sum of `psqt` over its pieces on the board.
    pub(crate) psq: [i32; 2],
    /// Where the variant's evaluation allows it, the tables for keeping `mob` up to date.
    pub(crate) mob_inc: Option<&'static crate::eval::IncMobility>,
    /// Per colour, the weighted mobility of its pieces: exact with `mob_inc` and enough
    /// pieces on the board (`mobility_sums_kept`), else not to be read (see `mobility.rs`).
    pub(crate) mob: [i32; 2],
}

/// Slots of [`Position`]'s filter of the positions in its history (a power of two).
pub(crate) const REPEAT_SLOTS: usize = 1 << 12;

/// The slot of a position with hash `h` in that filter.
#[inline]
pub(crate) fn repeat_slot(h: u64) -> usize {
    h as usize & (REPEAT_SLOTS - 1)
}

/// Index of kind `k` of colour index `c` on square `s` in a piece-square table.
#[inline]
pub(crate) fn psq_index(k: u8, c: usize, s: Sq) -> usize {
    (k as usize * 2 + c) * NSQ + s as usize
}

impl Position {
    /// The start position of a variant.
    pub fn startpos(v: &'static Variant) -> Position {
        Position::from_sfen(v, v.start_sfen).expect("start positions are valid")
    }

    fn empty(v: &'static Variant) -> Position {
        let mut board = [WALL; NSQ];
        for s in v.t.on_board.iter() {
            board[s as usize] = EMPTY;
        }
        Position {
            v,
            board,
            occ: [Bits::EMPTY; 2],
            royals: [Bits::EMPTY; 2],
            royal_count: [0; 2],
            leapers: [Bits::EMPTY; 2],
            mobile: [Bits::EMPTY; 2],
            steppers: [Bits::EMPTY; 2],
            orth: [Bits::EMPTY; 2],
            diag: [Bits::EMPTY; 2],
            hands: [[0; MAX_KINDS]; 2],
            pawns: [[0; 16]; 2],
            side: Color::Black,
            hash: 0,
            pawn_key: 0,
            ply: 1,
            cs: 0,
            stack: Vec::with_capacity(256),
            seen: [0; REPEAT_SLOTS],
            okazaki: false,
            bare_king: false,
            psqt: crate::eval::psq_table(v),
            psq: [0; 2],
            mob_inc: crate::eval::incremental_mobility(v),
            mob: [0; 2],
        }
    }

    /// The variant.
    #[inline]
    pub fn variant(&self) -> &'static Variant {
        self.v
    }
    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// Zobrist hash (board, hands, side, counter-strike square).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Zobrist key of the pawns on the board (both colours).
    #[inline]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }
    /// Cell contents of a grid square (`EMPTY`, `WALL` or a piece code).
    #[inline]
    pub fn piece_at(&self, s: Sq) -> u8 {
        self.board[s as usize]
    }
    /// Number of pieces of `kind` in `c`'s hand.
    #[inline]
    pub fn hand(&self, c: Color, kind: u8) -> u8 {
        self.hands[c.idx()][kind as usize]
    }
    /// Squares holding `c`'s pieces.
    #[inline]
    pub fn occupied(&self, c: Color) -> &Bits {
        &self.occ[c.idx()]
    }
    /// Squares of `c`'s royal pieces.
    #[inline]
    pub fn royals(&self, c: Color) -> &Bits {
        &self.royals[c.idx()]
    }
    /// Move number (1 for the first move of the game).
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.ply
    }
    /// Counter-strike square (chu: where a non-lion just captured a lion), 0 if none.
    #[inline]
    pub fn counter_strike(&self) -> Sq {
        self.cs
    }
    /// Chu: allow the counter-strike against an unprotected lion (Okazaki rule; off by default).
    pub fn set_okazaki(&mut self, on: bool) {
        self.okazaki = on;
    }

    /// Sho and chu: the bare-king rule (a side left with a lone royal loses; off by default).
    pub fn set_bare_king(&mut self, on: bool) {
        self.bare_king = on;
    }
    /// Whether the bare-king rule is on.
    pub fn bare_king(&self) -> bool {
        self.bare_king
    }

    /// Moves made since the position was set up.
    pub fn history(&self) -> &[Undo] {
        &self.stack
    }

    /// Whether the current position (same side to move) occurred before in the history.
    pub fn is_repetition(&self) -> bool {
        self.earlier_occurrences().next().is_some()
    }

    /// Plies back (2, 4, …, nearest first) to earlier occurrences of the current position with
    /// the same side to move. Only the positions since the last irreversible ply are looked
    /// at (see `Undo::reversible`): none before it can be the same; and none at all when no
    /// position of the history shares the current one's slot (see `seen`).
    pub fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.stack.len();
        let back = if self.seen[repeat_slot(self.hash)] == 0 {
            0
        } else {
            n.min(self.reversible())
        };
        (2..=back).step_by(2).filter(move |&i| self.stack[n - i].hash == self.hash)
    }

    /// How many of the last plies can be undone by later moves (see `Undo::reversible`).
    #[inline]
    fn reversible(&self) -> usize {
        self.stack.last().map_or(0, |u| u.reversible as usize)
    }

    /// Recomputes the hash from scratch.
    pub fn compute_hash(&self) -> u64 {
        let k = &*crate::zobrist::KEYS;
        let mut h = 0u64;
        for s in self.v.t.on_board.iter() {
            let p = self.board[s as usize];
            if p != EMPTY {
                h ^= k.psq[p as usize][s as usize];
            }
        }
        for c in 0..2 {
            for kind in 0..MAX_KINDS {
                h ^= k.hand_key(c, kind, self.hands[c][kind]);
            }
        }
        if self.side == Color::White {
            h ^= k.side;
        }
        if self.cs != 0 {
            h ^= k.cs[self.cs as usize];
        }
        h
    }

    /// Checks every invariant of the representation; returns a description of the first
    /// violation.
    pub fn check_invariants(&self) -> Result<(), String> {
        let t = &self.v.t;
        let mut occ = [Bits::EMPTY; 2];
        let mut royals = [Bits::EMPTY; 2];
        let mut leapers = [Bits::EMPTY; 2];
        let mut mobile = [Bits::EMPTY; 2];
        let mut steppers = [Bits::EMPTY; 2];
        let mut orth = [Bits::EMPTY; 2];
        let mut diag = [Bits::EMPTY; 2];
        let mut pawns = [[0u8; 16]; 2];
        let mut pawn_key = 0u64;
        let mut psq = [0i32; 2];
        for s in 0..NSQ {
            let p = self.board[s];
            let on = t.on_board.has(s as Sq);
            if on == (p == WALL) {
                return Err(format!("square {s}: wall/board mismatch"));
            }
            if p == EMPTY || p == WALL {
                continue;
            }
            let k = kind_of(p);
            if k == 0 || k as usize > self.v.pieces.len() || p & 0x80 != 0 {
                return Err(format!("square {s}: bad piece code {p}"));
            }
            let c = crate::piece::color_of(p).idx();
            occ[c].set(s as Sq);
            psq[c] += self.psqt[psq_index(k, c, s as Sq)];
            class_sets(t, k, [&mut royals, &mut leapers, &mut mobile, &mut steppers, &mut orth, &mut diag], |b| {
                b[c].set(s as Sq)
            });
            if k == t.pawn_kind {
                pawns[c][crate::geometry::col_of(s as Sq)] += 1;
                pawn_key ^= crate::zobrist::KEYS.psq[p as usize][s];
            }
        }
        if occ != self.occ {
            return Err("occupancy sets differ from the board".into());
        }
        if royals != self.royals {
            return Err("royal sets differ from the board".into());
        }
        if royals.map(|r| r.count()) != self.royal_count {
            return Err("royal counts differ from the board".into());
        }
        if leapers != self.leapers {
            return Err("leaper sets differ from the board".into());
        }
        if mobile != self.mobile {
            return Err("mobile sets differ from the board".into());
        }
        if steppers != self.steppers {
            return Err("stepper sets differ from the board".into());
        }
        if orth != self.orth || diag != self.diag {
            return Err("slider sets differ from the board".into());
        }
        if pawns != self.pawns {
            return Err("pawn file counts differ from the board".into());
        }
        if pawn_key != self.pawn_key {
            return Err("pawn key differs from the board".into());
        }
        if psq != self.psq {
            return Err("piece-square sums differ from the board".into());
        }
        if let Some(inc) = self.mob_inc
            && self.mobility_sums_kept().is_some()
            && self.mob != self.mobility_sums(inc)
        {
            return Err("mobility sums differ from a full walk".into());
        }
        if self.hash != self.compute_hash() {
            return Err("incremental hash differs from a full recompute".into());
        }
        if self.reversible() > self.stack.len() {
            return Err("more reversible plies than plies made".into());
        }
        let mut seen = [0u16; REPEAT_SLOTS];
        for u in &self.stack {
            let slot = &mut seen[repeat_slot(u.hash)];
            *slot = slot.wrapping_add(1);
        }
        if seen != self.seen {
            return Err("the history filter differs from the history".into());
        }
        Ok(())
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({} {})", self.v.name, self.to_sfen())
    }
}
