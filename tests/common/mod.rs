//! Shared by the variant test files: seeded random games that check the engine against itself
//! where the reference generator of tests/props.rs does not reach (multi-leg moves, reserve men,
//! drop rules): at every ply every legal move is made and unmade and must restore the position
//! exactly, the incremental hash equals a recomputation, the FEN reads back to the same position,
//! and counting the legal moves agrees with listing them.

use std::collections::BTreeSet;

use chimera_engine::{Position, VariantRef};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Plays `games` random games of up to `plies` plies; returns the kinds of move met.
pub fn random_games_stay_consistent(
    v: &VariantRef,
    seed: u64,
    games: usize,
    plies: usize,
) -> BTreeSet<String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut kinds = BTreeSet::new();
    for _ in 0..games {
        let mut pos = Position::startpos(v);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            assert_eq!(pos.count_legal(), moves.len() as u64, "{}", pos.fen());
            let (fen, hash) = (pos.fen(), pos.hash());
            for &m in moves.iter() {
                kinds.insert(format!("{:?}", m.kind));
                let before = pos.clone();
                let text = before.move_text(m);
                pos.make_move(m);
                assert!(pos.validate().is_ok(), "{fen}: {text} broke the position");
                let back = Position::from_fen(v, &pos.fen())
                    .unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
                assert_eq!(back.fen(), pos.fen(), "FEN round trip after {text}");
                pos.unmake_move();
                assert!(
                    pos.same_state(&before),
                    "{fen}: unmaking {text} did not restore it"
                );
                let mut again = before.clone();
                assert_eq!(
                    again.parse_move(&text),
                    Ok(m),
                    "{fen}: {text} does not read back"
                );
            }
            assert_eq!((pos.fen(), pos.hash()), (fen, hash));
            pos.make_move(moves[rng.gen_range(0..moves.len())]);
        }
    }
    kinds
}
