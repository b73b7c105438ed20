//! USI square and move notation (RULES.md section 2): files numbered from the first player's
//! right (`1`..`W`), ranks lettered from the top; `7g7f`, `8h2b+`, `P*5e`, and for lion-style
//! double moves `from mid to`.

use crate::geometry::{Sq, col_of, row_of, sq};
use crate::moves::Move;
use crate::piece::Color;
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
        return Some(UsiMove { from: None, drop_kind: kind, mid: None, to: parse_square(v, square)?, promote: false });
    }
    let (body, promote) = match text.as_bytes().last()? {
        b'+' => (&text[..text.len() - 1], true),
        b'=' => (&text[..text.len() - 1], false),
        _ => (text, false),
    };
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
        [from, to] => Some(UsiMove { from: Some(from), drop_kind: 0, mid: None, to, promote }),
        [from, mid, to] => Some(UsiMove { from: Some(from), drop_kind: 0, mid: Some(mid), to, promote }),
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

/// The colour letter helper for drops in XBoard and display (uppercase for both sides).
pub fn side_char(c: Color) -> char {
    if c == Color::Black { 'b' } else { 'w' }
}
