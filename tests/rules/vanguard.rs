//! Vanguard Chess against the independent reference counts in tests/data/vanguard-perft.json
//! (H. G. Muller's Interactive Diagram move generator): the diagram line published on the
//! Vanguard page is imported as a variant, and every position's perft counts and depth-1 move
//! lists (per piece, with captured, swapped and passing moves) must match exactly.

use std::collections::BTreeMap;

use chimera_engine::registry::Registry;
use chimera_engine::variant::diagram::{parse_diagram, Diagram};
use chimera_engine::{MoveKind, Position, VariantRef};

use serde_json::Value;

fn reference() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/vanguard-perft.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("reference data"))
        .expect("valid JSON")
}

/// The diagram line as a variant, and the diagram (for the ID -> letter table).
fn diagram_variant(data: &Value) -> (VariantRef, Diagram) {
    let line = data["diagramParameters"].as_str().expect("a string");
    let diagram = parse_diagram(line).expect("the published diagram line parses");
    let mut registry = Registry::new();
    let name = registry
        .load_diagram("vanguard-diagram", line)
        .unwrap_or_else(|e| panic!("{e:?}"));
    (registry.get(&name).unwrap(), diagram)
}

/// The FEN of a reference position: pieces are `w`/`b` + diagram ID + `@` + square, with a
/// trailing `*` for a man that has moved.
fn fen_of(position: &Value, diagram: &Diagram) -> String {
    let (files, ranks) = (diagram.files, diagram.ranks);
    let mut board = vec![vec![String::new(); files]; ranks];
    for p in position["pieces"].as_array().expect("an array") {
        let text = p.as_str().expect("a string");
        let (who, square) = text.split_once('@').unwrap();
        let moved = square.ends_with('*');
        let square = square.trim_end_matches('*');
        let (color, id) = who.split_at(1);
        let piece = diagram
            .pieces
            .iter()
            .find(|d| d.id == id)
            .unwrap_or_else(|| panic!("no piece {id}"));
        let letter = if color == "w" {
            piece.letter
        } else {
            piece.letter.to_ascii_lowercase()
        };
        let file = (square.as_bytes()[0] - b'a') as usize;
        let rank: usize = square[1..].parse::<usize>().unwrap() - 1;
        board[rank][file] = format!("{letter}{}", if moved { "*" } else { "" });
    }
    let mut fen = String::new();
    for rank in (0..ranks).rev() {
        let mut empty = 0;
        for square in &board[rank] {
            if square.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
                empty = 0;
            }
            fen.push_str(square);
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let side = if position["sideToMove"].as_str().expect("a string") == "white" {
        "w"
    } else {
        "b"
    };
    format!("{fen} {side} - - 0 1")
}

/// A move in the reference's key form: `from-to`, then `x` and the captured squares, then `u`
/// and the square where a swapped friend goes. Victims are compared as a sorted set.
fn key_of(pos: &Position, mv: chimera_engine::Move) -> String {
    let g = &pos.variant().geometry();
    let (from, to) = (g.name(mv.from), g.name(mv.to));
    let mut victims: Vec<String> = Vec::new();
    let mut unload = None;
    match mv.kind {
        MoveKind::Locust => {
            victims.push(g.name(mv.aux));
            if mv.to != mv.from && pos.cell(mv.to).is_piece() {
                victims.push(to.clone());
            }
        }
        MoveKind::Sweep => {
            // Every man on the line between the two squares, and the one on the last square.
            let ((_, ff, fr), (_, tf, tr)) = (g.coords(mv.from), g.coords(mv.to));
            let (dx, dy) = (
                (tf as i32 - ff as i32).signum(),
                (tr as i32 - fr as i32).signum(),
            );
            let (mut f, mut r) = (ff as i32, fr as i32);
            loop {
                f += dx;
                r += dy;
                let s = g.square(0, f as usize, r as usize);
                if pos.cell(s).is_piece() {
                    victims.push(g.name(s));
                }
                if s == mv.to {
                    break;
                }
            }
        }
        MoveKind::Swap => {
            victims.push(to.clone());
            unload = Some(from.clone());
        }
        _ => {
            if pos.cell(mv.to).is_piece() {
                victims.push(to.clone());
            }
        }
    }
    victims.sort();
    let mut key = format!("{from}-{to}");
    if !victims.is_empty() {
        key.push('x');
        key.push_str(&victims.join(","));
    }
    if let Some(u) = unload {
        key.push('u');
        key.push_str(&u);
    }
    key
}

/// The reference key with its victims sorted and the diagram's piece code after `=` removed.
fn normalized(key: &str) -> String {
    let key = key.split('=').next().unwrap();
    let (head, unload) = match key.split_once('u') {
        Some((h, u)) => (h, Some(u)),
        None => (key, None),
    };
    let mut out = match head.split_once('x') {
        Some((mv, victims)) => {
            let mut v: Vec<&str> = victims.split(',').collect();
            v.sort();
            format!("{mv}x{}", v.join(","))
        }
        None => head.to_string(),
    };
    if let Some(u) = unload {
        out.push('u');
        out.push_str(u);
    }
    out
}

#[test]
fn the_published_diagram_reproduces_every_reference_count() {
    let data = reference();
    let (variant, diagram) = diagram_variant(&data);
    let mut counts_checked = 0;
    for position in data["positions"].as_array().expect("an array") {
        let name = position["name"].as_str().expect("a string");
        let fen = fen_of(position, &diagram);
        let mut pos =
            Position::from_fen(&variant, &fen).unwrap_or_else(|e| panic!("{name}: {e}: {fen}"));
        assert_eq!(
            Position::from_fen(&variant, &pos.fen()).unwrap().fen(),
            pos.fen(),
            "{name}: FEN round trip"
        );

        // Depth 1, move by move, grouped by the man who moves.
        let moves = pos.legal_moves();
        let mut ours: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut pass = false;
        for &mv in moves.iter() {
            if mv.kind == MoveKind::Pass {
                pass = true;
                continue;
            }
            ours.entry(variant.geometry().name(mv.from))
                .or_default()
                .push(key_of(&pos, mv));
        }
        let mut expected_pass = false;
        let mut mismatches = Vec::new();
        for (piece, list) in position["depth1MovesByPiece"]
            .as_object()
            .expect("an object")
        {
            let square = piece.split('@').nth(1).unwrap().trim_end_matches('*');
            let mut want: Vec<String> = Vec::new();
            for k in list.as_array().expect("an array") {
                let k = normalized(k.as_str().expect("a string"));
                let (a, b) = k.split_once('-').unwrap();
                if a == b {
                    expected_pass = true;
                } else {
                    want.push(k);
                }
            }
            want.sort();
            let mut got = ours.remove(square).unwrap_or_default();
            got.sort();
            if want != got {
                let missing: Vec<_> = want.iter().filter(|k| !got.contains(k)).collect();
                let extra: Vec<_> = got.iter().filter(|k| !want.contains(k)).collect();
                mismatches.push(format!("{piece}: missing {missing:?}, extra {extra:?}"));
            }
        }
        for (square, list) in &ours {
            mismatches.push(format!(
                "{square}: moves the reference does not have: {list:?}"
            ));
        }
        assert_eq!(pass, expected_pass, "{name}: pass");
        assert!(
            mismatches.is_empty(),
            "{name}: depth-1 moves differ:\n{}",
            mismatches.join("\n")
        );

        for (depth, count) in position["perft"].as_object().expect("an object") {
            let depth: u32 = depth.parse().unwrap();
            let count = count.as_f64().expect("a count");
            assert_eq!(pos.perft(depth), count as u64, "{name}: perft({depth})");
            counts_checked += 1;
        }
    }
    assert_eq!(counts_checked, 5, "the reference holds five counts");
}

/// The command line loads a diagram line with `--diagram`; a bad line is an error, not a panic.
#[test]
fn the_command_line_takes_a_diagram() {
    let data = reference();
    let line = data["diagramParameters"]
        .as_str()
        .expect("a string")
        .to_string();
    let run =
        |args: &[&str]| chimera_cli::run(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(run(&["perft", "1", "--diagram", &line]), 0);
    assert_ne!(
        run(&[
            "perft",
            "1",
            "--diagram",
            "files=8 ranks=8 bogus=1 king:K:K:king:e1,,e8"
        ]),
        0
    );
    assert_ne!(
        run(&[
            "perft",
            "1",
            "--diagram",
            "files=8 ranks=8 king:K:caeK:king:e1,,e8"
        ]),
        0
    );
}
