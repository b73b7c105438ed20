//! Rule tests on crafted positions: cannons of each kind, two-pawn, pawn-drop mate, dead
//! squares, forced promotion, sho royals.

mod common;
use common::{check, legal};

#[test]
fn two_pawn_rule() {
    // Black pawn on file 5: no pawn drop there; other files fine; a tokin does not count.
    let l = legal("shogi", "4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    assert!(!l.iter().any(|m| m.starts_with("P*5")), "nifu drop generated: {l:?}");
    assert!(l.contains(&"P*4e".to_string()));
    check("shogi", "4k4/9/9/9/9/9/4+P4/9/4K4 b P 1", &["P*5e"], &[]);
    // Pychess cannon shogi has no two-pawn rule.
    check("cannonshogi", "4k4/9/9/9/9/9/4P4/9/4K4 b P 1", &["P*5e"], &[]);
    // The wiki reading does.
    check("cannonshogi-wiki", "4k4/9/9/9/9/9/4P4/9/4K4 b P 1", &["P*4e"], &["P*5e"]);
}

#[test]
fn pawn_drop_mate() {
    // P*9b mates (the gold on 8c guards 9b; 8a/8b are own pieces): illegal; other drops legal.
    check("shogi", "kn7/1l7/1G7/9/9/9/9/9/8K b P 1", &["P*9d", "P*1e"], &["P*9b"]);
    // A checking pawn drop that is not mate is legal.
    check("shogi", "kn7/1g7/9/1N7/9/9/9/9/8K b P 1", &["P*9b"], &[]);
    // Pychess cannon shogi allows pawn-drop mate.
    check("cannonshogi", "6lnk/9/7S1/9/9/9/9/9/4KG3 b P 71", &["P*1b"], &[]);
    // Wiki reading: in front and beside the king (the pawn checks sideways) are both illegal.
    check("cannonshogi-wiki", "7bl/8k/2p3S2/7G1/9/9/9/9/4KG3 b P 71", &["P*5e"], &["P*1c", "P*2b"]);
    // Cannon Shosu: a pawn drop that mates by becoming a cannon's screen is illegal.
    check("cannonshosu", "8lk/8p1/2p7/10/10/10/10/10/6B3/4KG3C b P 101", &["P*5e"], &["P*1e", "P*1i"]);
}

#[test]
fn dead_squares_and_drops() {
    let l = legal("shogi", "4k4/9/9/9/9/9/9/9/4K4 b NLP 1");
    for bad in ["N*1a", "N*1b", "L*1a", "P*1a"] {
        assert!(!l.contains(&bad.to_string()), "{bad} generated");
    }
    for good in ["N*1c", "L*1b", "P*1b"] {
        assert!(l.contains(&good.to_string()), "{good} missing");
    }
    // White's dead ranks are at the bottom.
    let l = legal("shogi", "4k4/9/9/9/9/9/9/9/4K4 w nlp 1");
    assert!(!l.contains(&"N*1h".to_string()) && !l.contains(&"P*1i".to_string()));
    assert!(l.contains(&"N*1g".to_string()) && l.contains(&"L*1h".to_string()));
    // A pychess soldier can still move sideways on the last rank: it may be dropped there.
    check("cannonshogi", "4k4/9/9/9/9/9/9/9/4K4 b P 1", &["P*1a"], &[]);
}

#[test]
fn forced_and_optional_promotion() {
    // Pawn to the last rank must promote; knight to rank b must promote, to rank c may.
    check(
        "shogi",
        "4k4/6P2/9/2N6/1N7/9/9/9/4K4 b - 1",
        &["3b3a+", "7d6b+", "8e7c", "8e7c+"],
        &["3b3a", "7d6b"],
    );
    // Silver leaving the zone may promote; gold never promotes.
    check("shogi", "4k4/9/6S2/9/9/9/9/9/4K1G2 b - 1", &["3c4d+", "3c4d"], &["3i3h+"]);
    // Wiki pawn promotion on the last rank is forced even though it moves sideways.
    check("cannonshogi-wiki", "4k4/6P2/9/9/9/9/9/9/4K4 b - 1", &["3b3a+", "3b4b", "3b4b+"], &["3b3a"]);
    // Pychess soldier may stay unpromoted on the last rank.
    check("cannonshogi", "4k4/6P2/9/9/9/9/9/9/4K4 b - 1", &["3b3a+", "3b3a"], &[]);
}

#[test]
fn xiangqi_and_janggi_cannons() {
    // Gold cannon U (xiangqi): slides quietly, captures over exactly one screen.
    check("cannonshogi", "k8/9/9/9/4p4/9/4P4/4U4/4K4 b - 1", &["5h5e", "5h4h", "5h1h"], &["5h5f", "5h5g"]);
    // Silver cannon A (janggi): moves and captures only over one screen.
    check("cannonshogi", "k8/9/9/9/4p4/9/4P4/4A4/4K4 b - 1", &["5h5f", "5h5e"], &["5h4h", "5h5d"]);
    // Copper C / iron I: the same diagonally.
    check("cannonshogi", "k8/9/9/9/2p6/9/4P4/5C3/4K4 b - 1", &["4h7e", "4h3g"], &["4h6f"]);
    check("cannonshogi", "k8/9/9/9/2p6/9/4P4/5I3/4K4 b - 1", &["4h6f", "4h7e"], &["4h3g"]);
    // No capture over two screens.
    check("cannonshogi", "k8/9/9/4p4/4p4/9/4P4/4U4/4K4 b - 1", &["5h5e"], &["5h5d"]);
}

#[test]
fn flying_cannons() {
    // +U (pychess): rook moves, orthogonal hop, quiet diagonal step, two-square diagonal hop
    // over an adjacent screen.
    check("cannonshogi", "k8/9/9/9/9/2p6/3P5/4+U4/K8 b - 1", &["5h5a", "5h4g", "5h7f"], &["5h6g", "5h4g+"]);
    // The quiet diagonal step may not capture.
    check("cannonshogi", "k8/9/9/9/9/9/3p5/4+U4/K8 b - 1", &[], &["5h6g"]);
}

#[test]
fn wiki_cannons() {
    // Ranging gold cannon: must jump, may jump several pieces of either side.
    check(
        "cannonshogi-wiki",
        "k8/9/9/9/4p4/9/4P4/4U4/4K4 b - 1",
        &["5h5f", "5h5e", "5h5d", "5h5a"],
        &["5h4h", "5h5g"],
    );
    // Jumping silver cannon: exactly two squares over an adjacent piece; never captures adjacent.
    check("cannonshogi-wiki", "k8/9/9/9/9/9/4P4/4A4/4K4 b - 1", &["5h5f"], &["5h5e", "5h4h"]);
    check("cannonshogi-wiki", "k8/9/9/9/9/9/4p4/4A4/4K4 b - 1", &["5h5f"], &["5h5g"]);
    // Promoted cannons add a king step.
    check("cannonshogi-wiki", "k8/9/9/9/9/9/9/4+A4/K8 b - 1", &["5h5g", "5h4i"], &["5h5f"]);
}

#[test]
fn cannon_screens_and_checks() {
    // Moving a piece onto an open line between the king and an enemy cannon is self-check.
    let l = legal("cannonshogi", "4u3k/9/9/9/9/9/9/3S5/4K4 b - 1");
    assert!(!l.contains(&"6h5g".to_string()), "screen for the enemy cannon created: {l:?}");
    assert!(l.contains(&"6h6g".to_string()));
}

#[test]
fn sho_royals() {
    // Both royals attacked: neither is royal, any move is legal.
    let l = legal("shoshogi", "4l3k/7g1/2p6/9/1+E5b1/9/2P3P2/7R1/3GKS3 b - 51");
    assert_eq!(l.len(), 32);
    assert!(l.contains(&"7g7f".to_string()));
    // Only the prince left: it is royal and must get out of check.
    let l = legal("shoshogi", "3gk4/1b3s3/2p3p2/9/9/9/2P3P2/4+E3r/L2S1G3 b - 41");
    assert_eq!(l.len(), 6);
    assert!(!l.contains(&"7g7f".to_string()));
    // Promoting an elephant does not excuse leaving the single king in check.
    let l = legal("shoshogi", "7gk/4r4/p8/6E2/9/9/1P5P1/9/2S1KG3 b - 33");
    assert!(!l.iter().any(|m| m.starts_with("3d")), "{l:?}");
}

#[test]
fn check_evasions_match_a_brute_force_filter() {
    // Positions in check (a slider from afar, a knight, double checks, cannons, hands full of
    // pieces): the legal list equals every pseudo-legal move that leaves the king unattacked
    // (no pawn drop can mate in them, so pawn-drop mate does not arise).
    for (variant, sfen) in [
        ("shogi", "4k4/9/9/9/4r4/9/9/3S5/4K4 b RBGSNL 1"),
        ("shogi", "4k4/9/9/9/9/9/3n5/9/4K4 b RBGSNL 1"),
        ("shogi", "4k4/9/9/9/4r4/9/3n5/9/4K4 b GSNL 1"),
        ("shogi", "4k4/9/9/9/8b/9/9/4G4/r3K4 b RSNL 1"),
        ("shoshogi", "4k4/9/9/9/4r4/9/9/5E3/4K4 b - 1"),
        ("shogi", "4l3k/9/9/9/9/9/9/9/4K4 b 2PG 1"),
        // Cannons: a check over an enemy screen, over an own screen that may step aside, and a
        // double check (rook, and a cannon over the rook) that one drop between answers.
        ("cannonshogi", "4u3k/9/9/9/4s4/9/9/9/4K4 b RGSNL 1"),
        ("cannonshogi", "4u3k/9/9/9/4S4/9/9/9/4K4 b G 1"),
        ("cannonshogi", "k8/9/4u4/9/9/9/4r4/9/4K4 b GSNL 1"),
        ("cannonshogi-wiki", "k8/9/4u4/9/9/9/4r4/9/4K4 b GSNL 1"),
    ] {
        let v = shishi::Variant::by_name(variant).expect("variant");
        let mut p = shishi::Position::from_sfen(v, sfen).expect("sfen");
        assert!(p.in_check(), "{sfen}");
        let us = p.side_to_move();
        let mut pseudo = shishi::moves::MoveList::new();
        p.generate_pseudo(&mut pseudo);
        let mut brute: Vec<String> = Vec::new();
        for &m in pseudo.iter() {
            p.make(m);
            if !p.royal_attacked(us) {
                brute.push(shishi::notation::move_to_usi(v, m));
            }
            p.unmake();
        }
        let mut got: Vec<String> = p.legal_moves().iter().map(|&m| shishi::notation::move_to_usi(v, m)).collect();
        brute.sort();
        got.sort();
        assert_eq!(got, brute, "{sfen}");
    }
}

#[test]
fn in_check_from_the_last_move_matches_a_full_scan() {
    // Shogi and sho answer `in_check` from the last move alone (a direct or an uncovered
    // check); random games of every variant compare it with a full attack scan, after moves
    // and after null moves, and must meet enough checks for the comparison to mean something.
    for v in shishi::variant::all() {
        let mut checks = 0;
        let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ v.index as u64;
        for _ in 0..30 {
            let mut p = shishi::Position::startpos(v);
            for _ in 0..160 {
                let moves = p.legal_moves();
                if moves.is_empty() || p.royals(p.side_to_move()).is_empty() {
                    break;
                }
                common::next_random(&mut seed);
                p.make(moves[(seed >> 11) as usize % moves.len()]);
                let fast = p.in_check();
                assert_eq!(fast, p.in_check_by_scan(), "{} {}", v.name, p.to_sfen());
                checks += fast as u32;
                if !fast {
                    p.make_null();
                    assert_eq!(p.in_check(), p.in_check_by_scan(), "{} null {}", v.name, p.to_sfen());
                    p.unmake_null();
                }
            }
        }
        assert!(checks >= 20, "{}: only {checks} checks", v.name);
    }
    // Sho with a crown prince beside the king: a royal may stand attacked while its partner
    // lives, so after the partner is taken only a full scan knows (every line to depth 3).
    fn walk(p: &mut shishi::Position, depth: u32) -> u32 {
        let mut taken = 0;
        for m in p.legal_moves() {
            let royals = p.royals(p.side_to_move().flip()).count();
            p.make(m);
            assert_eq!(p.in_check(), p.in_check_by_scan(), "{}", p.to_sfen());
            taken += (p.royals(p.side_to_move()).count() < royals) as u32;
            if depth > 1 {
                taken += walk(p, depth - 1);
            }
            p.unmake();
        }
        taken
    }
    let v = shishi::Variant::by_name("shoshogi").expect("variant");
    let mut p = shishi::Position::from_sfen(v, "4l3k/7g1/2p6/9/1+E5b1/9/2P3P2/7R1/3GKS3 b - 51").expect("sfen");
    assert!(walk(&mut p, 3) > 0, "no royal was taken");
}
