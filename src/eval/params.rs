//! Evaluation weights per variant: a flat vector laid out as blocks of one weight per
//! piece kind (board value, hand value, promotion-zone bonus, advancement and the other
//! per-kind groups of [`Term`]), then the scalar terms, then the square terms (per kind, rank
//! from the own back rank and file from the nearer side edge: a piece-square table that is
//! the same for both colours and for the board's mirror image). Defaults come from the
//! variant's piece values; tuned weights ship as text files (`weights/<variant>.txt`, lines
//! `piece P 100`, `shelter 12`, `square P 2 4 -7`, `#` comments) written by `shishi tune` and
//! compiled in.
//!
//! Invariant: `w.len() == PER_KIND.len() * kinds + SCALARS.len() + kinds * ranks * files`
//! for the variant the params belong to; the order of [`Term`]'s variants is the order of the
//! blocks and of the names.

use crate::variant::Variant;
use std::sync::LazyLock;

/// A group of weights: the per-kind groups first, then the scalars, in layout order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Term {
    /// Per kind: value on the board.
    Piece = 0,
    /// Per kind: value in hand.
    Hand,
    /// Per kind: bonus for an unpromoted promotable piece in the zone.
    Promo,
    /// Per kind: per rank advanced from the own back rank.
    Advance,
    /// Per kind: per square the piece can move to or capture on (sliders and hoppers only).
    Mobility,
    /// Per kind: within two squares (king moves) of an own royal.
    Guard,
    /// Per kind: within two squares of an enemy royal.
    Raid,
    /// Per kind in the enemy's hand: squares (at most two) where dropping it checks a royal
    /// and the dropped piece cannot be taken safely.
    DropCheck,
    /// Per kind: a non-royal piece that an enemy piece attacks while it is worth more than
    /// its least attacker, or while we do not defend it.
    Threat,
    /// Per kind, endgame part (see [`PHASE`]): value on the board.
    PieceEg,
    /// Per kind, endgame part: value in hand.
    HandEg,
    /// Per kind, endgame part: per rank advanced from the own back rank.
    AdvanceEg,
    /// Per own piece next to a royal.
    Shelter = PER_KIND.len() as isize,
    /// Per enemy attack on the squares next to a royal.
    KingAttack,
    /// Per square next to a royal that the enemy attacks more often than we defend it.
    KingWeak,
    /// Per enemy piece within two squares of a royal.
    NearEnemy,
    /// Per enemy non-pawn piece in hand, times the empty squares next to a royal.
    HandDanger,
    /// For the side to move.
    Tempo,
    /// The square of a danger index (attacks, weak squares, enemies near, enemy hand) / 64.
    KingDanger,
    /// Per file between a royal and the nearer side edge.
    KingEdge,
    /// Squares (at most four) where an enemy drop would check a royal but could be taken.
    UnsafeCheck,
    /// Enemy attacks (at most two a square) on the royal's flank: three files, our camp.
    FlankAttack,
    /// Squares of the royal's flank that we attack.
    FlankDefence,
    /// The square of a second danger index that adds the drop checks and flank attacks / 64.
    DropDanger,
    /// Mop-up (variants without drops, far ahead in material): per rank or file between an
    /// enemy royal and the nearest edge.
    MopEdge,
    /// Mop-up: per own piece, the board's longer side minus one minus its king-move distance
    /// to the nearest enemy royal.
    MopClose,
    /// Mop-up: per square next to an enemy royal that it could step to (empty or ours) and
    /// that we do not attack.
    MopFree,
    /// Pieces of the side to move counted by [`Term::Threat`] (it may save one of them).
    ThreatMoving,
    /// Endgame part: per own piece next to a royal.
    ShelterEg,
    /// Endgame part: per file between a royal and the nearer side edge.
    KingEdgeEg,
    /// Endgame part: the square of the first danger index / 64.
    KingDangerEg,
    /// Endgame part: the square of the second danger index / 64.
    DropDangerEg,
}

/// The endgame terms (`…Eg`) count their feature times the game's endgame share `0..=PHASE`
/// and the evaluation divides their sum by `PHASE`: a weight is what the term is worth in a
/// full endgame, added to the term's all-game weight in proportion to the endgame share.
pub const PHASE: i32 = 64;

/// Names of the per-kind groups, in [`Term`] order.
const PER_KIND: [&str; 12] = [
    "piece",
    "hand",
    "promo",
    "advance",
    "mobility",
    "guard",
    "raid",
    "drop_check",
    "threat",
    "piece_eg",
    "hand_eg",
    "advance_eg",
];
/// The first per-kind endgame group and the first endgame scalar.
const FIRST_EG: (Term, Term) = (Term::PieceEg, Term::ShelterEg);
/// Names of the scalars, in [`Term`] order.
const SCALARS: [&str; 20] = [
    "shelter",
    "king_attack",
    "king_weak",
    "near_enemy",
    "hand_danger",
    "tempo",
    "king_danger",
    "king_edge",
    "unsafe_check",
    "flank_attack",
    "flank_defence",
    "drop_danger",
    "mop_edge",
    "mop_close",
    "mop_free",
    "threat_moving",
    "shelter_eg",
    "king_edge_eg",
    "king_danger_eg",
    "drop_danger_eg",
];
const _: () = assert!(Term::DropDangerEg as usize + 1 == PER_KIND.len() + SCALARS.len());
const _: () = assert!(Term::AdvanceEg as usize + 1 == PER_KIND.len());

/// The weights of one variant.
#[derive(Clone, Debug)]
pub struct Params {
    /// Number of piece kinds.
    pub kinds: usize,
    /// Ranks of the board (the square terms' first coordinate).
    ranks: usize,
    /// Files of the board (the square terms' second coordinate is folded from them).
    width: usize,
    /// The weights.
    pub w: Vec<i32>,
    /// How the search scales this evaluation: it reads `evaluate() * search_scale / 64`
    /// ([`Params::search_score`]; weights line `search_scale N`, 1 to 256; [`SEARCH_SCALE_ONE`]
    /// when absent). The search's margins are set in its own centipawns; a variant whose
    /// weights were fitted on a wider scale (a small K: shogi's K 0.216 makes a pawn capture
    /// worth about four of Fairy-Stockfish's pawns) maps its scores onto them with this, as
    /// does one fitted on a narrower scale (sho's K 0.758 makes a pawn 61).
    pub search_scale: i32,
}

/// The [`Params::search_scale`] at which the search reads the evaluation as it is.
pub const SEARCH_SCALE_ONE: i32 = 64;

/// Which per-kind groups of the shipped weights have a non-zero weight (the evaluation skips
/// the others; `features` computes them all).
#[derive(Clone, Copy, Debug)]
pub struct Used {
    /// Guard (own royal within two squares).
    pub guard: bool,
    /// Raid (enemy royal within two squares).
    pub raid: bool,
    /// Mobility.
    pub mobility: bool,
    /// The per-kind endgame groups.
    pub eg_kind: bool,
    /// Any endgame weight.
    pub eg: bool,
    /// The threat terms.
    pub threat: bool,
}

impl Used {
    fn of(p: &Params) -> Used {
        let any = |t: Term| (1..=p.kinds as u8).any(|k| p.w[p.kind(t, k)] != 0);
        Used {
            guard: any(Term::Guard),
            raid: any(Term::Raid),
            mobility: any(Term::Mobility),
            eg_kind: any(Term::PieceEg) || any(Term::HandEg) || any(Term::AdvanceEg),
            eg: (0..p.w.len()).any(|i| p.is_eg(i) && p.w[i] != 0),
            threat: any(Term::Threat) || p.w[p.index(Term::ThreatMoving)] != 0,
        }
    }
}

impl Params {
    /// Index of a per-kind weight (`kind` from 1).
    #[inline]
    pub fn kind(&self, term: Term, kind: u8) -> usize {
        debug_assert!((term as usize) < PER_KIND.len());
        term as usize * self.kinds + kind as usize - 1
    }

    /// Index of a scalar weight.
    #[inline]
    pub fn index(&self, term: Term) -> usize {
        debug_assert!(term as usize >= PER_KIND.len());
        (PER_KIND.len() * self.kinds) + term as usize - PER_KIND.len()
    }

    /// Files from a side edge to the middle: the range of the square terms' second coordinate.
    #[inline]
    fn files(&self) -> usize {
        self.width.div_ceil(2)
    }

    /// Index of the first square term.
    #[inline]
    fn squares_start(&self) -> usize {
        PER_KIND.len() * self.kinds + SCALARS.len()
    }

    /// Index of the square term of `kind` (from 1) `adv` ranks from its own back rank and
    /// `fold` files from the nearer side edge.
    #[inline]
    fn square(&self, kind: u8, adv: usize, fold: usize) -> usize {
        self.squares_start() + ((kind as usize - 1) * self.ranks + adv) * self.files() + fold
    }

    /// Index of the square term of `kind` (from 1) `adv` ranks from its own back rank, in
    /// column `col` (folded onto the nearer side edge).
    #[inline]
    pub fn square_at(&self, kind: u8, adv: usize, col: usize) -> usize {
        self.square(kind, adv, col.min(self.width - 1 - col))
    }

    /// Whether weight `i` is an endgame term (its feature is scaled by the endgame share).
    #[inline]
    pub fn is_eg(&self, i: usize) -> bool {
        let kinds_end = PER_KIND.len() * self.kinds;
        (i >= FIRST_EG.0 as usize * self.kinds && i < kinds_end) || (i >= kinds_end + FIRST_EG.1 as usize - PER_KIND.len() && i < self.squares_start())
    }

    /// Defaults from the variant's piece values.
    pub fn defaults(v: &Variant) -> Params {
        let kinds = v.pieces.len();
        let mut p = Params {
            kinds,
            ranks: v.height,
            width: v.width,
            w: Vec::new(),
            search_scale: SEARCH_SCALE_ONE,
        };
        p.w = vec![0; p.squares_start() + kinds * p.ranks * p.files()];
        for k in 1..=kinds as u8 {
            let value = v.piece(k).value;
            let i = p.kind(Term::Piece, k);
            p.w[i] = value;
            let i = p.kind(Term::Hand, k);
            p.w[i] = value * 110 / 100;
            let pk = v.t.promote[k as usize];
            if pk != 0 {
                let i = p.kind(Term::Promo, k);
                p.w[i] = (v.piece(pk).value - value).max(0) / 4;
            }
        }
        let i = p.index(Term::Shelter);
        p.w[i] = 12;
        let i = p.index(Term::MopEdge);
        p.w[i] = -60;
        let i = p.index(Term::MopClose);
        p.w[i] = 12;
        p
    }

    /// Human-readable name of weight `i` (`piece P`, `shelter`, `square P 2 4`).
    pub fn name(&self, v: &Variant, i: usize) -> String {
        let scalars = PER_KIND.len() * self.kinds;
        if i < scalars {
            format!("{} {}", PER_KIND[i / self.kinds], v.pieces[i % self.kinds].sfen)
        } else if i < self.squares_start() {
            SCALARS[i - scalars].to_string()
        } else {
            let (j, files) = (i - self.squares_start(), self.files());
            let (kind, rest) = (j / (self.ranks * files), j % (self.ranks * files));
            format!("square {} {} {}", v.pieces[kind].sfen, rest / files, rest % files)
        }
    }

    /// Reads weights text over the defaults; errors name the line.
    pub fn parse(v: &Variant, text: &str) -> Result<Params, String> {
        let mut p = Params::defaults(v);
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("line {}: cannot read '{line}'", n + 1);
            let (index, value) = match words.as_slice() {
                ["search_scale", value] => {
                    p.search_scale = value.parse().ok().filter(|s| (1..=256).contains(s)).ok_or_else(bad)?;
                    continue;
                }
                [term, letter, value] => {
                    let block = PER_KIND.iter().position(|name| name == term).ok_or_else(bad)?;
                    let k = v.kind_by_sfen(letter).ok_or_else(bad)?;
                    (block * p.kinds + k as usize - 1, value)
                }
                [term, value] => (PER_KIND.len() * p.kinds + SCALARS.iter().position(|name| name == term).ok_or_else(bad)?, value),
                ["square", letter, adv, fold, value] => {
                    let k = v.kind_by_sfen(letter).ok_or_else(bad)?;
                    let adv: usize = adv.parse().map_err(|_| bad())?;
                    let fold: usize = fold.parse().map_err(|_| bad())?;
                    if adv >= p.ranks || fold >= p.files() {
                        return Err(bad());
                    }
                    (p.square(k, adv, fold), value)
                }
                _ => return Err(bad()),
            };
            p.w[index] = value.parse().map_err(|_| bad())?;
        }
        Ok(p)
    }

    /// The evaluation `e` as the search reads it (scaled by [`Params::search_scale`]).
    pub fn search_score(&self, e: i32) -> i32 {
        e * self.search_scale / SEARCH_SCALE_ONE
    }

    /// The weights as text that [`Params::parse`] reads back (square terms only where not
    /// zero: most variants leave most of them at zero).
    pub fn format(&self, v: &Variant) -> String {
        let mut s = String::new();
        if self.search_scale != SEARCH_SCALE_ONE {
            s.push_str(&format!("search_scale {}\n", self.search_scale));
        }
        for i in 0..self.w.len() {
            if i < self.squares_start() || self.w[i] != 0 {
                s.push_str(&format!("{} {}\n", self.name(v, i), self.w[i]));
            }
        }
        s
    }
}

/// Shipped weights per variant name.
fn shipped(name: &str) -> &'static str {
    match name {
        "shogi" => include_str!("weights/shogi.txt"),
        "shoshogi" => include_str!("weights/shoshogi.txt"),
        "cannonshogi" => include_str!("weights/cannonshogi.txt"),
        "cannonshogi-wiki" => include_str!("weights/cannonshogi-wiki.txt"),
        "cannonshosu" => include_str!("weights/cannonshosu.txt"),
        "chushogi" => include_str!("weights/chushogi.txt"),
        _ => "",
    }
}

/// The terms that depend only on a piece and its square (board value, promotion-zone bonus,
/// advancement, square terms), indexed by [`crate::position::psq_index`]; positions keep
/// their sums.
fn psq_of(v: &Variant, p: &Params) -> Vec<i32> {
    let t = &v.t;
    let mut table = vec![0; (p.kinds + 1) * 2 * crate::geometry::NSQ];
    for k in 1..=p.kinds as u8 {
        for c in 0..2 {
            for s in t.on_board.iter() {
                let adv = v.height as i32 - 1 - t.rel_rank[c][s as usize] as i32;
                let square = p.square_at(k, adv as usize, crate::geometry::col_of(s));
                let mut x = p.w[p.kind(Term::Piece, k)] + adv * p.w[p.kind(Term::Advance, k)] + p.w[square];
                if t.promote[k as usize] != 0 && t.zone[c].has(s) {
                    x += p.w[p.kind(Term::Promo, k)];
                }
                table[crate::position::psq_index(k, c, s)] = x;
            }
        }
    }
    table
}

static PSQ: LazyLock<Vec<Vec<i32>>> = LazyLock::new(|| crate::variant::all().into_iter().map(|v| psq_of(v, params(v))).collect());

/// The piece-square table of the shipped weights of `v`.
pub fn psq_table(v: &Variant) -> &'static [i32] {
    &PSQ[v.index]
}

static USED: LazyLock<Vec<Used>> = LazyLock::new(|| ALL.iter().map(Used::of).collect());

/// The groups of [`params`]`(v)` in use.
#[inline]
pub fn used(v: &Variant) -> Used {
    USED[v.index]
}

static ALL: LazyLock<Vec<Params>> = LazyLock::new(|| {
    crate::variant::all()
        .into_iter()
        .map(|v| match Params::parse(v, shipped(v.name)) {
            Ok(p) => p,
            Err(e) => {
                log::error!("shipped weights for {}: {e}; using defaults", v.name);
                Params::defaults(v)
            }
        })
        .collect()
});

/// The weights in use for `v`.
#[inline]
pub fn params(v: &Variant) -> &'static Params {
    &ALL[v.index]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_scale_is_read_checked_and_written_back() {
        let v = crate::variant::all()[0];
        assert_eq!(Params::parse(v, "tempo 10").expect("weights").search_scale, 64);
        let p = Params::parse(v, "search_scale 32\ntempo 10").expect("weights");
        assert_eq!(p.search_scale, 32);
        assert!(p.format(v).starts_with("search_scale 32\n"));
        for bad in ["search_scale 0", "search_scale 257", "search_scale half"] {
            assert!(Params::parse(v, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shipped_weights_parse_and_round_trip() {
        for v in crate::variant::all() {
            let p = Params::parse(v, shipped(v.name)).expect("shipped weights");
            let back = Params::parse(v, &p.format(v)).expect("formatted weights");
            assert_eq!(p.w, back.w, "{}", v.name);
            assert_eq!(p.search_scale, back.search_scale, "{}", v.name);
        }
        let v = crate::variant::all()[0];
        // The indices of the evaluation and the names of the weights files agree.
        let p = Params::defaults(v);
        let pawn = v.kind_by_sfen("P").expect("pawn");
        assert_eq!(p.name(v, p.kind(Term::Advance, pawn)), "advance P");
        assert_eq!(p.name(v, p.index(Term::Shelter)), "shelter");
        assert_eq!(p.name(v, p.index(Term::Tempo)), "tempo");
        assert!(Params::parse(v, "piece Z 5").unwrap_err().contains("line 1"));
        // Square terms: named by kind, rank and folded file; out-of-range coordinates refused.
        let sq = Params::parse(v, "square P 2 4 -7").expect("square term");
        assert_eq!(sq.w[sq.square(pawn, 2, 4)], -7);
        assert_eq!(sq.name(v, sq.square(pawn, 2, 4)), "square P 2 4");
        assert!(!sq.is_eg(sq.square(pawn, 2, 4)));
        assert!(Params::parse(v, "square P 9 0 1").is_err());
        assert!(Params::parse(v, "square P 0 5 1").is_err());
        assert!(Params::parse(v, &sq.format(v)).expect("formatted").w == sq.w);
        // A column and its mirror image share a term.
        assert_eq!(sq.square_at(pawn, 2, 4), sq.square(pawn, 2, 4));
        assert_eq!(sq.square_at(pawn, 2, 1), sq.square_at(pawn, 2, 7));
        assert!(Params::parse(v, "shelter x").is_err());
    }
}
