//! The `shishi` command line.

use clap::{Parser, Subcommand};
use shishi::notation::move_to_usi;
use shishi::{Position, Variant, perft};
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
}

fn main() -> ExitCode {
    env_logger::init();
    let cli = Cli::parse();
    match cli.cmd {
        Some(Cmd::Perft { variant, sfen, depth, moves, divide }) => match run_perft(&variant, &sfen, depth, &moves, divide) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        None => {
            eprintln!("shishi: no command given; try `shishi --help`");
            ExitCode::from(2)
        }
    }
}

fn run_perft(variant: &str, sfen: &str, depth: u32, moves: &str, divide: bool) -> Result<(), String> {
    let v = Variant::by_name(variant).ok_or_else(|| format!("unknown variant '{variant}'; valid: {}", Variant::names().join(", ")))?;
    let mut pos = if sfen == "startpos" { Position::startpos(v) } else { Position::from_sfen(v, sfen).map_err(|e| format!("bad SFEN: {e}"))? };
    for m in moves.split_whitespace() {
        let mv = pos.parse_usi_move(m).ok_or_else(|| format!("illegal or unparsable move '{m}' in {}", pos.to_sfen()))?;
        pos.make(mv);
    }
    let start = Instant::now();
    let total = if divide {
        let mut total = 0;
        for (m, n) in perft::divide(&mut pos, depth) {
            println!("{} {n}", move_to_usi(v, m));
            total += n;
        }
        total
    } else {
        perft::perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("total {total}");
    eprintln!("time {:.3} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9));
    Ok(())
}
