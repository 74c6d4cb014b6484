//! Three sections of Fairy-Stockfish's variants.ini and the keys behind them, read with
//! Fairy-Stockfish's meanings: `wildebeest` (`tripleStepRegion*`: pawn triple steps, both
//! squares passed may be taken e.p.), `castle` (`castlingWins = q`: Black wins by castling
//! queenside and loses with the last of that right) and `opposite-castling` (`oppositeCastling`:
//! castling takes the opponent's right on the same wing). Positions are reached by moves from
//! the start and checked against Fairy-Stockfish's FEN, game end and perft
//! (tests/data/fsf/castling-keys.txt, from pyffish by tools/fsf_castling_fixtures.py).

use std::path::PathBuf;

use chimera_engine::registry::Registry;
use chimera_engine::rules::outcome::Termination;
use chimera_engine::search::{Limits, Score, Searcher, Silent, SEARCH_STACK_BYTES};
use chimera_engine::types::Color;
use chimera_engine::{Position, VariantRef};
use chimera_eval::VariantEval;

use crate::support;
use support::sorted_moves;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fsf")
        .join(name)
}

fn registry() -> Registry {
    let mut registry = Registry::new();
    let report = registry.load_file(data("variants.ini").to_str().expect("UTF-8 path"));
    for name in ["wildebeest", "castle", "opposite-castling"] {
        assert!(
            report.loaded.iter().any(|n| n == name),
            "{name} does not load"
        );
    }
    registry
}

fn variant(name: &str) -> VariantRef {
    registry().get(name).expect("loaded")
}

/// The start position of `name` after the UCI moves `line`.
fn after(v: &VariantRef, line: &str) -> Position {
    let mut pos = Position::startpos(v);
    for m in line.split_whitespace() {
        pos.try_play(m)
            .unwrap_or_else(|e| panic!("{m} after '{line}' in {}: {e}", pos.fen()));
    }
    pos
}

/// Every fixture position: reached by its moves, it has Fairy-Stockfish's FEN, game end and
/// perft; read from that FEN, the same perft and hash.
#[test]
fn positions_count_and_end_as_fairy_stockfish_does() {
    let registry = registry();
    let text = std::fs::read_to_string(data("castling-keys.txt")).expect("fixture");
    let mut failures = Vec::new();
    let mut checked = [0usize; 3];
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split(';').collect();
        let (name, line_moves, fen, end) = (f[0], f[1], f[2], f[3]);
        let counts: Vec<u64> = f[4].split(' ').map(|n| n.parse().expect("count")).collect();
        let v = registry.get(name).expect("loaded");
        let mut played = after(&v, if line_moves == "-" { "" } else { line_moves });
        if played.fen() != fen {
            failures.push(format!(
                "{name} after '{line_moves}': FEN {}, FSF {fen}",
                played.fen()
            ));
        }
        let mut read = Position::from_fen(&v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(read.fen(), fen, "{name}: FEN read back");
        // The FEN keeps what the game end needs except the last move (a castling that wins).
        let got_end = match played.outcome() {
            None => "-",
            Some(e) if e.winner.is_none() => "draw",
            Some(e) if e.winner == Some(played.side_to_move()) => "win",
            Some(_) => "loss",
        };
        if got_end != end {
            failures.push(format!(
                "{name} after '{line_moves}': end {got_end}, FSF {end}"
            ));
        }
        for (d, &expected) in counts.iter().enumerate() {
            let d = d as u32 + 1;
            let got = played.perft(d);
            if got != expected {
                failures.push(format!("{name} {fen} d{d}: {got}, FSF {expected}"));
            }
            // Read from the FEN, the position is the same (except right after a winning
            // castling, whose end only the move played shows).
            if end == "-" && read.perft(d) != got {
                failures.push(format!("{name} {fen} d{d}: from the FEN {}", read.perft(d)));
            }
        }
        if end == "-" {
            assert_eq!(read.hash(), played.hash(), "{name} {fen}: hash");
        }
        let i = ["wildebeest", "castle", "opposite-castling"]
            .iter()
            .position(|n| *n == name)
            .expect("one of the three");
        checked[i] += 1;
    }
    assert!(checked.iter().all(|&n| n >= 6), "{checked:?} positions");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn wildebeest_pawns_triple_step_from_the_second_rank_only() {
    let v = variant("wildebeest");
    let mut pos = Position::startpos(&v);
    // pyffish 0.0.90 (Fairy-Stockfish): perft 4 of the start position.
    assert_eq!(pos.perft(4), 4_519_903);
    let all = sorted_moves(&mut pos);
    for m in ["e2e3", "e2e4", "e2e5", "k2k5", "a2a5"] {
        assert!(all.contains(&m.to_string()), "{m} in {all:?}");
    }
    // From the third rank: a double step, no triple step.
    let mut pos = after(&v, "e2e3 a9a8");
    let all = sorted_moves(&mut pos);
    assert!(all.contains(&"e3e5".to_string()), "{all:?}");
    assert!(!all.contains(&"e3e6".to_string()), "{all:?}");
    // Black's from the ninth rank.
    let mut pos = after(&v, "a2a3");
    let all = sorted_moves(&mut pos);
    assert!(all.contains(&"e9e6".to_string()), "{all:?}");
    // A man on a square passed blocks the step (a black knight on e4).
    let fen = "r1ccwkqbbnr/ppppppppppp/11/11/11/11/4n6/11/PPPPPPPPPPP/RNBBQKWCCNR w - - 0 1";
    let mut blocked = Position::from_fen(&v, fen).expect("FEN");
    let all = sorted_moves(&mut blocked);
    assert!(all.contains(&"e2e3".to_string()), "{all:?}");
    assert!(!all.contains(&"e2e4".to_string()) && !all.contains(&"e2e5".to_string()));
}

#[test]
fn a_triple_step_leaves_both_squares_passed_for_en_passant() {
    let v = variant("wildebeest");
    // White pawns on d7 and f6 (d7 reaches e8, f6 reaches e7): Black's e9-e6 passes both.
    let line = "d2d5 a9a8 d5d6 a8a7 f2f4 a7a6 f4f5 a6a5 f5f6 a5a4 d6d7 e9e6";
    let mut pos = after(&v, line);
    let fen = pos.fen();
    assert_eq!(fen.split(' ').nth(3), Some("e7e8"), "{fen}");
    let all = sorted_moves(&mut pos);
    assert!(all.contains(&"f6e7".to_string()), "{all:?}");
    assert!(all.contains(&"d7e8".to_string()), "{all:?}");
    // Either capture takes the pawn on e6 (the sixth rank is the FEN's fifth row).
    for m in ["f6e7", "d7e8"] {
        let mut p = pos.clone();
        p.try_play(m).expect("legal");
        let sixth = p.fen().split('/').nth(4).unwrap_or("").to_string();
        assert!(!sixth.contains('p'), "{m}: {}", p.fen());
        p.validate().expect("consistent");
    }
    // The squares go with the next move.
    pos.try_play("a2a3").expect("legal");
    assert_eq!(pos.fen().split(' ').nth(3), Some("-"));
}

#[test]
fn castling_queenside_wins_castle_chess_for_black_only() {
    let v = variant("castle");
    // White castles: nothing happens (`castlingWins = q` is Black's queenside castling).
    let mut pos = after(&v, "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1");
    assert!(pos.outcome().is_none());
    // Black castles queenside: Black wins, and no move is left.
    let queenside = "d2d4 d7d5 c1f4 c8f5 b1c3 b8c6 d1d2 d8d7 e1c1 e8c8";
    let mut won = after(&v, queenside);
    let end = won.outcome().expect("over");
    assert_eq!(end.winner, Some(Color::Black));
    assert_eq!(end.reason, Termination::Castling);
    assert!(won.legal_moves().is_empty());
    assert_eq!(won.perft(1), 0);
    // Castling kingside gives up the queenside right: Black loses.
    let mut lost = after(&v, "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1 e8g8");
    assert_eq!(lost.outcome().map(|e| e.winner), Some(Some(Color::White)));
    // So does moving the queen's rook or the king.
    for line in ["a2a4 a7a5 a1a3 a8a6", "e2e4 e7e5 d2d4 e8e7"] {
        let mut lost = after(&v, line);
        let end = lost.outcome().expect("over");
        assert_eq!(
            (end.winner, end.reason),
            (Some(Color::White), Termination::Castling)
        );
    }
    // A FEN without Black's queenside right is a lost game for Black.
    let mut fen = Position::from_fen(&v, "r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1").expect("FEN");
    assert_eq!(fen.outcome().map(|e| e.winner), Some(Some(Color::White)));
}

#[test]
fn after_castling_the_opponent_may_castle_to_the_other_wing_only() {
    let v = variant("opposite-castling");
    let pos = after(&v, "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1");
    assert_eq!(pos.fen().split(' ').nth(2), Some("q"));
    let pos = after(&v, "d2d4 d7d5 c1f4 c8f5 b1c3 b8c6 d1d2 d8d7 e1c1");
    assert_eq!(pos.fen().split(' ').nth(2), Some("k"));
    let mut open = Position::from_fen(&v, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").expect("FEN");
    let all = sorted_moves(&mut open);
    assert!(all.contains(&"e8g8".to_string()) && all.contains(&"e8c8".to_string()));
    open.try_play("e8g8").expect("legal");
    assert_eq!(open.fen().split(' ').nth(2), Some("Q"));
    let all = sorted_moves(&mut open);
    assert!(!all.contains(&"e1g1".to_string()) && all.contains(&"e1c1".to_string()));
    // Plain chess keeps both rights.
    let chess = chimera_engine::registry::builtin("chess").expect("chess");
    let mut plain = Position::from_fen(&chess, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
    plain.try_play("e8g8").expect("legal");
    assert_eq!(plain.fen().split(' ').nth(2), Some("KQ"));
}

/// The search sees castle chess's end: with Black to castle queenside at once, it does, and
/// scores it as a mate.
#[test]
fn the_search_castles_to_win() {
    let v = variant("castle");
    let pos = after(&v, "d2d4 d7d5 c1f4 c8f5 b1c3 b8c6 d1d2 d8d7 e1c1");
    let result = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(SEARCH_STACK_BYTES)
            .spawn_scoped(s, || {
                let eval = VariantEval::new(&v);
                let mut searcher = Searcher::new(4, 1);
                let limits = Limits {
                    depth: Some(3),
                    ..Limits::default()
                };
                searcher.search(&pos, &limits, &eval, &mut Silent)
            })
            .expect("a thread")
            .join()
            .expect("search")
    });
    let p = pos.clone();
    let best = result.best.expect("a move");
    assert_eq!(p.move_text(best), "e8c8");
    assert!(
        matches!(result.score, Score::Mate(n) if n > 0),
        "{:?}",
        result.score
    );
}
