//! The nets built into the binary (from `nets/`) read, fit the variant they were made for and
//! evaluate like a player would: level at the start, the officers (or a chess queen) down
//! clearly losing, from either side's view.

use chimera_engine::registry::builtin;
use chimera_engine::search::Evaluator;
use chimera_engine::Position;
use chimera_nnue::builtin as nets;
use chimera_nnue::eval::NetEval;
use chimera_nnue::features::{turned_view_fits, Layout};

fn chess_net() -> (NetEval, chimera_engine::VariantRef) {
    let net = nets::net_for("chess").expect("chess has a built-in net");
    assert_eq!(net.variant, "chess");
    let v = builtin("chess").unwrap();
    (NetEval::new(net, &v).unwrap(), v)
}

#[test]
fn every_built_in_net_fits_its_variant() {
    let names = nets::variants();
    assert!(names.contains(&"chess"), "{names:?}");
    for name in names {
        let v = builtin(name).unwrap_or_else(|| panic!("{name} is not a built-in variant"));
        let net = nets::net_for(name).unwrap();
        assert!(NetEval::new(net, &v).is_ok(), "{name}");
        let choice = nets::choose(&v, None, true);
        assert_eq!(choice.source, nets::Source::BuiltinNet, "{name}");
    }
}

fn eval(net: &NetEval, v: &chimera_engine::VariantRef, fen: &str) -> i32 {
    let pos = Position::from_fen(v, fen).unwrap();
    let mut cache = net.new_cache();
    net.evaluate_with(&pos, &mut cache)
}

/// A back rank (FEN) without its officers: every man but those `keep` names (kings and pawns)
/// taken off.
fn without_officers(rank: &str, keep: &dyn Fn(char) -> bool) -> String {
    let mut out = String::new();
    let mut empty = 0;
    let mut digits = String::new();
    let flush = |out: &mut String, empty: &mut usize| {
        if *empty > 0 {
            out.push_str(&empty.to_string());
            *empty = 0;
        }
    };
    for c in rank.chars().chain(std::iter::once('/')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            empty += digits.parse::<usize>().unwrap();
            digits.clear();
        }
        match c {
            '/' => {}
            c if keep(c) => {
                flush(&mut out, &mut empty);
                out.push(c);
            }
            _ => empty += 1,
        }
    }
    flush(&mut out, &mut empty);
    out
}

/// True when the board of `fen` is its own picture with the ranks reversed and the colours
/// swapped (chess's start; not makruk's, whose kings and mets stand on other files).
fn mirrors_across_the_middle(fen: &str) -> bool {
    let board = fen.split([' ', '[']).next().unwrap_or("");
    let swapped: String = board
        .chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    let mirrored: Vec<&str> = swapped.split('/').rev().collect();
    mirrored.join("/") == board
}

#[test]
fn every_built_in_net_judges_material_and_symmetry() {
    for name in nets::variants() {
        let v = builtin(name).unwrap();
        let net = NetEval::new(nets::net_for(name).unwrap(), &v).unwrap();
        let start_fen = v.start_fen().to_string();
        let start = eval(&net, &v, &start_fen);
        // Within a move's worth of level: the nets learn the side to move's edge from
        // self-play after random openings (Capablanca's is about 90 cp).
        assert!(start.abs() < 150, "{name}: start {start}");
        // The start position is the same picture for either side to move where Black's men
        // mirror White's across the middle rank, or where they mirror through the centre
        // (makruk's kings face each other's met, shogi's rooks stand on each player's right)
        // and the net sees Black's side turned; a net that sees it mirrored there sees two
        // pictures a file mirror apart, which it must have learned to see nearly alike.
        let black_to_move = start_fen.replacen(" w ", " b ", 1);
        let from_black = eval(&net, &v, &black_to_move);
        let turned = nets::net_for(name).unwrap().layout_hash
            == Layout::of(&v).with_turned_view(true).hash();
        if mirrors_across_the_middle(&start_fen) || (turned && turned_view_fits(&v)) {
            assert_eq!(from_black, start, "{name}");
        } else {
            assert!(
                (from_black - start).abs() < 40,
                "{name}: {start} against {from_black}"
            );
        }
        // White to move without its officers, and the same picture with colours swapped:
        // Black to move without them. Kings and pawns (every pawn type) stay, and so do the
        // men in hand (Pawn Vault's dragon and castellan, the same for both sides).
        let keep = |c: char| {
            v.pieces().iter().enumerate().any(|(t, p)| {
                p.letter == c.to_ascii_uppercase()
                    && (p.royal || v.promotion().pawn_types & (1 << t) != 0)
            })
        };
        let fields: Vec<&str> = start_fen.split_whitespace().collect();
        let (board_field, hands) =
            fields[0].split_at(fields[0].find('[').unwrap_or(fields[0].len()));
        let ranks: Vec<&str> = board_field.split('/').collect();
        let down = |side: &str, rank: usize| {
            let mut board: Vec<String> = ranks.iter().map(|r| r.to_string()).collect();
            board[rank] = without_officers(ranks[rank], &keep);
            format!("{}{hands} {side} - - 0 1", board.join("/"))
        };
        let white_down = down("w", ranks.len() - 1);
        let black_down = down("b", 0);
        let (w, b) = (eval(&net, &v, &white_down), eval(&net, &v, &black_down));
        assert!(w < -400, "{name}: the officers down: {w} ({white_down})");
        // The side to move sees both alike.
        assert!((w - b).abs() < 40, "{name}: {w} against {b}");
    }
}

#[test]
fn the_chess_net_judges_a_queen() {
    let (net, v) = chess_net();
    let white_down = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1";
    let black_down = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
    let (w, b) = (eval(&net, &v, white_down), eval(&net, &v, black_down));
    assert!(w < -400, "a queen down: {w}");
    assert!((w - b).abs() < 40, "{w} against {b}");
    let kings = |c: char| c.eq_ignore_ascii_case(&'k');
    assert_eq!(without_officers("RNBQKBNR", &kings), "4K3");
    assert_eq!(without_officers("RNABQKBCNR", &kings), "5K4");
    assert_eq!(without_officers("1r3k2r1", &kings), "5k4");
    assert_eq!(without_officers("POPOPOPO", &|c| c != 'O'), "P1P1P1P1");
}

#[test]
fn a_chess_net_is_refused_for_another_variant() {
    let net = nets::net_for("chess").unwrap();
    assert!(NetEval::new(net, &builtin("capablanca").unwrap()).is_err());
}

/// Every built-in net speaks the hand-made evaluation's centipawns, the units of the search's
/// margins and piece values: over positions of random games other than those the factor was
/// fitted on, the slope of the hand-made value against the net's is near 1. Chess's
/// net alone is about 1.1 to 1.6 times as wide as the hand-made evaluation before the factor
/// (it has varied from round to round).
#[test]
fn every_built_in_net_is_on_the_hand_made_scale() {
    use chimera_eval::VariantEval;
    use chimera_nnue::calibrate;
    for name in nets::variants() {
        let v = builtin(name).unwrap();
        let net = NetEval::new(nets::net_for(name).unwrap(), &v).unwrap();
        let hand = VariantEval::new(&v);
        // Other games than the factor's own (another seed).
        let samples = calibrate::samples(&v, 7_000, &net, &hand);
        let count = samples.len();
        assert!(count > 100, "{name}: {count} positions");
        let ratio = calibrate::slope(&samples).unwrap_or(0.0);
        assert!(
            (0.8..1.25).contains(&ratio),
            "{name}: hand = {ratio:.3} x net (factor {})",
            net.factor()
        );
    }
    let (chess, _) = chess_net();
    let factor = chess.factor() as f64 / calibrate::ONE as f64;
    assert!((0.6..0.95).contains(&factor), "chess's factor {factor:.3}");
}
