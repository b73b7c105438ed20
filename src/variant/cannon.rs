//! Cannon shogi (both readings) and Cannon Shosu shogi descriptions.

use super::{Atom, CAPTURE, DIAG, GOLD, KING, MC, MOVE, ORTH, PieceDef, Ride, SILVER, Variant, atoms, base, leap, piece, slide};

/// Xiangqi cannon: slides to move, captures over exactly one screen.
fn xiangqi_cannon(dirs: &[(i8, i8)]) -> Vec<Atom> {
    [atoms(Ride::Slide, MOVE, 0, dirs), atoms(Ride::Hop, CAPTURE, 0, dirs)].concat()
}

/// Janggi cannon: moves and captures only by hopping exactly one screen.
fn janggi_cannon(dirs: &[(i8, i8)]) -> Vec<Atom> {
    atoms(Ride::Hop, MC, 0, dirs)
}

/// Pychess flying cannon along `main` lines, with a quiet step and a two-square hop on `side` lines.
fn flying_cannon(main: &[(i8, i8)], side: &[(i8, i8)]) -> Vec<Atom> {
    [
        atoms(Ride::Slide, MOVE, 0, main),
        atoms(Ride::Hop, MC, 0, main),
        atoms(Ride::Leap, MOVE, 0, side),
        atoms(Ride::Hop, MC, 2, side),
    ]
    .concat()
}

const CANNON_START: &str = "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL b - 1";

fn gold_like_promotions() -> Vec<PieceDef> {
    vec![
        piece("dragon", "+R", 1300, [slide(ORTH), leap(DIAG)].concat()),
        piece("horse", "+B", 1100, [slide(DIAG), leap(ORTH)].concat()),
        piece("promoted silver", "+S", 600, leap(GOLD)),
        piece("promoted knight", "+N", 600, leap(GOLD)),
        piece("promoted lance", "+L", 600, leap(GOLD)),
        piece("tokin", "+P", 600, leap(GOLD)),
    ]
}

fn cannon_army(pawn: PieceDef, u: Vec<Atom>, a: Vec<Atom>, c: Vec<Atom>, i: Vec<Atom>, promoted: [Vec<Atom>; 4]) -> Vec<PieceDef> {
    let [pu, pa, pc, pi] = promoted;
    let mut v = vec![
        piece("king", "K", 0, leap(KING)).royal(),
        piece("rook", "R", 1000, slide(ORTH)).promotes("+R"),
        piece("bishop", "B", 800, slide(DIAG)).promotes("+B"),
        piece("gold cannon", "U", 800, u).promotes("+U"),
        piece("silver cannon", "A", 650, a).promotes("+A"),
        piece("copper cannon", "C", 700, c).promotes("+C"),
        piece("iron cannon", "I", 550, i).promotes("+I"),
        piece("gold", "G", 600, leap(GOLD)),
        piece("silver", "S", 520, leap(SILVER)).promotes("+S"),
        piece("knight", "N", 380, leap(&[(1, 2), (-1, 2)])).promotes("+N").forced(2),
        piece("lance", "L", 340, slide(&[(0, 1)])).promotes("+L").forced(1),
        pawn,
        piece("flying gold cannon", "+U", 1000, pu),
        piece("flying silver cannon", "+A", 950, pa),
        piece("flying copper cannon", "+C", 950, pc),
        piece("flying iron cannon", "+I", 900, pi),
    ];
    v.extend(gold_like_promotions());
    v
}

/// Cannon shogi as pychess and Fairy-Stockfish define it.
pub(super) fn cannonshogi() -> Variant {
    let soldier = piece("soldier", "P", 120, leap(&[(0, 1), (1, 0), (-1, 0)])).promotes("+P").pawn();
    let fo = flying_cannon(ORTH, DIAG);
    let fd = flying_cannon(DIAG, ORTH);
    let pieces = cannon_army(
        soldier,
        xiangqi_cannon(ORTH),
        janggi_cannon(ORTH),
        xiangqi_cannon(DIAG),
        janggi_cannon(DIAG),
        [fo.clone(), fo, fd.clone(), fd],
    );
    let mut v = base("cannonshogi", "cannonshogi", &["cannon"], (9, 9), pieces, CANNON_START);
    v.two_pawn = false;
    v.pawn_drop_mate_illegal = false;
    v
}

/// Cannon shogi as the Wikipedia article reads.
pub(super) fn cannonshogi_wiki() -> Variant {
    let pawn = piece("pawn", "P", 120, leap(&[(0, 1), (1, 0), (-1, 0)])).promotes("+P").forced(1).pawn();
    let ranging = |d| atoms(Ride::Range, MC, 0, d);
    let jumping = |d| atoms(Ride::Hop, MC, 2, d);
    let king = leap(KING);
    let promoted = [
        [ranging(ORTH), king.clone()].concat(),
        [jumping(ORTH), king.clone()].concat(),
        [ranging(DIAG), king.clone()].concat(),
        [jumping(DIAG), king].concat(),
    ];
    let pieces = cannon_army(pawn, ranging(ORTH), jumping(ORTH), ranging(DIAG), jumping(DIAG), promoted);
    base("cannonshogi-wiki", "cannonshogi-wiki", &[], (9, 9), pieces, CANNON_START)
}

/// Cannon Shosu shogi (10x10).
pub(super) fn cannonshosu() -> Variant {
    let xc = |d| xiangqi_cannon(d);
    let pieces = vec![
        piece("king", "K", 0, leap(KING)).royal(),
        piece("queen", "Q", 1700, slide(KING)),
        piece("rook", "R", 1000, slide(ORTH)).promotes("+R"),
        piece("bishop", "B", 850, slide(DIAG)).promotes("+B"),
        piece("gold cannon", "C", 750, xc(ORTH)).promotes("+C"),
        piece("silver cannon", "I", 650, xc(DIAG)).promotes("+I"),
        piece("gold", "G", 600, leap(GOLD)).promotes("+G"),
        piece("silver", "S", 520, leap(SILVER)).promotes("+S"),
        piece("knight", "N", 380, leap(&[(1, 2), (-1, 2)])).promotes("+N").forced(2),
        piece("lance", "L", 340, slide(&[(0, 1)])).promotes("+L").forced(1),
        piece("dog", "D", 250, leap(&[(0, 1), (1, -1), (-1, -1)])).promotes("+D"),
        piece("pawn", "P", 100, leap(&[(0, 1)])).promotes("+P").forced(1).pawn(),
        piece("dragon", "+R", 1300, [slide(ORTH), leap(DIAG)].concat()),
        piece("horse", "+B", 1100, [slide(DIAG), leap(ORTH)].concat()),
        piece(
            "rook general",
            "+C",
            1250,
            [
                slide(ORTH),
                leap(DIAG),
                leap(&[(2, 2), (2, -2), (-2, -2), (-2, 2)]),
                atoms(Ride::Hop, CAPTURE, 0, ORTH),
            ]
            .concat(),
        ),
        piece(
            "bishop general",
            "+I",
            1150,
            [
                slide(DIAG),
                leap(ORTH),
                leap(&[(0, 2), (2, 0), (0, -2), (-2, 0)]),
                atoms(Ride::Hop, CAPTURE, 0, DIAG),
            ]
            .concat(),
        ),
        piece("great general", "+G", 750, leap(&[(1, 1), (1, -1), (-1, -1), (-1, 1), (0, 1), (1, 0), (-1, 0)])),
        piece("vice general", "+S", 600, leap(GOLD)),
        piece(
            "white horse",
            "+N",
            550,
            leap(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]),
        ),
        piece("vertical mover", "+L", 600, [leap(&[(1, 0), (-1, 0)]), slide(&[(0, 1), (0, -1)])].concat()),
        piece("side mover", "+D", 550, [leap(&[(0, 1), (0, -1)]), slide(&[(1, 0), (-1, 0)])].concat()),
        piece("tokin", "+P", 600, leap(GOLD)),
    ];
    let mut v = base(
        "cannonshosu",
        "cannonshosu",
        &["cannonshosushogi"],
        (10, 10),
        pieces,
        "lnsgkqgsnl/1rc1ii1cb1/pppppppppp/2d4d2/10/10/2D4D2/PPPPPPPPPP/1BC1II1CR1/LNSGQKGSNL b - 1",
    );
    v.zone_depth = 3;
    v
}
