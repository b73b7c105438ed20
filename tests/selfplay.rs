//! Self-play through `shishi match`: one short game per variant between two Shishi processes
//! (USI), and one Chu game with one side over XBoard, each with zero illegal moves and zero
//! time losses (`--strict` turns either into a failing exit status).

use std::process::Command;

fn run_match(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .arg("match")
        .args(args)
        .output()
        .expect("run shishi match");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "match failed ({:?}):\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Illegal moves: 0, time losses: 0"), "{text}");
    text
}

#[test]
fn one_game_per_variant() {
    let dir = std::env::temp_dir().join(format!("shishi-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    for v in shishi::variant::all() {
        let pgn = dir.join(format!("{}.pgn", v.name));
        let usi = dir.join(format!("{}.usi", v.name));
        let text = run_match(&[
            "--variant",
            v.name,
            "--engine",
            "self",
            "--engine",
            "self",
            "--games",
            "1",
            "--tc",
            "2+0.05",
            "--max-plies",
            "30",
            "--strict",
            "--pgn",
            pgn.to_str().expect("path"),
            "--usi-out",
            usi.to_str().expect("path"),
        ]);
        assert!(text.contains("Game 1 (shishi-1 vs shishi-2)"), "{text}");
        let pgn = std::fs::read_to_string(&pgn).expect("pgn written");
        assert!(pgn.contains(&format!("[Variant \"{}\"]", v.xboard_name)), "{pgn}");
        // The USI record replays legally through the rules core.
        let rec = std::fs::read_to_string(&usi).expect("usi written");
        let line = rec.lines().find(|l| l.starts_with("position sfen ")).expect("position line");
        let (sfen, moves) = line["position sfen ".len()..].split_once(" moves").expect("moves");
        let mut p = shishi::Position::from_sfen(v, sfen).expect("sfen");
        let moves: Vec<&str> = moves.split_whitespace().collect();
        assert!(!moves.is_empty(), "{line}");
        for m in moves {
            let mv = p.parse_usi_move(m).unwrap_or_else(|| panic!("{}: illegal {m} in {}", v.name, p.to_sfen()));
            p.make(mv);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two games of `variant` between this binary over USI and over XBoard, with `extra` match
/// arguments; checks both games were played and returns the output.
fn against_the_xboard_front_end(variant: &str, extra: &[&str]) -> String {
    let exe = env!("CARGO_BIN_EXE_shishi");
    let xb = format!("xb=xboard:{exe} xboard");
    let mut args = vec![
        "--variant",
        variant,
        "--engine",
        "self",
        "--engine",
        &xb,
        "--games",
        "2",
        "--tc",
        "2+0.05",
        "--strict",
    ];
    args.extend_from_slice(extra);
    let text = run_match(&args);
    assert!(text.contains("Game 2 (xb vs shishi)"), "{text}");
    // Each engine's nodes a second, from its own reports (USI `info`, XBoard thinking lines).
    let rates = text
        .lines()
        .find_map(|l| l.strip_prefix("Nodes a second, by the engines' own reports: "))
        .expect("rates line");
    for (name, part) in ["shishi", "xb"].iter().zip(rates.split("; ")) {
        let mut w = part.split_whitespace();
        assert_eq!(w.next(), Some(*name), "{rates}");
        let nps: u64 = w.next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{rates}"));
        assert!(nps > 0, "{rates}");
    }
    text
}

#[test]
fn chu_against_the_xboard_front_end() {
    against_the_xboard_front_end("chushogi", &["--max-plies", "24"]);
}

#[test]
fn xboard_engines_are_told_the_random_opening() {
    // The referee starts from the position after the random plies; an XBoard engine, which gets
    // no SFEN, must be sent those plies first, or it plays from the start position.
    for variant in ["shogi", "shoshogi"] {
        let text = against_the_xboard_front_end(variant, &["--random-plies", "6", "--max-plies", "16"]);
        assert!(!text.contains("claim") && !text.contains("illegal move"), "{text}");
    }
}

#[test]
fn pgn_moves_carry_the_score_depth_and_time_of_both_protocols() {
    // Each move's comment reads like cutechess-cli's: `{+0.35/12 0.512s}`, the mover's last
    // reported score and depth (USI `info`, XBoard thinking output after `post`) and its time.
    let dir = std::env::temp_dir().join(format!("shishi-comments-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let pgn = dir.join("games.pgn");
    // Random plies first, out of the engines' books (a book move reports no search).
    let args = ["--random-plies", "8", "--max-plies", "20", "--pgn", pgn.to_str().expect("path")];
    against_the_xboard_front_end("shogi", &args);
    let text = std::fs::read_to_string(&pgn).expect("pgn written");
    let mut games = 0;
    for game in text.split("[Event ").skip(1) {
        let body = game.split("]\n\n").last().expect("movetext").replace('\n', " ");
        let comments: Vec<&str> = body.split('{').skip(1).filter_map(|c| c.split_once('}').map(|(c, _)| c)).collect();
        // Every move has one, then the termination's.
        let (moves, last) = comments.split_at(comments.len() - 1);
        let mut outside = String::new();
        for part in body.split('{') {
            outside.push_str(part.split_once('}').map_or(part, |(_, rest)| rest));
        }
        let plies = outside.split_whitespace().filter(|w| !w.ends_with('.') && !w.contains('-')).count();
        assert!(plies >= 2 && moves.len() == plies, "{game}");
        assert!(!last[0].ends_with('s'), "{game}");
        // Which colours reported a search (the first player's moves are the even ones).
        let mut searched = [false; 2];
        for (i, c) in moves.iter().enumerate() {
            let (eval, time) = c.rsplit_once(' ').map_or((None, *c), |(e, t)| (Some(e), t));
            if let Some(eval) = eval {
                let (score, depth) = eval.split_once('/').unwrap_or_else(|| panic!("comment '{c}' in {game}"));
                assert!(
                    score.starts_with(['+', '-']) && score[1..].trim_start_matches('M').parse::<f64>().is_ok(),
                    "{c}"
                );
                assert!(depth.parse::<u32>().is_ok_and(|d| d >= 1), "{c}");
                searched[i % 2] = true;
            }
            let secs = time.strip_suffix('s').and_then(|t| t.parse::<f64>().ok()).unwrap_or(-1.0);
            assert!((0.0..2.5).contains(&secs), "{c}");
        }
        assert_eq!(searched, [true, true], "{game}");
        games += 1;
    }
    assert_eq!(games, 2, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_errors() {
    for args in [
        vec!["--variant", "nosuch", "--engine", "self", "--engine", "self"],
        vec!["--engine", "self", "--engine", "carrier:pigeon"],
        vec!["--engine", "self", "--engine", "self", "--tc", "fast"],
        vec!["--engine", "self"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_shishi")).arg("match").args(&args).output().expect("run");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn xboard_moves_sent_one_leg_per_line_are_joined() {
    // A scripted engine plays a lion igui as `move g5g6,` then `move g6g5` (HaChu's way), then
    // resigns; the referee must read the two lines as one legal double move.
    let dir = std::env::temp_dir().join(format!("shishi-legs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "sfen k11/12/12/12/12/12/6p5/6N5/12/12/12/11K b - 1\n").expect("write openings");
    let records = dir.join("games.usi");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fake-xboard-legs.sh");
    let fake = format!("fake=xboard:bash {script}");
    let text = run_match(&[
        "--variant",
        "chushogi",
        "--engine",
        &fake,
        "--engine",
        "self",
        "--games",
        "1",
        "--openings",
        openings.to_str().expect("path"),
        "--tc",
        "5+0.1",
        "--usi-out",
        records.to_str().expect("path"),
        "--strict",
    ]);
    assert!(text.contains("fake resigns"), "{text}");
    let record = std::fs::read_to_string(&records).expect("records");
    assert!(record.contains(" moves 6h6g6h"), "{record}");
    let _ = std::fs::remove_dir_all(&dir);
}
