//! Strength levels (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`; engine/src/search/skill.rs)
//! through both dialects: the options are announced and range-checked, a weak level plays
//! legal moves that a full-strength search rates worse, the same seed repeats the same moves,
//! and analysis stays at full strength.

use crate::session;
use session::{talk, uci, xboard, xboard_move};

use chimera_engine::registry::Registry;
use chimera_engine::search::{skill, Limits, Searcher, Silent, Skill};
use chimera_engine::Position;
use chimera_eval::VariantEval;

fn bestmove(lines: &[String]) -> String {
    let b: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(b.len(), 1, "{lines:?}");
    b[0].split_whitespace().nth(1).unwrap().to_string()
}

/// Positions from the first moves of a few chess openings.
const OPENINGS: &[&str] = &[
    "",
    "e2e4",
    "e2e4 e7e5",
    "d2d4 d7d5",
    "e2e4 c7c5 g1f3",
    "d2d4 g8f6 c2c4 e7e6",
    "e2e4 e7e5 g1f3 b8c6 f1b5",
    "c2c4 e7e5 b1c3 g8f6",
];

/// The moves a UCI session at `options` plays in each opening, searching `go`.
fn uci_moves(options: &[&str], go: &str) -> Vec<String> {
    let (mut d, cap) = uci();
    let mut lines = vec!["uci"];
    lines.extend_from_slice(options);
    talk(&mut d, &cap, &lines);
    OPENINGS
        .iter()
        .map(|moves| {
            let position = if moves.is_empty() {
                "position startpos".to_string()
            } else {
                format!("position startpos moves {moves}")
            };
            bestmove(&talk(&mut d, &cap, &[&position, go]))
        })
        .collect()
}

#[test]
fn the_options_are_announced_and_checked_in_both_dialects() {
    let (mut d, cap) = uci();
    let out = talk(&mut d, &cap, &["uci"]);
    for want in [
        "option name Skill Level type spin default 20 min 0 max 20".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!(
            "option name UCI_Elo type spin default {} min {} max {}",
            skill::MAX_ELO,
            skill::MIN_ELO,
            skill::MAX_ELO
        ),
    ] {
        assert!(out.contains(&want), "{want} in {out:?}");
    }
    assert!(!out.iter().any(|l| l.contains("Skill Seed")), "unlisted");
    let out = talk(&mut d, &cap, &["setoption name Skill Level value 21"]);
    assert!(out[0].contains("bad value '21'"), "{out:?}");
    let out = talk(&mut d, &cap, &["setoption name UCI_Elo value 1"]);
    assert!(out[0].contains("bad value '1'"), "{out:?}");
    let out = talk(
        &mut d,
        &cap,
        &[
            "setoption name Skill Level value 3",
            "setoption name Skill Seed value 9",
            "isready",
        ],
    );
    assert_eq!(out, ["readyok"]);
    assert_eq!(d.dialect.state.skill(), Skill { level: 3, seed: 9 });
    // UCI_LimitStrength plays at UCI_Elo's level, whatever Skill Level says.
    let elo = skill::LEVEL_ELO[7];
    talk(
        &mut d,
        &cap,
        &[
            "setoption name UCI_LimitStrength value true",
            &format!("setoption name UCI_Elo value {elo}"),
        ],
    );
    assert_eq!(d.dialect.state.skill().level, 7);

    let (mut x, cap) = xboard();
    let out = talk(&mut x, &cap, &["xboard", "protover 2"]);
    for want in [
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"UCI_LimitStrength -check 0\"",
    ] {
        assert!(out.iter().any(|l| l == want), "{want} in {out:?}");
    }
    let out = talk(&mut x, &cap, &["option Skill Level=40", "ping 1"]);
    assert!(out[0].starts_with("Error ("), "{out:?}");
    talk(&mut x, &cap, &["option Skill Level=0", "ping 2"]);
    assert_eq!(x.dialect.state.skill().level, 0);
}

#[test]
fn level_zero_plays_legal_moves_a_full_search_rates_worse() {
    let weak = uci_moves(
        &[
            "setoption name Skill Level value 0",
            "setoption name Skill Seed value 11",
        ],
        "go depth 8",
    );
    let v = Registry::new().get("chess").unwrap();
    let eval = VariantEval::new(&v);
    let mut lost = 0;
    let mut differ = 0;
    for (moves, played) in OPENINGS.iter().zip(&weak) {
        let mut pos = Position::startpos(&v);
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let mv = pos.parse_move(played).expect("a legal move");
        assert!(pos.is_legal(mv), "{played} after '{moves}'");
        // The full-strength score of the best move and of the move played, each by a
        // search of depth 6 (the move played as the only root move).
        let score = |root_moves: Vec<_>| {
            let mut s = Searcher::new(16, 1);
            let limits = Limits {
                depth: Some(6),
                root_moves,
                ..Limits::default()
            };
            match s.search(&pos, &limits, &eval, &mut Silent).score {
                chimera_engine::search::Score::Cp(c) => c,
                chimera_engine::search::Score::Mate(m) => 30_000 * m.signum(),
            }
        };
        let best = score(Vec::new());
        let got = score(vec![mv]);
        assert!(got <= best + 30, "{played} after '{moves}': {got} > {best}");
        lost += best - got;
        differ += usize::from(got < best);
    }
    let full = uci_moves(&[], "go depth 8");
    assert_ne!(weak, full, "level 0 plays differently from full strength");
    assert!(differ >= 3, "{differ} of {} moves worse", OPENINGS.len());
    assert!(lost >= 100, "level 0 gives up {lost} cp in all");
}

#[test]
fn the_same_seed_repeats_the_same_moves_and_another_seed_varies_them() {
    let at = |seed: u32| {
        uci_moves(
            &[
                "setoption name Skill Level value 2",
                &format!("setoption name Skill Seed value {seed}"),
            ],
            "go depth 6",
        )
    };
    let a = at(5);
    assert_eq!(a, at(5));
    let others: Vec<Vec<String>> = (6..10).map(at).collect();
    assert!(others.iter().any(|o| *o != a), "{a:?} {others:?}");
}

#[test]
fn full_strength_is_the_default_and_analysis_ignores_the_level() {
    // Level 20 is the search as it was: the same move as a session without the option.
    let plain = uci_moves(&[], "go depth 5");
    let twenty = uci_moves(&["setoption name Skill Level value 20"], "go depth 5");
    assert_eq!(plain, twenty);
    // A weak level's `go infinite` still reports the full search's depth.
    let (mut d, cap) = uci();
    // What `talk` returns is kept: on a fast machine depth 4 is reported before it returns.
    let mut got = talk(
        &mut d,
        &cap,
        &[
            "uci",
            "setoption name Skill Level value 0",
            "position startpos",
            "go infinite",
        ],
    );
    let end = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !got.iter().any(|l: &String| l.starts_with("info depth 4 ")) {
        assert!(std::time::Instant::now() < end, "{got:?}");
        got.extend(cap.take());
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let out = talk(&mut d, &cap, &["stop", "isready"]);
    assert!(out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");

    // XBoard plays a level's move too.
    let (mut x, cap) = xboard();
    let out = talk(
        &mut x,
        &cap,
        &[
            "xboard",
            "protover 2",
            "option Skill Level=0",
            "new",
            "sd 6",
            "go",
        ],
    );
    let mut out = out;
    let end = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while xboard_move(&out).is_none() {
        assert!(std::time::Instant::now() < end, "{out:?}");
        out.extend(cap.take());
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}
