//! Fairy-Stockfish's chess-like and atomic built-ins (variant/builtin/fsf-chesslike.ini): the
//! rule behind each new key, one position at a time, and perft from positions of our own
//! counted by Fairy-Stockfish (pyffish 0.0.90 with tools/pyffish_perft.py): seeded random
//! games, Chess960 castling with men in between, explosions next to kings, pseudo-royal men.

use crate::fsf_epd;

use chimera_engine::registry::builtin;
use chimera_engine::{Position, VariantRef};

use crate::support;
use support::sorted_moves;

fn variant(name: &str) -> VariantRef {
    builtin(name).unwrap_or_else(|| panic!("'{name}' is not a built-in variant"))
}

fn position(name: &str, fen: &str) -> Position {
    Position::from_fen(&variant(name), fen).unwrap_or_else(|e| panic!("{name} {fen}: {e}"))
}

/// The placement field of a position's FEN.
fn board(pos: &Position) -> String {
    pos.fen().split(' ').next().unwrap_or("").to_string()
}

#[test]
fn chess960_fen_names_the_rook_files() {
    let pos = position("fischerandom", variant("fischerandom").start_fen());
    assert!(pos.fen().contains(" HAha "), "{}", pos.fen());
    // KQkq is read too, and written the Chess960 way.
    let pos = position(
        "fischerandom",
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1",
    );
    assert!(pos.fen().contains(" GBgb "), "{}", pos.fen());
    // Orthodox chess keeps KQkq.
    let pos = position("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(pos.fen().contains(" KQkq "), "{}", pos.fen());
}

#[test]
fn chess960_castling_through_men_and_a_rook_that_shields() {
    // The king on b1 castles queenside to c1 with the rook from a1 to d1: the men between
    // (none here) must be gone, and the king must not stand in check once the rook moved.
    let mut pos = position("fischerandom", "4k3/8/8/8/8/8/8/qRK5 w B - 0 1");
    assert!(
        !pos.legal_moves().iter().any(|m| m.is_castle()),
        "castling uncovers the queen on a1: {:?}",
        sorted_moves(&mut pos)
    );
    let mut pos = position("fischerandom", "4k3/8/8/8/8/8/8/1RK5 w B - 0 1");
    let mut list = pos.legal_moves();
    let castle = list
        .iter()
        .copied()
        .find(|m| m.is_castle())
        .expect("queenside castling");
    pos.make_move(castle);
    assert_eq!(board(&pos), "4k3/8/8/8/8/8/8/2KR4");
    list.clear();
    // A knight between the king and his destination blocks castling.
    let mut pos = position("fischerandom", "4k3/8/8/8/8/8/8/RK1N3R w HA - 0 1");
    let castles: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.is_castle())
        .map(|&m| pos.move_text(m))
        .collect();
    assert!(castles.is_empty(), "{castles:?}");
}

#[test]
fn shako_castles_with_the_rooks_inside_the_elephants() {
    let pos = position(
        "shako",
        "c8c/er3k2re/10/10/10/10/10/10/ER3K2RE/C8C w KQkq - 0 1",
    );
    assert!(pos.fen().contains(" KQkq "), "{}", pos.fen());
    let mut pos = pos;
    let list = sorted_moves(&mut pos);
    // King f2 to h2 (kingside, the rook from i2 to g2) and to d2 (queenside, b2 to e2).
    assert!(list.contains(&"f2h2".to_string()), "{list:?}");
    assert!(list.contains(&"f2d2".to_string()), "{list:?}");
    pos.try_play("f2h2").expect("castling");
    assert!(board(&pos).ends_with("/ER4RK1E/C8C"), "{}", board(&pos));
}

/// The legal moves of each position are Fairy-Stockfish's (pyffish 0.0.90), and so is the
/// board after the given move. Each case is one rule.
#[test]
fn legal_moves_and_blasts_as_fairy_stockfish() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // A capture explodes the capturer and every man around but pawns: the king on e8 too.
        (
            "atomic",
            "2bqk3/2ppp3/8/8/8/8/8/3RK3 w - - 0 1",
            "d1d7",
            "8/2p1p3/8/8/8/8/8/4K3",
        ),
        // Exploding the enemy king ends the game.
        (
            "atomic",
            "2bqk3/3p4/8/8/8/8/8/3RK3 w - - 0 1",
            "d1d7",
            "8/8/8/8/8/8/8/4K3",
        ),
        // Atomar: kings are immune to blasts.
        (
            "atomar",
            "4k3/3p4/8/8/8/8/8/3RK3 w - - 0 1",
            "d1d7",
            "4k3/8/8/8/8/8/8/4K3",
        ),
        // A rook blown up loses his castling right.
        (
            "atomic",
            "r3k2r/8/8/8/8/8/6b1/R3K1NR b KQkq - 0 1",
            "g2h1",
            "r3k2r/8/8/8/8/8/8/R3K3",
        ),
    ];
    for &(name, fen, mv, after) in cases {
        let mut pos = position(name, fen);
        pos.try_play(mv)
            .unwrap_or_else(|e| panic!("{name} {fen}: {mv}: {e}"));
        assert_eq!(board(&pos), after, "{name} {fen} {mv}");
    }
    let pos = {
        let mut p = position("atomic", "r3k2r/8/8/8/8/8/6b1/R3K1NR b KQkq - 0 1");
        p.try_play("g2h1").expect("Bxh1");
        p
    };
    assert!(pos.fen().contains(" Qkq "), "{}", pos.fen());
    let mut over = position("atomic", "2bqk3/3p4/8/8/8/8/8/3RK3 w - - 0 1");
    over.try_play("d1d7").expect("Rxd7");
    assert!(over.position_end().is_some() && over.legal_moves().is_empty());

    let lists: &[(&str, &str, &str)] = &[
        // Kings never capture in atomic (Kxd2 would blow him up), nor next to their king.
        (
            "atomic",
            "4k3/8/8/8/8/8/3pK3/3R4 w - - 0 1",
            "d1a1 d1b1 d1c1 d1e1 d1f1 d1g1 d1h1 e2d3 e2e3 e2f1 e2f2 e2f3",
        ),
        // Touching kings: the rook on h1 cannot check the king next to the other king.
        (
            "atomic",
            "8/8/8/4k3/4K3/8/8/7r w - - 0 1",
            "e4d3 e4d4 e4d5 e4e3 e4f3 e4f4 e4f5",
        ),
        // Blowing up the enemy king is legal whatever it leaves attacked.
        (
            "atomic",
            "4k3/3p4/8/8/8/8/4r3/3R1K2 w - - 0 1",
            "d1a1 d1b1 d1c1 d1d2 d1d3 d1d4 d1d5 d1d6 d1d7 d1e1 f1g1",
        ),
        // Atomar: kings may not take each other, other men they may.
        (
            "atomar",
            "8/8/8/3pk3/4K3/8/8/8 w - - 0 1",
            "e4d3 e4d4 e4d5 e4e3 e4f3 e4f4 e4f5",
        ),
        // Coregal: a queen may not be left attacked.
        (
            "coregal",
            "4k3/8/8/8/q7/8/3Q4/4K3 w - - 0 1",
            "d2b2 d2c1 d2c3 d2d3 d2d5 d2d6 d2e2 d2e3 d2f2 d2g2 d2g5 d2h2 d2h6 e1e2 e1f1 e1f2",
        ),
        // Spartan: both kings attacked is check (duple check) ...
        (
            "spartan",
            "k6k/8/8/8/8/8/8/R3K2R b KQ - 0 1",
            "a8b7 a8b8 h8g7 h8g8",
        ),
        // ... one is not.
        (
            "spartan",
            "k6k/8/8/8/8/8/8/R3K3 b Q - 0 1",
            "a8a7 a8b7 a8b8 h8g7 h8g8 h8h7",
        ),
        // Chess960: no castling when the rook leaves the king to the queen on a1 ...
        (
            "fischerandom",
            "4k3/8/8/8/8/8/8/qRK5 w B - 0 1",
            "b1a1 c1c2 c1d1 c1d2",
        ),
        // ... nor past a knight.
        (
            "fischerandom",
            "4k3/8/8/8/8/8/8/RK1N3R w HA - 0 1",
            "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 b1a2 b1b2 b1c1 b1c2 d1b2 d1c3 d1e3 d1f2 \
             h1e1 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8",
        ),
        // Pawnback: a pawn back on its second rank may double-step again.
        (
            "pawnback",
            "3k4/8/8/8/8/8/4P3/4K3 w - - 2 2",
            "e1d1 e1d2 e1f1 e1f2 e2e3 e2e4",
        ),
    ];
    for &(name, fen, expected) in lists {
        let mut pos = position(name, fen);
        let mut want: Vec<String> = expected.split_whitespace().map(String::from).collect();
        want.sort();
        assert_eq!(sorted_moves(&mut pos), want, "{name} {fen}");
    }
    // The pawn that stepped back in the game itself.
    let mut pos = position("pawnback", "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1");
    pos.try_play("e3e2").expect("back");
    pos.try_play("e8d8").expect("king");
    assert!(sorted_moves(&mut pos).contains(&"e2e4".to_string()));
}

/// Chigorin's pawns become their own side's men: White's a chancellor, rook or knight, Black's
/// a queen, rook or bishop. Issue #78's position, counted by pyffish 0.0.90 (`legal_moves`,
/// tools/pyffish_perft.py): 30 moves, perft 30, 319, 10228; Chimera listed 34, with
/// g2g1c g2g1n h2h1c h2h1n.
#[test]
fn chigorin_promotes_each_side_to_its_own_men() {
    let mut pos = position("chigorin", "r3k3/p7/8/6pb/8/1NK5/6pp/1b6 b - - 1 60");
    let promotions: Vec<String> = sorted_moves(&mut pos)
        .into_iter()
        .filter(|m| m.len() == 5)
        .collect();
    assert_eq!(
        promotions,
        ["g2g1b", "g2g1q", "g2g1r", "h2h1b", "h2h1q", "h2h1r"]
    );
    assert_eq!([pos.perft(1), pos.perft(2), pos.perft(3)], [30, 319, 10228]);
    let mut pos = position("chigorin", "8/1P6/8/8/8/8/k1K5/8 w - - 0 1");
    let white: Vec<String> = sorted_moves(&mut pos)
        .into_iter()
        .filter(|m| m.starts_with("b7"))
        .collect();
    assert_eq!(white, ["b7b8c", "b7b8n", "b7b8r"]);
}

/// A finished atomic game is a position like another: Black's king has blown up and the
/// bishop on a3 attacks White's king. Fairy-Stockfish reads it (pyffish 0.0.90: `validate_fen`
/// 1, no legal move, the game over); Chimera refused it, the side not to move being in check.
#[test]
fn a_finished_atomic_game_reads_as_a_fen() {
    let mut pos = position(
        "atomic",
        "2b4r/p6p/4p1p1/1p6/2pp2P1/b1PPnP2/PK2P2P/RN1Q2NR b - - 0 20",
    );
    assert!(pos.position_end().is_some());
    assert!(pos.legal_moves().is_empty());
    // A position still in play keeps the check: both kings stand, the rook attacks Black's.
    let v = variant("atomic");
    assert!(Position::from_fen(&v, "4k3/8/8/8/8/8/8/K3R3 w - - 0 1").is_err());
}

/// Fairy-Stockfish leaves e.p. squares after any man's initial-only move, not only a pawn's:
/// wolf chess's sergeant (`ifmnD`) may be taken e.p. by a pawn, and the e.p. field names the
/// square passed and the landing square (`b7b8`). Counts and FENs from pyffish 0.0.90.
#[test]
fn a_sergeants_double_step_may_be_taken_en_passant() {
    // Issue #78's position: Chimera refused its e.p. field; pyffish lists 58 moves, perft
    // 58, 2959, 168321.
    let mut pos = position(
        "wolf",
        "qwfr1b1k/4p3/3p2sp/psp2Wp1/5p2/1p1s2F1/bSPn1SP1/1P1SPP2/KB1N2SP/3BR2Q w - b7b8 0 22",
    );
    assert_eq!(
        [pos.perft(1), pos.perft(2), pos.perft(3)],
        [58, 2959, 168321]
    );
    // The sergeant steps b9-b7 past the pawn on c7, which takes him e.p. on b8.
    let fen = "7k/1s6/8/2P5/8/8/8/8/8/K7 b - - 0 1";
    let mut pos = position("wolf", fen);
    pos.try_play("b9b7").expect("double step");
    assert_eq!(pos.fen(), "7k/8/8/1sP5/8/8/8/8/8/K7 w - b7b8 0 2");
    assert_eq!(
        sorted_moves(&mut pos),
        ["a1a2", "a1b1", "a1b2", "c7b8", "c7c8"]
    );
    pos.try_play("c7b8").expect("e.p.");
    assert_eq!(board(&pos), "7k/8/1P6/8/8/8/8/8/8/K7");
    let mut pos = position("wolf", fen);
    assert_eq!(
        [pos.perft(1), pos.perft(2), pos.perft(3), pos.perft(4)],
        [7, 29, 216, 1368]
    );
}

/// `<variant> <FEN> ;D1 n ;D2 n ...` lines: each position at each depth.
#[test]
fn perft_against_fairy_stockfish() {
    fsf_epd::check_perft_fixture("chesslike.epd", 102, position);
}
