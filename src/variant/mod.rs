//! Variants as data.
//!
//! A [`Variant`] is a description: board size, piece kinds with their movement atoms,
//! promotions and zone, drop rules, royal rules and the start position. The move generator
//! and attack detector read only the tables compiled from it ([`Tables`]); adding a variant
//! means adding a description in one of the sibling modules, not editing the generator.
//!
//! Invariants: kinds are numbered `1..=pieces.len()` (< 64); a promoted kind's SFEN is `+` and
//! its base letter; every piece's atoms are described for black (dy > 0 = forward) and
//! mirrored for white by a 180 degree turn.

mod cannon;
mod chu;
mod shogi;

use crate::geometry::{self, Bits, DIRS, NSQ};
use crate::piece::{Color, EMPTY, MAX_KINDS, is_color, kind_of};
use std::sync::LazyLock;

/// How an atom travels along its vector.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ride {
    /// One jump to (dx, dy), never blocked (steps are leaps of length one).
    Leap,
    /// Slides along (dx, dy) over empty squares, up to `max` steps (0 = unlimited).
    Slide,
    /// Cannon hop: passes exactly one screen (any piece) along (dx, dy); lands on empty squares
    /// beyond it (mode move) or captures the first piece beyond it (mode capture). `max` limits
    /// the total distance (0 = unlimited; 2 = the screen must be adjacent).
    Hop,
    /// Ranging jump: must pass at least one piece, may pass any number of either side; lands on
    /// any empty square or captures any enemy beyond the first piece.
    Range,
    /// Lion power (chu): (0, 0) for a full lion (every square within two, double moves);
    /// otherwise along that one direction (step, jump two, double moves on that line).
    Lion,
}

/// The atom may move to an empty square.
pub const MOVE: u8 = 1;
/// The atom may capture.
pub const CAPTURE: u8 = 2;
/// Both.
pub const MC: u8 = 3;

/// One movement component of a piece.
#[derive(Clone, Copy, Debug)]
pub struct Atom {
    /// Sideways component (towards file 1 is positive).
    pub dx: i8,
    /// Forward component for black.
    pub dy: i8,
    /// How it travels.
    pub ride: Ride,
    /// [`MOVE`], [`CAPTURE`] or [`MC`].
    pub mode: u8,
    /// Range limit (0 = unlimited), see [`Ride`].
    pub max: u8,
}

/// How promotion works.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PromoRule {
    /// Shogi: a move into, out of or within the zone may promote.
    Shogi,
    /// Chu: entering the zone, or capturing in or from it; pawns/lances again on the last rank.
    Chu,
}

/// How royal pieces constrain moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RoyalRule {
    /// A side with exactly one royal may not leave it attacked; with two or more, none is royal.
    LastRoyal,
    /// Moving into check is legal; a side loses when its last royal is captured.
    Capture,
}

/// A piece kind as described by a variant.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// English name.
    pub name: &'static str,
    /// SFEN spelling for black: a letter, or `+` and a letter.
    pub sfen: &'static str,
    /// SFEN spelling of the kind it promotes to, if any.
    pub promotes_to: Option<&'static str>,
    /// Movement atoms (for black).
    pub atoms: Vec<Atom>,
    /// On the last `forced_ranks` ranks the piece may not be dropped or stay unpromoted.
    pub forced_ranks: u8,
    /// Royal piece (king, crown prince).
    pub royal: bool,
    /// A lion for the lion-trading rules (chu).
    pub lion: bool,
    /// The pawn of the two-pawn and pawn-drop-mate rules.
    pub pawn: bool,
    /// Chu: a pawn or lance reaching the last rank without capturing may promote again.
    pub last_rank_choice: bool,
    /// Chu: capturing this piece on a lion's first leg does not let it take a protected lion.
    pub cheap: bool,
    /// Material value in centipawns (evaluation).
    pub value: i32,
}

/// A game description.
#[derive(Debug)]
pub struct Variant {
    /// Name used by `USI_Variant` and `--variant`.
    pub name: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// Name in XBoard's `variant` command.
    pub xboard_name: &'static str,
    /// Board width (files).
    pub width: usize,
    /// Board height (ranks).
    pub height: usize,
    /// Piece kinds; kind `k` is `pieces[k - 1]`.
    pub pieces: Vec<PieceDef>,
    /// Start position SFEN.
    pub start_sfen: &'static str,
    /// Captured pieces go to hand and may be dropped.
    pub drops: bool,
    /// Depth of the promotion zone in ranks.
    pub zone_depth: usize,
    /// Promotion rule.
    pub promo_rule: PromoRule,
    /// Two unpromoted pawns of one side may not share a file (drops).
    pub two_pawn: bool,
    /// A pawn drop that checkmates is illegal.
    pub pawn_drop_mate_illegal: bool,
    /// Royal rule.
    pub royal_rule: RoyalRule,
    /// Lion-trading rules (chu).
    pub lion_rules: bool,
    /// Entering-king declaration (CSA 27-point rule): the SFEN spellings worth 5 points (empty:
    /// the variant has no declaration) and the points black and white need.
    pub declaration: (&'static [&'static str], [u32; 2]),
    /// Position in [`all`] (set when the table is built).
    pub index: usize,
    /// Compiled lookup tables.
    pub t: Tables,
}

/// A compiled atom for one colour.
#[derive(Clone, Copy, Debug)]
pub struct CAtom {
    /// Grid offset of one unit of the atom.
    pub off: i16,
    /// How it travels.
    pub ride: Ride,
    /// Move/capture mode.
    pub mode: u8,
    /// Range limit.
    pub max: u8,
    /// For a slide, hop or ranging jump along one of the eight lines, its direction
    /// ([`geometry::DIRS`] order, as [`geometry::RAYS`] is indexed); 8 for every other atom.
    pub dir: u8,
}

/// Tables compiled from a description, indexed by colour and kind.
#[derive(Debug)]
pub struct Tables {
    /// Flattened atoms per colour.
    pub atoms: [Vec<CAtom>; 2],
    /// Range of `atoms[c]` for each kind.
    pub atom_range: [[(u16, u16); MAX_KINDS]; 2],
    /// Per colour, the sliding, hopping and ranging atoms of each kind (those that give
    /// mobility): each kind's slides first, then its hops and ranging jumps, each group in
    /// `atoms` order.
    pub mob_atoms: [Vec<CAtom>; 2],
    /// For each kind, the range of its atoms in `mob_atoms[c]` and the end of its slides
    /// among them: `(start, slides end, end)`.
    pub mob_range: [[(u16, u16, u16); MAX_KINDS]; 2],
    /// The kinds that have mobility atoms (the position keeps their squares apart).
    pub mob_kinds: u64,
    /// Per colour, for the evaluation's attack maps: each kind's capturing leaps (only their
    /// `off` is read), then its atoms that are not leaps, each group in `atoms` order (a leap
    /// that cannot capture attacks nothing and gives no mobility, so it is left out).
    pub map_atoms: [Vec<CAtom>; 2],
    /// For each kind, its range in `map_atoms[c]` and the end of its leaps there:
    /// `(start, leaps end, end)`.
    pub map_range: [[(u16, u16, u16); MAX_KINDS]; 2],
    /// Promoted kind (0 = none).
    pub promote: [u8; MAX_KINDS],
    /// Kind that goes to hand when captured.
    pub hand_kind: [u8; MAX_KINDS],
    /// Forced-promotion / dead ranks.
    pub forced: [u8; MAX_KINDS],
    /// Kinds that are royal.
    pub royal_mask: u64,
    /// Kinds that are lions.
    pub lion_mask: u64,
    /// Kinds that may promote again on reaching the last rank (chu pawn and lance).
    pub last_rank_choice: u64,
    /// Kinds whose capture does not license a lion to take a protected lion.
    pub cheap_mask: u64,
    /// Kinds that are unpromoted pawns (0 if the variant has none).
    pub pawn_kind: u8,
    /// Kinds that can be in hand, in table order.
    pub hand_kinds: Vec<u8>,
    /// Attack masks per attacker colour and walk direction (from the target outwards).
    pub near: [[u64; 8]; 2],
    /// Unlimited sliders.
    pub slider: [[u64; 8]; 2],
    /// One-screen hoppers (unlimited).
    pub cannon: [[u64; 8]; 2],
    /// Adjacent-screen two-square hoppers.
    pub jump2: [[u64; 8]; 2],
    /// Ranging jumpers.
    pub range: [[u64; 8]; 2],
    /// Union of the line masks per direction (pieces whose attack an occupancy change can alter).
    pub line: [[u64; 8]; 2],
    /// Per attacker colour, the directions (bits 0..8) along which some kind attacks at
    /// all (`near` or `line` not empty): the only ones an attack scan looks along.
    pub scan_dirs: [u8; 2],
    /// Per attacker colour, the directions (bits 0..8) along which some kind slides
    /// (`slider` not empty).
    pub slide_dirs: [u8; 2],
    /// The kinds (bits) that slide without limit along some orthogonal line (index 0) and
    /// some diagonal one (index 1), for either colour: the position keeps their squares apart,
    /// so that an attack scan walks only the lines that such a piece of the attacker's stands
    /// on. The directions of [`crate::geometry::DIRS`] alternate orthogonal (even indices)
    /// and diagonal (odd).
    pub slide_class: [u64; 2],
    /// Per attacker colour and board cell code: the directions (bits 0..8, from the target
    /// outwards) along which that cell, as the target's next square, attacks the target (a
    /// piece of that colour whose kind is in `near` or `slider` there), and bits 8..16 all
    /// set for an empty cell: the attack scans' test of the eight next squares, one load each.
    pub next_code: [[u16; 256]; 2],
    /// Non-adjacent leaps: (offset from target to attacker, kinds).
    pub leaps: [Vec<(i16, u64)>; 2],
    /// The kinds in any of `leaps`' masks (the position keeps their squares apart).
    pub leap_kinds: u64,
    /// `leaps` by offset from target to attacker plus [`LEAP_BASE`] (0: no leap there).
    pub leap_at: [[u64; 2 * LEAP_BASE as usize + 1]; 2],
    /// Whether attack scans find leapers from the position's set of them near the target
    /// instead of looking at every leap's square (variants with many leaps: lion power).
    pub leap_by_set: bool,
    /// Whether any piece hops or ranges (then adding a piece to a line can create an attack).
    pub has_hoppers: bool,
    /// Whether any of the `jump2`, `cannon` or `range` masks is set: attack scans look past
    /// the first piece of a line (or at the second square behind it) only then.
    pub line_beyond: bool,
    /// With at most this many pieces on the board (both colours), the evaluation counts the
    /// attacks next to a royal from the pieces ([`crate::position::Position::box_counts_from_pieces`])
    /// instead of scanning the lines out of each square; 0: never. Measured on sho (9x9):
    /// from 22 pieces down it is faster, from 30 up slower. In chu, whose pieces mostly
    /// slide, it was slower even at 19, so it is off on boards larger than 9x9 and where
    /// attacks go past a line's first piece (it does not handle those).
    pub box_from_pieces: u32,
    /// Squares of the board.
    pub on_board: Bits,
    /// Promotion zone per colour.
    pub zone: [Bits; 2],
    /// Rank counted from the colour's far end (0 = last rank) for board squares.
    pub rel_rank: [[u8; NSQ]; 2],
    /// Lion-power pieces exist (chu double moves).
    pub has_lion_moves: bool,
    /// Only steps, slides and leaps attack (no hoppers, rangers or double moves): a move can
    /// then check only from its destination or by uncovering a slider behind its origin.
    pub plain_attacks: bool,
    /// Per colour and kind, the directions (bits indexing [`geometry::DIRS`]) of the atoms
    /// whose every square lies beyond the neighbour in that direction: steps and slides.
    /// A piece whose kind has only such atoms (not in `gen_far`), with none of those
    /// neighbours empty or the enemy's, has no move: the generator skips it.
    pub gen_near: [[u8; MAX_KINDS]; 2],
    /// Per colour and kind, the part of `gen_near` that slides (the rest steps: a step to an
    /// empty square is no capture, so for captures alone such a neighbour counts as blocked).
    pub gen_slide: [[u8; MAX_KINDS]; 2],
    /// Per colour, the kinds (bits) with an atom that may reach past a blocked neighbour:
    /// longer leaps, hops, ranging jumps, lion power.
    pub gen_far: [u64; 2],
    /// The kinds whose every atom is a step to a neighbour (for both colours: not in
    /// `gen_far`, no slides), which can capture only next to themselves: the position keeps
    /// their squares apart, so that the capture generator skips those with no enemy piece
    /// next to them all at once.
    pub step_kinds: u64,
    /// Per colour, the kinds whose every atom moves and captures alike and is a step to a
    /// neighbour or an unlimited slide along one of the eight lines: whether such a piece
    /// reaches a square is read off `gen_near` and `gen_slide` and the squares between
    /// (`Position::is_pseudo_legal`).
    pub plain_kinds: [u64; 2],
    /// What promoting adds to each kind's value (its promoted kind's value less its own, never
    /// negative; 0 for a kind that does not promote).
    pub promo_gain: [i32; MAX_KINDS],
    /// The largest of `promo_gain`.
    pub max_promo_gain: i32,
}

impl Variant {
    /// Kind number of an SFEN spelling such as `P` or `+P` (uppercase).
    pub fn kind_by_sfen(&self, s: &str) -> Option<u8> {
        self.pieces.iter().position(|p| p.sfen == s).map(|i| i as u8 + 1)
    }

    /// The definition of a kind.
    #[inline]
    pub fn piece(&self, kind: u8) -> &PieceDef {
        &self.pieces[kind as usize - 1]
    }

    /// Looks a variant up by name or alias (case-insensitive).
    pub fn by_name(name: &str) -> Option<&'static Variant> {
        let n = name.to_ascii_lowercase();
        all().into_iter().find(|v| v.name == n || v.aliases.contains(&n.as_str()))
    }

    /// Names of all variants.
    pub fn names() -> Vec<&'static str> {
        all().iter().map(|v| v.name).collect()
    }

    fn build(mut v: Variant) -> Variant {
        v.t = compile(&v);
        v
    }
}

/// All supported variants.
pub fn all() -> Vec<&'static Variant> {
    static ALL: LazyLock<Vec<Variant>> = LazyLock::new(|| {
        let mut all = vec![
            Variant::build(shogi::shogi()),
            Variant::build(shogi::shoshogi()),
            Variant::build(cannon::cannonshogi()),
            Variant::build(cannon::cannonshogi_wiki()),
            Variant::build(cannon::cannonshosu()),
            Variant::build(chu::chushogi()),
        ];
        for (i, v) in all.iter_mut().enumerate() {
            v.index = i;
        }
        all
    });
    ALL.iter().collect()
}

impl Tables {
    fn empty() -> Tables {
        Tables {
            atoms: [Vec::new(), Vec::new()],
            atom_range: [[(0, 0); MAX_KINDS]; 2],
            mob_atoms: [Vec::new(), Vec::new()],
            mob_range: [[(0, 0, 0); MAX_KINDS]; 2],
            mob_kinds: 0,
            map_atoms: [Vec::new(), Vec::new()],
            map_range: [[(0, 0, 0); MAX_KINDS]; 2],
            promote: [0; MAX_KINDS],
            hand_kind: [0; MAX_KINDS],
            forced: [0; MAX_KINDS],
            royal_mask: 0,
            lion_mask: 0,
            last_rank_choice: 0,
            cheap_mask: 0,
            pawn_kind: 0,
            hand_kinds: Vec::new(),
            near: [[0; 8]; 2],
            slider: [[0; 8]; 2],
            cannon: [[0; 8]; 2],
            jump2: [[0; 8]; 2],
            range: [[0; 8]; 2],
            line: [[0; 8]; 2],
            scan_dirs: [0; 2],
            slide_dirs: [0; 2],
            slide_class: [0; 2],
            next_code: [[0; 256]; 2],
            leaps: [Vec::new(), Vec::new()],
            leap_kinds: 0,
            leap_at: [[0; 2 * LEAP_BASE as usize + 1]; 2],
            leap_by_set: false,
            has_hoppers: false,
            line_beyond: false,
            box_from_pieces: 0,
            on_board: Bits::EMPTY,
            zone: [Bits::EMPTY; 2],
            rel_rank: [[0; NSQ]; 2],
            has_lion_moves: false,
            plain_attacks: false,
            gen_near: [[0; MAX_KINDS]; 2],
            gen_slide: [[0; MAX_KINDS]; 2],
            gen_far: [0; 2],
            step_kinds: 0,
            plain_kinds: [0; 2],
            promo_gain: [0; MAX_KINDS],
            max_promo_gain: 0,
        }
    }
}

fn compile(v: &Variant) -> Tables {
    assert!(v.pieces.len() < MAX_KINDS && v.width <= geometry::MAX_SIDE && v.height <= geometry::MAX_SIDE);
    let mut t = Tables::empty();
    for (i, p) in v.pieces.iter().enumerate() {
        let k = i + 1;
        let kb = 1u64 << k;
        if let Some(ps) = p.promotes_to {
            t.promote[k] = v.kind_by_sfen(ps).unwrap_or_else(|| panic!("{}: unknown promotion {ps}", v.name));
        }
        let base = p.sfen.trim_start_matches('+');
        t.hand_kind[k] = v.kind_by_sfen(base).unwrap_or_else(|| panic!("{}: no base kind for {}", v.name, p.sfen));
        t.forced[k] = p.forced_ranks;
        if p.royal {
            t.royal_mask |= kb;
        }
        if p.lion {
            t.lion_mask |= kb;
        }
        if p.pawn {
            t.pawn_kind = k as u8;
        }
        if p.last_rank_choice {
            t.last_rank_choice |= kb;
        }
        if p.cheap {
            t.cheap_mask |= kb;
        }
        if v.drops && !p.royal && !p.sfen.starts_with('+') {
            t.hand_kinds.push(k as u8);
        }
        for c in Color::BOTH {
            let ci = c.idx();
            let start = t.atoms[ci].len() as u16;
            let sign: i8 = if c == Color::Black { 1 } else { -1 };
            t.plain_kinds[ci] |= kb;
            for a in &p.atoms {
                let (dx, dy) = (a.dx * sign, a.dy * sign);
                let line = geometry::dir_index(dx, dy);
                t.atoms[ci].push(CAtom {
                    off: geometry::offset(dx, dy),
                    ride: a.ride,
                    mode: a.mode,
                    max: a.max,
                    dir: match (a.ride, line) {
                        (Ride::Slide | Ride::Hop | Ride::Range, Some(d)) => d as u8,
                        _ => 8,
                    },
                });
                add_attack(&mut t, ci, kb, dx, dy, a);
                let plain = a.mode == MC && line.is_some() && (a.ride == Ride::Leap || (a.ride == Ride::Slide && a.max == 0));
                if !plain {
                    t.plain_kinds[ci] &= !kb;
                }
                match (a.ride, line) {
                    (Ride::Leap, Some(d)) => t.gen_near[ci][k] |= 1 << d,
                    (Ride::Slide, Some(d)) => {
                        t.gen_near[ci][k] |= 1 << d;
                        t.gen_slide[ci][k] |= 1 << d;
                    }
                    _ => t.gen_far[ci] |= kb,
                }
            }
            t.atom_range[ci][k] = (start, t.atoms[ci].len() as u16);
            let mob_start = t.mob_atoms[ci].len() as u16;
            let of = |rides: &[Ride]| -> Vec<CAtom> { t.atoms[ci][start as usize..].iter().filter(|a| rides.contains(&a.ride)).copied().collect() };
            let (slides, others) = (of(&[Ride::Slide]), of(&[Ride::Hop, Ride::Range]));
            let slides_end = mob_start + slides.len() as u16;
            t.mob_atoms[ci].extend(slides.into_iter().chain(others));
            t.mob_range[ci][k] = (mob_start, slides_end, t.mob_atoms[ci].len() as u16);
            let own = &t.atoms[ci][start as usize..];
            let capture = |a: &&CAtom| a.mode & CAPTURE != 0;
            let leaps: Vec<CAtom> = own.iter().filter(|a| a.ride == Ride::Leap).filter(capture).copied().collect();
            let rest: Vec<CAtom> = own.iter().filter(|a| a.ride != Ride::Leap).copied().collect();
            let map_start = t.map_atoms[ci].len() as u16;
            let leaps_end = map_start + leaps.len() as u16;
            t.map_atoms[ci].extend(leaps.into_iter().chain(rest));
            t.map_range[ci][k] = (map_start, leaps_end, t.map_atoms[ci].len() as u16);
            if t.mob_atoms[ci].len() as u16 > mob_start {
                t.mob_kinds |= kb;
            }
        }
    }
    for c in 0..2 {
        for d in 0..8 {
            t.line[c][d] = t.slider[c][d] | t.cannon[c][d] | t.jump2[c][d] | t.range[c][d];
        }
    }
    for r in 0..v.height {
        for col in 0..v.width {
            let s = geometry::sq(col, r);
            t.on_board.set(s);
            t.rel_rank[0][s as usize] = r as u8;
            t.rel_rank[1][s as usize] = (v.height - 1 - r) as u8;
            if r < v.zone_depth {
                t.zone[0].set(s);
            }
            if r >= v.height - v.zone_depth {
                t.zone[1].set(s);
            }
        }
    }
    t.plain_attacks = !t.has_hoppers && !t.has_lion_moves;
    for k in 1..=v.pieces.len() {
        if (t.gen_far[0] | t.gen_far[1]) >> k & 1 == 0 && t.gen_slide[0][k] | t.gen_slide[1][k] == 0 {
            t.step_kinds |= 1 << k;
        }
    }
    t.line_beyond = [&t.jump2, &t.cannon, &t.range].iter().any(|m| m.iter().flatten().any(|&x| x != 0));
    for c in 0..2 {
        t.scan_dirs[c] = (0..8).filter(|&d| t.near[c][d] | t.line[c][d] != 0).fold(0, |m, d| m | 1 << d);
        t.slide_dirs[c] = (0..8).filter(|&d| t.slider[c][d] != 0).fold(0, |m, d| m | 1 << d);
        for d in 0..8 {
            t.slide_class[d & 1] |= t.slider[c][d];
        }
        let by = Color::BOTH[c];
        for p in 0..=255u8 {
            t.next_code[c][p as usize] = if p == EMPTY {
                0xFF00
            } else if is_color(p, by) {
                (0..8)
                    .filter(|&d| (t.near[c][d] | t.slider[c][d]) >> kind_of(p) & 1 != 0)
                    .fold(0, |m, d| m | 1 << d)
            } else {
                0
            };
        }
    }
    t.box_from_pieces = if !t.line_beyond && v.width * v.height <= 81 { 24 } else { 0 };
    for c in 0..2 {
        for &(off, mask) in &t.leaps[c] {
            t.leap_kinds |= mask;
            t.leap_at[c][(off + LEAP_BASE) as usize] |= mask;
        }
    }
    t.leap_by_set = t.leaps.iter().any(|l| l.len() > 4);
    for k in 1..=v.pieces.len() {
        let pk = t.promote[k];
        if pk != 0 {
            t.promo_gain[k] = (v.piece(pk).value - v.piece(k as u8).value).max(0);
        }
    }
    t.max_promo_gain = t.promo_gain.iter().copied().max().unwrap_or(0);
    t
}

/// The largest grid offset of a leap (two squares in each axis), the index of offset 0 in
/// [`Tables::leap_at`].
pub const LEAP_BASE: i16 = 2 * geometry::GRID as i16 + 2;

/// Records what an atom of kind bit `kb`, moving along (dx, dy) for colour `ci`, attacks.
fn add_attack(t: &mut Tables, ci: usize, kb: u64, dx: i8, dy: i8, a: &Atom) {
    // The walk from the target towards the attacker goes in the opposite direction.
    let back = |dx: i8, dy: i8| geometry::dir_index(-dx.signum(), -dy.signum());
    if a.ride == Ride::Lion {
        t.has_lion_moves = true;
        let vecs: Vec<(i8, i8)> = if (dx, dy) == (0, 0) { DIRS.to_vec() } else { vec![(dx, dy)] };
        for (ux, uy) in vecs {
            t.near[ci][back(ux, uy).expect("unit")] |= kb;
        }
        let jumps: Vec<(i8, i8)> = if (dx, dy) == (0, 0) {
            (-2..=2i8)
                .flat_map(|x| (-2..=2i8).map(move |y| (x, y)))
                .filter(|&(x, y)| x.abs() == 2 || y.abs() == 2)
                .collect()
        } else {
            vec![(2 * dx, 2 * dy)]
        };
        for (x, y) in jumps {
            add_leap(t, ci, kb, x, y);
        }
        return;
    }
    if a.mode & CAPTURE == 0 {
        return;
    }
    let unit = dx.abs() <= 1 && dy.abs() <= 1;
    match a.ride {
        Ride::Leap if unit => t.near[ci][back(dx, dy).expect("unit")] |= kb,
        Ride::Leap => add_leap(t, ci, kb, dx, dy),
        Ride::Slide if a.max == 1 => t.near[ci][back(dx, dy).expect("unit")] |= kb,
        Ride::Slide if a.max == 0 => t.slider[ci][back(dx, dy).expect("slides are along lines")] |= kb,
        Ride::Hop if a.max == 0 => {
            t.cannon[ci][back(dx, dy).expect("line")] |= kb;
            t.has_hoppers = true;
        }
        Ride::Hop if a.max == 2 => {
            t.jump2[ci][back(dx, dy).expect("line")] |= kb;
            t.has_hoppers = true;
        }
        Ride::Range => {
            t.range[ci][back(dx, dy).expect("line")] |= kb;
            t.has_hoppers = true;
        }
        _ => panic!("unsupported atom {a:?}"),
    }
}

fn add_leap(t: &mut Tables, ci: usize, kb: u64, dx: i8, dy: i8) {
    let off = -geometry::offset(dx, dy);
    match t.leaps[ci].iter_mut().find(|(o, _)| *o == off) {
        Some(e) => e.1 |= kb,
        None => t.leaps[ci].push((off, kb)),
    }
}

// ---- Builders used by the descriptions -------------------------------------------------

/// Orthogonal unit vectors.
pub const ORTH: &[(i8, i8)] = &[(0, 1), (1, 0), (0, -1), (-1, 0)];
/// Diagonal unit vectors.
pub const DIAG: &[(i8, i8)] = &[(1, 1), (1, -1), (-1, -1), (-1, 1)];
/// All eight unit vectors.
pub const KING: &[(i8, i8)] = &[(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
/// Gold general steps.
pub const GOLD: &[(i8, i8)] = &[(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1)];
/// Silver general steps.
pub const SILVER: &[(i8, i8)] = &[(0, 1), (1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Atoms of one ride and mode along each vector.
pub fn atoms(ride: Ride, mode: u8, max: u8, vecs: &[(i8, i8)]) -> Vec<Atom> {
    vecs.iter().map(|&(dx, dy)| Atom { dx, dy, ride, mode, max }).collect()
}
/// Steps or leaps that move and capture.
pub fn leap(vecs: &[(i8, i8)]) -> Vec<Atom> {
    atoms(Ride::Leap, MC, 0, vecs)
}
/// Unlimited slides that move and capture.
pub fn slide(vecs: &[(i8, i8)]) -> Vec<Atom> {
    atoms(Ride::Slide, MC, 0, vecs)
}

/// A piece definition with defaults (no promotion, no flags).
pub fn piece(name: &'static str, sfen: &'static str, value: i32, atoms: Vec<Atom>) -> PieceDef {
    PieceDef {
        name,
        sfen,
        promotes_to: None,
        atoms,
        forced_ranks: 0,
        royal: false,
        lion: false,
        pawn: false,
        last_rank_choice: false,
        cheap: false,
        value,
    }
}

impl PieceDef {
    /// Sets the promoted kind.
    pub fn promotes(mut self, to: &'static str) -> Self {
        self.promotes_to = Some(to);
        self
    }
    /// Sets the forced-promotion ranks.
    pub fn forced(mut self, ranks: u8) -> Self {
        self.forced_ranks = ranks;
        self
    }
    /// Marks the kind royal.
    pub fn royal(mut self) -> Self {
        self.royal = true;
        self
    }
    /// Marks the kind a lion.
    pub fn lion(mut self) -> Self {
        self.lion = true;
        self
    }
    /// Marks the kind as the pawn.
    pub fn pawn(mut self) -> Self {
        self.pawn = true;
        self
    }
    /// Marks the kind as getting a promotion choice again on the last rank (chu).
    pub fn last_rank_choice(mut self) -> Self {
        self.last_rank_choice = true;
        self
    }
    /// Marks the kind as cheap for the lion-trading rule (chu pawn, go-between).
    pub fn cheap(mut self) -> Self {
        self.cheap = true;
        self
    }
}

/// A variant with shogi defaults, tables not yet compiled.
pub(crate) fn base(
    name: &'static str,
    xboard_name: &'static str,
    aliases: &'static [&'static str],
    size: (usize, usize),
    pieces: Vec<PieceDef>,
    start_sfen: &'static str,
) -> Variant {
    Variant {
        name,
        aliases,
        xboard_name,
        width: size.0,
        height: size.1,
        pieces,
        start_sfen,
        drops: true,
        zone_depth: 3,
        promo_rule: PromoRule::Shogi,
        two_pawn: true,
        pawn_drop_mate_illegal: true,
        royal_rule: RoyalRule::LastRoyal,
        lion_rules: false,
        declaration: (&[], [0, 0]),
        index: 0,
        t: Tables::empty(),
    }
}
