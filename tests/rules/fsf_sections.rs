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
    fsf_epd::check_perft_fixture("sections.epd", 46, |name, fen| {
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

/// elgam: Fairy-Stockfish's drop restrictions hold for its predefined pawn alone, so a soldier
/// may be dropped on his last rank, where a drop leaves him unpromoted; such a FEN is read
/// (pyffish writes it) and the soldier steps sideways promoting, as pyffish lists. A chess pawn
/// there is still refused: nothing can put him there.
#[test]
fn elgam_soldier_may_stand_on_his_last_rank() {
    let registry = registry();
    let v = variant(&registry, "elgam");
    let mut pos = Position::from_fen(&v, "2S8/5k5/11/s3s6/11/11/11/11/5K5/11[Ss] w - - 0 1")
        .expect("a soldier dropped on his last rank");
    let list = pos.legal_moves();
    let mut from_c10: Vec<String> = list
        .iter()
        .map(|m| pos.move_text(*m))
        .filter(|m| m.starts_with("c10"))
        .collect();
    from_c10.sort();
    assert_eq!(from_c10, ["c10b10+", "c10b10w", "c10d10+", "c10d10w"]);
    let chess = variant(&registry, "chess");
    assert!(Position::from_fen(&chess, "4k2P/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
}
