//! Sections of Fairy-Stockfish's `variants.ini` played from positions of our own: perft against
//! pyffish's counts (tests/data/fsf/sections.epd), and the per-colour keys that khans needs.

use crate::fsf_epd;

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
    fsf_epd::check_perft_fixture("sections.epd", 45, |name, fen| {
        let v = variant(&registry, name);
        Position::from_fen(&v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    });
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
