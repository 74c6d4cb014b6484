//! `chimera match` end to end: the built binary plays short matches against itself over both
//! protocols (chess; Grand for the 0-based ranks of 10-rank XBoard boards; Seirawan for
//! gating) at fixed depth, so the tests do not depend on the machine's load, plus one short
//! timed pair. Fake engines (this test binary in a special mode) that play an illegal move,
//! crash, resign, claim falsely or reject a legal move must lose. The written PGN must replay
//! through the rules (and through python-chess for chess, when it is installed), and bad
//! command lines must give errors, not panics. The formulas are tested in
//! `matchplay/src/stats.rs`.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Command, Output};

use chimera_engine::registry::Registry;
use chimera_matchplay::pgn::{read_games, replay};

const CHIMERA: &str = env!("CARGO_BIN_EXE_chimera");
/// Set in the environment of a match whose engines include this test binary as a fake engine.
const FAKE_MODE: &str = "CHIMERA_FAKE_ENGINE";

fn run_match(args: &[&str], fake_mode: Option<&str>) -> (Output, String) {
    let mut cmd = Command::new(CHIMERA);
    cmd.arg("match").args(args);
    if let Some(m) = fake_mode {
        cmd.env(FAKE_MODE, m);
    }
    let out = cmd.output().expect("the chimera binary runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, text)
}

fn temp_pgn(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("chimera-match-{}-{name}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Reads the PGN back and replays every game through the rules.
fn replays(path: &PathBuf, games: usize) -> String {
    let text = std::fs::read_to_string(path).expect("the PGN was written");
    let parsed = read_games(&text).unwrap();
    assert_eq!(parsed.len(), games, "{text}");
    let registry = Registry::new();
    for g in &parsed {
        replay(&registry, g).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(g.tags.get("Result"), Some(&g.result));
    }
    let _ = std::fs::remove_file(path);
    text
}

/// Reads a chess PGN file with python-chess, when it is installed (as tests/protocol.rs,
/// the test is skipped without it); every game must parse without errors.
fn python_chess_reads(path: &PathBuf, games: usize) {
    const SCRIPT: &str = r#"
import sys, chess.pgn
n = 0
with open(sys.argv[1]) as h:
    while (g := chess.pgn.read_game(h)) is not None:
        assert not g.errors, g.errors
        assert len(list(g.mainline_moves())) == int(g.headers["PlyCount"])
        n += 1
print(n)
"#;
    let has_chess = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_chess {
        eprintln!("skipped: python3 with the 'chess' package is not installed");
        return;
    }
    let out = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(path)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.trim(), games.to_string());
}

fn chimera_spec(proto: &str, name: &str, depth: u32) -> String {
    format!("cmd={CHIMERA} proto={proto} name={name} depth={depth}")
}

fn self_play(variant: &str, depth: u32, extra: &[&str]) {
    self_play_over(variant, depth, ["uci", "xboard"], extra);
}

/// Two games of Chimera against itself, the first engine speaking `protos[0]`, the second
/// `protos[1]`, with the PGN read back.
fn self_play_over(variant: &str, depth: u32, protos: [&str; 2], extra: &[&str]) -> String {
    let pgn = temp_pgn(variant);
    let uci = chimera_spec(protos[0], "U", depth);
    let xb = chimera_spec(protos[1], "X", depth);
    let mut args = vec![
        "--engine",
        &uci,
        "--engine",
        &xb,
        "--variant",
        variant,
        "--games",
        "2",
        "--tc",
        "inf",
    ];
    let pgn_arg = pgn.to_string_lossy().into_owned();
    args.extend([
        "--pgn",
        &pgn_arg,
        "--random-plies",
        "2",
        "--max-moves",
        "60",
    ]);
    args.extend(extra);
    let (out, text) = run_match(&args, None);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Finished 2 games"), "{text}");
    assert!(text.contains("Forfeits: none"), "{text}");
    if variant == "chess" {
        python_chess_reads(&pgn, 2);
    }
    let pgn_text = replays(&pgn, 2);
    if variant != "chess" {
        assert!(pgn_text.contains(&format!("[Variant \"{variant}\"]")));
    }
    pgn_text
}

#[test]
fn chimera_plays_itself_over_both_protocols_in_chess() {
    self_play("chess", 3, &[]);
}

#[test]
fn chimera_plays_itself_in_grand_and_seirawan() {
    self_play("grand", 2, &[]);
    self_play("seirawan", 2, &[]);
}

/// The games of a PGN text without their `Date` tags (a run over midnight changes them) and
/// comments (which hold each move's time), with whitespace collapsed (lines are wrapped by
/// their length, comments included).
fn games_without_dates(text: &str) -> Vec<String> {
    let mut kept = String::new();
    let mut depth = 0;
    for line in text.lines().filter(|l| !l.starts_with("[Date ")) {
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => kept.push(c),
                _ => {}
            }
        }
        kept.push('\n');
    }
    kept.split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| g.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn a_slice_from_a_later_pair_plays_the_same_games() {
    // `--first-pair 1 --games 2` must play games 3 and 4 of the whole match: the same
    // openings, colours, round numbers and (at a fixed depth) moves, which is what lets the
    // cluster runner (tools/cluster) hand pairs to any machine.
    let spec_a = chimera_spec("uci", "A", 2);
    let spec_b = chimera_spec("uci", "B", 3);
    let play = |name: &str, extra: &[&str]| {
        let pgn = temp_pgn(name);
        let pgn_arg = pgn.to_string_lossy().into_owned();
        let mut args = vec![
            "--engine",
            &spec_a,
            "--engine",
            &spec_b,
            "--tc",
            "inf",
            "--random-plies",
            "4",
            "--seed",
            "5",
            "--max-moves",
            "40",
            "--pgn",
            &pgn_arg,
        ];
        args.extend(extra);
        let (out, text) = run_match(&args, None);
        assert!(out.status.success(), "{text}");
        let pgn_text = std::fs::read_to_string(&pgn).expect("the PGN was written");
        let _ = std::fs::remove_file(&pgn);
        (text, games_without_dates(&pgn_text))
    };
    let (_, whole) = play("whole", &["--games", "4"]);
    let (text, slice) = play("slice", &["--games", "2", "--first-pair", "1"]);
    assert!(text.contains("2 games from pair 1 (game 3)"), "{text}");
    assert!(text.contains("Game 3 (A vs B)"), "{text}");
    assert!(text.contains("Game 4 (B vs A)"), "{text}");
    assert_eq!(whole.len(), 4);
    assert_eq!(slice, whole[2..]);
    assert!(slice[0].contains("[Round \"3\"]"), "{}", slice[0]);
}

#[test]
fn turns_of_two_parts_are_played_and_written_as_one_token() {
    // Alice Guard: the random opening plies, the engines' replies and the PGN words are whole
    // turns (`d2l4,i2a4`).
    let text = self_play_over("aliceguard", 2, ["uci", "uci"], &[]);
    assert!(text.contains(','), "{text}");
}

#[test]
fn a_short_timed_pair_has_no_forfeits() {
    let uci = format!("cmd={CHIMERA} proto=uci name=U");
    let xb = format!("cmd={CHIMERA} proto=xboard name=X");
    let pgn = temp_pgn("timed");
    let pgn_arg = pgn.to_string_lossy().into_owned();
    let args = [
        "--engine",
        &uci,
        "--engine",
        &xb,
        "--games",
        "2",
        "--tc",
        "0.5+0.05",
        "--pgn",
        &pgn_arg,
        "--max-moves",
        "40",
        "--sprt",
        "elo0=0",
        "elo1=10",
    ];
    let (out, text) = run_match(&args, None);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("LLR"), "{text}");
    let pgn_text = replays(&pgn, 2);
    assert!(pgn_text.contains("[TimeControl \"0.5+0.05\"]"));
}

#[test]
fn time_odds_give_each_engine_its_own_clock() {
    // No --tc: both engines bring their own control; the XBoard one has the shorter.
    let uci = format!("cmd={CHIMERA} proto=uci name=U tc=0.6+0.06");
    let xb = format!("cmd={CHIMERA} proto=xboard name=X tc=0.3+0.03");
    let pgn = temp_pgn("odds");
    let pgn_arg = pgn.to_string_lossy().into_owned();
    let args = [
        "--engine",
        &uci,
        "--engine",
        &xb,
        "--games",
        "2",
        "--pgn",
        &pgn_arg,
        "--max-moves",
        "30",
    ];
    let (out, text) = run_match(&args, None);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("tc U 0.6+0.06, X 0.3+0.03"), "{text}");
    assert!(
        text.lines().last().unwrap().starts_with("Result: "),
        "{text}"
    );
    let pgn_text = replays(&pgn, 2);
    assert_eq!(pgn_text.matches("[TimeControl \"0.6+0.06\"]").count(), 2);
    // Game 1: U has White; game 2: X has White.
    assert_eq!(
        pgn_text.matches("[WhiteTimeControl \"0.6+0.06\"]").count(),
        1
    );
    assert_eq!(
        pgn_text.matches("[WhiteTimeControl \"0.3+0.03\"]").count(),
        1
    );
    assert_eq!(
        pgn_text.matches("[BlackTimeControl \"0.3+0.03\"]").count(),
        1
    );
}

/// Runs the fake engine's match: the fake (speaking `proto`) plays both colours against
/// Chimera and must lose both games; the summary must contain every line of `expect`.
fn fake_loses(mode: &str, proto: &str, expect: &[&str]) {
    let me = std::env::current_exe().unwrap();
    // The test's full name within its binary: the module path without the crate's name.
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let fake = format!(
        "cmd='{} {module}::fake_engine --exact --nocapture --test-threads 1' proto={proto} name=Fake depth=1",
        me.display()
    );
    let real = chimera_spec("uci", "Real", 1);
    let pgn = temp_pgn(mode);
    let pgn_arg = pgn.to_string_lossy().into_owned();
    let args = [
        "--engine", &fake, "--engine", &real, "--games", "2", "--tc", "inf", "--pgn", &pgn_arg,
    ];
    let (out, text) = run_match(&args, Some(mode));
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Fake: 0 wins, 0 draws, 2 losses"), "{text}");
    for e in expect {
        assert!(text.contains(e), "{e}: {text}");
    }
    replays(&pgn, 2);
}

#[test]
fn an_engine_that_plays_an_illegal_move_loses() {
    fake_loses("illegal", "uci", &["Forfeits: Fake illegal move 2"]);
}

#[test]
fn an_engine_that_crashes_loses_and_is_restarted() {
    fake_loses("crash", "uci", &["Forfeits: Fake crash/hang 2"]);
}

#[test]
fn xboard_resignations_claims_and_rejections_are_judged() {
    fake_loses(
        "resign",
        "xboard",
        &["Endings: resignation 2", "Forfeits: none"],
    );
    // As White a claim of 1-0 is false; as Black it gives the game away.
    fake_loses(
        "claim",
        "xboard",
        &["resignation 1", "Forfeits: Fake false claim 1"],
    );
    fake_loses(
        "reject",
        "xboard",
        &["Forfeits: Fake rejected legal move 2"],
    );
}

/// Not a test of its own: with `CHIMERA_FAKE_ENGINE` set this test binary is an engine. In
/// UCI it answers `go` with an illegal move (`illegal`) or by exiting (`crash`); in XBoard it
/// answers `go` and every move by resigning (`resign`), claiming 1-0 (`claim`) or calling the
/// move illegal (`reject`).
#[test]
fn fake_engine() {
    let Ok(mode) = std::env::var(FAKE_MODE) else {
        return;
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        let mut words = line.split_whitespace();
        match (words.next(), mode.as_str()) {
            (Some("uci"), _) => println!("id name Fake\nuciok"),
            (Some("isready"), _) => println!("readyok"),
            (Some("protover"), _) => println!("feature ping=1 setboard=1 usermove=1 done=1"),
            (Some("ping"), _) => println!("pong {}", words.next().unwrap_or("")),
            (Some("go"), "crash") => std::process::exit(3),
            // Illegal for both colours in the start position and after any first move.
            (Some("go"), "illegal") => println!("bestmove e2e5"),
            (Some("go" | "usermove"), "resign") => println!("resign"),
            (Some("go" | "usermove"), "claim") => println!("1-0 {{fake claim}}"),
            (Some("go" | "usermove"), "reject") => println!("Illegal move: e2e4"),
            (Some("quit"), _) => return,
            _ => {}
        }
    }
}

#[test]
fn bad_command_lines_are_errors() {
    let good = chimera_spec("uci", "A", 1);
    for args in [
        vec![
            "--engine",
            "cmd=/nonexistent/engine proto=uci",
            "--engine",
            &good,
            "--tc",
            "1",
        ],
        vec![
            "--engine",
            &good,
            "--engine",
            &good,
            "--tc",
            "1",
            "--variant",
            "nosuch",
        ],
        vec!["--engine", &good, "--engine", &good, "--tc", "1+x"],
        vec![
            "--engine",
            &good,
            "--engine",
            "cmd=x proto=ucci",
            "--tc",
            "1",
        ],
        vec![
            "--engine",
            &good,
            "--engine",
            &good,
            "--tc",
            "1",
            "--openings",
            "/nonexistent.epd",
        ],
        vec!["--engine", &good, "--engine", &good],
    ] {
        let (out, text) = run_match(&args, None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {text}{err}");
        assert!(err.contains("chimera match:"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
