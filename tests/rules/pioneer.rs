//! Pioneer Chess (docs/rules.md §3): the reference counts of tests/data/seed-start-perft.json
//! and hand-built positions for entry (by a move, by castling), forfeit, the two-piece file
//! restriction, the reserve FEN field and the placement notation. `M` is the Mastodon (KAD).

use crate::common;

use chimera_engine::registry::builtin;
use chimera_engine::{MoveKind, Position, VariantRef};

use crate::support;
use support::sorted_moves;

fn pioneer(name: &str) -> VariantRef {
    builtin(name).unwrap_or_else(|| panic!("{name} is built in"))
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn perft(fen: &str, depth: u32) -> u64 {
    Position::from_fen(&pioneer("pioneer"), fen)
        .unwrap()
        .perft(depth)
}

/// The reference's three series: from the very start (the file choices are plies of their own:
/// 8 for White, 8 for Black, then chess), and with the files already chosen.
#[test]
fn the_reference_counts() {
    let mut start = Position::startpos(&pioneer("pioneer"));
    assert_eq!(
        (1..=5).map(|d| start.perft(d)).collect::<Vec<_>>(),
        [8, 64, 1280, 25600, 569728]
    );
    let g_b = format!("{START} {{M@g m@b}}");
    assert_eq!(
        (1..=5).map(|d| perft(&g_b, d)).collect::<Vec<_>>(),
        [20, 400, 8902, 197283, 4887048]
    );
    let e_h = format!("{START} {{M@e m@h}}");
    assert_eq!(
        (1..=5).map(|d| perft(&e_h, d)).collect::<Vec<_>>(),
        [20, 400, 8902, 197281, 4867797]
    );
}

/// The Mastodon waiting behind g enters g1 as the knight leaves it, as part of the move.
#[test]
fn the_reserve_man_enters_when_the_first_rank_man_leaves() {
    let v = pioneer("pioneer");
    let mut p = Position::from_fen(&v, &format!("{START} {{M@g m@b}}")).unwrap();
    p.try_play("g1f3").unwrap();
    assert!(
        p.fen()
            .starts_with("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKBMR b KQkq - 1 1 {m@b}"),
        "{}",
        p.fen()
    );
    p.unmake_move();
    assert_eq!(p.fen(), format!("{START} {{M@g m@b}}"));
}

/// Behind the king (e) or the castling rook (h): castling brings the man in on the square the
/// king or the rook left.
#[test]
fn castling_brings_the_reserve_man_in() {
    let v = pioneer("pioneer");
    let base = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let mut p = Position::from_fen(&v, &format!("{base} {{M@e m@a}}")).unwrap();
    p.try_play("e1g1").unwrap();
    assert!(
        p.fen()
            .starts_with("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3MRK1 b kq"),
        "{}",
        p.fen()
    );
    let mut p = Position::from_fen(&v, &format!("{base} {{M@h m@a}}")).unwrap();
    p.try_play("e1g1").unwrap();
    assert!(
        p.fen()
            .starts_with("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RKM b kq"),
        "{}",
        p.fen()
    );
    // Black castles long with his man behind a: it enters a8.
    p.try_play("e8c8").unwrap();
    assert!(p.fen().starts_with("m1kr3r/"), "{}", p.fen());
}

/// When the man on the entry square is captured there before he moves, the reserve man is lost.
#[test]
fn capturing_the_first_rank_man_forfeits_the_reserve() {
    let v = pioneer("pioneer");
    let mut p = Position::from_fen(&v, "1n2k3/8/8/8/8/8/8/R3K3 w - - 0 1 {M@e m@b}").unwrap();
    p.try_play("a1a8").unwrap();
    p.try_play("e8d7").unwrap();
    p.try_play("a8b8").unwrap();
    assert!(p.fen().ends_with("{M@e}"), "{}", p.fen());
}

/// Two reserve men: the placement names two different files, never the king's file with a
/// rook's: 28 pairs of files minus (a, e) and (e, h).
#[test]
fn two_reserve_men_choose_two_files() {
    let mut p = Position::startpos(&pioneer("pioneer-two"));
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 26);
    assert!(moves.iter().all(|m| m.kind == MoveKind::Place));
    let texts: Vec<String> = moves.iter().map(|&m| p.move_text(m)).collect();
    assert!(texts.contains(&"M@b,M@g".to_string()));
    assert!(!texts.contains(&"M@a,M@e".to_string()) && !texts.contains(&"M@e,M@h".to_string()));
    p.try_play("M@b,M@g").unwrap();
    p.try_play("m@a,m@c").unwrap();
    assert!(p.fen().ends_with("{M@b M@g m@a m@c}"), "{}", p.fen());
}

/// Placement moves read and write as `M@g`; a bad choice is an error and changes nothing.
#[test]
fn placement_notation() {
    let mut p = Position::startpos(&pioneer("pioneer"));
    assert!(p.try_play("M@i").is_err());
    assert!(p.try_play("N@g").is_err());
    assert!(p.try_play("e2e4").is_err(), "the file is chosen first");
    p.try_play("M@d").unwrap();
    assert!(p.fen().ends_with("{M@d m?}"), "{}", p.fen());
    // Every extra-piece variant plays: a few plies each.
    for name in [
        "pioneer-chancellor",
        "pioneer-archbishop",
        "pioneer-amazon",
        "pioneer-camel",
        "pioneer-kwagga",
        "pioneer-consul",
        "pioneer-adjutant",
        "pioneer-llama",
        "pioneer-alpaca",
        "pioneer-guanaco",
        "pioneer-vicuna",
    ] {
        let mut p = Position::startpos(&pioneer(name));
        assert_eq!(p.perft(3), 1280, "{name}");
    }
}

/// A king move that is legal only because the reserve man enters on the square he leaves: the
/// Mastodon entering on d1 blocks the rook's line to c1 (docs/rules.md §3.3: legality is judged with
/// the entering man on the board). The fast legality test once judged the step with d1 empty.
#[test]
fn the_entering_man_may_shield_the_king_who_lets_him_in() {
    let fen = "4k3/8/8/8/8/8/8/3K1r2 w - - 0 1 {M@d}";
    let mut pos = Position::from_fen(&pioneer("pioneer"), fen).unwrap();
    let moves = sorted_moves(&mut pos);
    assert!(moves.contains(&"d1c1".to_string()), "{moves:?}");
    assert_eq!(moves.len(), 4, "{moves:?}");
    assert_eq!(pos.perft(1), 4);
    pos.try_play("d1c1").unwrap();
    assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/2KM1r2 b - - 1 1 {-}");
    // Without the reserve man the step is illegal.
    let mut bare =
        Position::from_fen(&pioneer("pioneer"), "4k3/8/8/8/8/8/8/3K1r2 w - - 0 1").unwrap();
    assert_eq!(bare.perft(1), 3);
}

/// Random games of every Pioneer variant keep the position consistent, and meet placements.
#[test]
fn random_games_keep_the_position_consistent() {
    for name in ["pioneer", "pioneer-two", "pioneer-amazon", "pioneer-vicuna"] {
        let kinds = common::random_games_stay_consistent(&pioneer(name), 7, 4, 60);
        assert!(
            kinds.contains("Place") && kinds.contains("Castle"),
            "{name}: {kinds:?}"
        );
    }
}

/// The evaluation counts a reserve man still to enter at most of his value, a forfeited one at
/// nothing: White with his Mastodon waiting is clearly better off than without it.
#[test]
fn the_evaluation_counts_waiting_reserve_men() {
    use chimera_engine::search::Evaluator;
    let v = pioneer("pioneer");
    let eval = chimera_eval::VariantEval::new(&v);
    let with = Position::from_fen(&v, &format!("{START} {{M@g m@b}}")).unwrap();
    let without = Position::from_fen(&v, &format!("{START} {{m@b}}")).unwrap();
    let (a, b) = (eval.evaluate(&with), eval.evaluate(&without));
    assert!(a > b + 200, "with the reserve {a}, without {b}");
}
