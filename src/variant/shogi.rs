//! Standard shogi and sho shogi descriptions.

use super::{DIAG, GOLD, KING, ORTH, PieceDef, SILVER, Variant, base, leap, piece, slide};

/// Pieces shared by the shogi family (everything but the king), in hand order.
pub(super) fn shogi_army() -> Vec<PieceDef> {
    vec![
        piece("rook", "R", 1000, slide(ORTH)).promotes("+R"),
        piece("bishop", "B", 850, slide(DIAG)).promotes("+B"),
        piece("gold", "G", 600, leap(GOLD)),
        piece("silver", "S", 520, leap(SILVER)).promotes("+S"),
        piece("knight", "N", 380, leap(&[(1, 2), (-1, 2)])).promotes("+N").forced(2),
        piece("lance", "L", 340, slide(&[(0, 1)])).promotes("+L").forced(1),
        piece("pawn", "P", 100, leap(&[(0, 1)])).promotes("+P").forced(1).pawn(),
        piece("dragon", "+R", 1300, [slide(ORTH), leap(DIAG)].concat()),
        piece("horse", "+B", 1100, [slide(DIAG), leap(ORTH)].concat()),
        piece("promoted silver", "+S", 600, leap(GOLD)),
        piece("promoted knight", "+N", 600, leap(GOLD)),
        piece("promoted lance", "+L", 600, leap(GOLD)),
        piece("tokin", "+P", 650, leap(GOLD)),
    ]
}

/// Standard shogi.
pub(super) fn shogi() -> Variant {
    let mut pieces = vec![piece("king", "K", 0, leap(KING)).royal()];
    pieces.extend(shogi_army());
    let mut v = base(
        "shogi",
        "shogi",
        &["standard"],
        (9, 9),
        pieces,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    );
    v.declaration = (&["R", "B", "+R", "+B"], [28, 27]);
    v
}

/// Sho shogi: no drops, drunk elephant promoting to a royal crown prince.
pub(super) fn shoshogi() -> Variant {
    let mut pieces = vec![piece("king", "K", 0, leap(KING)).royal()];
    pieces.extend(shogi_army());
    pieces.insert(
        4,
        piece("drunk elephant", "E", 550, leap(&[(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (1, -1), (-1, -1)])).promotes("+E"),
    );
    pieces.push(piece("crown prince", "+E", 700, leap(KING)).royal());
    let mut v = base(
        "shoshogi",
        "sho",
        &["sho"],
        (9, 9),
        pieces,
        "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1",
    );
    v.drops = false;
    v.two_pawn = false;
    v.pawn_drop_mate_illegal = false;
    v
}
