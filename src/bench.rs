//! `shishi bench`: a deterministic node count over fixed positions of every variant at a
//! fixed depth, one thread, a fixed 16 MiB hash table cleared per position.
//! `shishi bench --movetime MS --threads N` instead measures speed: each position searched
//! for a fixed time by N lazy-SMP threads (node counts then vary from run to run).

use crate::position::Position;
use crate::search::tt::Tt;
use crate::search::{Limits, Shared, Workers, search_threads};
use crate::variant::Variant;
use std::time::{Duration, Instant};

/// The bench positions: (variant, SFEN).
pub const POSITIONS: &[(&str, &str)] = &[
    ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
    ("shogi", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"),
    ("shogi", "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124"),
    ("shoshogi", "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1"),
    ("cannonshogi", "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL b - 1"),
    ("cannonshogi-wiki", "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL b - 1"),
    (
        "cannonshosu",
        "lnsgkqgsnl/1rc1ii1cb1/pppppppppp/2d4d2/10/10/2D4D2/PPPPPPPPPP/1BC1II1CR1/LNSGQKGSNL b - 1",
    ),
    (
        "chushogi",
        "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
    ),
    (
        "chushogi",
        "lf1sgekgs1fl/avctox4nB/mr2dqdht1b1/1p1p2p1p2p/p3pp1p2p1/12/3i3P1P2/hP2P3IR1P/2PPDPP1P1P1/MVR2NQDS1VM/A2STOXT3A/LFC1GKEG1CFL b - 51",
    ),
];

/// Default bench depth: deep enough that the node count changes with pruning and reductions
/// that apply only from depth 6 (depth 4, the bench's depth until the twentieth session,
/// never reached them); about 2 s on the project's machine.
pub const DEPTH: u32 = 8;

/// Runs the bench; returns (total nodes, elapsed).
pub fn run(depth: u32) -> (u64, Duration) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    measure(&limits, 16, 1)
}

/// Speed mode: each bench position searched for `ms` milliseconds by `threads` threads with a
/// fresh 64 MiB table; returns (total nodes, elapsed).
pub fn speed(ms: u64, threads: usize) -> (u64, Duration) {
    let limits = Limits {
        movetime: Some(ms),
        ..Limits::default()
    };
    measure(&limits, 64, threads)
}

/// Searches every bench position under `limits` with a fresh table of `hash_mib` MiB.
fn measure(limits: &Limits, hash_mib: usize, threads: usize) -> (u64, Duration) {
    let start = Instant::now();
    let mut total = 0;
    for (name, sfen) in POSITIONS {
        let v = Variant::by_name(name).expect("bench variant");
        let pos = Position::from_sfen(v, sfen).expect("bench SFEN");
        let tt = Tt::new(hash_mib);
        // The evaluation a default engine uses: the built-in network where there is one.
        let shared = Shared {
            net: crate::nnue::builtin(v),
            ..Shared::default()
        };
        search_threads(&pos, &tt, &shared, limits.clone(), 0, &mut Workers::new(threads), &mut |_| {});
        total += shared.nodes.load(std::sync::atomic::Ordering::Relaxed);
    }
    (total, start.elapsed())
}
