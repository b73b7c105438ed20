//! Chu shogi description (12x12, lions, no drops). Letters follow lishogi / WinBoard.

use super::{Atom, DIAG, GOLD, KING, ORTH, PromoRule, Ride, RoyalRule, SILVER, Variant, atoms, base, leap, piece, slide};

fn lion_power(dirs: &[(i8, i8)]) -> Vec<Atom> {
    atoms(Ride::Lion, super::MC, 0, dirs)
}

const VERT: &[(i8, i8)] = &[(0, 1), (0, -1)];
const SIDE: &[(i8, i8)] = &[(1, 0), (-1, 0)];
const BACK_DIAG: &[(i8, i8)] = &[(1, -1), (-1, -1)];
const FWD_DIAG: &[(i8, i8)] = &[(1, 1), (-1, 1)];
const ELEPHANT: &[(i8, i8)] = &[(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (1, -1), (-1, -1)];

/// Chu shogi.
pub(super) fn chushogi() -> Variant {
    let dragon = || [slide(ORTH), leap(DIAG)].concat();
    let horse = || [slide(DIAG), leap(ORTH)].concat();
    let elephant = || leap(ELEPHANT);
    let kirin = [leap(DIAG), leap(&[(0, 2), (2, 0), (0, -2), (-2, 0)])].concat();
    let phoenix = [leap(ORTH), leap(&[(2, 2), (2, -2), (-2, -2), (-2, 2)])].concat();
    // Values: the German Chu Shogi Association's averages quoted by the seed (pawn = 100).
    let pieces = vec![
        piece("king", "K", 0, leap(KING)).royal(),
        piece("queen", "Q", 1200, slide(KING)),
        piece("lion", "N", 2000, lion_power(&[(0, 0)])).lion(),
        piece("dragon king", "D", 800, dragon()).promotes("+D"),
        piece("dragon horse", "H", 700, horse()).promotes("+H"),
        piece("rook", "R", 600, slide(ORTH)).promotes("+R"),
        piece("bishop", "B", 500, slide(DIAG)).promotes("+B"),
        piece("kirin", "O", 300, kirin).promotes("+O"),
        piece("phoenix", "X", 300, phoenix).promotes("+X"),
        piece("drunk elephant", "E", 300, elephant()).promotes("+E"),
        piece("blind tiger", "T", 300, leap(&[(1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1), (1, -1), (-1, -1)])).promotes("+T"),
        piece("ferocious leopard", "F", 300, leap(&[(0, 1), (1, 1), (-1, 1), (0, -1), (1, -1), (-1, -1)])).promotes("+F"),
        piece("gold", "G", 300, leap(GOLD)).promotes("+G"),
        piece("silver", "S", 200, leap(SILVER)).promotes("+S"),
        piece("copper", "C", 200, leap(&[(0, 1), (1, 1), (-1, 1), (0, -1)])).promotes("+C"),
        piece("vertical mover", "V", 400, [slide(VERT), leap(SIDE)].concat()).promotes("+V"),
        piece("side mover", "M", 400, [slide(SIDE), leap(VERT)].concat()).promotes("+M"),
        piece("reverse chariot", "A", 300, slide(VERT)).promotes("+A"),
        piece("lance", "L", 300, slide(&[(0, 1)])).promotes("+L").last_rank_choice(),
        piece("go-between", "I", 100, leap(VERT)).promotes("+I").cheap(),
        piece("pawn", "P", 100, leap(&[(0, 1)])).promotes("+P").pawn().last_rank_choice().cheap(),
        piece("soaring eagle", "+D", 1100, [slide(ORTH), slide(BACK_DIAG), lion_power(FWD_DIAG)].concat()),
        piece(
            "horned falcon",
            "+H",
            1000,
            [slide(DIAG), slide(&[(1, 0), (-1, 0), (0, -1)]), lion_power(&[(0, 1)])].concat(),
        ),
        piece("dragon king", "+R", 800, dragon()),
        piece("dragon horse", "+B", 700, horse()),
        piece("lion", "+O", 2000, lion_power(&[(0, 0)])).lion(),
        piece("queen", "+X", 1200, slide(KING)),
        piece("crown prince", "+E", 400, leap(KING)).royal(),
        piece(
            "flying stag",
            "+T",
            600,
            [slide(VERT), leap(&[(1, 1), (-1, 1), (1, 0), (-1, 0), (1, -1), (-1, -1)])].concat(),
        ),
        piece("bishop", "+F", 500, slide(DIAG)),
        piece("rook", "+G", 600, slide(ORTH)),
        piece("vertical mover", "+S", 400, [slide(VERT), leap(SIDE)].concat()),
        piece("side mover", "+C", 400, [slide(SIDE), leap(VERT)].concat()),
        piece("flying ox", "+V", 800, [slide(VERT), slide(DIAG)].concat()),
        piece("free boar", "+M", 800, [slide(SIDE), slide(DIAG)].concat()),
        piece("whale", "+A", 500, [slide(VERT), slide(BACK_DIAG)].concat()),
        piece("white horse", "+L", 700, [slide(VERT), slide(FWD_DIAG)].concat()),
        piece("drunk elephant", "+I", 300, elephant()),
        piece("gold", "+P", 300, leap(GOLD)),
    ];
    let mut v = base(
        "chushogi",
        "chu",
        &["chu"],
        (12, 12),
        pieces,
        "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
    );
    v.drops = false;
    v.zone_depth = 4;
    v.promo_rule = PromoRule::Chu;
    v.two_pawn = false;
    v.pawn_drop_mate_illegal = false;
    v.royal_rule = RoyalRule::Capture;
    v.lion_rules = true;
    v
}
