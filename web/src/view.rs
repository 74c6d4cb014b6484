//! The position as the page sees it: the geometry, every cell with its man, the hands, the
//! legal moves as paths of clicks, the pieces with their move patterns (for the drawings),
//! the part of a turn, the moves so far and the result by the rules. A man is named by his
//! full identity, his *key*: his FEN letter, with `+` before it for a promoted type (`+P`, a
//! tokin, is not `P`). JSON out only; nothing here changes a game.

use chimera_engine::movegen::san::to_san;
use chimera_engine::types::{Cell, Color, MoveKind, PieceId};
use chimera_engine::{Move, Position, Registry, Variant};
use serde_json::{json, Value};

/// One legal move as the page enters it: its text (what is sent back to play it), the clicks
/// that make it (square names; `@X` for the hand or reserve man X; `pass`), and the piece
/// letter still to choose after the last click (promotion or gating), if any.
pub fn legal_moves(pos: &Position) -> Vec<Value> {
    let mut p = pos.clone();
    let moves = p.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            let text = pos.move_text(mv);
            let (path, mut choice) = clicks(pos, mv, &text);
            // The man chosen is named by his key: a shogi promotion offers `+P`, not `+`.
            if let Some(p) = mv.promotion().or(mv.gated()) {
                choice = Some(key(pos.variant(), p, Color::White));
            }
            json!({ "text": text, "path": path, "choice": choice })
        })
        .collect()
}

/// The clicks of one move, and the piece to choose at the end.
fn clicks(pos: &Position, mv: Move, text: &str) -> (Vec<String>, Option<String>) {
    let g = pos.variant().geometry();
    let letter = |id: u8| {
        pos.variant()
            .pieces()
            .get(id as usize)
            .map_or('?', |p| p.letter)
    };
    match mv.kind {
        MoveKind::Pass => (vec!["pass".into()], None),
        MoveKind::Drop => (vec![format!("@{}", letter(mv.piece)), g.name(mv.to)], None),
        MoveKind::Place => {
            // The reserve man, then the first-rank square of each file chosen.
            let mut path = vec![format!("@{}", letter(mv.piece)), g.name(mv.from)];
            if mv.to != mv.from {
                path.push(g.name(mv.to));
            }
            (path, None)
        }
        _ => squares_of_text(text),
    }
}

/// The squares a board move's text names, leg after leg (`e5g9,g9f7` gives e5 g9 f7), and a
/// trailing piece letter (promotion or gating: `e7e8q`, `b1c3h`).
fn squares_of_text(text: &str) -> (Vec<String>, Option<String>) {
    let mut path: Vec<String> = Vec::new();
    let mut choice = None;
    for word in text.split(',') {
        let b = word.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let start = i;
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i - start > 1 {
                let sq = word[start..i].to_string();
                if path.last() != Some(&sq) {
                    path.push(sq);
                }
            } else {
                choice = Some(word[start..i].to_ascii_uppercase());
            }
        }
    }
    (path, choice)
}

/// Every cell, board by board, rank by rank from the first, file by file: a man's FEN letter,
/// `""` for an empty square, `"*"` for a hole.
fn cells(pos: &Position) -> Value {
    let v = pos.variant();
    let g = v.geometry();
    let boards: Vec<Value> = (0..g.boards as usize)
        .map(|b| {
            let ranks: Vec<Value> = (0..g.ranks as usize)
                .map(|r| {
                    let files: Vec<String> = (0..g.files as usize)
                        .map(|f| cell_text(pos, pos.cell(g.square(b, f, r))))
                        .collect();
                    json!(files)
                })
                .collect();
            json!(ranks)
        })
        .collect();
    json!(boards)
}

fn cell_text(pos: &Position, cell: Cell) -> String {
    if cell.is_off() {
        return "*".into();
    }
    match cell.piece() {
        Some(p) => key(pos.variant(), p.id, p.color),
        None => String::new(),
    }
}

/// A man's key: his FEN letter in his colour's case, after a `+` for a promoted type.
pub fn key(v: &Variant, id: PieceId, color: Color) -> String {
    let letter = v.letter(id, color);
    if v.pieces()[id.index()].promoted_from.is_some() {
        format!("+{letter}")
    } else {
        letter.to_string()
    }
}

/// The family whose piece set draws the men: `shogi` where there are promoted types, `janggi`
/// and `xiangqi` where their cannons are, `makruk` where the silver and the fers stand in for
/// bishop and queen, `western` otherwise.
fn family(v: &Variant) -> &'static str {
    let has = |name: &str| v.pieces().iter().any(|p| p.name == name);
    if v.pieces().iter().any(|p| p.promoted_from.is_some()) {
        "shogi"
    } else if has("janggiCannon") {
        "janggi"
    } else if has("cannon") && has("soldier") {
        "xiangqi"
    } else if has("silver") && has("fers") {
        "makruk"
    } else {
        "western"
    }
}

/// The part of a turn about to be played, for a variant whose turns have parts: its number
/// and the number of parts of this turn (White's opening turn has its own), and the letters
/// of the men that may move in it.
fn turn_part(pos: &Position) -> Value {
    let v = pos.variant();
    let Some(t) = v.turns() else {
        return Value::Null;
    };
    let phase = pos.turn_phase() as usize;
    let (n, of) = if phase < t.parts.len() {
        (phase + 1, t.parts.len())
    } else {
        (phase - t.parts.len() + 1, t.opening.len())
    };
    let mask = t.types(phase as u8);
    let movers: String = v
        .pieces()
        .iter()
        .enumerate()
        .filter(|(i, p)| mask & (1 << i) != 0 && p.promoted_from.is_none())
        .map(|(_, p)| p.letter)
        .collect();
    json!({ "n": n, "of": of, "opening": phase >= t.parts.len(), "movers": movers })
}

/// The men in each side's hand: `{ "w": {"D": 1}, "b": {...} }`.
fn hands(pos: &Position) -> Value {
    let v = pos.variant();
    let side = |c: Color| {
        let mut m = serde_json::Map::new();
        for id in 0..v.num_pieces() {
            let n = pos.in_hand(c, PieceId(id as u8));
            if n > 0 {
                m.insert(v.pieces()[id].letter.to_string(), json!(n));
            }
        }
        Value::Object(m)
    };
    json!({ "w": side(Color::White), "b": side(Color::Black) })
}

/// The pieces of a variant with what the drawings need: name, letter, royalty, and the plain
/// leaps and slides as (files, ranks) steps from White's side, for the emblem of a fairy piece.
pub fn pieces(registry: &Registry, name: &str) -> Value {
    let Some(v) = registry.get(name) else {
        return json!([]);
    };
    let stride = v.geometry().stride() as i32;
    // A piece of a loaded variant is drawn as its letter; built-in ones have drawings.
    let builtin = v.source() == "built-in";
    let step = |delta: i16| {
        let d = delta as i32;
        let dy = (d as f64 / stride as f64).round() as i32;
        [d - dy * stride, dy]
    };
    let list: Vec<Value> = v
        .pieces()
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let plain = v.plain_moves(PieceId(i as u8), Color::White);
            let leaps: Vec<[i32; 2]> = plain.leaps.iter().map(|l| step(l.delta)).collect();
            let slides: Vec<Value> = plain
                .slides
                .iter()
                .map(|s| {
                    let [dx, dy] = step(s.delta);
                    json!([dx, dy, s.range()])
                })
                .collect();
            json!({
                "key": key(&v, PieceId(i as u8), Color::White),
                "promoted": p.promoted_from.is_some(),
                "letter": p.letter.to_string(),
                "name": p.name,
                "royal": p.royal,
                "builtin": builtin,
                "betza": p.betza,
                "leaps": leaps,
                "slides": slides,
            })
        })
        .collect();
    json!(list)
}

/// The moves of the game from `start`, one word per turn (`a,b` for a turn of parts).
pub fn turn_words(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    start
        .group_turns(moves)
        .iter()
        .map(|turn| pos.play_turn_text(turn))
        .collect()
}

/// The SAN of `moves[from..]`, the moves of a game from `start` (a variant without turns of
/// several parts); the first `from` are only played.
pub fn san_words(start: &Position, moves: &[Move], from: usize) -> Vec<String> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        if i >= from {
            out.push(to_san(&mut pos, mv));
        }
        pos.make_move(mv);
    }
    out
}

/// A search line in SAN, as far as its moves are legal, for a variant without turns of parts
/// (`None` there: its lines stay in coordinates).
pub fn line_san(root: &Position, pv: &[Move]) -> Option<Vec<String>> {
    if root.variant().turns().is_some() {
        return None;
    }
    let mut pos = root.clone();
    let mut out = Vec::new();
    for &mv in pv {
        if !pos.legal_moves().contains(&mv) {
            break;
        }
        out.push(to_san(&mut pos, mv));
        pos.make_move(mv);
    }
    Some(out)
}

/// The clicks of each move of a line (for the last-move marks).
pub fn path_of(pos: &Position, mv: Move) -> Vec<String> {
    clicks(pos, mv, &pos.move_text(mv)).0
}

/// The result by the rules, as `1-0 (checkmate)`, or `None` while the game goes on.
pub fn result(pos: &Position) -> Option<String> {
    pos.clone().outcome().map(|end| end.to_string())
}

/// The static part of the state: the board as it stands.
pub fn board(pos: &Position) -> Value {
    let v = pos.variant();
    let g = v.geometry();
    let fen = pos.fen();
    // Pioneer's reserve field, `{M@g m?}`, shown as it is written.
    let reserve = v
        .reserve()
        .and_then(|_| fen.rfind('{').map(|i| fen[i..].to_string()));
    json!({
        "variant": v.name(),
        "fen": fen,
        "files": g.files,
        "ranks": g.ranks,
        "boards": g.boards,
        "cells": cells(pos),
        "hands": hands(pos),
        "hasHand": v.has_hand(),
        "reserve": reserve,
        "side": if pos.side_to_move() == Color::White { "w" } else { "b" },
        "phase": pos.turn_phase(),
        "parts": v.turns().is_some(),
        "part": turn_part(pos),
        "family": family(v),
        "inCheck": pos.clone().in_check(),
        "moves": legal_moves(pos),
        "result": result(pos),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_follow_the_legs() {
        assert_eq!(
            squares_of_text("e5g9,g9f7"),
            (vec!["e5".into(), "g9".into(), "f7".into()], None)
        );
        assert_eq!(
            squares_of_text("e7e8q"),
            (vec!["e7".into(), "e8".into()], Some("Q".into()))
        );
        assert_eq!(
            squares_of_text("a10p16"),
            (vec!["a10".into(), "p16".into()], None)
        );
    }

    #[test]
    fn every_start_position_has_a_view() {
        let registry = Registry::new();
        for name in chimera_engine::registry::builtin_names() {
            let name = name.as_str();
            let v = registry.get(name).unwrap();
            let pos = Position::startpos(&v);
            let view = board(&pos);
            let moves = view["moves"].as_array().unwrap();
            assert!(!moves.is_empty(), "{name}");
            // Every move's clicks name it uniquely together with its choice.
            let mut keys: Vec<String> = moves
                .iter()
                .map(|m| format!("{}|{}", m["path"], m["choice"]))
                .collect();
            keys.sort();
            keys.dedup();
            assert_eq!(
                keys.len(),
                moves.len(),
                "{name}: two moves share their clicks"
            );
        }
        let pawnvault = board(&Position::startpos(&registry.get("pawnvault").unwrap()));
        assert_eq!(pawnvault["hands"]["w"]["D"], 1);
        let pioneer = board(&Position::startpos(&registry.get("pioneer").unwrap()));
        assert!(pioneer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["path"][0] == "@M"));
    }

    /// Every legal move can be entered by clicks, and no two moves share their clicks and
    /// choice, in positions along pseudo-random games (a fixed-seed generator, so the games
    /// are the same every run); multi-leg moves appear with a click per leg.
    #[test]
    fn every_move_along_random_games_has_its_own_clicks() {
        let registry = Registry::new();
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut legs_seen = 0;
        for name in [
            "vanguard",
            "pawnvault",
            "pioneer",
            "alice",
            "aliceguard",
            "seirawan",
        ] {
            let v = registry.get(name).unwrap();
            for _game in 0..4 {
                let mut pos = Position::startpos(&v);
                for _ply in 0..60 {
                    let moves = legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    let mut keys: Vec<String> = moves
                        .iter()
                        .map(|m| format!("{}|{}", m["path"], m["choice"]))
                        .collect();
                    keys.sort();
                    keys.dedup();
                    assert_eq!(keys.len(), moves.len(), "{name} {}", pos.fen());
                    for m in &moves {
                        let text = m["text"].as_str().unwrap();
                        let path = m["path"].as_array().unwrap();
                        assert!(!path.is_empty(), "{name}: {text}");
                        if text.contains(',') && !text.contains('@') {
                            assert!(path.len() > 2, "{name}: {text} has a click per leg");
                            legs_seen += 1;
                        }
                    }
                    seed = seed
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let pick = (seed >> 33) as usize % moves.len();
                    pos.try_play(moves[pick]["text"].as_str().unwrap())
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                }
            }
        }
        // A Berserker next to an enemy pawn: captures on the way and goes on (`caK`).
        let v = registry.get("vanguard").unwrap();
        let fen = "k14j/16/16/16/16/16/16/7p8/7Z8/16/16/16/16/16/16/K14J w - - 0 1";
        let pos = Position::from_fen(&v, fen).unwrap();
        for m in legal_moves(&pos) {
            let text = m["text"].as_str().unwrap();
            if text.contains(',') {
                assert!(m["path"].as_array().unwrap().len() > 2, "{text}: {m}");
                legs_seen += 1;
            }
        }
        assert!(legs_seen > 0, "no multi-leg move met");
    }
}
