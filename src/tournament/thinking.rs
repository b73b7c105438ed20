//! What an engine said while it thought about a move (its last reported depth and score, and
//! the nodes and time of its last report that gave both), and how `shishi match` writes it
//! into a PGN move comment, in the form cutechess-cli uses: `{+0.35/12 0.512s}` (score in
//! pawns from the mover's side, depth, time used).
//!
//! Invariants: only a complete report counts (a USI `info` line with both `depth` and a
//! `score`, not a bound and not a line of MultiPV beyond the first; an XBoard thinking line
//! of at least four integers); whatever else an engine prints is ignored, never an error.
//! A [`Work`] is the engine's own count of nodes and of its search's time, as it printed
//! them (USI `nodes` and `time` in one `info` line, bounds included; an XBoard thinking
//! line's time in centiseconds and nodes), never the referee's clock.

/// An engine's score as it reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the mover's side.
    Cp(i32),
    /// Mate in this many (USI: plies), positive when the mover mates.
    Mate(i32),
}

/// The last complete report of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// Nominal depth.
    pub depth: u32,
    /// Score.
    pub score: Score,
}

/// An engine's own count of its search so far: nodes and time, from one report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Nodes searched.
    pub nodes: u64,
    /// The search's time in milliseconds (XBoard: centiseconds times ten).
    pub ms: u64,
}

/// XBoard engines report mates as a score near this one (within 1000 of it).
const XBOARD_MATE: i32 = 100_000;

/// A USI `info` line's depth and score (`None` for any other line, a bound, or a MultiPV line
/// other than the first).
pub fn parse_usi_info(line: &str) -> Option<Thinking> {
    let mut w = info_fields(line)?;
    let (mut depth, mut score) = (None, None);
    while let Some(word) = w.next() {
        match word {
            "depth" => depth = w.next()?.parse().ok(),
            "multipv" if w.next()? != "1" => return None,
            "lowerbound" | "upperbound" => return None,
            "score" => {
                score = match (w.next()?, w.next()?) {
                    ("cp", n) => Some(Score::Cp(n.parse().ok()?)),
                    // `score mate +` / `-` (mate found, length unknown) keeps only the sign.
                    ("mate", "+") => Some(Score::Mate(1)),
                    ("mate", "-") => Some(Score::Mate(-1)),
                    ("mate", n) => Some(Score::Mate(n.parse().ok()?)),
                    _ => None,
                }
            }
            _ => {}
        }
    }
    Some(Thinking { depth: depth?, score: score? })
}

/// The words of a USI `info` line after `info`, up to its PV or string (which come last:
/// nothing after them is a field); `None` for any other line.
fn info_fields(line: &str) -> Option<impl Iterator<Item = &str>> {
    let mut w = line.split_whitespace();
    (w.next() == Some("info")).then(|| w.take_while(|&x| x != "pv" && x != "string"))
}

/// A USI `info` line's `nodes` and `time` (`None` unless it has both; any other field,
/// a bound included, does not matter).
pub fn parse_usi_work(line: &str) -> Option<Work> {
    let mut w = info_fields(line)?;
    let (mut nodes, mut ms) = (None, None);
    while let Some(word) = w.next() {
        match word {
            "nodes" => nodes = Some(w.next()?.parse().ok()?),
            "time" => ms = Some(w.next()?.parse().ok()?),
            _ => {}
        }
    }
    Some(Work { nodes: nodes?, ms: ms? })
}

/// An XBoard thinking line (`ply score time nodes pv…`; the ply may end in `.`, `&` or `?`):
/// its depth and score, and its nodes and time, read in one pass.
pub fn parse_xboard_line(line: &str) -> Option<(Thinking, Work)> {
    let mut w = line.split_whitespace();
    let depth: u32 = w.next()?.trim_end_matches(['.', '&', '?']).parse().ok()?;
    let score: i32 = w.next()?.parse().ok()?;
    // Time and nodes must be numbers too, or this is some other line.
    let cs: u64 = w.next()?.parse().ok()?;
    let nodes: u64 = w.next()?.parse().ok()?;
    // Mates: 100000 + N by the protocol's text, 100000 - N by some engines.
    let score = if score.abs() >= XBOARD_MATE - 1000 {
        let n = (score.abs() - XBOARD_MATE).abs().max(1);
        Score::Mate(if score < 0 { -n } else { n })
    } else {
        Score::Cp(score)
    };
    Some((
        Thinking { depth, score },
        Work {
            nodes,
            ms: cs.saturating_mul(10),
        },
    ))
}

/// The PGN comment of one move: `+0.35/12 0.512s`, `-M5/20 1.000s`, or the time alone where
/// the engine reported nothing.
pub fn comment(thinking: Option<Thinking>, ms: u64) -> String {
    let time = format!("{}.{:03}s", ms / 1000, ms % 1000);
    let Some(Thinking { depth, score }) = thinking else {
        return time;
    };
    let (Score::Cp(n) | Score::Mate(n)) = score;
    let sign = if n < 0 { '-' } else { '+' };
    let a = n.unsigned_abs();
    let value = match score {
        Score::Cp(_) => format!("{}.{:02}", a / 100, a % 100),
        Score::Mate(_) => format!("M{a}"),
    };
    format!("{sign}{value}/{depth} {time}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An XBoard thinking line's depth and score.
    fn parse_xboard_post(line: &str) -> Option<Thinking> {
        parse_xboard_line(line).map(|(t, _)| t)
    }

    /// An XBoard thinking line's nodes and time.
    fn parse_xboard_work(line: &str) -> Option<Work> {
        parse_xboard_line(line).map(|(_, w)| w)
    }

    #[test]
    fn usi_info_lines_give_depth_and_score() {
        let t = |depth, score| Some(Thinking { depth, score });
        assert_eq!(
            parse_usi_info("info depth 12 seldepth 18 score cp -35 nodes 100 pv 7g7f"),
            t(12, Score::Cp(-35))
        );
        assert_eq!(parse_usi_info("info depth 9 score mate 5 pv G*5b"), t(9, Score::Mate(5)));
        assert_eq!(parse_usi_info("info depth 9 score mate -4"), t(9, Score::Mate(-4)));
        assert_eq!(parse_usi_info("info depth 3 multipv 1 score cp 7"), t(3, Score::Cp(7)));
        // Bounds, other MultiPV lines, strings, partial and malformed lines are not reports.
        assert_eq!(parse_usi_info("info depth 12 score cp 40 lowerbound nodes 5"), None);
        assert_eq!(parse_usi_info("info depth 3 multipv 2 score cp 7"), None);
        assert_eq!(parse_usi_info("info string depth 3 score cp 7"), None);
        assert_eq!(parse_usi_info("info nodes 1000 nps 5"), None);
        assert_eq!(parse_usi_info("info depth x score cp 7"), None);
        assert_eq!(parse_usi_info("info depth 4 score cp"), None);
        assert_eq!(parse_usi_info("bestmove 7g7f"), None);
        assert_eq!(parse_usi_info(""), None);
    }

    #[test]
    fn xboard_thinking_lines_give_depth_and_score() {
        let t = |depth, score| Some(Thinking { depth, score });
        assert_eq!(parse_xboard_post("10 -23 150 123456 e3e4 c7c6"), t(10, Score::Cp(-23)));
        assert_eq!(parse_xboard_post("7. 99995 3 4000 a1a2"), t(7, Score::Mate(5)));
        assert_eq!(parse_xboard_post("7& -99994 3 4000"), t(7, Score::Mate(-6)));
        assert_eq!(parse_xboard_post("8 100003 3 4000"), t(8, Score::Mate(3)));
        assert_eq!(parse_xboard_post("8 -100002 3 4000"), t(8, Score::Mate(-2)));
        assert_eq!(parse_xboard_post("move e3e4"), None);
        assert_eq!(parse_xboard_post("10 20 30"), None);
        assert_eq!(parse_xboard_post("feature done=1"), None);
    }

    #[test]
    fn reports_give_nodes_and_time() {
        let w = |nodes, ms| Some(Work { nodes, ms });
        assert_eq!(parse_usi_work("info depth 12 score cp -35 nodes 100 nps 5 time 20 pv 7g7f"), w(100, 20));
        assert_eq!(parse_usi_work("info depth 12 score cp 40 lowerbound time 7 nodes 5"), w(5, 7));
        assert_eq!(parse_usi_work("info nodes 1000 time 3"), w(1000, 3));
        // Both are needed, as numbers, before the PV or a string.
        assert_eq!(parse_usi_work("info nodes 1000 nps 5"), None);
        assert_eq!(parse_usi_work("info time 5"), None);
        assert_eq!(parse_usi_work("info nodes x time 5"), None);
        assert_eq!(parse_usi_work("info string nodes 1 time 2"), None);
        assert_eq!(parse_usi_work("info nodes 1 pv time 2"), None);
        assert_eq!(parse_usi_work("bestmove 7g7f"), None);
        assert_eq!(parse_xboard_work("10 -23 150 123456 e3e4 c7c6"), w(123456, 1500));
        assert_eq!(parse_xboard_work("7. 99995 3 4000 a1a2"), w(4000, 30));
        assert_eq!(parse_xboard_work("10 20 30"), None);
        assert_eq!(parse_xboard_work("move e3e4"), None);
    }

    #[test]
    fn comments_read_like_cutechess() {
        let t = |depth, score| Some(Thinking { depth, score });
        assert_eq!(comment(t(12, Score::Cp(35)), 512), "+0.35/12 0.512s");
        assert_eq!(comment(t(12, Score::Cp(-1234)), 2_005), "-12.34/12 2.005s");
        assert_eq!(comment(t(12, Score::Cp(-5)), 90), "-0.05/12 0.090s");
        assert_eq!(comment(t(20, Score::Mate(-5)), 1_000), "-M5/20 1.000s");
        assert_eq!(comment(None, 7), "0.007s");
    }
}
