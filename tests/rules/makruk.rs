//! The makruk family's rules against Fairy-Stockfish's: the counting rules (how a count starts,
//! how it shows in the FEN, the draw when it runs out; sittuyin counts as ASEAN chess), Ouk
//! Chatrang's first moves and the loss of the king's leap to a rook's check, Makpong's king in
//! check, Shatar's mates. Every expected FEN and move list here was produced by
//! Fairy-Stockfish (pyffish 0.0.90: `get_fen`, `legal_moves`, `is_optional_game_end`).

use chimera_engine::registry::builtin;
use chimera_engine::rules::Termination;
use chimera_engine::{Color, Position};

use crate::support;
use support::sorted_moves;

fn position(variant: &str, fen: &str) -> Position {
    let v = builtin(variant).unwrap_or_else(|| panic!("{variant} is built in"));
    Position::from_fen(&v, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

/// The FEN after playing `moves` (UCI text) from `fen`.
fn fen_after(variant: &str, fen: &str, moves: &[&str]) -> String {
    let mut pos = position(variant, fen);
    for m in moves {
        pos.try_play(m)
            .unwrap_or_else(|e| panic!("{variant} {fen}: {m}: {e}"));
    }
    pos.fen()
}

fn moves_of(variant: &str, fen: &str) -> Vec<String> {
    sorted_moves(&mut position(variant, fen))
}

#[test]
fn a_count_starts_as_fairy_stockfish_starts_it() {
    // The rook takes the last black man: Black's bare king counts against one rook.
    let fen = "4k3/8/8/8/8/R2r4/8/3K4 w - - 0 40";
    for (variant, expected) in [
        ("makruk", "4k3/8/8/8/8/3R4/8/3K4 b - 32 6 40"),
        ("cambodian", "4k3/8/8/8/8/3R4/8/3K4 b - 30 6 40"),
        ("asean", "4k3/8/8/8/8/3R4/8/3K4 b - 32 0 40"),
    ] {
        assert_eq!(fen_after(variant, fen, &["a3d3"]), expected, "{variant}");
    }
    // Without pawns a count starts on any move; cambodian's board's honour counting while
    // the hunted side has two men (63 moves).
    assert_eq!(
        fen_after(
            "cambodian",
            "3mk3/8/8/8/8/8/8/3K1R2 w DEde - 0 1",
            &["f1e1"]
        ),
        "3mk3/8/8/8/8/8/8/3KR3 b Dd 126 0 1"
    );
    // The FEN carries the count: read and written back.
    let running = "4k3/8/8/8/8/3R4/8/3K4 b - 32 31 40";
    assert_eq!(position("makruk", running).fen(), running);
    // Not in a variant without counting rules.
    let v = builtin("chess").expect("chess");
    assert!(Position::from_fen(&v, "4k3/8/8/8/8/3R4/8/3K4 b - 32 31 40").is_err());
}

#[test]
fn a_count_past_its_limit_draws() {
    let fen = "4k3/8/8/8/8/3R4/8/3K4 b - 32 31 40";
    let mut pos = position("makruk", fen);
    pos.try_play("e8f8").expect("legal");
    assert_eq!(pos.fen(), "5k2/8/8/8/8/3R4/8/3K4 w - 32 32 41");
    assert_eq!(
        pos.outcome(),
        None,
        "the 32nd ply is still within the limit"
    );
    pos.try_play("d3d4").expect("legal");
    let end = pos.outcome().expect("the count ran out");
    assert_eq!((end.winner, end.reason), (None, Termination::Counting));
    pos.unmake_move();
    pos.unmake_move();
    assert_eq!(pos.fen(), fen);
}

#[test]
fn cambodian_first_moves() {
    let start = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1";
    let moves = moves_of("cambodian", start);
    assert!(moves.contains(&"d1b2".to_string()) && moves.contains(&"d1f2".to_string()));
    assert_eq!(moves.len(), 25);
    // The met's two steps ahead, once the pawn in front has gone, and the rights lost by
    // moving: the king's leap takes the D.
    let fen = "rnsmksnr/8/pppppppp/8/8/PPPP1PPP/8/RNSKMSNR w DEde - 0 1";
    assert!(moves_of("cambodian", fen).contains(&"e1e3".to_string()));
    assert_eq!(
        fen_after("cambodian", start, &["d1b2"]),
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/1K6/RNS1MSNR b Ede - 1 1"
    );
    // A rook's check takes the king's leap away; a rook off the king's lines does not.
    let fen = "4k3/8/8/8/8/8/8/R2K4 w DEe - 0 1";
    assert_eq!(
        fen_after("cambodian", fen, &["a1a8"]),
        "R3k3/8/8/8/8/8/8/3K4 b D 30 6 1"
    );
    assert_eq!(
        fen_after("cambodian", fen, &["a1a7"]),
        "4k3/R7/8/8/8/8/8/3K4 b De 30 6 1"
    );
    // A rook landing on the king's file takes the leap even behind a man: Fairy-Stockfish
    // sees the rook's lines on an empty board.
    assert_eq!(
        fen_after("cambodian", "4k3/4p3/8/8/8/8/8/3K3R w DEe - 0 1", &["h1e1"]),
        "4k3/4p3/8/8/8/8/8/3KR3 b D 126 0 1"
    );
    // In check: no leap (and the met's step must answer the check).
    let fen = "3mk3/8/8/8/8/8/8/3K1R2 w DEde - 0 1";
    let mut pos = position("cambodian", fen);
    pos.try_play("f1e1").expect("legal");
    assert_eq!(sorted_moves(&mut pos), ["d8e7", "e8d7", "e8f7", "e8f8"]);
}

/// Issue #78's position: Black's rook lands on d7, on the white king's file behind the d-pawns,
/// and the king loses his leap (d1b2, d1f2) in both variants with `cambodianMoves`. Counts
/// from pyffish 0.0.90 (`legal_moves`, tools/pyffish_perft.py): 28 replies, where Chimera
/// listed 30; perft 30, 899, 24008.
#[test]
fn a_rook_on_the_kings_file_behind_men_takes_the_leap() {
    for (variant, counters) in [("cambodian", "- 0 4"), ("karouk", "- 1+1 0 4")] {
        let fen = format!("1nsmksnr/r7/pppppppp/8/P4P2/1PPPP1PP/4R3/1NSKMSNR b DEd {counters}");
        let mut pos = position(variant, &fen);
        assert_eq!(pos.perft(1), 30, "{variant}");
        assert_eq!(pos.perft(2), 899, "{variant}");
        assert_eq!(pos.perft(3), 24008, "{variant}");
        pos.try_play("a7d7").expect("legal");
        let replies = sorted_moves(&mut pos);
        assert_eq!(replies.len(), 28, "{variant}: {replies:?}");
        assert!(
            !replies.iter().any(|m| m == "d1b2" || m == "d1f2"),
            "{variant}: {replies:?}"
        );
        assert!(pos.fen().contains(" w Ed "), "{variant}: {}", pos.fen());
    }
}

#[test]
fn makpong_king_in_check_only_takes_the_checker() {
    for (fen, makpong, makruk) in [
        (
            "4k3/8/8/8/8/8/3r4/3K4 w - - 0 1",
            &["d1d2"][..],
            &["d1c1", "d1d2", "d1e1"][..],
        ),
        (
            "4k3/8/8/8/8/8/4r3/3K4 w - - 0 1",
            &["d1c1", "d1e2"][..],
            &["d1c1", "d1e2"][..],
        ),
        (
            "4k3/8/8/8/3r4/8/8/3K4 w - - 0 1",
            &[][..],
            &["d1c1", "d1c2", "d1e1", "d1e2"][..],
        ),
    ] {
        assert_eq!(moves_of("makpong", fen), makpong, "makpong {fen}");
        assert_eq!(moves_of("makruk", fen), makruk, "makruk {fen}");
    }
    // No move in check is mate.
    let mut pos = position("makpong", "4k3/8/8/8/3r4/8/8/3K4 w - - 0 1");
    let end = pos.outcome().expect("mate");
    assert_eq!(
        (end.winner, end.reason),
        (Some(Color::Black), Termination::Checkmate)
    );
}

#[test]
fn shatar_mates() {
    // Mated by knights alone: the mated side wins.
    let mut pos = position("shatar", "7k/p3NN2/P5K1/8/8/8/8/8 b - - 0 1");
    let end = pos.outcome().expect("mate");
    assert_eq!(
        (end.winner, end.reason),
        (Some(Color::Black), Termination::Checkmate)
    );
    // Mated by a bishop, no shak in the series of checks: a draw.
    let mut pos = position("shatar", "7k/5K2/6P1/8/8/8/p7/B7 b - - 0 1");
    let end = pos.outcome().expect("mate");
    assert_eq!((end.winner, end.reason), (None, Termination::Checkmate));
}

#[test]
fn sittuyin_counts_as_asean_chess() {
    // Sittuyin ends drawn endings by ASEAN chess's count, as Fairy-Stockfish does: a bare
    // king against a rook starts a count of 16 moves at once.
    let fen = "8/8/8/3k4/8/8/8/R3K3[] w - - 0 1";
    assert_eq!(
        fen_after("sittuyin", fen, &["a1d1"]),
        "8/8/8/3k4/8/8/8/3RK3[] b - 32 0 1"
    );
    // A random game of pyffish's from there: the rook is lost on the way, the count runs on,
    // and the 34th ply ends the game (pyffish: is_optional_game_end false after 33, true
    // after 34).
    let line = "a1d1 d5e5 e1f2 e5f6 d1d3 f6f5 f2f1 f5g6 f1g1 g6g7 d3f3 g7h8 g1h1 h8g7 f3f7 g7f7 \
                h1h2 f7e6 h2g3 e6f6 g3f3 f6f5 f3g2 f5e4 g2f1 e4d3 f1e1 d3c3 e1f1 c3c4 f1e1 c4b4 \
                e1e2 b4c5";
    let mut pos = position("sittuyin", fen);
    let moves: Vec<&str> = line.split_whitespace().collect();
    for m in &moves[..33] {
        pos.try_play(m).expect("legal");
    }
    assert_eq!(pos.fen(), "8/8/8/8/1k6/8/4K3/8[] b - 32 32 17");
    assert_eq!(pos.outcome(), None);
    pos.try_play(moves[33]).expect("legal");
    assert_eq!(pos.fen(), "8/8/8/2k5/8/8/4K3/8[] w - 32 33 18");
    let end = pos.outcome().expect("the count ran out");
    assert_eq!((end.winner, end.reason), (None, Termination::Counting));
}
