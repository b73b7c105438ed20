//! XBoard/CECP sessions driven through pipes against the real binary: features, variants
//! with their setup lines, moves in every notation (drops, promotion, lion double moves in
//! one or two legs, passes, 10-rank numbering from 0), time controls, analyze, undo, and the
//! error answers.

mod common;
use common::engine::Engine;
use shishi::{Position, Variant};
use std::time::Duration;

const T: Duration = Duration::from_secs(20);

fn start() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let lines = e.until("feature done=1", T);
    let all = lines.join("\n");
    for f in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "memory=1",
        "smp=1",
        "colors=0",
        "sigint=0",
        "sigterm=0",
        "highlight=1",
        "myname=\"Shishi",
    ] {
        assert!(all.contains(f), "missing feature {f}: {all}");
    }
    assert!(all.contains("variants=\"shogi,sho,cannonshogi,cannonshogi-wiki,cannonshosu,chu\""), "{all}");
    e
}

fn ping(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    e.until(&format!("pong {n}"), T)
}

/// Replays XBoard moves on a position, asserting each is legal.
fn replay(v: &'static Variant, moves: &[String], rank_base: usize) -> Position {
    let mut p = Position::startpos(v);
    for m in moves {
        let mv = p
            .parse_xboard_move(m, rank_base)
            .unwrap_or_else(|| panic!("illegal move {m} in {}", p.to_sfen()));
        p.make(mv);
    }
    p
}

fn engine_move(e: &mut Engine) -> String {
    let line = e.until("move ", T).pop().expect("move");
    line.trim_start_matches("move ").to_string()
}

#[test]
fn plays_both_sides_in_every_variant() {
    let mut e = start();
    // Two search threads (lazy SMP) throughout.
    e.send("cores 2");
    for v in shishi::variant::all() {
        let rb = v.xboard_rank_base();
        e.send("new");
        e.send(&format!("variant {}", v.xboard_name));
        e.send("sd 2");
        e.send("force");
        // The engine plays the first player, then is told a reply, then plays again.
        e.send("go");
        let first = engine_move(&mut e);
        let mut moves = vec![first];
        let mut p = replay(v, &moves, rb);
        let reply = p.legal_moves()[0];
        moves.push(p.move_to_xboard(reply, rb));
        e.send(&format!("usermove {}", moves[1]));
        moves.push(engine_move(&mut e));
        replay(v, &moves, rb);
        ping(&mut e, 1);
    }
}

#[test]
fn unknown_variants_get_setup_and_piece_lines() {
    let mut e = start();
    e.send("variant sho");
    let lines = ping(&mut e, 2);
    let setup = lines.iter().find(|l| l.starts_with("setup (")).expect("setup line");
    assert!(
        setup.contains(" 9x9+0_shogi lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL[-] w 0 1"),
        "{setup}"
    );
    assert!(lines.iter().any(|l| l == "piece E& lWfWrWF"), "{lines:?}");
    e.send("variant cannonshosu");
    let lines = ping(&mut e, 3);
    assert!(lines.iter().any(|l| l.contains(" 10x10+11_shogi ")), "{lines:?}");
    assert!(lines.iter().any(|l| l == "piece C& mRcpR"), "{lines:?}");
    // Built-in variants need none.
    e.send("variant chu");
    let lines = ping(&mut e, 4);
    assert!(!lines.iter().any(|l| l.starts_with("setup")), "{lines:?}");
    e.send("variant xiangqi");
    assert!(e.until("Error (unknown variant)", T).pop().is_some());
}

#[test]
fn errors_keep_the_engine_going() {
    let mut e = start();
    for (cmd, answer) in [
        ("usermove e2e4", "Illegal move: e2e4"),
        ("usermove zz", "Illegal move: zz"),
        ("fnord", "Error (unknown command): fnord"),
        ("setboard not/a/fen w", "Error (bad FEN"),
        ("level 40 x 0", "Error (bad level)"),
        ("memory lots", "Error (memory"),
        ("cores 0", "Error (cores must be 1..256)"),
        ("cores 9999", "Error (cores must be 1..256)"),
        ("option Nope=1", "Error (unknown option"),
        ("option Contempt=1001", "Error (Contempt must be -1000..1000)"),
        ("option Contempt=much", "Error (Contempt must be -1000..1000)"),
        ("option Contempt=-2147483648", "Error (Contempt must be -1000..1000)"),
        ("undo", "Error (no move to take back)"),
    ] {
        e.send(cmd);
        let got = e.until(answer, T);
        assert!(got.last().expect("line").starts_with(answer), "{cmd}: {got:?}");
        ping(&mut e, 5);
    }
}

#[test]
fn drops_promotions_undo_and_setboard() {
    let mut e = start();
    e.send("new");
    e.send("force");
    // Shogi: 7g7f 3c3d 8h2b+ (bishop takes bishop, promoting) then a drop by white.
    for m in ["g3g4", "c7c6", "b2h8+", "b8h8"] {
        e.send(&format!("usermove {m}"));
    }
    e.send("usermove B@e5");
    ping(&mut e, 6);
    e.send("usermove B@e5");
    assert_eq!(
        e.until("Illegal move", T).pop().as_deref(),
        Some("Illegal move: B@e5"),
        "no bishop left in hand"
    );
    e.send("remove");
    e.send("usermove b8h8");
    ping(&mut e, 7);
    // setboard in XBoard's FEN (first player uppercase, "w" to move, holdings in brackets).
    e.send("setboard 4k4/9/4P4/9/9/9/9/9/4K4[G] w 0 1");
    e.send("sd 3");
    e.send("go");
    assert_eq!(engine_move(&mut e), "G@e8");
    assert!(e.until("1-0", T).pop().expect("result").contains("checkmate"));
}

#[test]
fn chu_lion_moves_passes_and_highlight() {
    let mut e = start();
    e.send("variant chu");
    e.send("force");
    // Lion (f3) steps out, a white pawn advances, then the lion's double move in one token
    // and, after taking it back, in two legs.
    let v = Variant::by_name("chushogi").expect("chu");
    let sfen = "6k5/12/12/12/12/12/6p5/5N6/12/12/12/6K5 b - 1";
    e.send(&format!("setboard {sfen}"));
    e.send("lift g5");
    let h = e.until("highlight", T).pop().expect("highlight");
    assert_eq!(h, "highlight 12/12/12/12/12/12/12/12/12/12/12/12", "not our piece");
    e.send("lift f5");
    let h = e.until("highlight", T).pop().expect("highlight");
    assert!(h.contains('R'), "the lion can capture: {h}");
    e.send("usermove f5g6,g6f5");
    ping(&mut e, 8);
    let mut p = Position::from_sfen(v, sfen).expect("sfen");
    let igui = p.parse_xboard_move("f5g6,g6f5", 1).expect("igui is legal");
    p.make(igui);
    e.send("undo");
    e.send("usermove f5g6,");
    e.send("usermove g6g7");
    ping(&mut e, 9);
    e.send("undo");
    e.send("usermove @@@@");
    ping(&mut e, 10);
    e.send("usermove @@@@");
    assert!(e.until("Illegal move", T).pop().is_some(), "white has no lion: no pass");
}

#[test]
fn ten_rank_boards_count_ranks_from_zero() {
    let mut e = start();
    e.send("variant cannonshosu");
    e.send("force");
    // Black's pawn on file 6 (XBoard file e) stands on rank 2 counted from 0.
    e.send("usermove e2e3");
    ping(&mut e, 11);
    e.send("usermove e9e8");
    e.send("usermove e3e4");
    assert_eq!(e.until("Illegal move", T).pop().as_deref(), Some("Illegal move: e9e8"));
}

#[test]
fn time_controls_analyze_and_quit() {
    let mut e = start();
    e.send("new");
    e.send("level 0 0:05 0");
    e.send("time 500");
    e.send("otim 500");
    e.send("post");
    e.send("option OwnBook=0");
    e.send("usermove g3g4");
    let lines = e.until("move ", T);
    assert!(
        lines
            .iter()
            .any(|l| l.split_whitespace().count() >= 5 && l.chars().next().is_some_and(|c| c.is_ascii_digit())),
        "{lines:?}"
    );
    e.send("st 1");
    e.send("usermove a3a4");
    e.until("move ", Duration::from_secs(5));
    e.send("force");
    e.send("analyze");
    std::thread::sleep(Duration::from_millis(300));
    e.send("exit");
    let lines = ping(&mut e, 12);
    assert!(
        lines.iter().any(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit())),
        "analysis output: {lines:?}"
    );
    e.send("hard");
    e.send("playother");
    e.send("quit");
    let t = std::time::Instant::now();
    while t.elapsed() < Duration::from_secs(2) {
        if let Ok(Some(_)) = e.child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("quit not obeyed while pondering");
}
