//! Xiangqi and janggi (the built-ins of engine/src/variant/builtin/fsf-xiangqi.ini and the
//! sections of Fairy-Stockfish's variants.ini built on them) against Fairy-Stockfish's own
//! answers: the legal moves of hand-built positions that exercise each rule
//! (tests/data/fsf/xiangqi-moves.txt), perft from mid-game positions reached by random play
//! (tests/data/fsf/xiangqi-perft.txt), both from pyffish 0.0.90; and the game ends that
//! janggi adds (bikjang, two passes) with their results.

use std::path::PathBuf;

use chimera_engine::registry::Registry;
use chimera_engine::rules::outcome::Termination;
use chimera_engine::{Color, MoveKind, Position};

use crate::support;
use support::sorted_moves;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fsf")
        .join(name)
}

/// The built-ins and Fairy-Stockfish's variants.ini.
fn registry() -> Registry {
    let mut r = Registry::new();
    r.load_file(fixture("variants.ini").to_str().expect("UTF-8 path"));
    r
}

fn position(r: &Registry, variant: &str, fen: &str) -> Position {
    let v = r
        .get(variant)
        .unwrap_or_else(|| panic!("{variant} is known"));
    Position::from_fen(&v, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

/// The data lines of a fixture (`;`-separated fields), each with the comment line above it.
fn records(name: &str) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(fixture(name)).expect("fixture");
    let mut note = String::new();
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(c) = line.strip_prefix('#') {
            note = c.trim().to_string();
        } else if !line.trim().is_empty() {
            out.push((note.clone(), line.split(';').map(str::to_string).collect()));
        }
    }
    out
}

#[test]
fn legal_moves_are_fairy_stockfishs() {
    let r = registry();
    let cases = records("xiangqi-moves.txt");
    assert!(cases.len() >= 20, "{} cases", cases.len());
    let mut failures = Vec::new();
    for (note, fields) in &cases {
        let (variant, fen) = (&fields[0], &fields[1]);
        // A pass is the king's move to his own square, in Fairy-Stockfish's notation and ours.
        let mut expected: Vec<String> = fields[2].split_whitespace().map(str::to_string).collect();
        expected.sort();
        let mut pos = position(&r, variant, fen);
        let got = sorted_moves(&mut pos);
        if got != expected {
            failures.push(format!(
                "{note}: {variant} {fen}\n  chimera {got:?}\n  fsf     {expected:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mid_game_perft_is_fairy_stockfishs() {
    let r = registry();
    let cases = records("xiangqi-perft.txt");
    assert!(cases.len() >= 20, "{} cases", cases.len());
    let mut failures = Vec::new();
    for (_, fields) in &cases {
        let (variant, fen) = (&fields[0], &fields[1]);
        let depth: u32 = fields[2].parse().expect("depth");
        let expected: u64 = fields[3].parse().expect("count");
        let got = position(&r, variant, fen).perft(depth);
        if got != expected {
            failures.push(format!(
                "{variant} {fen} depth {depth}: {got}, Fairy-Stockfish {expected}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Depth 4 from the start (Fairy-Stockfish's counts; xiangqi's is the published 3,290,240).
#[test]
fn start_perft_depth_four() {
    let r = Registry::new();
    for (variant, count) in [
        ("minixiangqi", 127_164),
        ("manchu", 798_554),
        ("xiangqi", 3_290_240),
        ("janggi", 1_065_277),
    ] {
        let v = r.get(variant).expect("built in");
        assert_eq!(Position::startpos(&v).perft(4), count, "{variant}");
    }
}

/// Bare kings facing each other: White must part them or pass; after the pass the game is
/// over. Janggi counts material then (Black's 1.5 points win a tie), traditional rules call it
/// a draw, and casual rules know no bikjang.
#[test]
fn bikjang_after_a_pass_ends_the_game() {
    let r = Registry::new();
    let facing = "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1";
    for (variant, winner) in [("janggi", Some(Color::Black)), ("janggitraditional", None)] {
        let mut pos = position(&r, variant, facing);
        assert!(
            pos.outcome().is_none(),
            "{variant}: not over before the pass"
        );
        pos.try_play("0000").expect("the pass is legal");
        let end = pos.outcome().expect("bikjang ends the game");
        assert_eq!(end.reason, Termination::Bikjang, "{variant}");
        assert_eq!(end.winner, winner, "{variant}");
        assert!(
            pos.legal_moves().is_empty(),
            "{variant}: no move after the end"
        );
    }
    // More material wins the count: a white rook (13 points) outweighs Black's 1.5.
    let mut pos = position(&r, "janggi", "4k4/9/9/9/9/9/9/9/4K4/R8 w - - 0 1");
    pos.try_play("0000").expect("pass");
    assert_eq!(pos.outcome().map(|e| e.winner), Some(Some(Color::White)));
    // Casual rules: no bikjang, the kings may stay facing.
    let mut pos = position(&r, "janggicasual", facing);
    pos.try_play("0000").expect("pass");
    assert!(pos.outcome().is_none());
    assert!(
        pos.try_play("e10e9").is_ok(),
        "the king may stay on the file"
    );
}

/// Two passes in a row end a janggi game (decided by material under the official rules).
#[test]
fn two_passes_end_a_janggi_game() {
    let r = Registry::new();
    let v = r.get("janggi").expect("built in");
    let mut pos = Position::startpos(&v);
    // Fairy-Stockfish writes a pass as the king's square twice; Chimera reads that too.
    pos.try_play("e2e2").expect("White passes");
    assert!(pos.outcome().is_none());
    pos.try_play("0000").expect("Black passes");
    let end = pos.outcome().expect("over");
    assert_eq!(end.reason, Termination::DoublePass);
    // Equal material: Black's 1.5 points decide.
    assert_eq!(end.winner, Some(Color::Black));
    assert!(pos.legal_moves().iter().all(|m| m.kind != MoveKind::Pass));
}

/// The family's built-ins under Fairy-Stockfish's names in both protocols' variant lists.
#[test]
fn protocols_list_the_family() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let talk = |mode: &str, input: &str| -> String {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chimera"))
            .arg(mode)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("written");
        let out = child.wait_with_output().expect("the engine ends");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let uci = talk("uci", "uci\nquit\n");
    let combo = uci
        .lines()
        .find(|l| l.contains("name UCI_Variant"))
        .expect("UCI_Variant");
    let xboard = talk("xboard", "xboard\nprotover 2\nquit\n");
    let list = xboard
        .split("variants=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("variants feature");
    for name in [
        "xiangqi",
        "minixiangqi",
        "manchu",
        "supply",
        "janggi",
        "janggitraditional",
        "janggimodern",
        "janggicasual",
    ] {
        assert!(
            combo.split_whitespace().any(|w| w == name),
            "UCI_Variant lacks {name}"
        );
        assert!(list.split(',').any(|w| w == name), "xboard lacks {name}");
    }
}
