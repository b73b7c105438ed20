//! `shishi match`: a tournament runner for the variants no other tool can referee.
//!
//! Engines (USI or XBoard processes) play each other; the referee is Shishi's own rules
//! core. Every move an engine sends is checked against the legal move list of the referee's
//! position; mate, stalemate, repetition (with perpetual check), illegal moves, false claims,
//! resignations, time forfeits and a move limit end games. Each opening is played twice with
//! colours swapped. Games are written as PGN (with a `Variant` tag, XBoard move notation) and
//! as USI move lists; the result is W/D/L, an Elo difference with its 95% interval and, when
//! asked, an SPRT verdict (which also stops the match early). Each engine's nodes a second
//! over the match are summed from its own reports (see [`thinking::Work`]).

pub mod player;
pub mod stats;
pub mod thinking;

use crate::game::Outcome;
use crate::moves::Move;
use crate::notation::move_to_usi;
use crate::piece::Color;
use crate::position::Position;
use crate::variant::Variant;
use crate::zobrist::splitmix;
use player::{Answer, Clocks, EngineSpec, Player, Proto};
use stats::{Verdict, Wdl};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};
use thinking::{Thinking, Work};

/// Time control, in milliseconds.
#[derive(Clone, Copy, Debug)]
pub struct TimeControl {
    /// Main time.
    pub base: u64,
    /// Increment per move.
    pub inc: u64,
    /// Byoyomi per move (after the main time).
    pub byoyomi: u64,
}

impl TimeControl {
    /// Parses `BASE[+INC]` in seconds, e.g. `10+0.1`.
    pub fn parse(text: &str, byoyomi_s: f64) -> Result<TimeControl, String> {
        let (b, i) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |s: &str| s.trim().parse::<f64>().ok().filter(|x| *x >= 0.0).map(|x| (x * 1000.0) as u64);
        match (secs(b), secs(i)) {
            (Some(base), Some(inc)) => Ok(TimeControl {
                base,
                inc,
                byoyomi: (byoyomi_s.max(0.0) * 1000.0) as u64,
            }),
            _ => Err(format!("bad time control '{text}' (expected seconds, e.g. 10+0.1)")),
        }
    }

    fn pgn(&self) -> String {
        if self.byoyomi > 0 {
            format!("{}+{}b", self.base as f64 / 1000.0, self.byoyomi as f64 / 1000.0)
        } else {
            format!("{}+{}", self.base as f64 / 1000.0, self.inc as f64 / 1000.0)
        }
    }
}

/// An opening: a start SFEN and moves played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Start position.
    pub sfen: String,
    /// USI moves.
    pub moves: Vec<String>,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Variant.
    pub variant: &'static Variant,
    /// Two or more engines (a round robin when more).
    pub engines: Vec<EngineSpec>,
    /// Games per pairing.
    pub games: u32,
    /// Time control.
    pub tc: TimeControl,
    /// Openings (empty: the start position, plus `random_plies`).
    pub openings: Vec<Opening>,
    /// Random legal plies played from each opening (same for both colours of a pair).
    pub random_plies: u32,
    /// Games at once.
    pub concurrency: usize,
    /// Plies after which the game is a draw (0: no limit).
    pub max_plies: u32,
    /// Grace beyond the clock before a time forfeit, in ms.
    pub margin: u64,
    /// SPRT (elo0, elo1, alpha, beta).
    pub sprt: Option<(f64, f64, f64, f64)>,
    /// Random seed for openings.
    pub seed: u64,
    /// Chu Okazaki and bare-king rules for the referee.
    pub okazaki: bool,
    /// Bare-king rule for the referee.
    pub bare_king: bool,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number (1-based).
    pub number: usize,
    /// Engine indices of the first and second player.
    pub players: [usize; 2],
    /// Start SFEN.
    pub start: String,
    /// The moves, from the start.
    pub moves: Vec<Move>,
    /// For each move, the time its engine took and what it last reported of its search.
    pub notes: Vec<MoveNote>,
    /// `1-0`, `0-1` or `1/2-1/2` (first player's view).
    pub result: &'static str,
    /// Why it ended.
    pub termination: String,
    /// Ended by an illegal move (or a false claim).
    pub illegal: bool,
    /// Ended by a time forfeit.
    pub time_loss: bool,
}

/// What the referee noted of one move.
#[derive(Clone, Copy, Debug)]
pub struct MoveNote {
    /// The engine that made it (its index in the match's engines).
    pub by: usize,
    /// Time the engine took by the referee's clock, in milliseconds.
    pub ms: u64,
    /// Its last report of depth and score.
    pub thinking: Option<Thinking>,
    /// Its last report of nodes and time.
    pub work: Option<Work>,
}

/// An engine's searches over a match, summed from its own reports of nodes and time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effort {
    /// Moves with a report of nodes and time.
    pub moves: u64,
    /// Their nodes.
    pub nodes: u64,
    /// Their time, in milliseconds.
    pub ms: u64,
}

impl Effort {
    /// Nodes a second over these moves (`None` before any time was reported).
    pub fn nps(&self) -> Option<u64> {
        (self.ms > 0).then(|| (self.nodes as u128 * 1000 / self.ms as u128) as u64)
    }

    /// The reports of `g`'s moves made by engine `engine`.
    fn of_game(g: &GameRecord, engine: usize) -> Effort {
        let mut x = Effort::default();
        for n in &g.notes {
            if n.by == engine
                && let Some(w) = n.work
            {
                x.moves += 1;
                x.nodes += w.nodes;
                x.ms += w.ms;
            }
        }
        x
    }

    /// Adds `o`'s moves, nodes and time.
    fn add(&mut self, o: &Effort) {
        self.moves += o.moves;
        self.nodes += o.nodes;
        self.ms += o.ms;
    }
}

/// What a match produced.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Every game.
    pub games: Vec<GameRecord>,
    /// Result of engine 0 against engine 1 (two-engine matches).
    pub wdl: Wdl,
    /// Points per engine.
    pub points: Vec<f64>,
    /// Games lost by an illegal move or false claim.
    pub illegal: usize,
    /// Games lost on time.
    pub time_losses: usize,
    /// Per engine, its searches' nodes and time as it reported them.
    pub effort: Vec<Effort>,
}

/// Reads an openings file: per line `startpos [moves …]`, `sfen S [moves …]`, or USI moves.
pub fn parse_openings(v: &'static Variant, text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let line = line.strip_prefix("position ").unwrap_or(line);
        let (head, moves) = match line.split_once("moves") {
            Some((h, m)) => (h.trim(), m.split_whitespace().map(String::from).collect::<Vec<_>>()),
            None => (line, Vec::new()),
        };
        let (sfen, moves) = if head == "startpos" {
            (v.start_sfen.to_string(), moves)
        } else if let Some(s) = head.strip_prefix("sfen ") {
            (s.trim().to_string(), moves)
        } else {
            (v.start_sfen.to_string(), head.split_whitespace().map(String::from).chain(moves).collect())
        };
        let mut p = Position::from_sfen(v, &sfen).map_err(|e| format!("openings line {}: {e}", n + 1))?;
        for m in &moves {
            let mv = p.parse_usi_move(m).ok_or_else(|| format!("openings line {}: illegal move {m}", n + 1))?;
            p.make(mv);
        }
        out.push(Opening { sfen, moves });
    }
    Ok(out)
}

impl MatchConfig {
    fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
    }

    fn total_games(&self) -> usize {
        self.pairs().len() * self.games as usize
    }

    /// The start position of game `g` (0-based): the opening of its colour pair, with random
    /// plies drawn from a seed shared by the pair.
    fn start_of(&self, g: usize) -> Result<Position, String> {
        let npairs = self.pairs().len().max(1);
        let round = g / npairs;
        let slot = round / 2;
        let v = self.variant;
        let opening = if self.openings.is_empty() {
            Opening {
                sfen: v.start_sfen.to_string(),
                moves: Vec::new(),
            }
        } else {
            self.openings[slot % self.openings.len()].clone()
        };
        let mut p = Position::from_sfen(v, &opening.sfen).map_err(|e| e.to_string())?;
        p.set_okazaki(self.okazaki);
        p.set_bare_king(self.bare_king);
        for m in &opening.moves {
            let mv = p.parse_usi_move(m).ok_or_else(|| format!("illegal opening move {m}"))?;
            p.make(mv);
        }
        let mut rng = self.seed ^ (slot as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
        for _ in 0..self.random_plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(splitmix(&mut rng) % moves.len() as u64) as usize];
            p.make(m);
            if p.clone().outcome().is_some() {
                p.unmake();
                break;
            }
        }
        Ok(p)
    }
}

/// Plays one game between `first` (moves first) and `second`.
fn play_game(cfg: &MatchConfig, number: usize, players_idx: [usize; 2], start: Position) -> GameRecord {
    let v = cfg.variant;
    // The referee's game starts from the position after the opening; its SFEN is the start.
    let start_sfen = start.to_sfen();
    let mut pos = Position::from_sfen(v, &start_sfen).unwrap_or_else(|_| start.clone());
    pos.set_okazaki(cfg.okazaki);
    pos.set_bare_king(cfg.bare_king);
    let mut record = GameRecord {
        number,
        players: players_idx,
        start: start_sfen.clone(),
        moves: Vec::new(),
        notes: Vec::new(),
        result: "*",
        termination: String::new(),
        illegal: false,
        time_loss: false,
    };
    let names = [cfg.engines[players_idx[0]].name.clone(), cfg.engines[players_idx[1]].name.clone()];
    // The opening's own start and moves, for XBoard engines (which get no SFEN).
    let opening_moves: Vec<crate::moves::Move> = start.history().iter().map(|u| u.mv).collect();
    let mut root = start.clone();
    for _ in 0..opening_moves.len() {
        root.unmake();
    }
    let root_sfen = root.to_sfen();
    let mut players: Vec<Player> = Vec::new();
    for (side, &i) in players_idx.iter().enumerate() {
        match Player::start(&cfg.engines[i], v) {
            Ok(mut p) => {
                p.set_opening(root_sfen.clone(), opening_moves.clone());
                players.push(p)
            }
            Err(e) => {
                record.result = if side == 0 { "0-1" } else { "1-0" };
                record.termination = format!("{} failed to start: {e}", names[side]);
                return record;
            }
        }
    }
    let win = |c: Color| if c == Color::Black { "1-0" } else { "0-1" };
    let mut clocks = [cfg.tc.base, cfg.tc.base];
    loop {
        if let Some(o) = pos.outcome() {
            match o {
                Outcome::Win(c, why) => {
                    record.result = win(c);
                    record.termination = why.to_string();
                }
                Outcome::Draw(why) => {
                    record.result = "1/2-1/2";
                    record.termination = why.to_string();
                }
            }
            break;
        }
        if cfg.max_plies > 0 && pos.history().len() as u32 >= cfg.max_plies {
            record.result = "1/2-1/2";
            record.termination = "move limit".into();
            break;
        }
        let us = pos.side_to_move();
        let side = us.idx();
        let allowed = clocks[side] + cfg.tc.byoyomi;
        let t0 = Instant::now();
        let deadline = t0 + Duration::from_millis(allowed + cfg.margin);
        let answer = players[side].go(
            &start_sfen,
            &pos,
            Clocks {
                time: clocks,
                inc: cfg.tc.inc,
                byoyomi: cfg.tc.byoyomi,
            },
            deadline,
        );
        let used = t0.elapsed().as_millis() as u64;
        let lose = |why: String, rec: &mut GameRecord| {
            rec.result = win(us.flip());
            rec.termination = why;
        };
        if used > allowed + cfg.margin || answer == Answer::Timeout {
            record.time_loss = true;
            lose(format!("{} loses on time ({used} ms used, {allowed} ms left)", names[side]), &mut record);
            break;
        }
        clocks[side] = if cfg.tc.byoyomi > 0 {
            clocks[side].saturating_sub(used)
        } else {
            clocks[side].saturating_sub(used) + cfg.tc.inc
        };
        match answer {
            Answer::Move(text) => {
                let m = match players[side].proto() {
                    Proto::Usi => pos.parse_usi_move(&text),
                    Proto::Xboard => pos.parse_xboard_move(&text, players[side].rank_base()),
                };
                match m {
                    Some(m) => {
                        pos.make(m);
                        record.moves.push(m);
                        record.notes.push(MoveNote {
                            by: players_idx[side],
                            ms: used,
                            thinking: players[side].thinking(),
                            work: players[side].work(),
                        });
                    }
                    None => {
                        record.illegal = true;
                        lose(format!("{} played an illegal move '{text}'", names[side]), &mut record);
                        break;
                    }
                }
            }
            Answer::Resign => {
                lose(format!("{} resigns", names[side]), &mut record);
                break;
            }
            Answer::Win => {
                if pos.can_declare() {
                    record.result = win(us);
                    record.termination = format!("{} declares an entering-king win", names[side]);
                } else {
                    record.illegal = true;
                    lose(format!("{} declared a win without the points", names[side]), &mut record);
                }
                break;
            }
            Answer::Claim(text) => {
                // The referee has already found the game going on, so a result naming the
                // claimant's own loss is a resignation and any other claim is false.
                let own_loss = if us == Color::Black { "0-1" } else { "1-0" };
                if text.split_whitespace().next() == Some(own_loss) {
                    lose(format!("{} resigns", names[side]), &mut record);
                } else {
                    record.illegal = true;
                    lose(format!("{} made a false claim: {text}", names[side]), &mut record);
                }
                break;
            }
            Answer::Died | Answer::Timeout => {
                lose(format!("{} stopped answering", names[side]), &mut record);
                break;
            }
        }
    }
    let words = match record.result {
        "1-0" => ["win", "lose"],
        "0-1" => ["lose", "win"],
        _ => ["draw", "draw"],
    };
    for (p, w) in players.into_iter().zip(words) {
        p.finish(w, record.result);
    }
    record
}

/// Runs the match, calling `out` with each line of the report and `on_game` with each game as
/// it ends (in the order games end). Games run `concurrency` at a
/// time; an SPRT verdict stops new games from starting.
pub fn run(cfg: &MatchConfig, out: &mut dyn FnMut(&str), on_game: &mut dyn FnMut(&GameRecord)) -> Result<Summary, String> {
    if cfg.engines.len() < 2 {
        return Err("a match needs at least two engines".into());
    }
    let total = cfg.total_games();
    let pairs = cfg.pairs();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<GameRecord>();
    let mut summary = Summary {
        points: vec![0.0; cfg.engines.len()],
        effort: vec![Effort::default(); cfg.engines.len()],
        ..Summary::default()
    };
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.max(1) {
            let tx = tx.clone();
            let (next, stop, pairs) = (&next, &stop, &pairs);
            s.spawn(move || {
                loop {
                    let g = next.fetch_add(1, Ordering::SeqCst);
                    if g >= total || stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let (a, b) = pairs[g % pairs.len()];
                    let round = g / pairs.len();
                    let order = if round % 2 == 0 { [a, b] } else { [b, a] };
                    let rec = match cfg.start_of(g) {
                        Ok(start) => play_game(cfg, g + 1, order, start),
                        Err(e) => GameRecord {
                            number: g + 1,
                            players: order,
                            start: String::new(),
                            moves: Vec::new(),
                            notes: Vec::new(),
                            result: "*",
                            termination: format!("bad opening: {e}"),
                            illegal: false,
                            time_loss: false,
                        },
                    };
                    if tx.send(rec).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for rec in rx {
            let [f, sd] = rec.players;
            let (pf, ps) = match rec.result {
                "1-0" => (1.0, 0.0),
                "0-1" => (0.0, 1.0),
                "1/2-1/2" => (0.5, 0.5),
                _ => (0.0, 0.0),
            };
            summary.points[f] += pf;
            summary.points[sd] += ps;
            // This game's searches of each engine, by its own reports.
            let effort = [f, sd].map(|e| Effort::of_game(&rec, e));
            for (&e, x) in [f, sd].iter().zip(&effort) {
                summary.effort[e].add(x);
            }
            if rec.illegal {
                summary.illegal += 1;
            }
            if rec.time_loss {
                summary.time_losses += 1;
            }
            if cfg.engines.len() == 2 && rec.result != "*" {
                let p0 = if f == 0 { pf } else { ps };
                match p0 {
                    x if x > 0.75 => summary.wdl.w += 1,
                    x if x < 0.25 => summary.wdl.l += 1,
                    _ => summary.wdl.d += 1,
                }
            }
            let rate = |x: &Effort| x.nps().map_or_else(|| "-".to_string(), |n| n.to_string());
            out(&format!(
                "Game {} ({} vs {}): {} {{{}}} {} plies, nodes a second {} and {}",
                rec.number,
                cfg.engines[f].name,
                cfg.engines[sd].name,
                rec.result,
                rec.termination,
                rec.moves.len(),
                rate(&effort[0]),
                rate(&effort[1])
            ));
            on_game(&rec);
            summary.games.push(rec);
            if cfg.engines.len() == 2 {
                let w = summary.wdl;
                out(&format!(
                    "Score of {} vs {}: {} - {} - {} [{:.3}] {}",
                    cfg.engines[0].name,
                    cfg.engines[1].name,
                    w.w,
                    w.l,
                    w.d,
                    w.score(),
                    w.n()
                ));
                if let Some((e0, e1, a, b)) = cfg.sprt {
                    let (verdict, llr, (lo, hi)) = w.sprt(e0, e1, a, b);
                    if verdict != Verdict::Continue && !stop.swap(true, Ordering::SeqCst) {
                        out(&format!("SPRT: llr {llr:.2} ({lo:.2}, {hi:.2}): {verdict:?} accepted"));
                    }
                }
            }
        }
    });
    summary.games.sort_by_key(|g| g.number);
    if cfg.engines.len() == 2 {
        let w = summary.wdl;
        let (elo, err) = w.elo();
        out(&format!(
            "Elo difference: {elo:.1} +/- {err:.1}, {} games (W {} L {} D {})",
            w.n(),
            w.w,
            w.l,
            w.d
        ));
        if let Some((e0, e1, a, b)) = cfg.sprt {
            let (verdict, llr, (lo, hi)) = w.sprt(e0, e1, a, b);
            out(&format!("SPRT [{e0}, {e1}] alpha {a} beta {b}: llr {llr:.2} ({lo:.2}, {hi:.2}) -> {verdict:?}"));
        }
    } else {
        for (i, e) in cfg.engines.iter().enumerate() {
            out(&format!("{}: {} points", e.name, summary.points[i]));
        }
    }
    out(&format!("Illegal moves: {}, time losses: {}", summary.illegal, summary.time_losses));
    let rates: Vec<String> = cfg
        .engines
        .iter()
        .zip(&summary.effort)
        .map(|(e, x)| match x.nps() {
            Some(nps) => format!("{} {nps} ({} nodes in {} ms over {} moves)", e.name, x.nodes, x.ms, x.moves),
            None => format!("{} none reported", e.name),
        })
        .collect();
    out(&format!("Nodes a second, by the engines' own reports: {}", rates.join("; ")));
    Ok(summary)
}

/// Civil date (UTC) of the current time, `YYYY.MM.DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A game as PGN: XBoard move notation, `Variant` tag, `FEN` when not the standard start, and
/// after each move a comment with the mover's last score and depth and its time (see
/// [`thinking::comment`]).
pub fn to_pgn(cfg: &MatchConfig, g: &GameRecord) -> String {
    let v = cfg.variant;
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, val: &str| s.push_str(&format!("[{k} \"{}\"]\n", val.replace('"', "'")));
    tag(&mut s, "Event", "Shishi match");
    tag(&mut s, "Site", "local");
    tag(&mut s, "Date", &today());
    tag(&mut s, "Round", &g.number.to_string());
    tag(&mut s, "White", &cfg.engines[g.players[0]].name);
    tag(&mut s, "Black", &cfg.engines[g.players[1]].name);
    tag(&mut s, "Result", g.result);
    tag(&mut s, "Variant", v.xboard_name);
    tag(&mut s, "TimeControl", &cfg.tc.pgn());
    tag(&mut s, "Termination", &g.termination);
    let rb = v.xboard_rank_base();
    let mut p = match Position::from_sfen(v, &g.start) {
        Ok(p) => p,
        Err(_) => return s + "\n*\n\n",
    };
    if g.start != Position::startpos(v).to_sfen() {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", &sfen_to_xboard_fen(&g.start, v.drops));
    }
    s.push('\n');
    let mut line = String::new();
    for (i, &m) in g.moves.iter().enumerate() {
        if i % 2 == 0 {
            line.push_str(&format!("{}. ", i / 2 + 1));
        }
        line.push_str(&p.move_to_xboard(m, rb));
        line.push(' ');
        if let Some(n) = g.notes.get(i) {
            line.push_str(&format!("{{{}}} ", thinking::comment(n.thinking, n.ms)));
        }
        p.make(m);
    }
    line.push_str(&format!("{{{}}} {}", g.termination, g.result));
    // Wrap at about 80 columns.
    let mut width = 0;
    for word in line.split(' ') {
        if width + word.len() > 79 {
            s.push('\n');
            width = 0;
        } else if width > 0 {
            s.push(' ');
            width += 1;
        }
        s.push_str(word);
        width += word.len();
    }
    s.push_str("\n\n");
    s
}

/// XBoard FEN of an SFEN (holdings in brackets where the variant has drops, `w` for the first
/// player).
pub(crate) fn sfen_to_xboard_fen(sfen: &str, drops: bool) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let board = f.first().copied().unwrap_or("");
    let side = if f.get(1) == Some(&"w") { "b" } else { "w" };
    let mut holdings = String::new();
    if let Some(h) = f.get(2).filter(|h| **h != "-") {
        let mut count = 0u32;
        for c in h.chars() {
            if let Some(d) = c.to_digit(10) {
                count = count * 10 + d;
            } else {
                for _ in 0..count.max(1) {
                    holdings.push(c);
                }
                count = 0;
            }
        }
    }
    if drops {
        format!("{board}[{holdings}] {side} 0 1")
    } else {
        format!("{board} {side} 0 1")
    }
}

/// A game as a USI record line: `position sfen S moves …` after a comment with the result.
pub fn to_usi(cfg: &MatchConfig, g: &GameRecord) -> String {
    let v = cfg.variant;
    let moves: Vec<String> = g.moves.iter().map(|&m| move_to_usi(v, m)).collect();
    format!(
        "# game {} {} {} vs {}: {} {{{}}}\nposition sfen {} moves {}\n",
        g.number,
        v.name,
        cfg.engines[g.players[0]].name,
        cfg.engines[g.players[1]].name,
        g.result,
        g.termination,
        g.start,
        moves.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine's effort sums only its own moves' reports, and has no rate without time.
    #[test]
    fn effort_sums_each_engines_own_reports() {
        let note = |by, work| MoveNote {
            by,
            ms: 100,
            thinking: None,
            work,
        };
        let w = |nodes, ms| Some(Work { nodes, ms });
        let g = GameRecord {
            number: 1,
            players: [1, 0],
            start: String::new(),
            moves: Vec::new(),
            notes: vec![
                note(1, w(3_000, 2)),
                note(0, w(500, 1)),
                note(1, None),
                note(0, w(1_500, 1)),
                note(1, w(1_000, 2)),
            ],
            result: "*",
            termination: String::new(),
            illegal: false,
            time_loss: false,
        };
        let (a, b) = (Effort::of_game(&g, 0), Effort::of_game(&g, 1));
        assert_eq!(a, Effort { moves: 2, nodes: 2_000, ms: 2 });
        assert_eq!(b, Effort { moves: 2, nodes: 4_000, ms: 4 });
        assert_eq!((a.nps(), b.nps()), (Some(1_000_000), Some(1_000_000)));
        assert_eq!(Effort::of_game(&g, 2).nps(), None);
        let mut sum = a;
        sum.add(&b);
        assert_eq!(sum, Effort { moves: 4, nodes: 6_000, ms: 6 });
    }
}
