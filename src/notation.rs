//! USI square and move notation (RULES.md section 2): files numbered from the first player's
//! right (`1`..`W`), ranks lettered from the top; `7g7f`, `8h2b+`, `P*5e`, and for lion-style
//! double moves `from mid to`.

use crate::geometry::{Sq, col_of, row_of, sq};
use crate::moves::Move;
use crate::piece::EMPTY;
use crate::position::Position;
use crate::variant::Variant;

/// Name of a board square, e.g. `7g` or `10j`.
pub fn square_name(v: &Variant, s: Sq) -> String {
    let file = v.width - col_of(s);
    let rank = (b'a' + row_of(s) as u8) as char;
    format!("{file}{rank}")
}

/// Parses a square name; `None` if malformed or off the board.
pub fn parse_square(v: &Variant, text: &str) -> Option<Sq> {
    let (digits, rest) = split_square(text)?;
    if !rest.is_empty() {
        return None;
    }
    square_from_parts(v, digits)
}

/// Splits the leading square of `text` into (square text, rest).
fn split_square(text: &str) -> Option<(&str, &str)> {
    let nd = text.bytes().take_while(|b| b.is_ascii_digit()).count();
    if nd == 0 || nd > 2 || text.len() <= nd || !text.as_bytes()[nd].is_ascii_lowercase() {
        return None;
    }
    Some((&text[..=nd], &text[nd + 1..]))
}

fn square_from_parts(v: &Variant, s: &str) -> Option<Sq> {
    let (num, letter) = s.split_at(s.len() - 1);
    let file: usize = num.parse().ok()?;
    let row = (letter.as_bytes()[0] - b'a') as usize;
    if file == 0 || file > v.width || row >= v.height {
        return None;
    }
    Some(sq(v.width - file, row))
}

/// Splits a trailing `+` (promote) or `=` (explicit refusal) off a move; `None` if empty.
fn split_promotion(text: &str) -> Option<(&str, bool)> {
    match text.as_bytes().last()? {
        b'+' => Some((&text[..text.len() - 1], true)),
        b'=' => Some((&text[..text.len() - 1], false)),
        _ => Some((text, false)),
    }
}

/// USI text of a move.
pub fn move_to_usi(v: &Variant, m: Move) -> String {
    if m.is_drop() {
        let letter = v.piece(m.drop_kind()).sfen;
        return format!("{letter}*{}", square_name(v, m.to()));
    }
    let mut s = square_name(v, m.from());
    if m.mid() != 0 {
        s += &square_name(v, m.mid());
    }
    s += &square_name(v, m.to());
    if m.is_promotion() {
        s.push('+');
    }
    s
}

/// A move as written, before it is matched against the legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UsiMove {
    /// Origin, or `None` for a drop.
    pub from: Option<Sq>,
    /// Dropped kind (drops only).
    pub drop_kind: u8,
    /// Intermediate square of a double move.
    pub mid: Option<Sq>,
    /// Destination.
    pub to: Sq,
    /// Promotion requested.
    pub promote: bool,
}

/// Parses USI move syntax for variant `v` (not checking legality).
pub fn parse_usi(v: &Variant, text: &str) -> Option<UsiMove> {
    if let Some((piece, square)) = text.split_once('*') {
        let kind = v.kind_by_sfen(&piece.to_ascii_uppercase())?;
        if piece.len() != 1 || !v.t.hand_kinds.contains(&kind) {
            return None;
        }
        return Some(UsiMove {
            from: None,
            drop_kind: kind,
            mid: None,
            to: parse_square(v, square)?,
            promote: false,
        });
    }
    let (body, promote) = split_promotion(text)?;
    let mut squares = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let (s, r) = split_square(rest)?;
        squares.push(square_from_parts(v, s)?);
        rest = r;
        if squares.len() > 3 {
            return None;
        }
    }
    match squares[..] {
        [from, to] => Some(UsiMove {
            from: Some(from),
            drop_kind: 0,
            mid: None,
            to,
            promote,
        }),
        [from, mid, to] => Some(UsiMove {
            from: Some(from),
            drop_kind: 0,
            mid: Some(mid),
            to,
            promote,
        }),
        _ => None,
    }
}

impl Position {
    /// Finds the legal move written `text` in USI notation; `None` if unparsable or illegal.
    /// A two-step move through an empty square is read as the direct move it equals.
    pub fn parse_usi_move(&mut self, text: &str) -> Option<Move> {
        let u = parse_usi(self.variant(), text)?;
        let legal = self.legal_moves();
        legal.into_iter().find(|&m| self.matches(m, &u))
    }

    fn matches(&self, m: Move, u: &UsiMove) -> bool {
        match u.from {
            None => m.is_drop() && m.drop_kind() == u.drop_kind && m.to() == u.to,
            Some(from) => {
                if m.is_drop() || m.from() != from || m.to() != u.to || m.is_promotion() != u.promote {
                    return false;
                }
                let mid = u.mid.filter(|&mid| !(self.piece_at(mid) == crate::piece::EMPTY && mid != u.to && u.to != from));
                match (mid, m.mid()) {
                    (None, 0) => true,
                    (Some(a), b) if b != 0 => a == b || (from == u.to && self.piece_at(a) == crate::piece::EMPTY && self.piece_at(b) == crate::piece::EMPTY),
                    _ => false,
                }
            }
        }
    }
}

// ---- XBoard (CECP) notation, RULES.md section 9 ---------------------------------------

impl Variant {
    /// XBoard's number for the bottom rank: 0 on 10-rank boards, else 1 (RULES.md section 9).
    pub fn xboard_rank_base(&self) -> usize {
        if self.height == 10 { 0 } else { 1 }
    }
}

/// XBoard square name: file letter from the first player's left, rank number from the bottom
/// starting at `rank_base` (1 normally; XBoard numbers 10-rank boards from 0).
pub fn xboard_square(v: &Variant, s: Sq, rank_base: usize) -> String {
    format!("{}{}", (b'a' + col_of(s) as u8) as char, v.height - 1 - row_of(s) + rank_base)
}

fn parse_xboard_square(v: &Variant, text: &str, rank_base: usize) -> Option<Sq> {
    let b = text.as_bytes();
    if b.len() < 2 || !b[0].is_ascii_lowercase() || !b[1..].iter().all(u8::is_ascii_digit) || b.len() > 3 {
        return None;
    }
    let col = (b[0] - b'a') as usize;
    let rank: usize = text[1..].parse().ok()?;
    if col >= v.width || rank < rank_base || rank - rank_base >= v.height {
        return None;
    }
    Some(sq(col, v.height - 1 - (rank - rank_base)))
}

impl Position {
    /// XBoard text of a move legal in this position: `e2e4`, `e7e8+`, `P@e5`, a lion double
    /// move `f5f6,f6f7` (igui `f5f6,f6f5`), a pass `@@@@`.
    pub fn move_to_xboard(&self, m: Move, rank_base: usize) -> String {
        let v = self.variant();
        let xs = |s| xboard_square(v, s, rank_base);
        if m.is_drop() {
            return format!("{}@{}", v.piece(m.drop_kind()).sfen, xs(m.to()));
        }
        if m.mid() != 0 {
            if m.to() == m.from() && self.piece_at(m.mid()) == EMPTY {
                return "@@@@".to_string();
            }
            return format!("{}{},{}{}", xs(m.from()), xs(m.mid()), xs(m.mid()), xs(m.to()));
        }
        format!("{}{}{}", xs(m.from()), xs(m.to()), if m.is_promotion() { "+" } else { "" })
    }

    /// Finds the legal move written in XBoard notation; `None` if unparsable or illegal.
    pub fn parse_xboard_move(&mut self, text: &str, rank_base: usize) -> Option<Move> {
        let v = self.variant();
        let legal = self.legal_moves();
        if text == "@@@@" {
            return legal
                .iter()
                .copied()
                .find(|m| !m.is_drop() && m.mid() != 0 && m.to() == m.from() && self.piece_at(m.mid()) == EMPTY);
        }
        if let Some((piece, square)) = text.split_once('@') {
            let kind = v.kind_by_sfen(&piece.to_ascii_uppercase())?;
            let to = parse_xboard_square(v, square, rank_base)?;
            return legal.iter().copied().find(|m| m.is_drop() && m.drop_kind() == kind && m.to() == to);
        }
        let (body, promote) = split_promotion(text)?;
        let legs: Vec<&str> = body.split(',').collect();
        let pair = |leg: &str| -> Option<(Sq, Sq)> {
            let split = leg.char_indices().skip(1).find(|(_, c)| c.is_ascii_lowercase())?.0;
            Some((
                parse_xboard_square(v, &leg[..split], rank_base)?,
                parse_xboard_square(v, &leg[split..], rank_base)?,
            ))
        };
        let u = match legs[..] {
            [one] => {
                let (from, to) = pair(one)?;
                UsiMove {
                    from: Some(from),
                    drop_kind: 0,
                    mid: None,
                    to,
                    promote,
                }
            }
            [first, second] => {
                let (from, mid) = pair(first)?;
                let (mid2, to) = pair(second)?;
                if mid2 != mid {
                    return None;
                }
                UsiMove {
                    from: Some(from),
                    drop_kind: 0,
                    mid: Some(mid),
                    to,
                    promote,
                }
            }
            _ => return None,
        };
        legal.iter().copied().find(|&m| self.matches(m, &u))
    }
}
