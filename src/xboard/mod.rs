//! The XBoard/CECP v2 front end (as WinBoard/XBoard 4.9 and HaChu use it) over the
//! [`Engine`] API.
//!
//! One loop owns all protocol state. Lines from stdin and the results of searches arrive on
//! one channel, so the game record is only ever changed here. Every search carries a serial
//! number; a result whose number is stale (the search was stopped because the game moved on)
//! is dropped. XBoard's "white" is the first player (Shishi's black). Bad input is answered
//! with `Error (reason): command` or `Illegal move: m` and changes nothing.

mod setup;

use crate::engine::{Engine, Event, MAX_CONTEMPT};
use crate::game::Outcome;
use crate::moves::Move;
use crate::notation::move_to_usi;
use crate::piece::Color;
use crate::position::Position;
use crate::search::{Info, Limits, Score};
use crate::usi::emit;
use crate::variant::Variant;
use std::io::BufRead;
use std::sync::mpsc::{Receiver, Sender, channel};

/// What reaches the protocol loop.
enum Msg {
    Line(String),
    Best(u64, Option<Move>, Option<Move>),
    Eof,
}

/// What the engine is doing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// Waiting; plays `engine_side` when it is on move (unless forced).
    Idle,
    /// Searching for a move to play.
    Thinking,
    /// Searching the opponent's time (result thrown away).
    Pondering,
    /// Analyze mode.
    Analyzing,
}

/// Clock state: centiseconds and level parameters.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    own_cs: Option<u64>,
    opp_cs: Option<u64>,
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
    st_ms: Option<u64>,
    sd: Option<u32>,
}

struct XBoard {
    engine: Engine,
    tx: Sender<Msg>,
    start_sfen: String,
    game: Position,
    force: bool,
    engine_side: Option<Color>,
    mode: Mode,
    serial: u64,
    post: bool,
    ponder: bool,
    clock: Clock,
    pending_leg: Option<String>,
    hint: Option<Move>,
    game_over: bool,
}

/// Runs the XBoard loop on stdin/stdout until `quit` or end of input. `first` is the line that
/// chose the protocol.
pub fn run(first: Option<String>) {
    let (tx, rx) = channel();
    let reader_tx = tx.clone();
    std::thread::spawn(move || {
        if let Some(f) = first {
            let _ = reader_tx.send(Msg::Line(f));
        }
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            if reader_tx.send(Msg::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader_tx.send(Msg::Eof);
    });
    let engine = Engine::new();
    let v = engine.variant();
    let mut x = XBoard {
        engine,
        tx,
        start_sfen: v.start_sfen.to_string(),
        game: Position::startpos(v),
        force: false,
        engine_side: Some(Color::White),
        mode: Mode::Idle,
        serial: 0,
        post: false,
        ponder: false,
        clock: Clock::default(),
        pending_leg: None,
        hint: None,
        game_over: false,
    };
    x.main_loop(rx);
}

/// XBoard's name of a side: the first player is "White".
fn xb_color(c: Color) -> &'static str {
    match c {
        Color::Black => "White",
        Color::White => "Black",
    }
}

impl XBoard {
    fn main_loop(&mut self, rx: Receiver<Msg>) {
        while let Ok(msg) = rx.recv() {
            match msg {
                Msg::Eof => break,
                Msg::Best(serial, best, ponder) => self.on_best(serial, best, ponder),
                Msg::Line(line) => {
                    if !self.handle(line.trim()) {
                        break;
                    }
                }
            }
        }
        self.engine.stop();
    }

    fn variant(&self) -> &'static Variant {
        self.game.variant()
    }

    fn rb(&self) -> usize {
        self.variant().xboard_rank_base()
    }

    /// Stops whatever search runs; its result will be ignored.
    fn halt(&mut self) {
        self.serial += 1;
        self.engine.stop();
        if self.mode != Mode::Analyzing {
            self.mode = Mode::Idle;
        }
    }

    fn handle(&mut self, line: &str) -> bool {
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        if cmd.is_empty() {
            return true;
        }
        match cmd {
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" => {}
            "protover" => self.features(),
            "new" => {
                self.halt();
                self.mode = Mode::Idle;
                self.force = false;
                self.engine_side = Some(Color::White);
                self.clock.sd = None;
                self.clock.st_ms = None;
                self.engine.new_game();
                let v = self.variant();
                self.reset(v.start_sfen.to_string());
            }
            "variant" => self.set_variant(arg, line),
            "force" => {
                self.halt();
                self.force = true;
                self.engine_side = None;
            }
            "go" => {
                self.halt();
                self.force = false;
                self.engine_side = Some(self.game.side_to_move());
                self.maybe_think();
            }
            "playother" => {
                self.halt();
                self.force = false;
                self.engine_side = Some(self.game.side_to_move().flip());
                self.maybe_ponder();
            }
            "white" | "black" => {
                // Protocol v1: the side to move and the engine's colour.
                self.halt();
                let stm = if cmd == "white" { Color::Black } else { Color::White };
                if stm != self.game.side_to_move() {
                    log::warn!("'{cmd}' does not match the side to move; ignored");
                }
                self.engine_side = Some(stm.flip());
            }
            "setboard" => self.setboard(arg, line),
            "usermove" => self.usermove(arg),
            "time" | "otim" => match arg.parse::<i64>() {
                Ok(cs) => {
                    let cs = Some(cs.max(0) as u64);
                    if cmd == "time" {
                        self.clock.own_cs = cs;
                    } else {
                        self.clock.opp_cs = cs;
                    }
                }
                Err(_) => emit(&format!("Error (bad number): {line}")),
            },
            "level" => self.level(arg, line),
            "st" => match arg.parse::<f64>() {
                Ok(s) if s > 0.0 => self.clock.st_ms = Some((s * 1000.0) as u64),
                _ => emit(&format!("Error (bad number): {line}")),
            },
            "sd" => match arg.parse::<u32>() {
                Ok(d) if d > 0 => self.clock.sd = Some(d.min(100)),
                _ => emit(&format!("Error (bad number): {line}")),
            },
            "memory" => match arg.parse::<usize>() {
                Ok(mb) if (1..=65536).contains(&mb) => self.engine.set_hash(mb),
                _ => emit(&format!("Error (memory must be 1..65536 MB): {line}")),
            },
            "cores" => match arg.parse::<usize>() {
                Ok(n) if (1..=crate::engine::MAX_THREADS).contains(&n) => self.engine.set_threads(n),
                _ => emit(&format!("Error (cores must be 1..{}): {line}", crate::engine::MAX_THREADS)),
            },
            "ping" => emit(&format!("pong {arg}")),
            "undo" => self.take_back(1, line),
            "remove" => self.take_back(2, line),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                if self.mode == Mode::Pondering {
                    self.halt();
                }
            }
            "analyze" => {
                self.halt();
                self.mode = Mode::Analyzing;
                self.start_analysis();
            }
            "exit" => {
                if self.mode == Mode::Analyzing {
                    self.mode = Mode::Idle;
                    self.halt();
                }
            }
            "." => {}
            "?" => {
                if self.mode == Mode::Thinking {
                    // Move now: the running search reports its best move.
                    self.engine.stop();
                }
            }
            "result" => {
                self.halt();
                self.game_over = true;
            }
            "draw" => {}
            "hint" => {
                if let Some(h) = self.hint {
                    emit(&format!("Hint: {}", self.hint_text(h)));
                }
            }
            "bk" => self.book_moves(),
            "option" => self.option(arg, line),
            "lift" => self.lift(arg, line),
            "put" | "hover" => {}
            "quit" => return false,
            _ => {
                // A bare move is accepted as protocol v1 does.
                let mut probe = self.game.clone();
                if probe.parse_xboard_move(line, self.rb()).is_some() {
                    self.usermove(line);
                } else {
                    emit(&format!("Error (unknown command): {line}"));
                }
            }
        }
        true
    }

    fn features(&self) {
        let names: Vec<&str> = crate::variant::all().iter().map(|v| v.xboard_name).collect();
        emit(&format!(
            "feature done=0 myname=\"Shishi {}\" variants=\"{}\"",
            env!("CARGO_PKG_VERSION"),
            names.join(",")
        ));
        emit("feature setboard=1 usermove=1 ping=1 memory=1 smp=1 colors=0 sigint=0 sigterm=0 analyze=1 playother=1 time=1 draw=0 reuse=1 highlight=1 debug=1");
        emit("feature option=\"Okazaki -check 0\"");
        emit("feature option=\"BareKing -check 0\"");
        emit("feature option=\"OwnBook -check 1\"");
        emit("feature option=\"BookFile -file \"");
        emit("feature option=\"EvalFile -file <builtin>\"");
        emit("feature option=\"MultiPV -spin 1 1 500\"");
        emit(&format!(
            "feature option=\"MoveOverhead -spin {} 0 10000\"",
            self.engine.options().move_overhead
        ));
        emit(&format!(
            "feature option=\"Contempt -spin {} -{MAX_CONTEMPT} {MAX_CONTEMPT}\"",
            self.engine.options().contempt
        ));
        emit("feature done=1");
    }

    fn set_variant(&mut self, arg: &str, line: &str) {
        let Some(name) = Variant::by_name(arg).map(|v| v.name) else {
            emit(&format!("Error (unknown variant): {line}"));
            return;
        };
        self.halt();
        if let Err(e) = self.engine.set_variant(name) {
            emit(&format!("Error ({e}): {line}"));
            return;
        }
        let v = self.engine.variant();
        self.reset(v.start_sfen.to_string());
        for l in setup::announce(v) {
            emit(&l);
        }
    }

    fn reset(&mut self, sfen: String) {
        let v = self.engine.variant();
        match Position::from_sfen(v, &sfen) {
            Ok(mut p) => {
                p.set_okazaki(self.engine.options().okazaki);
                p.set_bare_king(self.engine.options().bare_king);
                self.game = p;
                self.start_sfen = sfen;
            }
            Err(e) => log::error!("reset to a bad SFEN {sfen}: {e}"),
        }
        self.pending_leg = None;
        self.hint = None;
        self.game_over = false;
    }

    fn setboard(&mut self, arg: &str, line: &str) {
        let v = self.variant();
        let sfen = match setup::fen_to_sfen(v, arg) {
            Ok(s) => s,
            Err(e) => {
                emit(&format!("tellusererror Illegal position: {e}"));
                emit(&format!("Error (bad FEN: {e}): {line}"));
                return;
            }
        };
        self.halt();
        self.reset(sfen);
        if self.mode == Mode::Analyzing {
            self.start_analysis();
        }
    }

    fn level(&mut self, arg: &str, line: &str) {
        let w: Vec<&str> = arg.split_whitespace().collect();
        let parsed = (|| {
            if w.len() != 3 {
                return None;
            }
            let mps = w[0].parse::<u32>().ok()?;
            let base_ms = match w[1].split_once(':') {
                Some((m, s)) => m.parse::<u64>().ok()? * 60_000 + s.parse::<u64>().ok()? * 1000,
                None => (w[1].parse::<f64>().ok()? * 60_000.0) as u64,
            };
            let inc_ms = (w[2].parse::<f64>().ok()? * 1000.0) as u64;
            Some((mps, base_ms, inc_ms))
        })();
        match parsed {
            Some((mps, base, inc)) => {
                self.clock.mps = mps;
                self.clock.base_ms = base;
                self.clock.inc_ms = inc;
                self.clock.st_ms = None;
            }
            None => emit(&format!("Error (bad level): {line}")),
        }
    }

    fn option(&mut self, arg: &str, line: &str) {
        let (name, value) = match arg.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (arg.trim(), ""),
        };
        let flag = match value {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        };
        self.halt();
        match (name, flag) {
            ("Okazaki", Some(on)) => {
                self.engine.set_okazaki(on);
                self.game.set_okazaki(on);
            }
            ("BareKing", Some(on)) => {
                self.engine.set_bare_king(on);
                self.game.set_bare_king(on);
            }
            ("OwnBook", Some(on)) => self.engine.set_own_book(on),
            ("BookFile", _) => {
                if let Err(e) = self.engine.set_book_file(value) {
                    emit(&format!("Error ({e}): {line}"));
                }
            }
            ("EvalFile", _) => {
                if let Err(e) = self.engine.set_eval_file(value) {
                    emit(&format!("Error ({e}): {line}"));
                }
            }
            ("MultiPV", _) => match value.parse::<usize>() {
                Ok(n) if (1..=500).contains(&n) => self.engine.set_multipv(n),
                _ => emit(&format!("Error (MultiPV must be 1..500): {line}")),
            },
            ("Contempt", _) => match value.parse::<i32>() {
                Ok(n) if (-MAX_CONTEMPT..=MAX_CONTEMPT).contains(&n) => self.engine.set_contempt(n),
                _ => emit(&format!("Error (Contempt must be -{MAX_CONTEMPT}..{MAX_CONTEMPT}): {line}")),
            },
            ("MoveOverhead", _) => match value.parse::<u64>() {
                Ok(n) if n <= 10000 => self.engine.set_move_overhead(n),
                _ => emit(&format!("Error (MoveOverhead must be 0..10000): {line}")),
            },
            _ => emit(&format!("Error (unknown option or bad value): {line}")),
        }
    }

    fn usermove(&mut self, text: &str) {
        // A lion's first leg may arrive alone, ending in a comma.
        let text = match self.pending_leg.take() {
            Some(first) => format!("{first}{text}"),
            None => text.to_string(),
        };
        if text.ends_with(',') {
            self.pending_leg = Some(text);
            return;
        }
        let rb = self.rb();
        let Some(m) = self.game.parse_xboard_move(&text, rb) else {
            emit(&format!("Illegal move: {text}"));
            return;
        };
        let was_analyzing = self.mode == Mode::Analyzing;
        self.halt();
        self.play(m);
        if was_analyzing {
            self.start_analysis();
        } else {
            self.maybe_think();
        }
    }

    /// Makes a move on the game record.
    fn play(&mut self, m: Move) {
        self.game.make(m);
        self.hint = None;
    }

    fn take_back(&mut self, n: usize, line: &str) {
        if self.game.history().len() < n {
            emit(&format!("Error (no move to take back): {line}"));
            return;
        }
        self.halt();
        for _ in 0..n {
            self.game.unmake();
        }
        self.game_over = false;
        if self.mode == Mode::Analyzing {
            self.start_analysis();
        }
    }

    /// Sends the current game to the engine.
    fn sync_engine(&mut self) -> bool {
        let v = self.variant();
        let moves: Vec<String> = self.game.history().iter().map(|u| move_to_usi(v, u.mv)).collect();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        match self.engine.set_position(Some(&self.start_sfen), &refs) {
            Ok(()) => true,
            Err(e) => {
                log::error!("the engine refused the game record: {e}");
                false
            }
        }
    }

    fn limits(&self) -> Limits {
        let mut l = Limits::default();
        let us = self.game.side_to_move().idx();
        if let Some(st) = self.clock.st_ms {
            l.movetime = Some(st);
        } else if let Some(cs) = self.clock.own_cs {
            l.time[us] = Some(cs * 10);
            l.time[1 - us] = self.clock.opp_cs.map(|c| c * 10);
            l.inc[us] = self.clock.inc_ms;
            l.inc[1 - us] = self.clock.inc_ms;
            if self.clock.mps > 0 {
                let played = (self.game.history().len() / 2) as u32;
                l.movestogo = Some(self.clock.mps - played % self.clock.mps);
            }
        } else if self.clock.base_ms > 0 {
            l.time[us] = Some(self.clock.base_ms);
            l.inc[us] = self.clock.inc_ms;
        } else {
            l.movetime = Some(5000);
        }
        l.depth = self.clock.sd;
        l
    }

    /// Announces the result if the game is over; returns whether it is.
    fn check_game_end(&mut self) -> bool {
        if self.game_over {
            return true;
        }
        let Some(outcome) = self.game.outcome() else { return false };
        self.game_over = true;
        let text = match outcome {
            Outcome::Win(Color::Black, why) => format!("1-0 {{{} wins: {why}}}", xb_color(Color::Black)),
            Outcome::Win(Color::White, why) => format!("0-1 {{{} wins: {why}}}", xb_color(Color::White)),
            Outcome::Draw(why) => format!("1/2-1/2 {{{why}}}"),
        };
        emit(&text);
        true
    }

    fn maybe_think(&mut self) {
        if self.force || self.engine_side != Some(self.game.side_to_move()) || self.check_game_end() {
            return;
        }
        if !self.sync_engine() {
            return;
        }
        let limits = self.limits();
        self.mode = Mode::Thinking;
        self.start_search(limits, false);
    }

    fn maybe_ponder(&mut self) {
        if !self.ponder || self.force || self.engine_side != Some(self.game.side_to_move().flip()) || self.game_over {
            return;
        }
        if !self.sync_engine() {
            return;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.mode = Mode::Pondering;
        self.start_search(limits, false);
    }

    fn start_analysis(&mut self) {
        if self.game.clone().legal_moves().is_empty() || !self.sync_engine() {
            return;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        self.mode = Mode::Analyzing;
        self.start_search(limits, true);
    }

    fn start_search(&mut self, limits: Limits, force_post: bool) {
        self.serial += 1;
        let serial = self.serial;
        let tx = self.tx.clone();
        let post = self.post || force_post;
        let root = self.game.clone();
        let rb = self.rb();
        self.engine.go(limits, false, move |ev| match ev {
            Event::Info(info) => {
                if post {
                    emit(&thinking_line(&root, &info, rb));
                }
            }
            Event::BestMove { best, ponder } => {
                let _ = tx.send(Msg::Best(serial, best, ponder));
            }
        });
    }

    fn on_best(&mut self, serial: u64, best: Option<Move>, ponder: Option<Move>) {
        if serial != self.serial || self.mode != Mode::Thinking {
            return;
        }
        self.mode = Mode::Idle;
        let Some(m) = best else {
            // No legal move: the game is over (announced by the referee logic).
            self.check_game_end();
            return;
        };
        let text = self.game.move_to_xboard(m, self.rb());
        emit(&format!("move {text}"));
        self.play(m);
        self.hint = ponder;
        if !self.check_game_end() {
            self.maybe_ponder();
        }
    }

    fn hint_text(&self, m: Move) -> String {
        self.game.move_to_xboard(m, self.rb())
    }

    fn book_moves(&mut self) {
        let moves: Vec<(Move, u32)> = self.engine.book().moves(&self.game).to_vec();
        if moves.is_empty() {
            emit(" no book moves");
        } else {
            let total: u32 = moves.iter().map(|m| m.1).sum();
            for (m, w) in moves {
                emit(&format!(" {} {}%", self.game.move_to_xboard(m, self.rb()), w * 100 / total.max(1)));
            }
        }
        emit("");
    }

    /// `lift SQ`: highlight where the piece there can go (yellow: empty, red: capture).
    fn lift(&mut self, arg: &str, line: &str) {
        let rb = self.rb();
        let v = self.variant();
        let Some(from) = (0..crate::geometry::NSQ as u16)
            .map(|s| s as u8)
            .find(|&s| v.t.on_board.has(s) && crate::notation::xboard_square(v, s, rb) == arg)
        else {
            emit(&format!("Error (bad square): {line}"));
            return;
        };
        emit(&format!("highlight {}", setup::highlight(&mut self.game, from)));
    }
}

/// XBoard thinking output: `ply score time(cs) nodes pv`.
fn thinking_line(root: &Position, info: &Info, rb: usize) -> String {
    let score = match info.score {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 100_000 + (m + 1) / 2,
        Score::Mate(m) => -100_000 + m / 2,
    };
    let mut p = root.clone();
    let mut pv = Vec::new();
    for &m in &info.pv {
        if !p.legal_moves().contains(&m) {
            break;
        }
        pv.push(p.move_to_xboard(m, rb));
        p.make(m);
    }
    format!("{} {} {} {} {}", info.depth, score, info.time.as_millis() / 10, info.nodes, pv.join(" "))
}
