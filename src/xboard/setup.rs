//! What XBoard needs to draw and check a variant it does not know: the `setup` line (piece
//! table, board size, holdings, start FEN) and one `piece` line per kind in Betza notation;
//! reading XBoard FENs back; and `highlight` boards for `lift`.
//!
//! The piece table follows XBoard 4.9's layout for the shogi parent: per colour, slots
//! 0..10 hold unpromoted kinds (pieces in hand first, so XBoard's holdings line up), slot
//! i + 11 holds the promotion of slot i (written `+`), the last character is the king.
//! Betza strings are generated from the movement atoms; the ranging cannon jump of the wiki
//! reading has no Betza equivalent and is approximated by a one-screen hop, which is why
//! XBoard should run these variants with legality testing off (it then asks `lift`).

use crate::geometry::Sq;
use crate::piece::{EMPTY, color_of, is_color};
use crate::position::Position;
use crate::variant::{Atom, CAPTURE, MOVE, Ride, Variant};

/// Lines to send after `variant X` (nothing for variants XBoard knows).
pub fn announce(v: &Variant) -> Vec<String> {
    if v.xboard_name == "shogi" || v.xboard_name == "chu" {
        return Vec::new();
    }
    let Some(table) = piece_table(v) else {
        return Vec::new();
    };
    let holdings = if v.drops { v.t.hand_kinds.len() } else { 0 };
    let mut out = vec![format!("setup ({table}) {}x{}+{}_shogi {}", v.width, v.height, holdings, start_fen(v))];
    for p in &v.pieces {
        out.push(format!("piece {}& {}", p.sfen, betza(&p.atoms)));
    }
    out
}

/// The start position as an XBoard FEN: board, holdings, side (`w`: the first player), counters.
fn start_fen(v: &Variant) -> String {
    let board = v.start_sfen.split_whitespace().next().unwrap_or("");
    format!("{board}[-] w 0 1")
}

/// The XBoard piece-to-character table, or `None` if the kinds do not fit its slots.
fn piece_table(v: &Variant) -> Option<String> {
    const SLOTS: usize = 22;
    let mut white = ['.'; SLOTS];
    let mut king = None;
    // Hand kinds first (in hand order, the pawn leading), then the other unpromoted kinds.
    let mut order: Vec<u8> = v.t.hand_kinds.clone();
    if let Some(i) = order.iter().position(|&k| k == v.t.pawn_kind) {
        let p = order.remove(i);
        order.insert(0, p);
    }
    for k in 1..=v.pieces.len() as u8 {
        let p = v.piece(k);
        if p.sfen.starts_with('+') || order.contains(&k) {
            continue;
        }
        if p.royal && king.is_none() {
            king = p.sfen.chars().next();
            continue;
        }
        order.push(k);
    }
    if let Some(i) = order.iter().position(|&k| k == v.t.pawn_kind) {
        let p = order.remove(i);
        order.insert(0, p);
    }
    if order.len() > 11 {
        return None;
    }
    for (slot, &k) in order.iter().enumerate() {
        let p = v.piece(k);
        white[slot] = p.sfen.chars().next()?;
        if p.promotes_to.is_some() {
            white[slot + 11] = '+';
        }
    }
    let w: String = white.iter().collect::<String>() + &king?.to_string();
    Some(format!("{w}{}", w.to_ascii_lowercase()))
}

/// Betza text of a list of atoms (black's point of view: forward is `f`, file 1 is right).
pub fn betza(atoms: &[Atom]) -> String {
    let mut groups: Vec<(String, Vec<(i8, i8)>)> = Vec::new();
    for a in atoms {
        let (letter, unit) = atom_letter(a);
        let mode = match a.mode {
            MOVE => "m",
            CAPTURE => "c",
            _ => "",
        };
        let prefix = match (a.ride, a.max) {
            (Ride::Hop, 2) => "j",
            (Ride::Hop, _) | (Ride::Range, _) => "p",
            _ => "",
        };
        let range = match (a.ride, a.max) {
            (Ride::Slide, m) if m > 0 => m.to_string(),
            _ => String::new(),
        };
        let key = format!("{mode}{prefix}|{letter}{range}");
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.1.push(unit),
            None => groups.push((key, vec![unit])),
        }
    }
    let mut out = String::new();
    for (key, dirs) in groups {
        let (pre, atom) = key.split_once('|').unwrap_or(("", &key));
        let diagonal = dirs.iter().all(|&(x, y)| x != 0 && y != 0);
        for m in direction_modifiers(&dirs, diagonal, atom.starts_with('N')) {
            out.push_str(&format!("{m}{pre}{atom}"));
        }
    }
    out
}

/// (Betza atom letter, direction of the vector as signs).
fn atom_letter(a: &Atom) -> (&'static str, (i8, i8)) {
    let (dx, dy) = (a.dx, a.dy);
    let unit = (dx.signum(), dy.signum());
    let letter = match a.ride {
        Ride::Slide => {
            if dx == 0 || dy == 0 {
                if a.max == 1 { "W" } else { "R" }
            } else if a.max == 1 {
                "F"
            } else {
                "B"
            }
        }
        Ride::Hop if a.max == 2 => {
            if dx == 0 || dy == 0 {
                "D"
            } else {
                "A"
            }
        }
        Ride::Hop | Ride::Range => {
            if dx == 0 || dy == 0 {
                "R"
            } else {
                "B"
            }
        }
        Ride::Leap => match (dx.abs(), dy.abs()) {
            (0, 1) | (1, 0) => "W",
            (1, 1) => "F",
            (0, 2) | (2, 0) => "D",
            (2, 2) => "A",
            (1, 2) | (2, 1) => "N",
            _ => "K",
        },
        Ride::Lion => "K",
    };
    (letter, unit)
}

/// Modifier prefixes covering exactly `dirs` (sign vectors) of one atom.
fn direction_modifiers(dirs: &[(i8, i8)], diagonal: bool, knight: bool) -> Vec<String> {
    let mut d: Vec<(i8, i8)> = dirs.to_vec();
    d.sort();
    d.dedup();
    let name = |(x, y): (i8, i8)| -> String {
        let v = match y.signum() {
            1 => "f",
            -1 => "b",
            _ => "",
        };
        let h = match x.signum() {
            1 => "r",
            -1 => "l",
            _ => "",
        };
        format!("{v}{h}")
    };
    if knight {
        // Knight leaps are described by their forward/backward pairs (the shogi knight is ffN).
        let fwd = d.iter().filter(|v| v.1 > 0).count();
        let bwd = d.iter().filter(|v| v.1 < 0).count();
        return match (fwd, bwd) {
            (0, 0) => vec![],
            (_, 0) => vec!["ff".into()],
            (0, _) => vec!["bb".into()],
            _ => vec![String::new()],
        };
    }
    if (diagonal && d.len() == 4) || (!diagonal && d.len() == 4) {
        return vec![String::new()];
    }
    if diagonal {
        let has = |v: (i8, i8)| d.contains(&v);
        let mut out = Vec::new();
        let mut left = d.clone();
        for (pair, m) in [(((1, 1), (-1, 1)), "f"), (((1, -1), (-1, -1)), "b")] {
            if has(pair.0) && has(pair.1) {
                out.push(m.to_string());
                left.retain(|v| *v != pair.0 && *v != pair.1);
            }
        }
        out.extend(left.into_iter().map(name));
        return out;
    }
    d.into_iter().map(name).collect()
}

/// Reads a FEN as XBoard sends it (`board[holdings] w|b …`, first player uppercase) or an SFEN,
/// and returns the SFEN.
pub fn fen_to_sfen(v: &'static Variant, text: &str) -> Result<String, String> {
    if Position::from_sfen(v, text).is_ok() {
        return Ok(text.to_string());
    }
    let mut words = text.split_whitespace();
    let first = words.next().ok_or("empty FEN")?;
    let (board, mut holdings) = match first.split_once('[') {
        Some((b, h)) => (b.to_string(), h.trim_end_matches(']').to_string()),
        None => (first.to_string(), String::new()),
    };
    let mut side = words.next().ok_or("no side to move")?;
    if side.starts_with('[') {
        holdings = side.trim_matches(|c| c == '[' || c == ']').to_string();
        side = words.next().ok_or("no side to move")?;
    }
    let side = match side {
        "w" => "b",
        "b" => "w",
        other => return Err(format!("bad side to move '{other}'")),
    };
    let board = board.trim_end_matches('/');
    let mut black = String::new();
    let mut white = String::new();
    for c in holdings.chars().filter(|c| c.is_ascii_alphabetic()) {
        if c.is_ascii_uppercase() {
            black.push(c);
        } else {
            white.push(c);
        }
    }
    let hands = if black.is_empty() && white.is_empty() {
        "-".to_string()
    } else {
        format!("{black}{white}")
    };
    let sfen = format!("{board} {side} {hands} 1");
    Position::from_sfen(v, &sfen).map(|_| sfen).map_err(|e| e.to_string())
}

/// A `highlight` board: the destinations of the piece on `from` (`Y` empty, `R` capture).
pub fn highlight(pos: &mut Position, from: Sq) -> String {
    let v = pos.variant();
    let mut marks = vec![vec![None; v.width]; v.height];
    let mine = pos.piece_at(from) != EMPTY && is_color(pos.piece_at(from), pos.side_to_move());
    if mine {
        for m in pos.legal_moves().iter().filter(|m| !m.is_drop() && m.from() == from) {
            let to = m.to();
            let capture = pos.piece_at(to) != EMPTY && to != from && color_of(pos.piece_at(to)) != pos.side_to_move();
            let row = crate::geometry::row_of(to);
            let col = crate::geometry::col_of(to);
            let mark = if capture || (m.mid() != 0 && pos.piece_at(m.mid()) != EMPTY) {
                'R'
            } else {
                'Y'
            };
            if marks[row][col] != Some('R') {
                marks[row][col] = Some(mark);
            }
        }
    }
    let mut rows = Vec::new();
    for row in marks.iter() {
        let mut s = String::new();
        let mut empty = 0;
        // XBoard rows run from its left (file a = Shishi's highest file number, column 0).
        for cell in row.iter() {
            match cell {
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(*c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        rows.push(s);
    }
    rows.join("/")
}
