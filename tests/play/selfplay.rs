//! Self-play: the search plays whole games of every built-in variant, and of every section of
//! Fairy-Stockfish's `variants.ini` that loads, against itself (a small fixed number of nodes
//! per move, one thread, so the games are the same every run). Every move it chooses must be
//! one of the legal moves, and every game must end by the rules (`Position::outcome`) or reach
//! the ply limit with the position still consistent. Where a turn has several parts (Alice
//! Guard) the search's answer is a whole turn, every part legal. The score of the move that
//! ends a game must be the rules' result: a mate score for the winner, zero for a draw.

use std::path::PathBuf;

use chimera_engine::registry::{builtin, builtin_names, Registry};
use chimera_engine::search::{Limits, Score, Searcher, Silent, SEARCH_STACK_BYTES};
use chimera_engine::{Position, VariantRef};
use chimera_eval::VariantEval;

/// How a game went: the plies played and the end, if it came.
struct Game {
    plies: usize,
    end: Option<String>,
}

fn play(name: &str, v: &VariantRef, nodes: u64, max_plies: usize) -> Game {
    let eval = VariantEval::new(v);
    let mut searcher = Searcher::new(4, 1);
    let mut pos = Position::startpos(v);
    let mut last_score = None;
    for ply in 0..max_plies {
        // At least two nodes a legal move, so that the first iteration ends even where a
        // position has hundreds of moves (the duck's or an amazon's squares): a score from an
        // unfinished first ply says nothing about the end it moves into.
        let limits = Limits {
            nodes: Some(nodes.max(2 * pos.legal_moves().len() as u64)),
            ..Limits::default()
        };
        if let Some(end) = pos.outcome() {
            if let Some((score, mover, last_fen)) = last_score {
                // The search saw the end it moved into: a mate score for a win, zero for a
                // draw (two plies cover it, see below; multi-part turns are left out).
                let expected = match end.winner {
                    None => "a draw",
                    Some(w) if w == mover => "a win",
                    Some(_) => "a loss",
                };
                let consistent = match (expected, score) {
                    ("a draw", Score::Cp(0)) => true,
                    ("a win", Score::Mate(n)) => n > 0,
                    ("a loss", Score::Mate(n)) => n <= 0,
                    _ => false,
                };
                assert!(
                    consistent,
                    "{name}: the game ended {end} after ply {ply}, {expected} for the mover, \
                     but the search scored the last move {score:?} (from {})",
                    last_fen
                );
            }
            return Game {
                plies: ply,
                end: Some(end.to_string()),
            };
        }
        let result = searcher.search(&pos, &limits, &eval, &mut Silent);
        let best = result
            .best
            .unwrap_or_else(|| panic!("{name}: no move in {}", pos.fen()));
        assert_eq!(
            result.turn.first(),
            Some(&best),
            "{name}: turn without best"
        );
        let mover = pos.side_to_move();
        // Judged only after two completed plies: a one-ply search ends in quiescence, which
        // sees a mate (every evasion is searched) but not a stalemate, and a search that did
        // not complete its first ply (a drop variant's hundreds of moves, each answered by
        // captures and checks) has only a partial score.
        last_score =
            (result.turn.len() == 1 && result.depth >= 2).then(|| (result.score, mover, pos.fen()));
        for &mv in &result.turn {
            assert!(
                pos.legal_moves().contains(&mv),
                "{name}: illegal {mv:?} in {}",
                pos.fen()
            );
            pos.make_move(mv);
            assert!(pos.validate().is_ok(), "{name}: broken after {mv:?}");
        }
        assert!(
            pos.side_to_move() != mover || pos.outcome().is_some(),
            "{name}: half a turn {:?} returned, now {}",
            result.turn,
            pos.fen()
        );
    }
    Game {
        plies: max_plies,
        end: None,
    }
}

/// Runs `f` on a thread with the search's stack (the search runs on its caller's thread, and
/// a test thread's stack is too small for its deepest lines).
fn on_search_stack<T: Send>(f: impl FnOnce() -> T + Send) -> std::thread::Result<T> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(SEARCH_STACK_BYTES)
            .spawn_scoped(s, f)
            .expect("a thread")
            .join()
    })
}

/// A short game of `v`, its failure (if any) as text, so that one run lists them all.
fn play_caught(name: &str, v: &VariantRef) -> Option<String> {
    let game = on_search_stack(|| play(name, v, 1000, 100));
    if let Ok(g) = &game {
        eprintln!(
            "{name}: {} plies, {}",
            g.plies,
            g.end.as_deref().unwrap_or("ply limit")
        );
    }
    game.err().map(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .map_or_else(|| format!("{name}: panicked"), |m| format!("{name}: {m}"))
    })
}

/// The seed variants, with larger budgets and games long enough to matter.
const SEEDS: &[(&str, u64, usize)] = &[
    ("chess", 3000, 200),
    ("capablanca", 3000, 120),
    ("grand", 3000, 120),
    ("berolina", 3000, 120),
    ("seirawan", 3000, 120),
    ("pawnvault", 3000, 160),
    ("pioneer", 3000, 160),
    ("pioneer-two", 3000, 120),
    ("vanguard", 1500, 80),
    ("alice", 3000, 160),
    ("aliceguard", 3000, 200),
];

#[test]
fn seed_variants_play_long_legal_games() {
    for &(name, nodes, plies) in SEEDS {
        let v = builtin(name).unwrap_or_else(|| panic!("{name}"));
        let game = on_search_stack(|| play(name, &v, nodes, plies)).expect(name);
        assert!(
            game.plies > 10,
            "{name}: the game ended after {} plies: {:?}",
            game.plies,
            game.end
        );
    }
}

/// Every other built-in (Fairy-Stockfish's, by name): short budgets, a game each.
#[test]
fn every_builtin_variant_plays_legal_games() {
    let names = builtin_names();
    assert!(names.len() > SEEDS.len(), "{names:?}");
    let mut failures = Vec::new();
    for name in names.iter().filter(|n| !SEEDS.iter().any(|s| s.0 == *n)) {
        let v = builtin(name).unwrap_or_else(|| panic!("{name}"));
        failures.extend(play_caught(name, &v));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every section of Fairy-Stockfish's own file that loads (tests/data/fsf, see its README).
#[test]
fn every_fsf_section_plays_legal_games() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fsf/variants.ini");
    let mut registry = Registry::new();
    let report = registry.load_file(path.to_str().expect("UTF-8 path"));
    assert!(report.loaded.len() > 50, "{:?}", report.loaded);
    let mut failures = Vec::new();
    for name in &report.loaded {
        let v = registry.get(name).unwrap_or_else(|| panic!("{name}"));
        failures.extend(play_caught(name, &v));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
