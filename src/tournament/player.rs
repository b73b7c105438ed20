//! An external engine process driven over USI or XBoard for `shishi match`.
//!
//! Invariant: the process is only ever asked for a move in the position the referee holds;
//! every answer is returned as text for the referee to check. A process is started per game
//! and killed when dropped, so a misbehaving engine cannot carry state into the next game.

use super::thinking::{Thinking, Work, parse_usi_info, parse_usi_work, parse_xboard_line};
use crate::notation::move_to_usi;
use crate::position::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Which protocol an engine speaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proto {
    /// USI.
    Usi,
    /// XBoard/CECP v2.
    Xboard,
}

/// How an engine is started.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Display name.
    pub name: String,
    /// Protocol.
    pub proto: Proto,
    /// Program and arguments.
    pub command: Vec<String>,
    /// Options to set: (name, value).
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Parses `[NAME=]PROTO:COMMAND ARGS…`, e.g. `hachu=xboard:/usr/games/hachu`.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let (name, rest) = match text.split_once('=') {
            Some((n, r)) if !n.contains(':') && !n.contains(' ') => (Some(n.to_string()), r),
            _ => (None, text),
        };
        let (proto, cmd) = rest.split_once(':').ok_or_else(|| format!("engine '{text}': expected PROTO:COMMAND"))?;
        let proto = match proto {
            "usi" => Proto::Usi,
            "xboard" | "cecp" => Proto::Xboard,
            other => return Err(format!("engine '{text}': unknown protocol '{other}' (usi or xboard)")),
        };
        let command: Vec<String> = cmd.split_whitespace().map(String::from).collect();
        if command.is_empty() {
            return Err(format!("engine '{text}': empty command"));
        }
        let name = name.unwrap_or_else(|| {
            let prog = &command[0];
            prog.rsplit('/').next().unwrap_or(prog).to_string()
        });
        Ok(EngineSpec {
            name,
            proto,
            command,
            options: Vec::new(),
        })
    }
}

/// What an engine answered when asked for a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A move, as text in the engine's protocol.
    Move(String),
    /// It resigned.
    Resign,
    /// USI `bestmove win` (entering-king declaration).
    Win,
    /// It claimed a result (XBoard `1-0 {…}` and so on) instead of moving.
    Claim(String),
    /// No answer before the deadline.
    Timeout,
    /// The process died or closed its output.
    Died,
}

/// A running engine.
pub struct Player {
    spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// XBoard: moves of the game already sent.
    sent: usize,
    rank_base: usize,
    /// XBoard: the engine accepted `setboard`.
    setboard: bool,
    /// XBoard: the opening still to send (its start SFEN and moves).
    opening: Option<(String, Vec<crate::moves::Move>)>,
    /// The last complete report of the search behind the latest answer.
    thinking: Option<Thinking>,
    /// The nodes and time of the last report that gave both, for the latest answer.
    work: Option<Work>,
}

/// Clock information for one move request, in milliseconds.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    /// Remaining time of black and white.
    pub time: [u64; 2],
    /// Increment.
    pub inc: u64,
    /// Byoyomi.
    pub byoyomi: u64,
}

impl Player {
    /// Starts the engine and completes the handshake for `variant`.
    pub fn start(spec: &EngineSpec, variant: &crate::variant::Variant) -> Result<Player, String> {
        let mut child = Command::new(&spec.command[0])
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", spec.command.join(" ")))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = Player {
            spec: spec.clone(),
            child,
            stdin,
            lines,
            sent: 0,
            rank_base: variant.xboard_rank_base(),
            setboard: false,
            opening: None,
            thinking: None,
            work: None,
        };
        p.handshake(variant)?;
        Ok(p)
    }

    fn send(&mut self, line: &str) {
        log::debug!("> {}: {line}", self.spec.name);
        let _ = writeln!(self.stdin, "{line}");
        let _ = self.stdin.flush();
    }

    /// Next line before the deadline (`Err(true)`: timeout, `Err(false)`: closed).
    fn recv(&mut self, deadline: Instant) -> Result<String, bool> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => {
                log::debug!("< {}: {l}", self.spec.name);
                Ok(l)
            }
            Err(RecvTimeoutError::Timeout) => Err(true),
            Err(RecvTimeoutError::Disconnected) => Err(false),
        }
    }

    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>, String> {
        self.wait_until(prefix, timeout, |l| l.starts_with(prefix))
    }

    /// Reads lines until one satisfies `done` (`what` names it in the error).
    fn wait_until(&mut self, what: &str, timeout: Duration, done: impl Fn(&str) -> bool) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            match self.recv(deadline) {
                Ok(l) => {
                    let finished = done(&l);
                    seen.push(l);
                    if finished {
                        return Ok(seen);
                    }
                }
                Err(_) => return Err(format!("{}: no '{what}' within {timeout:?}", self.spec.name)),
            }
        }
    }

    fn handshake(&mut self, v: &crate::variant::Variant) -> Result<(), String> {
        let t = Duration::from_secs(10);
        match self.spec.proto {
            Proto::Usi => {
                self.send("usi");
                self.wait_for("usiok", t)?;
                if v.name != "shogi" {
                    self.send(&format!("setoption name USI_Variant value {}", v.name));
                }
                for (n, val) in self.spec.options.clone() {
                    self.send(&format!("setoption name {n} value {val}"));
                }
                self.send("isready");
                self.wait_for("readyok", t)?;
                self.send("usinewgame");
            }
            Proto::Xboard => {
                self.send("xboard");
                self.send("protover 2");
                // `done=1` may come in any feature line, not only on its own.
                let lines = self.wait_until("feature done=1", t, |l| {
                    l.starts_with("feature ") && l.split_whitespace().any(|w| w == "done=1")
                })?;
                let mut accepted = Vec::new();
                for l in lines.iter().filter(|l| l.starts_with("feature ")) {
                    for part in l[8..].split_whitespace() {
                        if let Some((k, _)) = part.split_once('=')
                            && k.chars().all(|c| c.is_ascii_alphanumeric())
                            && k != "done"
                        {
                            accepted.push(k.to_string());
                        }
                    }
                }
                for k in &accepted {
                    self.send(&format!("accepted {k}"));
                }
                self.setboard = lines
                    .iter()
                    .any(|l| l.starts_with("feature ") && l.split_whitespace().any(|w| w == "setboard=1"));
                self.send("new");
                self.send(&format!("variant {}", v.xboard_name));
                // As XBoard does: hash size and cores are commands, not options (some engines,
                // HaChu among them, only allocate their hash table on `memory`). `--eopt`
                // NAME:memory=MB / NAME:cores=N override the defaults of 64 MB and 1 core.
                let opt = |name: &str| self.spec.options.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
                let (memory, cores) = (opt("memory").unwrap_or_else(|| "64".into()), opt("cores").unwrap_or_else(|| "1".into()));
                if accepted.iter().any(|k| k == "memory") {
                    self.send(&format!("memory {memory}"));
                }
                if accepted.iter().any(|k| k == "smp") {
                    self.send(&format!("cores {cores}"));
                }
                for (n, val) in self.spec.options.clone() {
                    if n != "memory" && n != "cores" {
                        self.send(&format!("option {n}={val}"));
                    }
                }
                self.send("force");
                self.send("easy");
                // Thinking output: its last depth and score go into the PGN's move comments.
                self.send("post");
                self.send("ping 1");
                self.wait_for("pong 1", t)?;
            }
        }
        Ok(())
    }

    /// XBoard: the opening that led to the game's start position (`root` SFEN and the moves
    /// from it), sent before the first move request. USI engines get the start SFEN instead.
    pub fn set_opening(&mut self, root: String, moves: Vec<crate::moves::Move>) {
        self.opening = Some((root, moves));
    }

    /// Asks for a move in `game` (start SFEN and moves so far); waits until `deadline`.
    pub fn go(&mut self, start_sfen: &str, game: &Position, clocks: Clocks, deadline: Instant) -> Answer {
        let v = game.variant();
        self.thinking = None;
        self.work = None;
        match self.spec.proto {
            Proto::Usi => {
                let moves: Vec<String> = game.history().iter().map(|u| move_to_usi(v, u.mv)).collect();
                let pos = if moves.is_empty() {
                    format!("position sfen {start_sfen}")
                } else {
                    format!("position sfen {start_sfen} moves {}", moves.join(" "))
                };
                self.send(&pos);
                let go = if clocks.byoyomi > 0 {
                    format!("go btime {} wtime {} byoyomi {}", clocks.time[0], clocks.time[1], clocks.byoyomi)
                } else {
                    format!("go btime {} wtime {} binc {} winc {}", clocks.time[0], clocks.time[1], clocks.inc, clocks.inc)
                };
                self.send(&go);
                loop {
                    match self.recv(deadline) {
                        Ok(l) => {
                            if let Some(w) = parse_usi_work(&l) {
                                self.work = Some(w);
                            }
                            if let Some(t) = parse_usi_info(&l) {
                                self.thinking = Some(t);
                                continue;
                            }
                            let mut w = l.split_whitespace();
                            if w.next() == Some("bestmove") {
                                return match w.next() {
                                    Some("resign") | None => Answer::Resign,
                                    Some("win") => Answer::Win,
                                    Some(m) => Answer::Move(m.to_string()),
                                };
                            }
                        }
                        Err(true) => {
                            self.send("stop");
                            return Answer::Timeout;
                        }
                        Err(false) => return Answer::Died,
                    }
                }
            }
            Proto::Xboard => {
                // The opening: `setboard` where it does not start from the variant's start
                // position (as XBoard does), then its moves, before the game's own.
                if let Some((root, moves)) = self.opening.take() {
                    if root != Position::startpos(v).to_sfen() {
                        if !self.setboard {
                            return Answer::Claim("Error (no setboard feature): cannot start from a set-up position".into());
                        }
                        self.send(&format!("setboard {}", super::sfen_to_xboard_fen(&root, v.drops)));
                    }
                    if let Ok(mut p) = Position::from_sfen(v, &root) {
                        for m in moves {
                            let text = p.move_to_xboard(m, self.rank_base);
                            self.send(&format!("usermove {text}"));
                            p.make(m);
                        }
                    }
                }
                // Replay the moves it has not seen (the engine stays in force mode).
                let history: Vec<crate::moves::Move> = game.history().iter().map(|u| u.mv).collect();
                let mut replay = game.clone();
                for _ in 0..history.len() {
                    replay.unmake();
                }
                for (i, &m) in history.iter().enumerate() {
                    if i >= self.sent {
                        let text = replay.move_to_xboard(m, self.rank_base);
                        self.send(&format!("usermove {text}"));
                    }
                    replay.make(m);
                }
                self.sent = history.len();
                let us = game.side_to_move().idx();
                let base_s = (clocks.time[us] / 1000).max(1);
                self.send(&format!("level 0 {}:{:02} {}", base_s / 60, base_s % 60, clocks.inc as f64 / 1000.0));
                self.send(&format!("time {}", clocks.time[us] / 10));
                self.send(&format!("otim {}", clocks.time[1 - us] / 10));
                self.send("go");
                let mut partial = String::new();
                loop {
                    match self.recv(deadline) {
                        Ok(l) => {
                            if let Some((t, w)) = parse_xboard_line(&l) {
                                self.thinking = Some(t);
                                self.work = Some(w);
                                continue;
                            }
                            let mut w = l.split_whitespace();
                            match w.next() {
                                Some("move") => {
                                    let m = w.next().unwrap_or("");
                                    // A multi-leg move may come as one `move` line per leg, each
                                    // leg but the last ending in a comma (HaChu: `move e6f5,` then
                                    // `move f5e6`); the legs are joined into `e6f5,f5e6`.
                                    if m.ends_with(',') {
                                        partial.push_str(m);
                                        continue;
                                    }
                                    self.send("force");
                                    self.sent += 1;
                                    return Answer::Move(format!("{partial}{m}"));
                                }
                                Some("resign") => return Answer::Resign,
                                Some("1-0") | Some("0-1") | Some("1/2-1/2") => return Answer::Claim(l.clone()),
                                Some(x) if x.starts_with("tellusererror") || x == "Illegal" => {
                                    return Answer::Claim(l.clone());
                                }
                                _ => {}
                            }
                        }
                        Err(true) => {
                            self.send("?");
                            return Answer::Timeout;
                        }
                        Err(false) => return Answer::Died,
                    }
                }
            }
        }
    }

    /// Tells the engine the game is over (`usi_word`: win, lose or draw from its side;
    /// `result`: the PGN result) and ends the process.
    pub fn finish(mut self, usi_word: &str, result: &str) {
        match self.spec.proto {
            Proto::Usi => self.send(&format!("gameover {usi_word}")),
            Proto::Xboard => self.send(&format!("result {result} {{}}")),
        }
        self.send("quit");
        let t = Instant::now();
        while t.elapsed() < Duration::from_millis(500) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The last depth and score the engine reported while it searched for its latest answer.
    pub fn thinking(&self) -> Option<Thinking> {
        self.thinking
    }

    /// The nodes and time of the last report that gave both while the engine searched for
    /// its latest answer.
    pub fn work(&self) -> Option<Work> {
        self.work
    }

    /// The rank numbering base this engine uses in XBoard notation.
    pub fn rank_base(&self) -> usize {
        self.rank_base
    }

    /// Protocol.
    pub fn proto(&self) -> Proto {
        self.spec.proto
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
