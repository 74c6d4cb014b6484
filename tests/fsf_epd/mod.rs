//! Perft fixtures counted by Fairy-Stockfish (pyffish), shared by the per-family test files:
//! one position a line, `<variant> <FEN> ;D1 n ;D2 n ...` (`#` starts a comment line).

use std::path::PathBuf;

use chimera_engine::Position;

/// Checks every count of `tests/data/fsf/<name>` against Chimera's perft, setting each line's
/// position up with `position(variant, fen)`; fails listing every difference, or when fewer
/// than `at_least` counts were checked (a fixture that lost its lines checks nothing).
pub fn check_perft_fixture(
    name: &str,
    at_least: usize,
    mut position: impl FnMut(&str, &str) -> Position,
) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fsf")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut failures = Vec::new();
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let head = parts.next().unwrap_or("").trim();
        let (variant, fen) = head.split_once(' ').expect("variant and FEN");
        let mut pos = position(variant, fen);
        for part in parts {
            let mut words = part.split_whitespace();
            let depth: u32 = words
                .next()
                .and_then(|d| d.get(1..)?.parse().ok())
                .unwrap_or_else(|| panic!("{name} line {}: depth", i + 1));
            let nodes: u64 = words
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{name} line {}: count", i + 1));
            let got = pos.perft(depth);
            checked += 1;
            if got != nodes {
                failures.push(format!(
                    "{name} line {}: {variant} {fen} depth {depth}: {got}, Fairy-Stockfish {nodes}",
                    i + 1
                ));
            }
        }
    }
    assert!(
        checked >= at_least,
        "only {checked} counts checked in {name}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
