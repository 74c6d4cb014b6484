//! Alice Chess: the FEN forms (Chimera's wide 16x8 board, Fairy-Stockfish's 8x8 form with `|`),
//! move text across boards, the rules that Fairy-Stockfish's alice branch plays (castling moves
//! king and rook across; a king's move must be safe on his own board too; no en passant),
//! random games for internal consistency, and self-play to the end of a game. Perft against
//! the reference is in tests/perft.rs (alice.epd, alice-random.epd).
//!
//! Squares are named on the wide board: board A is files a-h, board B files i-p, so B's e4 is
//! m4. A move is written from-square and final square after the transfer.

use crate::common;

use chimera_engine::registry::builtin;
use chimera_engine::search::{Limits, Searcher, Silent};
use chimera_engine::{Position, VariantRef};
use chimera_eval::VariantEval;

use crate::support;
use support::sorted_moves;

fn alice() -> VariantRef {
    builtin("alice").expect("alice is built in")
}

fn pos(fen: &str) -> Position {
    Position::from_fen(&alice(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Both FEN forms read to the same position; Chimera writes the wide one.
#[test]
fn both_fen_forms_read_and_the_wide_one_is_written() {
    let fsf = pos("rnbqkbnr/pppp1ppp/8/4|p3/4|P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let wide = "rnbqkbnr8/pppp1ppp8/16/12p3/12P3/16/PPPP1PPP8/RNBQKBNR8 w KQkq - 0 2";
    assert_eq!(fsf.fen(), wide);
    assert_eq!(pos(wide).hash(), fsf.hash());
    for bad in [
        "rnbqkbnr/pppp1ppp/8/4|p3/4|P4/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "rnbqkbnr/pppp1ppp/8/4|p3/4|P3/8/PPPP1PPP/RNBQKBNR w1 KQkq - 0 2",
        "rnbqkbnr9/pppp1ppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    ] {
        assert!(Position::from_fen(&alice(), bad).is_err(), "{bad}");
    }
}

/// The first moves cross to board B: e2-e4 lands on B's e4 (m4). A capture is written from the
/// capturing man's square to where he lands: after d7-d5 (to B's d5, l5) the pawn on B's e4
/// takes on B's d5 and lands on A's d5 (`m4d5`).
#[test]
fn moves_are_written_from_square_to_final_square() {
    let mut p = Position::startpos(&alice());
    assert!(sorted_moves(&mut p).contains(&"e2m4".to_string()));
    p.try_play("e2m4").unwrap();
    // d7-d5 lands on B's d5 (l5), next to White's pawn on B's e4 (m4), which takes it.
    p.try_play("d7l5").unwrap();
    let mv = p.parse_move("m4d5").expect("the capture");
    assert!(p.is_capture(mv));
    p.make_move(mv);
    let g = &p.variant().geometry();
    assert!(p.piece_at(g.parse_square("l5").unwrap()).is_none());
    assert!(p.piece_at(g.parse_square("d5").unwrap()).is_some());
}

/// Castling is played on the king's board as in chess and moves king and rook across: from
/// e1/h1 on A to g1/f1 on B (o1/n1), written as the king's move e1o1. A rook on B's f8 does
/// not stop it (the rook lands on B's f1 and the king passes f1 only on A); a rook on A's f8
/// does; a rook on B's g8 does (the king would stand in check on B's g1).
#[test]
fn castling_moves_king_and_rook_across() {
    let mut p = pos("7|k/8/8/8/8/8/8/4K2R w K - 0 1");
    p.try_play("e1o1").unwrap();
    let g = &p.variant().geometry();
    let at = |p: &Position, s: &str| p.piece_at(g.parse_square(s).unwrap()).map(|x| x.id);
    assert!(at(&p, "o1").is_some() && at(&p, "n1").is_some());
    assert!(at(&p, "e1").is_none() && at(&p, "h1").is_none());
    for (fen, legal) in [
        ("5|r1|k/8/8/8/8/8/8/4K2R w K - 0 1", true),
        ("5r1|k/8/8/8/8/8/8/4K2R w K - 0 1", false),
        ("6|r|k/8/8/8/8/8/8/4K2R w K - 0 1", false),
    ] {
        assert_eq!(pos(fen).parse_move("e1o1").is_ok(), legal, "{fen}");
    }
}

/// A king's move must be safe on his own board before he crosses, and where he lands: King
/// e1 (A) with a rook on A's d8 may not go to d1 or d2 (attacked on A) although B's d1 and d2
/// are safe; e2, f1, f2 are fine (B's m2, n1, n2).
#[test]
fn a_kings_move_is_checked_on_both_boards() {
    let mut p = pos("3r3|k/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(sorted_moves(&mut p), ["e1m2", "e1n1", "e1n2"]);
}

/// Fairy-Stockfish's alice branch has no en passant: after e2-e4 (to B's e4) next to a black
/// pawn on B's d4, Black has only the pawn's step d4-d3.
#[test]
fn there_is_no_en_passant() {
    let mut p = pos("4k3/8/8/8/3|p4/8/4P3/4K3 w - - 0 1");
    p.try_play("e2m4").unwrap();
    assert!(p.fen().contains(" - 0 1"), "{}", p.fen());
    let pawn_moves: Vec<String> = sorted_moves(&mut p)
        .into_iter()
        .filter(|m| m.starts_with("l4"))
        .collect();
    assert_eq!(pawn_moves, ["l4d3"]);
}

/// Random games: make/unmake, hash, FEN round trip and move text stay consistent.
#[test]
fn random_games_stay_consistent() {
    let kinds = common::random_games_stay_consistent(&alice(), 3, 4, 120);
    assert!(
        kinds.contains("Transfer") && kinds.contains("Castle"),
        "{kinds:?}"
    );
}

/// Self-play to the end of the game, every move legal.
#[test]
fn self_play_reaches_the_end_of_the_game() {
    let v = alice();
    let eval = VariantEval::new(&v);
    let mut searcher = Searcher::new(4, 1);
    let mut p = Position::startpos(&v);
    let limits = Limits {
        nodes: Some(2000),
        ..Limits::default()
    };
    for _ in 0..1000 {
        if let Some(end) = p.outcome() {
            eprintln!("alice self-play: {end} after {} plies", p.game_ply());
            return;
        }
        let r = searcher.search(&p, &limits, &eval, &mut Silent);
        let best = r.best.expect("a move");
        assert_eq!(r.turn, [best]);
        assert!(p.legal_moves().contains(&best), "{}", p.fen());
        p.make_move(best);
    }
    panic!("no result after 1000 moves: {}", p.fen());
}
