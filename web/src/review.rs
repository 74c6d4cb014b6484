//! Whole-game analysis (the page's "Review game"): which positions of the game are searched and
//! for how long, the score of a position the rules have ended, and each move's mark from the
//! scores before and after it (inaccuracy `?!`, mistake `?`, blunder `??`), and how a reviewed
//! game's PGN notes them (NAGs and scores). The session runs
//! the searches one after the other; this module holds the rules of the review, not its state.

use chimera_engine::search::Limits;
use chimera_engine::{Color, Move, Position};

/// The time spent on each position of the game, in ms.
pub const MS_PER_POSITION: u64 = 150;

/// The longest game reviewed, in plies (five minutes of searching).
pub const MAX_PLIES: usize = 2000;

/// A score beyond this many centipawns counts as this many (a mate in 3 and a mate in 5 are
/// both won: losing one of them for the other is no blunder).
const CAP: i32 = 1000;

/// How much a move may lose, from its mover's side, before it is marked: inaccuracy, mistake,
/// blunder.
const MARKS: [(i32, &str); 3] = [(300, "??"), (150, "?"), (70, "?!")];

/// The position after the first `ply` moves of a game from `start`.
pub fn position_at(start: &Position, moves: &[Move], ply: usize) -> Position {
    let mut pos = start.clone();
    for &mv in &moves[..ply.min(moves.len())] {
        pos.make_move(mv);
    }
    pos
}

/// The search of one position of the review.
pub fn limits() -> Limits {
    Limits {
        movetime: Some(MS_PER_POSITION),
        multipv: 1,
        ..Limits::default()
    }
}

/// White's score of a position the rules have ended (a win as a mate's score), or `None`
/// while the game goes on there.
pub fn final_score(pos: &Position) -> Option<i32> {
    let end = pos.clone().outcome()?;
    Some(match end.winner {
        Some(Color::White) => 100_000,
        Some(Color::Black) => -100_000,
        None => 0,
    })
}

/// Each move's mark: `evals[i]` is White's score before move `i` (after `i` moves), `movers[i]`
/// who made move `i`. A move is marked by what it lost from its mover's side, with scores capped
/// at ±[`CAP`]; a move with a score missing on either side is not marked.
pub fn marks(evals: &[Option<i32>], movers: &[Color]) -> Vec<Option<&'static str>> {
    movers
        .iter()
        .enumerate()
        .map(|(i, &mover)| {
            let (Some(before), Some(after)) = (evals.get(i).copied()?, evals.get(i + 1).copied()?)
            else {
                return None;
            };
            let (b, a) = (before.clamp(-CAP, CAP), after.clamp(-CAP, CAP));
            let lost = if mover == Color::White { b - a } else { a - b };
            MARKS.iter().find(|(at, _)| lost >= *at).map(|&(_, m)| m)
        })
        .collect()
}

/// The PGN NAG of a mark: `$6` (?!), `$2` (?), `$4` (??).
pub fn nag(mark: &str) -> &'static str {
    match mark {
        "??" => "$4",
        "?" => "$2",
        _ => "$6",
    }
}

/// White's score as a PGN comment says it: pawns with a sign, `+M`/`-M` for a mate.
pub fn score_text(cp: i32) -> String {
    if cp.abs() >= 90_000 {
        return if cp > 0 { "+M" } else { "-M" }.to_string();
    }
    format!("{:+.2}", cp as f64 / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_marked_by_what_they_lose() {
        use Color::{Black, White};
        let evals = [
            Some(20),
            Some(-300),
            Some(-250),
            Some(900),
            Some(5000),
            None,
        ];
        let movers = [White, Black, White, Black, White];
        // White drops 320 (a blunder); Black gives back 50 (nothing); White gains; Black
        // lets 900 become 5000, capped at 1000: 100 (an inaccuracy, not 4100); the last
        // move has no score after it.
        assert_eq!(
            marks(&evals, &movers),
            vec![Some("??"), None, None, Some("?!"), None]
        );
        let evals = [Some(0), Some(-100), Some(60), Some(-260)];
        assert_eq!(
            marks(&evals, &[White, Black, White]),
            vec![Some("?!"), Some("?"), Some("??")]
        );
    }
}
