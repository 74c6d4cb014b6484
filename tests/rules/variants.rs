//! User variant files (tests/data/variants): the files under ok/ load, through the registry
//! and the `check`/`perft`/`variants` commands, and their custom pieces (XBetza), inheritance
//! and board sizes give hand-counted perft numbers; each file under bad/ fails with the error
//! its `# expect:` line names, located at its `# line:` line.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use chimera_cli as cli;
use chimera_engine::registry::{builtin_names, Registry};
use chimera_engine::variant::VariantError;
use chimera_engine::{Position, VariantRef};

use crate::support;
use support::sorted_moves;

fn data_dir(sub: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/variants")
        .join(sub)
}

/// The `.ini` files of a data folder, sorted.
fn ini_files(sub: &str) -> Vec<PathBuf> {
    let dir = data_dir(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ini"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .ini file in {}", dir.display());
    files
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn describe(errors: &[VariantError]) -> String {
    errors
        .iter()
        .map(|e| format!("  {e}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The ok/ files whose variants the tests below play (no_pawns.ini has its own test).
const PLAYED_FILES: &[&str] = &["inherit.ini", "zoo.ini", "chain.ini", "huge.ini"];

/// A registry with the built-ins and the variants of [`PLAYED_FILES`].
fn registry_with_ok_files() -> Registry {
    let mut r = Registry::new();
    for name in PLAYED_FILES {
        let f = data_dir("ok").join(name);
        if let Err(e) = r.load_file(path_str(&f)).into_result() {
            panic!("{} does not load:\n{}", f.display(), describe(&e));
        }
    }
    r
}

// ---------------------------------------------------------------------------------------------
// ok/
// ---------------------------------------------------------------------------------------------

/// Every file under ok/ loads into a fresh registry, defines the variants it declares, and
/// `check_text` agrees.
#[test]
fn ok_files_load() {
    let expected: &[(&str, &[&str])] = &[
        ("chain.ini", &["top12", "base12", "mid12"]),
        ("huge.ini", &["huge"]),
        ("inherit.ini", &["mychess"]),
        ("no_pawns.ini", &["rookending"]),
        ("zoo.ini", &["zoo"]),
    ];
    let files = ini_files("ok");
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        expected.iter().map(|e| e.0).collect::<Vec<_>>(),
        "ok/ holds other files than this test knows"
    );
    let mut failures = Vec::new();
    for (file, (_, variants)) in files.iter().zip(expected) {
        let mut r = Registry::new();
        match r.load_file(path_str(file)).into_result() {
            Ok(loaded) => {
                assert_eq!(loaded, *variants, "{}", file.display());
                for v in *variants {
                    let var = r
                        .get(v)
                        .unwrap_or_else(|| panic!("{v} not in the registry"));
                    // The start position of a loaded variant is consistent and reads back.
                    let start = Position::startpos(&var);
                    start.validate().unwrap_or_else(|e| panic!("{v}: {e}"));
                    assert_eq!(
                        Position::from_fen(&var, &start.fen()).map(|p| p.fen()).ok(),
                        Some(start.fen()),
                        "{v}"
                    );
                }
            }
            Err(e) => failures.push(format!("{}:\n{}", file.display(), describe(&e))),
        }
        let text = std::fs::read_to_string(file).expect("readable");
        if let Err(e) = Registry::new()
            .check_text(&text, path_str(file))
            .into_result()
        {
            failures.push(format!(
                "{} (check_text):\n{}",
                file.display(),
                describe(&e)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A position of a loaded variant with its perft(1) and perft(2), counted by hand.
struct HandCount {
    variant: &'static str,
    fen: &'static str,
    perft: [u64; 2],
}

/// The hand counts. White's king is on a1 (moves a2, b1, b2: 3) and Black's on h8 (g8, g7, h7:
/// 3, fewer when White attacks them) unless said otherwise; "replies" are Black's legal moves
/// after each White move, summed for perft(2).
const HAND_COUNTS: &[HandCount] = &[
    // inherit.ini, chess rules: Ke1 (d1 d2 e2 f1 f2: 5), O-O (e1g1: 1), Rh1 (h2..h8: 7, g1 f1:
    // 2) = 15. Replies of Ke8 (d8 f8 d7 e7 f7: 5): after a king move 5 each (25); after O-O
    // or Rf1 the rook holds the f-file: 3 each (6); Rh2..Rh6 5 each (25); Rh7 takes rank 7: 2;
    // Rh8+ takes rank 8 through the king: 3; Rg1 5. Total 25+6+25+2+3+5 = 66.
    HandCount {
        variant: "mychess",
        fen: "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        perft: [15, 66],
    },
    // Mastodon (KAD) on d4: 8 king steps, alfil b2 b6 f2 f6, dabbaba d2 d6 b4 f4 = 16, + 3 king
    // moves = 19. Replies: from f6 it checks h8 (alfil) and hits g7: 2; from e5 it hits g7
    // (alfil): 2; the other 14 squares and the 3 king moves leave 3: 14*3 + 2 + 2 + 9 = 55.
    // (Fairy-Stockfish agrees: 19, 55.)
    HandCount {
        variant: "zoo",
        fen: "7k/8/8/8/3M4/8/8/K7 w - - 0 1",
        perft: [19, 55],
    },
    // Nightrider (NN) on d4: e6 f8, f5 h6, f3 h2, e2, c2, b3, b5, c6 b8 = 12, + 3 = 15.
    // Replies: from e6 (hits g7), f8 (h7), f5 (g7), h6 (g8), f3 (h7, via g5), c6 (g8, via e7):
    // 2 each; from e2 (check along f4-g6-h8) and b5 (check along d6-f7-h8) the king still has
    // all 3 squares; h2, c2, b3, b8: 3 each; king moves 3 each. 6*2 + 6*3 + 9 = 39.
    // (Fairy-Stockfish agrees: 15, 39.)
    HandCount {
        variant: "zoo",
        fen: "7k/8/8/8/3N4/8/8/K7 w - - 0 1",
        perft: [15, 39],
    },
    // Lame knight (nN) on d4 with a Black pawn on d5, which blocks the orthogonal route to e6
    // and c6; their diagonal routes (e5, c5) are empty, so under Chimera's reading (blocked only
    // when both routes are) all 8 leaps stand: 8 + 3 = 11. Replies: the pawn may go d5-d4 once
    // the horse has left (1) plus the king: from e6 and f5 the horse hits g7 (2 + 1 = 3 each),
    // from b3 b5 c2 c6 e2 f3 nothing (4 each: 24); after a king move the pawn is stuck (3
    // each: 9). 6 + 24 + 9 = 39. (Fairy-Stockfish, which blocks on the orthogonal square
    // alone, gives 9 and 32.)
    HandCount {
        variant: "zoo",
        fen: "7k/8/8/3p4/3H4/8/8/K7 w - - 0 1",
        perft: [11, 39],
    },
    // The same with a second pawn on e5: e6 now has both routes (d5, e5) blocked, every other
    // leap keeps one: 7 + 3 = 10. Replies: pawns d5-d4 and e5-e4 once the horse has left (2)
    // plus the king: from f5 the horse hits g7 (2 + 2 = 4); from f3 b3 b5 c2 c6 e2: 5 each (30);
    // after a king move, e5-e4 and e5xd4 (taking the horse) + 3 king moves = 5 each (15).
    // 4 + 30 + 15 = 49.
    HandCount {
        variant: "zoo",
        fen: "7k/8/8/3pp3/3H4/8/8/K7 w - - 0 1",
        perft: [10, 49],
    },
    // Cannon (mRcpR) on d4, Black pawns d6 and d7: quiet rook moves d5, d3 d2 d1, c4 b4 a4,
    // e4 f4 g4 h4 (11) and one capture, over the d6 screen onto d7 (1): 12 + 3 = 15. The cannon
    // never attacks the king's squares (no screen on those lines). Replies: after d4-d5 the d6
    // pawn is blocked: 3; after the other 10 quiet moves and after the capture, d6-d5 is
    // possible: 4 each (44); after a king move: 4 each (12). 3 + 44 + 12 = 59.
    // (Fairy-Stockfish agrees: 15, 59.)
    HandCount {
        variant: "zoo",
        fen: "7k/3p4/3p4/8/3C4/8/8/K7 w - - 0 1",
        perft: [15, 59],
    },
    // Grasshopper (gQ) on d4, Black pawns d6 and f6: it lands beyond the first man of a line,
    // d7 (over d6) and g7 (over f6); the line to a1 ends on its own king with nothing beyond:
    // 2 + 3 = 5. Replies: pawns d6-d5 and f6-f5 (2) + king 3 (after Gg7 the king may take it)
    // = 5 after each grasshopper move (10); after a king move the grasshopper on d4 hits g7
    // (over f6): 2 + 2 = 4 each (12). 10 + 12 = 22. (Fairy-Stockfish agrees: 5, 22.)
    HandCount {
        variant: "zoo",
        fen: "7k/8/3p1p2/8/3G4/8/8/K7 w - - 0 1",
        perft: [5, 22],
    },
    // Rook limited to 4 squares (R4) on c5: c6 c7 c8 (3), c4 c3 c2 c1 (4), b5 a5 (2), d5 e5
    // f5 g5 but not h5 (4): 13 + 3 = 16. Replies: from c7 it reaches g7 but not h7 (2); from c8
    // g8 but not h8 (2); from g5 g7 and g8 (1); the other 10 squares and the king moves: 3
    // each (39). 2 + 2 + 1 + 39 = 44. (Fairy-Stockfish agrees: 16, 44.)
    HandCount {
        variant: "zoo",
        fen: "7k/8/8/2R5/8/8/8/K7 w - - 0 1",
        perft: [16, 44],
    },
    // chain.ini, 12x12, Black's king on l12 (k12 k11 l11: 3). Nightrider on f6: rays g8 h10
    // i12, h7 j8 l9, h5 j4 l3, g4 h2, e4 d2, d5 b4, d7 b8, e8 d10 c12 = 20, + 3 = 23. Replies:
    // from i12 (hits k11), l9 (k11), h5 (k11 via i7 j9), g4 (k12 via h6 i8 j10), d7 (l11 via
    // f7 h8 j9), e8 (k11 via g9 i10): 2 each (12); from h10 and j8 it checks l12 but leaves all
    // three squares; those and the other 12 squares: 3 each (42); king moves 3 each (9). 63.
    HandCount {
        variant: "top12",
        fen: "11k/12/12/12/12/12/5N6/12/12/12/12/K11 w - - 0 1",
        perft: [23, 63],
    },
    // huge.ini, 16x16, Black's king on p16 (o16 o15 p15: 3). Rook on h8: h9..h16 (8), h7..h1
    // (7), g8..a8 (7), i8..p8 (8) = 30, + 3 = 33. Replies: Rh16+ and Rp8+ leave 2; Rh15 and
    // Ro8 leave 1; the other 26 rook moves and the 3 king moves leave 3 (87). 2+2+1+1+87 = 93.
    HandCount {
        variant: "huge",
        fen: "15k/16/16/16/16/16/16/16/7R8/16/16/16/16/16/16/K15 w - - 0 1",
        perft: [33, 93],
    },
];

#[test]
fn custom_pieces_and_boards_give_the_hand_counted_perft() {
    let r = registry_with_ok_files();
    let mut failures = Vec::new();
    for case in HAND_COUNTS {
        let v = r
            .get(case.variant)
            .unwrap_or_else(|| panic!("no variant {}", case.variant));
        let mut pos =
            Position::from_fen(&v, case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        let got = [pos.perft(1), pos.perft(2)];
        if got != case.perft {
            let moves = sorted_moves(&mut pos);
            failures.push(format!(
                "{} {}: perft(1, 2) = {got:?}, counted by hand {:?}; moves: {}",
                case.variant,
                case.fen,
                case.perft,
                moves.join(" ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The variant without pawns of no_pawns.ini: White's rook a1 and king e1 against the king e8.
/// Ke1 d1 d2 e2 f1 f2 (5), Ra1 a2..a8 (7) b1 c1 d1 (3) = 15. Replies of Ke8 (d8 f8 d7 e7 f7):
/// after a king move 5 each (25); Ra2..Ra6 5 each (25); Ra7 takes rank 7: 2; Ra8+ takes rank 8:
/// 3; Rb1 Rc1 5 each (10); Rd1 takes the d-file: 3. 25+25+2+3+10+3 = 68.
#[test]
fn a_variant_without_pawns_loads_and_plays() {
    let mut r = Registry::new();
    let file = data_dir("ok").join("no_pawns.ini");
    if let Err(e) = r.load_file(path_str(&file)).into_result() {
        panic!("{} does not load:\n{}", file.display(), describe(&e));
    }
    let v = r.get("rookending").expect("loaded");
    let mut pos = Position::startpos(&v);
    assert_eq!([pos.perft(1), pos.perft(2)], [15, 68]);
}

/// Inheritance: a child keeps its parent's pieces and rules and takes its own keys; a chain
/// inside one file resolves whatever the order of the sections; `name = -` removes a piece.
#[test]
fn inheritance_keeps_and_overrides_keys() {
    let r = registry_with_ok_files();
    let chess = r.get("chess").expect("built-in");
    let mine = r.get("mychess").expect("loaded");
    let letters = |v: &VariantRef| v.pieces().iter().map(|p| p.letter).collect::<String>();
    assert_eq!(
        letters(&mine),
        letters(&chess),
        "mychess has chess's pieces"
    );
    assert!(mine.castling().is_some(), "mychess castles as chess does");
    assert_eq!(mine.start_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    // The built-in chess itself is untouched by its child.
    assert_eq!(
        chess.start_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    let mut pos = Position::startpos(&mine);
    assert!(
        pos.parse_move("e1g1").is_ok(),
        "castling inherited from chess"
    );

    for name in ["base12", "mid12", "top12"] {
        let v = r.get(name).expect("loaded");
        assert_eq!(
            (v.geometry().files, v.geometry().ranks),
            (12, 12),
            "{name}: board from base12"
        );
        assert!(
            v.castling().is_none(),
            "{name}: castling = false from base12"
        );
    }
    let has = |name: &str, letter: char| {
        r.get(name)
            .expect("loaded")
            .piece_by_letter(letter)
            .is_some()
    };
    assert!(has("base12", 'm') && !has("base12", 'n'));
    assert!(
        has("mid12", 'm') && has("mid12", 'n'),
        "mid12 keeps the mastodon and adds the nightrider"
    );
    assert!(
        !has("top12", 'm') && has("top12", 'n') && has("top12", 'k'),
        "top12 removes the mastodon"
    );
    let top = r.get("top12").expect("loaded");
    assert!(
        Position::from_fen(&top, "11k/12/12/12/12/12/12/12/12/12/12/KM10 w - - 0 1").is_err(),
        "no mastodon in top12"
    );

    let huge = r.get("huge").expect("loaded");
    assert_eq!((huge.geometry().files, huge.geometry().ranks), (16, 16));
    // The far corner is p16, and a move there is written and read with a two-digit rank.
    let mut pos = Position::from_fen(
        &huge,
        "k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K14R w - - 0 1",
    )
    .expect("valid");
    let mv = pos.parse_move("p1p16").expect("rook a1..p16 file move");
    assert_eq!(pos.move_text(mv), "p1p16");
}

// ---------------------------------------------------------------------------------------------
// bad/
// ---------------------------------------------------------------------------------------------

/// The `# expect:` and `# line:` header of a bad file.
fn expectation(file: &Path) -> (String, usize) {
    let text = std::fs::read_to_string(file).expect("readable");
    let mut lines = text.lines();
    let expect = lines
        .next()
        .and_then(|l| l.strip_prefix("# expect: "))
        .unwrap_or_else(|| panic!("{}: first line must be '# expect: <text>'", file.display()));
    let line = lines
        .next()
        .and_then(|l| l.strip_prefix("# line: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{}: second line must be '# line: <n>'", file.display()));
    (expect.trim().to_string(), line)
}

/// Each bad file reports a problem; one of its errors contains the expected text, is located at
/// the expected line of that file, and says so in its message (`file:line: ...`). Only the
/// sections the report names as loaded are added to the registry.
#[test]
fn bad_files_fail_with_the_expected_error_at_the_expected_line() {
    let mut failures = Vec::new();
    for file in ini_files("bad") {
        let (expect, line) = expectation(&file);
        let path = path_str(&file);
        let mut r = Registry::new();
        let before = r.names();
        let report = r.load_file(path);
        let loaded = report.loaded.clone();
        match report.into_result() {
            Ok(names) => failures.push(format!("{path}: loaded {names:?}")),
            Err(errors) => {
                let hit = errors.iter().find(|e| e.to_string().contains(&expect));
                match hit {
                    None => failures.push(format!(
                        "{path}: no error contains '{expect}':\n{}",
                        describe(&errors)
                    )),
                    Some(e) if e.line != line || e.file != path => failures.push(format!(
                        "{path}: '{expect}' reported at {}:{}, expected line {line}",
                        e.file, e.line
                    )),
                    Some(e) => {
                        let location = format!("{path}:{line}:");
                        if !e.to_string().starts_with(&location) {
                            failures.push(format!(
                                "{path}: message '{e}' does not start with '{location}'"
                            ));
                        }
                    }
                }
            }
        }
        let gained: Vec<String> = r
            .names()
            .into_iter()
            .filter(|n| !before.contains(n))
            .collect();
        if gained != loaded {
            failures.push(format!(
                "{path}: the registry gained {gained:?}, the report says {loaded:?}"
            ));
        }
        // check_text reports the same.
        let text = std::fs::read_to_string(&file).expect("readable");
        if Registry::new()
            .check_text(&text, path)
            .into_result()
            .is_ok()
        {
            failures.push(format!("{path}: check_text accepts it"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each bad file holds one problem, so every error reported must be about that one line: an
/// error elsewhere is a consequence reported as a second problem (for instance a key the
/// builder never reached reported as "unknown key", or a default size used after a bad
/// `maxFile` then failing the start position).
#[test]
fn bad_files_report_only_their_one_problem() {
    let mut failures = Vec::new();
    for file in ini_files("bad") {
        let (_, line) = expectation(&file);
        if let Err(errors) = Registry::new().load_file(path_str(&file)).into_result() {
            for e in errors.iter().filter(|e| e.line != line) {
                failures.push(format!("{}: extra error: {e}", file.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The error for an XBetza element the generator cannot execute names the element.
#[test]
fn unexecutable_xbetza_is_named() {
    for (betza, element) in [
        ("caeK", "caeK"),
        ("KcaeK", "caeK"),
        ("WdF", "dF"),
        ("NuW", "uW"),
        ("tK", "tK"),
    ] {
        let text = format!("[v:chess]\ncustomPiece1 = a:{betza}\n");
        let errors = Registry::new()
            .check_text(&text, "inline.ini")
            .into_result()
            .expect_err(betza);
        assert!(
            errors
                .iter()
                .any(|e| e.line == 2 && e.message.contains(&format!("'{element}'"))),
            "{betza}: no error names '{element}':\n{}",
            describe(&errors)
        );
    }
}

/// `variantTemplate` names the XBoard parent variant: one XBoard knows, or an error naming the
/// key and the value (`nosuch` under bad/ is the file form of this).
#[test]
fn variant_template_must_be_an_xboard_parent() {
    for template in [
        "fairy",
        "normal",
        "shogi",
        "crazyhouse",
        "seirawan",
        "3check",
        "chu",
    ] {
        let text = format!("[v:chess]\nvariantTemplate = {template}\n");
        let names = Registry::new()
            .check_text(&text, "inline.ini")
            .into_result()
            .unwrap_or_else(|e| panic!("{template}:\n{}", describe(&e)));
        assert_eq!(names, ["v"]);
    }
    for template in ["nosuch", "", "Shogi", "fairy shogi", "é"] {
        let text = format!("[v:chess]\nvariantTemplate = {template}\n");
        let errors = Registry::new()
            .check_text(&text, "inline.ini")
            .into_result()
            .expect_err(template);
        assert!(
            errors.iter().any(|e| e.line == 2
                && e.key.as_deref() == Some("variantTemplate")
                && e.message.contains(&format!("'{template}'"))),
            "{template}: no error names the key and the value:\n{}",
            describe(&errors)
        );
    }
    // Without the key, the parent is `fairy`.
    let mut r = Registry::new();
    r.load_text("[v:chess]\n", "inline.ini", "test")
        .into_result()
        .expect("loads");
    assert_eq!(r.get("v").expect("loaded").template(), "fairy");
}

// ---------------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------------

#[test]
fn cli_check_accepts_ok_files_and_rejects_bad_ones() {
    let mut failures = Vec::new();
    for file in ini_files("ok") {
        let code = cli::run(&args(&["check", path_str(&file)]));
        if code != 0 {
            failures.push(format!("check {}: exit code {code}", file.display()));
        }
    }
    for file in ini_files("bad") {
        let code = cli::run(&args(&["check", path_str(&file)]));
        if code == 0 {
            failures.push(format!("check {}: exit code 0", file.display()));
        }
        // Loading it for another command fails too, unless some section of it is good (the
        // bad ones are reported and left out).
        let some_good = !Registry::new().load_file(path_str(&file)).loaded.is_empty();
        let code = cli::run(&args(&["variants", "--variants", path_str(&file)]));
        if (code == 0) != some_good {
            failures.push(format!(
                "variants --variants {}: exit code {code} with good sections: {some_good}",
                file.display()
            ));
        }
    }
    if cli::run(&args(&["check", "/nonexistent/variants.ini"])) == 0 {
        failures.push("check of a missing file: exit code 0".into());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cli_perft_runs_loaded_variants() {
    for (file, variant) in [
        ("inherit.ini", "mychess"),
        ("zoo.ini", "zoo"),
        ("chain.ini", "top12"),
        ("huge.ini", "huge"),
    ] {
        let path = data_dir("ok").join(file);
        let code = cli::run(&args(&[
            "perft",
            "2",
            "--variants",
            path_str(&path),
            "--variant",
            variant,
        ]));
        assert_eq!(code, 0, "perft 2 --variants {file} --variant {variant}");
    }
    // A variant from a file is unknown without the file.
    assert_ne!(cli::run(&args(&["perft", "1", "--variant", "zoo"])), 0);
    // A FEN that does not fit the loaded variant is an error, not a panic.
    let zoo = data_dir("ok").join("zoo.ini");
    assert_ne!(
        cli::run(&args(&[
            "perft",
            "1",
            "--variants",
            path_str(&zoo),
            "--variant",
            "zoo",
            "--fen",
            "8/8 w - -"
        ])),
        0
    );
}

/// Runs the chimera binary and returns (exit code, standard output).
fn chimera(list: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chimera"))
        .args(list)
        .output()
        .expect("run chimera");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn cli_variants_lists_builtins_and_loaded_variants() {
    let names = builtin_names();
    for expected in ["chess", "capablanca", "grand", "berolina", "seirawan"] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} is not built in"
        );
    }
    assert_eq!(cli::run(&args(&["variants"])), 0);
    let (code, out) = chimera(&["variants"]);
    assert_eq!(code, 0);
    let listed: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        listed, names,
        "one line per built-in variant, in order:\n{out}"
    );
    // With a file, its variants follow the built-ins.
    let chain = data_dir("ok").join("chain.ini");
    let (code, out) = chimera(&["variants", "--variants", path_str(&chain)]);
    assert_eq!(code, 0);
    let listed: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut expected: Vec<&str> = names.iter().map(String::as_str).collect();
    expected.extend(["top12", "base12", "mid12"]);
    assert_eq!(listed, expected, "{out}");
    assert!(out.contains("12x12"), "board size listed:\n{out}");
}

#[test]
fn cli_perft_prints_the_hand_counted_total() {
    let zoo = data_dir("ok").join("zoo.ini");
    // The zoo start position is the mastodon position above: 55 nodes at depth 2.
    let (code, out) = chimera(&[
        "perft",
        "2",
        "--variants",
        path_str(&zoo),
        "--variant",
        "zoo",
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.lines().last(), Some("Nodes searched: 55"), "{out}");
    // One line per root move, then an empty line.
    assert_eq!(
        out.lines()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count(),
        19,
        "{out}"
    );
}

// ---------------------------------------------------------------------------------------------
// Random variant files
// ---------------------------------------------------------------------------------------------

/// Keys the loader reads and values of every type they take, right or wrong for the key.
const FUZZ_KEYS: &[&str] = &[
    "maxFile",
    "maxRank",
    "startFen",
    "pawnTypes",
    "promotionPawnTypes",
    "promotionPieceTypes",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionLimit",
    "mandatoryPawnPromotion",
    "immobilityIllegal",
    "doubleStep",
    "enPassantTypes",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRank",
    "castlingKingFile",
    "castlingKingPiece",
    "castlingRookPieces",
    "gating",
    "seirawanGating",
    "pieceDrops",
    "capturesToHand",
    "checking",
    "nMoveRule",
    "nMoveRuleTypes",
    "nFoldRule",
    "stalemateValue",
    "checkmateValue",
    "pieceValueMg",
    "king",
    "pawn",
    "knight",
    "rook",
    "commoner",
    "customPiece1",
    "customPiece2",
    "customPiece25",
];
const FUZZ_VALUES: &[&str] = &[
    "0",
    "1",
    "2",
    "8",
    "10",
    "12",
    "16",
    "17",
    "a",
    "c",
    "j",
    "p",
    "z",
    "true",
    "false",
    "k",
    "r",
    "p",
    "qrbn",
    "",
    "-",
    "*1",
    "*8",
    "*16",
    "a1 h8",
    "p16",
    "q:1 r:2",
    "win",
    "draw",
    "K",
    "a:NN",
    "b:nN",
    "c:mRcpR",
    "d:gQ",
    "e:R4",
    "f:ifmnD",
    "g:fmWfceF",
    "h:KAD",
    "i:caK",
    "w:Q",
    "x:WW3",
    "y:fhN",
    "m:mfFcfeWimfnA",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "k/K w",
    "1k/2/K1 w - -",
    "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R[Q] w KQ - 0 1",
];

/// Random edits of the ok/ files, and random sections of their own: loading never panics, and
/// every variant that loads can be set up and played (its start position validates, prints
/// to a FEN that reads back, and perft(2) runs).
#[test]
fn random_variant_files_do_not_panic() {
    let bases: Vec<String> = ini_files("ok")
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("readable"))
        .collect();
    let mut rng = SmallRng::seed_from_u64(0xfeed_5eed);
    let mut failures = Vec::new();
    let mut loaded = 0;
    for round in 0..3000 {
        let mut text = bases[round % bases.len()].clone();
        if rng.gen_bool(0.3) {
            let parent = ["", ":chess", ":seirawan", ":grand", ":berolina"][rng.gen_range(0..5)];
            text.push_str(&format!("\n[fuzz{round}{parent}]\n"));
        }
        for _ in 0..rng.gen_range(1..3) {
            let key = FUZZ_KEYS[rng.gen_range(0..FUZZ_KEYS.len())];
            let value = FUZZ_VALUES[rng.gen_range(0..FUZZ_VALUES.len())];
            text.push_str(&format!("{key} = {value}\n"));
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| -> Result<usize, String> {
            let mut r = Registry::new();
            let Ok(names) = r.load_text(&text, "fuzz.ini", "fuzz").into_result() else {
                return Ok(0);
            };
            for name in &names {
                let v = r.get(name).ok_or("loaded but not found")?;
                let mut pos = Position::startpos(&v);
                pos.validate()?;
                let fen = pos.fen();
                let back = Position::from_fen(&v, &fen)
                    .map_err(|e| format!("{name}: own FEN '{fen}': {e}"))?;
                if back.fen() != fen {
                    return Err(format!("{name}: '{fen}' written again as '{}'", back.fen()));
                }
                let _ = pos.perft(2);
            }
            Ok(names.len())
        }));
        match outcome {
            Ok(Ok(n)) => loaded += n,
            Ok(Err(e)) => failures.push(format!("{e}\n--- file ---\n{text}")),
            Err(panic) => {
                let what = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
                failures.push(format!("panicked: {what:?}\n--- file ---\n{text}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s), first:\n{}",
        failures.len(),
        failures[..failures.len().min(3)].join("\n")
    );
    assert!(
        loaded > 50,
        "only {loaded} variants loaded: the edits break nearly every file"
    );
}

/// A file with bad sections loads its good ones: each bad section is reported at its line and
/// left out, a child of a good section loads, and `check` lists every problem of every section.
#[test]
fn bad_sections_are_left_out_and_the_rest_loads() {
    let text = "\
[good:chess]
maxRank = 8
[typo:chess]
castling = maybe
[orphan:nosuchparent]
maxFile = 8
[child:good]
checking = true
[weird:chess]
this line is not ini
[unknownkey:chess]
nosuchkey = 1
";
    let mut r = Registry::new();
    let report = r.load_text(text, "mixed.ini", "test");
    assert_eq!(report.loaded, vec!["good".to_string(), "child".to_string()]);
    let lines: Vec<usize> = report.errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, vec![4, 5, 10, 12], "{:?}", report.errors);
    assert!(r.get("good").is_some() && r.get("child").is_some());
    for name in ["typo", "orphan", "weird", "unknownkey"] {
        assert!(r.get(name).is_none(), "{name} loaded");
    }
    let checked = Registry::new().check_text(text, "mixed.ini");
    assert_eq!(checked, report);
}

/// Fairy-Stockfish's own variant file (tests/data/fsf) loads whole, without a problem; with a
/// bad section added, that one is reported at its file and line and the others still load.
#[test]
fn fairy_stockfish_variant_file_loads_and_a_bad_section_stays_out() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fsf/variants.ini");
    let text = std::fs::read_to_string(&path).expect("fixture");
    let sections = text.lines().filter(|l| l.starts_with('[')).count();
    let report = Registry::new().load_file(path_str(&path));
    assert_eq!(report.errors, Vec::new());
    assert_eq!(report.loaded.len(), sections);
    for name in ["centaurking", "grandhouse", "haynie", "upsidedown", "elgam"] {
        assert!(report.loaded.iter().any(|n| n == name), "{name}");
    }
    let lines = text.lines().count();
    let bad = format!("{text}\n[broken:chess]\nnoSuchKey = 1\n");
    let report = Registry::new().load_text(&bad, "fsf+broken.ini", "test");
    assert_eq!(report.loaded.len(), sections);
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    assert_eq!(report.errors[0].line, lines + 3, "{}", report.errors[0]);
}

/// Fairy-Stockfish's predefined `immobile` man has no move at all, and `*` in a piece set means
/// every piece: White's immobile man on d4 blocks the d-pawn's double step and adds no move
/// (d2-d3 and four king steps: 5). Black's immobile man on e7 keeps his king off that square
/// (d8 f8 d7 f7: 4 replies to each move, and the pawn on d3 attacks nothing on rank 4).
#[test]
fn immobile_men_and_the_every_piece_set() {
    let mut r = Registry::new();
    let report = r.load_text(
        "[walls:chess]\nimmobile = w\ncaptureTypes = *\n",
        "walls.ini",
        "test",
    );
    assert_eq!(report.errors, Vec::new());
    let v = r.get("walls").expect("loaded");
    let mut pos = Position::from_fen(&v, "4k3/4w3/8/8/3W4/8/3P4/4K3 w - - 0 1").unwrap();
    assert_eq!(pos.perft(1), 5);
    assert_eq!(pos.perft(2), 20);
    // A set naming a letter the variant lacks is still an error at its key.
    let bad = Registry::new().load_text("[x:chess]\ncaptureTypes = *z\n", "x.ini", "test");
    assert_eq!(bad.errors.len(), 1, "{:?}", bad.errors);
    assert_eq!(bad.errors[0].line, 2);
}
