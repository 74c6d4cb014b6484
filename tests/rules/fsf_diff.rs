//! The rules against Fairy-Stockfish along random games: CI's slice of `tools/fsf_diff.py`
//! (every eighth variant of the 121 built-ins and the 143 sections of its `variants.ini`, two
//! seeded random games each, a position compared every eight plies: the legal moves, perft 2
//! and 3, the game's end and its value, FEN both ways), with no difference left unexplained by
//! `tests/data/fsf/deliberate-differences.txt`. pyffish is the reference; without python3 or
//! pyffish the test says so loudly and passes (`.ci/run` installs pyffish). The long run is
//! the same tool with more games (docs/results.md, "Rules against Fairy-Stockfish").

use std::path::Path;
use std::process::Command;

/// True when `python3 -c CODE` runs and succeeds.
fn python_ok(code: &str) -> bool {
    Command::new("python3")
        .args(["-c", code])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn random_games_agree_with_pyffish() {
    if !python_ok("pass") {
        eprintln!("\n*** SKIPPED fsf_diff: python3 is not installed; the rules were NOT compared with Fairy-Stockfish ***\n");
        return;
    }
    if !python_ok("import pyffish") {
        eprintln!("\n*** SKIPPED fsf_diff: pyffish is not installed (pip install pyffish); the rules were NOT compared with Fairy-Stockfish ***\n");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("tools/fsf_diff.py"))
        .args(["--chimera", env!("CARGO_BIN_EXE_chimera")])
        .args(["--slice", "ci", "--seed", "1", "--games-per-variant", "2"])
        .args(["--max-plies", "60", "--every", "8", "--jobs", "2"])
        .args([
            "--perft-every",
            "2",
            "--perft3-max",
            "300",
            "--time-budget",
            "120",
        ])
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{}", text.lines().take(12).collect::<Vec<_>>().join("\n"));
    assert!(
        out.status.success(),
        "differences from Fairy-Stockfish not listed in tests/data/fsf/deliberate-differences.txt:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The slice must have compared something: a broken probe or an empty list would pass.
    let positions: usize = text
        .split(" positions")
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(
        positions >= 300,
        "only {positions} positions compared:\n{text}"
    );
}
