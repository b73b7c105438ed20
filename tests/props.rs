//! Property tests: over random games in every variant, the incremental hash equals a full
//! recompute, every invariant holds, make/unmake restores the position, and SFEN round-trips;
//! the SFEN and move parsers never panic on arbitrary input.

use proptest::prelude::*;
use shishi::notation::{move_to_usi, parse_usi};
use shishi::{Position, Variant};

fn variant(i: usize) -> &'static Variant {
    shishi::variant::all()[i % shishi::variant::all().len()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    #[test]
    fn random_games_keep_invariants(vi in 0usize..6, choices in prop::collection::vec(any::<u32>(), 1..120)) {
        let v = variant(vi);
        let mut pos = Position::startpos(v);
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[c as usize % moves.len()];
            let before = (pos.to_sfen(), pos.hash());
            pos.make(m);
            prop_assert_eq!(pos.check_invariants(), Ok(()), "after {}", move_to_usi(v, m));
            if pos.royals(pos.side_to_move()).is_empty() {
                // Chu: the last royal was captured; the game is over and has no legal moves.
                prop_assert!(pos.legal_moves().is_empty());
                break;
            }
            let sfen = pos.to_sfen();
            let back = Position::from_sfen(v, &sfen);
            prop_assert!(back.is_ok(), "{} does not re-parse: {:?}", sfen, back.err());
            let back = back.unwrap();
            prop_assert_eq!(back.to_sfen(), sfen.clone());
            prop_assert_eq!(back.hash(), pos.hash());
            // The move's text reads back as the same move in the position before it.
            pos.unmake();
            prop_assert_eq!((pos.to_sfen(), pos.hash()), before);
            let text = move_to_usi(v, m);
            prop_assert_eq!(pos.parse_usi_move(&text), Some(m), "{} does not read back", text);
            pos.make(m);
        }
    }

    #[test]
    fn sfen_parser_never_panics(vi in 0usize..6, text in "\\PC{0,80}") {
        let _ = Position::from_sfen(variant(vi), &text);
    }

    #[test]
    fn mutated_sfens_never_panic(vi in 0usize..6, edits in prop::collection::vec((any::<usize>(), "[0-9a-zA-Z+/ *-]"), 1..6)) {
        let v = variant(vi);
        let mut s: Vec<char> = v.start_sfen.chars().collect();
        for (at, ch) in edits {
            let i = at % (s.len() + 1);
            let c = ch.chars().next().unwrap_or('x');
            if at % 3 == 0 && i < s.len() { s.remove(i); } else if at % 3 == 1 && i < s.len() { s[i] = c; } else { s.insert(i, c); }
        }
        let text: String = s.into_iter().collect();
        if let Ok(mut p) = Position::from_sfen(v, &text) {
            prop_assert_eq!(p.check_invariants(), Ok(()));
            let _ = p.legal_moves();
        }
    }

    #[test]
    fn move_parser_never_panics(vi in 0usize..6, text in "[0-9a-z*+=A-Z]{0,12}") {
        let v = variant(vi);
        let _ = parse_usi(v, &text);
        let mut p = Position::startpos(v);
        let _ = p.parse_usi_move(&text);
    }
}

#[test]
fn sfen_errors_are_typed() {
    use shishi::position::sfen::SfenError as E;
    let v = Variant::by_name("shogi").unwrap();
    let err = |s: &str| Position::from_sfen(v, s).err();
    assert_eq!(err(""), Some(E::MissingField("board")));
    assert_eq!(err("9/9/9/9/9/9/9/9/9"), Some(E::MissingField("side to move")));
    assert!(matches!(err("9/9/9 b - 1"), Some(E::RankCount { expected: 9, found: 3 })));
    assert!(matches!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1"),
        Some(E::RankWidth { rank: 'i', .. })
    ));
    assert!(matches!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - x"),
        Some(E::BadMoveNumber(_))
    ));
    assert!(matches!(
        err("lnsgkgsnl/1r5b1/pppppppp1/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1"),
        Some(E::BadSide(_))
    ));
    assert!(matches!(
        err("lnsgkgsnl/1r5b1/ppppppppx/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        Some(E::UnknownPiece(_))
    ));
    assert!(matches!(
        err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL b - 1"),
        Some(E::UnknownPiece(_))
    ));
    assert!(matches!(err("4k4/9/9/9/9/9/9/9/9 b - 1"), Some(E::MissingRoyal(_))));
    assert!(matches!(err("4k4/9/9/9/9/4P4/4P4/9/4K4 b - 1"), Some(E::TwoPawns { file: 5 })));
    assert!(matches!(err("4k3P/9/9/9/9/9/9/9/4K4 b - 1"), Some(E::DeadPiece { .. })));
    assert!(matches!(err("4k4/9/9/9/9/9/9/9/4K4 b 19P 1"), Some(E::TooManyPieces { .. })));
    assert!(matches!(err("4k4/9/9/9/9/9/9/9/4K4 b K 1"), Some(E::NotInHand(_))));
    assert!(matches!(err("4k4/9/9/9/9/9/9/9/4K4 b 2 1"), Some(E::BadHand(_))));
    assert!(matches!(err("4k4/4R4/9/9/9/9/9/9/4K4 b - 1"), Some(E::OpponentInCheck)));
    let sho = Variant::by_name("sho").unwrap();
    assert!(matches!(Position::from_sfen(sho, "4k4/9/9/9/9/9/9/9/4K4 b P 1"), Err(E::NotInHand(_))));
    let chu = Variant::by_name("chu").unwrap();
    assert!(matches!(
        Position::from_sfen(chu, "k11/12/12/12/12/12/12/12/12/12/12/11K b 13z 1"),
        Err(E::BadCounterStrike(_))
    ));
    // A counter-strike square may be empty: a lion-power double move that took the lion on its
    // first leg went on (a position the engine itself reaches; found by the random games above).
    let went_on = "l1cse1kgbc1l/afbgtxots1fa/m1rhq4rvm/+H1pp1dpdp1pp/3ipp6/8i1Ph/9p2/2PI3+D1PHP/PP1P4DXV1/MVR3R4M/AFBS1N1T1B1A/L1CTGKEGSCFL w 6g 66";
    let p = Position::from_sfen(chu, went_on).expect("an empty counter-strike square reads");
    assert_eq!(p.to_sfen(), went_on);
    // It may not hold a piece of the side to move (White's lance on 1a).
    assert!(matches!(
        Position::from_sfen(chu, &went_on.replace(" 6g ", " 1a ")),
        Err(E::CounterStrikeOwnPiece(_))
    ));
    // Every error has a message naming the problem.
    assert!(E::TwoPawns { file: 5 }.to_string().contains("two-pawn"));
}

#[test]
fn start_positions_round_trip() {
    for v in shishi::variant::all() {
        let p = Position::startpos(v);
        assert_eq!(p.to_sfen(), v.start_sfen, "{}", v.name);
        assert_eq!(p.check_invariants(), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// `is_legal` (used to try a hash move, a killer or a counter move before generating)
    /// agrees with the legal move list, for the legal moves themselves, for those of the
    /// positions two and one plies before (moves of pieces that may have gone or been
    /// blocked, as killers are), and for arbitrary move values.
    #[test]
    fn is_legal_agrees_with_generation(vi in 0usize..6, choices in prop::collection::vec(any::<u32>(), 1..80), junk in prop::collection::vec(any::<u32>(), 40)) {
        let v = variant(vi);
        let mut pos = Position::startpos(v);
        let mut before: [shishi::moves::MoveList; 2] = Default::default();
        for c in choices {
            let moves = pos.legal_moves();
            for &m in moves.iter() {
                prop_assert!(pos.is_legal(m), "{} should be legal in {}", move_to_usi(v, m), pos.to_sfen());
            }
            for &m in before.iter().flatten() {
                prop_assert_eq!(pos.is_legal(m), moves.contains(&m), "{} in {}", move_to_usi(v, m), pos.to_sfen());
            }
            before = [before[1].clone(), moves.clone()];
            for &j in &junk {
                // Keep the junk near real moves: random squares, flags and kinds.
                let m = shishi::Move(j & 0x03FF_FFFF);
                prop_assert_eq!(pos.is_legal(m), moves.contains(&m), "{:#x} in {}", m.0, pos.to_sfen());
            }
            if moves.is_empty() {
                break;
            }
            pos.make(moves[c as usize % moves.len()]);
            if pos.royals(pos.side_to_move()).is_empty() {
                break;
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// `attack_count(s, us)` on a square holding an enemy piece equals the number of our
    /// pieces that have a capture onto it (hoppers, rangers and lions included).
    #[test]
    fn attack_count_agrees_with_generated_captures(vi in 0usize..6, choices in prop::collection::vec(any::<u32>(), 1..80)) {
        let v = variant(vi);
        let mut pos = Position::startpos(v);
        for c in choices {
            let us = pos.side_to_move();
            let mut caps = shishi::moves::MoveList::new();
            pos.generate_captures(&mut caps);
            for s in pos.occupied(us.flip()).iter() {
                let mut froms: Vec<u16> = caps.iter().filter(|m| !m.is_drop() && m.to() == s).map(|m| m.from() as u16).collect();
                froms.sort_unstable();
                froms.dedup();
                prop_assert_eq!(pos.attack_count(s, us) as usize, froms.len(), "{} square {}", pos.to_sfen(), s);
                prop_assert_eq!(pos.attacked(s, us), !froms.is_empty());
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves[c as usize % moves.len()]);
            if pos.royals(pos.side_to_move()).is_empty() {
                break;
            }
        }
    }
}
