//! Shared by the variant test files: seeded random games that check the engine against itself
//! where the reference generator of tests/props.rs does not reach (multi-leg moves, reserve men,
//! drop rules): at every ply every legal move is made and unmade and must restore the position
//! exactly, the incremental hash equals a recomputation, the FEN reads back to the same position,
//! counting the legal moves agrees with listing them, and every legality shortcut (the fast
//! path's guard, the deferred tests, the single-move test) agrees with making the move.

use std::collections::BTreeSet;

use chimera_engine::{Move, MoveList, Position, VariantRef};
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
            shortcuts_agree_with_making(&mut pos, &moves);
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

/// The legal moves `legal` of `pos`, and the search's single-move and deferred tests, are the
/// pseudo-legal moves whose making leaves the royal man safe: the truth every shortcut that
/// judges a move without making it must keep (entry, gating and succession change the board
/// beyond the mover's own squares). Board-rule variants judge legality their own way.
fn shortcuts_agree_with_making(pos: &mut Position, legal: &MoveList) {
    if pos.variant().needs_board_rules() {
        return;
    }
    let fen = pos.fen();
    let mut pseudo = MoveList::new();
    pos.generate_pseudo_legal(&mut pseudo);
    let truth: Vec<Move> = pseudo
        .iter()
        .copied()
        .filter(|&m| pos.is_legal_by_making(m))
        .collect();
    let text = |pos: &Position, list: &[Move]| -> BTreeSet<String> {
        list.iter().map(|&m| pos.move_text(m)).collect()
    };
    assert_eq!(
        text(pos, legal),
        text(pos, &truth),
        "{fen}: the legal moves differ from those that leave the royal man safe"
    );
    let in_check = pos.in_check();
    for &m in pseudo.iter() {
        assert_eq!(
            pos.is_pseudo_legal_move_legal(m, in_check),
            truth.contains(&m),
            "{fen}: the single-move test misjudges {}",
            pos.move_text(m)
        );
    }
    let mut listed = MoveList::new();
    let deferred = pos.generate_legal_deferred(&mut listed);
    let passed: Vec<Move> = listed
        .iter()
        .copied()
        .filter(|&m| !deferred.needs_test(m) || pos.passes_deferred_test(m, &deferred))
        .collect();
    assert_eq!(
        text(pos, &passed),
        text(pos, &truth),
        "{fen}: the deferred tests misjudge"
    );
}
