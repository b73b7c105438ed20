//! The command-line tools beyond the protocols: `bench` (deterministic at a fixed depth, and
//! the timed multi-thread speed mode), `tune` (reads match records, writes weights that
//! the engine can read back), and `datagen` and `train` (NNUE data and networks that the
//! engine loads through `EvalFile`).

use std::process::Command;

fn shishi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shishi")).args(args).output().expect("run shishi");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn nodes(stdout: &str) -> u64 {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no node count in {stdout}"))
}

#[test]
fn bench_is_deterministic_and_speed_mode_uses_threads() {
    let (ok, a, _) = shishi(&["bench", "--depth", "2"]);
    assert!(ok);
    let (_, b, _) = shishi(&["bench", "--depth", "2"]);
    assert_eq!(nodes(&a), nodes(&b));
    let (ok, c, _) = shishi(&["bench", "--movetime", "40", "--threads", "2"]);
    assert!(ok, "{c}");
    assert!(nodes(&c) > 0);
    // Threads without the speed mode is refused.
    let (ok, _, err) = shishi(&["bench", "--threads", "2"]);
    assert!(!ok && err.contains("movetime"), "{err}");
}

#[test]
fn tune_reads_records_and_writes_readable_weights() {
    let dir = std::env::temp_dir().join(format!("shishi-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let records = dir.join("games.usi");
    let out = dir.join("weights.txt");
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let mut text = String::new();
    for (i, (moves, result)) in [("7g7f 3c3d 8h2b+ 3a2b", "1-0"), ("2g2f 8c8d 2f2e 8d8e", "0-1"), ("7g7f 8c8d", "1/2-1/2")]
        .iter()
        .enumerate()
    {
        text.push_str(&format!("# game {i} shogi a vs b: {result} {{x}}\nposition sfen {start} moves {moves}\n"));
    }
    std::fs::write(&records, text).expect("write records");
    // `shishi tune` on `records` (or the file given) from ply 0, with more arguments.
    let tune = |records: &str, more: &[&str]| {
        let mut args = vec!["tune", "--variant", "shogi", "--records", records, "--skip", "0"];
        args.extend_from_slice(more);
        shishi(&args)
    };
    let (records, out_path) = (records.to_str().expect("path"), out.to_str().expect("path"));
    let (ok, _, err) = tune(records, &["--iterations", "20", "--freeze", "advance,tempo", "--out", out_path]);
    assert!(ok, "{err}");
    assert!(err.contains("3 games"), "{err}");
    let weights = std::fs::read_to_string(&out).expect("weights written");
    let v = shishi::Variant::by_name("shogi").expect("shogi");
    let p = shishi::eval::Params::parse(v, &weights).expect("weights read back");
    assert_eq!(p.w.len(), shishi::eval::Params::defaults(v).w.len());
    assert!(weights.contains("frozen: advance,tempo") && weights.contains("from the shipped weights"));
    // Held-out records are reported at each checkpoint and choose the weights written.
    let held_out = dir.join("held.txt");
    let held_path = held_out.to_str().expect("path");
    let (ok, _, err) = tune(records, &["--iterations", "200", "--holdout", records, "--out", held_path]);
    assert!(ok, "{err}");
    assert!(
        err.contains("held out: 3 games") && err.contains("iteration 200: error") && err.contains("kept the weights of iteration"),
        "{err}"
    );
    let written = std::fs::read_to_string(&held_out).expect("written");
    assert!(written.contains("held-out error") && written.contains("kept)"), "{written}");
    // Held-out records without a position of the variant are refused.
    let empty = dir.join("empty.usi");
    std::fs::write(&empty, "# nothing\n").expect("write");
    let (ok, _, err) = tune(records, &["--holdout", empty.to_str().expect("path")]);
    assert!(!ok && err.contains("held-out records"), "{err}");
    // A missing records file is an error, not a panic.
    let (ok, _, err) = tune("/nonexistent/x.usi", &[]);
    assert!(!ok && err.contains("cannot read"), "{err}");
    // A --freeze name that is no weight or group is refused before any work.
    let (ok, _, err) = tune("/nonexistent/x.usi", &["--freeze", "advance Q"]);
    assert!(!ok && err.contains("names no weight"), "{err}");
    // --weights starts from a weights file: zero iterations write it back unchanged.
    let again = dir.join("again.txt");
    let again_path = again.to_str().expect("path");
    let (ok, _, err) = tune(records, &["--iterations", "0", "--weights", out_path, "--out", again_path]);
    assert!(ok, "{err}");
    let written = std::fs::read_to_string(&again).expect("written");
    assert!(written.contains(&format!("from {out_path} on")), "{written}");
    let back = shishi::eval::Params::parse(v, &written).expect("read back");
    assert_eq!(back.w, p.w);
    // An unreadable or malformed weights file is an error naming it.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "piece Q 100\n").expect("write");
    for path in [bad.to_str().expect("path"), "/nonexistent/w.txt"] {
        let (ok, _, err) = tune(records, &["--weights", path]);
        assert!(!ok && err.contains(path), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_and_train_make_a_network_that_the_engine_loads() {
    let dir = std::env::temp_dir().join(format!("shishi-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let data = dir.join("data.txt");
    let net = dir.join("net.nn");
    let (data_s, net_s) = (data.to_str().expect("path"), net.to_str().expect("path"));
    let (ok, _, err) = shishi(&[
        "datagen",
        "--games",
        "4",
        "--nodes",
        "200",
        "--max-plies",
        "60",
        "--threads",
        "2",
        "--out",
        data_s,
    ]);
    assert!(ok, "{err}");
    let lines = std::fs::read_to_string(&data).expect("data written").lines().count();
    assert!(lines > 20, "{lines} samples");
    let (ok, _, err) = shishi(&[
        "train",
        "--data",
        data_s,
        "--hidden",
        "8",
        "--epochs",
        "2",
        "--residual",
        "--holdout",
        "0.2",
        "--out",
        net_s,
        "--validate",
        data_s,
    ]);
    assert!(ok, "{err}");
    assert!(err.contains("validation") && err.contains("handcrafted evaluation"), "{err}");
    // The engine reads it for shogi and searches with it; for sho it says the file does not fit.
    let mut child = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start");
    use std::io::Write;
    let input = format!(
        "usi\nsetoption name EvalFile value {net_s}\nsetoption name USI_OwnBook value false\nisready\nposition startpos\ngo depth 3\n\
         setoption name USI_Variant value shoshogi\nsetoption name EvalFile value {net_s}\nsetoption name EvalFile value {data_s}\nisready\nquit\n"
    );
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("run");
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(out.contains("info string NNUE evaluation from"), "{out}");
    assert!(out.contains("bestmove "), "{out}");
    assert!(out.contains("the network is for shogi, not shoshogi"), "{out}");
    assert!(out.contains("not a Shishi network"), "{out}");
    assert_eq!(out.matches("readyok").count(), 2, "{out}");
    // A network over the material part alone, and a base that does not exist.
    let net2 = dir.join("material.nn");
    let net2_s = net2.to_str().expect("path");
    let train = |base: &str| shishi(&["train", "--data", data_s, "--hidden", "8", "--epochs", "1", "--base", base, "--out", net2_s]);
    let (ok, _, err) = train("material");
    assert!(ok, "{err}");
    let bytes = std::fs::read(&net2).expect("written");
    assert_eq!(bytes[16 + "shogi".len()], 2, "the material base's file code");
    let (ok, _, err) = train("bogus");
    assert!(!ok && err.contains("--base bogus"), "{err}");
    // Bad arguments are refused with a message.
    let (ok, _, err) = shishi(&["train", "--data", "/no/such/file", "--out", net_s]);
    assert!(!ok && err.contains("cannot read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
