//! Opening book: lines of USI moves per variant, read from text (`book/openings.txt` is built
//! in; the `BookFile` option loads another file in the same format).
//!
//! Format: one opening per line, `<variant> <move> <move> …` from the variant's start
//! position; `#` starts a comment. Every position on a line is a book position, and the move
//! played there gets one unit of weight per line. Invariant: every stored move was legal in
//! the position it is stored under (lines are replayed through the rules when loaded).

use crate::moves::Move;
use crate::position::Position;
use crate::variant::Variant;
use std::collections::HashMap;

/// The built-in book text.
pub const BUILTIN: &str = include_str!("../book/openings.txt");

/// An opening book.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// (variant name, position hash) → moves with their weights.
    entries: HashMap<(&'static str, u64), Vec<(Move, u32)>>,
}

impl Book {
    /// The built-in book.
    pub fn builtin() -> Book {
        Book::parse(BUILTIN).unwrap_or_default()
    }

    /// Reads a book; an error names the first bad line.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut book = Book::default();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            let mut words = line.split_whitespace();
            let Some(name) = words.next() else { continue };
            let v = Variant::by_name(name).ok_or_else(|| format!("line {}: unknown variant '{name}'", n + 1))?;
            let mut pos = Position::startpos(v);
            for w in words {
                let m = pos
                    .parse_usi_move(w)
                    .ok_or_else(|| format!("line {}: illegal move '{w}' in {}", n + 1, pos.to_sfen()))?;
                let slot = book.entries.entry((v.name, pos.hash())).or_default();
                match slot.iter_mut().find(|(bm, _)| *bm == m) {
                    Some(e) => e.1 += 1,
                    None => slot.push((m, 1)),
                }
                pos.make(m);
            }
        }
        Ok(book)
    }

    /// Number of book positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book moves of a position with their weights (empty when out of book).
    pub fn moves(&self, pos: &Position) -> &[(Move, u32)] {
        self.entries.get(&(pos.variant().name, pos.hash())).map_or(&[], |v| v.as_slice())
    }

    /// A book move for `pos`, drawn by weight with `random` (any `u64`), if it is legal there.
    pub fn pick(&self, pos: &mut Position, random: u64) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u64 = moves.iter().map(|&(_, w)| w as u64).sum();
        if total == 0 {
            return None;
        }
        let mut r = random % total;
        let mut choice = moves[0].0;
        for &(m, w) in moves {
            if r < w as u64 {
                choice = m;
                break;
            }
            r -= w as u64;
        }
        pos.legal_moves().contains(&choice).then_some(choice)
    }
}
