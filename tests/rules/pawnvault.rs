//! Pawn Vault Chess (docs/rules.md §1): the start position against the independent reference
//! counts of tests/data/seed-start-perft.json, and hand-built positions for each rule with the
//! expected moves worked out beside them. Letters: P FIDE pawn, O Berolina pawn, T castellan,
//! D dragon (bishop + knight), H hero (rook + knight).

use crate::common;

use chimera_engine::registry::builtin;
use chimera_engine::{Color, MoveKind, Position, VariantRef};

use crate::support;
use support::sorted_moves;

fn pv() -> VariantRef {
    builtin("pawnvault").expect("pawnvault is built in")
}

fn pos(fen: &str) -> Position {
    Position::from_fen(&pv(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Reference: 46, 2118, 75537, 2673044 (a castellan gating is a move of its own).
#[test]
fn start_position_matches_the_reference() {
    let mut p = Position::startpos(&pv());
    let counts: Vec<u64> = (1..=4).map(|d| p.perft(d)).collect();
    assert_eq!(counts, [46, 2118, 75537, 2673044]);
}

/// White: King e1, FIDE pawn e4. Black: King e8 and on e5 a man of some type. The FIDE pawn
/// vaults straight over a Berolina pawn or a castellan of either colour to the empty e6, but not
/// over another FIDE pawn. King moves: d1, d2, e2, f2, f1.
#[test]
fn a_fide_pawn_vaults_a_man_of_the_other_types_only() {
    for (man, vault) in [
        ('o', true),
        ('t', true),
        ('O', true),
        ('p', false),
        ('P', false),
    ] {
        let mut p = pos(&format!("4k3/8/8/4{man}3/4P3/8/8/4K3 w - - 0 1"));
        let pawn: Vec<String> = sorted_moves(&mut p)
            .into_iter()
            .filter(|t| t.starts_with("e4"))
            .collect();
        let expected: Vec<String> = if vault { vec!["e4e6".into()] } else { vec![] };
        assert_eq!(pawn, expected, "over {man}");
    }
    // The landing square must be empty: a vault never captures.
    let mut p = pos("4k3/8/4r3/4o3/4P3/8/8/4K3 w - - 0 1");
    assert!(!sorted_moves(&mut p).contains(&"e4e6".to_string()));
}

/// A Berolina pawn on d4 vaults diagonally (its non-capturing direction) over the FIDE pawn on
/// e5 to f6; it cannot vault straight ahead over the castellan on d5 (its captures go straight).
/// Its other moves: c5 (diagonal step), and d5 is occupied by a friend. King e1: 5 moves.
#[test]
fn a_berolina_pawn_vaults_diagonally() {
    let mut p = pos("4k3/8/8/3Tp3/3O4/8/8/4K3 w - - 0 1");
    let m = sorted_moves(&mut p);
    assert!(m.contains(&"d4f6".to_string()), "{m:?}");
    assert!(m.contains(&"d4c5".to_string()), "{m:?}");
    assert!(!m.iter().any(|t| t.starts_with("d4d")), "{m:?}");
}

/// The castellan is gated onto the square a pawn leaves from its original square. With two
/// pawns there (a2, e2) each pawn move comes with and without the castellan: a3, a4, e3, e4,
/// each twice; with e2 the last, its moves must bring the castellan in (e3, e4 gated only).
/// King e1: d1, f1, d2, f2 (e2 is taken).
#[test]
fn the_castellan_is_gated_compulsorily_for_the_last_pawn() {
    let mut two = pos("4k3/8/8/8/8/8/P3P3/4K3[T] w - - 0 1");
    assert_eq!(two.perft(1), 4 + 8);
    let mut last = pos("4k3/8/8/8/8/8/4P3/4K3[T] w - - 0 1");
    let m = sorted_moves(&mut last);
    assert_eq!(
        m.iter()
            .filter(|t| t.starts_with("e2"))
            .cloned()
            .collect::<Vec<_>>(),
        ["e2e3t", "e2e4t"]
    );
    assert_eq!(m.len(), 6);
    last.try_play("e2e4t").unwrap();
    assert!(
        last.fen().starts_with("4k3/8/8/8/4P3/8/4T3/4K3[] b"),
        "{}",
        last.fen()
    );
}

/// When the last pawn still on its original square is captured there, the castellan can never
/// enter: it leaves the hand.
#[test]
fn capturing_the_last_pawn_on_its_square_forfeits_the_castellan() {
    let v = pv();
    let mut p = pos("4k3/8/8/8/8/4r3/4P3/K7[T] b - - 0 1");
    p.try_play("e3e2").unwrap();
    assert_eq!(p.in_hand(Color::White, v.piece_by_letter('T').unwrap()), 0);
    p.unmake_move();
    assert_eq!(p.in_hand(Color::White, v.piece_by_letter('T').unwrap()), 1);
}

/// Dragon drops. White: King a1, Knight d1, a dragon in hand. Black: King h8, Rook h1, which
/// attacks the knight along the first rank. Of the 60 empty squares the dragon may not go to:
/// (3) e1, f1, g1, between the rook and the knight it attacks;
/// (1) squares from which it would attack a black man: the long diagonal to h8 (g7 f6 e5 d4 c3
///     b2), the knight squares of h8 (f7 g6), the diagonal to h1 (g2 f3 e4 d5 c6 b7 a8) and
///     the knight squares of h1 (f2 g3): 17;
/// (2) squares from which it would defend the attacked knight, not already listed: c2 b3 a4
///     and e2 g4 h5 (diagonals; f3 is listed) and e3 (knight; b2 c3 f2 are listed): 7.
/// 60 - 27 = 33 drops.
#[test]
fn the_dragon_drop_obeys_all_three_restrictions() {
    let mut p = pos("7k/8/8/8/8/8/8/K2N3r[D] w - - 0 1");
    let drops: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.kind == MoveKind::Drop)
        .map(|&m| p.move_text(m))
        .collect();
    let forbidden = [
        "e1", "f1", "g1", "g7", "f6", "e5", "d4", "c3", "b2", "f7", "g6", "g2", "f3", "e4", "d5",
        "c6", "b7", "a8", "f2", "g3", "c2", "b3", "a4", "e2", "g4", "h5", "e3",
    ];
    assert_eq!(drops.len(), 33, "{drops:?}");
    for f in forbidden {
        assert!(
            !drops.contains(&format!("D@{f}")),
            "D@{f} should be forbidden"
        );
    }
    // From the start position every drop would attack a black man: none is legal.
    let mut start = Position::startpos(&pv());
    assert!(start.legal_moves().iter().all(|m| m.kind != MoveKind::Drop));
}

/// A castellan captures e.p. like any pawn-type man: after Black's c7-c5 the castellan on d5
/// attacks c6 and moving there takes the pawn on c5 (one move, not a quiet step beside it).
/// Straight ahead too: after Black's Berolina b7-d5 (passing c6) the castellan on c5 takes on c6.
#[test]
fn the_castellan_captures_en_passant() {
    let mut p = pos("4k3/2p5/8/3T4/8/8/8/4K3 b - - 0 1");
    p.try_play("c7c5").unwrap();
    let m = p.parse_move("d5c6").unwrap();
    assert_eq!(m.kind, MoveKind::EnPassant);
    assert_eq!(
        p.legal_moves()
            .iter()
            .filter(|x| p.move_text(**x) == "d5c6")
            .count(),
        1
    );
    p.make_move(m);
    assert!(p
        .piece_at(pv().geometry().parse_square("d5").unwrap())
        .is_none());

    let mut p = pos("4k3/1o6/8/2T5/8/8/8/4K3 b - - 0 1");
    p.try_play("b7d5").unwrap();
    assert_eq!(p.parse_move("c5c6").unwrap().kind, MoveKind::EnPassant);
}

/// Every pawn type promotes to the hero only, the castellan included.
#[test]
fn pawns_and_the_castellan_promote_to_the_hero_only() {
    let mut p = pos("4k3/P7/8/8/8/8/5T2/4K3 w - - 0 1");
    let m = sorted_moves(&mut p);
    assert!(m.contains(&"a7a8h".to_string()), "{m:?}");
    assert!(
        !m.iter().any(|t| t.starts_with("a7a8") && t != "a7a8h"),
        "{m:?}"
    );
    let mut p = pos("k7/5T2/8/8/8/8/8/4K3 w - - 0 1");
    let m = sorted_moves(&mut p);
    assert_eq!(
        m.iter().filter(|t| t.starts_with("f7")).count(),
        3,
        "e8, f8, g8: {m:?}"
    );
    assert!(
        m.iter()
            .filter(|t| t.starts_with("f7"))
            .all(|t| t.ends_with('h')),
        "{m:?}"
    );
}

/// Random games keep the position consistent, and meet vaults' gates, drops and e.p.
#[test]
fn random_games_keep_the_position_consistent() {
    let kinds = common::random_games_stay_consistent(&pv(), 11, 6, 80);
    for kind in ["Gate", "Drop", "Normal"] {
        assert!(kinds.contains(kind), "no {kind}: {kinds:?}");
    }
}

/// Stalemating a bare king wins: Black's king on a8 with nothing else, no move and not in
/// check, has lost; with a pawn left, the same stalemate is a draw.
#[test]
fn stalemating_a_bare_king_wins() {
    let mut bare = pos("k7/2Q5/1K6/8/8/8/8/8[] b - - 0 1");
    let end = bare.outcome().expect("the game is over");
    assert_eq!(end.winner, Some(Color::White), "{end}");
    let mut with_pawn = pos("k7/2Q5/1K6/8/8/8/7p/8[] b - - 0 1");
    assert!(!with_pawn.legal_moves().is_empty());
    let mut blocked = pos("k7/2Q5/1K6/8/8/7p/7P/8[] b - - 0 1");
    let end = blocked.outcome().expect("stalemate");
    assert_eq!(end.winner, None, "{end}");
}

/// Bad drops and gatings are errors and leave the position alone: a dragon onto an occupied
/// square or a forbidden one, a castellan drop (it only enters by gating), gating the dragon,
/// gating from a piece that is not a pawn on its original square.
#[test]
fn bad_drops_and_gatings_are_rejected() {
    let mut p = Position::startpos(&pv());
    let before = p.fen();
    for bad in ["D@e2", "D@e4", "T@e4", "e2e4d", "g1f3t", "b1c3t"] {
        assert!(p.try_play(bad).is_err(), "{bad} was accepted");
        assert_eq!(p.fen(), before);
    }
    assert!(p.try_play("e2e4t").is_ok());
}

/// The looser reading of the drop rule (docs/rules.md §1.10, ambiguity 9) as a variant option: dropping the dragon
/// where it attacks a protected enemy pawn is allowed there, not in the strict rule.
#[test]
fn the_loose_drop_rule_is_an_option() {
    let mut r = chimera_engine::registry::Registry::new();
    r.load_text(
        "[pawnvault-loose:pawnvault]\ndropRule = pawnvault-loose\n",
        "loose.ini",
        "test",
    )
    .into_result()
    .unwrap();
    let loose = r.get("pawnvault-loose").unwrap();
    // Black's pawn c7 is protected by his king on d8; a dragon on e5 attacks c7 through d6
    // (and nothing else: its knight leaps reach d7, f7, c6, g6, c4, g4, d3, f3).
    let fen = "3k4/2p5/8/8/8/8/8/4K3[D] w - - 0 1";
    let drops = |v: &VariantRef| {
        let mut p = Position::from_fen(v, fen).unwrap();
        p.legal_moves().iter().any(|&m| p.move_text(m) == "D@e5")
    };
    assert!(
        !drops(&pv()),
        "strict: attacking any enemy man is forbidden"
    );
    assert!(drops(&loose), "loose: a protected pawn may be attacked");
}
