//! FEN reading and writing for every built-in variant, driven by tests/data/fen/valid.txt and
//! invalid.txt: valid FENs parse, validate and print to a fixed point; invalid ones fail on the
//! right `FenField` with the bad token in the message; no prefix or random mutation of a valid
//! FEN makes the reader (or move generation on what it accepts) panic.

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use chimera_engine::registry::{builtin, builtin_names, Registry};
use chimera_engine::variant::setup::FenField;
use chimera_engine::{Position, VariantRef};

/// One data line: its origin (`file:line`) and its ` | `-separated columns.
struct Line {
    origin: String,
    columns: Vec<String>,
}

/// Reads a data file of tests/data/fen. Columns are separated by " | " (space, bar, space):
/// a bare '|' is part of a FEN (a man on the second board in Alice notation).
fn read_data(name: &str) -> Vec<Line> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fen")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let lines: Vec<Line> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| Line {
            origin: format!("{name}:{}", i + 1),
            columns: format!("{l} ")
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect(),
        })
        .collect();
    assert!(lines.len() >= 10, "{name} holds only {} cases", lines.len());
    lines
}

fn variant(name: &str, origin: &str) -> VariantRef {
    builtin(name).unwrap_or_else(|| panic!("{origin}: '{name}' is not a built-in variant"))
}

/// The valid cases: (origin, variant, FEN, the FEN Chimera should write if given).
fn valid_cases() -> Vec<(String, String, String, Option<String>)> {
    read_data("valid.txt")
        .into_iter()
        .map(|l| {
            assert!(
                (2..=3).contains(&l.columns.len()),
                "{}: expected 2 or 3 columns",
                l.origin
            );
            let expected = l.columns.get(2).cloned();
            (
                l.origin,
                l.columns[0].clone(),
                l.columns[1].clone(),
                expected,
            )
        })
        .collect()
}

#[test]
fn valid_fens_parse_validate_and_print_to_a_fixed_point() {
    let mut failures = Vec::new();
    for (origin, name, fen, expected) in valid_cases() {
        let v = variant(&name, &origin);
        let first = match Position::from_fen(&v, &fen) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{origin}: rejected: {e}"));
                continue;
            }
        };
        if let Err(e) = first.validate() {
            failures.push(format!("{origin}: parsed position is inconsistent: {e}"));
        }
        let written = first.fen();
        // Without a third column the FEN is already in Chimera's written form.
        let wanted = expected.as_deref().unwrap_or(&fen);
        if written != wanted {
            failures.push(format!(
                "{origin}: written as '{written}', expected '{wanted}'"
            ));
        }
        match Position::from_fen(&v, &written) {
            Err(e) => failures.push(format!("{origin}: own FEN '{written}' rejected: {e}")),
            Ok(second) => {
                if second.fen() != written {
                    failures.push(format!(
                        "{origin}: '{written}' is written again as '{}'",
                        second.fen()
                    ));
                }
                if second.hash() != first.hash() || !second.same_state(&first) {
                    failures.push(format!(
                        "{origin}: '{written}' reads back as a different position"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The names of `FenField`'s variants, as the data file writes them.
const FIELDS: &[&str] = &[
    "Fields",
    "Board",
    "Hand",
    "Side",
    "Castling",
    "EnPassant",
    "Halfmove",
    "Fullmove",
    "Position",
    "Reserves",
];

#[test]
fn invalid_fens_fail_on_the_right_field_naming_the_token() {
    let mut failures = Vec::new();
    let mut seen = BTreeSet::new();
    let mut fens = BTreeSet::new();
    for line in read_data("invalid.txt") {
        let origin = &line.origin;
        assert_eq!(line.columns.len(), 4, "{origin}: expected 4 columns");
        let (name, fen, field, token) = (
            &line.columns[0],
            &line.columns[1],
            &line.columns[2],
            &line.columns[3],
        );
        assert!(
            FIELDS.contains(&field.as_str()),
            "{origin}: '{field}' is not a FenField name"
        );
        // Each line is one distinct problem: no FEN is listed twice.
        assert!(
            fens.insert((name.clone(), fen.clone())),
            "{origin}: duplicate case"
        );
        seen.insert(field.clone());
        let v = variant(name, origin);
        match Position::from_fen(&v, fen) {
            Ok(p) => failures.push(format!("{origin}: accepted, written as '{}'", p.fen())),
            Err(e) => {
                let message = e.to_string();
                if format!("{:?}", e.field) != *field {
                    failures.push(format!(
                        "{origin}: field {:?}, expected {field} ({message})",
                        e.field
                    ));
                }
                if !message.contains(token.as_str()) {
                    failures.push(format!(
                        "{origin}: message '{message}' does not contain '{token}'"
                    ));
                }
                if !token.is_empty() && !e.token.contains(token.as_str()) {
                    failures.push(format!(
                        "{origin}: token '{}' does not contain '{token}'",
                        e.token
                    ));
                }
            }
        }
    }
    // The data file exercises every kind of error the reader reports.
    let missing: Vec<&&str> = FIELDS.iter().filter(|f| !seen.contains(**f)).collect();
    assert!(
        missing.is_empty(),
        "invalid.txt has no case for {missing:?}"
    );
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The start position of every built-in variant is written to a fixed point, and the FEN it
/// writes reads back as the same position.
#[test]
fn builtin_start_positions_round_trip() {
    for name in builtin_names() {
        let v = variant(&name, "builtin_names");
        let start = Position::startpos(&v);
        start.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = start.fen();
        let back =
            Position::from_fen(&v, &written).unwrap_or_else(|e| panic!("{name}: '{written}': {e}"));
        assert_eq!(back.fen(), written, "{name}");
        assert!(
            back.same_state(&start) && back.hash() == start.hash(),
            "{name}: '{written}' reads back differently"
        );
    }
}

/// Writing a FEN during a game: after moves that change every field (castling rights lost,
/// an e.p. square, the counters), the FEN Chimera writes is the one expected.
#[test]
fn fen_follows_the_game() {
    let v = variant("chess", "test");
    let mut pos = Position::startpos(&v);
    for mv in ["e2e4", "d7d5", "e4e5", "f7f5"] {
        pos.try_play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    );
    for mv in ["g1f3", "e8f7", "h1g1"] {
        pos.try_play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    // The e.p. chance has passed, Black's king moved (both its rights go), White's h-rook
    // moved (K goes), three plies without a capture or pawn move.
    assert_eq!(
        pos.fen(),
        "rnbq1bnr/ppp1pkpp/8/3pPp2/8/5N2/PPPP1PPP/RNBQKBR1 b Q - 3 4"
    );
    // Berolina writes both e.p. squares.
    let v = variant("berolina", "test");
    let mut pos = Position::startpos(&v);
    for mv in ["g1f3", "b7d5", "f3g1", "d5c4", "b2d4"] {
        pos.try_play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/p1pppppp/8/8/2pP4/8/P1PPPPPP/RNBQKBNR b KQkq c3d4 0 3"
    );
}

/// Gating brings a man from the hand onto the board, which cannot be undone. Whether that
/// resets the halfmove clock is the variant's convention, but a plain gating move (a1b1h) and
/// castling that gates (e1g1h, h1e1h and their queenside forms) must follow the same one; the
/// clock is part of the written FEN.
#[test]
fn gating_moves_treat_the_halfmove_clock_alike() {
    let v = variant("seirawan", "test");
    let start =
        Position::from_fen(&v, "r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w KQkq - 5 20").expect("valid");
    let clocks: Vec<(&str, u16)> = ["a1b1h", "h1g1e", "e1g1h", "h1e1h", "e1c1e", "a1e1e"]
        .iter()
        .map(|&mv| {
            let mut pos = start.clone();
            pos.try_play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
            (mv, pos.halfmove_clock())
        })
        .collect();
    assert!(
        clocks.iter().all(|c| c.1 == clocks[0].1),
        "halfmove clock after each gating move: {clocks:?}"
    );
    // Castling without gating is an ordinary reversible move.
    let mut pos = start.clone();
    pos.try_play("e1g1").expect("e1g1");
    assert_eq!(pos.halfmove_clock(), 6);
}

/// Variants defined here for the tests below: chess whose pawns may become kings, chess whose
/// captures go to hand and may be dropped again, kings excepted, as in crazyhouse (with and
/// without the check rule).
const TEST_VARIANTS: &str = "
# `checking = false` below means \"no check rule\" (kings may be taken), Chimera's reading.
# chimera-dialect: chimera
[kingpromo:chess]
promotionPieceTypes = qk

[house:chess]
pieceDrops = true
dropPieceTypes = pnbrq
capturesToHand = true

[nocheckhouse:house]
checking = false
";

fn test_variant(name: &str) -> VariantRef {
    let mut r = Registry::new();
    r.load_text(TEST_VARIANTS, "fen.rs", "test")
        .into_result()
        .unwrap_or_else(|e| panic!("the test variants do not load: {e:?}"));
    r.get(name).expect("loaded")
}

/// Reads `fen` for `v` and returns the field of its error, or `None` when it is accepted.
fn rejected_on(v: &VariantRef, fen: &str) -> Option<FenField> {
    Position::from_fen(v, fen).err().map(|e| e.field)
}

/// How many royal men a side may have comes from the variant's data: the most one side has in
/// the start position, unless a promotion, drop or reserve can bring one in; nothing where the
/// check rule does not protect royal men.
#[test]
fn the_number_of_royal_men_is_bounded_by_the_variant() {
    let chess = variant("chess", "test");
    assert_eq!(chess.royal_limit(), Some(1));
    assert_eq!(
        rejected_on(&chess, "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        Some(FenField::Position)
    );
    // Vanguard starts with a king and a prince a side, both royal (extinction royalty).
    let vanguard = variant("vanguard", "test");
    assert_eq!(vanguard.royal_limit(), Some(2));
    assert_eq!(
        rejected_on(
            &vanguard,
            "k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/KJK13 w - - 0 1"
        ),
        Some(FenField::Position)
    );
    assert_eq!(
        rejected_on(
            &vanguard,
            "kj14/16/16/16/16/16/16/16/16/16/16/16/16/16/16/KJ14 w - - 0 1"
        ),
        None
    );
    // Where pawns may promote to kings, a second king is a position play can reach; past what
    // the board code follows (8), it is still rejected.
    let kingpromo = test_variant("kingpromo");
    assert_eq!(kingpromo.royal_limit(), Some(8));
    assert_eq!(
        rejected_on(&kingpromo, "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        None
    );
    assert_eq!(
        rejected_on(&kingpromo, "4k3/8/8/8/8/8/K7/KKKKKKKK w - - 0 1"),
        Some(FenField::Position)
    );
    // Alice Guard has no check rule: a royal man is only the man whose loss decides.
    assert_eq!(variant("aliceguard", "test").royal_limit(), None);
}

/// What a hand may hold comes from the variant's data: types that can be dropped, gated, or
/// captured into a hand; a royal type only when it can be dropped or captured.
#[test]
fn hands_hold_only_men_the_rules_can_put_there() {
    let pawnvault = variant("pawnvault", "test");
    let start = "rnbqkbnr/popopopo/8/8/8/8/POPOPOPO/RNBQKBNR[DTdt] w KQkq - 0 1";
    assert_eq!(rejected_on(&pawnvault, start), None);
    for extra in ["K", "P", "O", "Q", "H", "k", "p"] {
        let fen = start.replace("[DTdt]", &format!("[DTdt{extra}]"));
        let err = Position::from_fen(&pawnvault, &fen).expect_err(&fen);
        assert_eq!(err.field, FenField::Hand, "{fen}: {err}");
        assert_eq!(err.token, extra, "{fen}: {err}");
    }
    // S-Chess gates any man but the king (whether a queen in hand is likely is for
    // `oddities`).
    let seirawan = variant("seirawan", "test");
    let base = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    assert_eq!(
        rejected_on(&seirawan, &format!("{base}[HEheQ] w KQkq - 0 1")),
        None
    );
    assert_eq!(
        rejected_on(&seirawan, &format!("{base}[HEheK] w KQkq - 0 1")),
        Some(FenField::Hand)
    );
    // Captures to hand: any man but the king, while the check rule protects him.
    let house = test_variant("house");
    assert_eq!(
        rejected_on(&house, &format!("{base}[PNBRQpnbrq] w KQkq - 0 1")),
        None
    );
    assert_eq!(
        rejected_on(&house, &format!("{base}[k] w KQkq - 0 1")),
        Some(FenField::Hand)
    );
    let nocheck = test_variant("nocheckhouse");
    assert_eq!(
        rejected_on(&nocheck, &format!("{base}[Kk] w KQkq - 0 1")),
        None
    );
}

/// Castling rights are each given once, and the error names the letter that repeats one.
#[test]
fn a_castling_right_given_twice_names_the_letter() {
    let chess = variant("chess", "test");
    for (rights, letter) in [
        ("KQkqKQkq", "K"),
        ("KK", "K"),
        ("Kqq", "q"),
        ("KH", "H"),
        ("HK", "K"),
        ("QA", "A"),
        ("kh", "h"),
    ] {
        let fen = format!("r3k2r/8/8/8/8/8/8/R3K2R w {rights} - 0 1");
        let err = Position::from_fen(&chess, &fen).expect_err(&fen);
        assert_eq!(
            (err.field, err.token.as_str()),
            (FenField::Castling, letter),
            "{fen}: {err}"
        );
    }
    // One right a side and wing, each named once, in any order or notation.
    for rights in ["KQkq", "qkQK", "HAha", "Kq", "-"] {
        let fen = format!("r3k2r/8/8/8/8/8/8/R3K2R w {rights} - 0 1");
        assert!(Position::from_fen(&chess, &fen).is_ok(), "{fen}");
    }
}

/// Text that is not ASCII in any field is an error on that field, naming the text.
#[test]
fn non_ascii_text_is_an_error_of_its_field() {
    let chess = variant("chess", "test");
    let seirawan = variant("seirawan", "test");
    let pioneer = variant("pioneer", "test");
    let cases: &[(&VariantRef, &str, FenField, &str)] = &[
        (
            &chess,
            "4k3/8/8/8/8/8/8/4K2é w - - 0 1",
            FenField::Board,
            "é",
        ),
        (
            &chess,
            "4k3/8/8/8/8/8/8/4K\u{FFFD}2 w - - 0 1",
            FenField::Board,
            "\u{FFFD}",
        ),
        (
            &seirawan,
            "4k3/8/8/8/8/8/8/4K3[Hé] w - - 0 1",
            FenField::Hand,
            "é",
        ),
        (&chess, "4k3/8/8/8/8/8/8/4K3 é - - 0 1", FenField::Side, "é"),
        (
            &chess,
            "4k3/8/8/8/8/8/8/4K3 bé - - 0 1",
            FenField::Side,
            "bé",
        ),
        (
            &chess,
            "4k3/8/8/8/8/8/8/4K2R w Ké - 0 1",
            FenField::Castling,
            "Ké",
        ),
        (
            &chess,
            "4k3/8/8/8/8/8/8/4K3 w - é 0 1",
            FenField::EnPassant,
            "é",
        ),
        (
            &chess,
            "4k3/8/8/8/8/8/8/4K3 w - é3 0 1",
            FenField::EnPassant,
            "é3",
        ),
        (
            &chess,
            "4k3/8/8/8/8/8/8/4K3 w - e\u{FFFD} 0 1",
            FenField::EnPassant,
            "e\u{FFFD}",
        ),
        (
            &chess,
            "4k3/8/8/8/8/8/8/4K3 w - - é 1",
            FenField::Halfmove,
            "é",
        ),
        (
            &chess,
            "4k3/8/8/8/8/8/8/4K3 w - - 0 é",
            FenField::Fullmove,
            "é",
        ),
        (
            &pioneer,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {M@é m?}",
            FenField::Reserves,
            "M@é",
        ),
    ];
    for &(v, fen, field, token) in cases {
        let err = catch_unwind(AssertUnwindSafe(|| Position::from_fen(v, fen)))
            .unwrap_or_else(|_| panic!("{fen}: the reader panicked"))
            .expect_err(fen);
        assert_eq!(err.field, field, "{fen}: {err}");
        assert_eq!(err.token, token, "{fen}: {err}");
        assert!(err.to_string().contains(token), "{fen}: {err}");
    }
}

/// `oddities` names what no game reaches, and nothing in positions that games do reach.
#[test]
fn oddities_name_what_no_game_reaches() {
    let odd = |v: &VariantRef, fen: &str| {
        Position::from_fen(v, fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .oddities()
    };
    let seirawan = variant("seirawan", "test");
    let hawks = odd(
        &seirawan,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HHHHHHHHHHHHHHHHHHHHHHEEhe] w KQBCDFGkqbcdfg \
         - 0 1",
    );
    assert!(
        hawks.len() == 2 && hawks[0].contains("22 H") && hawks[1].contains("2 E"),
        "{hawks:?}"
    );
    // A queen in an S-Chess hand: gating may bring him in, but no game puts him there.
    let queen = odd(&seirawan, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1");
    assert!(queen.len() == 1 && queen[0].contains("1 Q"), "{queen:?}");
    let chess = variant("chess", "test");
    let pawns = odd(&chess, "4k3/8/8/8/8/8/PPPPPPPP/P3K3 w - - 0 1");
    assert!(pawns.len() == 1 && pawns[0].contains("9 P"), "{pawns:?}");
    // Nine queens are one and eight promoted pawns; ten are too many.
    assert!(odd(&chess, "k7/pp6/8/8/8/8/QQQQQQQQ/Q3K3 w - - 0 1").is_empty());
    assert_eq!(
        odd(&chess, "k7/pp6/8/8/8/8/QQQQQQQQ/QQ2K3 w - - 0 1").len(),
        1
    );
    let clock = odd(&chess, "4k3/8/8/8/8/8/8/4K3 w - - 150 80");
    assert!(clock.len() == 1 && clock[0].contains("150"), "{clock:?}");
    // Where captures go to hand, the other side's men may come over.
    let house = test_variant("house");
    assert!(odd(&house, "4k3/8/8/8/8/8/8/4K3[QQ] w - - 0 1").is_empty());
    assert_eq!(
        odd(&house, "4k3/8/8/8/8/8/8/4K3[QQQQQQQQQQQQQQQQQQQ] w - - 0 1").len(),
        1
    );
}

/// No position a game reaches is odd: random games from the start position of every built-in
/// variant, and of a variant whose captures go to hand, checked at every ply.
#[test]
fn positions_reached_in_play_are_never_odd() {
    let mut variants: Vec<VariantRef> = builtin_names()
        .iter()
        .map(|n| variant(n, "builtin_names"))
        .collect();
    variants.push(test_variant("house"));
    variants.push(test_variant("kingpromo"));
    let mut rng = SmallRng::seed_from_u64(0x0dd_17e5);
    let mut failures = Vec::new();
    let mut plies = 0;
    for v in &variants {
        for _ in 0..3 {
            let mut pos = Position::startpos(v);
            for _ in 0..60 {
                if let Some(odd) = pos.oddities().first() {
                    failures.push(format!("{} '{}': {odd}", v.name(), pos.fen()));
                    break;
                }
                if pos.outcome().is_some() {
                    break;
                }
                let moves = pos.legal_moves();
                pos.make_move(moves[rng.gen_range(0..moves.len())]);
                plies += 1;
            }
        }
    }
    assert!(plies > 1000, "only {plies} plies played");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
