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
    },
    /// Run the USI protocol on stdin/stdout (the default when no command is given).
    Usi,
    /// Run the XBoard/CECP protocol on stdin/stdout (also chosen when the first line is `xboard`).
    Xboard,
}

fn main() -> ExitCode {
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
        Some(Cmd::Bench { depth }) => {
            let (nodes, time) = shishi::bench::run(depth);
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
