//! Sections of Fairy-Stockfish's `variants.ini` played from positions of our own: perft against
//! pyffish's counts (tests/data/fsf/sections.epd), and the per-colour keys that khans needs.

use std::path::PathBuf;

use chimera_engine::registry::Registry;
use chimera_engine::{Position, VariantRef};

fn registry() -> Registry {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fsf/variants.ini");
    let mut registry = Registry::new();
    registry.load_file(path.to_str().expect("UTF-8 path"));
    registry
}

fn variant(registry: &Registry, name: &str) -> VariantRef {
    registry.get(name).unwrap_or_else(|| panic!("{name} loads"))
}

/// `<section> <FEN> ;D1 n ;D2 n ...`: each position at each depth, as pyffish counts.
#[test]
fn perft_from_positions_of_our_own() {
    let registry = registry();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fsf/sections.epd");
    let text = std::fs::read_to_string(&path).expect("tests/data/fsf/sections.epd");
    let mut failures = Vec::new();
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let head = parts.next().unwrap_or("").trim();
        let (name, fen) = head.split_once(' ').expect("section and FEN");
        let v = variant(&registry, name);
        let mut pos = Position::from_fen(&v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for part in parts {
            let mut words = part.split_whitespace();
            let depth: u32 = words
                .next()
                .and_then(|d| d[1..].parse().ok())
                .expect("depth");
            let nodes: u64 = words.next().and_then(|n| n.parse().ok()).expect("count");
            let got = pos.perft(depth);
            checked += 1;
            if got != nodes {
                failures.push(format!(
                    "line {}: {name} {fen} depth {depth}: {got}, Fairy-Stockfish {nodes}",
                    i + 1
                ));
            }
        }
    }
    assert!(checked >= 45, "only {checked} counts checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// khans: Black's soldiers promote (to a tatar only) and White's pawns (to q, r, b or n); a
/// colour's key overrides the plain one for that colour alone.
#[test]
fn khans_promotes_each_colour_its_own_way() {
    let registry = registry();
    let v = variant(&registry, "khans");
    let moves_from = |fen: &str, from: &str| {
        let mut pos = Position::from_fen(&v, fen).expect("fen");
        let list = pos.legal_moves();
        let mut out: Vec<String> = list
            .iter()
            .map(|m| pos.move_text(*m))
            .filter(|m| m.starts_with(from))
            .collect();
        out.sort();
        out
    };
    assert_eq!(
        moves_from("4k3/8/8/8/8/8/1s6/4K3 b - - 0 1", "b2"),
        ["b2d1t"]
    );
    assert_eq!(
        moves_from("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7"),
        ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]
    );
}
