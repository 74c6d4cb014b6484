//! Vanguard rules that the Interactive Diagram does not model, checked on small hand-counted
//! positions of the built-in `vanguard` (succession, the check rule for a sole royal man,
//! promotion by a swap, the moved-man marker), each against the diagram import where the two
//! must differ. Letters: see the built-in variant file (K king, J prince, Q queen, A princess,
//! W wizard, H helepolis, P pawn, R rook).

use crate::common;

use chimera_engine::registry::{builtin, Registry};
use chimera_engine::{Position, VariantRef};

use crate::support;
use support::sorted_moves;

fn vanguard() -> VariantRef {
    builtin("vanguard").expect("vanguard is built in")
}

/// The published diagram line (no succession), with the same letters as the built-in variant
/// would give only by chance, so positions for it are written with its own letters.
fn diagram() -> VariantRef {
    let data = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/vanguard-perft.json"
    ))
    .unwrap();
    let start = data.find("\"diagramParameters\": \"").unwrap() + "\"diagramParameters\": \"".len();
    let line = &data[start..start + data[start..].find('"').unwrap()];
    let mut r = Registry::new();
    let name = r.load_diagram("vanguard-diagram", line).unwrap();
    r.get(&name).unwrap()
}

fn letter(v: &VariantRef, sq: &str, pos: &Position) -> char {
    let p = pos
        .piece_at(v.geometry().parse_square(sq).unwrap())
        .expect("a man there");
    v.letter(p.id, p.color)
}

/// Black's rook takes White's King on a1. White keeps its Prince on p1, which at once becomes a
/// King (succession), White's sole royal man, so the check rule now protects it. The rook on
/// a1 attacks the whole first rank, so the new King (moving as a King: o1, o2, p2) must leave
/// it: o2 and p2, 2 moves. Under the diagram's rules the Prince stays a Prince (diagonal step
/// and knight leap: o2, n2, o3) and, being the sole royal man, must also get out: all three
/// squares are off rank 1, 3 moves.
#[test]
fn the_prince_succeeds_the_captured_king_and_is_then_protected() {
    let v = vanguard();
    let fen = "k14j/16/16/16/16/16/16/16/r15/16/16/16/16/16/16/K14J b - - 0 1";
    let mut pos = Position::from_fen(&v, fen).unwrap();
    // Black: king a16 (a15, b15, b16), prince p16 (o15; n15, o14), rook a8 (15 along rank 8,
    // 7 up, 6 down and the capture on a1): 3 + 3 + 29, none illegal while Black has two royals.
    assert_eq!(pos.perft(1), 35);
    pos.try_play("a8a1").unwrap();
    assert_eq!(letter(&v, "p1", &pos), 'K', "the prince became a king");
    assert_eq!(pos.royal_count(chimera_engine::Color::White), 1);
    assert!(pos.in_check());
    let moves = sorted_moves(&mut pos);
    assert_eq!(moves, ["p1o2", "p1p2"]);

    let d = diagram();
    let king = letter_for(&d, "king");
    let prince = letter_for(&d, "prince");
    let rook = letter_for(&d, "rook");
    let fen = format!(
        "{k}14{j}/16/16/16/16/16/16/16/{r}15/16/16/16/16/16/16/{K}14{J} b - - 0 1",
        k = king.to_ascii_lowercase(),
        j = prince.to_ascii_lowercase(),
        r = rook.to_ascii_lowercase(),
        K = king,
        J = prince
    );
    let mut pos = Position::from_fen(&d, &fen).unwrap();
    pos.try_play("a8a1").unwrap();
    assert_eq!(
        letter(&d, "p1", &pos),
        prince,
        "no succession in the diagram"
    );
    assert_eq!(pos.perft(1), 3);
}

/// Black's rook takes White's Queen on h4; White's Princess on h12 at once becomes a Queen.
/// White then has: the new Queen on h12 on a 16x16 board, 4 up, 8 down (the last a capture of
/// the rook on h4), 7 left, 8 right, and diagonals 4 + 4 + 7 + 8: 50; the King on a1: a2, b2;
/// the Prince on b1: a2, c2 (diagonal steps), a3, c3, d2 (knight leaps): 5. Total 57. Without
/// succession the Princess (bishop + knight) has 23 + 8 = 31 moves there: 38.
#[test]
fn the_princess_succeeds_the_captured_queen() {
    let v = vanguard();
    let fen = "14jk/16/16/16/7A8/16/16/16/7r8/16/16/16/7Q8/16/16/KJ14 b - - 0 1";
    let mut pos = Position::from_fen(&v, fen).unwrap();
    pos.try_play("h8h4").unwrap();
    assert_eq!(letter(&v, "h12", &pos), 'Q');
    assert_eq!(pos.perft(1), 57);
    // A second Queen capture has no heir left: the succession happens once.
    let mut pos = Position::from_fen(
        &v,
        "14jk/16/16/16/7Q8/16/16/16/7r8/16/16/16/16/16/16/KJ14 b - - 0 1",
    )
    .unwrap();
    pos.try_play("h8h12").unwrap();
    assert_eq!(
        pos.count(
            chimera_engine::Color::White,
            v.piece_by_letter('Q').unwrap()
        ),
        0
    );

    let d = diagram();
    let (q, a, r, k, j) = (
        letter_for(&d, "queen"),
        letter_for(&d, "princess"),
        letter_for(&d, "rook"),
        letter_for(&d, "king"),
        letter_for(&d, "prince"),
    );
    let fen = format!(
        "14{jl}{kl}/16/16/16/7{a}8/16/16/16/7{rl}8/16/16/16/7{q}8/16/16/{k}{j}14 b - - 0 1",
        jl = j.to_ascii_lowercase(),
        kl = k.to_ascii_lowercase(),
        rl = r.to_ascii_lowercase()
    );
    let mut pos = Position::from_fen(&d, &fen).unwrap();
    pos.try_play("h8h4").unwrap();
    assert_eq!(pos.perft(1), 38);
}

/// A capture that makes an heir succeed must be judged with the heir's new type on the board:
/// here Rxh5 takes Black's only queen, the knight on e4 becomes a queen and then checks the
/// White king down the e-file, so the capture is illegal. The legality shortcuts that judge a
/// move without making it (a man off the king's lines is free to move) once let it through.
#[test]
fn a_capture_whose_successor_gives_check_is_illegal() {
    let mut r = Registry::new();
    r.load_text("[heirs:chess]\nsuccession = q:n\n", "heirs.ini", "test")
        .into_result()
        .unwrap();
    let v = r.get("heirs").unwrap();
    let mut pos = Position::from_fen(&v, "4k3/8/8/7q/4n3/8/8/4K2R w - - 0 1").unwrap();
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_text(m))
        .collect();
    assert!(!moves.contains(&"h1h5".to_string()), "{moves:?}");
    assert!(moves.contains(&"h1h4".to_string()), "{moves:?}");
    assert_eq!(pos.perft(1), moves.len() as u64);
    assert!(pos.try_play("h1h5").is_err());
}

/// A sole royal man may not be left attacked, but while a side has two, either may be. White:
/// King a1, Prince p1; Black's rook on a8 attacks a1. With both royals White may ignore the
/// attack: King a2, b1, b2 and Prince o2, n2, o3 are all legal (6). Take the Prince away and
/// the King alone must step off the a-file and out of the rook's reach: b1, b2 (2).
#[test]
fn only_a_sole_royal_man_is_protected() {
    let v = vanguard();
    let mut both = Position::from_fen(
        &v,
        "k14j/16/16/16/16/16/16/16/r15/16/16/16/16/16/16/K14J w - - 0 1",
    )
    .unwrap();
    assert_eq!(both.perft(1), 6);
    let mut alone = Position::from_fen(
        &v,
        "k14j/16/16/16/16/16/16/16/r15/16/16/16/16/16/16/K15 w - - 0 1",
    )
    .unwrap();
    assert_eq!(alone.perft(1), 2);
}

/// The Wizard on h16 swaps with the friendly pawn on g15 (a diagonal step): the pawn arrives on
/// h16, White's last rank, and promotes at once to its fixed type, a Knight; the Wizard stands
/// on g15. The swap is written as the Wizard's move onto the friend's square.
#[test]
fn a_pawn_moved_by_a_swap_promotes() {
    let v = vanguard();
    let mut pos = Position::from_fen(
        &v,
        "kj5W8/6P9/16/16/16/16/16/16/16/16/16/16/16/16/16/KJ14 w - - 0 1",
    )
    .unwrap();
    pos.try_play("h16g15").unwrap();
    assert_eq!(letter(&v, "h16", &pos), 'N');
    assert_eq!(letter(&v, "g15", &pos), 'W');
    pos.unmake_move();
    assert_eq!(letter(&v, "h16", &pos), 'W');
    assert_eq!(letter(&v, "g15", &pos), 'P');
    assert!(pos.validate().is_ok());
}

/// A Helepolis that has moved away and come back to a1 is written `H*`, and may not make the
/// first-move hop over the friend on a2 any more; a fresh one on p1 (King on h1) may (p1 over p2 to p3..p13,
/// 11 squares, as the pawns stand on rank 14).
#[test]
fn the_moved_marker_keeps_first_move_rights_apart() {
    let v = vanguard();
    let fen = "k14j/16/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/R14R/H*6K7H w - - 0 1";
    let pos = Position::from_fen(&v, fen).unwrap();
    assert_eq!(pos.fen(), fen, "the marker is written back");
    let mut pos = pos;
    let hops = |pos: &mut Position, from: &str| {
        pos.legal_moves()
            .iter()
            .filter(|&&m| pos.move_text(m).starts_with(from) && v.geometry().rank_of(m.to) >= 2)
            .count()
    };
    assert_eq!(hops(&mut pos, "a1"), 0);
    assert_eq!(hops(&mut pos, "p1"), 11);
}

/// Seeded random Vanguard games (the reference generator of tests/props.rs knows no multi-leg
/// moves): see tests/common/mod.rs; every kind of multi-leg move must be met.
#[test]
fn random_games_keep_the_position_consistent() {
    let kinds = common::random_games_stay_consistent(&vanguard(), 2025, 6, 120);
    for kind in ["Normal", "Locust", "Sweep", "Swap", "Pass"] {
        assert!(kinds.contains(kind), "no {kind} move was met: {kinds:?}");
    }
}

/// The diagram gives its pieces letters of its own; find one by the diagram's piece name.
fn letter_for(v: &VariantRef, name: &str) -> char {
    let index = v.pieces().iter().position(|p| {
        // Diagram imports name their pieces customPieceN in the diagram's order.
        p.name.starts_with("customPiece")
            && DIAGRAM_ORDER
                .iter()
                .position(|n| *n == name)
                .map(|i| format!("customPiece{}", i + 1))
                == Some(p.name.clone())
    });
    v.pieces()[index.unwrap_or_else(|| panic!("no {name}"))].letter
}

/// The order of the piece types in the published diagram line.
const DIAGRAM_ORDER: &[&str] = &[
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "princess",
    "chancellor",
    "falconer",
    "nightrider",
    "prince",
    "soldier",
    "wizard",
    "berserker",
    "archer",
    "bowman",
    "lancer",
    "helepolis",
    "general",
    "sergeant",
    "spy",
    "king",
];
