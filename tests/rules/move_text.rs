//! Move text as input: malformed tokens are `MoveError::Syntax`, well-formed but illegal ones
//! `MoveError::Illegal`, and neither changes the position; every legal move's text, in every
//! built-in variant (promotions, castling in both forms, e.p., S-Chess gating and castling
//! with gating), parses back to the same move.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use chimera_engine::registry::{builtin, builtin_names};
use chimera_engine::{MoveError, MoveKind, Position};

fn position(variant: &str, fen: &str) -> Position {
    let v = builtin(variant).unwrap_or_else(|| panic!("'{variant}' is not built in"));
    Position::from_fen(&v, fen).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const SEIRAWAN_START: &str =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1";

/// Which error a token must give.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Syntax,
    Illegal,
}

/// Feeds `token` to `parse_move` and to `try_play`; both must fail with `kind`, carry the token
/// as given, and leave the position exactly as it was (state, FEN, hash). Returns a
/// description of what went wrong.
fn check_rejected(pos: &mut Position, token: &str, kind: Kind) -> Option<String> {
    let before = pos.clone();
    let (fen, hash) = (pos.fen(), pos.hash());
    let parsed = pos.parse_move(token);
    let played = pos.try_play(token);
    let mut problems = Vec::new();
    for (what, result) in [("parse_move", parsed), ("try_play", played)] {
        match result {
            Ok(mv) => problems.push(format!("{what} accepted it as {mv:?}")),
            Err(MoveError::Syntax(t)) if kind == Kind::Syntax && t == token => {}
            Err(MoveError::Illegal(t)) if kind == Kind::Illegal && t == token => {}
            Err(e) => problems.push(format!("{what}: {e:?}, expected {kind:?}")),
        }
    }
    if !pos.same_state(&before)
        || pos.fen() != fen
        || pos.hash() != hash
        || pos.game_ply() != before.game_ply()
    {
        problems.push(format!("the position changed to {}", pos.fen()));
        // Put it back so the next token is tested on the right position.
        *pos = before;
    }
    (!problems.is_empty()).then(|| format!("{fen}: '{token}': {}", problems.join("; ")))
}

/// Runs a table of (variant, FEN, token, expected error) and reports every failure at once.
fn check_table(cases: &[(&str, &str, &str, Kind)]) {
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|&(variant, fen, token, kind)| {
            check_rejected(&mut position(variant, fen), token, kind)
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

use Kind::{Illegal, Syntax};

/// Tokens that are not moves in any variant: a lone square, too many suffix letters, an
/// empty text, drops without a piece or a square, junk.
#[test]
fn malformed_tokens_are_syntax_errors() {
    let mut cases = Vec::new();
    for (variant, fen) in [("chess", CHESS_START), ("seirawan", SEIRAWAN_START)] {
        for token in [
            "e2",
            "e2e4qq",
            "",
            " ",
            "@@",
            "N@",
            "@e4",
            "NN@e4",
            "e2-e4",
            "e2e",
            "2e4e",
            "e2e4e6",
            "e0e1",
            "e2e04",
            "e2e123",
            "é2e4",
            "e2é4",
            "e2e4é",
            "N@é4",
            "e7e8+q",
            "\u{0}",
            "e2\u{0}e4",
        ] {
            cases.push((variant, fen, token, Syntax));
        }
    }
    check_table(&cases);
    // A very long token is rejected without trouble.
    let long = "e2".repeat(10_000);
    assert!(check_rejected(&mut position("chess", CHESS_START), &long, Syntax).is_none());
}

/// Tokens that name a square off this variant's board (`e2e9` and `z1z2` on 8x8) or a
/// promotion letter that is no piece at all (`x`): the text cannot name a move of this variant,
/// whatever the position, so the error is one of syntax.
#[test]
fn tokens_outside_the_variant_are_syntax_errors() {
    check_table(&[
        ("chess", CHESS_START, "e2e9", Syntax),
        ("chess", CHESS_START, "z1z2", Syntax),
        ("chess", CHESS_START, "a9a10", Syntax),
        ("chess", "4k3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8x", Syntax),
        ("seirawan", SEIRAWAN_START, "g1f3x", Syntax),
        ("chess", CHESS_START, "X@e4", Syntax),
    ]);
}

/// Well-formed tokens that name no legal move here.
#[test]
fn well_formed_illegal_moves_are_illegal() {
    check_table(&[
        // Not a pawn move; the other side's man; an empty square; a pass where none exists.
        ("chess", CHESS_START, "e2e5", Illegal),
        ("chess", CHESS_START, "e7e5", Illegal),
        ("chess", CHESS_START, "e4e5", Illegal),
        ("chess", CHESS_START, "0000", Illegal),
        ("chess", CHESS_START, "@@@@", Illegal),
        ("chess", CHESS_START, "e2e2", Illegal),
        // Castling through men, in both notations.
        ("chess", CHESS_START, "e1g1", Illegal),
        ("chess", CHESS_START, "e1h1", Illegal),
        ("chess", CHESS_START, "e1c1", Illegal),
        // Castling without the right (rights lost), and out of check.
        (
            "chess",
            "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
            "e1g1",
            Illegal,
        ),
        (
            "chess",
            "r3k2r/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
            "e1g1",
            Illegal,
        ),
        // Castling through an attacked square (f1 is hit by the rook on f8).
        (
            "chess",
            "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "e1g1",
            Illegal,
        ),
        // A move that leaves the king in check (the e2 knight is pinned).
        (
            "chess",
            "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1",
            "e2c3",
            Illegal,
        ),
        // Promotion is compulsory on the last rank: no letter, or a king or pawn letter.
        ("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8", Illegal),
        ("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8k", Illegal),
        ("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8p", Illegal),
        // A promotion letter on a move that does not promote.
        ("chess", CHESS_START, "e2e4q", Illegal),
        // Capablanca promotes to its own pieces, but not to a king.
        (
            "capablanca",
            "5k4/P9/10/10/10/10/10/5K4 w - - 0 1",
            "a7a8",
            Illegal,
        ),
        (
            "capablanca",
            "5k4/P9/10/10/10/10/10/5K4 w - - 0 1",
            "a7a8k",
            Illegal,
        ),
        // Grand: the last rank compels promotion, to a type the player has lost (here none:
        // White still has every piece, so the pawn on j9 may not step to the empty j10).
        (
            "grand",
            "r9/1nbqkcabnP/pppppppp1p/10/10/10/10/PPPPPPPPP1/1NBQKCABN1/R8R w - - 0 1",
            "j9j10q",
            Illegal,
        ),
        (
            "grand",
            "r9/1nbqkcabnP/pppppppp1p/10/10/10/10/PPPPPPPPP1/1NBQKCABN1/R8R w - - 0 1",
            "j9j10",
            Illegal,
        ),
        // Drops in variants without drops.
        ("chess", CHESS_START, "N@e4", Illegal),
        ("seirawan", SEIRAWAN_START, "H@e4", Illegal),
        ("seirawan", SEIRAWAN_START, "E@e4", Illegal),
        // Gating a piece that is not in hand (White holds only the elephant).
        (
            "seirawan",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Ehe] w KQBCDFGkqbcdfg - 0 1",
            "g1f3h",
            Illegal,
        ),
        // Gating a type that is never in hand, and gating onto the square of a man that has
        // lost his gating right (no 'g' in the castling field).
        ("seirawan", SEIRAWAN_START, "g1f3q", Illegal),
        (
            "seirawan",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFkqbcdfg - 0 1",
            "g1f3h",
            Illegal,
        ),
        // Gating by a man off the first rank.
        ("seirawan", SEIRAWAN_START, "e2e4h", Illegal),
        // Castling with gating when the castling itself is blocked.
        ("seirawan", SEIRAWAN_START, "e1g1h", Illegal),
        ("seirawan", SEIRAWAN_START, "h1e1h", Illegal),
        // Berolina pawns move diagonally and capture straight: e2e4 is no Berolina move.
        ("berolina", CHESS_START, "e2e4", Illegal),
        ("berolina", CHESS_START, "e2e3", Illegal),
    ]);
}

/// Random tokens built from the characters of move notation: parsing never panics, every
/// error leaves the position as it was, and an accepted token is a legal move whose own text
/// reads back as the same move.
#[test]
fn random_tokens_do_not_panic_or_change_the_position() {
    let alphabet: Vec<char> = "abcdefghijklmnopz0123456789@+=-NBRQKPHEnbrqkpheé "
        .chars()
        .collect();
    let mut rng = SmallRng::seed_from_u64(7_331);
    let positions = [
        position("chess", CHESS_START),
        position("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
        position("seirawan", SEIRAWAN_START),
        position(
            "grand",
            "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
        ),
    ];
    let mut failures = Vec::new();
    let mut accepted = 0;
    for i in 0..3000 {
        let mut pos = positions[i % positions.len()].clone();
        // Half the tokens are random characters; the other half are the text of a legal move
        // with one character replaced, which are often legal moves too, or near misses.
        let token: String = if i % 2 == 0 {
            let len = rng.gen_range(0..8);
            (0..len)
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect()
        } else {
            let moves = pos.legal_moves();
            let mut chars: Vec<char> = pos
                .move_text(moves[rng.gen_range(0..moves.len())])
                .chars()
                .collect();
            let at = rng.gen_range(0..chars.len());
            chars[at] = alphabet[rng.gen_range(0..alphabet.len())];
            chars.into_iter().collect()
        };
        let before = pos.clone();
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pos.try_play(&token)));
        match outcome {
            Err(_) => failures.push(format!("'{token}' on {}: panicked", before.fen())),
            Ok(Err(_)) if !pos.same_state(&before) || pos.hash() != before.hash() => {
                failures.push(format!(
                    "'{token}' on {}: rejected but the position changed",
                    before.fen()
                ))
            }
            Ok(Err(_)) => {}
            Ok(Ok(mv)) => {
                accepted += 1;
                let mut fresh = before.clone();
                if !fresh.legal_moves().contains(&mv)
                    || fresh.parse_move(&before.move_text(mv)) != Ok(mv)
                {
                    failures.push(format!("'{token}' on {}: accepted as {mv:?}", before.fen()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Some random tokens are real moves ("a2a3"); a few acceptances show the generator reaches
    // the matching code, not only the syntax check.
    assert!(accepted > 0, "no random token was a legal move");
}

/// Checks that every legal move of `pos` has a distinct text that `parse_move` turns back into
/// the same move (also written in upper case, and with spaces around), and that `try_play`
/// of that text makes the same move as `make_move`. Recurses `depth` plies further.
fn check_round_trip(
    pos: &mut Position,
    depth: u32,
    failures: &mut Vec<String>,
    kinds: &mut Vec<MoveKind>,
) {
    let moves = pos.legal_moves();
    let texts: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
    let fen = pos.fen();
    for (i, (&mv, text)) in moves.iter().zip(&texts).enumerate() {
        if !kinds.contains(&mv.kind) {
            kinds.push(mv.kind);
        }
        if texts[..i].contains(text) {
            failures.push(format!("{fen}: two legal moves are written '{text}'"));
        }
        match pos.parse_move(text) {
            Ok(back) if back == mv => {}
            other => failures.push(format!("{fen}: '{text}' ({mv:?}) parses as {other:?}")),
        }
        let padded = format!(" {text} ");
        if pos.parse_move(&padded) != Ok(mv) {
            failures.push(format!("{fen}: '{padded}' does not parse as '{text}'"));
        }
        let mut by_text = pos.clone();
        match by_text.try_play(text) {
            Ok(_) => {
                pos.make_move(mv);
                if !by_text.same_state(pos) || by_text.fen() != pos.fen() {
                    failures.push(format!("{fen}: try_play('{text}') differs from make_move"));
                }
                if depth > 0 {
                    check_round_trip(pos, depth - 1, failures, kinds);
                }
                pos.unmake_move();
            }
            Err(e) => failures.push(format!("{fen}: try_play('{text}'): {e}")),
        }
    }
}

/// Positions per built-in variant for the round trip, each chosen for a kind of move.
const ROUND_TRIP_POSITIONS: &[(&str, &str)] = &[
    ("chess", CHESS_START),
    // Kiwipete: castling both ways, captures, e.p. after a double step at ply 2.
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    // Promotions, with and without capture, for both sides.
    (
        "chess",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    // E.p. on the board.
    (
        "chess",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ),
    // Castling where the king moves one file (f1-g1), none (g1), or towards the rook (b1-c1),
    // written in the king-takes-rook form.
    ("chess", "7k/8/8/8/8/8/8/RK3R2 w KQ - 0 1"),
    ("chess", "6k1/8/8/8/8/8/8/6KR w K - 0 1"),
    ("chess", "1r2k1r1/8/8/8/8/8/8/RR2K2R w BHg - 0 1"),
    (
        "capablanca",
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    ),
    ("capablanca", "r4k3r/1P8/10/10/10/10/8p1/R4K3R w KQkq - 0 1"),
    (
        "grand",
        "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
    ),
    // Grand pawns on ranks 7 to 9 with lost pieces to promote to: optional promotion on 8-9.
    (
        "grand",
        "r8r/1nb1kcabn1/p1pppppppp/1P8/10/10/10/P1PPPPPPPP/1NB1KCABN1/R8R w - - 0 1",
    ),
    ("berolina", CHESS_START),
    // Berolina e.p. (c4 takes on c3) and a Berolina promotion.
    (
        "berolina",
        "rnbqkbnr/p1pppppp/8/8/2pP4/8/P1PPPPPP/RNBQKBNR b KQkq c3d4 0 3",
    ),
    ("berolina", "n3k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
    ("seirawan", SEIRAWAN_START),
    // Castling with gating on the king's square (e1g1h) and on the rook's (h1e1h).
    ("seirawan", "r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w KQkq - 0 1"),
    // Promotion to the S-Chess pieces.
    ("seirawan", "4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1"),
    // Pawn Vault: vaults, castellan gating (compulsory for the last pawn), dragon drops,
    // e.p. by every pawn type, hero promotions.
    (
        "pawnvault",
        "rnbqkbnr/popopopo/8/8/8/8/POPOPOPO/RNBQKBNR[DTdt] w KQkq - 0 1",
    ),
    ("pawnvault", "4k3/2p1P3/8/3T4/3o4/4O3/3P3P/4K3[DTdt] w - - 0 1"),
    // Pioneer: the file choice, then entries by a move and by castling.
    (
        "pioneer",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {M? m?}",
    ),
    (
        "pioneer",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1 {M@e m@a}",
    ),
    (
        "pioneer-two",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {M? M? m? m?}",
    ),
    // Vanguard: multi-leg moves (locust, rifle, sweep, swap, pass) in a crowded middlegame.
    (
        "vanguard",
        "h1y1bkaq1jcbfyuh/r3ttow1otzl2r/pp1ps1sg2tspp1p/4l1e1e4n2/2p7s5/1zf2s3s5g/11H2p1/1n14/11S1L2/1P3S10/4G11/1N5u6N1/4S2L4P3/P1PP1ZTEESS2PPP/2R1T1OWGOTT1Z1R/1UYFB1AQKJCBFYUH w - - 0 30",
    ),
];

#[test]
fn every_legal_move_text_parses_back_to_the_move() {
    let mut failures = Vec::new();
    let mut kinds = Vec::new();
    let mut covered = Vec::new();
    for &(variant, fen) in ROUND_TRIP_POSITIONS {
        let mut pos = position(variant, fen);
        let before = pos.clone();
        // Two plies: the root moves and every reply.
        check_round_trip(&mut pos, 1, &mut failures, &mut kinds);
        assert!(
            pos.same_state(&before),
            "{fen}: the walk did not restore the position"
        );
        covered.push(variant);
    }
    assert!(
        failures.is_empty(),
        "{} failure(s), first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
    // Every built-in variant and every kind of move but passes and drops (no built-in variant
    // has them) went through the round trip.
    // The other built-in variants (the Pioneer family's one-piece variants differ from
    // `pioneer` only in the reserve man) go through from their start position.
    for name in builtin_names() {
        if !covered.contains(&name.as_str()) {
            let v = builtin(&name).unwrap();
            let mut pos = Position::startpos(&v);
            // Where a move also places a wall (the duck's 640, the Amazons' 2176), the replies
            // would be half a million parses: the root moves alone.
            let depth = if pos.legal_moves().len() > 300 { 0 } else { 1 };
            check_round_trip(&mut pos, depth, &mut failures, &mut kinds);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for kind in [
        MoveKind::Normal,
        MoveKind::DoubleStep,
        MoveKind::EnPassant,
        MoveKind::Castle,
        MoveKind::CastleGateKing,
        MoveKind::CastleGateRook,
        MoveKind::Gate,
    ] {
        assert!(
            kinds.contains(&kind),
            "no {kind:?} move in the round-trip positions"
        );
    }
}

/// The written forms the notation promises, move by move: castling as the king's move and in
/// the king-takes-rook form, promotions with a lower-case letter, gating after the move, and
/// castling with gating on either square.
#[test]
fn notation_examples() {
    let mut kiwipete = position(
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    );
    for (king_move, rook_capture) in [("e1g1", "e1h1"), ("e1c1", "e1a1")] {
        let a = kiwipete
            .parse_move(king_move)
            .unwrap_or_else(|e| panic!("{king_move}: {e}"));
        let b = kiwipete
            .parse_move(rook_capture)
            .unwrap_or_else(|e| panic!("{rook_capture}: {e}"));
        assert_eq!(a, b, "{king_move} and {rook_capture} are the same castling");
        assert!(a.is_castle());
        assert_eq!(kiwipete.move_text(a), king_move);
    }
    // Upper-case promotion letters and a trailing '=' are read too.
    let mut promo = position("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let q = promo.parse_move("a7a8q").expect("a7a8q");
    assert_eq!(promo.parse_move("a7a8Q"), Ok(q));
    assert_eq!(promo.move_text(q), "a7a8q");
    assert_eq!(promo.parse_move("a7a8q="), Ok(q));

    let mut s = position("seirawan", "r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w KQkq - 0 1");
    let on_king = s.parse_move("e1g1h").expect("e1g1h");
    assert_eq!(on_king.kind, MoveKind::CastleGateKing);
    assert_eq!(
        s.parse_move("e1h1h"),
        Ok(on_king),
        "king-takes-rook form with gating"
    );
    let on_rook = s.parse_move("h1e1h").expect("h1e1h");
    assert_eq!(on_rook.kind, MoveKind::CastleGateRook);
    assert_ne!(on_king, on_rook);
    // After e1g1h the hawk stands on e1; after h1e1h on h1.
    let mut a = s.clone();
    a.make_move(on_king);
    assert!(
        a.fen().starts_with("r3k2r/8/8/8/8/8/8/R3HRK1[Eeh] b"),
        "{}",
        a.fen()
    );
    let mut b = s.clone();
    b.make_move(on_rook);
    assert!(
        b.fen().starts_with("r3k2r/8/8/8/8/8/8/R4RKH[Eeh] b"),
        "{}",
        b.fen()
    );
    let gate = position("seirawan", SEIRAWAN_START)
        .parse_move("b1c3e")
        .expect("b1c3e");
    assert_eq!(gate.kind, MoveKind::Gate);
}
