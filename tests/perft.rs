//! Perft suites as data: every line of `tests/data/*.perft` (copies of
//! `../shared/reference/*.perft`, computed by independent programs) must match.
//! Counts above `BIG` nodes run in the ignored test `perft_big` (`cargo test --release -- --ignored`).

use shishi::{Position, Variant, perft::perft};
use std::path::PathBuf;

const BIG: u64 = 200_000_000;

struct Case {
    sfen: String,
    depth: u32,
    nodes: u64,
}

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn cases(variant: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(data_dir().join(format!("{variant}.perft"))).expect("perft data file");
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut parts = line.split(';');
        let sfen = parts.next().expect("sfen").trim().to_string();
        for p in parts {
            let mut w = p.split_whitespace();
            let depth = w.next().and_then(|d| d.strip_prefix('D')).and_then(|d| d.parse().ok()).expect("depth");
            let nodes = w.next().and_then(|n| n.parse().ok()).expect("count");
            out.push(Case {
                sfen: sfen.clone(),
                depth,
                nodes,
            });
        }
    }
    assert!(!out.is_empty(), "no cases for {variant}");
    out
}

fn run(variant: &str, big: bool) {
    let v = Variant::by_name(variant).expect("variant");
    let mut failures = Vec::new();
    let mut ran = 0;
    for c in cases(variant) {
        if (c.nodes > BIG) != big {
            continue;
        }
        let mut pos = Position::from_sfen(v, &c.sfen).unwrap_or_else(|e| panic!("{variant}: {}: {e}", c.sfen));
        let got = perft(&mut pos, c.depth);
        ran += 1;
        if got != c.nodes {
            failures.push(format!("{} depth {}: expected {}, got {got}", c.sfen, c.depth, c.nodes));
        }
    }
    assert!(failures.is_empty(), "{variant}: {} mismatches:\n{}", failures.len(), failures.join("\n"));
    if !big {
        assert!(ran > 0);
    }
}

#[test]
fn perft_shogi() {
    run("shogi", false);
}
#[test]
fn perft_shoshogi() {
    run("shoshogi", false);
}
#[test]
fn perft_cannonshogi() {
    run("cannonshogi", false);
}
#[test]
fn perft_cannonshogi_wiki() {
    run("cannonshogi-wiki", false);
}
#[test]
fn perft_cannonshosu() {
    run("cannonshosu", false);
}
#[test]
fn perft_chushogi() {
    run("chushogi", false);
}

#[test]
#[ignore = "hundreds of millions of nodes; run with --ignored in release"]
fn perft_big() {
    for v in ["shogi", "shoshogi", "cannonshogi", "cannonshogi-wiki", "cannonshosu", "chushogi"] {
        run(v, true);
    }
}

/// The copies must stay identical to the shared reference tables when those are present.
#[test]
fn data_matches_shared_reference() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/reference");
    if !shared.is_dir() {
        eprintln!("../shared/reference not present; skipping the comparison");
        return;
    }
    for entry in std::fs::read_dir(&shared).expect("read shared") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "perft") {
            let ours = data_dir().join(path.file_name().expect("name"));
            assert_eq!(
                std::fs::read_to_string(&path).ok(),
                std::fs::read_to_string(&ours).ok(),
                "{} differs from tests/data",
                path.display()
            );
        }
    }
}
