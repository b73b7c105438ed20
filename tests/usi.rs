//! USI sessions driven through pipes against the real binary: the handshake, positions and
//! searches in every variant, every error path (the engine answers and keeps going), and
//! `stop` / `quit` answered promptly during a long search.

mod common;
use common::engine::{Engine, best_move, info_field};
use std::time::Duration;

#[test]
fn handshake_lists_options() {
    let mut e = Engine::start();
    e.send("usi");
    let lines = e.until("usiok", Duration::from_secs(5));
    assert!(lines.iter().any(|l| l.starts_with("id name Shishi")));
    let variant = lines.iter().find(|l| l.contains("name USI_Variant")).expect("USI_Variant option");
    for v in ["shogi", "shoshogi", "cannonshogi", "cannonshogi-wiki", "cannonshosu", "chushogi"] {
        assert!(variant.contains(&format!("var {v}")), "{variant}");
    }
    assert!(
        lines.iter().any(|l| l == "option name Contempt type spin default 0 min -1000 max 1000"),
        "{lines:?}"
    );
    e.ready();
}

#[test]
fn plays_a_legal_move_in_every_variant() {
    let mut e = Engine::start();
    for v in shishi::variant::all() {
        e.send(&format!("setoption name USI_Variant value {}", v.name));
        e.send("usinewgame");
        e.send("position startpos");
        e.send("go depth 2");
        let lines = e.until("bestmove", Duration::from_secs(60));
        let best = best_move(&lines);
        let mut p = shishi::Position::startpos(v);
        assert!(p.parse_usi_move(&best).is_some(), "{}: illegal bestmove {best}", v.name);
        assert!(lines.iter().any(|l| l.starts_with("info depth")), "no info lines");
    }
}

#[test]
fn errors_are_reported_and_the_engine_keeps_going() {
    let mut e = Engine::start();
    for (cmd, needle) in [
        ("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9 b - 1", "bad SFEN"),
        ("position startpos moves 7g7f 7g7f", "illegal or unparsable move '7g7f'"),
        ("position startpos moves zz", "illegal or unparsable move"),
        ("position nonsense", "malformed position"),
        ("setoption name NoSuchOption value 1", "unknown option"),
        ("setoption name USI_Hash value -5", "USI_Hash"),
        ("setoption name USI_Variant value nosuchgame", "unknown variant"),
        ("setoption bogus", "malformed setoption"),
        ("fnord 1 2 3", "unknown command"),
        ("go depth x", "needs a number"),
    ] {
        e.send(cmd);
        let lines = e.until("info string error", Duration::from_secs(5));
        assert!(lines.last().expect("line").contains(needle), "{cmd}: {lines:?}");
        if cmd.starts_with("go") {
            e.send("stop");
            e.until("bestmove", Duration::from_secs(5));
        }
        e.ready();
    }
    // A rejected position keeps the previous one.
    e.send("position startpos moves 7g7f");
    e.send("position startpos moves 7g7f 8c8d 9z9z");
    e.until("info string error", Duration::from_secs(5));
    e.send("go depth 1");
    let mv = best_move(&e.until("bestmove", Duration::from_secs(10)));
    let mut p = shishi::Position::startpos(shishi::Variant::by_name("shogi").expect("shogi"));
    let m = p.parse_usi_move("7g7f").expect("7g7f");
    p.make(m);
    assert!(p.parse_usi_move(&mv).is_some(), "bestmove {mv} is not legal after 7g7f");
}

#[test]
fn resigns_without_legal_moves() {
    let mut e = Engine::start();
    // Black is mated (gold on 5h backed by the lance on 5g... king 5i has no move).
    e.send("position sfen 4k4/9/9/9/9/9/4l4/4g4/4K4 b - 1");
    e.send("go depth 3");
    let lines = e.until("bestmove", Duration::from_secs(10));
    assert_eq!(lines.last().map(String::as_str), Some("bestmove resign"));
}

#[test]
fn go_mate_finds_mates_and_proves_their_absence() {
    let mut e = Engine::start();
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    e.send("go mate 5000");
    assert_eq!(e.until("checkmate", Duration::from_secs(10)).pop().as_deref(), Some("checkmate G*5b"));
    // Mate in three: the line must be legal and end in mate.
    let sfen = "3sks3/9/4S4/9/9/9/9/9/4K4 b 2G 1";
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate infinite");
    let line = e.until("checkmate", Duration::from_secs(10)).pop().expect("checkmate");
    let moves: Vec<&str> = line.split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 3, "{line}");
    let mut p = shishi::Position::from_sfen(shishi::Variant::by_name("shogi").expect("shogi"), sfen).expect("sfen");
    for m in &moves {
        let mv = p.parse_usi_move(m).expect("legal mate line");
        p.make(mv);
    }
    assert!(p.legal_moves().is_empty() && p.in_check(), "{line} does not mate");
    // No check at all is possible: proven, not timed out.
    e.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1");
    e.send("go mate 5000");
    assert_eq!(e.until("checkmate", Duration::from_secs(10)).pop().as_deref(), Some("checkmate nomate"));
    // Many checks, no quick mate, almost no time.
    e.send("position sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL b GR5pnsg 1");
    e.send("go mate 1");
    let r = e.until("checkmate", Duration::from_secs(10)).pop().expect("checkmate");
    assert!(r == "checkmate timeout" || r.split_whitespace().count() > 1, "{r}");
    // go mate infinite stops on stop.
    e.send("go mate infinite");
    e.send("stop");
    e.until("checkmate", Duration::from_secs(10));
    e.send("go mate soon");
    assert!(e.until("info string error", Duration::from_secs(5)).pop().expect("error").contains("go mate"));
    e.ready();
}

#[test]
fn perpetual_check_is_scored_as_a_loss_for_the_checker() {
    // Black, far behind, has checked on every move since the start; 9b9a repeats the start
    // position, which a draw score would make the best move. It loses (the checker loses a
    // perpetual check), so the search must find something else and score it below even.
    let mut e = Engine::start();
    e.send("position sfen R3k4/9/7gs/8r/9/9/9/9/4K4 w - 1 moves 5a5b 9a9b 5b5a");
    e.send("go depth 8");
    let lines = e.until("bestmove", Duration::from_secs(60));
    assert_ne!(best_move(&lines), "9b9a", "{lines:?}");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 8 ") && !l.contains("bound"))
        .expect("depth 8");
    let cp: i32 = info_field(last, "cp").expect("cp score");
    assert!(cp < -100, "{last}");
    e.ready();
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("setoption name USI_OwnBook value false");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove", Duration::from_secs(30));
    let last: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth 3 ")).collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    let firsts: std::collections::HashSet<&str> = last
        .iter()
        .map(|l| l.split(" pv ").nth(1).and_then(|pv| pv.split_whitespace().next()).expect("pv"))
        .collect();
    assert_eq!(firsts.len(), 3, "{last:?}");
    for (i, l) in last.iter().enumerate() {
        assert!(l.contains(&format!("multipv {}", i + 1)), "{l}");
    }
    e.send("setoption name MultiPV value 0");
    assert!(e.until("info string error", Duration::from_secs(5)).pop().expect("error").contains("MultiPV"));
}

#[test]
fn declares_an_entering_king_win_only_when_valid() {
    let mut e = Engine::start();
    // Black king in the enemy camp with ten pieces there; 14 points there, 14 in hand: 28.
    e.send("position sfen +P+P+P+P+P+P+P+P+P/4K4/R8/9/9/9/9/9/4k4 b RB4P 1");
    e.send("go btime 1000 wtime 1000 byoyomi 1000");
    assert_eq!(e.until("bestmove", Duration::from_secs(10)).pop().as_deref(), Some("bestmove win"));
    // One point short (27 for black, who needs 28): play on.
    e.send("position sfen +P+P+P+P+P+P+P+P+P/4K4/R8/9/9/9/9/9/4k4 b RB3P 1");
    e.send("go depth 1");
    let best = e.until("bestmove", Duration::from_secs(10)).pop().expect("bestmove");
    assert_ne!(best, "bestmove win");
    // White needs only 27.
    e.send("position sfen 4K4/9/9/9/9/9/r8/4k4/+p+p+p+p+p+p+p+p+p w rb3p 1");
    e.send("go btime 1000 wtime 1000 byoyomi 1000");
    assert_eq!(e.until("bestmove", Duration::from_secs(10)).pop().as_deref(), Some("bestmove win"));
}

#[test]
fn book_options() {
    let mut e = Engine::start();
    // The start position is in the built-in book: answered from it at once.
    e.send("position startpos");
    e.send("go btime 60000 wtime 60000 byoyomi 1000");
    let lines = e.until("bestmove", Duration::from_secs(5));
    let mv = best_move(&lines);
    let book = shishi::book::Book::builtin();
    let p = shishi::Position::startpos(shishi::Variant::by_name("shogi").expect("shogi"));
    assert!(
        book.moves(&p).iter().any(|&(m, _)| shishi::notation::move_to_usi(p.variant(), m) == mv),
        "{mv} not a book move"
    );
    e.send("setoption name BookFile value /no/such/book.txt");
    assert!(
        e.until("info string error", Duration::from_secs(5))
            .pop()
            .expect("error")
            .contains("cannot read book file")
    );
    let dir = std::env::temp_dir().join(format!("shishi-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "shogi 7g7f 7g7f\n").expect("write");
    e.send(&format!("setoption name BookFile value {}", bad.display()));
    assert!(e.until("info string error", Duration::from_secs(5)).pop().expect("error").contains("line 1"));
    let good = dir.join("good.txt");
    std::fs::write(&good, "# one line\nshogi 2g2f\n").expect("write");
    e.send(&format!("setoption name BookFile value {}", good.display()));
    e.send("go btime 60000 wtime 60000 byoyomi 1000");
    assert_eq!(e.until("bestmove", Duration::from_secs(5)).pop().as_deref(), Some("bestmove 2g2f"));
    e.send("setoption name USI_OwnBook value false");
    e.send("go depth 1");
    let lines = e.until("bestmove", Duration::from_secs(5));
    assert!(lines.iter().any(|l| l.starts_with("info depth 1")), "searched, not from the book");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bare_king_option_is_a_rule_switch() {
    let mut e = Engine::start();
    e.send("setoption name BareKing value maybe");
    assert!(e.until("info string error", Duration::from_secs(5)).pop().expect("error").contains("BareKing"));
    e.send("setoption name BareKing value true");
    e.ready();
}

/// Sets `option` to each of `bad` and checks that the engine answers with an error line
/// containing `message`.
fn rejects(e: &mut Engine, option: &str, bad: &[&str], message: &str) {
    for value in bad {
        e.send(&format!("setoption name {option} value {value}"));
        let err = e.until("info string error", Duration::from_secs(5)).pop().expect("error");
        assert!(err.contains(message), "{option} {value}: {err}");
    }
}

#[test]
fn contempt_makes_a_draw_worth_less_to_the_engine_and_more_to_its_opponent() {
    let mut e = Engine::start();
    rejects(&mut e, "Contempt", &["1001", "-1001", "-2147483648", "some"], "Contempt must be -1000..1000");
    // Chu, kings and lions far apart: Black's lion passes (6k6j6k, through an empty square
    // and back). If White passes too, the position repeats: a draw.
    e.send("setoption name USI_Variant value chushogi");
    let score = |e: &mut Engine, contempt: i32| {
        e.send(&format!("setoption name Contempt value {contempt}"));
        e.send("usinewgame");
        e.send("position sfen 5k6/5n6/12/12/12/12/12/12/12/12/6N5/6K5 b - 1");
        e.send("go depth 4 searchmoves 6k6j6k");
        let lines = e.until("bestmove", Duration::from_secs(30));
        let info = lines.iter().rev().find(|l| l.starts_with("info depth 4")).expect("depth 4").clone();
        (info_field::<i32>(&info, "cp").expect("a cp score"), info)
    };
    // With 500, the draw is worth +500 to White, more than anything else in this even
    // position: White passes back, and Black's pass scores exactly -500.
    let (cp, info) = score(&mut e, 500);
    assert_eq!(cp, -500, "{info}");
    assert!(info.contains("pv 6k6j6k 7b6a7b"), "{info}");
    // Without contempt the draw is worth what the even position is (repeating or not is the
    // evaluation's choice); with contempt the other way, White avoids the repetition.
    for c in [0, -500] {
        let (cp, info) = score(&mut e, c);
        assert!(cp.abs() < 300, "contempt {c}: {info}");
        if c < 0 {
            assert!(!info.contains("pv 6k6j6k 7b6a7b"), "contempt {c}: {info}");
        }
    }
}

#[test]
fn threads_option_runs_lazy_smp() {
    let mut e = Engine::start();
    rejects(&mut e, "Threads", &["0", "257", "two"], "Threads must be 1..256");
    e.send("setoption name Threads value 2");
    e.send("setoption name USI_OwnBook value false");
    for v in ["shogi", "chushogi"] {
        e.send(&format!("setoption name USI_Variant value {v}"));
        e.send("usinewgame");
        e.send("position startpos");
        e.send("go movetime 300");
        let lines = e.until("bestmove", Duration::from_secs(10));
        let best = best_move(&lines);
        let mut p = shishi::Position::startpos(shishi::Variant::by_name(v).expect("variant"));
        assert!(p.parse_usi_move(&best).is_some(), "{v}: illegal bestmove {best}");
        // Node counts in the info lines cover both threads and never go down.
        let nodes: Vec<u64> = lines.iter().filter_map(|l| info_field(l, "nodes")).collect();
        assert!(!nodes.is_empty() && nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
    }
    // A stop during a 2-thread infinite search is answered promptly.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    e.until("bestmove", Duration::from_secs(2));
    e.ready();
}

#[test]
fn eval_command_prints_the_breakdown() {
    let mut e = Engine::start();
    // Black is a bishop up (White's bishop removed): the material term shows and the total,
    // from Black (to move), is positive.
    e.send("position sfen lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    e.send("eval");
    let lines = e.until("info string total", Duration::from_secs(5));
    assert!(lines.iter().any(|l| l.starts_with("info string piece B 1 x")), "{lines:?}");
    let total: i32 = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(3))
        .and_then(|w| w.parse().ok())
        .expect("total");
    assert!(total > 500, "{lines:?}");
    // Shogi's built-in network adds its line, also well ahead; without it, no such line.
    let nnue = e.until("info string NNUE evaluation", Duration::from_secs(5)).pop().expect("network line");
    let score: i32 = nnue
        .split(": ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|w| w.parse().ok())
        .expect("score");
    assert!(score > 500, "{nnue}");
    e.send("setoption name EvalFile value <none>");
    e.send("eval");
    e.send("isready");
    let lines = e.until("readyok", Duration::from_secs(5));
    assert!(lines.iter().any(|l| l.starts_with("info string total")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("NNUE")), "{lines:?}");
}
