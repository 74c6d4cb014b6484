//! Alice Guard Chess (docs/rules.md §2): hand-built positions for each rule with the expected
//! moves worked out beside them, the page's example game (docs/rules.md §2.8) replayed move by move,
//! the start position's perft, self-play to the end of the game, and whole turns from the
//! search.
//!
//! The three boards are one wide board: files a-h are White's Home board `w`, i-p the Guard
//! board `g`, q-x Blue's Home board `b` (so `eg2` is m2, `ew4` is e4, `eb7` is u7). Letters:
//! Home set K Q R B N P; Guard set G (guard) D (queen) T (rook) L (bishop) S (knight) F (pawn).
//! A move is written from-square and final square after the transfer; a turn of two parts is
//! one token `a,b`. The side field carries the turn phase: `w` Home part, `w1` Guard part,
//! `w2` White's single-move first turn.

use crate::common;

use chimera_engine::registry::builtin;
use chimera_engine::rules::Termination;
use chimera_engine::search::{Limits, Searcher, Silent};
use chimera_engine::{Color, Position, VariantRef};
use chimera_eval::VariantEval;

use crate::support;
use support::sorted_moves;

fn ag() -> VariantRef {
    builtin("aliceguard").expect("aliceguard is built in")
}

fn pos(fen: &str) -> Position {
    Position::from_fen(&ag(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// White's first turn is one Guard-set move: 8 pawns x (one or two steps) + 2 knights x 2 = 20
/// moves on the Guard board, each to White's or Blue's Home board (ranks 3-4 are empty on both)
/// = 40. Blue's first part, a Home move: 20 moves, each to the Guard board, whose ranks 5-6 are
/// empty = 800. Blue's Guard part: 20 moves, less those blocked on the Guard board by the Home
/// man just arrived there (a pawn on X6 stops the Guard pawn on X7 (2 moves) and a Guard knight
/// move when X6 is a6/c6/f6/h6 (1); a pawn on X5 stops the double step (1); a knight on
/// a6/c6/f6/h6 stops a pawn (2) and a knight move (1)), each to either Home board: per first
/// move 2 x (4 x 17 + 4 x 18 + 8 x 19 + 4 x 17) = 720, so 40 x 720 = 28800, as docs/rules.md §2.10 says.
/// Depth 4 (White's Home part of turn 2, only parts after which a Guard move exists) agrees
/// with tools/aliceguard_ref.py, an independent generator written from docs/rules.md alone.
#[test]
fn start_position_perft() {
    let mut p = Position::startpos(&ag());
    assert_eq!(p.fen().split(' ').nth(1), Some("w2"));
    let counts: Vec<u64> = (1..=4).map(|d| p.perft(d)).collect();
    assert_eq!(counts, [40, 800, 28800, 547200]);
}

/// The first turn is a single Guard move: every move starts on the Guard board's first two
/// ranks, and after it Blue is to move with a full turn (phase 0) ahead.
#[test]
fn whites_first_turn_is_one_guard_move() {
    let mut p = Position::startpos(&ag());
    for mv in p.legal_moves() {
        let text = p.move_text(mv);
        let from_file = text.as_bytes()[0];
        assert!(
            (b'i'..=b'p').contains(&from_file),
            "{text} is not a Guard-board move"
        );
        p.make_move(mv);
        assert_eq!(p.side_to_move(), Color::Black, "{text}");
        assert_eq!(p.turn_phase(), 0, "{text}");
        p.unmake_move();
    }
}

/// White: King h1 (w), Home bishop a2 (w), Guard rook on the Guard board's d1 (l1). Blue: King
/// h8 on Blue's board (x8), a Home pawn on the Guard board's d5 (l5), a Home knight on Blue's
/// board d4 (t4). White's Guard part. The rook moves on the Guard board to d2-d4, a1-c1, e1-h1
/// or takes on d5, then crosses to either Home board:
/// - to White's board (a-h): every square but h1 (own King): 9 moves;
/// - to Blue's board (q-x): every square but d4 (t4, the knight: an occupied destination blocks
///   the move, it is never a capture): 9 moves;
/// - the capture on d5 lands on d5 of a Home board; only on White's is it defended by a White
///   Home man (the bishop a2 through b3, c4): `l1d5`; not `l1t5`.
#[test]
fn captures_need_support_on_the_landing_board_and_destinations_must_be_empty() {
    let mut p = pos("23k/24/24/11p12/19n4/24/B23/7K3T12 w1 - - 0 1");
    let expected = sorted(&[
        "l1d2", "l1d3", "l1d4", "l1a1", "l1b1", "l1c1", "l1e1", "l1f1", "l1g1", // w
        "l1t2", "l1t3", "l1q1", "l1r1", "l1s1", "l1u1", "l1v1", "l1w1", "l1x1", // b
        "l1d5", // the supported capture
    ]);
    assert_eq!(sorted_moves(&mut p), expected);
    assert!(p.parse_move("l1t5").is_err());
    assert!(p.parse_move("l1t4").is_err());
    let mv = p.parse_move("l1d5").expect("the supported capture");
    assert!(p.is_capture(mv));
}

/// Home men never capture. White: Home rook a1 and King h1 (w), Guard guard on the Guard
/// board's h8 (p8, so that a Guard part always exists). Blue: King x8, a Guard pawn on White's
/// board a5. White's Home part: the rook goes a2-a4 (not onto the pawn on a5) and b1-g1, the
/// King g1, g2, h2, all to the Guard board: i2 i3 i4 j1 k1 l1 m1 n1 o1 and o1 o2 p2 = 12 moves.
#[test]
fn home_men_never_capture() {
    let mut p = pos("15G7k/24/24/f23/24/24/24/R6K16 w - - 0 1");
    let expected = sorted(&[
        "a1i2", "a1i3", "a1i4", "a1j1", "a1k1", "a1l1", "a1m1", "a1n1", "a1o1", "h1o1", "h1o2",
        "h1p2",
    ]);
    assert_eq!(sorted_moves(&mut p), expected);
    assert!(p.parse_move("a1i5").is_err());
}

/// Promotion stays within the set. A Guard pawn on the Guard board's a7 (i7), Guard part:
/// a8 of White's (a8) or Blue's (q8) board, as a Guard-set queen, rook, bishop, knight or guard
/// (D T L S G) = 10 moves. A Home pawn on White's b7, Home part: b8 of the Guard board (j8) as
/// a Home queen, rook, bishop or knight = 4 moves, plus the King's three (o1, o2, p2).
#[test]
fn promotion_stays_in_the_set() {
    let mut guard = pos("23k/8F15/24/24/24/24/24/7K16 w1 - - 0 1");
    let mut expected = Vec::new();
    for to in ["a8", "q8"] {
        for l in ['d', 't', 'l', 's', 'g'] {
            expected.push(format!("i7{to}{l}"));
        }
    }
    expected.sort();
    assert_eq!(sorted_moves(&mut guard), expected);

    let mut home = pos("23k/1P22/24/15G8/24/24/24/7K16 w - - 0 1");
    let expected = sorted(&["b7j8q", "b7j8r", "b7j8b", "b7j8n", "h1o1", "h1o2", "h1p2"]);
    assert_eq!(sorted_moves(&mut home), expected);
}

/// Blue: King on its board's h6 (x6) and a Guard pawn on the Guard board's h6 (p6), whose only
/// move is to h5 on the Guard board and across. Blue's Home part: the King may go to g5, g6, g7,
/// h5 or h7 of its board and across to the Guard board (o5 o6 o7 p5 p7); after x6p5 the King
/// stands on the Guard board's h5, the pawn cannot move, no Guard part exists, so x6p5 is not
/// legal. After x6o5 the pawn goes to h5 of White's (h5) or Blue's (x5) board.
#[test]
fn a_first_part_must_leave_a_second() {
    let mut p = pos("24/24/15f7k/24/24/24/24/K23 b - - 0 1");
    assert_eq!(
        sorted_moves(&mut p),
        sorted(&["x6o5", "x6o6", "x6o7", "x6p7"])
    );
    assert!(p.parse_move("x6p5").is_err());
    p.try_play("x6o5").unwrap();
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.turn_phase(), 1);
    assert_eq!(sorted_moves(&mut p), sorted(&["p6h5", "p6x5"]));
    p.try_play("p6x5").unwrap();
    assert_eq!((p.side_to_move(), p.turn_phase()), (Color::White, 0));
}

/// Stalemate loses: Blue has only its King (x8), which can move, but no Guard man to make the
/// second part, so no legal complete turn: White wins.
#[test]
fn no_legal_complete_turn_loses() {
    let mut p = pos("23k/24/24/24/24/24/24/K23 b - - 0 1");
    assert!(p.legal_moves().is_empty());
    let end = p.outcome().expect("the game is over");
    assert_eq!(end.winner, Some(Color::White));
    assert_eq!(end.reason, Termination::Stalemate);
}

/// Capturing the King wins at once. White: Home rook a8 (w), King h1 (w), Guard rook on the
/// Guard board's e1 (m1). Blue: King on the Guard board's e8 (m8). The rook takes the King
/// on the Guard board and lands on e8 of White's board, defended there by the Home rook a8
/// (b8-d8 empty): `m1e8`; on Blue's board (u8) there is no support. Nothing is in check:
/// White's King on h1 could have been attacked without any effect.
#[test]
fn taking_the_king_ends_the_game() {
    let mut p = pos("R11k11/24/24/24/24/24/24/7K4T11 w1 - - 0 1");
    assert!(p.parse_move("m1u8").is_err());
    p.try_play("m1e8").unwrap();
    assert!(
        p.legal_moves().is_empty(),
        "nothing is played after the King is taken"
    );
    let end = p.outcome().expect("the King is gone");
    assert_eq!(end.winner, Some(Color::White));
    assert_eq!(end.reason, Termination::RoyalCaptured);
}

/// The page's example (docs/rules.md §2.8), in Chimera's squares, with rejected alternatives:
/// - White 1: eg2-eg4 to ew4 = m2e4 (to Blue's board, m2u4, is legal too; a Home move is not).
/// - Blue 1: eb7-eb5 to eg5 = u7m5, then gg8-fg6 to fw6 = o8f6.
/// - White 2: dw2-dw4 to dg4 = d2l4, then fg1-bg5 to bb5 = n1r5 (the page's `gg1` is a knight:
///   o1r5 is illegal).
/// - Blue 2: db8-hb4 to hg4 = t8p4 (through e7 f6 g5 of Blue's board), then the knight on fw6
///   takes ew4 and lands on eg4 = f6m4, defended on the Guard board by the queen on hg4 (f4 g4
///   empty). With another Home move first (the knight b8-c6 to the Guard board, r8k6) the
///   capture has no support and is illegal.
#[test]
fn the_pages_example_game_replays() {
    let mut p = Position::startpos(&ag());
    assert!(
        p.parse_move("d2l4").is_err(),
        "a Home move on the first turn"
    );
    assert!(p.parse_move("m2u4").is_ok());
    let turns = ["m2e4", "u7m5,o8f6", "d2l4,n1r5", "t8p4,f6m4"];
    for (i, turn) in turns.iter().enumerate() {
        if i == 2 {
            assert!(p.clone().try_play("d2l4,o1r5").is_err(), "gg1 is a knight");
            assert!(
                p.clone().try_play("d2l4,n1b5").is_ok(),
                "bw5 is the other choice"
            );
        }
        if i == 3 {
            let mut other = p.clone();
            other.try_play("r8k6").unwrap();
            assert!(
                other.parse_move("f6m4").is_err(),
                "no support without the queen"
            );
        }
        let mover = p.side_to_move();
        p.try_play(turn).unwrap_or_else(|e| panic!("{turn}: {e}"));
        assert_ne!(p.side_to_move(), mover, "{turn} is a whole turn");
    }
    let g = &p.variant().geometry();
    let at = |name: &str| p.piece_at(g.parse_square(name).unwrap());
    assert!(at("e4").is_none(), "White's Guard pawn was taken on ew4");
    let knight = at("m4").expect("Blue's knight on eg4");
    assert_eq!(knight.color, Color::Black);
    assert_eq!(p.variant().pieces()[knight.id.index()].letter, 'S');
    // A turn token must not cross into the opponent's turn, and a bad token changes nothing.
    let fen = p.fen();
    assert!(p.try_play("e2m3,i2q3,x1x2").is_err());
    assert!(p.try_play("zz,yy").is_err());
    assert_eq!(p.fen(), fen);
}

/// The FEN carries the phase, and the hash tells phases apart.
#[test]
fn the_phase_is_in_the_fen_and_the_hash() {
    let a = pos("23k/24/24/11p12/19n4/24/B23/7K3T12 w1 - - 0 1");
    let b = pos("23k/24/24/11p12/19n4/24/B23/7K3T12 w - - 0 1");
    assert_ne!(a.hash(), b.hash());
    assert_eq!(a.fen(), "23k/24/24/11p12/19n4/24/B23/7K3T12 w1 - - 0 1");
    for bad in [
        "23k/24/24/24/24/24/24/K23 b2 - - 0 1",
        "23k/24/24/24/24/24/24/K23 w3 - - 0 1",
        "23k/24/24/24/24/24/24/K23 wx - - 0 1",
    ] {
        assert!(Position::from_fen(&ag(), bad).is_err(), "{bad}");
    }
}

/// Random games: make/unmake, hash, FEN round trip and move text stay consistent.
#[test]
fn random_games_stay_consistent() {
    let kinds = common::random_games_stay_consistent(&ag(), 5, 3, 120);
    assert!(kinds.contains("Transfer"), "{kinds:?}");
}

/// The search answers with a whole turn: one move on White's first turn, two parts after.
#[test]
fn the_search_returns_whole_turns() {
    let v = ag();
    let eval = VariantEval::new(&v);
    let mut searcher = Searcher::new(4, 1);
    let mut p = Position::startpos(&v);
    for (depth, parts) in [(3, 1), (1, 2), (4, 2), (2, 2)] {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let r = searcher.search(&p, &limits, &eval, &mut Silent);
        assert_eq!(r.turn.len(), parts, "depth {depth} in {}", p.fen());
        let mover = p.side_to_move();
        for &mv in &r.turn {
            assert!(p.legal_moves().contains(&mv));
            p.make_move(mv);
        }
        assert_ne!(p.side_to_move(), mover);
    }
}

/// Self-play to the end of the game: every turn legal and whole, and the game ends by the
/// rules (a King taken, no legal turn, the move-count rule or repetition).
#[test]
fn self_play_reaches_the_end_of_the_game() {
    let v = ag();
    let eval = VariantEval::new(&v);
    let mut searcher = Searcher::new(4, 1);
    let mut p = Position::startpos(&v);
    let limits = Limits {
        nodes: Some(2000),
        ..Limits::default()
    };
    for _ in 0..2000 {
        if let Some(end) = p.outcome() {
            eprintln!("aliceguard self-play: {end} after {} plies", p.game_ply());
            return;
        }
        let r = searcher.search(&p, &limits, &eval, &mut Silent);
        let mover = p.side_to_move();
        for &mv in &r.turn {
            assert!(p.legal_moves().contains(&mv), "{}", p.fen());
            p.make_move(mv);
        }
        assert!(p.side_to_move() != mover || p.outcome().is_some());
    }
    panic!("no result after 2000 turns: {}", p.fen());
}

/// UCI (docs/protocols.md D3): `position ... moves` takes whole turns `a,b` (and single parts), and
/// `bestmove` and the PV carry whole turns; under XBoard the variant is not offered (24 files).
#[test]
fn uci_speaks_in_whole_turns() {
    use chimera_engine::registry::Registry;
    use chimera_protocol::driver::Driver;
    use chimera_protocol::state::Output;
    use chimera_protocol::uci::Uci;
    use chimera_protocol::xboard::Xboard;

    let (out, cap) = Output::capture();
    let mut d = Driver::new(Registry::new(), out, Uci::new);
    for line in [
        "uci",
        "setoption name UCI_Variant value aliceguard",
        "position startpos moves m2e4 u7m5 o8f6 d2l4,n1r5",
        "go depth 3",
    ] {
        d.feed(line);
    }
    let lines = cap.take();
    let best = lines
        .iter()
        .find(|l| l.starts_with("bestmove"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    let turn = best.split_whitespace().nth(1).unwrap();
    assert_eq!(turn.split(',').count(), 2, "{best}");
    let mut p = Position::startpos(&ag());
    for t in ["m2e4", "u7m5,o8f6", "d2l4,n1r5"] {
        p.try_play(t).unwrap();
    }
    let mover = p.side_to_move();
    p.try_play(turn).unwrap_or_else(|e| panic!("{turn}: {e}"));
    assert_ne!(p.side_to_move(), mover);
    let info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth 3"))
        .unwrap();
    assert!(info.contains(&format!(" pv {turn}")), "{info}");

    let (out, cap) = Output::capture();
    let mut x = Driver::new(Registry::new(), out, Xboard::new);
    x.feed("xboard");
    x.feed("protover 2");
    let features = cap.take().join(" ");
    let list = features
        .split("variants=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("{features}"));
    let names: Vec<&str> = list.split(',').collect();
    assert!(
        names.contains(&"alice") && !names.contains(&"aliceguard"),
        "{list}"
    );
}

/// The search sees a King capture that needs the turn's first part: White's Guard rook on
/// White's board e1 can take Blue's King on e8 of the same board and land on the Guard board's
/// e8 (m8), but only with support there: a Home part that brings the Home rook a2 to the Guard
/// board first (a2-a8 to i8, which then covers e8 along the 8th rank; or a2-e2 to m2, along
/// the e-file). The whole turn wins at once.
#[test]
fn the_search_finds_a_king_capture_prepared_by_the_home_part() {
    use chimera_engine::search::Score;
    let v = ag();
    let eval = VariantEval::new(&v);
    let mut searcher = Searcher::new(4, 1);
    let p = pos("4k19/24/24/24/24/24/R23/4T2K16 w - - 0 1");
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let r = searcher.search(&p, &limits, &eval, &mut Silent);
    let texts = |turn: &[chimera_engine::Move]| {
        let mut q = p.clone();
        turn.iter()
            .map(|&m| {
                let t = q.move_text(m);
                q.make_move(m);
                t
            })
            .collect::<Vec<_>>()
    };
    let turn = texts(&r.turn);
    assert_eq!(turn.len(), 2, "{turn:?}");
    assert_eq!(turn[1], "e1m8", "{turn:?}");
    assert_eq!(r.score, Score::Mate(1), "the king falls in the first turn");
}
