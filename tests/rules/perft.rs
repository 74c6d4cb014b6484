//! Perft suites read from tests/data/perft/<variant>.epd, checked against the built-in variant
//! of the same name: every position at every listed depth up to a node cap, counted from a
//! position whose FEN went through one write/read round trip; plus `perft_divide` against
//! `perft`, `count_legal` against `legal_moves`, and colour-mirrored positions.

use std::fmt::Write as _;
use std::path::PathBuf;

use rayon::prelude::*;

use chimera_engine::registry::builtin;
use chimera_engine::{Position, VariantRef};

use crate::support;
use support::sorted_moves;

/// One line of a suite file: a FEN and its reference counts by depth.
#[derive(Clone, Debug)]
struct Case {
    /// `file:line`, for messages.
    origin: String,
    fen: String,
    /// (depth, node count), in the order the file gives them.
    counts: Vec<(u32, u64)>,
}

fn suite_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/perft")
        .join(format!("{name}.epd"))
}

/// Reads `<FEN> ;D1 n ;D2 n ...` lines; `#` lines and blank lines are skipped. A malformed line
/// is a broken data file, which must fail loudly rather than shrink the suite.
fn load_suite(name: &str) -> Vec<Case> {
    let path = suite_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let origin = format!("{name}.epd:{}", i + 1);
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut counts = Vec::new();
        for part in parts {
            let mut words = part.split_whitespace();
            let (Some(tag), Some(n), None) = (words.next(), words.next(), words.next()) else {
                panic!("{origin}: malformed count '{part}'");
            };
            let depth: u32 = tag
                .strip_prefix('D')
                .and_then(|d| d.parse().ok())
                .unwrap_or_else(|| panic!("{origin}: bad depth tag '{tag}'"));
            let nodes: u64 = n
                .parse()
                .unwrap_or_else(|_| panic!("{origin}: bad node count '{n}'"));
            counts.push((depth, nodes));
        }
        assert!(
            !fen.is_empty() && !counts.is_empty(),
            "{origin}: no FEN or no counts"
        );
        cases.push(Case {
            origin,
            fen,
            counts,
        });
    }
    assert!(!cases.is_empty(), "{name}.epd holds no position");
    cases
}

fn variant(name: &str) -> VariantRef {
    builtin(name).unwrap_or_else(|| panic!("'{name}' is not a built-in variant"))
}

/// Parses `fen`, writes it back, parses that, and returns the second position. The written
/// FEN must be a fixed point (writing the re-read position gives the same text), and both
/// positions must agree on the hash, so the counts below also vouch for FEN writing.
fn round_trip(v: &VariantRef, fen: &str) -> Position {
    let first = Position::from_fen(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    first
        .validate()
        .unwrap_or_else(|e| panic!("{fen}: invalid after parsing: {e}"));
    let written = first.fen();
    let second = Position::from_fen(v, &written)
        .unwrap_or_else(|e| panic!("{fen}: own FEN '{written}' rejected: {e}"));
    assert_eq!(
        second.fen(),
        written,
        "{fen}: FEN not stable through a round trip"
    );
    assert_eq!(
        second.hash(),
        first.hash(),
        "{fen}: hash changed through '{written}'"
    );
    second
        .validate()
        .unwrap_or_else(|e| panic!("{written}: invalid after parsing: {e}"));
    second
}

/// Checks every position of a suite at every depth whose reference count is at most
/// `node_cap`, and requires that every position was checked at least to `min_depth` (so that a
/// cap set too low, or a data file missing shallow depths, cannot quietly weaken the suite).
/// Positions and depths run in parallel, largest first, and every mismatch is reported.
fn check_suite(name: &str, min_depth: u32, node_cap: u64) {
    check_suite_file(name, name, min_depth, node_cap);
}

/// As [`check_suite`], for a suite file whose name is not the variant's
/// (`<variant>-random.epd`).
fn check_suite_file(file: &str, name: &str, min_depth: u32, node_cap: u64) {
    let v = variant(name);
    let cases = load_suite(file);
    let mut jobs: Vec<(&Case, u32, u64)> = Vec::new();
    for case in &cases {
        let deepest_checked = case
            .counts
            .iter()
            .filter(|c| c.1 <= node_cap)
            .map(|c| c.0)
            .max()
            .unwrap_or(0);
        assert!(
            deepest_checked >= min_depth,
            "{}: only checked to depth {deepest_checked} under the cap of {node_cap} nodes; at least {min_depth} wanted",
            case.origin
        );
        jobs.extend(
            case.counts
                .iter()
                .filter(|c| c.1 <= node_cap)
                .map(|&(d, n)| (case, d, n)),
        );
    }
    // Longest jobs first, one job per task, so the two cores finish at about the same time.
    jobs.sort_by_key(|j| std::cmp::Reverse(j.2));
    let failures: Vec<String> = jobs
        .par_iter()
        .with_max_len(1)
        .filter_map(|&(case, depth, expected)| {
            let mut pos = round_trip(&v, &case.fen);
            let got = pos.perft(depth);
            (got != expected).then(|| {
                format!(
                    "{} depth {depth}: expected {expected}, got {got} ({})",
                    case.origin, case.fen
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{name}: {} perft mismatch(es):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// One test per suite: `perft_suite!(test_name, "variant", min_depth, node_cap);`. The shogi
/// and xiangqi suites exist but those variants are not built in yet; each becomes one more line
/// here once it is.
macro_rules! perft_suite {
    ($test:ident, $variant:literal, $min_depth:expr, $cap:expr) => {
        #[test]
        fn $test() {
            check_suite($variant, $min_depth, $cap);
        }
    };
}

/// The node cap of the variant suites: depth 5 of the 8x8 and 10x8 start positions (about
/// 28 million nodes each) is in, Grand's depth 5 (960 million) is not.
const VARIANT_CAP: u64 = 40_000_000;

// Orthodox chess: every depth in the file (start position to 6, Kiwipete to 5, positions 3-6
// to their deepest), about 600 million nodes.
perft_suite!(chess_suite_every_depth, "chess", 5, u64::MAX);
perft_suite!(capablanca_suite, "capablanca", 5, VARIANT_CAP);
perft_suite!(grand_suite, "grand", 4, VARIANT_CAP);
perft_suite!(seirawan_suite, "seirawan", 5, VARIANT_CAP);
perft_suite!(berolina_suite, "berolina", 5, VARIANT_CAP);
// Alice Chess to depth 4 here (a million nodes); depth 5 (33 million nodes, every move made
// and tested for check) is in `alice_suite_depth_5`, run with `--ignored`.
perft_suite!(alice_suite, "alice", 4, 1_000_000);
perft_suite!(aliceguard_suite, "aliceguard", 4, VARIANT_CAP);

/// Fairy-Stockfish's built-in variants that Chimera defines as data (variant/builtin/
/// fairy-stockfish.ini): the start position, castling and promotion, to depth 3.
#[test]
fn fairy_stockfish_builtins() {
    for name in [
        "nocastle",
        "almost",
        "amazon",
        "hoppelpoppel",
        "newzealand",
        "embassy",
        "gothic",
        "modern",
        "chancellor",
        "gardner",
        "losalamos",
        "centaur",
        "chigorin",
        "janus",
        "nightrider",
        "knightmate",
    ] {
        check_suite(name, 3, VARIANT_CAP);
    }
}

/// Positions from seeded random games (made with `cargo run --release --example random_fens`),
/// counted by Fairy-Stockfish 11.1: promotions, e.p., castling rights lost in every way, S-Chess
/// gating at every stage of the game.
macro_rules! random_suite {
    ($test:ident, $file:literal, $variant:literal, $min_depth:expr) => {
        #[test]
        fn $test() {
            check_suite_file($file, $variant, $min_depth, VARIANT_CAP);
        }
    };
}

random_suite!(chess_random_positions, "chess-random", "chess", 4);
random_suite!(
    capablanca_random_positions,
    "capablanca-random",
    "capablanca",
    3
);
random_suite!(grand_random_positions, "grand-random", "grand", 3);
random_suite!(seirawan_random_positions, "seirawan-random", "seirawan", 3);
random_suite!(alice_random_positions, "alice-random", "alice", 3);
// Alice Guard: counted by tools/aliceguard_ref.py (an independent generator from docs/rules.md §2).
random_suite!(
    aliceguard_random_positions,
    "aliceguard-random",
    "aliceguard",
    3
);

// The makruk family (variant/builtin/fsf-makruk.ini), counted by Fairy-Stockfish through
// pyffish (tools/pyffish_perft.py): Ouk Chatrang's first moves and lost rights, Makpong's
// king in check, promotion to the met, counts in the FEN.
random_suite!(makruk_random_positions, "makruk-random", "makruk", 3);
random_suite!(makpong_random_positions, "makpong-random", "makpong", 3);
random_suite!(
    cambodian_random_positions,
    "cambodian-random",
    "cambodian",
    3
);
random_suite!(asean_random_positions, "asean-random", "asean", 3);
random_suite!(aiwok_random_positions, "ai-wok-random", "ai-wok", 3);
random_suite!(shatar_random_positions, "shatar-random", "shatar", 3);
random_suite!(raazuvaa_random_positions, "raazuvaa-random", "raazuvaa", 3);

/// Grand chess at depth 5 (960 million nodes, several seconds on two cores). Run it with
/// `cargo test --release -- --ignored`.
#[test]
#[ignore = "960 million nodes; run with: cargo test --release -- --ignored"]
fn grand_suite_depth_5() {
    check_suite("grand", 5, u64::MAX);
}

/// Alice Chess at depth 5, the reference's deepest (about 33 million nodes).
#[test]
#[ignore = "33 million nodes; run with: cargo test --release -- --ignored"]
fn alice_suite_depth_5() {
    check_suite("alice", 5, u64::MAX);
}

/// The suites whose variants are built in, with a depth at which the slower checks below run.
const BUILT_IN_SUITES: &[(&str, u32)] = &[
    ("chess", 3),
    ("capablanca", 3),
    ("grand", 3),
    ("seirawan", 3),
    ("berolina", 3),
    ("alice", 3),
];

/// The suite files whose variants are not built in yet must still be readable: the harness
/// is ready for them, and a variant that becomes built in should get its suite line above.
#[test]
fn suites_for_future_variants_are_readable() {
    for name in ["shogi", "xiangqi"] {
        let cases = load_suite(name);
        assert!(
            cases.iter().all(|c| c.counts.iter().any(|&(d, _)| d == 1)),
            "{name}: a position without depth 1"
        );
        if builtin(name).is_some() {
            // Not a failure of the engine: a reminder that the suite is not run.
            eprintln!("note: '{name}' is now built in; add perft_suite!({name}_suite, \"{name}\", 4, VARIANT_CAP)");
        }
    }
}

/// `perft_divide` (serial and parallel) lists every legal root move once, and its counts sum
/// to `perft` and to the reference count, at the deepest depth of at most two million nodes.
#[test]
fn divide_sums_to_perft() {
    for &(name, _) in BUILT_IN_SUITES {
        let v = variant(name);
        for case in load_suite(name) {
            let Some(&(depth, expected)) = case
                .counts
                .iter()
                .filter(|c| c.1 <= 2_000_000)
                .max_by_key(|c| c.0)
            else {
                continue;
            };
            let mut pos = round_trip(&v, &case.fen);
            let before = pos.fen();
            // Root moves come in generation order, which follows the piece lists, which
            // make/unmake may permute: compare the divides as sorted (move text, count) lists.
            let text = |pos: &Position, d: Vec<(chimera_engine::Move, u64)>| {
                let mut v: Vec<(String, u64)> =
                    d.into_iter().map(|(m, n)| (pos.move_text(m), n)).collect();
                v.sort();
                v
            };
            let serial = text(&pos, pos.clone().perft_divide(depth, false));
            let parallel = text(&pos, pos.clone().perft_divide(depth, true));
            let in_place = pos.perft_divide(depth, false);
            assert_eq!(
                pos.fen(),
                before,
                "{}: divide changed the position",
                case.origin
            );
            assert_eq!(
                serial, parallel,
                "{}: serial and parallel divide differ",
                case.origin
            );
            let total: u64 = serial.iter().map(|d| d.1).sum();
            assert_eq!(
                total, expected,
                "{} depth {depth}: divide sums to {total}",
                case.origin
            );
            assert_eq!(
                pos.perft(depth),
                total,
                "{} depth {depth}: perft differs from divide",
                case.origin
            );
            assert_eq!(
                serial,
                text(&pos, in_place),
                "{}: divide on a clone differs",
                case.origin
            );
            let legal = sorted_moves(&mut pos);
            let listed: Vec<String> = serial.iter().map(|d| d.0.clone()).collect();
            assert_eq!(
                listed, legal,
                "{}: divide does not list each legal move once",
                case.origin
            );
            // Depth 1 splits into one leaf per move.
            assert!(
                pos.perft_divide(1, false).iter().all(|d| d.1 == 1),
                "{}: divide at depth 1",
                case.origin
            );
        }
    }
}

/// Visits every node of the tree below `pos` to `depth` plies and checks at each one that the
/// bulk counter agrees with the move list, and that the position's FEN reads back to the same
/// FEN and hash. Returns a description of the first disagreement.
fn walk(pos: &mut Position, depth: u32, path: &mut Vec<String>) -> Result<(), String> {
    let moves = pos.legal_moves();
    let counted = pos.count_legal();
    if counted != moves.len() as u64 {
        return Err(format!(
            "after [{}] ({}): count_legal {counted}, legal_moves {}",
            path.join(" "),
            pos.fen(),
            moves.len()
        ));
    }
    let fen = pos.fen();
    match Position::from_fen(pos.variant(), &fen) {
        Ok(back) if back.fen() == fen && back.hash() == pos.hash() => {}
        Ok(back) => {
            return Err(format!(
                "after [{}]: '{fen}' reads back as '{}' (hash equal: {})",
                path.join(" "),
                back.fen(),
                back.hash() == pos.hash()
            ))
        }
        Err(e) => {
            return Err(format!(
                "after [{}]: own FEN '{fen}' rejected: {e}",
                path.join(" ")
            ))
        }
    }
    if depth == 0 {
        return Ok(());
    }
    for &mv in moves.iter() {
        path.push(pos.move_text(mv));
        pos.make_move(mv);
        let r = walk(pos, depth - 1, path);
        pos.unmake_move();
        path.pop();
        r?;
    }
    Ok(())
}

/// `count_legal` (perft's bulk count at the last ply, which skips listing the moves of men
/// that are neither royal nor pinned) equals the length of the legal move list, at each suite
/// position and at every node below it to the walk depth; every node's FEN reads back.
#[test]
fn count_legal_matches_legal_moves() {
    let jobs: Vec<(&str, u32, Case)> = BUILT_IN_SUITES
        .iter()
        .flat_map(|&(name, depth)| load_suite(name).into_iter().map(move |c| (name, depth, c)))
        .collect();
    let failures: Vec<String> = jobs
        .par_iter()
        .with_max_len(1)
        .filter_map(|(name, depth, case)| {
            let mut pos = round_trip(&variant(name), &case.fen);
            // The walk's depth is one less than the checks' depth: the last ply is listed only.
            walk(&mut pos, depth - 1, &mut Vec::new())
                .err()
                .map(|e| format!("{}: {e}", case.origin))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The colour-flipped FEN: ranks in reverse order, letter case swapped on the board, in hand
/// and in the castling field, the other side to move, e.p. squares on the mirrored rank.
fn mirror_fen(fen: &str, ranks: usize) -> String {
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let (board, hand) = match fields[0].find('[') {
        Some(i) => fields[0].split_at(i),
        None => (fields[0], ""),
    };
    let board: Vec<String> = board.split('/').rev().map(swap).collect();
    let mut out = format!("{}{}", board.join("/"), swap(hand));
    out.push_str(if fields[1] == "w" { " b" } else { " w" });
    if let Some(castling) = fields.get(2) {
        let _ = write!(out, " {}", swap(castling));
    }
    if let Some(ep) = fields.get(3) {
        out.push(' ');
        if *ep == "-" {
            out.push('-');
        } else {
            // One or two squares, each a file letter and a rank number.
            let mut chars = ep.chars().peekable();
            while let Some(file) = chars.next() {
                let mut digits = String::new();
                while let Some(d) = chars.next_if(|c| c.is_ascii_digit()) {
                    digits.push(d);
                }
                let rank: usize = digits
                    .parse()
                    .unwrap_or_else(|_| panic!("bad e.p. field in {fen}"));
                let _ = write!(out, "{file}{}", ranks + 1 - rank);
            }
        }
    }
    for rest in fields.iter().skip(4) {
        let _ = write!(out, " {rest}");
    }
    out
}

#[test]
fn mirror_fen_flips_every_field() {
    assert_eq!(
        mirror_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 1", 8),
        "r3k2r/8/8/8/3Pp3/8/8/R3K2R b kQ d3 0 1"
    );
    assert_eq!(
        mirror_fen("4k3/8/8/8/8/8/8/4K3[HEe] b - c3d4 3 9", 10),
        "4k3/8/8/8/8/8/8/4K3[heE] w - c8d7 3 9"
    );
}

/// A position and its colour-flipped twin have the same perft: chess suite positions at
/// depth 4, the other variants' at depth 3 (their rules are symmetric too), with the mirrored
/// count also equal to the reference count. This catches generation that favours one colour
/// (Black's moves are White's turned round, e.p. and castling on the other edge).
#[test]
fn mirrored_positions_have_the_same_perft() {
    let mut jobs = Vec::new();
    for &(name, depth) in BUILT_IN_SUITES {
        let depth = if name == "chess" { 4 } else { depth };
        for case in load_suite(name) {
            jobs.push((name, depth, case));
        }
    }
    let failures: Vec<String> = jobs
        .par_iter()
        .with_max_len(1)
        .filter_map(|(name, depth, case)| {
            let v = variant(name);
            let mut pos = round_trip(&v, &case.fen);
            let mirrored = mirror_fen(&case.fen, v.geometry().ranks as usize);
            let mut flipped = round_trip(&v, &mirrored);
            let (a, b) = (pos.perft(*depth), flipped.perft(*depth));
            let expected = case.counts.iter().find(|c| c.0 == *depth).map(|c| c.1);
            if a != b || expected.is_some_and(|e| e != b) {
                Some(format!("{} depth {depth}: {a} for {}, {b} for the mirror {mirrored} (reference {expected:?})", case.origin, case.fen))
            } else {
                None
            }
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A 16x16 board with drops of five types has more moves than a move list holds on the stack
/// (1,024): the list must move to the heap rather than drop the rest, and the full listing
/// (`legal_moves`) and perft's bulk count must both give the number counted here by hand.
#[test]
fn a_position_with_over_a_thousand_moves_keeps_them_all() {
    const N: usize = 16;
    // The men, by (file, rank) from 0: none of White's attacks Black's king on a16, and Black
    // has nothing else, so no move of White's is pinned or illegal.
    let men: &[(char, usize, usize)] = &[
        ('K', 15, 0),  // p1
        ('Q', 7, 7),   // h8
        ('R', 2, 2),   // c3
        ('B', 4, 12),  // e13
        ('N', 12, 11), // m12
        ('k', 0, 15),  // a16
    ];
    let mut grid = [[' '; N]; N];
    for &(c, f, r) in men {
        grid[r][f] = c;
    }
    let mut fen = String::new();
    for r in (0..N).rev() {
        let mut empty = 0;
        for &c in &grid[r] {
            if c == ' ' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                write!(fen, "{empty}").unwrap();
                empty = 0;
            }
            fen.push(c);
        }
        if empty > 0 {
            write!(fen, "{empty}").unwrap();
        }
        fen.push(if r > 0 { '/' } else { '[' });
    }
    fen.push_str("QRBNPqrbnp] w - - 0 1");

    // The count by hand. Drops: every type on every empty square, pawns not on the first rank
    // nor the last (where they would have to promote).
    let on = |f: i32, r: i32| (0..N as i32).contains(&f) && (0..N as i32).contains(&r);
    let empty = |f: i32, r: i32| grid[r as usize][f as usize] == ' ';
    let white = |f: i32, r: i32| grid[r as usize][f as usize].is_ascii_uppercase();
    let mut expected = 0u64;
    for r in 0..N as i32 {
        for f in 0..N as i32 {
            if empty(f, r) {
                expected += if r == 0 || r == N as i32 - 1 { 4 } else { 5 };
            }
        }
    }
    let orth = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let knight = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    for &(c, f, r) in men {
        let (f, r) = (f as i32, r as i32);
        let (dirs, slide): (Vec<(i32, i32)>, bool) = match c {
            'Q' => ([orth, diag].concat(), true),
            'R' => (orth.to_vec(), true),
            'B' => (diag.to_vec(), true),
            'N' => (knight.to_vec(), false),
            // Black's king is far away, so every step onto the board and off his own men is
            // legal.
            'K' => ([orth, diag].concat(), false),
            _ => continue,
        };
        for (df, dr) in dirs {
            let (mut tf, mut tr) = (f + df, r + dr);
            while on(tf, tr) && !white(tf, tr) {
                expected += 1;
                if !slide || !empty(tf, tr) {
                    break;
                }
                tf += df;
                tr += dr;
            }
        }
    }
    assert!(
        expected > 1024,
        "the position should overflow the inline list: {expected}"
    );

    let mut registry = chimera_engine::registry::Registry::new();
    registry
        .load_text(
            &format!(
                "[big:chess]\nmaxFile = p\nmaxRank = 16\npieceDrops = true\n\
                 capturesToHand = true\ndropPieceTypes = pnbrq\ncastling = false\n\
                 startFen = {fen}\n"
            ),
            "perft.rs",
            "test",
        )
        .into_result()
        .unwrap_or_else(|e| panic!("the test variant does not load: {e:?}"));
    let v = registry.get("big").expect("loaded");
    let mut pos = Position::from_fen(&v, &fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
    assert_eq!(
        pos.legal_moves().len() as u64,
        expected,
        "legal_moves() on {fen}"
    );
    assert_eq!(pos.perft(1), expected, "perft(1) on {fen}");
    // The depth-two count goes through the list of the first ply (as does the search).
    let mut by_hand = 0;
    for mv in pos.legal_moves() {
        pos.make_move(mv);
        by_hand += pos.perft(1);
        pos.unmake_move();
    }
    assert_eq!(pos.perft(2), by_hand);
}
