//! The USI front end (as Shogidokoro and ShogiGUI use it) over the [`Engine`] API.
//! Every malformed or unsupported input is answered with `info string error …`; the engine
//! state is unchanged by a rejected command.

use crate::engine::{Engine, Event, MAX_CONTEMPT, MAX_THREADS};
use crate::moves::Move;
use crate::notation::move_to_usi;
use crate::search::mate::MateResult;
use crate::search::{Info, Limits, Score, ScoreBound};
use crate::variant::Variant;
use std::io::{BufRead, Write};

/// Writes one protocol line to stdout and flushes it (both front ends use this).
pub(crate) fn emit(line: &str) {
    let out = std::io::stdout();
    let mut lock = out.lock();
    let _ = writeln!(lock, "{line}");
    let _ = lock.flush();
}

fn info_line(v: &Variant, info: &Info, multipv: bool) -> String {
    let mut score = match info.score {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    match info.bound {
        ScoreBound::Lower => score.push_str(" lowerbound"),
        ScoreBound::Upper => score.push_str(" upperbound"),
        ScoreBound::Exact => {}
    }
    if multipv {
        score = format!("{score} multipv {}", info.multipv);
    }
    let ms = info.time.as_millis() as u64;
    let nps = info.nodes * 1000 / ms.max(1);
    let pv: Vec<String> = info.pv.iter().map(|&m| move_to_usi(v, m)).collect();
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {ms} hashfull {} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.hashfull,
        pv.join(" ")
    )
}

fn bestmove_line(v: &Variant, best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (None, _) => "bestmove resign".to_string(),
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", move_to_usi(v, b), move_to_usi(v, p)),
        (Some(b), None) => format!("bestmove {}", move_to_usi(v, b)),
    }
}

/// Runs the USI loop on stdin/stdout until `quit` or end of input. `first` is a line already
/// read (the one that chose the protocol).
pub fn run(first: Option<String>) {
    let mut engine = Engine::new();
    let stdin = std::io::stdin();
    let mut lines = first.into_iter().map(Ok).chain(stdin.lock().lines());
    while let Some(Ok(line)) = lines.next() {
        if !handle(&mut engine, line.trim()) {
            break;
        }
    }
    engine.stop();
}

/// Handles one command; returns `false` on `quit`.
pub fn handle(engine: &mut Engine, line: &str) -> bool {
    let mut words = line.split_whitespace();
    let Some(cmd) = words.next() else { return true };
    let rest: Vec<&str> = words.collect();
    match cmd {
        "usi" => {
            emit(&format!("id name Shishi {}", env!("CARGO_PKG_VERSION")));
            emit("id author the Shishi developers");
            let vars = Variant::names().iter().map(|n| format!("var {n}")).collect::<Vec<_>>().join(" ");
            emit(&format!("option name USI_Variant type combo default shogi {vars}"));
            emit(&format!("option name USI_Hash type spin default {} min 1 max 65536", engine.options().hash_mib));
            emit(&format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"));
            emit("option name USI_Ponder type check default true");
            emit("option name MultiPV type spin default 1 min 1 max 500");
            emit("option name USI_OwnBook type check default true");
            emit("option name BookFile type string default <builtin>");
            emit("option name EvalFile type string default <builtin>");
            emit("option name Okazaki type check default false");
            emit("option name BareKing type check default false");
            emit(&format!(
                "option name MoveOverhead type spin default {} min 0 max 10000",
                engine.options().move_overhead
            ));
            emit(&format!(
                "option name Contempt type spin default {} min -{MAX_CONTEMPT} max {MAX_CONTEMPT}",
                engine.options().contempt
            ));
            emit("usiok");
        }
        "isready" => emit("readyok"),
        "setoption" => setoption(engine, &rest),
        "usinewgame" => engine.new_game(),
        "position" => position(engine, &rest),
        "go" => go(engine, &rest),
        "stop" => engine.stop(),
        "ponderhit" => engine.ponderhit(),
        "gameover" => engine.stop(),
        "eval" => {
            for line in crate::eval::trace(engine.position()) {
                emit(&format!("info string {line}"));
            }
            if let Some(score) = engine.net_eval() {
                emit(&format!(
                    "info string NNUE evaluation (what the search uses): {score} (side to move, search scale)"
                ));
            }
        }
        "quit" => return false,
        _ => emit(&format!("info string error unknown command: {line}")),
    }
    true
}

fn setoption(engine: &mut Engine, rest: &[&str]) {
    let text = rest.join(" ");
    let Some(body) = text.strip_prefix("name ") else {
        emit(&format!("info string error malformed setoption: setoption {text}"));
        return;
    };
    let (name, value) = match body.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (body.trim(), ""),
    };
    let number = |lo: u64, hi: u64| value.parse::<u64>().ok().filter(|n| (lo..=hi).contains(n));
    match name.to_ascii_lowercase().as_str() {
        "usi_variant" | "uci_variant" => {
            if let Err(e) = engine.set_variant(value) {
                emit(&format!("info string error {e}"));
            }
        }
        "usi_hash" | "hash" => match number(1, 65536) {
            Some(n) => engine.set_hash(n as usize),
            None => emit(&format!("info string error USI_Hash must be 1..65536, not '{value}'")),
        },
        "threads" => match number(1, MAX_THREADS as u64) {
            Some(n) => engine.set_threads(n as usize),
            None => emit(&format!("info string error Threads must be 1..{MAX_THREADS}, not '{value}'")),
        },
        "usi_ponder" => {
            if !matches!(value, "true" | "false") {
                emit(&format!("info string error USI_Ponder must be true or false, not '{value}'"));
            }
        }
        "multipv" => match number(1, 500) {
            Some(n) => engine.set_multipv(n as usize),
            None => emit(&format!("info string error MultiPV must be 1..500, not '{value}'")),
        },
        "usi_ownbook" | "ownbook" => match value {
            "true" | "false" => engine.set_own_book(value == "true"),
            _ => emit(&format!("info string error USI_OwnBook must be true or false, not '{value}'")),
        },
        "bookfile" => {
            if let Err(e) = engine.set_book_file(value) {
                emit(&format!("info string error {e}"));
            }
        }
        "evalfile" => match engine.set_eval_file(value) {
            Ok(()) if engine.uses_net() => emit(&format!("info string NNUE evaluation from {value}")),
            Ok(()) => {}
            Err(e) => emit(&format!("info string error {e}")),
        },
        "bareking" => match value {
            "true" | "false" => engine.set_bare_king(value == "true"),
            _ => emit(&format!("info string error BareKing must be true or false, not '{value}'")),
        },
        "okazaki" => match value {
            "true" | "false" => engine.set_okazaki(value == "true"),
            _ => emit(&format!("info string error Okazaki must be true or false, not '{value}'")),
        },
        "contempt" => match value.parse::<i32>().ok().filter(|n| (-MAX_CONTEMPT..=MAX_CONTEMPT).contains(n)) {
            Some(n) => engine.set_contempt(n),
            None => emit(&format!("info string error Contempt must be -{MAX_CONTEMPT}..{MAX_CONTEMPT}, not '{value}'")),
        },
        "moveoverhead" | "networkdelay" => match number(0, 10000) {
            Some(n) => engine.set_move_overhead(n),
            None => emit(&format!("info string error {name} must be 0..10000, not '{value}'")),
        },
        _ => emit(&format!("info string error unknown option: {name}")),
    }
}

fn position(engine: &mut Engine, rest: &[&str]) {
    let moves_at = rest.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let result = match head.first() {
        Some(&"startpos") if head.len() == 1 => engine.set_position(None, moves),
        Some(&"sfen") if head.len() > 1 => engine.set_position(Some(&head[1..].join(" ")), moves),
        _ => Err(format!("malformed position command: position {}", rest.join(" "))),
    };
    if let Err(e) = result {
        emit(&format!("info string error {e}"));
    }
}

fn go(engine: &mut Engine, rest: &[&str]) {
    let mut limits = Limits::default();
    let mut ponder = false;
    let mut i = 0;
    let mut bad: Option<String> = None;
    let v = engine.variant();
    while i < rest.len() {
        let key = rest[i];
        let mut num = || -> Option<u64> {
            i += 1;
            let n = rest.get(i).and_then(|s| s.parse::<i64>().ok()).map(|n| n.max(0) as u64);
            if n.is_none() {
                bad = Some(format!("go {key} needs a number"));
            }
            n
        };
        match key {
            "btime" => limits.time[0] = num(),
            "wtime" => limits.time[1] = num(),
            "binc" => limits.inc[0] = num().unwrap_or(0),
            "winc" => limits.inc[1] = num().unwrap_or(0),
            "byoyomi" => limits.byoyomi = num().unwrap_or(0),
            "movestogo" => limits.movestogo = num().map(|n| n as u32),
            "depth" => limits.depth = num().map(|n| n.min(1000) as u32),
            "nodes" => limits.nodes = num(),
            "movetime" => limits.movetime = num(),
            "infinite" => limits.infinite = true,
            "ponder" => ponder = true,
            "mate" => {
                let limit = match rest.get(i + 1) {
                    Some(&"infinite") | None => None,
                    Some(t) => match t.parse::<u64>() {
                        Ok(ms) => Some(std::time::Duration::from_millis(ms)),
                        Err(_) => {
                            emit(&format!("info string error go mate needs a time in ms or 'infinite', not '{t}'"));
                            return;
                        }
                    },
                };
                engine.go_mate(limit, move |r| {
                    emit(&match r {
                        MateResult::Mate(pv) => {
                            format!("checkmate {}", pv.iter().map(|&m| move_to_usi(v, m)).collect::<Vec<_>>().join(" "))
                        }
                        MateResult::NoMate => "checkmate nomate".to_string(),
                        MateResult::Timeout => "checkmate timeout".to_string(),
                    })
                });
                return;
            }
            "searchmoves" => {
                let mut pos = engine.position().clone();
                while i + 1 < rest.len() {
                    match pos.parse_usi_move(rest[i + 1]) {
                        Some(m) => limits.searchmoves.push(m),
                        None => break,
                    }
                    i += 1;
                }
            }
            other => bad = Some(format!("unknown go parameter '{other}'")),
        }
        i += 1;
    }
    if let Some(b) = bad {
        emit(&format!("info string error {b}"));
    }
    // Entering-king declaration: claimed as soon as it is valid.
    if !ponder && engine.position().can_declare() {
        emit("bestmove win");
        return;
    }
    let multipv = engine.options().multipv > 1;
    engine.go(limits, ponder, move |ev| match ev {
        Event::Info(info) => emit(&info_line(v, &info, multipv)),
        Event::BestMove { best, ponder } => emit(&bestmove_line(v, best, ponder)),
    });
}
