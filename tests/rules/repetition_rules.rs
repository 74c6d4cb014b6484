//! Xiangqi's perpetual chase (`chasingRule = axf`) and janggi's ban on moving back and forth
//! (`moveRepetitionIllegal`) against Fairy-Stockfish's verdicts: tests/data/fsf/repetition.txt
//! holds hand-built chases (undefended and defended men, mutual attacks, perpetual check first),
//! random repetition cycles of xiangqi and janggi men moved back and forth, each with
//! pyffish 0.0.90's `is_optional_game_end` after the moves (written by
//! tools/fsf_repetition.py). Also: the search scores a chase as a loss for the chaser, the
//! protocols' result line names the rule, and chess repetition is unchanged.

use std::path::PathBuf;

use chimera_engine::registry::{builtin, Registry};
use chimera_engine::rules::Termination;
use chimera_engine::search::{Limits, Score, Searcher, Silent};
use chimera_engine::{Color, Position};
use chimera_eval::VariantEval;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fsf/repetition.txt")
}

/// The reasons for which Fairy-Stockfish's `is_optional_game_end` ends a game.
fn optional_end(pos: &mut Position) -> Option<Option<Color>> {
    pos.outcome()
        .filter(|e| {
            matches!(
                e.reason,
                Termination::Repetition | Termination::MoveRepetition | Termination::MoveRule
            )
        })
        .map(|e| e.winner)
}

#[test]
fn verdicts_are_fairy_stockfishs() {
    let text = std::fs::read_to_string(fixture()).expect("fixture");
    let r = Registry::new();
    let (mut checked, mut decisive) = (0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split(';').collect();
        let (variant, fen, moves, ended, result) = (f[0], f[1], f[2], f[3] == "1", f[4]);
        let v = r.get(variant).expect("built in");
        let mut pos = Position::from_fen(&v, fen).expect("fen");
        let moves: Vec<&str> = moves.split_whitespace().collect();
        for (i, m) in moves.iter().enumerate() {
            pos.try_play(m)
                .unwrap_or_else(|e| panic!("{line}: move {m}: {e:?}"));
            if i + 1 < moves.len() {
                assert_eq!(
                    optional_end(&mut pos),
                    None,
                    "{line}: over after {} moves",
                    i + 1
                );
            }
        }
        let side = pos.side_to_move();
        let expected = ended.then(|| match result {
            "win" => Some(side),
            "loss" => Some(side.opposite()),
            _ => None,
        });
        assert_eq!(optional_end(&mut pos), expected, "{line}");
        checked += 1;
        decisive += usize::from(expected.is_some_and(|w| w.is_some()));
    }
    assert!(checked >= 90, "{checked} records");
    assert!(decisive >= 25, "{decisive} decisive records");
}

/// A chase is judged only where the variant says so: the same cycle in manchu (built on
/// xiangqi, without the chase rule in Fairy-Stockfish) is a draw.
#[test]
fn the_chase_rule_is_per_variant() {
    let r = Registry::new();
    let cycle = "a4c5 a6b6 c5a4 b6a6 a4c5 a6b6 c5a4 b6a6";
    let play = |variant: &str| {
        let v = r.get(variant).expect("built in");
        let mut pos = Position::from_fen(&v, "5k3/9/9/9/r8/9/N8/9/9/3K5 w - - 0 1").unwrap();
        for m in cycle.split(' ') {
            pos.try_play(m).expect("legal");
        }
        pos.outcome().expect("repeated three times")
    };
    let end = play("xiangqi");
    assert_eq!(end.reason, Termination::Repetition);
    assert_eq!(end.winner, Some(Color::Black), "the chasing horse loses");
    assert_eq!(end.to_string(), "0-1 (repetition)");
    let end = play("manchu");
    assert_eq!(end.winner, None);
}

/// The search sees the repetition coming: Black, whose rook the horse has chased round the
/// cycle twice, completes it and wins; White, chasing, steps out of it.
#[test]
fn the_search_scores_a_chase_as_a_loss_for_the_chaser() {
    let v = builtin("xiangqi").unwrap();
    let eval = VariantEval::new(&v);
    let mut pos = Position::from_fen(&v, "5k3/9/9/9/r8/9/N8/9/9/3K5 w - - 0 1").unwrap();
    for m in "a4c5 a6b6 c5a4 b6a6 a4c5 a6b6 c5a4".split(' ') {
        pos.try_play(m).unwrap();
    }
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let r = Searcher::new(8, 1).search(&pos, &limits, &eval, &mut Silent);
    assert_eq!(pos.move_text(r.best.unwrap()), "b6a6");
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
    // One move earlier, White does not play into the losing repetition.
    let mut pos = Position::from_fen(&v, "5k3/9/9/9/r8/9/N8/9/9/3K5 w - - 0 1").unwrap();
    for m in "a4c5 a6b6 c5a4 b6a6 a4c5 a6b6".split(' ') {
        pos.try_play(m).unwrap();
    }
    let r = Searcher::new(8, 1).search(&pos, &limits, &eval, &mut Silent);
    assert_ne!(pos.move_text(r.best.unwrap()), "c5a4");
}

/// Janggi (modern rules): a man moved back and forth four times loses for his side, in the
/// game's outcome and in the search; the other janggi rules do not know the ban.
#[test]
fn janggi_men_may_not_move_back_and_forth() {
    let r = Registry::new();
    let start = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    let moves = "a1a2 a10a9 a2a1 a9a10 a1a2 a10a9 a2a1 a9a10 a1a2";
    for (variant, banned) in [("janggimodern", true), ("janggi", false)] {
        let v = r.get(variant).unwrap();
        let mut pos = Position::from_fen(&v, start).unwrap();
        for m in moves.split(' ') {
            pos.try_play(m).unwrap();
        }
        let end = pos.outcome();
        if banned {
            let end = end.expect("over");
            assert_eq!(end.reason, Termination::MoveRepetition);
            assert_eq!(
                end.winner,
                Some(Color::Black),
                "White moved last: White loses"
            );
            assert_eq!(end.to_string(), "0-1 (moves repeated)");
        } else {
            // Repeated three times: a repetition (material counting decides), no ban.
            assert_eq!(end.map(|e| e.reason), Some(Termination::Repetition));
        }
    }
}

/// Chess repetition is untouched: a threefold repetition is a draw.
#[test]
fn chess_repetition_is_a_draw() {
    let v = builtin("chess").unwrap();
    let mut pos = Position::startpos(&v);
    for m in "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split(' ') {
        assert!(pos.outcome().is_none());
        pos.try_play(m).unwrap();
    }
    let end = pos.outcome().expect("threefold");
    assert_eq!(end.reason, Termination::Repetition);
    assert_eq!(end.winner, None);
}
