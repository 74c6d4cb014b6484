//! Self-play: the search plays whole games of every built-in variant against itself (a small
//! fixed number of nodes per move, one thread, so the games are the same every run). Every move
//! it chooses must be one of the legal moves, and every game must end by the rules
//! (`Position::outcome`) or reach the ply limit with the position still consistent. Where a
//! turn has several parts (Alice Guard) the search's answer is a whole turn, every part legal.

use chimera_engine::registry::builtin;
use chimera_engine::search::{Limits, Searcher, Silent};
use chimera_engine::Position;
use chimera_eval::VariantEval;

fn play(name: &str, nodes: u64, max_plies: usize) -> (usize, Option<String>) {
    let v = builtin(name).unwrap_or_else(|| panic!("{name}"));
    let eval = VariantEval::new(&v);
    let mut searcher = Searcher::new(4, 1);
    let mut pos = Position::startpos(&v);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    for ply in 0..max_plies {
        if let Some(end) = pos.outcome() {
            return (ply, Some(end.to_string()));
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
    (max_plies, None)
}

#[test]
fn every_builtin_variant_plays_legal_games() {
    for (name, nodes, plies) in [
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
    ] {
        let (plies_played, end) = play(name, nodes, plies);
        assert!(
            plies_played > 10,
            "{name}: the game ended after {plies_played} plies: {end:?}"
        );
    }
}
