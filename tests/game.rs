//! Game end: checkmate, stalemate (a loss), fourth repetition (draw) and perpetual check (the
//! checking side loses).

mod common;
use common::pos;
use shishi::game::Outcome;
use shishi::piece::Color;

fn play(variant: &str, sfen: &str, moves: &[&str]) -> shishi::Position {
    let mut p = pos(variant, sfen);
    for m in moves {
        assert_eq!(p.outcome(), None, "game over before {m}");
        let mv = p.parse_usi_move(m).unwrap_or_else(|| panic!("{m} illegal"));
        p.make(mv);
    }
    p
}

#[test]
fn fourth_repetition_is_a_draw() {
    let cycle = ["5i5h", "5a5b", "5h5i", "5b5a"];
    let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    let mut p = play("shogi", "4k4/9/9/9/9/9/9/9/4K4 b - 1", &moves);
    assert_eq!(p.occurrences(), 4);
    assert_eq!(p.outcome(), Some(Outcome::Draw("fourth repetition")));
}

#[test]
fn perpetual_check_loses() {
    let cycle = ["5a5b", "9a9b", "5b5a", "9b9a"];
    let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    let mut p = play("shogi", "R3k4/9/9/9/9/9/9/9/4K4 w - 1", &moves);
    assert_eq!(p.outcome(), Some(Outcome::Win(Color::White, "perpetual check")));
}

#[test]
fn the_perpetual_checker_of_a_cycle() {
    // After 5a5b 9a9b 5b5a 9b9a, black has checked with both its moves and white with none.
    let cycle = ["5a5b", "9a9b", "5b5a", "9b9a"];
    let mut p = play("shogi", "R3k4/9/9/9/9/9/9/9/4K4 w - 1", &cycle);
    let (sfen, hash) = (p.to_sfen(), p.hash());
    assert_eq!(p.cycle_checkers(4), Some([true, false]));
    assert_eq!(p.perpetual_checker(4), Some(Color::Black));
    assert_eq!((p.to_sfen(), p.hash(), p.history().len()), (sfen, hash, 4), "position restored");
    // Only the last two plies: white's king move did not check, black's rook move did.
    assert_eq!(p.perpetual_checker(2), Some(Color::Black));
    // A quiet cycle has no checker; a cycle longer than the history has no verdict.
    let quiet = ["5i5h", "5a5b", "5h5i", "5b5a"];
    let mut q = play("shogi", "4k4/9/9/9/9/9/9/9/4K4 b - 1", &quiet);
    assert_eq!(q.perpetual_checker(4), None);
    assert_eq!(q.cycle_checkers(6), None);
}

#[test]
fn mate_and_stalemate_lose() {
    let mut p = pos("shogi", "4k4/9/9/9/9/9/4l4/4g4/4K4 b - 1");
    assert_eq!(p.outcome(), Some(Outcome::Win(Color::White, "checkmate")));
    // Cannon Shosu: stalemate loses too.
    let mut p = pos("cannonshosu", "1r7k/10/10/10/10/10/10/10/9r/K9 b - 1");
    assert_eq!(p.outcome(), Some(Outcome::Win(Color::White, "no legal move")));
}

#[test]
fn bare_king_rule_when_switched_on() {
    let v = shishi::Variant::by_name("shoshogi").expect("sho");
    // White is left with a lone king; black has a gold. White to move cannot bare black.
    let mut p = shishi::Position::from_sfen(v, "4k4/9/9/9/9/9/9/3G5/4K4 w - 1").expect("sfen");
    assert_eq!(p.outcome(), None, "rule off by default");
    p.set_bare_king(true);
    assert_eq!(p.outcome(), Some(shishi::game::Outcome::Win(shishi::piece::Color::Black, "bare king")));
    // If the bare side can take the last piece, baring the other side, the game goes on.
    let mut q = shishi::Position::from_sfen(v, "4k4/4G4/9/9/9/9/9/9/4K4 w - 1").expect("sfen");
    q.set_bare_king(true);
    assert_eq!(q.outcome(), None);
    let m = q.parse_usi_move("5a5b").expect("take the gold");
    q.make(m);
    assert_eq!(q.outcome(), Some(shishi::game::Outcome::Draw("both sides bare")));
    // Chu: a lone pawn does not claim the win.
    let c = shishi::Variant::by_name("chushogi").expect("chu");
    let mut r = shishi::Position::from_sfen(c, "6k5/12/12/12/12/12/12/12/6P5/12/12/6K5 w - 1").expect("sfen");
    r.set_bare_king(true);
    assert_eq!(r.outcome(), None);
}

/// The repetition test looks back only to the last capture or promotion where there are no
/// drops, and not at all when the history filter has nothing in the position's slot; in
/// games steered into cycles (a side undoes its previous move whenever it can, else plays a
/// pseudo-random move, capturing or promoting now and then), it finds exactly the earlier
/// positions a walk over the whole history finds, and the filter stays that of the history.
#[test]
fn bounded_repetition_walk_finds_what_the_full_walk_finds() {
    for v in shishi::variant::all() {
        let mut p = shishi::Position::startpos(v);
        let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ v.name.len() as u64;
        let mut repeats = 0;
        for _ in 0..400 {
            let hist = p.history();
            let full: Vec<usize> = (2..=hist.len()).step_by(2).filter(|&i| hist[hist.len() - i].hash == p.hash()).collect();
            assert_eq!(p.earlier_occurrences().collect::<Vec<_>>(), full, "{} {}", v.name, p.to_sfen());
            assert_eq!(p.check_invariants(), Ok(()), "{}", v.name);
            repeats += full.len();
            if p.outcome().is_some() {
                break;
            }
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            common::next_random(&mut seed);
            // Our move two plies back, reversed, if it is legal here (drops cannot be).
            let back = p.history().len().checked_sub(2).map(|i| p.history()[i].mv);
            let undo = back.and_then(|m| {
                moves
                    .iter()
                    .copied()
                    .find(|r| !m.is_drop() && !r.is_drop() && r.from() == m.to() && r.to() == m.from() && !r.is_promotion())
            });
            let m = match undo {
                Some(r) if !seed.is_multiple_of(8) => r,
                _ => moves[(seed >> 11) as usize % moves.len()],
            };
            p.make(m);
        }
        assert!(repeats > 0, "{}: no repetition to test", v.name);
    }
}
