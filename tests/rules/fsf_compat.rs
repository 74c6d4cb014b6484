//! Fairy-Stockfish compatibility, measured on its own data (tests/data/fsf): every section of
//! its `variants.ini` that Chimera loads must give Fairy-Stockfish's start-position perft at
//! depths 1 to 3 (`compat-start.json`, counted by Fairy-Stockfish master c19b5f6c), except the
//! sections listed in `KNOWN_DIFFERENCES`, each with the rule Chimera reads differently today.

use std::path::PathBuf;

use chimera_engine::registry::Registry;
use chimera_engine::{Position, VariantRef};

use serde_json::Value;

/// Sections that load but whose perft differs from Fairy-Stockfish's, each with the reason.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

/// Sections loaded today; a floor that may only rise.
const LOADED_AT_LEAST: usize = 143;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fsf")
        .join(name)
}

/// Fairy-Stockfish's perft at depths 1 to 3 for one entry of the data (fewer where the data
/// stops early: depth 3 of the Amazons has about nine billion leaves).
fn fsf_counts(entry: &Value, name: &str) -> Vec<u64> {
    ["1", "2", "3"]
        .iter()
        .map_while(|d| match &entry["perft"][*d] {
            Value::Number(n) => Some(n.as_f64().expect("a count") as u64),
            Value::Null if *d != "1" => None,
            other => panic!("{name}: perft {d} is {other:?}"),
        })
        .collect()
}

/// Chimera's perft at depths 1 to 3 from the entry's FEN, and that position's hash.
fn chimera_counts(
    variant: &VariantRef,
    entry: &Value,
    name: &str,
) -> Result<(Vec<u64>, u64), String> {
    let fen = entry["fen"].as_str().expect("a string");
    let mut pos = Position::from_fen(variant, fen)
        .map_err(|e| format!("{name}: FSF's start FEN '{fen}' is refused: {e}"))?;
    let hash = pos.hash();
    let depths = fsf_counts(entry, name).len() as u32;
    Ok(((1..=depths).map(|d| pos.perft(d)).collect(), hash))
}

#[test]
fn loaded_sections_count_as_fairy_stockfish_does() {
    let mut registry = Registry::new();
    let report = registry.load_file(fixture("variants.ini").to_str().expect("UTF-8 path"));
    assert!(
        report.loaded.len() >= LOADED_AT_LEAST,
        "{} sections loaded, fewer than {LOADED_AT_LEAST}: {:?}",
        report.loaded.len(),
        report.loaded
    );
    let data: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("compat-start.json")).expect("data"))
            .expect("valid JSON");
    let mut failures = Vec::new();
    let mut matched = 0;
    for entry in data["positions"].as_array().expect("an array") {
        let name = entry["name"].as_str().expect("a string");
        if entry["kind"].as_str().expect("a string") != "ini"
            || !report.loaded.iter().any(|n| n == name)
        {
            continue;
        }
        let variant = registry.get(name).expect("loaded");
        let (counts, _) = match chimera_counts(&variant, entry, name) {
            Ok(c) => c,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let expected = fsf_counts(entry, name);
        let known = KNOWN_DIFFERENCES.iter().any(|(n, _)| *n == name);
        match (counts == expected, known) {
            (true, false) => matched += 1,
            (false, true) => {}
            (true, true) => failures.push(format!(
                "{name}: now agrees with Fairy-Stockfish; take it off KNOWN_DIFFERENCES"
            )),
            (false, false) => failures.push(format!(
                "{name}: perft 1-3 {counts:?}, Fairy-Stockfish {expected:?}"
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        matched + KNOWN_DIFFERENCES.len(),
        report.loaded.len(),
        "every loaded section is in the data"
    );
}

/// Fairy-Stockfish built-ins that Chimera knows by the same name; a floor that may only rise.
const BUILTINS_AT_LEAST: usize = 121;

/// Every Fairy-Stockfish built-in that Chimera has under the same name gives Fairy-Stockfish's
/// start perft at depths 1 to 3 from Fairy-Stockfish's start FEN.
#[test]
fn builtins_known_by_name_count_as_fairy_stockfish_does() {
    let registry = Registry::new();
    let data: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("compat-start.json")).expect("data"))
            .expect("valid JSON");
    let mut failures = Vec::new();
    let mut known = Vec::new();
    for entry in data["positions"].as_array().expect("an array") {
        let name = entry["name"].as_str().expect("a string");
        if entry["kind"].as_str().expect("a string") != "builtin" {
            continue;
        }
        let Some(variant) = registry.get(name) else {
            continue;
        };
        known.push(name.to_string());
        let (counts, start_hash) = match chimera_counts(&variant, entry, name) {
            Ok(c) => c,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        // The same position (the order of men in hand may be written differently).
        let ours = Position::from_fen(&variant, variant.start_fen()).expect("start position");
        if ours.hash() != start_hash {
            failures.push(format!(
                "{name}: FSF starts from '{}', Chimera from '{}'",
                entry["fen"].as_str().expect("a string"),
                variant.start_fen()
            ));
        }
        let expected = fsf_counts(entry, name);
        if counts != expected {
            failures.push(format!(
                "{name}: perft 1-3 {counts:?}, Fairy-Stockfish {expected:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        known.len() >= BUILTINS_AT_LEAST,
        "{} built-ins known by name: {known:?}",
        known.len()
    );
}

/// The same section means what its file's dialect says: a lame knight (`nN`) on d4 behind a
/// pawn on d5 is blocked towards c6 and e6 in Fairy-Stockfish's reading (the orthogonal-first
/// route), free in Chimera's (the diagonal-first route is open); without a directive, a file is
/// read as Fairy-Stockfish reads it; an unknown dialect is an error at its line.
#[test]
fn a_file_names_its_dialect() {
    let section = "[lame:chess]\ncustomPiece1 = h:nN\n";
    let fen = "7k/8/8/3p4/3H4/8/8/K7 w - - 0 1";
    for (directive, expected) in [
        ("# chimera-dialect: chimera\n", [11, 39]),
        ("# chimera-dialect: fairy-stockfish\n", [9, 32]),
        ("", [9, 32]),
    ] {
        let mut registry = Registry::new();
        let text = format!("{directive}{section}");
        let report = registry.load_text(&text, "dialect.ini", "test");
        assert_eq!(report.loaded, ["lame"], "{directive}: {:?}", report.errors);
        let variant = registry.get("lame").expect("loaded");
        let mut pos = Position::from_fen(&variant, fen).expect("FEN");
        assert_eq!([pos.perft(1), pos.perft(2)], expected, "{directive}");
    }
    let report = Registry::new().load_text(
        &format!("# chimera-dialect: klingon\n{section}"),
        "dialect.ini",
        "test",
    );
    assert!(
        report.errors_text("\n").contains("dialect.ini:1")
            && report.errors_text("\n").contains("klingon"),
        "{}",
        report.errors_text("\n")
    );
}

/// An inherited set of piece letters names piece types, as in Fairy-Stockfish: a child that
/// gives a piece another letter takes the set along (gemini from janus), one that removes a
/// piece drops it from the set (massacre from giveaway).
#[test]
fn inherited_letter_sets_follow_their_pieces() {
    let text = "[parent:chess]\narchbishop = j\npromotionPieceTypes = jqrbn\n\
                [relettered:parent]\narchbishop = a\n\
                [removed:parent]\narchbishop = -\n";
    let mut registry = Registry::new();
    let report = registry.load_text(text, "letters.ini", "test");
    assert_eq!(
        report.loaded,
        ["parent", "relettered", "removed"],
        "{}",
        report.errors_text("\n")
    );
    // A pawn about to promote, a king with three moves.
    let fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
    for (name, moves) in [("parent", 8), ("relettered", 8), ("removed", 7)] {
        let v = registry.get(name).expect("loaded");
        let mut pos = Position::from_fen(&v, fen).expect("FEN");
        assert_eq!(pos.perft(1), moves, "{name}");
    }
    let v = registry.get("relettered").expect("loaded");
    let mut pos = Position::from_fen(&v, fen).expect("FEN");
    assert!(pos.try_play("a7a8a").is_ok());
}
