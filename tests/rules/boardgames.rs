//! Fairy-Stockfish's board games (walls, the duck, reversi and ataxx): each rule played on a
//! position and the result compared with the position Fairy-Stockfish reaches by the same
//! moves (the FENs after the moves are pyffish 0.0.90's `get_fen`, kept as facts), and the
//! game ends these rules bring.

use chimera_engine::registry::builtin;
use chimera_engine::rules::outcome::Termination;
use chimera_engine::{Color, Position, VariantRef};

use crate::support;
use support::sorted_moves;

fn variant(name: &str) -> VariantRef {
    builtin(name).unwrap_or_else(|| panic!("{name} is built in"))
}

/// Plays `moves` from `fen` and checks that the position is the one Fairy-Stockfish reaches
/// (the same men, walls, hands and side to move: the same hash as its FEN read afresh), that
/// the FEN Chimera writes reads back to it, and that taking the moves back restores the start.
fn plays_to(name: &str, fen: &str, moves: &[&str], fsf_fen: &str) -> Position {
    let v = variant(name);
    let mut pos = Position::from_fen(&v, fen).expect("start FEN");
    let start = (pos.hash(), pos.fen());
    for m in moves {
        pos.try_play(m)
            .unwrap_or_else(|e| panic!("{name}: {m} refused: {e:?}"));
    }
    let theirs = Position::from_fen(&v, fsf_fen).expect("FSF's FEN");
    assert_eq!(
        pos.hash(),
        theirs.hash(),
        "{name}: {} after {moves:?}, FSF {fsf_fen}",
        pos.fen()
    );
    let again = Position::from_fen(&v, &pos.fen()).expect("own FEN");
    assert_eq!(again.hash(), pos.hash(), "{name}: {} reads back", pos.fen());
    let mut back = pos.clone();
    for _ in moves {
        back.unmake_move();
    }
    assert_eq!((back.hash(), back.fen()), start, "{name}: unmade");
    pos
}

#[test]
fn a_reversi_drop_turns_the_line_it_encloses() {
    let start = variant("flipello").start_fen().to_string();
    let pos = plays_to(
        "flipello",
        &start,
        &["P@d6"],
        "8/8/3P4/3PP3/3Pp3/8/8/8[PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPpppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp] b - - 0 1",
    );
    // Only drops that enclose a line: FSF lists P@e3 P@f4 P@c5 P@d6 from the start.
    let mut start_pos = Position::startpos(&variant("flipello"));
    let drops = sorted_moves(&mut start_pos);
    assert_eq!(drops, ["P@c5", "P@d6", "P@e3", "P@f4"]);
    assert!(pos.fen().starts_with("8/8/3P4/3PP3/"));
}

#[test]
fn an_ataxx_copy_and_jump_turn_their_neighbours() {
    let fen = "6p/7/7/7/2p4/1p5/P6 w - - 0 1";
    // A copy: a new man next to a friend, the man on a1 stays; b2 turns.
    plays_to("ataxx", fen, &["P@a2"], "6p/7/7/7/2p4/PP5/P6 b - - 0 1");
    // A jump: the man leaves a1; b2 and c3 around c2 turn.
    plays_to("ataxx", fen, &["a1c2"], "6p/7/7/7/2P4/1PP4/7 b - - 1 1");
    // A copy needs a friend next to it and no man in hand.
    let mut pos = Position::from_fen(&variant("ataxx"), fen).unwrap();
    assert!(pos.try_play("P@g7").is_err());
    assert!(!pos.fen().contains('['), "ataxx has no hand: {}", pos.fen());
}

#[test]
fn an_arrow_and_a_trail_become_walls() {
    let start = variant("amazons").start_fen().to_string();
    let pos = plays_to(
        "amazons",
        &start,
        &["d1d5,d5d9"],
        "3q2q3/3*6/10/q8q/10/3Q6/Q8Q/10/10/6Q3 b - - 1 1",
    );
    assert!(pos.fen().starts_with("3q2q3/3*6/"), "{}", pos.fen());
    // An arrow must fly along a queen line from where the amazon lands, not through a man.
    let mut pos = Position::startpos(&variant("amazons"));
    assert!(pos.try_play("d1d5,d5f6").is_err());
    assert!(pos.try_play("d1d5,d5d10").is_err());
    let start = variant("snailtrail").start_fen().to_string();
    plays_to(
        "snailtrail",
        &start,
        &["a1a2,a2a1"],
        "6p/7/7/7/7/P6/*6 b - - 1 1",
    );
    let mut pos = Position::startpos(&variant("snailtrail"));
    assert!(
        pos.try_play("a1a2,a2b2").is_err(),
        "the trail is where he was"
    );
}

#[test]
fn the_duck_moves_on_and_blocks_lines() {
    let start = variant("duck").start_fen().to_string();
    let pos = plays_to(
        "duck",
        &start,
        &["e2e4,e4e5", "e7e6,e6d4"],
        "rnbqkbnr/pppp1ppp/4p3/8/3*P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    );
    // One duck: it left e5; White now has 899 moves, as in FSF.
    assert_eq!(pos.fen().matches('*').count(), 1, "{}", pos.fen());
    let mut pos = pos;
    assert_eq!(pos.legal_moves().len(), 899);
    // The duck may not stay where it is.
    let mut pos = Position::startpos(&variant("duck"));
    pos.try_play("e2e4,e4e5").unwrap();
    assert!(pos.try_play("d7d6,d6e5").is_err(), "the duck must move on");
    assert_eq!(pos.legal_moves().len(), 589);
    // The duck on c1 blocks the rook's rank: a1 reaches b1 and the a-file only (FSF: the
    // same eight, 780 moves in all with the duck's squares).
    let mut pos = Position::from_fen(&variant("duck"), "4k3/8/8/8/8/8/8/R1*1K3 w - - 0 1").unwrap();
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 780);
    let mut rook: Vec<String> = moves
        .iter()
        .map(|&m| pos.move_text(m))
        .filter(|t| t.starts_with("a1"))
        .map(|t| t[..4].to_string())
        .collect();
    rook.sort();
    rook.dedup();
    assert_eq!(
        rook,
        ["a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", "a1b1"]
    );
}

#[test]
fn walls_in_a_fen_are_read_kept_and_written() {
    let v = builtin("isolation").unwrap();
    let fen = "*****p/******/******/******/******/******/******/P***** w - - 0 1";
    let mut pos = Position::from_fen(&v, fen).expect("walls");
    assert_eq!(pos.fen(), fen);
    // Walled in: no move, and a side without a move loses (FSF: -32000 for the side to move).
    assert!(pos.legal_moves().is_empty());
    let end = pos.outcome().expect("over");
    assert_eq!(end.winner, Some(Color::Black));
    // A wall is hashed: the same men without the wall are another position.
    let open = Position::from_fen(
        &v,
        "5p/******/******/******/******/******/******/P***** w - - 0 1",
    )
    .unwrap();
    assert_ne!(open.hash(), pos.hash());
    // Chess reads `*` after a man as Chimera's "has moved" mark and refuses a lone `*`.
    let chess = builtin("chess").unwrap();
    assert!(Position::from_fen(
        &chess,
        "*nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    )
    .is_err());
}

#[test]
fn a_full_board_is_decided_by_counting_men() {
    let v = builtin("ataxx").unwrap();
    let mut pos = Position::from_fen(
        &v,
        "PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/PPPPPPP/ppppppp/pppppp1 b - - 0 1",
    )
    .unwrap();
    pos.try_play("P@g1").unwrap();
    // The board is full: 35 white men against 14, White wins (FSF: +32000 for White to move).
    let end = pos.outcome().expect("full board");
    assert_eq!(end.winner, Some(Color::White));
    assert_eq!(end.reason, Termination::FullBoard);
    assert!(pos.legal_moves().is_empty());
}

#[test]
fn a_side_without_men_or_moves_passes_or_loses_as_fsf_says() {
    // Ataxx: Black has no man: no move, no pass; FSF scores it -32000 for Black.
    let v = builtin("ataxx").unwrap();
    let mut pos = Position::from_fen(&v, "P6/7/7/7/7/7/7 b - - 0 1").unwrap();
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.outcome().expect("over").winner, Some(Color::White));
    // Flipello: White cannot drop anywhere but has men: the one legal move is a pass.
    let v = builtin("flipello").unwrap();
    let mut pos = Position::from_fen(
        &v,
        "pPpppppp/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/pppppppp/ppppppp1[Pp] w - - 0 1",
    )
    .unwrap();
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 1);
    // Written as pyffish 0.0.90 writes it: with no king, the lowest man onto his own square.
    assert_eq!(pos.move_text(moves[0]), "b8b8");
}
