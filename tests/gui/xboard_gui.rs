//! Chimera in real XBoard: runs `tools/xboard_games.sh` on the test build of the binary, which
//! plays Pawn Vault, Pioneer and Alice engine against engine through XBoard 4.9 under Xvfb and
//! types every kind of their moves into XBoard as a person would (docs/protocols.md). Needs
//! `xboard`, `Xvfb` and `xdotool` (`.ci/run` installs them); without them each test says so
//! loudly and passes. The script plays its games at once, each on its own display: a game
//! mostly waits on XBoard and the typing, not on the processor. The regression games
//! (Vanguard, chess, Capablanca, S-Chess) run with
//! `cargo test --profile ci --test gui -- --ignored`.

use std::path::Path;
use std::process::Command;

/// Plays the named games of the script (each must end `ok`), or skips when XBoard is missing.
fn xboard_games(names: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("tools/xboard_games.sh"))
        .args(names)
        .env("ENGINE", env!("CARGO_BIN_EXE_chimera"))
        .env("OUT", root.join("target/xboard-games"))
        .output()
        .expect("bash runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.code() == Some(77) {
        eprintln!("\n*** SKIPPED: XBoard check not run: {text}***\n");
        return;
    }
    println!("{text}");
    assert!(out.status.success(), "XBoard games failed:\n{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("ok ")).count(),
        names.len(),
        "{text}"
    );
}

#[test]
fn xboard_plays_the_seed_games_and_takes_every_move_kind_from_a_person() {
    xboard_games(&[
        "pawnvault",
        "pawnvault-person",
        "pioneer",
        "pioneer-person",
        "alice",
        "alice-person",
    ]);
}

#[test]
#[ignore = "the regression games take minutes: run with --ignored"]
fn xboard_plays_vanguard_chess_capablanca_and_seirawan() {
    xboard_games(&["vanguard", "chess", "capablanca", "seirawan"]);
}
