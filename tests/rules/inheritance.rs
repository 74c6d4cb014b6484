//! A section inherits what its parent means (docs/variant-files.md, "Dialects"): the parent's
//! lines keep the dialect of the file that wrote them, and only the section's own lines are
//! read in its own file's dialect. `[x:vanguard]` with no keys is Vanguard in every dialect
//! (before, a file in Fairy-Stockfish's dialect re-read Vanguard's pieces in it: the
//! Helepolis lost his initial moves and King and Prince became royal under the check rule,
//! 263 moves where Vanguard has 272). `chimera check` warns of a file that inherits lines
//! written in the other dialect.

use chimera_engine::registry::{builtin, Registry};
use chimera_engine::{Position, VariantRef};

/// The headers a file in each dialect starts with: none (Fairy-Stockfish's, the default), and
/// each directive.
const DIALECTS: [&str; 3] = [
    "",
    "# chimera-dialect: fairy-stockfish\n",
    "# chimera-dialect: chimera\n",
];

/// The reference position "P2-special-pieces" of tests/data/vanguard-perft.json (the
/// Interactive Diagram's counts: 272 moves at depth 1, 65,308 at depth 2), in the built-in
/// variant's letters.
const P2: &str = "huyfbwaqkjcbfyuh/rnzltt1gg3lznr/ppppss1eessspppp/16/16/13E*2/2G*6b*2p*3/2y*1P*1p*s*8/5W*1Z*2o*1L*2c*/p*Y*6n*7/6P*1S*2T*4/4O*8f*U*1/H*1p*1s*t*1r*2N*5/3F*12/4B10R*/1A5Q*KJC4H w - - 0 1";

fn load(text: &str) -> VariantRef {
    let mut registry = Registry::new();
    let report = registry.load_text(text, "inline.ini", "inline.ini");
    assert!(report.errors.is_empty(), "{}", report.errors_text("\n"));
    registry.get("x").expect("x loads")
}

fn perft(v: &VariantRef, fen: &str, depth: u32) -> u64 {
    Position::from_fen(v, fen)
        .unwrap_or_else(|e| panic!("{fen}: {e:?}"))
        .perft(depth)
}

#[test]
fn an_empty_child_of_vanguard_is_vanguard_in_every_dialect() {
    let vanguard = builtin("vanguard").unwrap();
    let start = vanguard.start_fen().to_string();
    assert_eq!(perft(&vanguard, P2, 1), 272);
    let p2_depth2 = perft(&vanguard, P2, 2);
    for header in DIALECTS {
        let x = load(&format!("{header}[x:vanguard]\n"));
        assert_eq!(x.start_fen(), start, "{header:?}");
        // The start position's counts (tests/data/vanguard-perft.json).
        assert_eq!(perft(&x, &start, 1), 108, "{header:?}");
        assert_eq!(perft(&x, &start, 2), 11_664, "{header:?}");
        assert_eq!(perft(&x, P2, 1), 272, "{header:?}");
        assert_eq!(perft(&x, P2, 2), p2_depth2, "{header:?}");
    }
}

/// Vanguard's start position with Black to move: by symmetry, the start's counts.
const BLACK_FIRST: &str = "huyfbwaqkjcbfyuh/rnzlttoggottlznr/ppppssseessspppp/16/16/16/16/16/16/16/16/16/16/PPPPSSSEESSSPPPP/RNZLTTOGGOTTLZNR/HUYFBWAQKJCBFYUH b - - 0 1";

#[test]
fn a_child_that_overrides_one_key_keeps_the_rest() {
    for header in DIALECTS {
        // A new start position, everything else Vanguard's (the pawns' and the Helepolis's
        // initial moves, the two royal men): the start's counts.
        let x = load(&format!("{header}[x:vanguard]\nstartFen = {BLACK_FIRST}\n"));
        assert_eq!(perft(&x, x.start_fen(), 1), 108, "{header:?}");
        assert_eq!(perft(&x, x.start_fen(), 2), 11_664, "{header:?}");
        assert_eq!(perft(&x, P2, 1), 272, "{header:?}");
        // A grandchild in another file's dialect still means Vanguard.
        for grand in DIALECTS {
            let text = format!("{header}[y:vanguard]\nstartFen = {BLACK_FIRST}\n");
            let mut registry = Registry::new();
            assert!(registry
                .load_text(&text, "a.ini", "a.ini")
                .errors
                .is_empty());
            let report = registry.load_text(&format!("{grand}[x:y]\n"), "b.ini", "b.ini");
            assert!(report.errors.is_empty(), "{}", report.errors_text("\n"));
            let x = registry.get("x").unwrap();
            assert_eq!(perft(&x, x.start_fen(), 2), 11_664, "{header:?} {grand:?}");
            assert_eq!(perft(&x, P2, 1), 272, "{header:?} {grand:?}");
        }
    }
}

#[test]
fn a_child_s_own_lines_are_read_in_its_dialect() {
    // A lame oblique leap: the xiangqi horse on b1, with b2 taken. Fairy-Stockfish's dialect
    // blocks a leap whose orthogonal-first route is blocked; Chimera's only when both are.
    let body = "[x:chess]\ncustomPiece1 = h:nN\nstartFen = 4k3/8/8/8/8/8/1P6/1H2K3 w - - 0 1\n";
    let fsf = load(body);
    let chimera = load(&format!("# chimera-dialect: chimera\n{body}"));
    let moves = |v: &VariantRef| {
        let mut pos = Position::from_fen(v, v.start_fen()).unwrap();
        let mut m: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|&mv| pos.move_text(mv))
            .filter(|t| t.starts_with("b1"))
            .collect();
        m.sort();
        m
    };
    // b2 blocks the orthogonal-first route to a3 and c3 (Fairy-Stockfish's reading); the
    // diagonal-first routes (a2, c2) are open, so Chimera's reading lets both through.
    assert_eq!(moves(&fsf), ["b1d2"]);
    assert_eq!(moves(&chimera), ["b1a3", "b1c3", "b1d2"]);
}

#[test]
fn check_warns_of_a_file_that_inherits_the_other_dialect() {
    let registry = Registry::new();
    let report = registry.check_text("[x:vanguard]\n", "mine.ini");
    assert!(report.errors.is_empty());
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    let warning = report.warnings[0].to_string();
    assert!(
        warning.starts_with("mine.ini:1: warning: variant 'x'")
            && warning.contains("'vanguard', written in the chimera dialect"),
        "{warning}"
    );
    // The same file in Chimera's dialect, and a child of chess (whose men each dialect reads
    // as its own predefined pieces): nothing to warn of.
    for text in [
        "# chimera-dialect: chimera\n[x:vanguard]\n",
        "[x:chess]\nmaxFile = 10\n",
    ] {
        let report = registry.check_text(text, "mine.ini");
        assert!(report.warnings.is_empty(), "{text}: {:?}", report.warnings);
    }
    // Chimera's dialect inheriting lines of Fairy-Stockfish's (xiangqi's horse).
    let report = registry.check_text("# chimera-dialect: chimera\n[x:xiangqi]\n", "mine.ini");
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
}
