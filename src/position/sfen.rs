//! SFEN in and out.
//!
//! Parsing goes in two steps: [`parse`] turns text into an unchecked [`Setup`] (syntax
//! errors), then [`Position::from_setup`] checks it against the variant's rules (semantic
//! errors). Both report a typed [`SfenError`]; neither panics on any input.

use super::Position;
use crate::geometry::{Sq, sq};
use crate::notation::{parse_square, square_name};
use crate::piece::{Color, EMPTY, MAX_KINDS, color_of, is_color, kind_of, make_piece};
use crate::variant::{RoyalRule, Variant};
use std::fmt;

/// Why an SFEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// A required field is absent.
    MissingField(&'static str),
    /// Text after the last field.
    TrailingText(String),
    /// Wrong number of ranks.
    RankCount {
        /// Ranks the variant has.
        expected: usize,
        /// Ranks found.
        found: usize,
    },
    /// A rank describes the wrong number of squares.
    RankWidth {
        /// Rank letter.
        rank: char,
        /// Files the variant has.
        expected: usize,
        /// Squares described.
        found: usize,
    },
    /// A letter that is no piece of this variant.
    UnknownPiece(String),
    /// Side to move is not `b` or `w`.
    BadSide(String),
    /// The hand field cannot be read.
    BadHand(String),
    /// A piece that can never be in hand (royal, promoted) or hands in a variant without drops.
    NotInHand(String),
    /// More pieces of a kind in hand than the game has.
    TooManyPieces {
        /// The base piece letter.
        piece: String,
        /// How many the position has.
        found: usize,
        /// How many the game has.
        max: usize,
    },
    /// A side has no royal piece.
    MissingRoyal(Color),
    /// A side has two royals of the same kind.
    DuplicateRoyal(Color),
    /// Two unpromoted pawns of one side on a file where the two-pawn rule applies.
    TwoPawns {
        /// File number.
        file: usize,
    },
    /// A piece stands where it can never move again.
    DeadPiece {
        /// Square name.
        square: String,
    },
    /// The side that just moved is in check.
    OpponentInCheck,
    /// The move number is not a positive integer.
    BadMoveNumber(String),
    /// The counter-strike field (chu) is not `-` or a square.
    BadCounterStrike(String),
    /// The counter-strike square (chu) holds a piece of the side to move (it holds the
    /// opponent's piece that has just taken a lion there, or nothing after a lion-power double
    /// move that took the lion on its first leg and went on).
    CounterStrikeOwnPiece(String),
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::MissingField(w) => write!(f, "missing {w} field"),
            SfenError::TrailingText(t) => write!(f, "unexpected text after the SFEN: '{t}'"),
            SfenError::RankCount { expected, found } => write!(f, "board has {found} ranks, the variant has {expected}"),
            SfenError::RankWidth { rank, expected, found } => write!(f, "rank {rank} describes {found} squares, the board is {expected} wide"),
            SfenError::UnknownPiece(p) => write!(f, "unknown piece '{p}' for this variant"),
            SfenError::BadSide(s) => write!(f, "side to move must be 'b' or 'w', not '{s}'"),
            SfenError::BadHand(h) => write!(f, "cannot read the hand field '{h}'"),
            SfenError::NotInHand(p) => write!(f, "'{p}' cannot be in hand in this variant"),
            SfenError::TooManyPieces { piece, found, max } => write!(f, "{found} pieces of kind {piece} in hand, the game has only {max}"),
            SfenError::MissingRoyal(c) => write!(f, "{c:?} has no king"),
            SfenError::DuplicateRoyal(c) => write!(f, "{c:?} has two royals of the same kind"),
            SfenError::TwoPawns { file } => write!(f, "two unpromoted pawns of one side on file {file} (two-pawn rule)"),
            SfenError::DeadPiece { square } => write!(f, "the piece on {square} could never move again"),
            SfenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            SfenError::BadMoveNumber(n) => write!(f, "move number must be a positive integer, not '{n}'"),
            SfenError::BadCounterStrike(s) => write!(f, "third field must be '-' or a square, not '{s}'"),
            SfenError::CounterStrikeOwnPiece(s) => write!(f, "the counter-strike square {s} holds a piece of the side to move"),
        }
    }
}

impl std::error::Error for SfenError {}

/// An SFEN read but not yet checked against the rules.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Pieces on the board.
    pub pieces: Vec<(Sq, u8)>,
    /// Side to move.
    pub side: Color,
    /// Hand counts per colour and kind.
    pub hands: [[u8; MAX_KINDS]; 2],
    /// Move number.
    pub move_number: u32,
    /// Counter-strike square (chu), 0 if none.
    pub cs: Sq,
}

/// Reads an SFEN (board, side, hands or chu counter-strike square, optional move number).
pub fn parse(v: &Variant, text: &str) -> Result<Setup, SfenError> {
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or(SfenError::MissingField("board"))?;
    let side = fields.next().ok_or(SfenError::MissingField("side to move"))?;
    let third = fields.next().unwrap_or("-");
    let number = fields.next();
    if let Some(extra) = fields.next() {
        return Err(SfenError::TrailingText(extra.to_string()));
    }
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != v.height {
        return Err(SfenError::RankCount {
            expected: v.height,
            found: ranks.len(),
        });
    }
    let mut pieces = Vec::new();
    for (row, rank) in ranks.iter().enumerate() {
        let rank_letter = (b'a' + row as u8) as char;
        let mut col = 0usize;
        let mut chars = rank.chars().peekable();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                let mut n = d as usize;
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d2 as usize;
                    chars.next();
                }
                if n == 0 {
                    return Err(SfenError::UnknownPiece("0".into()));
                }
                col += n;
                if col > v.width {
                    break;
                }
                continue;
            }
            let (spelling, letter) = if ch == '+' {
                match chars.next() {
                    Some(l) => (format!("+{}", l.to_ascii_uppercase()), l),
                    None => return Err(SfenError::UnknownPiece("+".into())),
                }
            } else {
                (ch.to_ascii_uppercase().to_string(), ch)
            };
            let kind = v.kind_by_sfen(&spelling).filter(|_| letter.is_ascii_alphabetic()).ok_or_else(|| {
                SfenError::UnknownPiece(if letter.is_ascii_lowercase() {
                    spelling.to_ascii_lowercase()
                } else {
                    spelling.clone()
                })
            })?;
            let color = if letter.is_ascii_uppercase() { Color::Black } else { Color::White };
            if col < v.width {
                pieces.push((sq(col, row), make_piece(kind, color)));
            }
            col += 1;
        }
        if col != v.width {
            return Err(SfenError::RankWidth {
                rank: rank_letter,
                expected: v.width,
                found: col,
            });
        }
    }
    let side = match side {
        "b" => Color::Black,
        "w" => Color::White,
        s => return Err(SfenError::BadSide(s.to_string())),
    };
    let mut hands = [[0u8; MAX_KINDS]; 2];
    let mut cs = 0;
    if v.lion_rules {
        if third != "-" {
            cs = parse_square(v, third).ok_or_else(|| SfenError::BadCounterStrike(third.to_string()))?;
        }
    } else if third != "-" {
        parse_hand(v, third, &mut hands)?;
    }
    let move_number = match number {
        None => 1,
        Some(n) => n
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| SfenError::BadMoveNumber(n.to_string()))?,
    };
    Ok(Setup {
        pieces,
        side,
        hands,
        move_number,
        cs,
    })
}

fn parse_hand(v: &Variant, text: &str, hands: &mut [[u8; MAX_KINDS]; 2]) -> Result<(), SfenError> {
    if !v.drops {
        return Err(SfenError::NotInHand(text.to_string()));
    }
    let mut count: Option<u32> = None;
    for ch in text.chars() {
        if let Some(d) = ch.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 200 {
                return Err(SfenError::BadHand(text.to_string()));
            }
            count = Some(n);
            continue;
        }
        if !ch.is_ascii_alphabetic() {
            return Err(SfenError::BadHand(text.to_string()));
        }
        let kind = v
            .kind_by_sfen(&ch.to_ascii_uppercase().to_string())
            .ok_or_else(|| SfenError::UnknownPiece(ch.to_string()))?;
        if !v.t.hand_kinds.contains(&kind) {
            return Err(SfenError::NotInHand(ch.to_string()));
        }
        let c = if ch.is_ascii_uppercase() { 0 } else { 1 };
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(SfenError::BadHand(text.to_string()));
        }
        hands[c][kind as usize] = (hands[c][kind as usize] as u32 + n).min(255) as u8;
    }
    if count.is_some() {
        return Err(SfenError::BadHand(text.to_string()));
    }
    Ok(())
}

impl Position {
    /// Parses and checks an SFEN for variant `v`.
    pub fn from_sfen(v: &'static Variant, text: &str) -> Result<Position, SfenError> {
        Position::from_setup(v, parse(v, text)?)
    }

    /// Checks an unchecked setup against the variant's rules.
    pub fn from_setup(v: &'static Variant, s: Setup) -> Result<Position, SfenError> {
        let t = &v.t;
        let mut pos = Position::empty(v);
        for &(square, p) in &s.pieces {
            pos.put::<false>(square, p);
        }
        if let Some(inc) = pos.mob_inc {
            pos.mob = pos.mobility_sums(inc);
        }
        pos.hands = s.hands;
        pos.side = s.side;
        pos.ply = s.move_number;
        pos.cs = s.cs;
        // Hands may not hold more pieces of a kind than the whole game has (test positions may
        // put extra pieces on the board, but a hand only fills by captures).
        let start = parse(v, v.start_sfen).expect("start SFEN parses");
        let mut limit = [0usize; MAX_KINDS];
        for &(_, p) in &start.pieces {
            limit[t.hand_kind[kind_of(p) as usize] as usize] += 1;
        }
        for (i, piece) in v.pieces.iter().enumerate() {
            let (k, found) = (i + 1, s.hands[0][i + 1] as usize + s.hands[1][i + 1] as usize);
            if found > limit[k] {
                return Err(SfenError::TooManyPieces {
                    piece: piece.sfen.to_string(),
                    found,
                    max: limit[k],
                });
            }
        }
        // Doubled pawns on the board are impossible only where pawns cannot change files.
        let pawn_keeps_file = t.pawn_kind != 0 && v.piece(t.pawn_kind).atoms.iter().all(|a| a.dx == 0);
        for c in Color::BOTH {
            if pos.royals[c.idx()].is_empty() {
                return Err(SfenError::MissingRoyal(c));
            }
            let mut seen = 0u64;
            for r in pos.royals[c.idx()].iter() {
                let kb = 1u64 << kind_of(pos.board[r as usize]);
                if seen & kb != 0 {
                    return Err(SfenError::DuplicateRoyal(c));
                }
                seen |= kb;
            }
            if v.two_pawn
                && pawn_keeps_file
                && let Some(col) = pos.pawns[c.idx()].iter().position(|&n| n > 1)
            {
                return Err(SfenError::TwoPawns { file: v.width - col });
            }
        }
        for &(square, p) in &s.pieces {
            let rel = t.rel_rank[color_of(p).idx()][square as usize];
            if rel < t.forced[kind_of(p) as usize] {
                return Err(SfenError::DeadPiece {
                    square: square_name(v, square),
                });
            }
        }
        if v.lion_rules && s.cs != 0 && is_color(pos.board[s.cs as usize], s.side) {
            return Err(SfenError::CounterStrikeOwnPiece(square_name(v, s.cs)));
        }
        if v.royal_rule == RoyalRule::LastRoyal {
            let them = s.side.flip();
            let r = pos.royals[them.idx()];
            if r.count() == 1 && pos.attacked(r.first().unwrap_or(0), s.side) {
                return Err(SfenError::OpponentInCheck);
            }
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Writes the position as SFEN (with the move number).
    pub fn to_sfen(&self) -> String {
        let v = self.v;
        let mut out = String::new();
        for row in 0..v.height {
            if row > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for col in 0..v.width {
                let p = self.board[sq(col, row) as usize];
                if p == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                let name = v.piece(kind_of(p)).sfen;
                if is_color(p, Color::Black) {
                    out += name;
                } else {
                    out += &name.to_ascii_lowercase();
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
        }
        out.push(' ');
        out.push(if self.side == Color::Black { 'b' } else { 'w' });
        out.push(' ');
        if v.lion_rules {
            if self.cs == 0 {
                out.push('-');
            } else {
                out += &square_name(v, self.cs);
            }
        } else {
            let mut hand = String::new();
            for c in Color::BOTH {
                for &k in &v.t.hand_kinds {
                    let n = self.hands[c.idx()][k as usize];
                    if n == 0 {
                        continue;
                    }
                    if n > 1 {
                        hand += &n.to_string();
                    }
                    let l = v.piece(k).sfen;
                    hand += &if c == Color::Black { l.to_string() } else { l.to_ascii_lowercase() };
                }
            }
            out += if hand.is_empty() { "-" } else { &hand };
        }
        out += &format!(" {}", self.ply);
        out
    }
}
