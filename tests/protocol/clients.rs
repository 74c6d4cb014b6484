//! Real clients that no one here wrote drive Chimera through short matches, where they are
//! installed: cutechess-cli (one side UCI, the other XBoard, whose result claims it checks)
//! and fastchess (UCI), each in chess and Fischer random chess. Every game must end without
//! a protocol slip the client's referee saw (a time loss, an illegal move, a false claim, a
//! disconnection). Neither client is built here (cutechess needs Qt); a missing one is
//! skipped, saying so. The long runs, every shared variant: `tools/clients.py`. The Move
//! Overhead of 300 ms leaves room for the time a loaded machine takes to pass a move along.

use std::process::Command;

/// The client binary: `$ENV` if set, else `name` on PATH.
fn client(env: &str, name: &str) -> Option<String> {
    if let Ok(path) = std::env::var(env) {
        return Some(path);
    }
    let path = std::env::var("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
        .map(|p| p.to_string_lossy().into_owned())
}

/// The `Finished game` lines of a client's output: (result, reason).
fn finished(output: &str) -> Vec<(String, String)> {
    output
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Finished game "))
        .filter_map(|l| {
            let rest = l.split_once("): ")?.1;
            let (result, reason) = rest.split_once(" {")?;
            Some((result.to_string(), reason.trim_end_matches('}').to_string()))
        })
        .collect()
}

fn is_slip(reason: &str) -> bool {
    let r = reason.to_ascii_lowercase();
    [
        "on time",
        "illegal",
        "disconnect",
        "stall",
        "crash",
        "false",
        "invalid",
        "forfeit",
        "unterminated",
        "abandon",
        "connection",
        "timeout",
    ]
    .iter()
    .any(|w| r.contains(w))
}

/// Plays the match `args` in `dir` (fastchess leaves its `config.json` there).
fn check_match(client: &str, dir: &std::path::Path, variant: &str, args: &[String], games: usize) {
    let out = Command::new(client)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("{client}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let games_seen = finished(&text);
    assert_eq!(games_seen.len(), games, "{client} {variant}:\n{text}");
    let slips: Vec<_> = games_seen.iter().filter(|(_, r)| is_slip(r)).collect();
    assert!(slips.is_empty(), "{client} {variant}: {slips:?}\n{text}");
}

const FRC: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf -";

#[test]
fn cutechess_cli_plays_chess_and_frc_in_both_protocols() {
    let Some(cutechess) = client("CUTECHESS", "cutechess-cli") else {
        eprintln!("skipped: no cutechess-cli on PATH (set CUTECHESS, or see tools/clients.py)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("chimera-cutechess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("frc.epd");
    std::fs::write(&book, format!("{FRC}\n")).unwrap();
    let engine = env!("CARGO_BIN_EXE_chimera");
    for variant in ["standard", "fischerandom"] {
        let mut args: Vec<String> = [
            "-variant",
            variant,
            "-engine",
            &format!("cmd={engine}"),
            "arg=uci",
            "proto=uci",
            "name=uci",
            "-engine",
            &format!("cmd={engine}"),
            "arg=xboard",
            "proto=xboard",
            "name=xboard",
            "-each",
            "tc=2+0.02",
            "option.Hash=8",
            "option.Move Overhead=300",
            "-games",
            "2",
            "-repeat",
            "-concurrency",
            "1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if variant == "fischerandom" {
            args.extend(
                [
                    "-openings",
                    &format!("file={}", book.display()),
                    "format=epd",
                ]
                .map(String::from),
            );
        }
        check_match(&cutechess, &dir, variant, &args, 2);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fastchess_plays_chess_and_frc() {
    let Some(fastchess) = client("FASTCHESS", "fastchess") else {
        eprintln!("skipped: no fastchess on PATH (set FASTCHESS, or see tools/clients.py)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("chimera-fastchess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = env!("CARGO_BIN_EXE_chimera");
    for (variant, opening) in [
        (
            "standard",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -",
        ),
        ("fischerandom", FRC),
    ] {
        let book = dir.join(format!("{variant}.epd"));
        std::fs::write(&book, format!("{opening}\n")).unwrap();
        let args: Vec<String> = [
            "-variant",
            variant,
            "-engine",
            &format!("cmd={engine}"),
            "args=uci",
            "name=a",
            "-engine",
            &format!("cmd={engine}"),
            "args=uci",
            "name=b",
            "-each",
            "proto=uci",
            "tc=2+0.02",
            "option.Hash=8",
            "option.Move Overhead=300",
            "-rounds",
            "1",
            "-games",
            "2",
            "-repeat",
            "-concurrency",
            "1",
            "-openings",
            &format!("file={}", book.display()),
            "format=epd",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        check_match(&fastchess, &dir, variant, &args, 2);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
