//! The drop/hand family and n-check (Fairy-Stockfish's crazyhouse, loop, bughouse, koedem,
//! placement, three-check, ...): each rule seen at work on a position of its own, with the
//! counts and FENs Fairy-Stockfish (pyffish 0.0.90) gives for the same positions and moves.

use crate::session;
use session::{talk, uci, xboard};

use chimera_engine::registry::builtin;
use chimera_engine::rules::outcome::Termination;
use chimera_engine::types::Color;
use chimera_engine::{MoveKind, Position};

use crate::support;
use support::sorted_moves;

/// The position of `variant` after `moves` (UCI text) from `fen`.
fn after(variant: &str, fen: &str, moves: &str) -> Position {
    let v = builtin(variant).unwrap_or_else(|| panic!("{variant} is built in"));
    let mut pos = Position::from_fen(&v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for text in moves.split_whitespace() {
        let mv = pos
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{variant}: {text} in {}: {e}", pos.fen()));
        pos.make_move(mv);
        assert!(pos.validate().is_ok(), "{variant}: broken after {text}");
    }
    pos
}

/// Asserts that `pos` is the position of Fairy-Stockfish's `fen`, and that Chimera writes the
/// board and the hand as Fairy-Stockfish does (the men in hand in its order).
fn assert_is(pos: &Position, fen: &str) {
    let same = Position::from_fen(pos.variant(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(pos.hash(), same.hash(), "{} is not {fen}", pos.fen());
    let board_and_hand = |f: &str| f.split(' ').next().unwrap_or("").to_string();
    assert_eq!(board_and_hand(&pos.fen()), board_and_hand(fen));
}

/// Fairy-Stockfish writes a hand from its last piece type down to its first (king, custom
/// pieces, ..., gold, ..., queen, rook, bishop, knight, pawn), whatever order the FEN read
/// had; Chimera writes the same text (pyffish 0.0.90's get_fen of these positions).
#[test]
fn hands_are_written_in_fairy_stockfishs_order() {
    for (variant, read, written) in [
        (
            "crazyhouse",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[PpNnQRBNPqrbnp] w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QRBNNPPqrbnnpp] w KQkq - 0 1",
        ),
        (
            "shogi",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[RBGSNLPrbgsnlp] w - - 0 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[GNLPSRBgnlpsrb] w - - 0 1",
        ),
        (
            "shouse",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhePQRBNpqrbn] w KQBCDFGkqbcdfg - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHQRBNPehqrbnp] w KQBCDFGkqbcdfg - 0 1",
        ),
        (
            "seirawan",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] w KQBCDFGkqbcdfg - 0 1",
        ),
        (
            "minishogi",
            "rbsgk/4p/5/P4/KGSBR[PGSBRpgsbr] w - - 0 1",
            "rbsgk/4p/5/P4/KGSBR[GPSRBgpsrb] w - - 0 1",
        ),
    ] {
        assert_eq!(after(variant, read, "").fen(), written, "{variant}");
    }
}

#[test]
fn a_captured_promoted_queen_enters_the_hand_as_a_pawn() {
    let start = "r3k2r/pPpq1ppp/8/8/8/8/PpPQ1PPP/R3K2R[NNbb] w KQkq - 0 10";
    let moves = "b7a8q B@b8 d2d7 e8d7 e1g1 b2a1q f1a1";
    // Fairy-Stockfish's FENs, move by move: the promoted men are marked `~`, and the queen
    // taken on a1 gives White a pawn.
    let pos = after("crazyhouse", start, "b7a8q");
    assert_is(
        &pos,
        "Q~3k2r/p1pq1ppp/8/8/8/8/PpPQ1PPP/R3K2R[RNNbb] b KQk - 0 10",
    );
    let pos = after("crazyhouse", start, moves);
    assert_is(
        &pos,
        "Q~b5r/p1pk1ppp/8/8/8/8/P1P2PPP/R5K1[QRNNPqrb] b - - 0 13",
    );
    // Taken back, the mark and the hand are as they were.
    let mut pos = after("crazyhouse", start, moves);
    let before = after("crazyhouse", start, "b7a8q B@b8 d2d7 e8d7 e1g1 b2a1q");
    pos.unmake_move();
    assert!(pos.same_state(&before), "{} vs {}", pos.fen(), before.fen());
    assert_eq!(pos.hash(), before.hash());
    // Loop chess keeps the captured man as he is; bughouse sends him to the partner.
    let pos = after("loop", start, moves);
    assert_is(
        &pos,
        "Qb5r/p1pk1ppp/8/8/8/8/P1P2PPP/R5K1[QQRNNqrb] b - - 0 13",
    );
}

#[test]
fn the_mark_survives_a_fen_and_changes_the_count() {
    // White takes the promoted queen on b2 and drops what it got: a pawn in crazyhouse, a
    // queen in loop chess (pyffish: 1596 and 1669 at depth 3).
    let fen = "4k3/8/8/8/8/8/1q~6/1R2K3[] w - - 0 1";
    for (variant, expected) in [("crazyhouse", 1596), ("loop", 1669), ("bughouse", 1364)] {
        let v = builtin(variant).expect("built in");
        let mut pos = Position::from_fen(&v, fen).expect("FEN");
        // Loop chess does not mark promoted men (Fairy-Stockfish writes no `~` there).
        let written = if variant == "loop" { "1q6/" } else { "1q~6/" };
        assert!(pos.fen().contains(written), "{}", pos.fen());
        assert_eq!(pos.perft(3), expected, "{variant}");
    }
    // The mark is part of the position: a promoted queen is not a queen.
    let v = builtin("crazyhouse").expect("built in");
    let plain = Position::from_fen(&v, "4k3/8/8/8/8/8/1q6/1R2K3[] w - - 0 1").expect("FEN");
    let marked = Position::from_fen(&v, fen).expect("FEN");
    assert_ne!(plain.hash(), marked.hash());
}

#[test]
fn the_third_check_wins() {
    // 1+1: each side has one check left.
    let fen = "4k2q/8/8/8/8/8/8/Q3K3 b - - 1+1 0 1";
    let v = builtin("3check").expect("built in");
    let mut pos = Position::from_fen(&v, fen).expect("FEN");
    assert_eq!(pos.checks_remaining(Color::White), Some(1));
    // Black's queen checks on h4: Black has given its last check.
    let mut won = after("3check", fen, "h8h4");
    assert!(won.fen().contains(" 1+0 "), "{}", won.fen());
    let end = won.outcome().expect("the game is over");
    assert_eq!(end.winner, Some(Color::Black));
    assert_eq!(end.reason, Termination::Checks);
    assert!(won.legal_moves().is_empty());
    // A quiet move counts nothing and the game goes on.
    let mut quiet = after("3check", fen, "e8d7");
    assert!(quiet.fen().contains(" 1+1 "), "{}", quiet.fen());
    assert!(quiet.outcome().is_none());
    // pyffish: perft 3 from White's side is 6285 with one check left each, 7029 with two.
    for (counters, expected) in [("1+1", 6285), ("2+2", 7029)] {
        let fen = format!("4k2q/8/8/8/8/8/8/Q3K3 w - - {counters} 0 1");
        let mut white = Position::from_fen(&v, &fen).unwrap();
        assert_eq!(white.perft(3), expected, "{counters}");
    }
    assert_eq!(pos.perft(1), 21);
}

#[test]
fn check_counters_are_read_and_written_as_fairy_stockfish_does() {
    // The opening check: 3+3 becomes 2+3 (pyffish's FEN after these moves).
    let pos = after(
        "3check",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        "e2e4 e7e5 f1b5 c7c6 b5c6 d7c6 d1h5 g8f6 h5f7",
    );
    assert_eq!(
        pos.fen(),
        "rnbqkb1r/pp3Qpp/2p2n2/4p3/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 2+3 0 5"
    );
    let v = builtin("5check").expect("built in");
    // Without counters the next check wins (Fairy-Stockfish's reading); Lichess's checks
    // given count from three.
    let bare = Position::from_fen(&v, "4k3/8/8/8/8/8/8/Q3K2q w - - 0 1").unwrap();
    assert_eq!(bare.checks_remaining(Color::White), Some(1));
    let lichess = Position::from_fen(&v, "4k3/8/8/8/8/8/8/Q3K2q w - - 0 1 +2+0").unwrap();
    assert_eq!(lichess.checks_remaining(Color::White), Some(1));
    assert_eq!(lichess.checks_remaining(Color::Black), Some(3));
    // The counters are part of the position.
    let a = Position::from_fen(&v, "4k3/8/8/8/8/8/8/Q3K2q w - - 2+2 0 1").unwrap();
    let b = Position::from_fen(&v, "4k3/8/8/8/8/8/8/Q3K2q w - - 2+1 0 1").unwrap();
    assert_ne!(a.hash(), b.hash());
    assert!(Position::from_fen(&v, "4k3/8/8/8/8/8/8/Q3K2q w - - x+1 0 1").is_err());
}

#[test]
fn a_side_that_must_drop_has_only_drops() {
    // Placement: while men are in hand, only drops on the first rank.
    let v = builtin("placement").expect("built in");
    let mut pos = Position::startpos(&v);
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 40);
    assert!(moves.iter().all(|m| m.kind == MoveKind::Drop));
    // Bishops on both colours: with one bishop on a dark square, the other may not go on one.
    let mut pos = after("placement", v.start_fen(), "B@c1 B@c8");
    let texts = sorted_moves(&mut pos);
    assert!(
        !texts.iter().any(|t| t == "B@a1" || t == "B@e1"),
        "{texts:?}"
    );
    assert!(texts.iter().any(|t| t == "B@b1"), "{texts:?}");
    // King and rook dropped on their squares may castle (pyffish's FEN).
    let pos = after("placement", v.start_fen(), "K@e1 K@e8 R@h1 R@a8 B@c1 B@c8");
    assert_is(
        &pos,
        "r1b1k3/pppppppp/8/8/8/8/PPPPPPPP/2B1K2R[QRBNNqrbnn] w Kq - 0 4",
    );
    // Koedem: a king in hand must be dropped, and nothing else may be.
    let v = builtin("koedem").expect("built in");
    let mut pos = Position::from_fen(
        &v,
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Kk] b KQ - 0 1",
    )
    .unwrap();
    let moves = pos.legal_moves();
    assert!(!moves.is_empty());
    assert!(moves
        .iter()
        .all(|m| m.kind == MoveKind::Drop && pos.move_text(*m).starts_with("K@")));
}

/// S-House: gating puts a man down from the hand, so the drop rules hold for it, and a gate
/// belongs to the man who starts on it. Counts from pyffish 0.0.90 (`legal_moves`,
/// tools/pyffish_perft.py).
#[test]
fn shouse_gates_by_the_drop_rules() {
    // Issue #78's position: Black holds a pawn, which may not be gated onto his first rank
    // (no pawn drops there). Chimera listed 66 moves, with b8a6p b8c6p g8f6p g8h6p;
    // pyffish 62, perft 62, 3934, 172878.
    let fen = "rnbqkbnr/pppppppp/4e3/7E/8/8/PPPPNPPP/RNBQKBHR[Hp] b KQBCDFkqbcdfg - 1 4";
    let mut pos = after("shouse", fen, "");
    let texts = sorted_moves(&mut pos);
    assert_eq!(texts.len(), 62, "{texts:?}");
    assert!(!texts.iter().any(|t| t.ends_with('p')), "{texts:?}");
    assert!(texts.iter().any(|t| t == "P@a6"), "{texts:?}");
    assert_eq!(
        [pos.perft(1), pos.perft(2), pos.perft(3)],
        [62, 3934, 172878]
    );
    // A knight dropped back on g8, his start square but no gate since the first knight left,
    // opens none: only g8f6 and g8h6 (pyffish), no gating forms. Perft 127, 11151, 1082669.
    let fen = "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhen] b KQBCDFGkqbcdf - 0 1";
    let mut pos = after("shouse", fen, "N@g8 a2a3");
    let knight: Vec<String> = sorted_moves(&mut pos)
        .into_iter()
        .filter(|t| t.starts_with("g8"))
        .collect();
    assert_eq!(knight, ["g8f6", "g8h6"]);
    let written = pos.fen();
    let rights = written.split(' ').nth(2).unwrap_or("");
    assert!(!rights.contains('g'), "{written}");
    let mut pos = after("shouse", fen, "");
    assert_eq!(
        [pos.perft(1), pos.perft(2), pos.perft(3)],
        [127, 11151, 1082669]
    );
}

#[test]
fn sittuyin_sets_up_then_promotes_to_a_ferz() {
    let v = builtin("sittuyin").expect("built in");
    // The setup: only drops, rooks only on the first rank (pyffish: 88 moves, perft 2 7744).
    let mut pos = Position::startpos(&v);
    let texts = sorted_moves(&mut pos);
    assert_eq!(texts.len(), 88);
    assert!(texts.iter().all(|t| t.contains('@')));
    assert!(texts
        .iter()
        .filter(|t| t.starts_with("R@"))
        .all(|t| t.ends_with('1')));
    // A side's only pawn may promote anywhere: in place, or by a ferz step to an empty
    // square, never attacking an enemy man; with a ferz on the board, not at all.
    let fen = "8/5k2/8/3P4/8/8/8/4K3[] w - - 0 1";
    let mut pos = Position::from_fen(&v, fen).unwrap();
    let texts = sorted_moves(&mut pos);
    for t in ["d5d5f", "d5c4f", "d5c6f", "d5e4f"] {
        assert!(texts.contains(&t.to_string()), "{t}: {texts:?}");
    }
    // e6 would attack the king on f7: a check, which a promotion may not give.
    assert!(!texts.contains(&"d5e6f".to_string()), "{texts:?}");
    let mv = pos.parse_move("d5d5f").unwrap();
    pos.make_move(mv);
    assert!(pos.validate().is_ok());
    assert!(pos.fen().starts_with("8/5k2/8/3F4/"), "{}", pos.fen());
    pos.unmake_move();
    assert!(pos.fen().starts_with("8/5k2/8/3P4/"), "{}", pos.fen());
    // pyffish: two pawns (the one on b3 outside the zone) 5871 at depth 4, 546 at depth 3
    // with a ferz on d1 already.
    for (fen, depth, expected) in [
        ("8/5k2/8/3P4/8/1P6/8/4K3[] w - - 0 1", 4, 5871),
        ("8/5k2/8/3P4/8/1P6/8/3FK3[] w - - 0 1", 3, 546),
    ] {
        let mut pos = Position::from_fen(&v, fen).unwrap();
        assert_eq!(pos.perft(depth), expected, "{fen}");
    }
}

/// The family's built-ins, as Fairy-Stockfish names them.
const BUILTINS: &[&str] = &[
    "crazyhouse",
    "loop",
    "chessgi",
    "bughouse",
    "koedem",
    "pocketknight",
    "placement",
    "shouse",
    "dragon",
    "capahouse",
    "sittuyin",
    "3check",
    "5check",
];

#[test]
fn uci_and_xboard_list_the_family() {
    let (mut d, cap) = uci();
    let out = talk(&mut d, &cap, &["uci"]);
    let combo = out
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo"))
        .expect("UCI_Variant");
    let (mut x, xcap) = xboard();
    let features = talk(&mut x, &xcap, &["xboard", "protover 2"]).join(" ");
    let list = features
        .split("variants=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("{features}"));
    let names: Vec<&str> = list.split(',').collect();
    for name in BUILTINS {
        assert!(combo.contains(&format!(" var {name}")), "{name}: {combo}");
        assert!(names.contains(name), "{name}: {list}");
    }
    // And the engine plays one of them when asked.
    let out = talk(
        &mut d,
        &cap,
        &[
            "setoption name UCI_Variant value crazyhouse",
            "position startpos moves e2e4 d7d5 e4d5 d8d5",
            "go depth 2",
        ],
    );
    assert!(out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
}
