//! Static exchange evaluation on positions where attack sets are not additive: a cannon
//! loses its screen when the capturer leaves it, keeps it when the screen stays, and a lion
//! takes twice. Also checks that the generation of captures, and that of the other moves,
//! each give their part of the legal moves in order.

mod common;

use shishi::{Position, Variant};

fn see(variant: &str, sfen: &str, mv: &str) -> i32 {
    let v = Variant::by_name(variant).expect("variant");
    let mut p = Position::from_sfen(v, sfen).expect("sfen");
    let m = p.parse_usi_move(mv).unwrap_or_else(|| panic!("{mv} is not legal"));
    let before = (p.to_sfen(), p.hash());
    let s = p.see(m);
    assert_eq!((p.to_sfen(), p.hash()), before, "see must restore the position");
    assert!(p.see_ge(m, s));
    assert!(!p.see_ge(m, s + 1));
    s
}

#[test]
fn plain_exchanges() {
    // Rook takes a pawn defended by a gold: loses the rook for a pawn.
    assert_eq!(see("shogi", "k8/9/4g4/4p4/9/9/9/9/4R3K b - 1", "5i5d"), 100 - 1000);
    // Undefended silver.
    assert_eq!(see("shogi", "k8/9/9/4s4/9/9/9/9/4R3K b - 1", "5i5d"), 520);
}

#[test]
fn cannon_screens_follow_the_exchange() {
    // The rook is the cannon's only screen: once it has taken on 5c, the cannon cannot recapture.
    assert_eq!(see("cannonshogi", "k3u4/4R4/4s4/9/9/9/9/9/8K b - 1", "5b5c"), 520);
    // With promotion the gain grows by the dragon's extra value.
    assert_eq!(see("cannonshogi", "k3u4/4R4/4s4/9/9/9/9/9/8K b - 1", "5b5c+"), 520 + 300);
    // The pawn on 5b stays as the screen: the cannon wins the rook back.
    assert_eq!(see("cannonshogi", "k3u4/4P4/4s4/9/9/9/9/9/4R3K b - 1", "5i5c"), 520 - 1000);
}

#[test]
fn lion_exchanges() {
    let sfen = "k11/12/12/12/12/6p5/6p5/6N5/12/12/12/11K b - 1";
    let v = Variant::by_name("chushogi").expect("chu");
    let value = |sfen: &str| v.piece(v.kind_by_sfen(sfen).expect("kind")).value;
    // A lion taking a defended pawn is lost for it.
    assert_eq!(see("chushogi", sfen, "6h6g"), value("P") - value("N"));
    // Taking both pawns in one double move leaves nothing to recapture.
    assert_eq!(see("chushogi", sfen, "6h6g6f"), 2 * value("P"));
}

#[test]
fn capture_and_quiet_generation_split_the_legal_moves_in_order() {
    for v in shishi::variant::all() {
        let mut p = Position::startpos(v);
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200 {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            // Both parts come in the order of the whole list, so that the search, which
            // generates them apart, orders its moves as if from the whole list.
            let want: Vec<u32> = legal.iter().filter(|m| p.is_capture(**m)).map(|m| m.0).collect();
            let mut caps = shishi::moves::MoveList::new();
            p.legal_captures_into(&mut caps);
            let got: Vec<u32> = caps.iter().map(|m| m.0).collect();
            assert_eq!(got, want, "captures {} {}", v.name, p.to_sfen());
            let want: Vec<u32> = legal.iter().filter(|m| !p.is_capture(**m)).map(|m| m.0).collect();
            let mut quiets = shishi::moves::MoveList::new();
            p.legal_quiets_into(&mut quiets);
            let got: Vec<u32> = quiets.iter().map(|m| m.0).collect();
            assert_eq!(got, want, "non-captures {} {}", v.name, p.to_sfen());
            common::next_random(&mut seed);
            // Prefer captures now and then so that the games reach tactical positions.
            let m = if !caps.is_empty() && seed.is_multiple_of(3) {
                caps[(seed >> 8) as usize % caps.len()]
            } else {
                legal[(seed >> 8) as usize % legal.len()]
            };
            p.make(m);
            if p.royals(p.side_to_move()).is_empty() {
                break;
            }
        }
    }
}
