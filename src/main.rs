//! The `shishi` command line.

use clap::{Parser, Subcommand};
use shishi::notation::move_to_usi;
use shishi::{Position, Variant, perft};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "shishi", version, about = "Shishi: an engine for shogi, sho, cannon shogi, Cannon Shosu and Chu")]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Count leaf nodes of the legal move tree.
    Perft {
        /// Variant name.
        #[arg(long, default_value = "shogi")]
        variant: String,
        /// SFEN of the root position, or `startpos`.
        #[arg(long, default_value = "startpos")]
        sfen: String,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// USI moves applied to the root first (space separated).
        #[arg(long, default_value = "")]
        moves: String,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Deterministic search benchmark: fixed positions of every variant, fixed depth, one thread.
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = shishi::bench::DEPTH)]
        depth: u32,
        /// Speed mode instead: search each position for this many ms (not deterministic).
        #[arg(long)]
        movetime: Option<u64>,
        /// Threads for the speed mode (lazy SMP).
        #[arg(long, default_value_t = 1, requires = "movetime")]
        threads: usize,
    },
    /// Run the USI protocol on stdin/stdout (the default when no command is given).
    Usi,
    /// Play a match between engines (USI or XBoard), refereed by Shishi's rules.
    Match(MatchArgs),
    /// Run the XBoard/CECP protocol on stdin/stdout (also chosen when the first line is `xboard`).
    Xboard,
    /// Tune the evaluation weights of a variant from `match --usi-out` records (Texel method).
    Tune(TuneArgs),
    /// Self-play at a fixed node count, written as training positions (`SFEN;SCORE;RESULT`).
    Datagen(DatagenArgs),
    /// Train an NNUE network from `datagen` files.
    Train(TrainArgs),
}

#[derive(clap::Args)]
struct TrainArgs {
    /// Variant name.
    #[arg(long, default_value = "shogi")]
    variant: String,
    /// A data file from `datagen` (give it more than once for several).
    #[arg(long = "data", required = true)]
    data: Vec<String>,
    /// Hidden units per side.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Passes over the data.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Samples per optimiser step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Weight of the search score in the target (the rest is the game result).
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Sigmoid scale in centipawns.
    #[arg(long, default_value_t = 500.0)]
    scale: f32,
    /// Share of the samples held out.
    #[arg(long, default_value_t = 0.02)]
    holdout: f64,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The network file to write.
    #[arg(long)]
    out: String,
    /// A residual network: its output is added to the handcrafted evaluation (`--base
    /// handcrafted`).
    #[arg(long, conflicts_with = "base")]
    residual: bool,
    /// What the network's output is added to: `none`, `handcrafted` (as --residual),
    /// `material` (the handcrafted evaluation's material and piece-square part alone, which
    /// costs nothing in the search), `no-mobility` (the handcrafted evaluation without its
    /// mobility terms) or `light` (its terms that walk no lines: material, hand, and the
    /// pieces around each royal) [default: none].
    #[arg(long)]
    base: Option<String>,
    /// Also train on each position mirrored left to right (for variants whose rules are
    /// symmetric so).
    #[arg(long)]
    mirror: bool,
    /// A data file never trained on: the losses of the network and of the handcrafted
    /// evaluation on it are reported.
    #[arg(long)]
    validate: Option<String>,
    /// Start from this network (a file, or `<builtin>` for the built-in one) instead of
    /// random weights: training goes on from it, its width and base taken over
    /// (a larger --hidden widens it: its units kept, the new ones starting at zero output).
    #[arg(long)]
    init: Option<String>,
}

fn run_train(a: &TrainArgs) -> Result<(), String> {
    use shishi::nnue::{Base, train};
    let v = Variant::by_name(&a.variant).ok_or_else(|| format!("unknown variant '{}'; valid: {}", a.variant, Variant::names().join(", ")))?;
    if !(0.0..=1.0).contains(&a.lambda) || !(0.0..1.0).contains(&a.holdout) || a.scale <= 0.0 || a.hidden == 0 || a.hidden > shishi::nnue::MAX_HIDDEN {
        return Err(format!(
            "need 0 <= lambda <= 1, 0 <= holdout < 1, scale > 0, 1 <= hidden <= {}",
            shishi::nnue::MAX_HIDDEN
        ));
    }
    // The starting network is read first: a bad path fails before the data is loaded.
    let init = match &a.init {
        None => None,
        Some(setting) => {
            let net = shishi::nnue::from_setting(setting, v)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("--init {setting}: no network for {}", v.name))?;
            // A wider --hidden grows it (its units kept, the new ones starting silent).
            Some(if a.hidden > net.hidden {
                train::widen(v, &net, a.hidden, a.seed)
            } else {
                (*net).clone()
            })
        }
    };
    let base = match (&a.base, a.residual) {
        (Some(name), _) => Base::by_name(name).ok_or_else(|| format!("--base {name}: expected one of {}", Base::ALL.map(Base::name).join(", ")))?,
        (None, true) => Base::Handcrafted,
        (None, false) => Base::None,
    };
    // A network trained on keeps its own base.
    let base = init.as_ref().map_or(base, |n| n.base);
    let start = Instant::now();
    let (samples, bad) = train::load_files(v, &a.data, a.lambda, a.scale, a.mirror, base)?;
    eprintln!("{} samples ({bad} lines skipped), {:.0} s", samples.len(), start.elapsed().as_secs_f64());
    let cfg = train::Config {
        hidden: a.hidden,
        epochs: a.epochs,
        batch: a.batch.max(1),
        lr: a.lr,
        scale: a.scale,
        holdout: a.holdout,
        threads: a.threads.clamp(1, shishi::engine::MAX_THREADS),
        seed: a.seed,
        init,
    };
    let (net, best) = train::train(v, &samples, &cfg, &mut |e| {
        eprintln!(
            "epoch {:3}: train {:.6}, held out {:.6}, {:.0} s",
            e.number,
            e.train,
            e.held,
            start.elapsed().as_secs_f64()
        );
    });
    std::fs::write(&a.out, net.to_bytes()).map_err(|e| format!("cannot write {}: {e}", a.out))?;
    eprintln!("wrote {} (epoch {}, held-out loss {:.6})", a.out, best.number, best.held);
    if let Some(path) = &a.validate {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let (net_loss, hce_loss, n) = train::compare(&net, v, &text, a.lambda, a.scale);
        eprintln!("validation ({n} samples): network {net_loss:.6}, handcrafted evaluation {hce_loss:.6}");
    }
    Ok(())
}

#[derive(clap::Args)]
struct DatagenArgs {
    /// Variant name.
    #[arg(long, default_value = "shogi")]
    variant: String,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Node limit of each move's search.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Plies after which a game is drawn.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Output file (appended to).
    #[arg(long)]
    out: String,
    /// The evaluation: `<builtin>` (the network built in for the variant, if any), `<none>`
    /// (the handcrafted evaluation) or a network file.
    #[arg(long, default_value = "<builtin>")]
    eval_file: String,
}

fn run_datagen(a: &DatagenArgs) -> Result<(), String> {
    let v = Variant::by_name(&a.variant).ok_or_else(|| format!("unknown variant '{}'; valid: {}", a.variant, Variant::names().join(", ")))?;
    let cfg = shishi::datagen::Config {
        variant: v,
        games: a.games,
        nodes: a.nodes.max(1),
        random_plies: a.random_plies,
        max_plies: a.max_plies.max(1),
        seed: a.seed,
        threads: a.threads.clamp(1, shishi::engine::MAX_THREADS),
        net: shishi::nnue::from_setting(&a.eval_file, v).map_err(|e| e.to_string())?,
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .map_err(|e| format!("cannot write {}: {e}", a.out))?;
    let mut out = std::io::BufWriter::new(file);
    let start = Instant::now();
    let totals = shishi::datagen::run(&cfg, &mut out, &|t| {
        if t.games % 10 == 0 {
            eprintln!("{} games, {} positions, {:.0} s", t.games, t.samples, start.elapsed().as_secs_f64());
        }
    })
    .map_err(|e| format!("cannot write {}: {e}", a.out))?;
    eprintln!(
        "done: {} games, {} positions, {:.0} s",
        totals.games,
        totals.samples,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[derive(clap::Args)]
struct TuneArgs {
    /// Variant name.
    #[arg(long)]
    variant: String,
    /// A records file (give it more than once for several).
    #[arg(long = "records", required = true)]
    records: Vec<String>,
    /// Plies skipped at the start of each game.
    #[arg(long, default_value_t = 8)]
    skip: usize,
    /// Optimiser iterations.
    #[arg(long, default_value_t = 1000)]
    iterations: usize,
    /// Weight groups left as they are (comma separated names as in the weights files:
    /// piece, hand, promo, advance, mobility, guard, raid, drop_check, shelter, tempo, square, ...),
    /// or single weights named in full (`advance K`).
    #[arg(long, value_delimiter = ',', default_value = "")]
    freeze: Vec<String>,
    /// The scale K of the labels (`sigmoid(K · e / 400)`); fitted to the starting weights
    /// when absent. For another engine's scores, the ratio of its centipawns to ours.
    #[arg(long)]
    k: Option<f64>,
    /// Write the tuned weights here (stdout when absent).
    #[arg(long)]
    out: Option<String>,
    /// Start from this weights file (as `shishi tune` writes them) instead of the shipped
    /// weights; with `--iterations 0`, this measures the file's error on the records.
    #[arg(long)]
    weights: Option<String>,
    /// Held-out records (give it more than once for several): never fitted; their error is
    /// reported at every checkpoint (every 100 iterations), and the weights of the checkpoint
    /// where it was lowest are written (early stopping).
    #[arg(long = "holdout")]
    holdout: Vec<String>,
}

#[derive(clap::Args)]
struct MatchArgs {
    /// Variant name.
    #[arg(long, default_value = "shogi")]
    variant: String,
    /// An engine: `[NAME=]usi:COMMAND` or `[NAME=]xboard:COMMAND`; `self` is this binary over USI.
    /// Give it two or more times.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// An engine option: `NAME:OPTION=VALUE` (NAME as in --engine, or its 1-based index).
    #[arg(long = "eopt")]
    eopts: Vec<String>,
    /// Games per pairing.
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Time control in seconds: BASE+INC.
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Byoyomi in seconds (instead of an increment).
    #[arg(long, default_value_t = 0.0)]
    byoyomi: f64,
    /// Openings file: lines of `startpos|sfen S [moves …]` or USI moves.
    #[arg(long)]
    openings: Option<String>,
    /// Random legal plies played from each opening (the same for both colours of a pair).
    #[arg(long, default_value_t = 0)]
    random_plies: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Plies after which a game is drawn (0: no limit).
    #[arg(long, default_value_t = 400)]
    max_plies: u32,
    /// Grace beyond the clock before a time forfeit, ms.
    #[arg(long, default_value_t = 100)]
    margin: u64,
    /// SPRT: ELO0,ELO1[,ALPHA,BETA].
    #[arg(long)]
    sprt: Option<String>,
    /// Seed for random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the games as PGN to this file.
    #[arg(long)]
    pgn: Option<String>,
    /// Write the games as USI position lines to this file.
    #[arg(long)]
    usi_out: Option<String>,
    /// Chu: the Okazaki rule for the referee.
    #[arg(long)]
    okazaki: bool,
    /// Sho, chu: the bare-king rule for the referee.
    #[arg(long)]
    bare_king: bool,
    /// Exit with status 1 if any game was lost by an illegal move or on time.
    #[arg(long)]
    strict: bool,
}

fn run_match(a: &MatchArgs) -> Result<bool, String> {
    use shishi::tournament::{self, MatchConfig, TimeControl, player::EngineSpec};
    let v = Variant::by_name(&a.variant).ok_or_else(|| format!("unknown variant '{}'; valid: {}", a.variant, Variant::names().join(", ")))?;
    let mut engines = Vec::new();
    for spec in &a.engines {
        let e = if spec == "self" {
            let exe = std::env::current_exe().map_err(|e| e.to_string())?;
            EngineSpec::parse(&format!("shishi=usi:{}", exe.display()))?
        } else {
            EngineSpec::parse(spec)?
        };
        engines.push(e);
    }
    // Same names get a number so that results stay readable.
    let names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    for (i, e) in engines.iter_mut().enumerate() {
        if names.iter().filter(|n| **n == e.name).count() > 1 {
            e.name = format!("{}-{}", e.name, i + 1);
        }
    }
    for o in &a.eopts {
        let (who, rest) = o.split_once(':').ok_or_else(|| format!("--eopt '{o}': expected NAME:OPTION=VALUE"))?;
        let (name, value) = rest.split_once('=').ok_or_else(|| format!("--eopt '{o}': expected NAME:OPTION=VALUE"))?;
        let idx = match who.parse::<usize>() {
            Ok(i) if (1..=engines.len()).contains(&i) => i - 1,
            _ => engines
                .iter()
                .position(|e| e.name == who || e.name.starts_with(&format!("{who}-")))
                .ok_or_else(|| format!("--eopt '{o}': no engine '{who}'"))?,
        };
        engines[idx].options.push((name.to_string(), value.to_string()));
    }
    let sprt = match &a.sprt {
        None => None,
        Some(s) => {
            let x: Vec<f64> = s
                .split(',')
                .map(|t| t.trim().parse::<f64>())
                .collect::<Result<_, _>>()
                .map_err(|_| format!("bad --sprt '{s}'"))?;
            match x[..] {
                [e0, e1] => Some((e0, e1, 0.05, 0.05)),
                [e0, e1, al, be] => Some((e0, e1, al, be)),
                _ => return Err(format!("bad --sprt '{s}': ELO0,ELO1[,ALPHA,BETA]")),
            }
        }
    };
    let openings = match &a.openings {
        Some(path) => tournament::parse_openings(v, &read_text(path)?)?,
        None => Vec::new(),
    };
    let cfg = MatchConfig {
        variant: v,
        engines,
        games: a.games,
        tc: TimeControl::parse(&a.tc, a.byoyomi)?,
        openings,
        random_plies: a.random_plies,
        concurrency: a.concurrency,
        max_plies: a.max_plies,
        margin: a.margin,
        sprt,
        seed: a.seed,
        okazaki: a.okazaki,
        bare_king: a.bare_king,
    };
    // Game files are written as each game ends, so an interrupted match keeps its games.
    let create = |path: &Option<String>| -> Result<Option<std::fs::File>, String> {
        path.as_ref()
            .map(|p| std::fs::File::create(p).map_err(|e| format!("cannot write {p}: {e}")))
            .transpose()
    };
    let (mut pgn, mut usi) = (create(&a.pgn)?, create(&a.usi_out)?);
    let mut stdout = std::io::stdout();
    let summary = tournament::run(
        &cfg,
        &mut |line| {
            let _ = writeln!(stdout, "{line}");
            let _ = stdout.flush();
        },
        &mut |g| {
            for (file, text) in [(&mut pgn, tournament::to_pgn(&cfg, g)), (&mut usi, tournament::to_usi(&cfg, g))] {
                if let Some(f) = file
                    && let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush())
                {
                    log::error!("cannot write a game record: {e}");
                }
            }
        },
    )?;
    Ok(!a.strict || (summary.illegal == 0 && summary.time_losses == 0))
}

/// The instruction-set extensions the build assumes that this processor lacks (none where it
/// has them all; x86-64 builds target x86-64-v3 by default, `.cargo/config.toml`).
fn missing_cpu_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut missing = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! need {
            ($($f:tt),*) => {
                $(if cfg!(target_feature = $f) && !std::arch::is_x86_feature_detected!($f) {
                    missing.push($f);
                })*
            };
        }
        need!("avx2", "avx", "bmi1", "bmi2", "fma", "f16c", "lzcnt", "popcnt", "sse4.2", "movbe");
    }
    missing
}

fn main() -> ExitCode {
    let missing = missing_cpu_features();
    if !missing.is_empty() {
        eprintln!(
            "error: this build needs processor features this machine lacks ({}); build for any x86-64 with \
             RUSTFLAGS=\"-C target-cpu=x86-64\" cargo build --release",
            missing.join(", ")
        );
        return ExitCode::from(3);
    }
    env_logger::init();
    let cli = Cli::parse();
    match cli.cmd {
        Some(Cmd::Perft {
            variant,
            sfen,
            depth,
            moves,
            divide,
        }) => match run_perft(&variant, &sfen, depth, &moves, divide) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Cmd::Bench { depth, movetime, threads }) => {
            let (nodes, time) = match movetime {
                Some(ms) => shishi::bench::speed(ms, threads.clamp(1, shishi::engine::MAX_THREADS)),
                None => shishi::bench::run(depth),
            };
            let secs = time.as_secs_f64();
            let mut out = std::io::stdout();
            let _ = writeln!(out, "Nodes searched: {nodes}");
            let _ = writeln!(out, "Nodes/second  : {:.0}", nodes as f64 / secs.max(1e-9));
            let _ = writeln!(out, "Time (s)      : {secs:.3}");
            ExitCode::SUCCESS
        }
        Some(Cmd::Xboard) => {
            shishi::xboard::run(None);
            ExitCode::SUCCESS
        }
        Some(Cmd::Tune(args)) => match run_tune(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Cmd::Train(args)) => match run_train(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Cmd::Datagen(args)) => match run_datagen(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Cmd::Match(args)) => match run_match(&args) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::from(1),
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Cmd::Usi) => {
            shishi::usi::run(None);
            ExitCode::SUCCESS
        }
        None => {
            protocol_loop();
            ExitCode::SUCCESS
        }
    }
}

fn run_perft(variant: &str, sfen: &str, depth: u32, moves: &str, divide: bool) -> Result<(), String> {
    let v = Variant::by_name(variant).ok_or_else(|| format!("unknown variant '{variant}'; valid: {}", Variant::names().join(", ")))?;
    let mut pos = if sfen == "startpos" {
        Position::startpos(v)
    } else {
        Position::from_sfen(v, sfen).map_err(|e| format!("bad SFEN: {e}"))?
    };
    for m in moves.split_whitespace() {
        let mv = pos
            .parse_usi_move(m)
            .ok_or_else(|| format!("illegal or unparsable move '{m}' in {}", pos.to_sfen()))?;
        pos.make(mv);
    }
    let start = Instant::now();
    let total = if divide {
        let mut total = 0;
        for (m, n) in perft::divide(&mut pos, depth) {
            let _ = writeln!(std::io::stdout(), "{} {n}", move_to_usi(v, m));
            total += n;
        }
        total
    } else {
        perft::perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(std::io::stdout(), "total {total}");
    eprintln!("time {:.3} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9));
    Ok(())
}

/// Chooses the protocol from the first command: `xboard`/`protover` or USI.
fn protocol_loop() {
    let mut first = String::new();
    if std::io::stdin().read_line(&mut first).unwrap_or(0) == 0 {
        return;
    }
    let word = first.split_whitespace().next().unwrap_or("");
    if word == "xboard" || word == "protover" {
        shishi::xboard::run(Some(first.trim_end().to_string()));
        return;
    }
    shishi::usi::run(Some(first.trim_end().to_string()));
}

/// The text of the file at `path`, or an error naming it.
fn read_text(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))
}

fn run_tune(args: &TuneArgs) -> Result<(), String> {
    let TuneArgs {
        variant,
        records,
        skip,
        iterations,
        freeze,
        k,
        out,
        weights,
        holdout,
    } = args;
    let (skip, iterations, k) = (*skip, *iterations, *k);
    let v = shishi::Variant::by_name(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
    let start = match weights {
        Some(path) => shishi::eval::Params::parse(v, &read_text(path)?).map_err(|e| format!("{path}: {e}"))?,
        None => shishi::eval::params(v).clone(),
    };
    if let Some(k) = k
        && !(k > 0.0 && k.is_finite())
    {
        return Err(format!("--k must be a positive number, not {k}"));
    }
    shishi::tune::check_freeze(v, freeze)?;
    // The samples and games of some records files.
    let read = |paths: &[String]| -> Result<(Vec<shishi::tune::Sample>, usize), String> {
        let (mut samples, mut games) = (Vec::new(), 0);
        for path in paths {
            let (s, g) = shishi::tune::load(v, &read_text(path)?, skip).map_err(|e| format!("{path}: {e}"))?;
            samples.extend(s);
            games += g;
        }
        Ok((samples, games))
    };
    let (samples, games) = read(records)?;
    if samples.is_empty() {
        return Err(format!("no {} positions in the records", v.name));
    }
    eprintln!("{games} games, {} quiet positions", samples.len());
    let (held, held_games) = read(holdout)?;
    if !holdout.is_empty() {
        if held.is_empty() {
            return Err(format!("no {} positions in the held-out records", v.name));
        }
        eprintln!("held out: {held_games} games, {} quiet positions", held.len());
    }
    let mut k_used = 0.0;
    let shown = |h: Option<f64>| h.map(|h| format!(", held-out error {h:.6}")).unwrap_or_default();
    let t = shishi::tune::tune(v, start, &samples, &held, iterations, freeze, k, &mut |it, k, e, h| {
        if it == 0 {
            k_used = k;
            eprintln!("K = {k:.4}, starting error {e:.6}{}", shown(h));
        } else {
            eprintln!("iteration {it}: error {e:.6}{}", shown(h));
        }
    });
    if !holdout.is_empty() {
        eprintln!("kept the weights of iteration {}{}", t.iteration, shown(t.holdout));
    }
    let err = t.error;
    let text = format!(
        "# {}: tuned by `shishi tune` from {} on {games} games ({} positions), K {k_used:.4}, error {err:.6}{}, frozen: {}\n{}",
        v.name,
        weights.as_deref().unwrap_or("the shipped weights"),
        samples.len(),
        match t.holdout {
            Some(h) => format!(", held-out error {h:.6} ({} positions; iteration {} kept)", held.len(), t.iteration),
            None => String::new(),
        },
        if freeze.iter().all(|f| f.is_empty()) {
            "none".to_string()
        } else {
            freeze.join(",")
        },
        t.params.format(v)
    );
    match out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("cannot write '{path}': {e}")),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}
